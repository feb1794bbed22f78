"""The dispatch of ``--workers`` (processes) and ``--backend ray`` (actors), as properties.

For any number of workers, any ``--concurrency``, any order in which units finish and any
workers that die on the way:

* at most ``concurrency`` units are in flight, in total, at every moment;
* a unit goes to a live worker with the fewest units in flight (the lowest index on a tie);
* every unit is started once and written once: its own outcome, or — when its worker died
  with it in flight — an infrastructure error naming the worker (so resume runs it again);
* when every worker is dead, the run stops and says how many units did not run; those units
  were never started.

The backends' loops are driven with fakes of their pipes / actors (no processes): Hypothesis
chooses which in-flight unit finishes next and which worker dies.
"""

from __future__ import annotations

import asyncio
import types
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from backend_helpers import RecordingSink, SinkAdapter
from hypothesis import given, settings
from hypothesis import strategies as st
from runner_fakes import CONFIG, CONFIG_HASH, outcome

from lifebench.errors import FatalProviderError
from lifebench.runner import RunStore, UnitStatus, WorkUnit
from lifebench.runner._errors import RunStopped
from lifebench.runner._ray import RayBackend
from lifebench.runner._units import PackedOutcome
from lifebench.runner._workers import ProcessBackend


def _units(n: int) -> list[WorkUnit]:
    return [WorkUnit(f"t{i // 2:02d}", i % 2, 100 + i) for i in range(n)]


# Every loop below steps the event loop by hand with ``asyncio.sleep(0)`` (no clock). A backend
# that never finishes fails after this many steps instead of hanging the suite (an idle
# ``asyncio.wait`` would hang forever, and mutmut's own limit counts CPU time only).
STEP_LIMIT = 20_000


class _Steps:
    def __init__(self, what: str) -> None:
        self.what, self.left = what, STEP_LIMIT

    def take(self) -> None:
        self.left -= 1
        assert self.left >= 0, f"{self.what} did not finish within {STEP_LIMIT} event-loop steps"


async def _finish(task: asyncio.Future[Any]) -> None:
    """Step the event loop until ``task`` is done, failing (not hanging) if it never is."""
    steps = _Steps("the backend's loop")
    while not task.done():
        steps.take()
        await asyncio.sleep(0)


# ------------------------------------------------------------------ ProcessBackend, faked pipes


class FakeConn:
    def __init__(self, index: int, world: ProcessWorld) -> None:
        self.index, self.world = index, world

    def send(self, message: tuple[Any, ...]) -> None:
        assert message[0] == "unit"
        self.world.on_send(self.index, message[1])


class FakeProcess:
    def __init__(self) -> None:
        self.exitcode: int | None = None

    def join(self, timeout: float | None = None) -> None:
        return None


class ProcessWorld:
    """Workers that hold what they were sent until the driver finishes or kills them."""

    def __init__(self, workers: int, sink: RecordingSink) -> None:
        self.sink = sink
        self.held: list[list[WorkUnit]] = [[] for _ in range(workers)]
        self.dead = [False] * workers
        self.inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        self.processes = [FakeProcess() for _ in range(workers)]
        self.inflight: list[dict[tuple[str, int], WorkUnit]] = [{} for _ in range(workers)]

    def on_send(self, index: int, unit: WorkUnit) -> None:
        assert not self.dead[index], f"{unit} sent to dead worker {index}"
        # the unit went to a live worker with the fewest in flight (the lowest index on a tie)
        loads = [(len(self.held[i]), i) for i in range(len(self.held)) if not self.dead[i]]
        assert (len(self.held[index]), index) == min(loads), (index, loads)
        self.held[index].append(unit)

    def choices(self) -> list[tuple[str, int, int]]:
        out = [("finish", w, k) for w, held in enumerate(self.held) for k in range(len(held))]
        out += [("die", w, 0) for w in range(len(self.held)) if not self.dead[w]]
        return out

    def act(self, choice: tuple[str, int, int]) -> None:
        kind, worker, k = choice
        if kind == "finish":
            unit = self.held[worker].pop(k)
            self.inbox.put_nowait((worker, ("done", PackedOutcome.of(unit, outcome(unit)))))
        else:
            self.dead[worker] = True
            self.processes[worker].exitcode = -9
            self.held[worker].clear()  # they die with it
            self.inbox.put_nowait((worker, ("eof",)))


async def _drive_processes(
    units: Sequence[WorkUnit], workers: int, concurrency: int, pick: Callable[[int], int]
) -> tuple[RecordingSink, ProcessWorld, BaseException | None]:
    sink = RecordingSink(concurrency)
    world = ProcessWorld(workers, sink)
    backend = ProcessBackend(lambda: None, workers, concurrency)  # type: ignore[arg-type,return-value]
    conns = [FakeConn(i, world) for i in range(workers)]
    alive = [True] * workers
    loop_task = asyncio.ensure_future(
        backend._dispatch_all(
            units,
            SinkAdapter(sink),
            conns,
            world.processes,
            world.inbox,
            world.inflight,
            alive,  # type: ignore[arg-type]
        )
    )
    error: BaseException | None = None
    steps = _Steps("the process backend's loop")
    while True:
        steps.take()
        await asyncio.sleep(0)
        if loop_task.done():
            error = loop_task.exception()
            break
        if world.inbox.qsize():
            continue  # let the backend read what is already there
        options = world.choices()
        if not any(o[0] == "finish" for o in options) and all(world.dead):
            await asyncio.sleep(0)
            continue
        world.act(options[pick(len(options))])
    return sink, world, error


def _check_outcomes(
    units: Sequence[WorkUnit], sink: RecordingSink, error: BaseException | None, where: str
) -> None:
    written = {p.unit: p for p in sink.finished}
    started = set(sink.started)
    if error is None:
        assert set(written) == set(units), "every unit is written"
    else:
        assert isinstance(error, RunStopped)
        never = [u for u in units if u not in started]
        assert never, "the run stopped with nothing left to run"
        assert f"{len(never)} unit(s) did not run" in str(error)
        assert set(written) == started, "every started unit is written"
    for packed in written.values():
        if packed.status is UnitStatus.INFRA_ERROR:
            assert packed.error is not None and where in packed.error
            assert packed.reward is None and packed.evaluation_json is None
        else:
            assert packed.status is UnitStatus.DONE and packed.reward == 1.0
    assert not sink.cancelled


@settings(max_examples=60)
@given(
    n=st.integers(0, 12),
    workers=st.integers(1, 4),
    concurrency=st.integers(1, 6),
    data=st.data(),
)
def test_processes_bound_balance_and_record_every_unit(
    n: int, workers: int, concurrency: int, data: st.DataObject
) -> None:
    units = _units(n)

    def pick(k: int) -> int:
        return data.draw(st.integers(0, k - 1))

    sink, world, error = asyncio.run(_drive_processes(units, workers, concurrency, pick))
    _check_outcomes(units, sink, error, "worker process")
    assert sink.peak <= concurrency
    if n and error is None and not any(world.dead):
        assert sink.peak == min(concurrency, n), "the bound is used, not undercut"
        assert all(p.status is UnitStatus.DONE for p in sink.finished)


async def _kill_first_worker_with(units: list[WorkUnit], workers: int, concurrency: int) -> Any:
    """Finish nothing; kill worker 0 first, then finish everything else in order."""
    state = {"killed": False}

    def pick(k: int) -> int:
        return 0

    sink = RecordingSink(concurrency)
    world = ProcessWorld(workers, sink)
    backend = ProcessBackend(lambda: None, workers, concurrency)  # type: ignore[arg-type,return-value]
    conns = [FakeConn(i, world) for i in range(workers)]
    task = asyncio.ensure_future(
        backend._dispatch_all(
            units,
            SinkAdapter(sink),
            conns,
            world.processes,
            world.inbox,
            world.inflight,
            [True] * workers,  # type: ignore[arg-type]
        )
    )
    steps = _Steps("the process backend's loop")
    while not task.done():
        steps.take()
        await asyncio.sleep(0)
        if world.inbox.qsize() or task.done():
            continue
        if not state["killed"]:
            state["killed"] = True
            world.act(("die", 0, 0))
            continue
        options = [o for o in world.choices() if o[0] == "finish"]
        if options:
            world.act(options[pick(len(options))])
    task.result()
    return sink


def test_a_dead_workers_units_are_infra_errors_naming_it_and_rerun_on_resume(
    tmp_path: Path,
) -> None:
    units = _units(6)
    sink = asyncio.run(_kill_first_worker_with(units, workers=2, concurrency=4))
    # worker 0 held units 0 and 2 (dispatch alternates between the two idle workers)
    failed = [p for p in sink.finished if p.status is UnitStatus.INFRA_ERROR]
    assert [p.unit for p in failed] == [units[0], units[2]]
    assert all(p.error == "worker process 0 exited unexpectedly (exit code -9)" for p in failed)
    tasks = {u.task_id: f"h-{u.task_id}" for u in units}
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, tasks) as store:
        store.pending_units(units)
        for packed in sink.finished:
            store.record_packed(packed)
        assert store.pending_units(units) == [units[0], units[2]]


def test_every_worker_dead_stops_the_run_with_the_count_left() -> None:
    units = _units(5)

    async def scenario() -> tuple[RecordingSink, BaseException | None]:
        sink = RecordingSink(2)
        world = ProcessWorld(1, sink)
        backend = ProcessBackend(lambda: None, 1, 2)  # type: ignore[arg-type,return-value]
        task = asyncio.ensure_future(
            backend._dispatch_all(
                units,
                SinkAdapter(sink),
                [FakeConn(0, world)],
                world.processes,
                world.inbox,
                world.inflight,
                [True],  # type: ignore[arg-type]
            )
        )
        await asyncio.sleep(0)
        world.act(("die", 0, 0))
        await asyncio.sleep(0)
        await _finish(task)
        return sink, task.exception()

    sink, error = asyncio.run(scenario())
    assert isinstance(error, RunStopped)
    assert str(error) == (
        "every worker process exited; 3 unit(s) did not run (re-run the same command to resume)"
    )
    assert [p.unit for p in sink.finished] == units[:2]
    assert all(p.status is UnitStatus.INFRA_ERROR for p in sink.finished)


def test_a_fatal_provider_error_cancels_its_unit_and_stops() -> None:
    units = _units(3)

    async def scenario() -> tuple[RecordingSink, BaseException | None]:
        sink = RecordingSink(3)
        world = ProcessWorld(1, sink)
        backend = ProcessBackend(lambda: None, 1, 3)  # type: ignore[arg-type,return-value]
        task = asyncio.ensure_future(
            backend._dispatch_all(
                units,
                SinkAdapter(sink),
                [FakeConn(0, world)],
                world.processes,
                world.inbox,
                world.inflight,
                [True],  # type: ignore[arg-type]
            )
        )
        await asyncio.sleep(0)
        world.inbox.put_nowait((0, ("fatal", units[1], "bad key", 401)))
        await _finish(task)
        return sink, task.exception()

    sink, error = asyncio.run(scenario())
    assert isinstance(error, FatalProviderError)
    assert str(error) == "bad key" and error.status == 401
    assert sink.cancelled == [(units[1], "run stopped: bad key")]
    assert sink.finished == []


def test_backends_refuse_nonpositive_workers_or_concurrency() -> None:
    for workers, concurrency in ((0, 1), (1, 0)):
        with pytest.raises(ValueError, match="workers and concurrency must be at least 1"):
            ProcessBackend(lambda: None, workers, concurrency)  # type: ignore[arg-type,return-value]
        with pytest.raises(ValueError, match="workers and concurrency must be at least 1"):
            RayBackend(lambda: None, workers, concurrency)  # type: ignore[arg-type,return-value]


# ------------------------------------------------------------------ RayBackend, faked actors


class RayActorError(Exception):
    pass


class RayError(Exception):
    pass


FAKE_RAY = types.SimpleNamespace(
    exceptions=types.SimpleNamespace(RayActorError=RayActorError, RayError=RayError)
)


class FakeActor:
    def __init__(self, index: int, world: RayWorld) -> None:
        self.index = index
        self.run = types.SimpleNamespace(remote=lambda unit: world.on_call(index, unit))


class RayWorld:
    def __init__(self, actors: int) -> None:
        self.held: list[list[tuple[WorkUnit, asyncio.Future[tuple[Any, ...]]]]] = [
            [] for _ in range(actors)
        ]
        self.dead = [False] * actors
        self.loads: list[list[int]] = []

    def on_call(self, index: int, unit: WorkUnit) -> asyncio.Future[tuple[Any, ...]]:
        assert not self.dead[index], f"{unit} sent to dead actor {index}"
        loads = [(len(self.held[i]), i) for i in range(len(self.held)) if not self.dead[i]]
        assert (len(self.held[index]), index) == min(loads), (index, loads)
        future: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()
        self.held[index].append((unit, future))
        return future

    def choices(self) -> list[tuple[str, int, int]]:
        out = [("finish", w, k) for w, held in enumerate(self.held) for k in range(len(held))]
        out += [("fail", w, k) for w, held in enumerate(self.held) for k in range(len(held))]
        out += [("die", w, 0) for w in range(len(self.held)) if not self.dead[w] and self.held[w]]
        return out

    def act(self, choice: tuple[str, int, int]) -> None:
        kind, actor, k = choice
        if kind == "finish":
            unit, future = self.held[actor].pop(k)
            future.set_result(("done", PackedOutcome.of(unit, outcome(unit))))
        elif kind == "fail":
            unit, future = self.held[actor].pop(k)
            future.set_exception(RayError("object lost"))
        else:
            self.dead[actor] = True
            for _, future in self.held[actor]:
                future.set_exception(RayActorError("the actor died"))
            self.held[actor].clear()


async def _drive_ray(
    units: Sequence[WorkUnit], actors: int, concurrency: int, pick: Callable[[int], int]
) -> tuple[RecordingSink, RayWorld, BaseException | None]:
    sink = RecordingSink(concurrency)
    world = RayWorld(actors)
    backend = RayBackend(lambda: None, actors, concurrency)  # type: ignore[arg-type,return-value]
    fake_actors = [FakeActor(i, world) for i in range(actors)]
    inflight: list[dict[Any, WorkUnit]] = [{} for _ in range(actors)]
    task = asyncio.ensure_future(
        backend._loop(
            FAKE_RAY, fake_actors, deque(units), inflight, [True] * actors, SinkAdapter(sink)
        )  # type: ignore[arg-type]
    )
    await _settle(task, sink, 0)
    steps = _Steps("the Ray backend's loop")
    while not task.done():
        steps.take()
        options = world.choices()
        assert options, "the backend waits although nothing is in flight"
        choice = options[pick(len(options))]
        written = len(world.held[choice[1]]) if choice[0] == "die" else 1
        world.act(choice)
        await _settle(task, sink, written)
    return sink, world, task.exception()


async def _settle(task: asyncio.Future[Any], sink: RecordingSink, written: int) -> None:
    """Let the backend take in what just happened (``written`` more outcomes) and hand out
    more work, before anything else happens."""
    goal = len(sink.finished) + written
    steps = _Steps("taking in an outcome")
    while not task.done() and len(sink.finished) < goal:
        steps.take()
        await asyncio.sleep(0)
    for _ in range(5):
        await asyncio.sleep(0)


@settings(max_examples=60)
@given(
    n=st.integers(0, 12),
    actors=st.integers(1, 4),
    concurrency=st.integers(1, 6),
    data=st.data(),
)
def test_ray_bounds_balances_and_records_every_unit(
    n: int, actors: int, concurrency: int, data: st.DataObject
) -> None:
    units = _units(n)

    def pick(k: int) -> int:
        return data.draw(st.integers(0, k - 1))

    sink, world, error = asyncio.run(_drive_ray(units, actors, concurrency, pick))
    written = {p.unit: p for p in sink.finished}
    if error is None:
        assert set(written) == set(units)
    else:
        assert isinstance(error, RunStopped) and all(world.dead)
        never = [u for u in units if u not in sink.started]
        assert str(error) == (
            f"every Ray actor died; {len(never)} unit(s) did not run "
            "(re-run the same command to resume)"
        )
        assert set(written) == set(sink.started)
    for packed in written.values():
        if packed.status is UnitStatus.INFRA_ERROR:
            assert packed.error is not None
            assert packed.error.startswith(("Ray actor ", "Ray could not run the unit: "))
        else:
            assert packed.status is UnitStatus.DONE
    assert sink.peak <= concurrency
    if n and error is None and not any(world.dead):
        assert sink.peak == min(concurrency, n)


def test_ray_names_the_dead_actor_and_keeps_using_the_others() -> None:
    units = _units(4)

    async def scenario() -> RecordingSink:
        sink = RecordingSink(2)
        world = RayWorld(2)
        backend = RayBackend(lambda: None, 2, 2)  # type: ignore[arg-type,return-value]
        actors = [FakeActor(i, world) for i in range(2)]
        inflight: list[dict[Any, WorkUnit]] = [{}, {}]
        task = asyncio.ensure_future(
            backend._loop(FAKE_RAY, actors, deque(units), inflight, [True, True], SinkAdapter(sink))  # type: ignore[arg-type]
        )
        for _ in range(3):
            await asyncio.sleep(0)
        world.act(("die", 0, 0))  # actor 0 held units[0]
        steps = _Steps("the Ray backend's loop")
        while not task.done():
            steps.take()
            for _ in range(3):
                await asyncio.sleep(0)
            if world.held[1]:
                world.act(("finish", 1, 0))
        task.result()
        return sink

    sink = asyncio.run(scenario())
    by_unit = {p.unit: p for p in sink.finished}
    assert by_unit[units[0]].status is UnitStatus.INFRA_ERROR
    assert by_unit[units[0]].error == "Ray actor 0 died: the actor died"
    assert all(by_unit[u].status is UnitStatus.DONE for u in units[1:])


def test_ray_fatal_provider_error_cancels_the_unit_and_stops() -> None:
    units = _units(2)

    async def scenario() -> tuple[RecordingSink, BaseException | None]:
        sink = RecordingSink(2)
        world = RayWorld(1)
        backend = RayBackend(lambda: None, 1, 2)  # type: ignore[arg-type,return-value]
        task = asyncio.ensure_future(
            backend._loop(
                FAKE_RAY, [FakeActor(0, world)], deque(units), [{}], [True], SinkAdapter(sink)
            )  # type: ignore[arg-type]
        )
        for _ in range(3):
            await asyncio.sleep(0)
        _, future = world.held[0].pop(0)
        future.set_result(("fatal", "no such model", 404))
        await _finish(task)
        return sink, task.exception()

    sink, error = asyncio.run(scenario())
    assert isinstance(error, FatalProviderError)
    assert str(error) == "no such model" and error.status == 404
    assert sink.cancelled == [(units[0], "run stopped: no such model")]
