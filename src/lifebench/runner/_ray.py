"""``--backend ray``: units executed by Ray actors, written by this process alone.

Ray is optional (``pip install 'lifebench[ray]'``) and imported only here, when a run asks for
it. The driver (this process) keeps the run store and the writer lease exactly as with
``--workers``: it hands units to ``workers`` actors (at most ``concurrency`` in flight, each unit
to the actor with the fewest) and writes each packed outcome as it comes back. So results land
in the same ``run.sqlite``, a unit is written once, and resume works the same. An actor that
dies has its units in flight recorded as infrastructure errors.

Every node needs lifebench installed (and the API-key variables of the models it calls); the
tasks travel with the actors, so the task file need not exist on the nodes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections import deque
from collections.abc import Sequence
from typing import Any

from lifebench.errors import FatalProviderError, LifebenchError
from lifebench.runner._errors import RunStopped
from lifebench.runner._reaper import Reaper
from lifebench.runner._scheduler import Sink, execute_packed, infra_outcome
from lifebench.runner._units import PackedOutcome, WorkUnit
from lifebench.runner._workers import ExecutorFactory, UnitExecutor

CONNECT_TIMEOUT_S = 10.0
"""How long the cluster's address may take to accept a TCP connection before the run stops."""


def check_reachable(address: str, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """Refuse, within ``timeout_s``, a cluster address nothing answers at (``ray.init`` would
    wait for minutes). ``auto``/``local`` and addresses without a port are left to Ray.

    Raises:
        RunStopped: The host is unknown or does not accept a connection on the port.
    """
    target = address.strip()
    if "://" in target:
        target = target.split("://", 1)[1]
    target = target.split("/", 1)[0]
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    host = host.strip("[]")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            pass
    except OSError as exc:
        reason = (
            f"no answer within {timeout_s:g} s"
            if isinstance(exc, TimeoutError)
            else (exc.strerror or type(exc).__name__)
        )
        raise RunStopped(
            f"cannot reach the Ray cluster at --ray-address {address}: {reason}. Give the "
            "head's address (host:6379, or ray://host:10001 for Ray Client), or leave it out "
            "to start a local Ray instance"
        ) from None


_CLIENT_TIMEOUTS = {
    "RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S": "3",
    "RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S": "5",
}


def import_ray() -> Any:
    """The ``ray`` module, or one clear error saying how to install it.

    Ray Client (``ray://``) retries a silent address for 30 s by default; the driver's
    defaults (a user's own settings win) make it give up in about 13 s."""
    for name, value in _CLIENT_TIMEOUTS.items():
        os.environ.setdefault(name, value)
    try:
        import ray
    except ImportError:
        raise LifebenchError(
            "--backend ray needs Ray, an optional extra: pip install 'lifebench[ray]'"
        ) from None
    return ray


class _UnitActor:
    """A Ray actor: builds its executor on first use, then executes units concurrently."""

    def __init__(self, factory: ExecutorFactory) -> None:
        from lifebench.models._secrets import scrub_logs

        scrub_logs()  # what an actor logs lands in Ray's log files
        self._factory = factory
        self._executor: UnitExecutor | None = None

    async def run(self, unit: WorkUnit) -> tuple[Any, ...]:
        if self._executor is None:
            self._executor = self._factory()
        try:
            return ("done", await execute_packed(unit, self._executor.execute))
        except FatalProviderError as exc:
            return ("fatal", str(exc), exc.status)

    async def close(self) -> None:
        if self._executor is not None:
            await self._executor.aclose()


class RayBackend:
    """Executes units on Ray actors (see the module docstring).

    ``address`` is a cluster address for ``ray.init`` (None: an existing ``ray.init`` of this
    process, else ``RAY_ADDRESS``, else a local instance started for the run and stopped after).
    """

    def __init__(
        self,
        factory: ExecutorFactory,
        workers: int,
        concurrency: int,
        address: str | None = None,
        init_kwargs: dict[str, Any] | None = None,
    ) -> None:
        if workers < 1 or concurrency < 1:
            raise ValueError("workers and concurrency must be at least 1")
        self._factory, self._workers, self._concurrency = factory, workers, concurrency
        self._address = address
        self._init_kwargs = dict(init_kwargs or {})
        self._reaper = Reaper()

    def _connect(self, ray: Any) -> bool:
        """Connect to Ray; True when this call started it (and must shut it down). A local
        instance started here is watched by a :class:`~lifebench.runner._reaper.Reaper`, so
        its processes end within seconds of a killed driver."""
        if ray.is_initialized():
            return False
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            **self._init_kwargs,
        }
        address = self._address or os.environ.get("RAY_ADDRESS")
        if address:
            check_reachable(address)
            kwargs["address"] = address
        elif "address" not in kwargs:
            self._reaper.start()
        try:
            ray.init(**kwargs)
        except Exception as exc:
            self._reaper.done()
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise RunStopped(f"could not connect to {where}: {exc}") from None
        return True

    async def run(self, units: Sequence[WorkUnit], sink: Sink) -> None:
        """Create the actors, hand out ``units``, write what comes back; remove the actors."""
        ray = import_ray()
        started_ray = self._connect(ray)
        # num_cpus=0: actors wait on model endpoints, not CPUs; SPREAD: over the nodes.
        actor_class = ray.remote(num_cpus=0, scheduling_strategy="SPREAD")(_UnitActor)
        count = min(self._workers, len(units))
        actors = [actor_class.remote(self._factory) for _ in range(count)]
        inflight: list[dict[asyncio.Task[tuple[Any, ...]], WorkUnit]] = [{} for _ in actors]
        alive = [True] * count
        queue = deque(units)
        try:
            await self._loop(ray, actors, queue, inflight, alive, sink)
        finally:
            for index, tasks in enumerate(inflight):
                for task, unit in tasks.items():
                    task.cancel()
                    sink.cancelled(unit, "cancelled while running")
                inflight[index] = {}
            for actor in actors:
                with contextlib.suppress(Exception):  # already gone
                    ray.kill(actor)
            if started_ray:
                ray.shutdown()
                self._reaper.done()

    async def _loop(
        self,
        ray: Any,
        actors: list[Any],
        queue: deque[WorkUnit],
        inflight: list[dict[asyncio.Task[tuple[Any, ...]], WorkUnit]],
        alive: list[bool],
        sink: Sink,
    ) -> None:
        async def call(actor: Any, unit: WorkUnit) -> tuple[Any, ...]:
            result: tuple[Any, ...] = await actor.run.remote(unit)
            return result

        def dispatch() -> None:
            while queue and sum(map(len, inflight)) < self._concurrency:
                candidates = [i for i in range(len(actors)) if alive[i]]
                if not candidates:
                    return
                index = min(candidates, key=lambda i: (len(inflight[i]), i))
                unit = queue.popleft()
                sink.started(unit)
                task = asyncio.ensure_future(call(actors[index], unit))
                inflight[index][task] = unit

        dispatch()
        while any(inflight):
            waiting = {task: i for i, tasks in enumerate(inflight) for task in tasks}
            finished, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            for task in sorted(finished, key=lambda t: inflight[waiting[t]][t]):
                index = waiting[task]
                unit = inflight[index].pop(task)
                try:
                    result = task.result()
                except ray.exceptions.RayActorError as exc:
                    alive[index] = False
                    error = f"Ray actor {index} died: {exc}"
                    sink.finished(PackedOutcome.of(unit, infra_outcome(unit, error)))
                    continue
                except ray.exceptions.RayError as exc:
                    error = f"Ray could not run the unit: {exc}"
                    sink.finished(PackedOutcome.of(unit, infra_outcome(unit, error)))
                    continue
                if result[0] == "fatal":
                    sink.cancelled(unit, f"run stopped: {result[1]}")
                    raise FatalProviderError(result[1], status=result[2])
                sink.finished(result[1])
            if not any(alive) and queue:
                raise RunStopped(
                    f"every Ray actor died; {len(queue)} unit(s) did not run "
                    "(re-run the same command to resume)"
                )
            dispatch()
