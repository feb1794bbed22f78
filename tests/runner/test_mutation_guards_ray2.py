"""Mutation guards for ``runner/_ray.py`` (second set), Ray faked as in
tests/runner/test_mutation_guards_ray.py (nothing starts):

* only the first ``://`` of a cluster address ends its scheme (a URL later in the path does
  not move the host and port checked);
* a Ray actor that dies while running a unit records that unit as an infrastructure error
  naming the actor, through the whole run (the run hands its Ray module to the loop);
* a fatal provider error stops the run and every other unit still in flight is recorded as
  cancelled while running.
"""

from __future__ import annotations

import asyncio
import types
from typing import Any

import pytest
from backend_helpers import Factory, RecordingSink, SinkAdapter
from test_mutation_guards_ray import FakeActorHandle, FakeRay, FakeReaper, _run, _unit

from lifebench.errors import FatalProviderError
from lifebench.runner import UnitStatus
from lifebench.runner import _ray as ray_module
from lifebench.runner._errors import RunStopped
from lifebench.runner._ray import RayBackend, check_reachable


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, float]]:
    seen: list[tuple[Any, float]] = []

    class Connected:
        def __enter__(self) -> Connected:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

    def connect(address: tuple[str, int], timeout: float) -> Connected:
        seen.append((address, timeout))
        return Connected()

    monkeypatch.setattr("socket.create_connection", connect)
    return seen


def test_a_url_in_the_path_does_not_move_the_checked_address(
    connections: list[tuple[Any, float]],
) -> None:
    check_reachable("ray://head.example:10001/job?src=s3://bucket", timeout_s=2.5)
    assert connections == [(("head.example", 10001), 2.5)]


def test_only_the_first_scheme_separator_counts(connections: list[tuple[Any, float]]) -> None:
    # after the scheme, "head:1://x" up to its first "/" is "head:1:": no port, left to Ray
    check_reachable("ray://head:1://x")
    assert connections == []


class ScriptedRay(FakeRay):
    """A fake Ray whose actors die on unit ``dies`` and never finish unit ``slow``."""

    def remote(self, **options: Any) -> Any:
        wrap = super().remote(**options)

        def wrapped(cls: type) -> Any:
            actor_class = wrap(cls)

            class Scripted:
                @staticmethod
                def remote(*args: Any) -> FakeActorHandle:
                    handle = actor_class.remote(*args)
                    run = handle.run.remote

                    async def scripted(unit: Any) -> Any:
                        if unit.task_id.startswith("dies"):
                            raise FakeRay.exceptions.RayActorError("actor process gone")
                        if unit.task_id == "slow":
                            await asyncio.Event().wait()
                        return await run(unit)

                    handle.run = types.SimpleNamespace(remote=scripted)
                    return handle

            return Scripted

        return wrapped


def test_a_dead_actor_records_its_unit_as_an_infrastructure_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sink = _run(monkeypatch, ScriptedRay(), [_unit("dies")], workers=1)
    (packed,) = sink.finished
    assert packed.unit.task_id == "dies" and packed.status is UnitStatus.INFRA_ERROR
    assert packed.error == "Ray actor 0 died: actor process gone"
    assert sink.cancelled == []


def test_a_fatal_error_cancels_the_other_units_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_module, "import_ray", ScriptedRay)
    monkeypatch.setattr("lifebench.models._secrets.scrub_logs", lambda *a: None)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    backend = RayBackend(Factory(), 2, 2)
    backend._reaper = FakeReaper()  # type: ignore[assignment]
    sink = RecordingSink(2)
    slow, fatal = _unit("slow"), _unit("fatal")
    with pytest.raises(FatalProviderError, match="key revoked"):
        asyncio.run(backend.run([slow, fatal], SinkAdapter(sink)))  # type: ignore[arg-type]
    assert sink.cancelled == [
        (fatal, "run stopped: key revoked"),
        (slow, "cancelled while running"),
    ]
    assert sink.finished == []


def test_an_upper_case_host_is_checked_as_written(connections: list[tuple[Any, float]]) -> None:
    # only IPv6 brackets are taken off the host
    check_reachable("ray://NODEX:10001", timeout_s=2.5)
    assert connections == [(("NODEX", 10001), 2.5)]


def test_an_address_in_the_callers_init_arguments_starts_no_reaper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    backend = RayBackend(Factory(), 2, 2, init_kwargs={"address": "head:6379"})
    reaper = FakeReaper()
    backend._reaper = reaper  # type: ignore[assignment]
    ray = FakeRay()
    assert backend._connect(ray) is True
    assert ray.inits == [
        {"include_dashboard": False, "log_to_driver": False, "address": "head:6379"}
    ]
    assert reaper.events == []  # the caller's cluster: nothing of ours to reap


def test_every_unit_of_a_dead_actor_is_written_before_the_run_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ray_module, "import_ray", ScriptedRay)
    monkeypatch.setattr("lifebench.models._secrets.scrub_logs", lambda *a: None)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    backend = RayBackend(Factory(), 1, 2)
    backend._reaper = FakeReaper()  # type: ignore[assignment]
    sink = RecordingSink(2)
    units = [_unit("dies"), _unit("dies-too"), _unit("left")]
    with pytest.raises(RunStopped, match="every Ray actor died; 1 unit"):
        asyncio.run(backend.run(units, SinkAdapter(sink)))  # type: ignore[arg-type]
    assert sorted(p.unit.task_id for p in sink.finished) == ["dies", "dies-too"]
    assert all(p.status is UnitStatus.INFRA_ERROR for p in sink.finished)
    assert sink.cancelled == []
