"""Backend test helpers: a recording sink, and executors the spawned worker processes import."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from runner_fakes import outcome

from lifebench.errors import FatalProviderError
from lifebench.runner import UnitOutcome, WorkUnit
from lifebench.runner._units import PackedOutcome


class Executor:
    """Runs units instantly; task ``die`` kills its worker process, ``fatal`` raises a fatal
    provider error, ``boom`` raises a plain exception."""

    async def execute(self, unit: WorkUnit) -> UnitOutcome:
        if unit.task_id == "die":
            os._exit(3)
        if unit.task_id == "fatal":
            raise FatalProviderError("key revoked", status=401)
        if unit.task_id == "boom":
            raise RuntimeError("unit exploded")
        return outcome(unit)

    async def aclose(self) -> None:
        return None


@dataclass(frozen=True)
class Factory:
    """Pickles; builds an :class:`Executor` in the worker (or fails to, when ``broken``)."""

    broken: bool = False

    def __call__(self) -> Executor:
        if self.broken:
            raise ValueError("no models file")
        return Executor()


@dataclass
class RecordingSink:
    """The writer's view: what was started, written and cancelled, and the in-flight peak."""

    concurrency: int
    started: list[WorkUnit] = field(default_factory=list)
    finished: list[PackedOutcome] = field(default_factory=list)
    cancelled: list[tuple[WorkUnit, str]] = field(default_factory=list)
    peak: int = 0

    def in_flight(self) -> int:
        return len(self.started) - len(self.finished) - len(self.cancelled)

    # the Sink protocol
    def started_(self, unit: WorkUnit) -> None:
        assert unit not in self.started, f"{unit} started twice"
        self.started.append(unit)
        self.peak = max(self.peak, self.in_flight())
        assert self.in_flight() <= self.concurrency

    def finished_(self, packed: PackedOutcome) -> None:
        assert packed.unit in self.started, f"{packed.unit} written but never started"
        assert packed.unit not in [p.unit for p in self.finished], f"{packed.unit} written twice"
        self.finished.append(packed)

    def cancelled_(self, unit: WorkUnit, note: str) -> None:
        self.cancelled.append((unit, note))


class SinkAdapter:
    def __init__(self, sink: RecordingSink) -> None:
        self.started = sink.started_
        self.finished = sink.finished_
        self.cancelled = sink.cancelled_
