"""--workers with real worker processes: results come back packed, a worker that dies has its
unit recorded as an infrastructure error, a worker that cannot start stops the run, and a fatal
provider error stops it after cancelling its unit."""

from __future__ import annotations

import asyncio

import pytest
from backend_helpers import Factory, RecordingSink, SinkAdapter

from lifebench.errors import FatalProviderError
from lifebench.runner import UnitStatus, WorkUnit
from lifebench.runner._errors import RunStopped
from lifebench.runner._workers import ProcessBackend


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
