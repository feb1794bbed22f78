"""The survivors of mutation testing in ``runner/_scheduler.py``, pinned by their effect: what a
sink is told (the unit started, why it was cancelled), what an unprocessable unit records, what
the progress display starts from, how long a run says it took, and what a misuse says."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS, outcome, units

from lifebench.runner import RunStore, UnitOutcome, UnitStatus, WorkUnit, _scheduler, run_units
from lifebench.runner._scheduler import LocalBackend, execute_packed
from lifebench.runner._units import PackedOutcome


class _Sink:
    def __init__(self) -> None:
        self.events: list[tuple[str, Any, str]] = []

    def started(self, unit: WorkUnit) -> None:
        self.events.append(("started", unit, ""))

    def finished(self, packed: PackedOutcome) -> None:
        self.events.append(("finished", packed.unit, packed.status.value))

    def cancelled(self, unit: WorkUnit, note: str) -> None:
        self.events.append(("cancelled", unit, note))


async def _done(unit: WorkUnit) -> UnitOutcome:
    return outcome(unit)


def test_backends_and_runs_refuse_misuse_with_a_reason() -> None:
    with pytest.raises(ValueError, match=r"^concurrency must be at least 1, got 0$"):
        LocalBackend(_done, 0)


async def test_run_units_needs_something_to_run_the_units_with(tmp_path: Path) -> None:
    store = RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    with pytest.raises(ValueError, match=r"^run_units needs execute or a backend$"):
        await run_units(units(), None, store, concurrency=1)


async def test_the_sink_is_told_which_unit_started_and_finished() -> None:
    work = units()
    sink = _Sink()
    await LocalBackend(_done, 1).run(work, sink)
    expected: list[tuple[str, Any, str]] = []
    for unit in work:
        expected += [("started", unit, ""), ("finished", unit, "done")]
    assert sink.events == expected


async def test_a_unit_cancelled_while_running_says_so() -> None:
    work = units()[:1]
    sink = _Sink()
    running = asyncio.Event()

    async def execute(unit: WorkUnit) -> UnitOutcome:
        running.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    task = asyncio.create_task(LocalBackend(execute, 1).run(work, sink))
    for _ in range(1000):  # bounded steps: a backend that never starts the unit fails, not hangs
        if running.is_set() or task.done():
            break
        await asyncio.sleep(0)
    assert running.is_set() and not task.done(), task
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert sink.events == [
        ("started", work[0], ""),
        ("cancelled", work[0], "cancelled while running"),
    ]


async def test_a_unit_that_never_waits_yields_the_loop_without_sleeping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After each unit the worker yields (``sleep(0)``), never waits a time: an offline run of
    thousands of units must not take a second each."""
    delays: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(delay: float) -> None:
        delays.append(delay)
        await real_sleep(0)

    monkeypatch.setattr(_scheduler.asyncio, "sleep", sleep)
    await LocalBackend(_done, 2).run(units(), _Sink())
    assert delays and set(delays) == {0}


async def test_data_nested_too_deeply_is_an_infra_error_saying_so() -> None:
    unit = WorkUnit(task_id="t-deep", trial=1, seed=5)

    async def execute(unit: WorkUnit) -> UnitOutcome:
        raise RecursionError("maximum recursion depth exceeded")

    packed = await execute_packed(unit, execute)
    assert packed.unit == unit
    assert packed.status is UnitStatus.INFRA_ERROR
    assert packed.error == (
        "the unit's data is nested too deeply to process (hundreds of levels of JSON)"
    )


class _Progress:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def start(self, total: int, already_done: int = 0) -> None:
        self.calls.append(("start", (total, already_done)))

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def unit_started(self) -> None:
        pass

    def unit_finished(self, *, failed: bool = False, rejected: bool = False) -> None:
        pass

    def unit_cancelled(self) -> None:
        pass


async def test_a_resumed_run_shows_its_finished_units_and_its_own_duration(tmp_path: Path) -> None:
    store = RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    work = units()
    await run_units(work[:2], _done, store, concurrency=1)
    progress = _Progress()
    before = time.monotonic()
    summary = await run_units(work, _done, store, concurrency=1, progress=progress)  # type: ignore[arg-type]
    after = time.monotonic()
    assert progress.calls == [("start", (len(work), 2)), ("stop", None)]
    assert (summary.skipped, summary.done) == (2, len(work) - 2)
    assert isinstance(summary.duration_s, float)
    assert 0 <= summary.duration_s <= after - before
