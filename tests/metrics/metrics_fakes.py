"""Minimal records for metric and report tests (independent of the runner)."""

from __future__ import annotations

from dataclasses import dataclass

from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, Usage, UserMessage
from lifebench.simulation._types import Simulation, TerminationReason


@dataclass(frozen=True)
class Rec:
    """Satisfies lifebench.metrics.ResultRecord."""

    task_id: str
    trial: int
    status: str
    attempts: int
    simulation: Simulation | None
    evaluation: Evaluation | None


def sim(
    task_id: str,
    trial: int,
    *,
    termination: TerminationReason = TerminationReason.AGENT_STOP,
    tool_calls: int = 0,
    tool_errors: int = 0,
    retries: int = 0,
) -> Simulation:
    """Two user + two assistant messages and fixed usage."""
    return Simulation(
        task_id=task_id,
        trial=trial,
        seed=trial,
        messages=[
            UserMessage(turn=0, content="hi"),
            AssistantMessage(turn=1, content="hello"),
            UserMessage(turn=2, content="book it"),
            AssistantMessage(turn=3, content="done"),
        ],
        termination=termination,
        tool_calls=tool_calls,
        tool_errors=tool_errors,
        agent_usage=Usage(prompt_tokens=100, completion_tokens=20, cost=0.01, retries=retries),
        user_usage=Usage(prompt_tokens=30, completion_tokens=10, cost=0.002),
    )


def ev(reward: float, *, rubric: float | None = None, error: str | None = None) -> Evaluation:
    """Reward on a 'state' basis, optionally with a judged 'rubric' basis."""
    by_basis = {"state": BasisResult(basis="state", reward=reward, score=reward)}
    if rubric is not None:
        by_basis["rubric"] = BasisResult(
            basis="rubric",
            reward=rubric,
            score=0.5,
            usage=Usage(prompt_tokens=50, completion_tokens=5, cost=0.004, retries=1),
        )
    return Evaluation(reward=reward, basis="state", by_basis=by_basis, error=error)


def done(task_id: str, trial: int, reward: float, **sim_args: object) -> Rec:
    """A completed and graded unit."""
    return Rec(task_id, trial, "done", 1, sim(task_id, trial, **sim_args), ev(reward))  # type: ignore[arg-type]


def scenario() -> list[Rec]:
    """Task A: 1,1,0,0 (c=2); task B: 1, ~1, 1, 0.5 (c=3); an infra error; a pending task."""
    recs = [
        done("A", 0, 1.0, tool_calls=4, tool_errors=1),
        done("A", 1, 1.0),
        done("A", 2, 0.0, termination=TerminationReason.MAX_STEPS),
        done("A", 3, 0.0),
        done("B", 0, 1.0),
        done("B", 1, 0.9999995),
        done("B", 2, 1.0),
        done("B", 3, 0.5),
        Rec(
            "A",
            4,
            "infra_error",
            3,
            sim("A", 4, termination=TerminationReason.INFRASTRUCTURE_ERROR, retries=5),
            None,
        ),
        Rec("C", 0, "pending", 0, None, None),
    ]
    return recs
