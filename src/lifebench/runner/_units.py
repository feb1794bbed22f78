"""The unit of work of a run (one trial of one task) and what executing it produces."""

from __future__ import annotations

from dataclasses import dataclass

from lifebench.evaluation._types import Evaluation
from lifebench.simulation._types import Simulation


@dataclass(frozen=True, order=True)
class WorkUnit:
    """One simulation to run: trial ``trial`` of task ``task_id``, seeded with ``seed``.

    Ordering is by (task_id, trial, seed), the order in which results are reported.
    """

    task_id: str
    trial: int
    seed: int


@dataclass(frozen=True)
class UnitOutcome:
    """What executing a :class:`WorkUnit` produced.

    ``infra`` marks an infrastructure failure (provider down, retries exhausted, judge broken):
    the unit is stored as ``infra_error``, kept out of the metrics and re-run on resume.
    ``error`` is a human-readable explanation (required when ``infra`` is true, optional note
    otherwise). ``evaluation`` is ``None`` when the simulation was not graded (yet).
    """

    simulation: Simulation
    evaluation: Evaluation | None = None
    error: str | None = None
    infra: bool = False
