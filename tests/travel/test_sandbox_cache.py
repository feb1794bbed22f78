"""The official cache layout and key (spec §3.1–3.2), and the value-normalised variant."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from lifebench.errors import InputError
from lifebench.travel.sandbox import Sandbox, SandboxConfig
from lifebench.travel.sandbox.keys import (
    normalized_key,
    official_key,
    official_params,
    params_of_key,
)

TIME = "2025-10-24 10:00"


def test_official_key_is_byte_exact() -> None:
    """The verified example of the spec: params embedded with spaced separators, compact outer."""
    key = official_key(
        {"origin": "上海市", "destination": "北京市", "date": "2025-12-11"}, "2025-12-10 10:00:00"
    )
    assert key == (
        '[["params","{\\"date\\": \\"2025-12-11\\", \\"destination\\": \\"北京市\\", '
        '\\"origin\\": \\"上海市\\"}"],["time","2025-12-10 10:00:00"]]'
    )


def test_official_key_recipe_matches_the_two_step_official_construction() -> None:
    """The official code builds {"time", "params"} JSON, reloads it, sorts the items and dumps
    them compactly; our one-step key must equal that for awkward values too."""
    args = {"query": 'say "hi"\\n', "radius": 3.0, "center": "39.9, 116.4", "limit": 10}
    params = json.dumps(args, sort_keys=True, ensure_ascii=False)
    first = json.dumps({"time": TIME, "params": params}, sort_keys=True, ensure_ascii=False)
    second = json.dumps(
        sorted(json.loads(first).items()), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert official_key(args, TIME) == second
    assert params_of_key(second) == official_params(args)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"days": 3}, {"days": 3.0}),
        ({"center": "39.9,116.4"}, {"center": "39.9, 116.4"}),
        ({"center": "39.90,116.40"}, {"center": " 39.9,116.4 "}),
        ({"query": "咖啡"}, {"query": "咖啡", "limit": 10}),
        ({"query": " 咖啡 "}, {"query": "咖啡"}),
    ],
)
def test_exact_keys_differ_where_normalised_keys_meet(a: dict, b: dict) -> None:
    tool = "map_search_places" if "days" not in a else "travel_search_flights"
    assert official_key(a, TIME) != official_key(b, TIME)
    assert normalized_key(tool, a, TIME) == normalized_key(tool, b, TIME)


def test_normalisation_keeps_real_differences() -> None:
    tool = "map_search_places"
    assert normalized_key(tool, {"query": "咖啡", "limit": 5}, TIME) != normalized_key(
        tool, {"query": "咖啡"}, TIME
    )
    assert normalized_key(tool, {"query": "咖啡"}, TIME) != normalized_key(
        tool, {"query": "咖啡"}, "2025-10-25 10:00"
    )
    flights = "travel_search_flights"
    assert normalized_key(flights, {"days": True}, TIME) != normalized_key(
        flights, {"days": 1}, TIME
    )


def _cache_folder(tmp_path: Path, entries: dict[str, str]) -> Path:
    folder = tmp_path / "sandbox_cache"
    folder.mkdir()
    (folder / "map_search_places_cache.json").write_text(
        json.dumps(entries, ensure_ascii=False), encoding="utf-8"
    )
    return folder


def test_official_cache_folder_hits_by_exact_key_only(tmp_path: Path) -> None:
    args = {"query": "咖啡", "center": "39.9,116.4"}
    folder = _cache_folder(tmp_path, {official_key(args, TIME): "CACHED"})
    sandbox = Sandbox(SandboxConfig(backend="cache", cache_dir=folder))

    async def ask(a: dict) -> tuple[str, str]:
        answer = await sandbox.answer("map_search_places", a, TIME, "zh")
        return answer.content, answer.source

    assert asyncio.run(ask(args)) == ("CACHED", "cache")
    spaced, source = asyncio.run(ask({"query": "咖啡", "center": "39.9, 116.4"}))
    assert source == "miss" and "error" in json.loads(spaced)
    other_time = asyncio.run(sandbox.answer("map_search_places", args, "2025-10-25 10:00", "zh"))
    assert other_time.source == "miss"


def test_normalised_lookup_hits_variants_of_a_cached_call(tmp_path: Path) -> None:
    cached = {"query": "咖啡", "center": "39.90,116.40", "limit": 10}
    folder = _cache_folder(tmp_path, {official_key(cached, TIME): "CACHED"})
    sandbox = Sandbox(SandboxConfig(backend="cache", cache_dir=folder, normalize_keys=True))
    answer = asyncio.run(
        sandbox.answer("map_search_places", {"query": "咖啡", "center": "39.9, 116.4"}, TIME, "zh")
    )
    assert (answer.content, answer.source) == ("CACHED", "cache")


def test_cache_hits_take_precedence_over_the_offline_world(tmp_path: Path) -> None:
    args = {"query": "咖啡", "center": "39.9,116.4"}
    folder = _cache_folder(tmp_path, {official_key(args, TIME): "CACHED"})
    sandbox = Sandbox(SandboxConfig(backend="offline", cache_dir=folder))
    hit = asyncio.run(sandbox.answer("map_search_places", args, TIME, "zh"))
    miss = asyncio.run(sandbox.answer("map_search_places", {"query": "茶"}, TIME, "zh"))
    assert hit.source == "cache" and miss.source == "offline"


def test_unreadable_cache_file_names_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "web_search_cache.json").write_text("{broken", encoding="utf-8")
    sandbox = Sandbox(SandboxConfig(backend="cache", cache_dir=folder))
    with pytest.raises(InputError, match=r"web_search_cache\.json"):
        asyncio.run(sandbox.answer("web_search", {"query": "x"}, TIME, "zh"))
