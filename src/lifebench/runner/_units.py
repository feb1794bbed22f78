"""The unit of work of a run (one trial of one task), what executing it produces, and the
packed form in which an outcome travels to the store (across processes and machines)."""

from __future__ import annotations

from dataclasses import dataclass

from lifebench.evaluation._types import Evaluation
from lifebench.models._record import PackedCalls
from lifebench.runner._records import UnitStatus
from lifebench.simulation._types import Simulation, TerminationReason


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
    ``rejected`` marks a request the provider refused for its content (too large, filtered):
    the unit is stored as ``rejected``, kept out of the metrics and *not* re-run on resume.
    ``error`` is a human-readable explanation (required for both, optional note otherwise).
    ``evaluation`` is ``None`` when the simulation was not graded (yet).
    """

    simulation: Simulation
    evaluation: Evaluation | None = None
    error: str | None = None
    infra: bool = False
    rejected: bool = False
    calls: PackedCalls | None = None
    """The unit's model calls and briefing, when they were recorded."""


def _model_retries(simulation: Simulation, evaluation: Evaluation | None) -> int:
    """Retried model calls behind a simulation and its grading (agent, user, tools, judges)."""
    total = (
        simulation.agent_usage.retries
        + simulation.user_usage.retries
        + simulation.tool_usage.retries
    )
    if evaluation is not None:
        total += sum(b.usage.retries for b in evaluation.by_basis.values())
    return total


@dataclass(frozen=True)
class PackedOutcome:
    """An outcome ready to be written: its status decided and its models serialised once, by
    whichever process executed the unit (the writer only inserts the text)."""

    unit: WorkUnit
    status: UnitStatus
    simulation_json: str
    evaluation_json: str | None
    error: str | None
    model_retries: int
    reward: float | None
    duration_s: float
    calls: PackedCalls | None = None

    @classmethod
    def of(cls, unit: WorkUnit, outcome: UnitOutcome) -> PackedOutcome:
        """Pack ``outcome`` of ``unit``.

        The status is ``rejected`` when ``outcome.rejected``; else ``infra_error`` when
        ``outcome.infra`` or the simulation ended with an infrastructure error; else ``done``.

        Raises:
            ValueError: The simulation is not the unit's.
        """
        sim, ev = outcome.simulation, outcome.evaluation
        if (sim.task_id, sim.trial) != (unit.task_id, unit.trial):
            raise ValueError(
                f"simulation of {sim.task_id}#{sim.trial} recorded for unit "
                f"{unit.task_id}#{unit.trial}"
            )
        error = outcome.error
        if outcome.rejected:
            status = UnitStatus.REJECTED
            error = error or sim.error or "rejected by the provider"
        elif outcome.infra or sim.termination == TerminationReason.INFRASTRUCTURE_ERROR:
            status = UnitStatus.INFRA_ERROR
            error = error or sim.error or "infrastructure error"
        else:
            status = UnitStatus.DONE
        return cls(
            unit=unit,
            status=status,
            simulation_json=sim.model_dump_json(),
            evaluation_json=None if ev is None else ev.model_dump_json(),
            error=error,
            model_retries=_model_retries(sim, ev),
            reward=None if ev is None else ev.reward,
            duration_s=sim.duration_s,
            calls=outcome.calls,
        )
