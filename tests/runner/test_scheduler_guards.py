"""The scheduler's failure records, pinned by what is stored: a unit whose execution raised is
an infra error carrying its reason (in the outcome and in the simulation), with the innermost
frames of the traceback; an execute that answers for another unit is refused by name; a task
group's failure is explained by the best of its exceptions."""

from __future__ import annotations

import asyncio

import pytest

from lifebench.errors import FatalProviderError, LifebenchError
from lifebench.runner._scheduler import (
    _TRACEBACK_FRAMES,
    exception_summary,
    execute_packed,
    infra_outcome,
    primary_error,
)
from lifebench.runner._units import UnitOutcome, UnitStatus, WorkUnit
from lifebench.simulation import Simulation, TerminationReason

UNIT = WorkUnit(task_id="t-7", trial=2, seed=99)


def test_an_infra_outcome_carries_its_reason_everywhere() -> None:
    outcome = infra_outcome(UNIT, "provider down")
    assert (outcome.error, outcome.infra, outcome.rejected) == ("provider down", True, False)
    sim = outcome.simulation
    assert (sim.task_id, sim.trial, sim.seed) == ("t-7", 2, 99)
    assert (sim.termination, sim.error) == (TerminationReason.INFRASTRUCTURE_ERROR, "provider down")


def _f0() -> None:
    raise ValueError("the innermost failure")


def _f1() -> None:
    _f0()


def _f2() -> None:
    _f1()


def _f3() -> None:
    _f2()


def _f4() -> None:
    _f3()


def _f5() -> None:
    _f4()


def _f6() -> None:
    _f5()


def _f7() -> None:
    _f6()


def test_an_exception_summary_keeps_the_innermost_frames() -> None:
    assert _TRACEBACK_FRAMES < 8
    try:
        _f7()
    except ValueError as exc:
        summary = exception_summary(exc)
    assert summary.startswith("Traceback (most recent call last):\n")
    assert summary.endswith("ValueError: the innermost failure")
    assert summary.count('\n  File "') == _TRACEBACK_FRAMES  # whole lines, one after another
    kept = [f"in _f{i}" for i in range(_TRACEBACK_FRAMES)]
    assert all(frame in summary for frame in kept)
    assert f"in _f{_TRACEBACK_FRAMES}" not in summary
    assert "in test_an_exception_summary" not in summary


async def test_a_raising_execute_is_an_infra_error_with_its_summary() -> None:
    async def execute(unit: WorkUnit) -> UnitOutcome:
        raise RuntimeError("socket closed")

    packed = await execute_packed(UNIT, execute)
    assert packed.status is UnitStatus.INFRA_ERROR
    assert packed.error is not None
    assert packed.error.endswith("RuntimeError: socket closed")


async def test_an_execute_answering_for_another_unit_is_refused_by_name() -> None:
    async def execute(unit: WorkUnit) -> UnitOutcome:
        other = Simulation(task_id="t-8", trial=0, seed=1, termination=TerminationReason.AGENT_STOP)
        return UnitOutcome(simulation=other)

    packed = await execute_packed(UNIT, execute)
    assert packed.status is UnitStatus.INFRA_ERROR
    assert packed.error == "execute returned the simulation of t-8#0 for this unit"


def test_the_best_exception_explains_a_group() -> None:
    first, second = ValueError("first"), KeyError("second")
    store = LifebenchError("the store is full")
    fatal = FatalProviderError("401 invalid key", status=401)
    cancelled = asyncio.CancelledError()
    assert primary_error(BaseExceptionGroup("g", [first, second])) is first
    assert primary_error(BaseExceptionGroup("g", [cancelled, second, first])) is second
    assert primary_error(BaseExceptionGroup("g", [first, store])) is store
    assert (
        primary_error(BaseExceptionGroup("g", [store, BaseExceptionGroup("h", [fatal])])) is fatal
    )
    assert isinstance(primary_error(BaseExceptionGroup("g", [cancelled])), asyncio.CancelledError)


@pytest.mark.parametrize("status", [UnitStatus.DONE])
def test_a_returned_outcome_is_kept(status: UnitStatus) -> None:
    sim = Simulation(task_id="t-7", trial=2, seed=99, termination=TerminationReason.AGENT_STOP)

    async def execute(unit: WorkUnit) -> UnitOutcome:
        return UnitOutcome(simulation=sim)

    packed = asyncio.run(execute_packed(UNIT, execute))
    assert (packed.status, packed.error) == (status, None)
