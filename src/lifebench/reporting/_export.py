"""``lifebench export``: every simulation and evaluation of a run as JSON Lines.

The line types are pydantic models (documented in ``docs/run-format.md``; ``lifebench export
--schema`` prints their JSON Schema). Output is deterministic: the same store gives the same
bytes (no paths, no export time).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from lifebench.evaluation._types import Evaluation
from lifebench.reporting._load import RunData
from lifebench.reporting._outcomes import Outcome, unit_summary
from lifebench.simulation._types import Simulation

EXPORT_FORMAT = "lifebench-export"
EXPORT_VERSION = 1


class _Line(BaseModel):
    model_config = ConfigDict(frozen=True)


class RunLine(_Line):
    """The first line: what the run was."""

    record: Literal["run"] = "run"
    format: Literal["lifebench-export"] = "lifebench-export"
    format_version: int = Field(EXPORT_VERSION, description="Version of this export format.")
    schema_version: int = Field(description="Version of the run store's table layout.")
    lifebench_version: str = Field(description="lifebench version that created the run.")
    created_at: str = Field(description="UTC ISO time the run was created.")
    config_hash: str = Field(description="Hash of the run configuration (resume identity).")
    config: dict[str, Any] = Field(description="The run configuration as stored.")
    units: int = Field(description="Number of unit lines that follow.")


class UnitLine(_Line):
    """One (task, trial) unit: its stored state, a one-line summary, the full records."""

    record: Literal["unit"] = "unit"
    task_id: str
    trial: int = Field(description="0-based trial index.")
    seed: int
    status: str = Field(description="pending, done or infra_error (store status).")
    attempts: int = Field(description="Recorded attempts of the unit.")
    error: str | None = Field(description="Error text of the latest attempt (infra errors).")
    created_at: str
    updated_at: str
    outcome: Outcome = Field(
        description="pass, fail, infra_error, grading_error, ungradable or pending."
    )
    reward: float | None = Field(description="Reward of a usable evaluation, else null.")
    simulation: Simulation | None = Field(description="The trajectory and how it ended.")
    evaluation: Evaluation | None = Field(description="Every basis with its criteria.")


class TaskLine(_Line):
    """A task as the run stored it (``--tasks``)."""

    record: Literal["task"] = "task"
    task_id: str
    content_hash: str
    task: Any = Field(description="The task's JSON as stored (null for runs that kept none).")


class AttemptLine(_Line):
    """One entry of the append-only attempt log (``--attempts``)."""

    record: Literal["attempt"] = "attempt"
    id: int
    kind: str = Field(description="attempt, cancelled or regrade.")
    task_id: str
    trial: int
    seed: int
    attempt: int
    status: str | None
    error: str | None
    model_retries: int
    reward: float | None
    duration_s: float
    at: str


ExportLine = Annotated[RunLine | UnitLine | TaskLine | AttemptLine, Field(discriminator="record")]


def export_schema() -> dict[str, Any]:
    """JSON Schema of one export line."""
    schema: dict[str, Any] = TypeAdapter(ExportLine).json_schema()
    return schema


def export_lines(run: RunData, *, tasks: bool = False, attempts: bool = False) -> Iterator[_Line]:
    """The lines of the export: run, [tasks], units, [attempts] — each group in a stable
    order (task id, trial; attempt log id)."""
    records = sorted(run.records, key=lambda r: (r.task_id, r.trial))
    meta = run.meta
    yield RunLine(
        schema_version=meta.schema_version,
        lifebench_version=meta.lifebench_version,
        created_at=meta.created_at,
        config_hash=meta.config_hash,
        config=meta.config,
        units=len(records),
    )
    if tasks:
        hashes = run.task_hashes
        for task_id in sorted(hashes):
            raw = run.task_data.get(task_id)
            yield TaskLine(
                task_id=task_id,
                content_hash=hashes[task_id],
                task=None if raw is None else json.loads(raw),
            )
    for r in records:
        summary = unit_summary(r)
        yield UnitLine(
            task_id=r.task_id,
            trial=r.trial,
            seed=r.seed,
            status=str(r.status),
            attempts=r.attempts,
            error=r.error,
            created_at=r.created_at,
            updated_at=r.updated_at,
            outcome=summary.outcome,
            reward=summary.reward,
            simulation=r.simulation,
            evaluation=r.evaluation,
        )
    if attempts:
        for a in run.attempts:
            yield AttemptLine(
                id=a.id,
                kind=str(a.kind),
                task_id=a.task_id,
                trial=a.trial,
                seed=a.seed,
                attempt=a.attempt,
                status=None if a.status is None else str(a.status),
                error=a.error,
                model_retries=a.model_retries,
                reward=a.reward,
                duration_s=a.duration_s,
                at=a.at,
            )


def line_json(line: BaseModel) -> str:
    """One line of JSON (keys in model order, non-ASCII kept, no trailing newline)."""
    return line.model_dump_json()
