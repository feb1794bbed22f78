"""Asynchronous scheduler: run work units with bounded concurrency, committing each result."""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass

from lifebench.runner._progress import Progress
from lifebench.runner._records import UnitStatus
from lifebench.runner._store import RunStore
from lifebench.runner._units import UnitOutcome, WorkUnit
from lifebench.simulation._types import Simulation, TerminationReason

Execute = Callable[[WorkUnit], Awaitable[UnitOutcome]]
"""Runs (and usually grades) one unit. Exceptions it raises are recorded as infra errors."""

_TRACEBACK_FRAMES = 5


@dataclass(frozen=True)
class RunSummary:
    """What one call of :func:`run_units` did."""

    total: int
    """Units asked for."""
    done: int
    """Units executed and recorded as done in this call."""
    infra_errors: int
    """Units executed in this call that ended in an infrastructure error (re-run on resume)."""
    skipped: int
    """Units already done in the store, not executed again."""
    duration_s: float
    """Wall-clock seconds of the call."""


def exception_summary(exc: BaseException) -> str:
    """``Type: message`` followed by the innermost traceback frames."""
    lines = traceback.format_exception(exc, limit=-_TRACEBACK_FRAMES)
    return "".join(lines).rstrip()


def infra_outcome(unit: WorkUnit, error: str) -> UnitOutcome:
    """A placeholder outcome for a unit whose execution raised instead of returning."""
    simulation = Simulation(
        task_id=unit.task_id,
        trial=unit.trial,
        seed=unit.seed,
        termination=TerminationReason.INFRASTRUCTURE_ERROR,
        error=error,
    )
    return UnitOutcome(simulation=simulation, error=error, infra=True)


async def run_units(
    units: Sequence[WorkUnit],
    execute: Execute,
    store: RunStore,
    concurrency: int,
    progress: Progress | None = None,
) -> RunSummary:
    """Execute the units of ``units`` that ``store`` has not completed, ``concurrency`` at a time.

    Units start in the given order. Each outcome is committed to ``store`` as soon as it
    arrives. An exception escaping ``execute`` is recorded as an infra_error unit with a
    traceback summary; it never stops the batch. Cancellation (Ctrl-C) cancels the running
    units, logs them as cancelled (they stay pending) and propagates; every unit that finished
    before stays committed. Errors of the store itself propagate (results could not be saved).
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    started = time.monotonic()
    pending = store.pending_units(units)
    skipped = len(units) - len(pending)
    statuses: list[UnitStatus] = []
    queue: Iterator[WorkUnit] = iter(pending)

    async def worker() -> None:
        # Single-threaded event loop: next() on the shared iterator needs no lock.
        for unit in queue:
            statuses.append(await _run_one(unit, execute, store, progress))

    if progress is not None:
        progress.start(total=len(units), already_done=skipped)
    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(min(concurrency, len(pending))):
                group.create_task(worker())
    finally:
        if progress is not None:
            progress.stop()
    return RunSummary(
        total=len(units),
        done=statuses.count(UnitStatus.DONE),
        infra_errors=statuses.count(UnitStatus.INFRA_ERROR),
        skipped=skipped,
        duration_s=time.monotonic() - started,
    )


async def _run_one(
    unit: WorkUnit, execute: Execute, store: RunStore, progress: Progress | None
) -> UnitStatus:
    """Execute one unit and commit its outcome; exceptions become infra-error outcomes."""
    if progress is not None:
        progress.unit_started()
    try:
        outcome = await execute(unit)
    except asyncio.CancelledError:
        store.record_cancelled(unit)
        if progress is not None:
            progress.unit_cancelled()
        raise
    except Exception as exc:
        outcome = infra_outcome(unit, exception_summary(exc))
    sim = outcome.simulation
    if (sim.task_id, sim.trial) != (unit.task_id, unit.trial):
        outcome = infra_outcome(
            unit, f"execute returned the simulation of {sim.task_id}#{sim.trial} for this unit"
        )
    status = store.record(
        unit, outcome.simulation, outcome.evaluation, outcome.error, infra=outcome.infra
    )
    if progress is not None:
        progress.unit_finished(failed=status is UnitStatus.INFRA_ERROR)
    return status
