"""Loops that must end, pinned without a clock: each test fails (instead of hanging) when the
code keeps reading, waiting or looping past the point where it should stop (scripts/mutation.sh
counts a mutant whose tests hang as a timeout, never as a kill).

* ``file_info`` hashes a task file block by block and stops at end-of-file: the stream refuses
  a read after it has returned end-of-file once.
* a ``--workers`` worker (``_serve`` / ``_worker_main``) answers on a pipe the test plays: the
  test hands over one message at a time and steps the event loop a bounded number of times
  for each answer, so a worker that never reads, loses a message or never answers fails at
  once (the older guards wait up to 30 s on a real pipe for an answer that never comes, longer
  than mutmut's limit for them).
* the writer's own share (``_InProcess``) cancels its units when told to stop: checked after a
  bounded number of steps, not by waiting for units that would otherwise run for an hour.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from backend_helpers import Executor
from runner_fakes import outcome

from lifebench.runner import UnitOutcome, UnitStatus, WorkUnit, _workers
from lifebench.runner._provenance import file_info
from lifebench.runner._units import PackedOutcome

pytestmark = pytest.mark.bounded  # run first under mutation testing (tests/conftest.py)

# ------------------------------------------------------------------ file_info: stop at end-of-file


class _ReadOnceToEnd:
    """A binary stream over the real file that fails a read after end-of-file was returned
    (a loop whose end-of-file test never matches would otherwise read b"" forever)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.ended, self.reads = inner, False, 0

    def read(self, size: int = -1) -> bytes:
        assert not self.ended, f"read({size}) after end-of-file (read {self.reads} times)"
        self.reads += 1
        block: bytes = self.inner.read(size)
        self.ended = block == b""
        return block

    def __enter__(self) -> _ReadOnceToEnd:
        return self

    def __exit__(self, *exc: object) -> None:
        self.inner.close()


def _strict_open(monkeypatch: pytest.MonkeyPatch, target: Path) -> list[_ReadOnceToEnd]:
    opened: list[_ReadOnceToEnd] = []
    real_open = Path.open

    def open_(self: Path, *args: Any, **kwargs: Any) -> Any:
        stream = real_open(self, *args, **kwargs)
        if self != target:
            return stream
        opened.append(_ReadOnceToEnd(stream))
        return opened[-1]

    monkeypatch.setattr(Path, "open", open_)
    return opened


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("tasks_en.json", b'[{"id": "t1", "instructions": "order a coffee"}]'),
        ("tasks_zh.json", '[{"id": "t1", "instructions": "点一杯咖啡"}]'.encode()),
        ("empty.json", b""),
        ("two_blocks.json", bytes(range(256)) * 4097),  # 1 MiB + 256 bytes: two blocks
    ],
    ids=["english", "chinese", "empty", "two-blocks"],
)
def test_a_task_files_digest_reads_it_to_its_end_and_no_further(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, data: bytes
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    opened = _strict_open(monkeypatch, path)
    info = file_info(str(path))
    assert info is not None
    assert (info.name, info.size, info.sha256) == (
        name,
        len(data),
        hashlib.sha256(data).hexdigest(),
    )
    assert len(opened) == 1 and opened[0].ended  # read up to end-of-file, once


# ------------------------------------------------------------------ a worker, on a scripted pipe

STEP_LIMIT = 10_000  # event-loop steps for one answer (a few dozen are needed)


async def _steps_until(done: Callable[[], bool], what: str) -> None:
    for _ in range(STEP_LIMIT):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{what} did not happen within {STEP_LIMIT} event-loop steps")


class ScriptedPipe:
    """The worker's end of its pipe, played by the test: ``recv`` hands over the messages the
    test released, in order (waiting for the next one); ``send`` records the worker's answers.
    ``calls`` counts the reads: a worker that reads again after ``("stop",)`` shows it."""

    def __init__(self, *ahead: Any) -> None:
        self.sent: list[tuple[Any, ...]] = []
        self.calls = 0
        self._released: deque[Any] = deque(ahead)
        self._taken = 0
        self._cond = threading.Condition()

    def recv(self) -> Any:
        with self._cond:
            self.calls += 1
            self._cond.notify_all()
            while not self._released:
                self._cond.wait()
            item = self._released.popleft()
            self._taken += 1
        if isinstance(item, BaseException):
            raise item
        return item

    def send(self, message: tuple[Any, ...]) -> None:
        self.sent.append(message)

    def deliver(self, message: Any, reader: threading.Thread | None) -> None:
        """Release ``message`` and return once the reader has passed it on: it came back to
        read again, or it ended (no reader at all: nothing can pass it on)."""
        with self._cond:
            self._released.append(message)
            self._cond.notify_all()
            wanted = self._taken + len(self._released) + 1  # the read after this message
            while self.calls < wanted and reader is not None and reader.is_alive():
                self._cond.wait(0.01)

    def unblock(self) -> None:
        """End a reader still waiting (after a failure): the parent is gone."""
        with self._cond:
            self._released.append(EOFError())
            self._cond.notify_all()


def _new_reader(before: set[threading.Thread]) -> threading.Thread | None:
    new = [t for t in set(threading.enumerate()) - before if t.name == "lifebench-worker-inbox"]
    return new[0] if new else None


class ClosingExecutor(Executor):
    def __init__(self) -> None:
        self.closed = 0

    async def aclose(self) -> None:
        self.closed += 1


UNITS = {
    "en": WorkUnit("order-coffee", 0, 11),
    "zh": WorkUnit("点一杯咖啡", 1, 12),
}


@pytest.mark.parametrize("language", sorted(UNITS))
@pytest.mark.parametrize(
    ("task", "answer"),
    [("plain", "done"), ("boom", "done"), ("fatal", "fatal")],
    ids=["outcome", "unit-error", "fatal-provider-error"],
)
def test_a_worker_answers_each_unit_it_reads_then_stops_reading_at_stop(
    language: str, task: str, answer: str
) -> None:
    base = UNITS[language]
    unit = base if task == "plain" else WorkUnit(task, base.trial, base.seed)
    pipe = ScriptedPipe()
    executor = ClosingExecutor()
    before = set(threading.enumerate())

    async def scenario() -> None:
        served = asyncio.create_task(_workers._serve(pipe, lambda: executor))  # type: ignore[arg-type]
        await _steps_until(lambda: len(pipe.sent) == 1, "the worker's ready")
        reader = _new_reader(before)
        pipe.deliver(("unit", unit), reader)
        await _steps_until(lambda: len(pipe.sent) == 2, f"the answer for unit {unit.task_id}")
        pipe.deliver(("stop",), reader)
        await _steps_until(served.done, "the worker's end after stop")
        served.result()
        # (the reader has ended here, or come back for a read after "stop": deliver() waited)

    try:
        asyncio.run(scenario())
    finally:
        pipe.unblock()
    assert pipe.sent[0] == ("ready",)
    kind, *rest = pipe.sent[1]
    assert kind == answer
    if answer == "fatal":
        assert rest == [unit, "key revoked", 401]
    else:
        (packed,) = rest
        assert isinstance(packed, PackedOutcome) and packed.unit == unit
        if task == "plain":
            assert packed.status is UnitStatus.DONE and packed.reward == 1.0
        else:
            assert packed.status is UnitStatus.INFRA_ERROR
            assert packed.error is not None and "RuntimeError: unit exploded" in packed.error
    assert len(pipe.sent) == 2 and executor.closed == 1
    assert pipe.calls == 2  # read the unit and the stop, and never again


def test_a_worker_whose_parent_is_gone_ends_and_closes_its_executor() -> None:
    pipe = ScriptedPipe()
    executor = ClosingExecutor()
    before = set(threading.enumerate())

    async def scenario() -> None:
        served = asyncio.create_task(_workers._serve(pipe, lambda: executor))  # type: ignore[arg-type]
        await _steps_until(lambda: len(pipe.sent) == 1, "the worker's ready")
        pipe.deliver(EOFError(), _new_reader(before))  # the parent's end closed
        await _steps_until(served.done, "the worker's end once its parent is gone")
        served.result()

    try:
        asyncio.run(scenario())
    finally:
        pipe.unblock()
    assert pipe.sent == [("ready",)] and executor.closed == 1 and pipe.calls == 1


@pytest.mark.parametrize(
    "suite",
    ["", "no-such-suite", "未知套件"],
    ids=["no-suite", "unknown-english", "unknown-chinese"],
)
def test_a_worker_spawned_ahead_serves_with_the_factory_it_is_sent(
    suite: str, worker_process_state: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (a suite that cannot be warmed is left to the factory, which reports it)
    served: list[tuple[Any, Any]] = []

    async def serve(conn: Any, factory: Any) -> None:  # what serving is checked above
        served.append((conn, factory))

    monkeypatch.setattr(_workers, "_serve", serve)

    def factory() -> ClosingExecutor:
        return ClosingExecutor()

    # the parent's message is there before the worker reads: no waiting anywhere
    pipe = ScriptedPipe(("factory", factory))
    try:
        _workers._worker_main(pipe, None, suite)  # type: ignore[arg-type]
    finally:
        pipe.unblock()
    assert served == [(pipe, factory)] and pipe.calls == 1  # read once, served with it
    assert pipe.sent == []  # the answers are _serve's


@pytest.mark.parametrize("message", [("stop",), ("unit", UNITS["zh"]), EOFError()])
def test_a_worker_spawned_ahead_told_anything_but_its_factory_serves_nothing(
    message: Any, worker_process_state: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[Any] = []

    async def serve(conn: Any, factory: Any) -> None:
        served.append(factory)

    monkeypatch.setattr(_workers, "_serve", serve)
    pipe = ScriptedPipe(message)
    try:
        _workers._worker_main(pipe, None, "")  # type: ignore[arg-type]
    finally:
        pipe.unblock()
    assert served == [] and pipe.sent == [] and pipe.calls == 1


# ------------------------------------------------------------------ the writer's own share


@pytest.mark.parametrize("language", sorted(UNITS))
def test_stopping_the_writers_share_cancels_its_running_units(language: str) -> None:
    cancelled: list[WorkUnit] = []

    class Hanging:
        async def execute(self, unit: WorkUnit) -> UnitOutcome:
            try:
                await asyncio.Event().wait()  # never set: only cancelling ends it
            except asyncio.CancelledError:
                cancelled.append(unit)
                raise
            return outcome(unit)

        async def aclose(self) -> None:
            raise AssertionError("closed by its owner")

    units = [UNITS[language], WorkUnit("second", 0, 13)]

    async def scenario() -> asyncio.Queue[tuple[int, tuple[Any, ...]]]:
        inbox: asyncio.Queue[tuple[int, tuple[Any, ...]]] = asyncio.Queue()
        local = _workers._InProcess(0, Hanging(), inbox)
        for unit in units:
            local.send(("unit", unit))
        await asyncio.sleep(0)
        local.send(("stop",))
        await _steps_until(lambda: len(cancelled) == 2, "cancelling the running units")
        await local.wait_stopped()
        return inbox

    inbox = asyncio.run(scenario())
    assert sorted(u.task_id for u in cancelled) == sorted(u.task_id for u in units)
    assert inbox.empty()  # a cancelled unit answers nothing
