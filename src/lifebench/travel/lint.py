"""Data lint of travel rows (``tasks validate``): problems that do not stop a run."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from lifebench.travel.task import TravelTask


class TravelFinding(BaseModel):
    """One problem of one row."""

    model_config = ConfigDict(frozen=True)

    task_id: str = Field(description="The row's trace_id.")
    field: str = Field(description="The field at fault.")
    severity: str = Field(description="error | warning.")
    message: str = Field(description="What is wrong.")


def lint_tasks(tasks: Sequence[TravelTask]) -> list[TravelFinding]:
    """Findings for rows that load but will run oddly."""
    out: list[TravelFinding] = []

    def add(task: TravelTask, field: str, severity: str, message: str) -> None:
        out.append(TravelFinding(task_id=task.id, field=field, severity=severity, message=message))

    for task in tasks:
        if not task.context.strip():
            add(task, "context", "warning", "no context: the agent has no location to start from")
        elif task.coordinates is None:
            add(task, "context", "warning", "the context gives no latitude/longitude")
        if task.subset == "multi" and not task.user_profile.strip():
            add(task, "user_profile", "error", "a multi-turn row needs a user_profile")
        if task.subset == "multi" and not task.intent.strip():
            add(
                task,
                "intent",
                "warning",
                "a multi-turn row without intent leaves the user simulator only the profile",
            )
        flags = sum((task.missing_tool, task.missing_info, task.no_actionable))
        if task.subset == "unsolvable" and flags != 1:
            add(
                task,
                "missing_tool",
                "warning",
                f"an unsolvable row should set exactly one reason flag (has {flags})",
            )
        if task.subset != "unsolvable" and flags:
            add(
                task,
                "missing_tool",
                "warning",
                f"a {task.subset} row with an unsolvable reason flag set",
            )
        location = task.location_text
        if location and len(location) % 2 == 0 and location[: len(location) // 2] * 2 == location:
            add(
                task,
                "context",
                "warning",
                f"location description {location!r} repeats the city (it does not resolve as "
                "an administrative name)",
            )
    return out
