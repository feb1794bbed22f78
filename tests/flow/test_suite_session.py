"""Session level through the runner: the offline run (scripted user, gold agent, offline
environment, rule judge), the noop bound, the turn cap, and LLM roles with scripted models."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from lifebench.messages import AssistantMessage, ToolResultMessage, Usage
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.reporting import build_report
from lifebench.runner import Progress, RunStore
from lifebench.runner._experiment import run_experiment
from lifebench.suites import RunOptions


def _run(
    out: Path, world: dict[str, Path], factory: ModelFactory | None = None, **kw: Any
) -> tuple[dict[str, Any], list[Any]]:
    suite_options = {
        "knowledge": str(world["kb"]),
        "level": "session",
        **kw.pop("suite_options", {}),
    }
    options = RunOptions(
        suite="flow",
        tasks_file=str(world["sessions"]),
        out=str(out),
        quiet=True,
        concurrency=1,
        suite_options=suite_options,
        **kw,
    )
    asyncio.run(run_experiment(options, models=factory, progress=Progress(quiet=True)))
    store = RunStore.read(out)
    try:
        records = list(store.results())
        report = build_report(records, store.config())
    finally:
        store.close()
    return json.loads(report.model_dump_json()), records


def test_offline_session_run_reproduces_the_gold_session(
    tmp_path: Path, world: dict[str, Path]
) -> None:
    rep, records = _run(tmp_path / "gold", world)
    assert rep["level"] == "session" and rep["sessions"] == 1
    assert (rep["success_rate"], rep["task_progress"], rep["tool_f1"]) == (1.0, 1.0, 1.0)
    sim = records[0].simulation
    assert sim.termination.value == "user_stop"
    assert [m.role for m in sim.messages][:4] == ["user", "assistant", "user", "assistant"]
    assert sim.final_state["answers"]["replayed"] == 1
    tool = next(m for m in sim.messages if isinstance(m, ToolResultMessage))
    assert tool.content == '{"ok": "yes"}' and not tool.error
    assert records[0].evaluation.by_basis["completion"].info["judge"] == "rules"


def test_noop_agent_fails_every_session(tmp_path: Path, world: dict[str, Path]) -> None:
    rep, _ = _run(tmp_path / "noop", world, agent="noop")
    assert (rep["success_rate"], rep["task_progress"], rep["tool_recall"]) == (0.0, 0.0, 0.0)


def test_turn_cap_fails_the_session(tmp_path: Path, world: dict[str, Path]) -> None:
    looping = ScriptedModel(
        ['Thought: t\nAction: lookupBill\nAction Input: {"bill_id": "B-77"}'], repeat_last=True
    )
    factory = ModelFactory()
    factory.register("a", looping)
    rep, records = _run(
        tmp_path / "cap",
        world,
        factory,
        agent="llm",
        agent_model="a",
        suite_options={"max_turns": 3},
    )
    sim = records[0].simulation
    assert sim.termination.value == "max_steps" and sim.info["limit"] == "max_agent_messages"
    assert len(looping.calls) == 3 and rep["capped"] == 1 and rep["success_rate"] == 0.0
    # lookupBill is not a tool of the single-scenario prompt: the environment says so
    assert all(
        m.error_kind == "unknown_tool" for m in sim.messages if isinstance(m, ToolResultMessage)
    )


def test_cross_setting_offers_every_tool_of_the_role(
    tmp_path: Path, world: dict[str, Path]
) -> None:
    agent = ScriptedModel(
        [
            'Thought: t\nAction: lookupBill\nAction Input: {"bill_id": "B-77"}',
            "Thought: t\nResponse: It is 120 yuan.",
        ],
        repeat_last=True,
    )
    factory = ModelFactory()
    factory.register("a", agent)
    _, records = _run(
        tmp_path / "cross",
        world,
        factory,
        agent="llm",
        agent_model="a",
        suite_options={"setting": "cross"},
    )
    result = next(m for m in records[0].simulation.messages if isinstance(m, ToolResultMessage))
    assert not result.error and json.loads(result.content)["amount"] == 120  # offline answer


def test_llm_roles_and_tool_usage(tmp_path: Path, world: dict[str, Path]) -> None:
    agent = ScriptedModel(
        [
            AssistantMessage(
                content="Thought: t\nResponse: Bill id and amount?", usage=Usage(prompt_tokens=100)
            ),
            AssistantMessage(
                content='Thought: t\nAction: payBill\nAction Input: {"bill_id": "B-77", "amount": 99}',
                usage=Usage(prompt_tokens=100),
            ),
            AssistantMessage(
                content="Thought: t\nResponse: Done, bye!", usage=Usage(prompt_tokens=100)
            ),
        ]
    )
    user = ScriptedModel(
        [
            AssistantMessage(content="Hi, pay my bill please.", usage=Usage(prompt_tokens=20)),
            AssistantMessage(content="B-77, 99 yuan.", usage=Usage(prompt_tokens=20)),
            AssistantMessage(content="###STOP###", usage=Usage(prompt_tokens=20)),
        ]
    )
    tool = ScriptedModel(
        [
            AssistantMessage(
                content='{"ok": "no"}', usage=Usage(prompt_tokens=7, completion_tokens=3)
            )
        ]
    )
    judge = ScriptedModel(
        [
            AssistantMessage(
                content='{"success": false, "total_goals": 1, "achieved_goals": 0, "reason": "wrong amount"}',
                usage=Usage(prompt_tokens=30),
            ),
            AssistantMessage(
                content='{"category": 4, "explanation": "amount"}', usage=Usage(prompt_tokens=30)
            ),
        ]
    )
    factory = ModelFactory()
    for name, model in (("a", agent), ("u", user), ("t", tool), ("j", judge)):
        factory.register(name, model)
    rep, records = _run(
        tmp_path / "llm",
        world,
        factory,
        agent="llm",
        user="llm",
        agent_model="a",
        user_model="u",
        tool_model="t",
        judge_model="j",
        suite_options={"failure_reasons": True, "fuzzy_match": False},
    )
    sim = records[0].simulation
    assert sim.tool_usage.prompt_tokens == 7 and sim.user_usage.prompt_tokens == 60
    assert rep["tokens"]["tool"]["prompt"] == 7.0 and rep["tokens"]["judge"]["prompt"] == 60.0
    assert rep["success_rate"] == 0.0 and rep["failure_reasons"]["tool usage"] == 1.0
    assert rep["tool_precision"] == 0.0 and rep["tool_recall"] == 0.0  # amount 99 ≠ 120
    # the user never sees a Thought, the tool simulator is asked once (no gold match)
    user_views = [m.content for c in user.calls for m in c.messages[1:]]
    assert all("Thought" not in v for v in user_views)
    assert "B-77" in user.calls[0].messages[0].content  # the task-user summary
    assert sim.final_state["answers"]["simulated"] == 1
    judged = judge.calls[0].messages[-1].content
    assert "Goal: pay bill B-77" in judged and "TEXT WORKFLOW OF Pay a bill." in judged
