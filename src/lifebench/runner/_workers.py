"""``--workers N``: units executed by N processes, written by the parent alone.

Design (chosen over workers claiming units in the store themselves): the parent keeps the run
store, the writer lease and the progress display, executes a share of the units itself in its
event loop (it is one of the N: ``--workers 2`` is the parent and one worker process, and the
units start at once instead of waiting for the processes to import and build their
executors), and hands units out over one pipe per worker process (at most ``concurrency`` in
flight in total, each to the executor with the fewest, a process once it is ready); each worker
runs its own asyncio loop, executes the units it is given concurrently, and sends back the
outcome *packed* (status decided, JSON serialised — the CPU-heavy part stays in the worker).
So SQLite keeps one writer, every unit is written exactly once, and resume, Ctrl-C and kill -9
behave as with one process: a killed parent's workers see their pipe close and exit; a worker
that dies has its units in flight recorded as infrastructure errors (re-run on resume).
``benchmarks/bench_workers.py`` measures the parent's cost per unit against a unit's.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import multiprocessing
import signal
import threading
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Protocol

from lifebench.errors import FatalProviderError
from lifebench.runner._errors import RunStopped
from lifebench.runner._scheduler import Sink, execute_packed, infra_outcome
from lifebench.runner._units import PackedOutcome, UnitOutcome, WorkUnit

_JOIN_TIMEOUT_S = 10.0


class UnitExecutor(Protocol):
    """What a worker builds once and then executes units with."""

    async def execute(self, unit: WorkUnit) -> UnitOutcome:
        """Run and grade one unit."""
        ...

    async def aclose(self) -> None:
        """Release models and caches."""
        ...


ExecutorFactory = Callable[[], UnitExecutor]
"""Builds a worker's executor; must pickle (it is sent to each worker process / Ray actor)."""


# ---------------------------------------------------------------------- the worker process


def _worker_main(conn: Connection, factory: ExecutorFactory | None, suite: str = "") -> None:
    """Entry point of a worker process. Without ``factory`` (a process of a :class:`WorkerPool`,
    spawned before the writer has built its experiment) it imports what executing units needs
    (the runner and the ``suite``'s package) while the writer builds, then waits for the
    factory (``("factory", factory)``) or ``("stop",)`` on its pipe."""
    from lifebench.models._secrets import scrub_logs

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    scrub_logs()
    if factory is None:
        _warm(suite)
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if message[0] != "factory":
            return
        factory = message[1]
    asyncio.run(_serve(conn, factory))
    # Nothing is left to collect: spare the interpreter's final pass over every object.
    gc.freeze()


def _warm(suite: str) -> None:
    """Import the runner and the suite's package (what building the executor imports first);
    any failure is left to the factory, which reports it."""
    with contextlib.suppress(Exception):
        from lifebench.runner import _experiment
        from lifebench.suites import get_suite

        del _experiment
        if suite:
            get_suite(suite)


async def _serve(conn: Connection, factory: ExecutorFactory) -> None:
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):  # the parent is gone
                message = ("stop",)
            try:
                loop.call_soon_threadsafe(inbox.put_nowait, message)
            except RuntimeError:  # the loop is closed: the worker has ended
                return
            if message[0] == "stop":
                return

    threading.Thread(target=read, name="lifebench-worker-inbox", daemon=True).start()
    try:
        executor = factory()
    except Exception as exc:
        conn.send(("init_error", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready",))
    running: set[asyncio.Task[None]] = set()

    async def one(unit: WorkUnit) -> None:
        try:
            packed = await execute_packed(unit, executor.execute)
        except FatalProviderError as exc:
            _send(conn, ("fatal", unit, str(exc), exc.status))
            return
        _send(conn, ("done", packed))

    try:
        while True:
            message = await inbox.get()
            if message[0] != "unit":
                break
            task = asyncio.create_task(one(message[1]))
            running.add(task)
            task.add_done_callback(running.discard)
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        await executor.aclose()


def _send(conn: Connection, message: tuple[Any, ...]) -> None:
    with contextlib.suppress(OSError):  # the parent is gone; the reader thread stops the loop
        conn.send(message)


# ---------------------------------------------------------------------- the parent


class _InProcess:
    """The writer's own share of the units: ``executor`` run in this event loop behind a worker
    pipe's interface (``send``, ``close``), answering on the same inbox as the processes."""

    def __init__(
        self,
        index: int,
        executor: UnitExecutor,
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]],
    ) -> None:
        self._index, self._executor, self._inbox = index, executor, inbox
        self._running: set[asyncio.Task[None]] = set()

    def send(self, message: tuple[Any, ...]) -> None:
        if message[0] == "unit":
            task = asyncio.get_running_loop().create_task(self._one(message[1]))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        elif message[0] == "stop":
            for task in self._running:
                task.cancel()

    async def _one(self, unit: WorkUnit) -> None:
        try:
            packed = await execute_packed(unit, self._executor.execute)
        except FatalProviderError as exc:
            self._inbox.put_nowait((self._index, ("fatal", unit, str(exc), exc.status)))
            return
        self._inbox.put_nowait((self._index, ("done", packed)))

    async def wait_stopped(self) -> None:
        """Wait until the cancelled units have unwound (the executor stays open: it is the
        writer's own, closed by its owner)."""
        await asyncio.gather(*self._running, return_exceptions=True)

    def close(self) -> None:
        """Nothing to close (the pipe interface)."""


def _spawn(index: int, factory: ExecutorFactory | None, suite: str = "") -> tuple[Any, Any]:
    """A worker process and the parent's end of its pipe."""
    context = multiprocessing.get_context("spawn")
    parent_end, child_end = context.Pipe()
    process = context.Process(
        target=_worker_main,
        args=(child_end, factory, suite),
        name=f"lifebench-worker-{index}",
        daemon=True,
    )
    process.start()
    child_end.close()
    return process, parent_end


class WorkerPool:
    """Worker processes spawned before their executor factory exists: they import while the
    writer loads the tasks and opens the store, so that they join the run sooner. Handed to
    :class:`ProcessBackend` (which sends them the factory and stops them); :meth:`close` stops
    them if the run ends before that (bad input, a store in use)."""

    def __init__(self, count: int, suite: str = "") -> None:
        self.spawned: list[tuple[Any, Any]] = []
        try:
            for index in range(count):
                self.spawned.append(_spawn(index, None, suite))
        except BaseException:
            self.close()
            raise

    def take(self) -> list[tuple[Any, Any]]:
        """The processes, now owned by the caller (:meth:`close` leaves them alone)."""
        spawned, self.spawned = self.spawned, []
        return spawned

    def close(self) -> None:
        """Stop the processes not taken."""
        _stop(self.take())


def _stop(spawned: Sequence[tuple[Any, Any]]) -> None:
    """Ask processes to stop, then wait for them (killing those that do not exit)."""
    for _, conn in spawned:
        with contextlib.suppress(OSError):
            conn.send(("stop",))
    for process, conn in spawned:
        process.join(_JOIN_TIMEOUT_S)
        if process.is_alive():
            process.kill()
            process.join()
        conn.close()


class ProcessBackend:
    """Executes units in ``workers`` processes (see the module docstring).

    With ``local`` (the writer's own executor), the writer's process is one of the ``workers``:
    it executes units in its event loop from the start, beside ``workers - 1`` worker
    processes that join as soon as they are ready — so two workers use two processes, and
    the units do not wait for the processes to start. With ``pool``, the worker processes
    are those already spawned (see :class:`WorkerPool`); the ones the units do not need are
    stopped."""

    def __init__(
        self,
        factory: ExecutorFactory,
        workers: int,
        concurrency: int,
        local: UnitExecutor | None = None,
        pool: WorkerPool | None = None,
    ) -> None:
        if workers < 1 or concurrency < 1:
            raise ValueError("workers and concurrency must be at least 1")
        self._factory, self._workers, self._concurrency = factory, workers, concurrency
        self._local, self._pool = local, pool

    async def run(self, units: Sequence[WorkUnit], sink: Sink) -> None:
        """Start the workers, hand out ``units``, write what comes back; stop the workers."""
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        count = min(self._workers, len(units)) - (1 if self._local is not None else 0)
        spawned = self._pool.take() if self._pool is not None else []
        _stop(spawned[max(count, 0) :])  # more processes than units
        spawned = spawned[: max(count, 0)]
        for _, conn in spawned:
            conn.send(("factory", self._factory))
        processes: list[Any] = []
        conns: list[Any] = []
        for index in range(count):
            process, parent_end = (
                spawned[index] if index < len(spawned) else _spawn(index, self._factory)
            )
            processes.append(process)
            conns.append(parent_end)
            threading.Thread(
                target=_pump, args=(index, parent_end, loop, inbox), daemon=True
            ).start()
        local = None
        if self._local is not None:  # last, so that process i is conns[i]
            local = _InProcess(count, self._local, inbox)
            conns.append(local)
        inflight: list[dict[tuple[str, int], WorkUnit]] = [{} for _ in conns]
        alive = [False] * count + ([True] if local is not None else [])
        try:
            if local is None:
                await self._start(count, inbox, alive)
            await self._dispatch_all(units, sink, conns, processes, inbox, inflight, alive)
        finally:
            for index, conn in enumerate(conns):
                for unit in inflight[index].values():
                    sink.cancelled(unit, "cancelled while running")
                inflight[index].clear()
                with contextlib.suppress(OSError):
                    conn.send(("stop",))
            if local is not None:
                await local.wait_stopped()
            for process in processes:
                process.join(_JOIN_TIMEOUT_S)
                if process.is_alive():
                    process.kill()
                    process.join()
            for conn in conns:
                conn.close()

    async def _start(
        self, count: int, inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]], alive: list[bool]
    ) -> None:
        """Wait until every worker has built its executor (or one failed to)."""
        waiting = count
        while waiting:
            index, message = await inbox.get()
            waiting -= 1
            if message[0] == "ready":
                alive[index] = True
            elif message[0] == "init_error":
                raise RunStopped(f"worker process {index} could not start: {message[1]}")
            else:
                raise RunStopped(f"worker process {index} exited while starting")

    async def _dispatch_all(
        self,
        units: Sequence[WorkUnit],
        sink: Sink,
        conns: Sequence[Any],
        processes: list[Any],
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]],
        inflight: list[dict[tuple[str, int], WorkUnit]],
        alive: list[bool],
    ) -> None:
        queue = deque(units)
        local = len(processes) if len(conns) > len(processes) else None
        gone = [False] * len(processes)
        share = -(-self._concurrency // len(conns))

        def open_to(i: int) -> bool:
            """The writer's own executor takes at most its share of the concurrency while a
            worker process runs or is starting (the rest waits for the processes)."""
            if not alive[i]:
                return False
            return i != local or len(inflight[i]) < share or all(gone)

        def dispatch() -> None:
            while queue and sum(map(len, inflight)) < self._concurrency:
                candidates = [i for i in range(len(conns)) if open_to(i)]
                if not candidates:
                    return
                index = min(candidates, key=lambda i: (len(inflight[i]), i))
                unit = queue.popleft()
                inflight[index][(unit.task_id, unit.trial)] = unit
                sink.started(unit)
                conns[index].send(("unit", unit))

        dispatch()
        while queue or any(inflight):
            index, message = await inbox.get()
            kind = message[0]
            if kind == "ready":  # a worker that started while the writer's own share ran
                alive[index] = True
            elif kind == "init_error":
                raise RunStopped(f"worker process {index} could not start: {message[1]}")
            elif kind == "done":
                packed: PackedOutcome = message[1]
                inflight[index].pop((packed.unit.task_id, packed.unit.trial), None)
                sink.finished(packed)
            elif kind == "fatal":
                unit = message[1]
                inflight[index].pop((unit.task_id, unit.trial), None)
                sink.cancelled(unit, f"run stopped: {message[2]}")
                raise FatalProviderError(message[2], status=message[3])
            elif kind == "eof":
                alive[index] = False
                gone[index] = True
                processes[index].join(_JOIN_TIMEOUT_S)
                code = processes[index].exitcode
                for unit in list(inflight[index].values()):
                    error = f"worker process {index} exited unexpectedly (exit code {code})"
                    sink.finished(PackedOutcome.of(unit, infra_outcome(unit, error)))
                inflight[index].clear()
                if not any(alive) and queue:
                    raise RunStopped(
                        f"every worker process exited; {len(queue)} unit(s) did not run "
                        "(re-run the same command to resume)"
                    )
            dispatch()


def _pump(
    index: int,
    conn: Connection,
    loop: asyncio.AbstractEventLoop,
    inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]],
) -> None:
    """Forward one worker's messages to the parent's event loop until its pipe closes."""
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError, TypeError):  # TypeError: this end closed while reading
            message = ("eof",)
        try:
            loop.call_soon_threadsafe(inbox.put_nowait, (index, message))
        except RuntimeError:  # the loop is closed: the run is over
            return
        if message[0] == "eof":
            return
