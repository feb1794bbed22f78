"""The official sandbox cache folder (issue 21): which file a tool reads, what a file may hold,
which answer wins when two keys of a file normalise alike, and what the simulator's examples are.
Every rule is pinned by what a caller gets back: the result text, the source, the message."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from lifebench.errors import InputError
from lifebench.travel.sandbox import Sandbox, SandboxConfig
from lifebench.travel.sandbox.cache import OfficialCache
from lifebench.travel.sandbox.keys import normalized_key, official_key, official_params

TIME = "2025-10-24 10:00"
TOOL = "map_search_places"


def _folder(tmp_path: Path, text: str, tool: str = TOOL) -> Path:
    folder = tmp_path / "sandbox_cache"
    folder.mkdir(exist_ok=True)
    (folder / f"{tool}_cache.json").write_text(text, encoding="utf-8")
    return folder


def test_each_tool_reads_its_own_file_named_after_it(tmp_path: Path) -> None:
    folder = _folder(tmp_path, json.dumps({"k": "places"}))
    _folder(tmp_path, json.dumps({"k": "weather"}), tool="weather_current_conditions")
    cache = OfficialCache(folder)
    assert cache.file_of(TOOL) == folder / "map_search_places_cache.json"
    assert cache.get(TOOL, "k") == "places"
    assert cache.get("weather_current_conditions", "k") == "weather"
    assert cache.entries("web_search") == {}


def test_no_folder_means_an_empty_cache(tmp_path: Path) -> None:
    cache = OfficialCache(None)
    assert cache.file_of(TOOL) is None
    assert cache.entries(TOOL) == {}
    assert cache.get(TOOL, "k") is None
    assert cache.get(TOOL, "k", normalized=True) is None
    assert cache.examples(TOOL) == []


def test_a_folder_in_place_of_the_file_is_no_cache_file(tmp_path: Path) -> None:
    folder = tmp_path / "sandbox_cache"
    (folder / f"{TOOL}_cache.json").mkdir(parents=True)
    assert OfficialCache(folder).entries(TOOL) == {}


def test_a_file_is_read_once_per_run(tmp_path: Path) -> None:
    """Loaded lazily per tool, then kept: a file changed during the run changes nothing."""
    folder = _folder(tmp_path, json.dumps({"k": "first"}))
    cache = OfficialCache(folder)
    assert cache.get(TOOL, "k") == "first"
    assert cache.get(TOOL, "k", normalized=False) == "first"
    (folder / f"{TOOL}_cache.json").write_text(json.dumps({"k": "second"}), encoding="utf-8")
    assert cache.get(TOOL, "k") == "first"
    assert cache.entries(TOOL) == {"k": "first"}


def test_a_repeated_key_keeps_its_last_value_as_officially(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '{"k": "old", "other": "x", "k": "new"}')
    cache = OfficialCache(folder)
    assert cache.get(TOOL, "k") == "new"
    assert list(cache.entries(TOOL)) == ["k", "other"]


def test_a_file_that_is_not_one_object_is_refused_naming_the_file(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '["k", "v"]')
    with pytest.raises(InputError) as caught:
        OfficialCache(folder).entries(TOOL)
    assert str(caught.value).endswith(": expected one JSON object (key → result)")
    assert caught.value.file == str(folder / f"{TOOL}_cache.json")


def test_a_broken_file_names_what_it_is(tmp_path: Path) -> None:
    folder = tmp_path / "sandbox_cache"
    folder.mkdir()
    (folder / f"{TOOL}_cache.json").write_bytes(b'{"k": "\xff"}')
    with pytest.raises(InputError) as caught:
        OfficialCache(folder).entries(TOOL)
    assert "save the sandbox cache file as UTF-8" in str(caught.value)
    assert caught.value.file == str(folder / f"{TOOL}_cache.json")


def test_a_cache_file_larger_than_a_config_file_is_read(tmp_path: Path) -> None:
    """Official cache files run to many megabytes: the task-file limit applies, not 1 MiB."""
    big = "x" * (2 * 2**20)
    folder = _folder(tmp_path, json.dumps({"k": big}))
    assert OfficialCache(folder).get(TOOL, "k") == big


def test_a_result_that_is_not_text_is_kept_as_its_json_with_non_ascii_kept(
    tmp_path: Path,
) -> None:
    result = {"places": [{"name": "星巴克", "distance": 120}], "ok": True}
    folder = _folder(tmp_path, json.dumps({"k": result, "n": 3, "s": "文本"}, ensure_ascii=False))
    entries = OfficialCache(folder).entries(TOOL)
    assert entries == {
        "k": json.dumps(result, ensure_ascii=False),
        "n": "3",
        "s": "文本",
    }
    assert "星巴克" in entries["k"]


def test_the_first_of_two_keys_that_normalise_alike_wins(tmp_path: Path) -> None:
    a = {"query": "咖啡", "center": "39.90,116.40"}
    b = {"query": " 咖啡 ", "center": "39.9, 116.4", "limit": 10}
    entries = {official_key(a, TIME): "FIRST", official_key(b, TIME): "SECOND"}
    folder = _folder(tmp_path, json.dumps(entries, ensure_ascii=False))
    cache = OfficialCache(folder)
    nkey = normalized_key(TOOL, a, TIME)
    assert nkey == normalized_key(TOOL, b, TIME)
    assert cache.normalized(TOOL) == {nkey: "FIRST"}
    assert cache.get(TOOL, nkey, normalized=True) == "FIRST"
    # the exact lookup still tells the two apart, and knows no normalised key
    assert cache.get(TOOL, official_key(b, TIME)) == "SECOND"
    assert cache.get(TOOL, nkey) is None
    assert cache.get(TOOL, official_key(a, TIME), normalized=True) is None


def test_reversed_file_order_gives_the_other_answer(tmp_path: Path) -> None:
    a = {"query": "咖啡"}
    b = {"query": "咖啡 "}
    entries = {official_key(b, TIME): "B", official_key(a, TIME): "A"}
    cache = OfficialCache(_folder(tmp_path, json.dumps(entries, ensure_ascii=False)))
    assert cache.get(TOOL, normalized_key(TOOL, a, TIME), normalized=True) == "B"


def test_keys_that_cannot_be_read_are_left_out_of_the_normalised_index(tmp_path: Path) -> None:
    good = {"query": "茶"}
    entries = {
        "not a key": "X",
        json.dumps([["params", "[1, 2]"], ["time", TIME]]): "Y",
        official_key(good, TIME): "GOOD",
    }
    cache = OfficialCache(_folder(tmp_path, json.dumps(entries, ensure_ascii=False)))
    assert cache.normalized(TOOL) == {normalized_key(TOOL, good, TIME): "GOOD"}


def test_the_normalised_index_is_built_once(tmp_path: Path) -> None:
    args = {"query": "茶"}
    cache = OfficialCache(_folder(tmp_path, json.dumps({official_key(args, TIME): "R"})))
    first = cache.normalized(TOOL)
    cache._exact[TOOL][official_key({"query": "水"}, TIME)] = "LATE"
    assert cache.normalized(TOOL) is first
    assert list(cache.normalized(TOOL).values()) == ["R"]


def test_examples_are_params_and_result_in_file_order(tmp_path: Path) -> None:
    a, b = {"query": "咖啡", "limit": 5}, {"query": "茶"}
    entries = {official_key(a, TIME): "RA", "odd key": "RO", official_key(b, TIME): "RB"}
    cache = OfficialCache(_folder(tmp_path, json.dumps(entries, ensure_ascii=False)))
    assert cache.examples(TOOL) == [
        (official_params(a), "RA"),
        ("odd key", "RO"),
        (official_params(b), "RB"),
    ]


def test_the_sandbox_answers_the_first_of_two_alike_keys_when_normalising(
    tmp_path: Path,
) -> None:
    a = {"query": "咖啡", "center": "39.90,116.40"}
    b = {"query": "咖啡", "center": "39.9,116.4"}
    entries = {official_key(a, TIME): "FIRST", official_key(b, TIME): "SECOND"}
    folder = _folder(tmp_path, json.dumps(entries, ensure_ascii=False))
    normal = Sandbox(SandboxConfig(backend="cache", cache_dir=folder, normalize_keys=True))
    exact = Sandbox(SandboxConfig(backend="cache", cache_dir=folder))
    asked = {"query": "咖啡", "center": "39.9, 116.4"}
    hit = asyncio.run(normal.answer(TOOL, b, TIME, "en"))
    assert (hit.content, hit.source) == ("FIRST", "cache")
    assert asyncio.run(normal.answer(TOOL, asked, TIME, "en")).content == "FIRST"
    assert asyncio.run(exact.answer(TOOL, b, TIME, "en")).content == "SECOND"
    assert asyncio.run(exact.answer(TOOL, asked, TIME, "en")).source == "miss"
