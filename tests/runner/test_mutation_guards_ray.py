"""Mutation guards for ``runner/_ray.py``: what the Ray backend does around its dispatch loop
(the loop itself is tests/runner/test_backend_invariants.py).

* a cluster address is checked at the host and port it names, whatever its scheme, path or
  brackets, within the timeout; an address without a port is left to Ray;
* Ray Client gives up on a silent address quickly unless the user set its timeouts;
* connecting: an existing ``ray.init`` is used as it is; otherwise Ray is started without
  dashboard or log forwarding (the caller's init arguments win), at the address given, else
  ``RAY_ADDRESS``, else locally under a reaper; a failure names where it tried;
* an actor builds its executor once, returns each unit's packed outcome, turns a fatal provider
  error into a message the driver re-raises, and closes its executor;
* a run makes no more actors than units, spreads them without reserving CPUs, removes them
  afterwards and stops the Ray it started (only that one).

Ray itself is faked (a namespace with the calls the backend makes): nothing starts.
"""

from __future__ import annotations

import asyncio
import os
import socket
import types
from typing import Any

import pytest
from backend_helpers import Executor, Factory, RecordingSink, SinkAdapter

from lifebench.errors import FatalProviderError, LifebenchError
from lifebench.runner import UnitStatus, WorkUnit
from lifebench.runner import _ray as ray_module
from lifebench.runner._errors import RunStopped
from lifebench.runner._ray import RayBackend, _UnitActor, check_reachable, import_ray
from lifebench.runner._units import PackedOutcome

# ------------------------------------------------------------------------ the address


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

    monkeypatch.setattr(socket, "create_connection", connect)
    return seen


@pytest.mark.parametrize(
    ("address", "target"),
    [
        ("ray://head.example:10001", ("head.example", 10001)),
        ("  head.example:6379  ", ("head.example", 6379)),
        ("ray://head.example:10001/some/path", ("head.example", 10001)),
        ("ray://[::1]:10001", ("::1", 10001)),
    ],
    ids=["client", "blanks", "path", "ipv6"],
)
def test_an_address_is_checked_at_its_host_and_port(
    connections: list[tuple[Any, float]], address: str, target: tuple[str, int]
) -> None:
    check_reachable(address, timeout_s=2.5)
    assert connections == [(target, 2.5)]


@pytest.mark.parametrize("address", ["head:", "head:port", ":6379", "ray://:6379", "auto"])
def test_an_address_without_host_or_port_is_left_to_ray(
    connections: list[tuple[Any, float]], address: str
) -> None:
    check_reachable(address)
    assert connections == []


def test_the_default_timeout_is_ten_seconds(connections: list[tuple[Any, float]]) -> None:
    check_reachable("h:1")
    assert connections == [(("h", 1), 10.0)]


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (TimeoutError(), "no answer within 2.5 s"),
        (ConnectionRefusedError(111, "Connection refused"), "Connection refused"),
        (OSError(), "OSError"),
    ],
    ids=["timeout", "refused", "no-text"],
)
def test_an_unreachable_address_stops_the_run_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, error: OSError, reason: str
) -> None:
    def fail(address: tuple[str, int], timeout: float) -> None:
        raise error

    monkeypatch.setattr(socket, "create_connection", fail)
    with pytest.raises(RunStopped) as caught:
        check_reachable("ray://h:10001", timeout_s=2.5)
    assert str(caught.value) == (
        f"cannot reach the Ray cluster at --ray-address ray://h:10001: {reason}. Give the "
        "head's address (host:6379, or ray://host:10001 for Ray Client), or leave it out "
        "to start a local Ray instance"
    )
    assert caught.value.__suppress_context__


# ----------------------------------------------------------------------- importing Ray


def test_ray_client_gives_up_quickly_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S", raising=False)
    monkeypatch.setenv("RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S", "99")
    fake = types.ModuleType("ray")
    monkeypatch.setitem(__import__("sys").modules, "ray", fake)
    assert import_ray() is fake
    assert os.environ["RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S"] == "3"
    assert os.environ["RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S"] == "99"  # the user's own wins
    monkeypatch.delenv("RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S")
    import_ray()
    assert os.environ["RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S"] == "5"


def test_without_ray_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "ray", None)  # import ray → ImportError
    with pytest.raises(LifebenchError) as caught:
        import_ray()
    assert str(caught.value) == (
        "--backend ray needs Ray, an optional extra: pip install 'lifebench[ray]'"
    )
    assert caught.value.__suppress_context__


# -------------------------------------------------------------------------- connecting


class FakeReaper:
    def __init__(self) -> None:
        self.events: list[str] = []

    def start(self) -> None:
        self.events.append("start")

    def done(self) -> None:
        self.events.append("done")


class FakeRay:
    """The calls the backend makes on the ``ray`` module."""

    class exceptions:
        class RayError(Exception):
            pass

        class RayActorError(RayError):
            pass

    def __init__(self, *, initialized: bool = False, init_error: Exception | None = None):
        self.initialized = initialized
        self.init_error = init_error
        self.inits: list[dict[str, Any]] = []
        self.remote_options: list[dict[str, Any]] = []
        self.actors: list[FakeActorHandle] = []
        self.killed: list[FakeActorHandle] = []
        self.shutdowns = 0

    def is_initialized(self) -> bool:
        return self.initialized

    def init(self, **kwargs: Any) -> None:
        self.inits.append(kwargs)
        if self.init_error is not None:
            raise self.init_error
        self.initialized = True

    def remote(self, **options: Any) -> Any:
        self.remote_options.append(options)

        def wrap(cls: type) -> Any:
            ray = self

            class ActorClass:
                @staticmethod
                def remote(*args: Any) -> FakeActorHandle:
                    handle = FakeActorHandle(cls(*args))
                    ray.actors.append(handle)
                    return handle

            return ActorClass

        return wrap

    def kill(self, actor: FakeActorHandle) -> None:
        self.killed.append(actor)
        if actor.kill_fails:
            raise ValueError("already gone")

    def shutdown(self) -> None:
        self.shutdowns += 1
        self.initialized = False


class FakeActorHandle:
    def __init__(self, actor: _UnitActor) -> None:
        self.actor = actor
        self.kill_fails = False
        self.run = types.SimpleNamespace(remote=lambda unit: asyncio.ensure_future(actor.run(unit)))


def backend(
    monkeypatch: pytest.MonkeyPatch, address: str | None = None, **init: Any
) -> tuple[RayBackend, FakeReaper]:
    monkeypatch.setattr(ray_module, "check_reachable", lambda address: None)
    b = RayBackend(Factory(), 2, 2, address=address, init_kwargs=init or None)
    reaper = FakeReaper()
    b._reaper = reaper  # type: ignore[assignment]
    return b, reaper


def test_an_existing_ray_is_used_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    b, reaper = backend(monkeypatch, "h:1")
    ray = FakeRay(initialized=True)
    assert b._connect(ray) is False
    assert ray.inits == [] and reaper.events == []


def test_a_local_ray_is_started_quietly_under_a_reaper(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    b, reaper = backend(monkeypatch, num_cpus=2)
    ray = FakeRay()
    assert b._connect(ray) is True
    assert ray.inits == [{"include_dashboard": False, "log_to_driver": False, "num_cpus": 2}]
    assert reaper.events == ["start"]


def test_the_callers_init_arguments_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    b, reaper = backend(monkeypatch, include_dashboard=True, address="given")
    ray = FakeRay()
    b._connect(ray)
    assert ray.inits == [{"include_dashboard": True, "log_to_driver": False, "address": "given"}]
    assert reaper.events == []  # a cluster of the caller's: nothing to reap


def test_the_address_given_else_ray_address(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    monkeypatch.setenv("RAY_ADDRESS", "env-head:6379")
    b, reaper = backend(monkeypatch, "given:6379")
    monkeypatch.setattr(ray_module, "check_reachable", checked.append)
    ray = FakeRay()
    b._connect(ray)
    assert ray.inits[0]["address"] == "given:6379"
    b2, reaper2 = backend(monkeypatch)
    monkeypatch.setattr(ray_module, "check_reachable", checked.append)
    ray2 = FakeRay()
    b2._connect(ray2)
    assert ray2.inits[0]["address"] == "env-head:6379"
    assert checked == ["given:6379", "env-head:6379"]
    assert reaper.events == reaper2.events == []


@pytest.mark.parametrize(
    ("address", "where"),
    [("h:1", "the Ray cluster at h:1"), (None, "a local Ray instance")],
    ids=["cluster", "local"],
)
def test_a_failed_start_names_where_and_releases_the_reaper(
    monkeypatch: pytest.MonkeyPatch, address: str | None, where: str
) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    b, reaper = backend(monkeypatch, address)
    with pytest.raises(RunStopped) as caught:
        b._connect(FakeRay(init_error=ConnectionError("refused by head")))
    assert str(caught.value) == f"could not connect to {where}: refused by head"
    assert reaper.events[-1] == "done"


# ------------------------------------------------------------------------------- actors


def _unit(task: str = "t1") -> WorkUnit:
    return WorkUnit(task, 0, 7)


def test_an_actor_builds_its_executor_once_and_closes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Executor] = []
    closed: list[Executor] = []

    class Closing(Executor):
        async def aclose(self) -> None:
            closed.append(self)

    def factory() -> Executor:
        built.append(Closing())
        return built[-1]

    monkeypatch.setattr("lifebench.models._secrets.scrub_logs", lambda *a: None)
    actor = _UnitActor(factory)  # type: ignore[arg-type]

    async def scenario() -> list[tuple[Any, ...]]:
        await actor.close()  # nothing built yet: nothing to close
        results = [await actor.run(_unit("a")), await actor.run(_unit("b"))]
        await actor.close()
        return results

    results = asyncio.run(scenario())
    assert len(built) == 1 and closed == built
    assert [r[0] for r in results] == ["done", "done"]
    assert isinstance(results[0][1], PackedOutcome) and results[0][1].unit == _unit("a")
    assert results[0][1].status is UnitStatus.DONE


def test_an_actor_reports_a_fatal_provider_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("lifebench.models._secrets.scrub_logs", lambda *a: None)
    actor = _UnitActor(Factory())
    assert asyncio.run(actor.run(_unit("fatal"))) == ("fatal", "key revoked", 401)
    packed = asyncio.run(actor.run(_unit("boom")))
    assert packed[0] == "done" and packed[1].status is UnitStatus.INFRA_ERROR


def test_an_actor_scrubs_its_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr("lifebench.models._secrets.scrub_logs", lambda *a: calls.append(a))
    _UnitActor(Factory())
    assert calls == [()]


# ----------------------------------------------------------------------------- a run


def _run(
    monkeypatch: pytest.MonkeyPatch, ray: FakeRay, units: list[WorkUnit], workers: int = 3
) -> RecordingSink:
    monkeypatch.setattr(ray_module, "import_ray", lambda: ray)
    monkeypatch.setattr("lifebench.models._secrets.scrub_logs", lambda *a: None)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    b = RayBackend(Factory(), workers, 2)
    b._reaper = FakeReaper()  # type: ignore[assignment]
    sink = RecordingSink(2)
    asyncio.run(b.run(units, SinkAdapter(sink)))  # type: ignore[arg-type]
    return sink


def test_a_run_makes_at_most_one_actor_per_unit_and_removes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ray = FakeRay()
    units = [_unit("a"), _unit("b")]
    sink = _run(monkeypatch, ray, units, workers=3)
    assert len(ray.actors) == 2
    assert ray.remote_options == [{"num_cpus": 0, "scheduling_strategy": "SPREAD"}]
    assert ray.killed == ray.actors
    assert ray.shutdowns == 1  # it started Ray, so it stops it
    assert sorted(p.unit.task_id for p in sink.finished) == ["a", "b"]


def test_a_run_on_an_existing_ray_leaves_it_running(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = FakeRay(initialized=True)
    sink = _run(monkeypatch, ray, [_unit("a")])
    assert ray.shutdowns == 0 and ray.inits == []
    assert len(ray.actors) == 1 and ray.killed == ray.actors
    assert [p.unit.task_id for p in sink.finished] == ["a"]


def test_an_actor_already_gone_does_not_stop_the_others_removal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ray = FakeRay()
    remote = ray.remote

    def flaky_remote(**options: Any) -> Any:
        wrap = remote(**options)

        def wrapped(cls: type) -> Any:
            actor_class = wrap(cls)
            make = actor_class.remote

            class Flaky:
                @staticmethod
                def remote(*args: Any) -> FakeActorHandle:
                    handle = make(*args)
                    handle.kill_fails = len(ray.actors) == 1
                    return handle

            return Flaky

        return wrapped

    ray.remote = flaky_remote  # type: ignore[method-assign]
    _run(monkeypatch, ray, [_unit("a"), _unit("b")], workers=2)
    assert ray.killed == ray.actors and ray.shutdowns == 1


def test_a_fatal_error_cancels_what_is_in_flight_and_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ray = FakeRay()
    with pytest.raises(FatalProviderError, match="key revoked"):
        _run(monkeypatch, ray, [_unit("fatal")], workers=1)
    assert ray.killed == ray.actors and ray.shutdowns == 1
