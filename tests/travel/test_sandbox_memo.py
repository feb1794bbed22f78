"""Simulated tool answers are memoised: the same call gets the same answer for the rest of the
run and in later runs, and a replay run makes zero simulator calls."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lifebench.messages import AssistantMessage, Message, ToolResultMessage, Usage
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.runner._experiment import run_experiment
from lifebench.runner._progress import Progress
from lifebench.runner._store import RunStore
from lifebench.suites import RunOptions
from lifebench.travel.sandbox import Sandbox, SandboxConfig
from lifebench.travel.sandbox.memo import MEMO_FILENAME

TIME = "2025-10-24 10:00"
ROWS = [
    {
        "trace_id": str(i),
        "time": TIME,
        "query": query,
        "context": f"**用户当前位置坐标**\nlatitude: {lat}\nlongitude: {lng}\n\n"
        "**用户当前位置描述**\n浙江省杭州市",
        "intent": query,
    }
    for i, (query, lat, lng) in enumerate(
        [
            ("附近的咖啡", 30.25, 120.16),
            ("找个加油站", 30.28, 120.12),
            ("附近的咖啡", 30.25, 120.16),
        ],
        start=1,
    )
]


def _simulator() -> ScriptedModel:
    def answer(messages: Sequence[Message], tools: Any) -> AssistantMessage:
        request = messages[-1].content
        return AssistantMessage(
            content=f"SIMULATED #{len(request)}",
            usage=Usage(prompt_tokens=100, completion_tokens=7, cost=0.002),
        )

    return ScriptedModel([answer], repeat_last=True, name="toolsim")


def test_same_call_is_simulated_once_and_replayed_later(tmp_path: Path) -> None:
    model = _simulator()
    config = SandboxConfig(backend="simulate", memo_dir=tmp_path)
    args = {"query": "咖啡", "center": "30.25,120.16"}

    async def twice(sandbox: Sandbox) -> list[Any]:
        return [await sandbox.answer("map_search_places", args, TIME, "zh") for _ in range(2)]

    first, second = asyncio.run(twice(Sandbox(config, model)))
    assert len(model.calls) == 1
    assert (first.source, second.source) == ("simulated", "memo")
    assert first.content == second.content
    assert first.usage is not None and first.usage.cost == 0.002 and second.usage is None
    # The simulator saw the instance time.
    assert TIME in model.calls[0].messages[-1].content
    later = ScriptedModel([], name="must-not-be-called")
    third = asyncio.run(Sandbox(config, later).answer("map_search_places", args, TIME, "zh"))
    assert (third.source, third.content) == ("memo", first.content) and not later.calls
    assert (tmp_path / MEMO_FILENAME).is_file()


def test_concurrent_identical_calls_are_simulated_once(tmp_path: Path) -> None:
    model = _simulator()
    sandbox = Sandbox(SandboxConfig(backend="simulate", memo_dir=tmp_path), model)
    args = {"query": "茶", "center": "30.25,120.16"}

    async def together() -> list[Any]:
        return await asyncio.gather(
            *(sandbox.answer("map_search_places", args, TIME, "zh") for _ in range(4))
        )

    answers = asyncio.run(together())
    assert len(model.calls) == 1
    assert len({a.content for a in answers}) == 1
    assert sorted(a.source for a in answers) == ["memo", "memo", "memo", "simulated"]


def _run(tmp_path: Path, name: str, model: ScriptedModel, tasks: Path, memo: Path) -> Path:
    factory = ModelFactory()
    factory.register("toolsim", model)
    options = RunOptions(
        suite="travel",
        tasks_file=str(tasks),
        tool_model="toolsim",
        trials=2,
        out=str(tmp_path / name),
        quiet=True,
        concurrency=2,  # type: ignore[arg-type]
        suite_options={"sandbox": "simulate", "sandbox_memo": str(memo)},
    )
    _, summary = asyncio.run(run_experiment(options, models=factory, progress=Progress(quiet=True)))
    assert summary.done == len(ROWS) * 2 and summary.infra_errors == 0
    return tmp_path / name


def _tool_results(run_dir: Path) -> tuple[dict[tuple[str, int], list[str]], list[Any]]:
    store = RunStore.read(run_dir)
    try:
        records = store.results()
    finally:
        store.close()
    out = {
        (r.task_id, r.trial): [
            m.content for m in r.simulation.messages if isinstance(m, ToolResultMessage)
        ]
        for r in records
        if r.simulation is not None
    }
    return out, [r.simulation for r in records if r.simulation is not None]


def test_replay_run_makes_zero_simulator_calls_and_reproduces_every_result(tmp_path: Path) -> None:
    tasks = tmp_path / "single_turn.jsonl"
    tasks.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in ROWS), encoding="utf-8")
    memo = tmp_path / "memo"
    first_model = _simulator()
    first_dir = _run(tmp_path, "first", first_model, tasks, memo)
    first, sims = _tool_results(first_dir)
    # The scripted agent makes one place search per row; rows 1 and 3 make the same call and
    # every row runs twice (6 calls), yet only the 2 distinct calls reach the simulator.
    assert sum(len(v) for v in first.values()) == 6
    assert len(first_model.calls) == 2
    assert all(contents for contents in first.values())
    assert all(c.startswith("SIMULATED") for contents in first.values() for c in contents)
    assert sum(s.tool_usage.cost for s in sims) == 0.002 * len(first_model.calls)
    assert sum(s.final_state["sandbox"]["simulated_calls"] for s in sims) == len(first_model.calls)

    replay_model = ScriptedModel([], name="must-not-be-called")
    replay, replay_sims = _tool_results(_run(tmp_path, "replay", replay_model, tasks, memo))
    assert replay_model.calls == []
    assert replay == first
    assert all(s.tool_usage.calls == 0 for s in replay_sims)
    assert sum(s.final_state["sandbox"]["memo_hits"] for s in replay_sims) == sum(
        len(v) for v in replay.values()
    )


def test_the_run_directory_is_the_default_memo(tmp_path: Path) -> None:
    tasks = tmp_path / "single_turn.jsonl"
    tasks.write_text(json.dumps(ROWS[0], ensure_ascii=False), encoding="utf-8")
    factory = ModelFactory()
    factory.register("toolsim", _simulator())
    options = RunOptions(
        suite="travel",
        tasks_file=str(tasks),
        tool_model="toolsim",
        out=str(tmp_path / "run"),
        quiet=True,
        concurrency=1,  # type: ignore[arg-type]
    )
    asyncio.run(run_experiment(options, models=factory, progress=Progress(quiet=True)))
    assert (tmp_path / "run" / MEMO_FILENAME).is_file()
