"""The TravelBench sandbox, as properties: which answer a call gets.

* the memo keeps the *first* answer stored for a (tool, key) — in one process, across two
  connections to the same folder (two processes) and after reopening — and never hands one
  tool's answer to another tool;
* the sandbox answers the same call (tool, arguments, time) with the same content for the whole
  run, simulating it once, and never answers a call with another tool's or another time's answer;
* the official cache answers from the tool's own file only; with normalised keys the first
  entry of the file wins when two entries normalise alike;
* the normalised key forgives exactly what it documents (number spelling, blanks around a
  string, "lat, lng" spacing, explicit defaults) and nothing else.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.messages import AssistantMessage, Message, Usage
from lifebench.models import GenerateConfig
from lifebench.travel.sandbox import Sandbox, SandboxConfig
from lifebench.travel.sandbox.cache import OfficialCache
from lifebench.travel.sandbox.keys import (
    key_of,
    normalized_key,
    normalized_params,
    official_key,
    official_params,
    params_of_key,
    renormalize_key,
    time_of_key,
)
from lifebench.travel.sandbox.memo import MEMO_FILENAME, SimulationMemo

TIME = "2025-10-24 10:00"
TOOLS = ("map_search_places", "web_search", "weather_current_conditions")


class CountingSimulator:
    """A tool simulator whose every answer is new (a counter), so that an answer served twice
    can only come from the memo."""

    def __init__(self) -> None:
        self.calls = 0

    @property
    def name(self) -> str:
        return "counter"

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        config: GenerateConfig | None = None,
    ) -> AssistantMessage:
        self.calls += 1
        return AssistantMessage(
            content=f"answer {self.calls}",
            usage=Usage(prompt_tokens=1, completion_tokens=self.calls),
        )


# ------------------------------------------------------------------------------------ memo

_PUTS = st.lists(
    st.tuples(st.sampled_from(TOOLS), st.sampled_from(["k1", "k2", "k3"]), st.text(max_size=5)),
    max_size=12,
)


@settings(max_examples=40)
@given(puts=_PUTS, split=st.integers(0, 12))
def test_the_memo_keeps_the_first_answer_per_tool_and_key(
    puts: list[tuple[str, str, str]], split: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        one, two = SimulationMemo(Path(folder)), SimulationMemo(Path(folder))

        async def scenario() -> None:
            first: dict[tuple[str, str], tuple[str, Usage]] = {}
            for i, (tool, key, result) in enumerate(puts):
                memo = one if i < split else two  # two connections: two processes
                usage = Usage(prompt_tokens=i)
                stored = await memo.put(tool, key, f"P{i}", TIME, result, f"m{i}", usage)
                first.setdefault((tool, key), (result, usage))
                assert (stored.result, stored.usage) == first[(tool, key)]
            for memo in (one, two):
                for tool in TOOLS:
                    for key in ("k1", "k2", "k3", "k4"):
                        got = await memo.get(tool, key)
                        if (tool, key) in first:
                            assert got is not None
                            assert (got.result, got.usage) == first[(tool, key)]
                        else:
                            assert got is None
                assert len(memo) == len(first)

        try:
            asyncio.run(scenario())
        finally:
            one.close()
            two.close()
        # reopened later (another run with the same folder): the same answers
        again = SimulationMemo(Path(folder))
        try:
            seen: set[tuple[str, str]] = set()
            for tool, key, result in puts:
                if (tool, key) in seen:
                    continue
                seen.add((tool, key))
                got = asyncio.run(again.get(tool, key))
                assert got is not None and got.result == result
        finally:
            again.close()


def test_the_memo_stores_model_usage_params_and_time(tmp_path: Path) -> None:
    memo = SimulationMemo(tmp_path)
    usage = Usage(prompt_tokens=3, completion_tokens=4, cost=0.5)
    stored = asyncio.run(memo.put("web_search", "K", "P", "T", "R", "sim", usage))
    assert (stored.result, stored.model, stored.usage) == ("R", "sim", usage)
    memo.close()
    import sqlite3

    with sqlite3.connect(tmp_path / MEMO_FILENAME) as conn:
        row = conn.execute(
            "SELECT tool, key, params, time, result, model FROM simulated"
        ).fetchone()
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert row == ("web_search", "K", "P", "T", "R", "sim")
    assert mode == "wal"
    assert len(SimulationMemo(tmp_path)) == 1


# --------------------------------------------------------------------------------- sandbox

_ARGS = st.fixed_dictionaries({"query": st.sampled_from(["咖啡", "tea", " tea "])})
_CALLS = st.lists(
    st.tuples(st.sampled_from(TOOLS), _ARGS, st.sampled_from([TIME, "2025-10-25 09:00"])),
    min_size=1,
    max_size=10,
)


@settings(max_examples=30)
@given(calls=_CALLS, normalize=st.booleans())
def test_a_call_always_gets_its_first_answer_and_never_another_calls(
    calls: list[tuple[str, dict[str, Any], str]], normalize: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        model = CountingSimulator()
        sandbox = Sandbox(
            SandboxConfig(backend="simulate", memo_dir=Path(folder), normalize_keys=normalize),
            model,  # type: ignore[arg-type]
        )

        async def scenario() -> None:
            first: dict[tuple[str, str], str] = {}
            for tool, args, time in calls:
                key = sandbox.key(tool, args, time)
                answer = await sandbox.answer(tool, args, time, "zh")
                if (tool, key) in first:
                    assert answer.source == "memo" and answer.usage is None
                    assert answer.content == first[(tool, key)]
                else:
                    assert answer.source == "simulated" and answer.usage is not None
                    assert answer.content not in first.values(), "another call's answer"
                    first[(tool, key)] = answer.content
            assert model.calls == len(first)

        try:
            asyncio.run(scenario())
        finally:
            sandbox.close()


def test_the_sandbox_key_is_the_official_one_unless_normalising(tmp_path: Path) -> None:
    args = {"query": " tea ", "limit": 10.0}
    exact = Sandbox(SandboxConfig(backend="offline"))
    loose = Sandbox(SandboxConfig(backend="offline", normalize_keys=True))
    assert exact.key("map_search_places", args, TIME) == official_key(args, TIME)
    assert loose.key("map_search_places", args, TIME) == normalized_key(
        "map_search_places", args, TIME
    )
    assert loose.key("map_search_places", args, TIME) == key_of('{"query":"tea"}', TIME)


def test_the_simulate_backend_needs_a_model_and_a_memo(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs a tool-simulator model"):
        Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path))
    with pytest.raises(ValueError, match="needs a memo folder"):
        Sandbox(SandboxConfig(backend="simulate"), CountingSimulator())  # type: ignore[arg-type]
    assert Sandbox(SandboxConfig(backend="cache")).memo is None


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_cache_miss_without_simulator_is_an_answer_in_the_rows_language(
    tmp_path: Path, language: str
) -> None:
    sandbox = Sandbox(SandboxConfig(backend="cache", cache_dir=tmp_path))
    answer = asyncio.run(sandbox.answer("web_search", {"query": "x"}, TIME, language))  # type: ignore[arg-type]
    assert answer.source == "miss" and answer.usage is None
    message = json.loads(answer.content)["error"]
    if language == "zh":
        assert message == "缓存中没有这次调用的结果，且未配置工具模拟器"
    else:
        assert message == "no cached answer for this call and no tool simulator configured"


def test_cache_hits_win_over_the_memo_and_the_simulator(tmp_path: Path) -> None:
    args = {"query": "tea"}
    (tmp_path / "web_search_cache.json").write_text(
        json.dumps({official_key(args, TIME): "CACHED"}), encoding="utf-8"
    )
    model = CountingSimulator()
    sandbox = Sandbox(
        SandboxConfig(backend="simulate", cache_dir=tmp_path, memo_dir=tmp_path / "memo"),
        model,  # type: ignore[arg-type]
    )
    try:
        hit = asyncio.run(sandbox.answer("web_search", args, TIME, "en"))
        other_tool = asyncio.run(sandbox.answer("map_search_places", args, TIME, "en"))
    finally:
        sandbox.close()
    assert (hit.content, hit.source, hit.usage) == ("CACHED", "cache", None)
    assert other_tool.source == "simulated" and other_tool.content == "answer 1"
    assert model.calls == 1


# ------------------------------------------------------------------------- official cache


def _write_cache(folder: Path, tool: str, entries: list[tuple[str, Any]]) -> None:
    body = "{" + ",".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in entries) + "}"
    (folder / f"{tool}_cache.json").write_text(body, encoding="utf-8")


@settings(max_examples=40)
@given(
    spellings=st.lists(
        st.sampled_from([{"query": "tea"}, {"query": " tea"}, {"query": "tea", "limit": 10},
                         {"query": "tea", "limit": 10.0}, {"query": "tea", "limit": 5}]),
        min_size=1, max_size=5,
    ),
)  # fmt: skip
def test_the_first_entry_wins_when_cache_keys_normalise_alike(
    spellings: list[dict[str, Any]],
) -> None:
    tool = "map_search_places"
    with tempfile.TemporaryDirectory() as folder:
        entries = [(official_key(a, TIME), f"R{i}") for i, a in enumerate(spellings)]
        _write_cache(Path(folder), tool, entries)
        _write_cache(Path(folder), "web_search", [(k, f"OTHER {r}") for k, r in entries])
        cache = OfficialCache(Path(folder))
        expected_exact: dict[str, str] = {}
        expected_norm: dict[str, str] = {}
        for key, result in entries:
            expected_exact[key] = result  # a JSON object keeps the last of a repeated key
        for key, result in expected_exact.items():  # in file order of first appearance
            expected_norm.setdefault(renormalize_key(tool, key) or "", result)
        for args in spellings:
            exact = cache.get(tool, official_key(args, TIME))
            assert exact == expected_exact[official_key(args, TIME)]
            nkey = normalized_key(tool, args, TIME)
            assert cache.get(tool, nkey, normalized=True) == expected_norm[nkey]
            assert not (cache.get(tool, nkey, normalized=True) or "").startswith("OTHER")


def test_cache_values_that_are_not_strings_are_json_text(tmp_path: Path) -> None:
    key = official_key({"query": "tea"}, TIME)
    _write_cache(tmp_path, "web_search", [(key, {"名": 1}), ("not a key", "plain")])
    cache = OfficialCache(tmp_path)
    assert cache.get("web_search", key) == '{"名": 1}'
    assert cache.examples("web_search") == [
        ('{"query": "tea"}', '{"名": 1}'),
        ("not a key", "plain"),
    ]
    assert cache.get("web_search", "not a key", normalized=True) is None
    assert cache.entries("map_search_places") == {}
    assert OfficialCache(None).entries("web_search") == {}
    assert OfficialCache(None).file_of("web_search") is None
    assert cache.file_of("web_search") == tmp_path / "web_search_cache.json"


@pytest.mark.parametrize(
    ("content", "message"),
    [("[1, 2]", "expected one JSON object"), ("{bad", "invalid JSON at line 1")],
    ids=["not-an-object", "not-json"],
)
def test_a_broken_cache_file_is_named(tmp_path: Path, content: str, message: str) -> None:
    from lifebench.errors import InputError

    (tmp_path / "web_search_cache.json").write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        OfficialCache(tmp_path).entries("web_search")
    assert caught.value.file == str(tmp_path / "web_search_cache.json")


# ---------------------------------------------------------------------------------- keys


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"query": "tea", "limit": 3}, {"query": "tea", "limit": 3.0}),
        ({"query": " tea\t"}, {"query": "tea"}),
        ({"center": "39.9, 116.4"}, {"center": "39.9,116.4"}),
        ({"center": " 39.90 ,116.40 "}, {"center": "39.9,116.4"}),
        ({"center": "+39.9,-116"}, {"center": "39.9,-116.0"}),
        ({"query": "tea", "radius": 5000}, {"query": "tea"}),
        ({"query": "tea", "sort_by": "weight"}, {"query": "tea"}),
        ({"query": "tea", "radius": 5000.0}, {"query": "tea"}),
        ({"query": ["a ", 2.0]}, {"query": ["a", 2]}),
        ({"query": {"x": " y "}}, {"query": {"x": "y"}}),
    ],
    ids=["int-float", "blanks", "pair-space", "pair-padding", "pair-signs", "default",
         "default-text", "default-float", "list", "dict"],
)  # fmt: skip
def test_normalised_keys_meet_where_documented(a: dict[str, Any], b: dict[str, Any]) -> None:
    tool = "map_search_places"
    assert official_key(a, TIME) != official_key(b, TIME)
    assert normalized_key(tool, a, TIME) == normalized_key(tool, b, TIME)
    assert normalized_key(tool, a, f" {TIME} ") == normalized_key(tool, b, TIME)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"query": "tea"}, {"query": "Tea"}),
        ({"query": "tea", "limit": 3}, {"query": "tea", "limit": 3.5}),
        ({"query": "tea", "radius": 5000}, {"query": "tea", "radius": 500}),
        ({"query": "tea", "radius": "5000"}, {"query": "tea"}),
        ({"query": "tea", "radius": True}, {"query": "tea", "radius": 1}),
        ({"query": "tea", "radius": None}, {"query": "tea"}),
        ({"center": "39.9,116.4"}, {"center": "116.4,39.9"}),
        ({"center": "39.9,116.4,1"}, {"center": "39.9,116.4"}),
        ({"query": "tea", "limit": float("inf")}, {"query": "tea", "limit": 10}),
    ],
    ids=["case", "fraction", "other-value", "default-as-text", "bool-vs-int", "null",
         "swapped-pair", "three-numbers", "infinity"],
)  # fmt: skip
def test_normalised_keys_keep_real_differences(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert normalized_key("map_search_places", a, TIME) != normalized_key(
        "map_search_places", b, TIME
    )


def test_keys_include_the_time_and_defaults_are_per_tool() -> None:
    args = {"query": "tea", "limit": 10}
    assert official_key(args, TIME) != official_key(args, "2025-10-25 10:00")
    assert normalized_key("web_search", args, TIME) != normalized_key(
        "web_search", args, "2025-10-25 10:00"
    )
    # limit=10 is map_search_places' default, not web_search's (it has none)
    assert normalized_params("map_search_places", args) == '{"query":"tea"}'
    assert normalized_params("web_search", args) == '{"limit":10,"query":"tea"}'
    assert normalized_params("no_such_tool", {"b": 1.0, "a": "x "}) == '{"a":"x","b":1}'


def test_official_params_and_keys_are_byte_exact() -> None:
    args = {"b": 1.0, "a": "北京", "c": [1, "x"]}
    assert official_params(args) == '{"a": "北京", "b": 1.0, "c": [1, "x"]}'
    key = official_key(args, TIME)
    assert (
        key
        == '[["params","{\\"a\\": \\"北京\\", \\"b\\": 1.0, \\"c\\": [1, \\"x\\"]}"],["time","2025-10-24 10:00"]]'
    )
    assert params_of_key(key) == official_params(args)
    assert time_of_key(key) == TIME


@pytest.mark.parametrize(
    "key",
    ["not json", '{"params": "x"}', '[["params"], ["time", "t"]]', '[["other", "x"]]', "[1, 2]"],
    ids=["not-json", "object", "short-pair", "other-name", "numbers"],
)
def test_keys_of_another_shape_have_no_params_or_time(key: str) -> None:
    assert params_of_key(key) is None or time_of_key(key) is None
    assert renormalize_key("web_search", key) is None


def test_renormalize_needs_an_object_of_params() -> None:
    assert renormalize_key("web_search", key_of("[1]", TIME)) is None
    assert renormalize_key("web_search", key_of("{bad", TIME)) is None
    assert renormalize_key("web_search", key_of('{"query": " x "}', TIME)) == normalized_key(
        "web_search", {"query": "x"}, TIME
    )
    assert time_of_key('[["params", "p"], ["time", 5]]') == "5"
    assert params_of_key('[["time", "t"], ["params", 7]]') == "7"


def test_two_processes_simulating_one_call_both_answer_with_the_first_stored(
    tmp_path: Path,
) -> None:
    """Another process (another sandbox on the same memo folder) stores its answer while this
    one's simulator is still writing: this one answers with the stored first answer too."""
    args, tool = {"query": "tea"}, "web_search"
    first = Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path), CountingSimulator())  # type: ignore[arg-type]

    class Slow(CountingSimulator):
        async def generate(self, *a: Any, **kw: Any) -> AssistantMessage:
            await first.answer(tool, args, TIME, "en")  # the other process wins the race
            return AssistantMessage(content="late answer", usage=Usage.zero())

    second = Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path), Slow())  # type: ignore[arg-type]
    try:
        late = asyncio.run(second.answer(tool, args, TIME, "en"))
    finally:
        first.close()
        second.close()
    assert late.source == "simulated"
    assert late.content == "answer 1", "the answer stored first, not this simulator's own"


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("map_compute_routes", {"origin": "1,2", "destination": "3,4", "traffic_aware": 0}),
        ("travel_search_flights", {"origin": "a", "destination": "b", "date": "d", "days": False}),
    ],
    ids=["zero-for-false", "false-for-zero"],
)
def test_a_value_equal_to_a_default_of_another_type_is_kept(
    tool: str, args: dict[str, Any]
) -> None:
    """``0 == False`` in Python, but the official tools tell them apart: not a default."""
    (name,) = set(args) - {"origin", "destination", "date"}
    assert f'"{name}":' in normalized_params(tool, args)
    default = {"traffic_aware": False, "days": 0}[name]
    assert f'"{name}":' not in normalized_params(tool, {**args, name: default})
