"""--workers with real worker processes: results come back packed, a worker that dies has its
unit recorded as an infrastructure error, a worker that cannot start stops the run, and a fatal
provider error stops it after cancelling its unit."""

from __future__ import annotations

import asyncio
import multiprocessing
from pathlib import Path

import pytest
from backend_helpers import Factory, RecordingSink, SinkAdapter
from runner_fakes import outcome

from lifebench.errors import FatalProviderError
from lifebench.runner import UnitOutcome, UnitStatus, WorkUnit
from lifebench.runner._errors import RunStopped
from lifebench.runner._units import PackedOutcome
from lifebench.runner._workers import ProcessBackend, WorkerPool


def _run(units: list[WorkUnit], workers: int, concurrency: int, factory: Factory) -> RecordingSink:
    sink = RecordingSink(concurrency)
    asyncio.run(ProcessBackend(factory, workers, concurrency).run(units, SinkAdapter(sink)))
    return sink


def test_units_run_in_workers_and_a_dying_worker_is_recorded() -> None:
    units = [WorkUnit("a", 0, 1), WorkUnit("boom", 0, 2), WorkUnit("die", 0, 3)]
    sink = _run(units, workers=2, concurrency=1, factory=Factory())
    by = {p.unit.task_id: p for p in sink.finished}
    assert set(by) == {"a", "boom", "die"} and sink.peak == 1
    assert by["a"].status is UnitStatus.DONE and by["a"].reward == 1.0
    assert by["boom"].status is UnitStatus.INFRA_ERROR
    assert by["boom"].error is not None and "RuntimeError: unit exploded" in by["boom"].error
    assert by["die"].status is UnitStatus.INFRA_ERROR
    assert by["die"].error is not None and by["die"].error.endswith(
        "exited unexpectedly (exit code 3)"
    )
    assert not sink.cancelled


def test_a_worker_that_cannot_start_stops_the_run() -> None:
    with pytest.raises(RunStopped) as caught:
        _run([WorkUnit("a", 0, 1)], workers=1, concurrency=1, factory=Factory(broken=True))
    assert str(caught.value) == "worker process 0 could not start: ValueError: no models file"


def test_a_fatal_provider_error_stops_the_run() -> None:
    sink = RecordingSink(1)
    backend = ProcessBackend(Factory(), 1, 1)
    with pytest.raises(FatalProviderError) as caught:
        asyncio.run(backend.run([WorkUnit("fatal", 0, 1), WorkUnit("a", 0, 2)], SinkAdapter(sink)))
    assert str(caught.value) == "key revoked" and caught.value.status == 401
    assert sink.cancelled == [(WorkUnit("fatal", 0, 1), "run stopped: key revoked")]
    assert [u.task_id for u in sink.started] == ["fatal"]


class _Writer:
    """The writer's own executor: reward 0.5 (the worker process's units score 1.0); it holds
    its first unit until a unit of the worker process was written, so both are seen working."""

    def __init__(self) -> None:
        self.ran: list[WorkUnit] = []
        self.worker_wrote = asyncio.Event()

    async def execute(self, unit: WorkUnit) -> UnitOutcome:
        self.ran.append(unit)
        await self.worker_wrote.wait()
        if unit.task_id == "fatal":
            raise FatalProviderError("key revoked", status=401)
        return outcome(unit, reward=0.5)

    async def aclose(self) -> None:
        raise AssertionError("the writer's executor is closed by its owner, not the backend")


def _run_with_writer(units: list[WorkUnit], concurrency: int) -> tuple[RecordingSink, _Writer]:
    sink, writer = RecordingSink(concurrency), _Writer()
    adapter = SinkAdapter(sink)
    write = adapter.finished

    def finished(packed: PackedOutcome) -> None:
        write(packed)
        if packed.reward == 1.0:
            writer.worker_wrote.set()

    adapter.finished = finished
    backend = ProcessBackend(Factory(), 2, concurrency, local=writer)
    asyncio.run(backend.run(units, adapter))
    return sink, writer


def test_with_two_workers_the_writer_executes_units_beside_one_worker_process() -> None:
    units = [WorkUnit(f"t{i}", 0, i) for i in range(12)]
    sink, writer = _run_with_writer(units, concurrency=3)
    assert sorted(p.unit.task_id for p in sink.finished) == sorted(u.task_id for u in units)
    rewards = {p.unit: p.reward for p in sink.finished}
    assert writer.ran and all(rewards[u] == 0.5 for u in writer.ran)  # the writer's share
    assert any(r == 1.0 for r in rewards.values())  # and the worker process's
    assert sink.peak <= 3 and not sink.cancelled


def test_a_fatal_error_in_the_writers_share_stops_the_run_and_cancels_the_rest() -> None:
    units = [WorkUnit("fatal", 0, 1), WorkUnit("a", 0, 2), WorkUnit("b", 0, 3)]
    with pytest.raises(FatalProviderError) as caught:
        _run_with_writer(units, concurrency=2)
    assert str(caught.value) == "key revoked"


def test_processes_spawned_ahead_get_the_factory_and_run_the_units() -> None:
    units = [WorkUnit("a", 0, 1), WorkUnit("b", 0, 2), WorkUnit("boom", 0, 3)]
    pool = WorkerPool(2, "vita")
    sink = RecordingSink(2)
    asyncio.run(ProcessBackend(Factory(), 2, 2, pool=pool).run(units, SinkAdapter(sink)))
    by = {p.unit.task_id: p for p in sink.finished}
    assert set(by) == {"a", "b", "boom"} and not sink.cancelled
    assert by["a"].reward == by["b"].reward == 1.0  # the worker processes' executor
    assert by["boom"].error is not None and "RuntimeError: unit exploded" in by["boom"].error
    assert pool.spawned == [] and not multiprocessing.active_children()
    pool.close()  # nothing left to stop


def test_processes_spawned_ahead_that_the_units_do_not_need_are_stopped() -> None:
    pool = WorkerPool(3)
    processes = [process for process, _ in pool.spawned]
    sink = RecordingSink(4)
    asyncio.run(
        ProcessBackend(Factory(), 4, 4, pool=pool).run([WorkUnit("a", 0, 1)], SinkAdapter(sink))
    )
    assert [p.unit.task_id for p in sink.finished] == ["a"]
    # every one ended and none is left: asked to stop, or (one still importing on a busy
    # machine when the join's grace ran out) killed — how soon it stops is not the point
    assert all(p.exitcode is not None for p in processes)
    assert not multiprocessing.active_children()


def test_a_pool_whose_run_never_starts_is_stopped() -> None:
    pool = WorkerPool(2, "no-such-suite")  # warming up an unknown suite is left to the factory
    processes = [process for process, _ in pool.spawned]
    pool.close()
    assert all(p.exitcode is not None for p in processes)  # ended (see above)
    assert not multiprocessing.active_children()
    assert pool.spawned == []


def test_a_run_refused_after_its_worker_processes_spawned_leaves_none_behind(
    tmp_path: Path,
) -> None:
    from lifebench.errors import InputError
    from lifebench.runner._experiment import ExecutionPlan, run_experiment
    from lifebench.suites import make_run_options

    options = make_run_options(
        {"task_set": "demo", "task_ids": ("no-such-task",), "out": str(tmp_path / "run")}
    )
    with pytest.raises(InputError, match="unknown task id"):
        asyncio.run(run_experiment(options, plan=ExecutionPlan(workers=3)))
    assert not multiprocessing.active_children()


def test_no_more_processes_are_spawned_ahead_than_the_options_allow_units(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.runner import _workers
    from lifebench.runner._experiment import ExecutionPlan, _most_units, run_experiment
    from lifebench.suites import make_run_options
    from lifebench.suites._options import MAX_UNITS

    def options(**values: object) -> object:
        return make_run_options({"task_set": "demo", "out": str(tmp_path / "run"), **values})

    assert _most_units(options()) == MAX_UNITS  # type: ignore[arg-type]
    assert _most_units(options(num_tasks=3, trials=2)) == 6  # type: ignore[arg-type]
    assert _most_units(options(task_ids=("a", "b", "a"), num_tasks=5, trials=2)) == 4  # type: ignore[arg-type]
    assert _most_units(options(num_tasks=1, trials=2, user_seeds=3)) == 6  # type: ignore[arg-type]

    spawned: list[int] = []

    class Recording(_workers.WorkerPool):
        def __init__(self, count: int, suite: str = "") -> None:
            spawned.append(count)
            super().__init__(count, suite)

    monkeypatch.setattr(_workers, "WorkerPool", Recording)
    for trials, out in ((1, "one"), (2, "two")):
        run = options(num_tasks=1, trials=trials, out=str(tmp_path / out), quiet=True)
        _, summary = asyncio.run(run_experiment(run, plan=ExecutionPlan(workers=4)))  # type: ignore[arg-type]
        assert summary.done == trials
    assert spawned == [1]  # none for one unit; one beside the writer for two
    assert not multiprocessing.active_children()
