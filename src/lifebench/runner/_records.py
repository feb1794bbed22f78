"""Pydantic models of what the run store persists and returns."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lifebench.evaluation._types import Evaluation
from lifebench.simulation._types import Simulation


class UnitStatus(StrEnum):
    """Where a (task, trial) unit stands."""

    PENDING = "pending"
    DONE = "done"
    INFRA_ERROR = "infra_error"
    REJECTED = "rejected"
    """The provider refused the unit's request for its content; not re-run on resume."""


class EventKind(StrEnum):
    """Kinds of entries in the attempt log."""

    ATTEMPT = "attempt"
    """A unit was executed and its outcome recorded (done, infra_error or rejected)."""
    CANCELLED = "cancelled"
    """A unit was running when the run was cancelled or stopped; it stays as it was."""
    REGRADE = "regrade"
    """A done unit received a new evaluation."""


class UnitRecord(BaseModel):
    """The stored state of one (task, trial) unit."""

    model_config = ConfigDict(frozen=True)

    task_id: str = Field(description="Id of the task.")
    trial: int = Field(description="0-based trial index.")
    seed: int = Field(description="Seed of the unit.")
    status: UnitStatus = Field(description="pending, done, infra_error or rejected.")
    attempts: int = Field(0, description="Recorded attempts (done or infra_error outcomes).")
    simulation: Simulation | None = Field(None, description="Latest simulation, if any.")
    evaluation: Evaluation | None = Field(None, description="Latest evaluation, if any.")
    error: str | None = Field(None, description="Error text of the latest attempt.")
    created_at: str = Field(description="UTC ISO time the unit was first registered.")
    updated_at: str = Field(description="UTC ISO time of the latest change.")


class AttemptRecord(BaseModel):
    """One entry of the append-only attempt log; nothing is ever deleted from it."""

    model_config = ConfigDict(frozen=True)

    id: int = Field(description="Monotonic id (log order).")
    kind: EventKind = Field(description="attempt, cancelled or regrade.")
    task_id: str
    trial: int
    seed: int
    attempt: int = Field(description="1-based attempt number of the unit (0 for cancelled).")
    status: UnitStatus | None = Field(None, description="Unit status after this entry.")
    error: str | None = Field(None, description="Error text, for failures.")
    model_retries: int = Field(0, description="Retried model calls inside this attempt.")
    reward: float | None = Field(None, description="Reward of the evaluation, if any.")
    duration_s: float = Field(0.0, description="Wall-clock seconds of the simulation.")
    at: str = Field(description="UTC ISO time of the entry.")


class RunMeta(BaseModel):
    """Identity of a run directory: the configuration it was created with."""

    model_config = ConfigDict(frozen=True)

    config: dict[str, Any] = Field(description="The run configuration as first stored.")
    config_hash: str = Field(description="Hash of the configuration, as given by the caller.")
    lifebench_version: str = Field(description="lifebench version that created the run.")
    created_at: str = Field(description="UTC ISO creation time.")
    schema_version: int = Field(description="Version of the store's table layout.")
