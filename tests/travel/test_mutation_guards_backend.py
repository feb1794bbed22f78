"""The TravelBench sandbox (issue 21): which backend answers a valid call, what a miss says in
each language, what the tool simulator is sent (examples, temperature, seed key) and what the
memo keeps. Every rule is pinned by what the agent or the run record gets: content and source."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from lifebench.messages import AssistantMessage, Message, Usage
from lifebench.models import ScriptedModel
from lifebench.travel.sandbox import Sandbox, SandboxConfig
from lifebench.travel.sandbox.backend import NO_CACHED_ANSWER
from lifebench.travel.sandbox.keys import normalized_key, official_key, official_params
from lifebench.travel.sandbox.memo import MEMO_FILENAME
from lifebench.travel.sandbox.simulator import simulation_messages

TIME = "2025-10-24 10:00"
TOOL = "map_search_places"
USAGE = Usage(prompt_tokens=11, completion_tokens=3, cost=0.001)


def _model(name: str = "toolsim", text: str = "SIMULATED") -> ScriptedModel:
    def answer(messages: Sequence[Message], tools: Any) -> AssistantMessage:
        return AssistantMessage(content=text, usage=USAGE)

    return ScriptedModel([answer], repeat_last=True, name=name)


def _cache(tmp_path: Path, entries: dict[str, str], tool: str = TOOL) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(exist_ok=True)
    (folder / f"{tool}_cache.json").write_text(
        json.dumps(entries, ensure_ascii=False), encoding="utf-8"
    )
    return folder


def test_the_default_configuration_is_the_offline_world_with_exact_keys() -> None:
    config = SandboxConfig()
    assert (config.backend, config.cache_dir, config.normalize_keys, config.memo_dir) == (
        "offline",
        None,
        False,
        None,
    )
    assert (config.examples, config.temperature) == (8, 0.0)
    sandbox = Sandbox(config)
    assert sandbox.memo is None
    answer = asyncio.run(sandbox.answer(TOOL, {"query": "咖啡"}, TIME, "zh"))
    assert answer.source == "offline" and answer.usage is None
    assert sandbox.key(TOOL, {"query": " 咖啡 "}, TIME) == official_key({"query": " 咖啡 "}, TIME)


def test_the_key_is_the_normalised_one_only_when_asked() -> None:
    args = {"query": " 咖啡 ", "center": "39.90, 116.40"}
    exact = Sandbox(SandboxConfig(normalize_keys=False))
    normal = Sandbox(SandboxConfig(normalize_keys=True))
    assert exact.key(TOOL, args, TIME) == official_key(args, TIME)
    assert normal.key(TOOL, args, TIME) == normalized_key(TOOL, args, TIME)
    assert exact.key(TOOL, args, TIME) != normal.key(TOOL, args, TIME)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_cache_miss_without_a_simulator_is_a_result_saying_so(
    tmp_path: Path, language: str
) -> None:
    sandbox = Sandbox(SandboxConfig(backend="cache", cache_dir=_cache(tmp_path, {})))
    answer = asyncio.run(sandbox.answer(TOOL, {"query": "咖啡"}, TIME, language))  # type: ignore[arg-type]
    assert (answer.content, answer.source, answer.usage) == (
        NO_CACHED_ANSWER[language],  # type: ignore[index]
        "miss",
        None,
    )


def test_the_miss_messages_in_both_languages() -> None:
    assert json.loads(NO_CACHED_ANSWER["en"]) == {
        "error": "no cached answer for this call and no tool simulator configured"
    }
    assert NO_CACHED_ANSWER["zh"] == '{"error": "缓存中没有这次调用的结果，且未配置工具模拟器"}'


def test_a_cache_miss_in_the_cache_backend_never_reaches_the_offline_world(
    tmp_path: Path,
) -> None:
    folder = _cache(tmp_path, {official_key({"query": "茶"}, TIME): "TEA"})
    cache = Sandbox(SandboxConfig(backend="cache", cache_dir=folder))
    offline = Sandbox(SandboxConfig(backend="offline", cache_dir=folder))
    args = {"query": "咖啡"}
    assert asyncio.run(cache.answer(TOOL, args, TIME, "en")).source == "miss"
    world = asyncio.run(offline.answer(TOOL, args, TIME, "en"))
    assert world.source == "offline" and world.content != NO_CACHED_ANSWER["en"]
    hit = asyncio.run(offline.answer(TOOL, {"query": "茶"}, TIME, "en"))
    assert (hit.content, hit.source) == ("TEA", "cache")


def test_the_offline_world_answers_in_the_language_asked() -> None:
    sandbox = Sandbox(SandboxConfig())
    args = {"query": "咖啡", "center": "30.25,120.16"}
    zh = asyncio.run(sandbox.answer(TOOL, args, TIME, "zh")).content
    en = asyncio.run(sandbox.answer(TOOL, args, TIME, "en")).content
    assert zh != en


def test_the_simulate_backend_needs_a_model_and_a_memo_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^the simulate backend needs a tool-simulator model$"):
        Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path))
    with pytest.raises(ValueError, match=r"^the simulate backend needs a memo folder$"):
        Sandbox(SandboxConfig(backend="simulate"), _model())
    sandbox = Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path), _model())
    assert sandbox.memo is not None and sandbox.memo.path == tmp_path / MEMO_FILENAME
    # the other backends need neither
    assert Sandbox(SandboxConfig(backend="cache")).memo is None


def test_a_cache_hit_wins_over_the_simulator(tmp_path: Path) -> None:
    args = {"query": "咖啡"}
    folder = _cache(tmp_path, {official_key(args, TIME): "CACHED"})
    model = _model()
    sandbox = Sandbox(SandboxConfig(backend="simulate", cache_dir=folder, memo_dir=tmp_path), model)
    answer = asyncio.run(sandbox.answer(TOOL, args, TIME, "en"))
    assert (answer.content, answer.source, answer.usage) == ("CACHED", "cache", None)
    assert not model.calls


def test_a_simulated_answer_carries_its_usage_and_is_memoised_with_its_call(
    tmp_path: Path,
) -> None:
    model = _model(name="sim-model", text="  ANSWER  ")
    sandbox = Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path), model)
    args = {"query": "咖啡", "center": "30.25,120.16"}
    answer = asyncio.run(sandbox.answer(TOOL, args, TIME, "en"))
    assert (answer.content, answer.source, answer.usage) == ("ANSWER", "simulated", USAGE)
    sandbox.close()
    assert sandbox.memo is not None and sandbox.memo._conn is None
    with sqlite3.connect(tmp_path / MEMO_FILENAME) as conn:
        rows = conn.execute(
            "SELECT tool, key, params, time, result, model, usage FROM simulated"
        ).fetchall()
    assert len(rows) == 1
    tool, key, params, when, result, name, usage = rows[0]
    assert (tool, key, params, when, result, name) == (
        TOOL,
        official_key(args, TIME),
        official_params(args),
        TIME,
        "ANSWER",
        "sim-model",
    )
    assert Usage.model_validate_json(usage) == USAGE


def test_the_memo_is_keyed_by_the_normalised_key_when_normalising(tmp_path: Path) -> None:
    model = _model()
    config = SandboxConfig(backend="simulate", memo_dir=tmp_path, normalize_keys=True)
    sandbox = Sandbox(config, model)
    first = asyncio.run(sandbox.answer(TOOL, {"query": "咖啡 "}, TIME, "en"))
    second = asyncio.run(sandbox.answer(TOOL, {"query": "咖啡"}, TIME, "en"))
    assert (first.source, second.source) == ("simulated", "memo")
    assert len(model.calls) == 1
    sandbox.close()


def test_the_simulator_is_sent_the_nearest_cached_examples_up_to_the_limit(
    tmp_path: Path,
) -> None:
    cached = [{"query": f"咖啡 {i}"} for i in range(5)]
    folder = _cache(tmp_path, {official_key(a, TIME): f"R{i}" for i, a in enumerate(cached)})
    model = _model()
    config = SandboxConfig(
        backend="simulate", cache_dir=folder, memo_dir=tmp_path / "memo", examples=2
    )
    sandbox = Sandbox(config, model)
    args = {"query": "咖啡 馆"}
    asyncio.run(sandbox.answer(TOOL, args, TIME, "en"))
    (call,) = model.calls
    system = call.messages[0].content
    assert "Here are 2 real calls of this tool:" in system
    assert "Call 2\n" in system and "Call 3\n" not in system
    sandbox.close()


def test_the_simulator_request_is_the_calls_prompt_with_the_configured_temperature(
    tmp_path: Path,
) -> None:
    model = _model()
    config = SandboxConfig(backend="simulate", memo_dir=tmp_path, temperature=0.7)
    sandbox = Sandbox(config, model)
    args = {"query": "咖啡"}
    asyncio.run(sandbox.answer(TOOL, args, TIME, "zh"))
    (call,) = model.calls
    assert call.messages == simulation_messages(TOOL, args, TIME, [], "zh")
    assert call.config is not None and call.config.temperature == 0.7
    # the seed follows the key: the same call in another sandbox sends the same request
    other = _model()
    again = Sandbox(
        SandboxConfig(backend="simulate", memo_dir=tmp_path / "b", temperature=0.7), other
    )
    asyncio.run(again.answer(TOOL, args, TIME, "zh"))
    assert other.calls[0].config == call.config
    third = _model()
    moved = Sandbox(
        SandboxConfig(backend="simulate", memo_dir=tmp_path / "c", temperature=0.7), third
    )
    asyncio.run(moved.answer(TOOL, args, "2025-10-25 10:00", "zh"))
    assert third.calls[0].config is not None and third.calls[0].config.seed != call.config.seed
    for s in (sandbox, again, moved):
        s.close()


def test_the_default_temperature_reaches_the_simulator(tmp_path: Path) -> None:
    model = _model()
    sandbox = Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path), model)
    asyncio.run(sandbox.answer(TOOL, {"query": "咖啡"}, TIME, "en"))
    assert model.calls[0].config is not None and model.calls[0].config.temperature == 0.0
    sandbox.close()


def test_the_default_number_of_examples_is_eight(tmp_path: Path) -> None:
    cached = [{"query": f"咖啡 {i}"} for i in range(12)]
    folder = _cache(tmp_path, {official_key(a, TIME): f"R{i}" for i, a in enumerate(cached)})
    model = _model()
    sandbox = Sandbox(
        SandboxConfig(backend="simulate", cache_dir=folder, memo_dir=tmp_path / "m"), model
    )
    asyncio.run(sandbox.answer(TOOL, {"query": "咖啡"}, TIME, "en"))
    assert "Here are 8 real calls of this tool:" in model.calls[0].messages[0].content
    sandbox.close()


def test_different_calls_are_simulated_separately_and_concurrently(tmp_path: Path) -> None:
    """The lock is per (tool, key): two different calls each get their own simulated answer."""
    seen: list[str] = []

    def answer(messages: Sequence[Message], tools: Any) -> AssistantMessage:
        seen.append(messages[-1].content)
        return AssistantMessage(content=f"A{len(seen)}", usage=USAGE)

    model = ScriptedModel([answer], repeat_last=True, name="toolsim")
    sandbox = Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path), model)

    async def both() -> list[Any]:
        return await asyncio.gather(
            sandbox.answer(TOOL, {"query": "咖啡"}, TIME, "en"),
            sandbox.answer(TOOL, {"query": "茶"}, TIME, "en"),
            sandbox.answer("web_search", {"query": "咖啡"}, TIME, "en"),
        )

    answers = asyncio.run(both())
    assert [a.source for a in answers] == ["simulated"] * 3
    assert len({a.content for a in answers}) == 3
    assert len(model.calls) == 3
    sandbox.close()


def test_a_normalising_sandbox_drops_the_tools_own_defaults(tmp_path: Path) -> None:
    folder = _cache(tmp_path, {official_key({"query": "咖啡"}, TIME): "CACHED"})
    sandbox = Sandbox(SandboxConfig(backend="cache", cache_dir=folder, normalize_keys=True))
    answer = asyncio.run(sandbox.answer(TOOL, {"query": "咖啡", "limit": 10}, TIME, "en"))
    assert (answer.content, answer.source) == ("CACHED", "cache")


def test_one_call_being_simulated_does_not_hold_up_another(tmp_path: Path) -> None:
    """Call A's simulation can only finish after call B's has started: with one lock per
    (tool, key) both finish; a lock shared by every call would never let B start."""

    async def scenario() -> list[Any]:
        a_started, b_started = asyncio.Event(), asyncio.Event()

        async def answer(messages: Sequence[Message], tools: Any) -> AssistantMessage:
            if "茶" in messages[-1].content:
                b_started.set()
                return AssistantMessage(content="B", usage=USAGE)
            a_started.set()
            await b_started.wait()
            return AssistantMessage(content="A", usage=USAGE)

        model = ScriptedModel([answer], repeat_last=True, name="toolsim")
        sandbox = Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path), model)
        first = asyncio.create_task(sandbox.answer(TOOL, {"query": "咖啡"}, TIME, "en"))
        await a_started.wait()  # A is inside the simulator, holding its lock
        second = sandbox.answer(TOOL, {"query": "茶"}, TIME, "en")
        try:
            return list(await asyncio.wait_for(asyncio.gather(first, second), timeout=60))
        finally:
            sandbox.close()

    answers = asyncio.run(scenario())
    assert [(a.content, a.source) for a in answers] == [("A", "simulated"), ("B", "simulated")]
