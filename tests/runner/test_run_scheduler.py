"""run_units: concurrency bound, error capture, resume, cancellation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS, outcome, simulation, units

from lifebench.runner import (
    EventKind,
    Progress,
    RunStore,
    UnitOutcome,
    UnitStatus,
    WorkUnit,
    run_units,
)


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)


def many_units(n: int) -> tuple[dict[str, str], list[WorkUnit]]:
    tasks = {f"task{i:02d}": f"h{i}" for i in range(n)}
    return tasks, [WorkUnit(t, 0, i) for i, t in enumerate(sorted(tasks))]


async def test_concurrency_bound_is_respected(tmp_path: Path) -> None:
    tasks, work = many_units(20)
    store = RunStore.open(tmp_path, CONFIG, CONFIG_HASH, tasks)
    running = peak = 0

    async def execute(unit: WorkUnit) -> UnitOutcome:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.005)
        running -= 1
        return outcome(unit)

    summary = await run_units(work, execute, store, concurrency=3)
    assert peak == 3
    assert (summary.total, summary.done, summary.infra_errors, summary.skipped) == (20, 20, 0, 0)
    assert all(r.status is UnitStatus.DONE for r in store.results())


async def test_exception_in_execute_is_recorded_not_raised(store: RunStore) -> None:
    work = units()

    async def execute(unit: WorkUnit) -> UnitOutcome:
        if unit.task_id == "t2" and unit.trial == 1:
            raise RuntimeError("provider exploded")
        return outcome(unit)

    summary = await run_units(work, execute, store, concurrency=2)
    assert (summary.done, summary.infra_errors) == (5, 1)
    failed = [r for r in store.results() if r.status is UnitStatus.INFRA_ERROR]
    assert [(r.task_id, r.trial) for r in failed] == [("t2", 1)]
    assert failed[0].error is not None
    assert "RuntimeError: provider exploded" in failed[0].error
    assert "execute" in failed[0].error  # traceback frames are kept
    assert failed[0].simulation is not None
    assert failed[0].simulation.termination == "infrastructure_error"


async def test_infra_errors_rerun_and_done_units_skipped(store: RunStore) -> None:
    work = units()
    calls: list[WorkUnit] = []

    async def flaky(unit: WorkUnit) -> UnitOutcome:
        calls.append(unit)
        if unit.trial == 1:
            return UnitOutcome(simulation=simulation(unit), error="rate limited", infra=True)
        return outcome(unit)

    first = await run_units(work, flaky, store, concurrency=4)
    assert (first.done, first.infra_errors, first.skipped) == (3, 3, 0)

    calls.clear()

    async def healthy(unit: WorkUnit) -> UnitOutcome:
        calls.append(unit)
        return outcome(unit)

    second = await run_units(work, healthy, store, concurrency=4)
    assert (second.done, second.infra_errors, second.skipped) == (3, 0, 3)
    assert sorted(calls) == [u for u in work if u.trial == 1]
    records = store.results()
    assert all(r.status is UnitStatus.DONE for r in records)
    assert {(r.trial, r.attempts) for r in records} == {(0, 1), (1, 2)}
    assert len(store.attempt_log()) == 9

    third = await run_units(work, healthy, store, concurrency=4)
    assert (third.done, third.skipped) == (0, 6)


async def test_mismatched_simulation_becomes_infra_error(store: RunStore) -> None:
    work = units()[:2]

    async def wrong(unit: WorkUnit) -> UnitOutcome:
        return outcome(work[0])

    summary = await run_units(work, wrong, store, concurrency=1)
    assert (summary.done, summary.infra_errors) == (1, 1)


async def test_cancellation_keeps_completed_units(store: RunStore) -> None:
    work = units()
    finished = asyncio.Event()
    never = asyncio.Event()

    async def execute(unit: WorkUnit) -> UnitOutcome:
        if unit.task_id == "t1":
            return outcome(unit)
        finished.set()
        await never.wait()
        raise AssertionError("unreachable")

    task = asyncio.create_task(run_units(work, execute, store, concurrency=2))
    await asyncio.wait_for(finished.wait(), 5)
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    statuses = {(r.task_id, r.trial): r.status for r in store.results()}
    assert statuses[("t1", 0)] is UnitStatus.DONE
    assert statuses[("t1", 1)] is UnitStatus.DONE
    assert {s for k, s in statuses.items() if k[0] != "t1"} == {UnitStatus.PENDING}
    cancelled = [e for e in store.attempt_log() if e.kind is EventKind.CANCELLED]
    assert len(cancelled) == 2
    assert store.pending_units(work) == work[2:]


async def test_progress_counts_follow_the_run(store: RunStore) -> None:
    progress = Progress(quiet=True)

    async def execute(unit: WorkUnit) -> UnitOutcome:
        progress.retrying(+1)
        progress.retrying(-1)
        if unit.trial == 1:
            raise ValueError("boom")
        return outcome(unit)

    await run_units(units(), execute, store, concurrency=2, progress=progress)
    counts = progress.counts
    assert (counts.total, counts.finished, counts.failed, counts.running) == (6, 6, 3, 0)
    assert (counts.retrying, counts.retries_total) == (0, 6)


async def test_invalid_concurrency(store: RunStore) -> None:
    async def execute(unit: WorkUnit) -> UnitOutcome:
        return outcome(unit)

    with pytest.raises(ValueError, match="concurrency"):
        await run_units(units(), execute, store, concurrency=0)
