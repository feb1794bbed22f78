"""Fake simulations, evaluations and configs for the runner tests."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, Message, ToolCall, Usage, UserMessage
from lifebench.runner import UnitOutcome, WorkUnit
from lifebench.simulation import Episode, ScriptedUser
from lifebench.simulation._types import Simulation, TerminationReason

CONFIG = {"agent": {"model": "fake-agent", "temperature": 0.0}, "trials": 2, "max_steps": 30}
CONFIG_HASH = "hash-v1"
TASKS = {"t1": "h1", "t2": "h2", "t3": "h3"}


def units(tasks: dict[str, str] = TASKS, trials: int = 2) -> list[WorkUnit]:
    """One unit per (task, trial) with a simple deterministic seed."""
    return [
        WorkUnit(task_id, trial, 1000 * i + trial)
        for i, task_id in enumerate(sorted(tasks))
        for trial in range(trials)
    ]


def simulation(unit: WorkUnit, *, messages: int = 2) -> Simulation:
    """A short, normally ended simulation of ``unit``."""
    msgs: list[Message] = []
    for i in range(messages):
        if i % 2 == 0:
            msgs.append(UserMessage(turn=i, content=f"hello {i}"))
        else:
            msgs.append(AssistantMessage(turn=i, content=f"answer {i}"))
    return Simulation(
        task_id=unit.task_id,
        trial=unit.trial,
        seed=unit.seed,
        messages=msgs,
        termination=TerminationReason.AGENT_STOP,
        agent_usage=Usage(prompt_tokens=10, completion_tokens=5, cost=0.01),
    )


def evaluation(reward: float) -> Evaluation:
    """An evaluation with one 'state' basis."""
    result = BasisResult(basis="state", reward=reward, score=reward)
    return Evaluation(reward=reward, basis="state", by_basis={"state": result})


def outcome(unit: WorkUnit, reward: float = 1.0) -> UnitOutcome:
    """A successful (graded) outcome."""
    return UnitOutcome(simulation=simulation(unit), evaluation=evaluation(reward))


@dataclass
class NamedTask:
    """A task that is only its id."""

    id: str


@dataclass
class RecordingSuite:
    """A suite whose episodes record what they were built with: (trial, seed, options, models);
    each episode's user says ``user for seed <seed>``."""

    built: list[tuple[int, int, Any, Any]] = field(default_factory=list)

    def build_episode(self, task: Any, trial: int, seed: int, options: Any, models: Any) -> Episode:
        self.built.append((trial, seed, options, models))
        return Episode(
            task_id=task.id,
            trial=trial,
            seed=seed,
            environment=None,  # type: ignore[arg-type]
            agent=None,  # type: ignore[arg-type]
            user=ScriptedUser([f"user for seed {seed}"]),
        )

    @property
    def calls(self) -> list[tuple[int, int]]:
        """(trial, seed) of every episode built."""
        return [(trial, seed) for trial, seed, _, _ in self.built]


def orders_agent(messages: Sequence[Message], tools: Any) -> AssistantMessage:
    """A scripted VitaBench agent: looks the user's orders up once, then answers and stops."""
    if not any(m.role == "tool" for m in messages):
        return AssistantMessage(
            content="",
            tool_calls=[ToolCall(id="c1", name="get_user_all_orders", arguments="{}")],
        )
    return AssistantMessage(content="Here are your orders. ###STOP###")


def rubric_judge(messages: Sequence[Message], tools: Any) -> str:
    """A scripted rubric judge: every rubric of the window is met."""
    block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", messages[-1].content, re.S)
    keys = list(json.loads(block.group(1))) if block else []
    return json.dumps(
        [{"rubric_key": k, "meetExpectation": True, "justification": "[2]"} for k in keys]
    )
