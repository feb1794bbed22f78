"""Data problems of FlowBench units that do not stop a run (``tasks validate``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from lifebench.flow.tasks.models import SessionTask, TurnSample


class FlowFinding(BaseModel):
    """One problem of one unit."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    field: str
    severity: Literal["error", "warning"]
    message: str


def _turn(sample: TurnSample) -> list[FlowFinding]:
    out: list[FlowFinding] = []

    def add(field: str, severity: Literal["error", "warning"], message: str) -> None:
        out.append(FlowFinding(task_id=sample.id, field=field, severity=severity, message=message))

    thought = sample.gold.thought
    names = {t.name for t in sample.tools}
    if thought.action:
        if thought.action_input and thought.arguments() is None:
            add("gold.thought.action_input", "error", "the gold arguments are not a JSON object")
        if names and thought.action not in names:
            add("gold.thought.action", "warning", f"gold tool {thought.action!r} is not offered")
    elif not sample.gold.response.strip():
        add("gold.response", "error", "the gold turn neither calls a tool nor replies")
    if not sample.history:
        add("history", "warning", "empty history (the first turn is the user's)")
    if not sample.scenarios and not sample.system_prompt:
        add(
            "scenarios",
            "warning",
            "no known scenario and no rendered prompt: give its workflows with --knowledge, "
            "else the agent sees only the tools",
        )
    return out


def _session(task: SessionTask) -> list[FlowFinding]:
    out: list[FlowFinding] = []

    def add(field: str, severity: Literal["error", "warning"], message: str) -> None:
        out.append(FlowFinding(task_id=task.id, field=field, severity=severity, message=message))

    if not task.user_summary.strip():
        add("user_summary", "error", "no task-user summary for the user simulator")
    names = {t.name for t in task.tools}
    for i, call in enumerate(task.gold_calls):
        if names and call.name not in names:
            add(f"gold_calls[{i}].name", "warning", f"gold tool {call.name!r} is not offered")
        if call.output is None:
            add(f"gold_calls[{i}].output", "warning", "no recorded output: the simulator answers")
    if not task.gold_calls:
        add("gold_calls", "warning", "no gold calls: the offline rule judge cannot grade it")
    return out


def lint_units(units: Iterable[Any]) -> list[FlowFinding]:
    """Findings of turn samples and session tasks, in order."""
    out: list[FlowFinding] = []
    for unit in units:
        if isinstance(unit, TurnSample):
            out.extend(_turn(unit))
        elif isinstance(unit, SessionTask):
            out.extend(_session(unit))
    return out
