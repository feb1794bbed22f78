"""Scheduling: run work units with bounded concurrency on a backend, committing each result.

The writer (this process) owns the run store. A *backend* executes units — in this event loop
(:class:`LocalBackend`), in worker processes (:class:`~lifebench.runner._workers.ProcessBackend`)
or on a Ray cluster (:class:`~lifebench.runner._ray.RayBackend`) — and hands every outcome,
packed, to a :class:`Sink` that writes it. Whatever the backend, each unit is written once,
by one process, in one transaction.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from lifebench.errors import FatalProviderError, LifebenchError
from lifebench.runner._progress import Progress
from lifebench.runner._records import UnitStatus
from lifebench.runner._store import RunStore
from lifebench.runner._units import PackedOutcome, UnitOutcome, WorkUnit
from lifebench.simulation._types import Simulation, TerminationReason

Execute = Callable[[WorkUnit], Awaitable[UnitOutcome]]
"""Runs (and usually grades) one unit. Exceptions it raises are recorded as infra errors,
except :class:`~lifebench.errors.FatalProviderError`, which stops the run."""

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
    """Units already final in the store (done or rejected), not executed again."""
    duration_s: float
    """Wall-clock seconds of the call."""
    rejected: int = 0
    """Units executed in this call whose request the provider rejected for its content."""
    regraded: int = 0
    """Done units whose earlier grading had failed, graded again from their stored
    trajectories (filled by the run, not by :func:`run_units`)."""
    grading_errors: int = 0
    """Done units of the run whose stored grading failed after this session (likewise)."""

    @property
    def executed(self) -> int:
        """Units executed and recorded in this call."""
        return self.done + self.infra_errors + self.rejected


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


async def execute_packed(unit: WorkUnit, execute: Execute) -> PackedOutcome:
    """Execute one unit and pack its outcome; any exception but a fatal provider error (and
    cancellation) becomes an infra-error outcome with a traceback summary."""
    try:
        outcome = await execute(unit)
    except FatalProviderError:
        raise
    except RecursionError:
        outcome = infra_outcome(
            unit, "the unit's data is nested too deeply to process (hundreds of levels of JSON)"
        )
    except Exception as exc:
        outcome = infra_outcome(unit, exception_summary(exc))
    try:
        return PackedOutcome.of(unit, outcome)
    except ValueError:
        sim = outcome.simulation
        return PackedOutcome.of(
            unit,
            infra_outcome(
                unit, f"execute returned the simulation of {sim.task_id}#{sim.trial} for this unit"
            ),
        )


class Sink(Protocol):
    """Where a backend reports what happens to units (the writer implements it)."""

    def started(self, unit: WorkUnit) -> None:
        """A unit was handed out for execution."""
        ...

    def finished(self, packed: PackedOutcome) -> None:
        """A unit's outcome arrived: write it."""
        ...

    def cancelled(self, unit: WorkUnit, note: str) -> None:
        """A handed-out unit will not finish (cancelled, or the run stopped)."""
        ...


class Backend(Protocol):
    """Executes units, at most ``concurrency`` at a time, reporting each to a :class:`Sink`.

    ``run`` returns when every unit finished. A :class:`FatalProviderError` stops it: the
    units in flight are reported cancelled and the error propagates; so does cancellation.
    """

    async def run(self, units: Sequence[WorkUnit], sink: Sink) -> None:
        """Execute ``units``."""
        ...


class LocalBackend:
    """Units as asyncio tasks of this event loop, ``concurrency`` at a time."""

    def __init__(self, execute: Execute, concurrency: int) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        self._execute, self._concurrency = execute, concurrency

    async def run(self, units: Sequence[WorkUnit], sink: Sink) -> None:
        """Start units in order; each worker coroutine takes the next one when it is free."""
        queue: Iterator[WorkUnit] = iter(units)

        async def worker() -> None:
            # Single-threaded event loop: next() on the shared iterator needs no lock.
            for unit in queue:
                sink.started(unit)
                try:
                    packed = await execute_packed(unit, self._execute)
                except asyncio.CancelledError:
                    sink.cancelled(unit, "cancelled while running")
                    raise
                except FatalProviderError as exc:
                    sink.cancelled(unit, f"run stopped: {exc}")
                    raise
                sink.finished(packed)
                # A unit that never waits (offline agents) would otherwise keep the loop to
                # itself: yield, so signals (Ctrl-C, SIGTERM) and other workers get their turn.
                await asyncio.sleep(0)

        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(min(self._concurrency, len(units))):
                    group.create_task(worker())
        except BaseExceptionGroup as group_error:
            raise primary_error(group_error) from None


def primary_error(group: BaseExceptionGroup) -> BaseException:
    """The exception of a task group that explains the failure best: a fatal provider error,
    then any lifebench error (e.g. the store), then whatever came first."""
    leaves: list[BaseException] = []

    def collect(error: BaseException) -> None:
        if isinstance(error, BaseExceptionGroup):
            for inner in error.exceptions:
                collect(inner)
        elif not isinstance(error, asyncio.CancelledError):
            leaves.append(error)

    collect(group)
    for kind in (FatalProviderError, LifebenchError):
        for leaf in leaves:
            if isinstance(leaf, kind):
                return leaf
    return leaves[0] if leaves else asyncio.CancelledError()


class _Recorder:
    """The writer's :class:`Sink`: commits outcomes to the store and updates the progress."""

    def __init__(self, store: RunStore, progress: Progress | None) -> None:
        self.store, self.progress = store, progress
        self.statuses: list[UnitStatus] = []

    def started(self, unit: WorkUnit) -> None:
        if self.progress is not None:
            self.progress.unit_started()

    def finished(self, packed: PackedOutcome) -> None:
        status = self.store.record_packed(packed)
        self.statuses.append(status)
        if self.progress is not None:
            self.progress.unit_finished(
                failed=status is UnitStatus.INFRA_ERROR, rejected=status is UnitStatus.REJECTED
            )

    def cancelled(self, unit: WorkUnit, note: str) -> None:
        self.store.record_cancelled(unit, note)
        if self.progress is not None:
            self.progress.unit_cancelled()


async def run_units(
    units: Sequence[WorkUnit],
    execute: Execute | None,
    store: RunStore,
    concurrency: int,
    progress: Progress | None = None,
    *,
    backend: Backend | None = None,
) -> RunSummary:
    """Execute the units of ``units`` that ``store`` has not completed, ``concurrency`` at a time.

    Units start in the given order, on ``backend`` (default: :class:`LocalBackend` running
    ``execute`` in this event loop). Each outcome is committed to ``store`` as soon as it
    arrives. An exception escaping ``execute`` is recorded as an infra_error unit with a
    traceback summary; it never stops the batch. A unit whose request the provider rejected for
    its content is recorded as ``rejected`` (not re-run on resume).

    Stops early, propagating the error, when: the provider refuses every call
    (:class:`~lifebench.errors.FatalProviderError`: the units in flight are logged as cancelled
    and stay as they were); the run is cancelled (Ctrl-C, SIGTERM: likewise); the store cannot
    be written (results could not be saved). Every unit that finished before stays committed.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    if backend is None:
        if execute is None:
            raise ValueError("run_units needs execute or a backend")
        backend = LocalBackend(execute, concurrency)
    started = time.monotonic()
    pending = store.pending_units(units)
    skipped = len(units) - len(pending)
    recorder = _Recorder(store, progress)
    if progress is not None:
        progress.start(total=len(units), already_done=skipped)
    try:
        if pending:
            await backend.run(pending, recorder)
    finally:
        if progress is not None:
            progress.stop()
    statuses = recorder.statuses
    return RunSummary(
        total=len(units),
        done=statuses.count(UnitStatus.DONE),
        infra_errors=statuses.count(UnitStatus.INFRA_ERROR),
        rejected=statuses.count(UnitStatus.REJECTED),
        skipped=skipped,
        duration_s=time.monotonic() - started,
    )
