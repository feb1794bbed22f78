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
from collections import deque
from collections.abc import Sequence
from typing import Any

from lifebench.errors import FatalProviderError, LifebenchError
from lifebench.runner._errors import RunStopped
from lifebench.runner._scheduler import Sink, execute_packed, infra_outcome
from lifebench.runner._units import PackedOutcome, WorkUnit
from lifebench.runner._workers import ExecutorFactory, UnitExecutor


def import_ray() -> Any:
    """The ``ray`` module, or one clear error saying how to install it."""
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

    def _connect(self, ray: Any) -> bool:
        """Connect to Ray; True when this call started it (and must shut it down)."""
        if ray.is_initialized():
            return False
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            **self._init_kwargs,
        }
        address = self._address or os.environ.get("RAY_ADDRESS")
        if address:
            kwargs["address"] = address
        try:
            ray.init(**kwargs)
        except Exception as exc:
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
