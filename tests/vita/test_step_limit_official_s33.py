"""The step limit as the official VitaBench orchestrator counts it, against its own numbers.

``tests/official/vitabench_step_limit.json`` holds scripted conversations (English and Chinese)
and what the official orchestrator (meituan-longcat/vitabench 96f3b85) recorded for each of a
range of ``max_steps``: its termination, its step count, the user, agent and tool messages of
its trajectory. lifebench's loop plays the same scripts; where they are equal it must give the
same figures (a tool-call message that reaches the limit ends the episode before its calls
run), and where lifebench deliberately differs (a stop on the step that reaches the limit stays
a stop; tool calls next to ``###STOP###`` run) the official reading of the stored episode
(``official_termination`` / ``official_steps``) must give the official figures, and the
official comparison must score such an episode 0 as the official termination gate does.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from lifebench.evaluation import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from lifebench.simulation import (
    Episode,
    Limits,
    Simulation,
    TerminationReason,
    run_episode,
)
from lifebench.vita.grading.official import (
    official_comparison,
    official_steps,
    official_termination,
)

FIXTURE = Path(__file__).parents[1] / "official" / "vitabench_step_limit.json"
DATA = json.loads(FIXTURE.read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = DATA["cases"]

# Where lifebench deliberately records something else than the official run (docs/compat.md,
# "Simulation loop, runner and scoring"): the stop on the step that reaches the limit stays a
# stop; the tool call next to ###STOP### runs (one tool result, one step more).
OURS_DIFFERS: dict[tuple[str, int], dict[str, Any]] = {
    ("en_tools", 8): {"termination": "agent_stop"},
    ("zh_user_stop", 5): {"termination": "user_stop"},
    ("zh_stop_with_call", 3): {"termination": "agent_stop", "steps": 3, "tool_messages": 1},
}


class _Env:
    """Answers every call; ``get_store`` (the unknown store S-404) fails."""

    def __init__(self) -> None:
        self.tools = self

    async def execute(self, call: ToolCall, *, turn: int) -> ToolResultMessage:
        error = call.name == "get_store"
        content = "Error: store S-404 not found" if error else '{"ok": true}'
        return ToolResultMessage(tool_call_id=call.id, name=call.name, content=content, error=error)

    def snapshot(self) -> dict[str, Any]:
        return {}


class _Agent:
    def __init__(self, script: Sequence[dict[str, Any]]) -> None:
        self.script = list(script)
        self.asked = 0

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        act = self.script[self.asked]
        self.asked += 1
        calls = [
            ToolCall(id=f"c{self.asked}_{k}", name=c["name"], arguments=json.dumps(c["arguments"]))
            for k, c in enumerate(act.get("tool_calls", []))
        ]
        return AssistantMessage(content=act.get("content", ""), tool_calls=calls)


class _User:
    def __init__(self, script: Sequence[str]) -> None:
        self.script = list(script)
        self.asked = 0

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        self.asked += 1
        return UserMessage(content=self.script[self.asked - 1])


async def _play(script: str, max_steps: int) -> Simulation:
    s = DATA["scripts"][script]
    greeting = "你好，请问需要什么服务？" if s["language"] == "chinese" else None
    return await run_episode(
        Episode(
            task_id=script,
            trial=0,
            seed=1,
            environment=_Env(),  # type: ignore[arg-type]
            agent=_Agent(s["agent"]),
            user=_User(s["user"]),
            limits=Limits(max_steps=max_steps, max_errors=10),
            **({"greeting": greeting} if greeting else {}),
        )
    )


def _figures(sim: Simulation) -> dict[str, Any]:
    return {
        "termination": sim.termination.value,
        "steps": sim.steps,
        "user_messages": sum(m.role == "user" for m in sim.messages),
        "agent_messages": sum(m.role == "assistant" for m in sim.messages) - 1,
        "tool_messages": sim.tool_calls,
        "tool_errors": sim.tool_errors,
    }


def test_the_fixture_covers_every_boundary() -> None:
    by = {(c["script"], c["max_steps"]): c for c in CASES}
    # a tool-call message on the limit: its batch never runs
    assert (by["en_tools", 6]["termination"], by["en_tools", 6]["tool_messages"]) == (
        "max_steps",
        2,
    )
    # the limit right after a tool batch; an agent stop, a user stop on the limit
    assert by["en_tools", 7]["tool_messages"] == 3
    assert by["en_tools", 8]["termination"] == by["zh_user_stop", 5]["termination"] == "max_steps"
    assert by["en_tools", 9]["termination"] == "agent_stop"
    assert by["zh_user_stop", 6]["termination"] == "user_stop"
    # a message with a tool call and ###STOP###: the call never runs officially
    assert by["zh_stop_with_call", 3]["tool_messages"] == 0


@pytest.mark.parametrize("case", CASES, ids=[f"{c['script']}-max{c['max_steps']}" for c in CASES])
async def test_our_loop_gives_the_official_figures_or_the_documented_difference(
    case: dict[str, Any],
) -> None:
    sim = await _play(case["script"], case["max_steps"])
    official = {k: case[k] for k in _figures(sim)}
    expected = {**official, **OURS_DIFFERS.get((case["script"], case["max_steps"]), {})}
    assert _figures(sim) == expected
    # the official reading of what we stored gives the official run's ending and step count
    assert official_termination(sim, case["max_steps"]) == case["termination"]
    assert official_steps(sim) == case["steps"]


# -- the official comparison scores a stop on the limit 0 -----------------------------------


@dataclass(frozen=True)
class _Rec:
    task_id: str
    evaluation: Evaluation
    simulation: Simulation | None
    status: str = "done"
    trial: int = 0


def _judged_met(sim: Simulation | None, task_id: str = "t") -> _Rec:
    """A unit the rubric judge passed (its one answer meets the one rubric)."""
    info = {
        "rubric_keys": ["0"],
        "windows": [{"replies": ['[{"rubric_key": "0", "meetExpectation": true}]']}],
        "total_windows": 1,
    }
    result = BasisResult(basis="rubric", reward=1.0, score=1.0, info=info)
    evaluation = Evaluation(reward=1.0, basis="rubric", by_basis={"rubric": result})
    return _Rec(task_id, evaluation, sim)


def _official(records: Sequence[_Rec], config: dict[str, Any]) -> tuple[Any, Any, Any]:
    comparison = official_comparison(records, config)
    (pair,) = comparison.pairs
    return pair.lifebench, pair.official, comparison.classes


async def test_an_agent_stop_on_the_limit_scores_zero_officially_one_step_later_it_is_judged() -> (
    None
):
    on_limit = await _play("en_tools", 8)
    assert on_limit.termination is TerminationReason.AGENT_STOP
    assert _official([_judged_met(on_limit)], {"suite": "vita", "max_steps": 8}) == (
        1.0,
        0.0,
        {"official_stop_at_step_limit": 1},
    )
    # the same stored episode in a run whose limit is one step higher is judged officially
    assert _official([_judged_met(on_limit)], {"suite": "vita", "max_steps": 9}) == (1.0, 1.0, {})


async def test_a_user_stop_on_the_limit_scores_zero_officially() -> None:
    on_limit = await _play("zh_user_stop", 5)
    assert on_limit.termination is TerminationReason.USER_STOP
    assert _official([_judged_met(on_limit)], {"max_steps": 5}) == (
        1.0,
        0.0,
        {"official_stop_at_step_limit": 1},
    )
    assert _official([_judged_met(on_limit)], {"max_steps": 6})[1] == 1.0


async def test_the_tool_batch_we_run_after_a_stop_is_not_an_official_step() -> None:
    # we ran the call next to ###STOP### (3 steps on a limit of 3); officially the episode
    # ended at the message (2 steps) with agent_stop and was judged
    sim = await _play("zh_stop_with_call", 3)
    assert (sim.termination, sim.steps) == (TerminationReason.AGENT_STOP, 3)
    assert _official([_judged_met(sim)], {"max_steps": 3})[1:] == (1.0, {})
    assert _official([_judged_met(sim)], {"max_steps": 2})[1] == 0.0


async def test_without_a_stated_limit_the_default_of_300_applies() -> None:
    sim = await _play("en_tools", 9)  # agent_stop at step 8
    at_300 = sim.model_copy(update={"steps": 300})
    below = sim.model_copy(update={"steps": 299})
    assert _official([_judged_met(at_300)], {"suite": "vita"})[1] == 0.0
    assert _official([_judged_met(below)], {"suite": "vita"})[1] == 1.0


async def test_pooled_records_read_the_limit_of_their_own_run() -> None:
    sim = await _play("en_tools", 9)  # agent_stop at step 8
    config = {
        "suite": "vita",
        "max_steps": 300,
        "pooled": {"tight": {"max_steps": 8}, "roomy": {"max_steps": 9}},
    }
    records = [_judged_met(sim, "tight/t"), _judged_met(sim, "roomy/t")]
    assert _official(records, config) == (1.0, 0.5, {"official_stop_at_step_limit": 1})


def test_a_record_without_its_simulation_is_read_as_before() -> None:
    assert _official([_judged_met(None)], {"max_steps": 1}) == (1.0, 1.0, {})
