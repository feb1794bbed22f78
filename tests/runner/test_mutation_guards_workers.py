"""Mutation guards for ``lifebench.runner._workers``: the worker side of a ``--workers`` run
(what a worker process answers on its pipe, how it starts and stops), driven in this process
over real pipes, and the parent's helpers (forwarding a pipe, stopping processes, the pool).

The worker side normally runs only in spawned processes, where no coverage reaches it; here
``_serve`` / ``_worker_main`` run in this process (their peer is a thread of the test), so a
changed message, a lost unit or an executor left open fails a test."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest
from backend_helpers import Executor, RecordingSink, SinkAdapter
from runner_fakes import outcome

from lifebench.runner import UnitOutcome, UnitStatus, WorkUnit, _workers
from lifebench.runner._errors import RunStopped
from lifebench.runner._units import PackedOutcome

# A worker that stops cleanly leaves no exception in any of its threads (in a worker process it
# would be a traceback on the user's terminal) ...
stops_cleanly = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
WAIT_S = 30.0  # a generous bound for what must happen (never reached when it works)


def _recv(conn: Connection) -> tuple[Any, ...]:
    assert conn.poll(WAIT_S), "no message from the worker"
    message: tuple[Any, ...] = conn.recv()
    return message


@dataclass
class ClosingExecutor:
    """:class:`Executor`'s units, and a record of ``aclose``."""

    closed: list[bool] = field(default_factory=list)

    async def execute(self, unit: WorkUnit) -> UnitOutcome:
        return await Executor().execute(unit)

    async def aclose(self) -> None:
        self.closed.append(True)


@dataclass
class InProcessFactory:
    """Builds (in this process) one :class:`ClosingExecutor` the test can inspect."""

    executor: ClosingExecutor = field(default_factory=ClosingExecutor)
    broken: bool = False
    built: int = 0

    def __call__(self) -> ClosingExecutor:
        self.built += 1
        if self.broken:
            raise ValueError("no models file")
        return self.executor


@pytest.fixture(autouse=True)
def readers_joined() -> Iterator[None]:
    """Each test's worker pipe readers end within it (its pipes are closed first)."""
    yield
    for thread in threading.enumerate():
        if thread.name == "lifebench-worker-inbox":
            thread.join(WAIT_S)


@pytest.fixture
def pipe() -> Iterator[tuple[Connection, Connection]]:
    ours, theirs = multiprocessing.Pipe()
    yield ours, theirs
    ours.close()
    theirs.close()


def _serve_in_thread(conn: Connection, factory: Any) -> threading.Thread:
    """``_serve`` in a thread of its own (an exception it raises fails the test)."""
    thread = threading.Thread(target=lambda: asyncio.run(_workers._serve(conn, factory)))
    thread.start()
    return thread


# ------------------------------------------------------------------ the worker side


@stops_cleanly
def test_a_worker_answers_ready_then_each_unit_packed_and_closes_its_executor_on_stop(
    pipe: tuple[Connection, Connection], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="asyncio")
    ours, theirs = pipe
    factory = InProcessFactory()
    before = set(threading.enumerate())
    thread = _serve_in_thread(theirs, factory)
    assert _recv(ours) == ("ready",)
    # its pipe reader: a daemon (it never keeps a worker process alive), named in stack dumps
    (reader,) = [t for t in set(threading.enumerate()) - before if t is not thread]
    assert reader.name == "lifebench-worker-inbox" and reader.daemon
    ours.send(("unit", WorkUnit("a", 0, 1)))
    kind, packed = _recv(ours)
    assert kind == "done" and isinstance(packed, PackedOutcome)
    assert packed.unit == WorkUnit("a", 0, 1)
    assert packed.status is UnitStatus.DONE and packed.reward == 1.0
    ours.send(("unit", WorkUnit("boom", 1, 2)))
    kind, packed = _recv(ours)
    assert kind == "done" and packed.unit == WorkUnit("boom", 1, 2)
    assert packed.status is UnitStatus.INFRA_ERROR
    assert packed.error is not None and "RuntimeError: unit exploded" in packed.error
    ours.send(("stop",))
    thread.join(WAIT_S)
    reader.join(WAIT_S)
    assert not thread.is_alive() and not reader.is_alive()  # the reader stops on "stop"
    assert factory.built == 1 and factory.executor.closed == [True]
    assert not [r for r in caplog.records if r.name == "asyncio"]  # nothing went wrong unseen


@stops_cleanly
def test_a_fatal_provider_error_is_sent_with_its_unit_message_and_status(
    pipe: tuple[Connection, Connection],
) -> None:
    ours, theirs = pipe
    factory = InProcessFactory()
    thread = _serve_in_thread(theirs, factory)
    assert _recv(ours) == ("ready",)
    ours.send(("unit", WorkUnit("fatal", 2, 7)))
    assert _recv(ours) == ("fatal", WorkUnit("fatal", 2, 7), "key revoked", 401)
    ours.send(("unit", WorkUnit("a", 0, 1)))  # the worker keeps serving until told to stop
    assert _recv(ours)[0] == "done"
    ours.send(("stop",))
    thread.join(WAIT_S)
    assert not thread.is_alive() and factory.executor.closed == [True]


@stops_cleanly
def test_a_worker_whose_executor_cannot_be_built_says_why_and_stops(
    pipe: tuple[Connection, Connection],
) -> None:
    ours, theirs = pipe
    thread = _serve_in_thread(theirs, InProcessFactory(broken=True))
    assert _recv(ours) == ("init_error", "ValueError: no models file")
    ours.send(("stop",))  # the inbox reader ends too
    thread.join(WAIT_S)
    assert not thread.is_alive()
    assert not ours.poll(0.2)  # no "ready" after the error


@stops_cleanly
def test_a_message_read_after_the_worker_ended_is_dropped_without_a_traceback(
    pipe: tuple[Connection, Connection],
) -> None:
    # a worker whose loop ended without being told to stop (here: its executor could not be
    # built) leaves its pipe reader waiting; a message that arrives after the loop closed must
    # end the reader quietly, not print "Exception in thread lifebench-worker-inbox"
    ours, theirs = pipe
    thread = _serve_in_thread(theirs, InProcessFactory(broken=True))
    assert _recv(ours) == ("init_error", "ValueError: no models file")
    thread.join(WAIT_S)
    assert not thread.is_alive()  # the loop is closed now
    (reader,) = [t for t in threading.enumerate() if t.name == "lifebench-worker-inbox"]
    ours.send(("unit", 1))
    reader.join(WAIT_S)
    assert not reader.is_alive()


@stops_cleanly
def test_a_worker_stops_when_the_parent_is_gone_and_cancels_its_units(
    pipe: tuple[Connection, Connection],
) -> None:
    ours, theirs = pipe
    started = threading.Event()

    @dataclass
    class Hanging(ClosingExecutor):
        cancelled: list[WorkUnit] = field(default_factory=list)
        order: list[str] = field(default_factory=list)

        async def execute(self, unit: WorkUnit) -> UnitOutcome:
            started.set()
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                self.cancelled.append(unit)
                self.order.append("unit unwound")
                raise
            return outcome(unit)

        async def aclose(self) -> None:
            self.order.append("executor closed")
            await super().aclose()

    executor = Hanging()
    thread = _serve_in_thread(theirs, InProcessFactory(executor=executor))
    assert _recv(ours) == ("ready",)
    ours.send(("unit", WorkUnit("slow", 0, 1)))
    assert started.wait(WAIT_S)
    ours.close()  # the parent died: the worker's reader sees EOF
    thread.join(WAIT_S)
    assert not thread.is_alive()
    assert executor.cancelled == [WorkUnit("slow", 0, 1)] and executor.closed == [True]
    assert executor.order == ["unit unwound", "executor closed"]  # closed once its units ended


@stops_cleanly
def test_any_message_but_a_unit_ends_the_worker(pipe: tuple[Connection, Connection]) -> None:
    ours, theirs = pipe
    factory = InProcessFactory()
    thread = _serve_in_thread(theirs, factory)
    assert _recv(ours) == ("ready",)
    ours.send(("something else",))
    thread.join(WAIT_S)
    assert not thread.is_alive() and factory.executor.closed == [True]


@stops_cleanly
def test_a_worker_spawned_ahead_waits_for_the_factory_then_serves(
    pipe: tuple[Connection, Connection], worker_process_state: None
) -> None:
    ours, theirs = pipe
    factory = InProcessFactory()
    seen: list[tuple[Any, ...]] = []

    def parent() -> None:
        ours.send(("factory", factory))
        seen.append(_recv(ours))
        ours.send(("unit", WorkUnit("a", 0, 1)))
        seen.append(_recv(ours))
        ours.send(("stop",))

    thread = threading.Thread(target=parent)
    thread.start()
    _workers._worker_main(theirs, None, "")
    thread.join(WAIT_S)
    assert seen[0] == ("ready",)
    assert seen[1][0] == "done" and seen[1][1].reward == 1.0  # (the factory came pickled)
    # a worker ignores Ctrl-C: the parent handles it and stops its workers
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


@pytest.mark.parametrize("message", [("stop",), ("unit", WorkUnit("a", 0, 1)), None])
def test_a_worker_spawned_ahead_told_anything_but_the_factory_exits_without_serving(
    pipe: tuple[Connection, Connection], worker_process_state: None, message: tuple[Any, ...] | None
) -> None:
    ours, theirs = pipe
    if message is None:
        ours.close()  # the parent is gone before sending anything
    else:
        ours.send(message)
    _workers._worker_main(theirs, None, "")
    if message is not None:
        assert not ours.poll(0.2)  # never "ready": it built no executor


@stops_cleanly
def test_a_worker_given_its_factory_at_spawn_serves_at_once(
    pipe: tuple[Connection, Connection], worker_process_state: None
) -> None:
    ours, theirs = pipe
    factory = InProcessFactory()
    ours.send(("unit", WorkUnit("a", 0, 1)))
    ours.send(("stop",))
    _workers._worker_main(theirs, factory, "")
    assert _recv(ours) == ("ready",)
    assert factory.built == 1 and factory.executor.closed == [True]


def test_a_worker_spawned_ahead_imports_the_runner_and_the_suites_package() -> None:
    code = (
        "import multiprocessing, sys\n"
        "from lifebench.runner._workers import _warm, _worker_main\n"
        "ours, theirs = multiprocessing.Pipe()\n"
        "ours.send(('stop',))\n"
        "_worker_main(theirs, None, 'travel')\n"  # a worker spawned ahead, stopped unused
        "print('lifebench.runner._experiment' in sys.modules, 'lifebench.travel' in sys.modules)\n"
        "_warm('no-such-suite')\n"  # left to the factory, which reports it
        "print('ok')\n"
    )
    src = str(Path(_workers.__file__).parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "ok"]


def test_warming_without_a_suite_imports_no_suite_package() -> None:
    code = (
        "import sys\n"
        "from lifebench.runner._workers import _warm\n"
        "_warm('')\n"
        "print('lifebench.runner._experiment' in sys.modules,"
        " any(m in sys.modules for m in ('lifebench.travel', 'lifebench.flow')))\n"
    )
    src = str(Path(_workers.__file__).parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]


def test_a_send_to_a_parent_that_is_gone_is_swallowed() -> None:
    class Gone:
        def send(self, message: tuple[Any, ...]) -> None:
            raise OSError("broken pipe")

    _workers._send(Gone(), ("done",))  # type: ignore[arg-type]


# ------------------------------------------------------------------ the parent's helpers


def test_a_pipe_is_forwarded_with_its_index_until_it_closes(
    pipe: tuple[Connection, Connection],
) -> None:
    ours, theirs = pipe

    async def scenario() -> list[tuple[int, tuple[Any, ...]]]:
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        theirs.send(("ready",))
        theirs.send(("done", 1))
        theirs.close()
        thread = threading.Thread(target=_workers._pump, args=(3, ours, loop, inbox))
        thread.start()
        got = [await asyncio.wait_for(inbox.get(), WAIT_S) for _ in range(3)]
        await asyncio.to_thread(thread.join, WAIT_S)
        assert not thread.is_alive()
        assert inbox.empty()
        return got

    assert asyncio.run(scenario()) == [(3, ("ready",)), (3, ("done", 1)), (3, ("eof",))]


def test_a_pipe_forwarded_to_a_closed_loop_ends_the_pump(
    pipe: tuple[Connection, Connection],
) -> None:
    ours, theirs = pipe
    loop = asyncio.new_event_loop()
    loop.close()
    theirs.send(("ready",))
    theirs.send(("ready",))
    thread = threading.Thread(target=_workers._pump, args=(0, ours, loop, asyncio.Queue()))
    thread.start()
    thread.join(WAIT_S)
    assert not thread.is_alive()
    assert ours.poll(0)  # it stopped after the first message, leaving the second unread


class FakeProcess:
    def __init__(self, exits: bool) -> None:
        self.exits, self.alive = exits, True
        self.exitcode: int | None = None
        self.joins: list[float | None] = []
        self.killed = 0

    def join(self, timeout: float | None = None) -> None:
        self.joins.append(timeout)
        if self.exits or self.killed:
            self.alive = False

    def is_alive(self) -> bool:
        return self.alive

    def kill(self) -> None:
        self.killed += 1


class FakeConn:
    def __init__(self, broken: bool = False) -> None:
        self.sent: list[tuple[Any, ...]] = []
        self.closed = False
        self.broken = broken

    def send(self, message: tuple[Any, ...]) -> None:
        if self.broken:
            raise OSError("broken pipe")
        self.sent.append(message)

    def close(self) -> None:
        self.closed = True

    def recv(self) -> tuple[Any, ...]:
        raise EOFError  # a process that never starts serving


def test_stopping_asks_each_process_waits_ten_seconds_then_kills_the_ones_left() -> None:
    polite, stuck, gone = FakeProcess(True), FakeProcess(False), FakeProcess(True)
    conns = [FakeConn(), FakeConn(), FakeConn(broken=True)]
    _workers._stop([(polite, conns[0]), (stuck, conns[1]), (gone, conns[2])])
    assert conns[0].sent == [("stop",)] and conns[1].sent == [("stop",)]
    assert polite.joins == [10.0] and polite.killed == 0
    assert stuck.joins == [10.0, None] and stuck.killed == 1
    assert gone.joins == [10.0] and all(c.closed for c in conns)


def test_a_pool_that_fails_to_spawn_stops_the_processes_already_spawned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = (FakeProcess(True), FakeConn())
    calls: list[tuple[int, Any, str]] = []

    def spawn(index: int, factory: Any, suite: str = "") -> tuple[Any, Any]:
        calls.append((index, factory, suite))
        if index == 1:
            raise OSError("too many processes")
        return first

    monkeypatch.setattr(_workers, "_spawn", spawn)
    with pytest.raises(OSError, match="too many processes"):
        _workers.WorkerPool(3, "vita")
    assert calls == [(0, None, "vita"), (1, None, "vita")]
    assert first[1].sent == [("stop",)] and first[1].closed and first[0].joins == [10.0]


def test_a_pool_hands_its_processes_over_once() -> None:
    pool = _workers.WorkerPool(0)
    fake = (FakeProcess(True), FakeConn())
    pool.spawned = [fake]
    assert pool.take() == [fake] and pool.take() == [] and pool.spawned == []
    pool.close()
    assert fake[1].sent == []  # taken: no longer the pool's to stop


def test_spawned_workers_are_named_daemons_of_the_spawn_context(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[dict[str, Any]] = []

    class Process:
        def __init__(self, **kwargs: Any) -> None:
            made.append(kwargs)
            self.started = False

        def start(self) -> None:
            self.started = True

    class Context:
        def Pipe(self) -> tuple[FakeConn, FakeConn]:
            return FakeConn(), FakeConn()

        def Process(self, **kwargs: Any) -> Process:
            return Process(**kwargs)

    contexts: list[str] = []

    def get_context(method: str) -> Context:
        contexts.append(method)
        return Context()

    monkeypatch.setattr(multiprocessing, "get_context", get_context)
    process, parent_end = _workers._spawn(4, None, "flow")
    assert contexts == ["spawn"] and process.started
    (kwargs,) = made
    assert kwargs["name"] == "lifebench-worker-4" and kwargs["daemon"] is True
    assert kwargs["target"] is _workers._worker_main
    child_end = kwargs["args"][0]
    assert kwargs["args"][1:] == (None, "flow") and child_end is not parent_end
    assert child_end.closed and not parent_end.closed  # the parent keeps only its end


# ------------------------------------------------------------------ the writer's own share


def test_the_writers_share_answers_on_the_inbox_under_its_index() -> None:
    async def scenario() -> list[tuple[int, tuple[Any, ...]]]:
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        local = _workers._InProcess(5, Executor(), inbox)
        local.send(("unit", WorkUnit("a", 0, 1)))
        local.send(("unit", WorkUnit("fatal", 0, 2)))
        local.send(("other",))  # ignored
        got = [await asyncio.wait_for(inbox.get(), WAIT_S) for _ in range(2)]
        await local.wait_stopped()
        await asyncio.sleep(0)
        assert not local._running  # finished units are forgotten
        local.close()
        return got

    got = sorted(asyncio.run(scenario()), key=lambda m: m[1][0])
    (i_done, done), (i_fatal, fatal) = got
    assert i_done == i_fatal == 5
    assert done[0] == "done" and done[1].unit == WorkUnit("a", 0, 1) and done[1].reward == 1.0
    assert fatal == ("fatal", WorkUnit("fatal", 0, 2), "key revoked", 401)


def test_stopping_the_writers_share_cancels_its_units() -> None:
    cancelled: list[WorkUnit] = []

    class Hanging:
        async def execute(self, unit: WorkUnit) -> UnitOutcome:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                cancelled.append(unit)
                raise
            return outcome(unit)

        async def aclose(self) -> None:
            raise AssertionError("closed by its owner")

    async def scenario() -> bool:
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        local = _workers._InProcess(0, Hanging(), inbox)
        local.send(("unit", WorkUnit("a", 0, 1)))
        local.send(("unit", WorkUnit("b", 0, 2)))
        await asyncio.sleep(0)
        local.send(("stop",))
        await local.wait_stopped()  # (not through wait_for: its own task would yield)
        # waiting for the stop means the cancelled units have unwound
        assert sorted(u.task_id for u in cancelled) == ["a", "b"]
        return inbox.empty()

    assert asyncio.run(scenario())
    assert sorted(u.task_id for u in cancelled) == ["a", "b"]


# ------------------------------------------------------------------ the backend, faked workers


class ThreadWorker:
    """A worker "process" that is a thread serving a real pipe with ``_serve``."""

    def __init__(self, conn: Connection, factory: Any) -> None:
        self.thread = _serve_in_thread(conn, factory)
        self.exitcode: int | None = None
        self.killed = 0

    def join(self, timeout: float | None = None) -> None:
        self.thread.join(timeout)
        if not self.thread.is_alive():
            self.exitcode = 0

    def is_alive(self) -> bool:
        return self.thread.is_alive()

    def kill(self) -> None:
        self.killed += 1


@pytest.fixture
def thread_workers(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ThreadWorker]]:
    spawned: list[tuple[int, ThreadWorker]] = []

    def spawn(index: int, factory: Any, suite: str = "") -> tuple[Any, Any]:
        ours, theirs = multiprocessing.Pipe()
        worker = ThreadWorker(theirs, factory)
        spawned.append((index, worker))
        return worker, ours

    monkeypatch.setattr(_workers, "_spawn", spawn)
    return spawned


def _backend_run(
    units: list[WorkUnit], workers: int, concurrency: int, **kwargs: Any
) -> RecordingSink:
    sink = RecordingSink(concurrency)
    backend = _workers.ProcessBackend(InProcessFactory(), workers, concurrency, **kwargs)
    asyncio.run(asyncio.wait_for(backend.run(units, SinkAdapter(sink)), WAIT_S))
    return sink


@stops_cleanly
def test_the_backend_spawns_no_more_workers_than_units_and_writes_each_once(
    thread_workers: list[tuple[int, ThreadWorker]],
) -> None:
    units = [WorkUnit("a", 0, 1), WorkUnit("b", 0, 2)]
    sink = _backend_run(units, workers=4, concurrency=4)
    assert [i for i, _ in thread_workers] == [0, 1]
    assert sorted(p.unit.task_id for p in sink.finished) == ["a", "b"]
    assert all(p.reward == 1.0 for p in sink.finished) and not sink.cancelled
    assert all(not w.is_alive() and w.killed == 0 for _, w in thread_workers)


@stops_cleanly
def test_the_backend_with_the_writers_executor_spawns_one_process_fewer(
    thread_workers: list[tuple[int, ThreadWorker]],
) -> None:
    units = [WorkUnit(f"t{i}", 0, i) for i in range(6)]
    sink = _backend_run(units, workers=3, concurrency=6, local=Executor())
    assert [i for i, _ in thread_workers] == [0, 1]
    assert sorted(p.unit.task_id for p in sink.finished) == [u.task_id for u in units]
    assert sink.peak <= 6 and not sink.cancelled


def test_the_backend_with_one_unit_and_the_writers_executor_spawns_none(
    thread_workers: list[tuple[int, ThreadWorker]],
) -> None:
    sink = _backend_run([WorkUnit("a", 0, 1)], workers=4, concurrency=4, local=Executor())
    assert thread_workers == []
    assert [p.unit.task_id for p in sink.finished] == ["a"]


@stops_cleanly
def test_the_backend_stops_when_a_worker_cannot_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def spawn(index: int, factory: Any, suite: str = "") -> tuple[Any, Any]:
        ours, theirs = multiprocessing.Pipe()
        return ThreadWorker(theirs, InProcessFactory(broken=index == 1)), ours

    monkeypatch.setattr(_workers, "_spawn", spawn)
    units = [WorkUnit(f"t{i}", 0, i) for i in range(4)]
    sink = RecordingSink(2)
    backend = _workers.ProcessBackend(InProcessFactory(), 2, 2)
    with pytest.raises(RunStopped) as caught:
        asyncio.run(asyncio.wait_for(backend.run(units, SinkAdapter(sink)), WAIT_S))
    assert str(caught.value) == "worker process 1 could not start: ValueError: no models file"
    assert sink.started == []  # nothing was handed out before every worker was ready


def test_a_worker_that_exits_while_starting_stops_the_run_naming_it() -> None:
    async def scenario() -> None:
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        alive = [False, False]
        inbox.put_nowait((0, ("ready",)))
        inbox.put_nowait((1, ("eof",)))
        backend = _workers.ProcessBackend(InProcessFactory(), 2, 2)
        try:
            await asyncio.wait_for(backend._start(2, inbox, alive), WAIT_S)
        finally:
            assert alive == [True, False]

    with pytest.raises(RunStopped) as caught:
        asyncio.run(scenario())
    assert str(caught.value) == "worker process 1 exited while starting"


def test_start_waits_for_every_worker_and_marks_them_alive() -> None:
    async def scenario() -> list[bool]:
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        alive = [False, False, False]
        for i in (2, 0, 1):
            inbox.put_nowait((i, ("ready",)))
        inbox.put_nowait((0, ("done", None)))  # not read by _start
        await asyncio.wait_for(
            _workers.ProcessBackend(InProcessFactory(), 3, 3)._start(3, inbox, alive), WAIT_S
        )
        assert inbox.qsize() == 1
        return alive

    assert asyncio.run(scenario()) == [True, True, True]


def test_processes_spawned_ahead_are_given_the_factory_and_the_extra_ones_stopped() -> None:
    fakes = [(FakeProcess(True), FakeConn()) for _ in range(3)]

    class Pool:
        def take(self) -> list[tuple[Any, Any]]:
            return list(fakes)

    # two units, the writer's own executor: one worker process is needed, two are stopped
    backend = _workers.ProcessBackend(
        InProcessFactory(),
        4,
        4,
        local=Executor(),
        pool=Pool(),  # type: ignore[arg-type]
    )

    sink = RecordingSink(4)
    asyncio.run(
        asyncio.wait_for(
            backend.run([WorkUnit("a", 0, 1), WorkUnit("b", 0, 2)], SinkAdapter(sink)), WAIT_S
        )
    )
    # the one process never became ready: the writer ran both units
    assert sorted(p.unit.task_id for p in sink.finished) == ["a", "b"]
    used, *extra = fakes
    assert [m[0] for m in used[1].sent] == ["factory", "stop"]
    assert isinstance(used[1].sent[0][1], InProcessFactory) and used[1].closed
    assert all(conn.sent == [("stop",)] for _, conn in extra)
    assert all(p.joins == [10.0] and conn.closed for p, conn in extra)


# ------------------------------------------------------------------ the writer's share, dispatched


class Recorder:
    """A pipe (or the writer's share) that records the units it is sent."""

    def __init__(self) -> None:
        self.units: list[WorkUnit] = []

    def send(self, message: tuple[Any, ...]) -> None:
        assert message[0] == "unit"
        self.units.append(message[1])


def _done(index: int, unit: WorkUnit) -> tuple[int, tuple[Any, ...]]:
    return index, ("done", PackedOutcome.of(unit, outcome(unit)))


def test_the_writer_takes_its_share_until_the_process_is_ready_and_all_once_it_is_gone() -> None:
    units = [WorkUnit(f"t{i}", 0, i) for i in range(6)]
    sink = RecordingSink(3)
    worker, local = Recorder(), Recorder()
    process = FakeProcess(True)
    process.exitcode = -9

    async def settle() -> None:
        for _ in range(5):
            await asyncio.sleep(0)

    async def scenario() -> None:
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        backend = _workers.ProcessBackend(InProcessFactory(), 2, 3)
        task = asyncio.ensure_future(
            backend._dispatch_all(
                units,
                SinkAdapter(sink),
                [worker, local],
                [process],
                inbox,
                [{}, {}],
                [False, True],  # the process is starting; the writer's share runs at once
            )
        )
        await settle()
        # its share of --concurrency 3 over two executors is 2 (rounded up), not all 3
        assert (worker.units, local.units) == ([], units[:2])
        inbox.put_nowait((0, ("ready",)))
        await settle()
        assert worker.units == units[2:3]  # the process takes the rest of the bound
        inbox.put_nowait(_done(1, units[0]))
        await settle()
        # one in flight each: the tie goes to the lower index, the process
        assert (worker.units, local.units) == (units[2:4], units[:2])
        inbox.put_nowait((0, ("eof",)))
        await settle()
        # the process is gone: its units are infrastructure errors, the writer takes the bound
        assert local.units == units[:2] + units[4:6]
        for unit in local.units[1:]:
            inbox.put_nowait(_done(1, unit))
        await asyncio.wait_for(task, WAIT_S)

    asyncio.run(scenario())
    by = {p.unit: p for p in sink.finished}
    assert set(by) == set(units) and sink.peak == 3 and not sink.cancelled
    for unit in units[2:4]:
        assert by[unit].status is UnitStatus.INFRA_ERROR
        assert by[unit].error == "worker process 0 exited unexpectedly (exit code -9)"
    assert all(by[u].status is UnitStatus.DONE for u in units[:2] + units[4:])
    assert process.joins == [10.0]


def test_a_process_that_cannot_start_while_the_writer_runs_stops_the_run() -> None:
    async def scenario() -> None:
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        inbox.put_nowait((0, ("init_error", "ValueError: no models file")))
        backend = _workers.ProcessBackend(InProcessFactory(), 2, 2)
        await asyncio.wait_for(
            backend._dispatch_all(
                [WorkUnit("a", 0, 1), WorkUnit("b", 0, 2), WorkUnit("c", 0, 3)],
                SinkAdapter(RecordingSink(2)),
                [Recorder(), Recorder()],
                [FakeProcess(True)],
                inbox,
                [{}, {}],
                [False, True],
            ),
            WAIT_S,
        )

    with pytest.raises(RunStopped) as caught:
        asyncio.run(scenario())
    assert str(caught.value) == "worker process 0 could not start: ValueError: no models file"
