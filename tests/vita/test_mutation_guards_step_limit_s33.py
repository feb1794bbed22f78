"""Mutation guards for the official reading of the step limit (vita/grading/official.py
``official_steps`` and a pooled record's own ``max_steps``), pinned by the official reward."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lifebench.evaluation import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from lifebench.simulation import Episode, Limits, Simulation, TerminationReason, run_episode
from lifebench.vita.grading.official import official_comparison, official_steps


class _Env:
    def __init__(self) -> None:
        self.tools = self

    async def execute(self, call: ToolCall, *, turn: int) -> ToolResultMessage:
        return ToolResultMessage(tool_call_id=call.id, name=call.name, content='{"ok": true}')

    def snapshot(self) -> dict[str, Any]:
        return {}


class _Agent:
    """Looks the order up, then cancels it and says goodbye in the same message."""

    def __init__(self, goodbye: str) -> None:
        self.goodbye = goodbye
        self.asked = 0

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        self.asked += 1
        if self.asked == 1:
            call = ToolCall(id="c1", name="search_order", arguments=json.dumps({"id": "O-7"}))
            return AssistantMessage(content="", tool_calls=[call])
        call = ToolCall(id="c2", name="cancel_order", arguments=json.dumps({"id": "O-7"}))
        return AssistantMessage(content=self.goodbye, tool_calls=[call])


class _User:
    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        return UserMessage(content="Cancel order O-7, please. / 请取消订单O-7。")


async def _lookup_then_cancel_and_stop(goodbye: str) -> Simulation:
    return await run_episode(
        Episode(
            task_id="t",
            trial=0,
            seed=1,
            environment=_Env(),  # type: ignore[arg-type]
            agent=_Agent(goodbye),
            user=_User(),
            limits=Limits(max_steps=50),
        )
    )


async def test_only_the_batch_after_the_last_agent_message_with_stop_is_taken_off() -> None:
    # user 1, lookup 2, its result 3, cancel + stop 4, its result 5: officially it ends at 4
    for goodbye in ("Cancelled. ###STOP###", "已取消。###STOP###"):
        sim = await _lookup_then_cancel_and_stop(goodbye)
        assert (sim.termination, sim.steps, sim.tool_calls) == (TerminationReason.AGENT_STOP, 5, 2)
        assert official_steps(sim) == 4


@dataclass(frozen=True)
class _Rec:
    task_id: str
    evaluation: Evaluation
    simulation: Simulation
    status: str = "done"
    trial: int = 0


def _passed(task_id: str, sim: Simulation) -> _Rec:
    info = {
        "rubric_keys": ["0"],
        "windows": [{"replies": ['[{"rubric_key": "0", "meetExpectation": true}]']}],
        "total_windows": 1,
    }
    result = BasisResult(basis="rubric", reward=1.0, score=1.0, info=info)
    return _Rec(task_id, Evaluation(reward=1.0, basis="rubric", by_basis={"rubric": result}), sim)


def _stop_at(steps: int) -> Simulation:
    messages: list[Message] = [
        AssistantMessage(content="Hello, how can I help you?"),
        UserMessage(content="Thanks, that is all. ###STOP###"),
    ]
    return Simulation(
        task_id="t",
        trial=0,
        seed=1,
        messages=messages,
        termination=TerminationReason.USER_STOP,
        steps=steps,
    )


def _official_mean(records: Sequence[_Rec], config: dict[str, Any]) -> float | None:
    (pair,) = official_comparison(records, config).pairs
    return pair.official


def test_a_pooled_record_reads_its_own_run_also_when_labels_hold_a_slash() -> None:
    # run_labels gives "parent/run" labels when run directories share a name
    config = {
        "suite": "vita",
        "max_steps": 300,
        "pooled": {"a/run": {"max_steps": 5}, "b/run": {"max_steps": 6}},
    }
    records = [_passed("a/run/t", _stop_at(5)), _passed("b/run/t", _stop_at(5))]
    assert _official_mean(records, config) == 0.5


def test_the_longest_matching_label_is_the_records_run() -> None:
    config = {"pooled": {"x": {"max_steps": 300}, "x/y": {"max_steps": 5}}}
    assert _official_mean([_passed("x/y/t", _stop_at(5))], config) == 0.0
    assert _official_mean([_passed("x/t", _stop_at(5))], config) == 1.0


def test_a_record_of_no_pooled_run_reads_the_configuration_itself() -> None:
    config = {"max_steps": 5, "pooled": {"other": {"max_steps": 300}}}
    assert _official_mean([_passed("t", _stop_at(5))], config) == 0.0
