"""The tool-simulator role's usage reaches the metrics; a suite's own metrics reach the report."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

import lifebench.suites as suites
from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, ToolResultMessage, Usage, UserMessage
from lifebench.metrics import compute_metrics
from lifebench.reporting import build_report
from lifebench.reporting._report import report_json
from lifebench.simulation import Episode, ScriptedUser, run_episode
from lifebench.simulation._types import Simulation, TerminationReason
from lifebench.tools import ToolSet, tool


class _SimulatedTool:
    """A tool whose results carry the usage of a (pretend) simulator call."""

    @tool(kind="read", description="Look up the weather.")
    def weather(self, city: str) -> dict[str, str]:
        return {"city": city}


@dataclass(frozen=True)
class _Rec:
    task_id: str
    trial: int
    status: str
    attempts: int
    simulation: Simulation | None
    evaluation: Evaluation | None


def _sim(tool_cost: float, tool_retries: int) -> Simulation:
    return Simulation(
        task_id="t",
        trial=0,
        seed=1,
        messages=[
            UserMessage(content="hi"),
            AssistantMessage(content="ok"),
            ToolResultMessage(
                tool_call_id="c",
                name="weather",
                content="{}",
                usage=Usage(prompt_tokens=40, completion_tokens=4, cost=tool_cost),
            ),
        ],
        termination=TerminationReason.AGENT_STOP,
        agent_usage=Usage(prompt_tokens=10, completion_tokens=1, cost=0.5),
        tool_usage=Usage(
            prompt_tokens=40, completion_tokens=4, cost=tool_cost, retries=tool_retries
        ),
    )


def _done(sim: Simulation, reward: float = 1.0) -> _Rec:
    basis = BasisResult(basis="state", reward=reward, score=reward)
    return _Rec(
        "t",
        sim.trial,
        "done",
        1,
        sim,
        Evaluation(reward=reward, basis="state", by_basis={"state": basis}),
    )


async def test_loop_sums_tool_message_usage_into_tool_usage() -> None:
    class _Agent:
        def __init__(self) -> None:
            self.n = 0

        async def respond(self, trajectory: Sequence[Any]) -> AssistantMessage:
            self.n += 1
            if self.n == 1:
                from lifebench.messages import ToolCall

                return AssistantMessage(
                    tool_calls=[ToolCall(id="a", name="weather", arguments='{"city": "x"}')]
                )
            return AssistantMessage(content="###STOP###")

    class _Env:
        def __init__(self) -> None:
            from lifebench.tools import tools_of

            self._tools = ToolSet(tools_of(_SimulatedTool()))

        @property
        def tools(self) -> ToolSet:
            return self._tools

        def snapshot(self) -> dict[str, Any]:
            return {}

    env = _Env()
    original = env.tools.execute

    async def execute(call: Any, *, turn: int = 0) -> ToolResultMessage:
        result = await original(call, turn=turn)
        return result.model_copy(
            update={"usage": Usage(prompt_tokens=7, completion_tokens=3, cost=0.25)}
        )

    env.tools.execute = execute  # type: ignore[method-assign]
    sim = await run_episode(
        Episode(
            task_id="t", trial=0, seed=0, environment=env, agent=_Agent(), user=ScriptedUser(["go"])
        )
    )
    assert sim.tool_usage.prompt_tokens == 7 and sim.tool_usage.cost == 0.25
    assert sim.agent_usage.prompt_tokens == 0


def test_tool_role_in_tokens_cost_and_retries() -> None:
    metrics = compute_metrics(
        [_done(_sim(0.25, 2)), _done(_sim(0.75, 1).model_copy(update={"trial": 1}))]
    )
    assert metrics.tokens.tool.prompt == 40
    assert metrics.cost.tool == pytest.approx(0.5)
    assert metrics.cost.total == pytest.approx(1.0)  # 0.5 agent + 0.5 tool per simulation
    assert metrics.retries.model == 3


class _MetricSuite:
    name = "metricsuite"

    def report_metrics(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        done = [r for r in records if r.status == "done"]
        return {"score": 42.5 * len(done), "by_subset": {"single": 1.0}}


class _ClashSuite(_MetricSuite):
    def report_metrics(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        return {"avg_reward": 0.0}


def test_suite_metrics_sit_beside_the_core_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suites, "get_suite", lambda name: _MetricSuite())
    report = build_report([_done(_sim(0.25, 0))], {"suite": "metricsuite"})
    data = json.loads(report_json(report))
    assert data["score"] == 42.5 and data["by_subset"] == {"single": 1.0}
    assert data["suite_metric_names"] == ["by_subset", "score"]
    assert report.suite_metrics() == {"by_subset": {"single": 1.0}, "score": 42.5}


def test_suite_metric_named_like_a_core_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suites, "get_suite", lambda name: _ClashSuite())
    with pytest.raises(ValueError, match="avg_reward"):
        build_report([_done(_sim(0.25, 0))], {"suite": "clash"})
