"""More mutation guards for ``lifebench.runner._workers`` (issue 21, session 32): what a worker
does once its parent is gone, measured by its pipe reads (a reader that keeps reading a closed
pipe spins a CPU and floods the worker's loop until it ends)."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from typing import Any

import pytest
from backend_helpers import Executor, Factory, RecordingSink, SinkAdapter
from runner_fakes import outcome

from lifebench import suites
from lifebench.errors import FatalProviderError, InputError
from lifebench.runner import UnitStatus, WorkUnit, _workers
from lifebench.runner._errors import RunStopped
from lifebench.runner._units import PackedOutcome

WAIT_S = 30.0  # a generous bound for what must happen (never reached when it works)


class ClosedPipe:
    """A worker's end of a pipe whose parent is gone: every read fails with EOF."""

    def __init__(self) -> None:
        self.reads = 0
        self.sent: list[tuple[Any, ...]] = []
        self._lock = threading.Lock()

    def recv(self) -> tuple[Any, ...]:
        with self._lock:
            self.reads += 1
        raise EOFError

    def send(self, message: tuple[Any, ...]) -> None:
        self.sent.append(message)


class Built:
    def __init__(self) -> None:
        self.closed = 0

    async def execute(self, unit: Any) -> Any:
        return await Executor().execute(unit)

    async def aclose(self) -> None:
        self.closed += 1


def test_a_worker_whose_parent_is_gone_reads_its_pipe_once_then_stops() -> None:
    pipe, executor = ClosedPipe(), Built()
    before = set(threading.enumerate())
    asyncio.run(asyncio.wait_for(_workers._serve(pipe, lambda: executor), WAIT_S))  # type: ignore[arg-type]
    for thread in set(threading.enumerate()) - before:
        if thread.name == "lifebench-worker-inbox":
            thread.join(WAIT_S)
            assert not thread.is_alive()
    # the EOF is read as "stop": the worker ends (its executor closed) and its reader with it,
    # after exactly one read (not once more per turn of the loop until the loop has closed)
    assert pipe.sent == [("ready",)] and executor.closed == 1
    assert pipe.reads == 1


# ------------------------------------------------------------------ a worker spawned ahead


@pytest.fixture
def suites_asked(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The suite names looked up (the lookup itself answers as the real one would)."""
    asked: list[Any] = []
    real = suites.get_suite

    def get_suite(name: Any) -> Any:
        asked.append(name)
        return real(name)

    monkeypatch.setattr(suites, "get_suite", get_suite)
    return asked


@pytest.mark.parametrize("suite", ["travel", "flow", "vita"])
def test_a_worker_spawned_ahead_warms_the_suite_it_was_spawned_for(
    suite: str, suites_asked: list[Any], worker_process_state: None
) -> None:
    ours, theirs = multiprocessing.Pipe()
    try:
        ours.send(("stop",))  # spawned ahead, then not needed
        _workers._worker_main(theirs, None, suite)
    finally:
        ours.close()
        theirs.close()
    assert suites_asked == [suite]


def test_warming_looks_up_the_named_suite_once_and_none_without_a_name(
    suites_asked: list[Any],
) -> None:
    _workers._warm("flow")
    assert suites_asked == ["flow"]
    _workers._warm("")
    assert suites_asked == ["flow"]


@pytest.mark.parametrize("suite", ["no-such-suite", "未知套件"], ids=["english", "chinese"])
def test_warming_an_unknown_suite_leaves_the_error_to_the_factory(
    suite: str, suites_asked: list[Any]
) -> None:
    with pytest.raises(InputError, match="unknown suite"):  # what the factory will report
        suites.get_suite(suite)
    suites_asked.clear()
    _workers._warm(suite)  # no exception: the worker goes on to wait for its factory
    assert suites_asked == [suite]


def test_a_worker_spawned_ahead_for_an_unknown_suite_still_serves_its_factory(
    worker_process_state: None,
) -> None:
    ours, theirs = multiprocessing.Pipe()
    seen: list[tuple[Any, ...]] = []

    def parent() -> None:
        ours.send(("factory", Factory()))
        for unit in [None, WorkUnit("a", 0, 1)]:
            if unit is not None:
                ours.send(("unit", unit))
            if not ours.poll(WAIT_S):
                return
            seen.append(ours.recv())
        ours.send(("stop",))

    thread = threading.Thread(target=parent)
    thread.start()
    try:
        _workers._worker_main(theirs, None, "no-such-suite")
    finally:
        thread.join(WAIT_S)
        ours.close()
        theirs.close()
    assert seen[0] == ("ready",)
    assert seen[1][0] == "done" and seen[1][1].unit == WorkUnit("a", 0, 1)
    assert seen[1][1].reward == 1.0


# ------------------------------------------------------------------ the backend


class FakeProcess:
    def __init__(self) -> None:
        self.joins: list[float | None] = []
        self.exitcode: int | None = None

    def join(self, timeout: float | None = None) -> None:
        self.joins.append(timeout)
        self.exitcode = 0

    def is_alive(self) -> bool:
        return not self.joins

    def kill(self) -> None:
        raise AssertionError("a process that was asked to stop is not killed")


class FakeConn:
    def __init__(self) -> None:
        self.sent: list[tuple[Any, ...]] = []
        self.closed = 0

    def send(self, message: tuple[Any, ...]) -> None:
        self.sent.append(message)

    def close(self) -> None:
        self.closed += 1


class GivenPool:
    def __init__(self, spawned: list[tuple[FakeProcess, FakeConn]]) -> None:
        self.spawned = spawned

    def take(self) -> list[tuple[FakeProcess, FakeConn]]:
        spawned, self.spawned = self.spawned, []
        return spawned


@pytest.mark.parametrize("ahead", [1, 2])
def test_a_single_unit_the_writer_runs_stops_every_process_spawned_ahead_once(
    monkeypatch: pytest.MonkeyPatch, ahead: int
) -> None:
    def no_spawn(*args: Any) -> Any:
        raise AssertionError("no process is spawned for a unit the writer runs")

    monkeypatch.setattr(_workers, "_spawn", no_spawn)
    fakes = [(FakeProcess(), FakeConn()) for _ in range(ahead)]
    sink = RecordingSink(4)
    backend = _workers.ProcessBackend(
        Factory(),
        4,
        4,
        local=Executor(),
        pool=GivenPool(list(fakes)),  # type: ignore[arg-type]
    )
    asyncio.run(asyncio.wait_for(backend.run([WorkUnit("solo", 0, 9)], SinkAdapter(sink)), WAIT_S))
    assert [p.unit for p in sink.finished] == [WorkUnit("solo", 0, 9)]
    for process, conn in fakes:
        assert conn.sent == [("stop",)]  # never given the factory
        assert process.joins == [10.0] and conn.closed == 1


def test_a_fatal_error_stops_the_run_even_when_the_unit_is_reported_done_after_it() -> None:
    unit, other = WorkUnit("a", 0, 1), WorkUnit("b", 0, 2)

    class Pipe:
        def send(self, message: tuple[Any, ...]) -> None:
            assert message[0] == "unit"

    async def scenario() -> None:
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        inbox.put_nowait((0, ("fatal", unit, "密钥已吊销 key revoked", 403)))
        inbox.put_nowait((0, ("done", PackedOutcome.of(unit, outcome(unit)))))
        inbox.put_nowait((0, ("done", PackedOutcome.of(other, outcome(other)))))
        backend = _workers.ProcessBackend(Factory(), 1, 2)
        await asyncio.wait_for(
            backend._dispatch_all(
                [unit, other],
                SinkAdapter(sink),
                [Pipe()],
                [FakeProcess()],
                inbox,
                [{}],
                [True],
            ),
            WAIT_S,
        )

    sink = RecordingSink(2)
    with pytest.raises(FatalProviderError) as caught:
        asyncio.run(scenario())
    assert str(caught.value) == "密钥已吊销 key revoked" and caught.value.status == 403
    assert sink.cancelled == [(unit, "run stopped: 密钥已吊销 key revoked")]
    assert sink.finished == []


class ScriptedConn(FakeConn):
    """The writer's end of a worker's pipe: the worker says it is ready, then its process dies
    once it is handed a unit (the pipe ends)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0
        self.unit_sent = threading.Event()

    def send(self, message: tuple[Any, ...]) -> None:
        super().send(message)
        if message[0] in ("unit", "stop"):
            self.unit_sent.set()

    def close(self) -> None:
        super().close()
        self.unit_sent.set()

    def recv(self) -> tuple[Any, ...]:
        self.reads += 1
        if self.reads == 1:
            return ("ready",)
        assert self.unit_sent.wait(WAIT_S)
        raise EOFError


@pytest.fixture
def pump_threads(monkeypatch: pytest.MonkeyPatch) -> list[threading.Thread]:
    """The pipe-forwarding threads the backend starts."""
    started: list[threading.Thread] = []
    real = threading.Thread

    class Recorded(real):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if kwargs.get("target") is _workers._pump:
                started.append(self)

    monkeypatch.setattr(threading, "Thread", Recorded)
    return started


def test_the_run_stops_when_its_only_worker_process_dies_with_units_left(
    monkeypatch: pytest.MonkeyPatch, pump_threads: list[threading.Thread]
) -> None:
    conn, process = ScriptedConn(), FakeProcess()
    monkeypatch.setattr(_workers, "_spawn", lambda index, factory, suite="": (process, conn))
    units = [WorkUnit(f"t{i}", 0, i) for i in range(3)]
    sink = RecordingSink(1)
    backend = _workers.ProcessBackend(Factory(), 1, 1)
    with pytest.raises(RunStopped) as caught:
        asyncio.run(asyncio.wait_for(backend.run(units, SinkAdapter(sink)), WAIT_S))
    assert str(caught.value) == (
        "every worker process exited; 2 unit(s) did not run (re-run the same command to resume)"
    )
    (written,) = sink.finished
    assert written.unit == units[0] and written.status is UnitStatus.INFRA_ERROR
    assert written.error == "worker process 0 exited unexpectedly (exit code 0)"
    # the pipe's reader is a daemon: a worker that never answers cannot keep the writer alive
    (pump,) = pump_threads
    assert pump.daemon
    pump.join(WAIT_S)
    assert not pump.is_alive()


def test_units_in_flight_when_the_run_is_cancelled_are_noted_as_cancelled_while_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = threading.Event()

    class Hanging:
        async def execute(self, unit: WorkUnit) -> Any:
            started.set()
            await asyncio.sleep(3600)

        async def aclose(self) -> None:
            raise AssertionError("the writer's executor is closed by its owner")

    monkeypatch.setattr(_workers, "_spawn", lambda *a: pytest.fail("no process is needed"))
    units = [WorkUnit("a", 0, 1), WorkUnit("b", 0, 2), WorkUnit("c", 0, 3)]
    sink = RecordingSink(2)

    async def scenario() -> None:
        backend = _workers.ProcessBackend(Factory(), 1, 2, local=Hanging())
        task = asyncio.ensure_future(backend.run(units, SinkAdapter(sink)))
        assert await asyncio.to_thread(started.wait, WAIT_S)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, WAIT_S)

    asyncio.run(scenario())
    assert sink.cancelled == [
        (units[0], "cancelled while running"),
        (units[1], "cancelled while running"),
    ]
    assert sink.finished == []


class StopRefused(FakeConn):
    """A worker process already gone: its pipe ends at once and refuses the stop."""

    def send(self, message: tuple[Any, ...]) -> None:
        if message[0] == "stop":
            raise BrokenPipeError("the worker is gone")
        super().send(message)

    def recv(self) -> tuple[Any, ...]:
        raise EOFError


def test_a_worker_gone_before_the_stop_is_joined_ten_seconds_and_closed_quietly() -> None:
    process, conn = FakeProcess(), StopRefused()
    sink = RecordingSink(2)
    backend = _workers.ProcessBackend(
        Factory(),
        2,
        2,
        local=Executor(),
        pool=GivenPool([(process, conn)]),  # type: ignore[arg-type]
    )
    units = [WorkUnit("a", 0, 1), WorkUnit("b", 0, 2)]
    asyncio.run(asyncio.wait_for(backend.run(units, SinkAdapter(sink)), WAIT_S))
    assert sorted(p.unit.task_id for p in sink.finished) == ["a", "b"]  # the writer ran both
    assert [m[0] for m in conn.sent] == ["factory"]
    # joined when its pipe ended and again when the run stopped: ten seconds each, never forever
    assert process.joins == [10.0, 10.0] and conn.closed == 1


@pytest.mark.parametrize(("workers", "concurrency"), [(0, 1), (1, 0), (-1, 4)])
def test_a_backend_of_no_workers_or_no_concurrency_is_refused_saying_both_must_be_positive(
    workers: int, concurrency: int
) -> None:
    with pytest.raises(ValueError) as caught:
        _workers.ProcessBackend(Factory(), workers, concurrency)
    assert str(caught.value) == "workers and concurrency must be at least 1"
