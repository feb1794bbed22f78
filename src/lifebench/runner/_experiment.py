"""Layers 2 and 3 of a run: build everything from :class:`RunOptions`, then batch it.

Layer 1 is :func:`lifebench.simulation.run_episode` plus the evaluators (no I/O). This module
selects tasks, derives per-unit seeds, opens the run store, builds models, and hands
``execute_unit`` to the scheduler, which commits every finished unit. With several workers
or on Ray, each worker process / actor builds the same experiment from
:class:`ExperimentExecutorFactory` (the options and the tasks' JSON) and executes the units
the writer hands it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lifebench._util.hashing import derive_seed
from lifebench.errors import FatalProviderError, InfrastructureError, InputError
from lifebench.evaluation import Evaluation, Evaluator, JudgeError, combine, failed_basis
from lifebench.models import ModelFactory
from lifebench.models._cache import ModelCache
from lifebench.models._record import grading, recording
from lifebench.runner._progress import Progress
from lifebench.runner._provenance import collect
from lifebench.runner._scheduler import Backend, RunSummary, run_units
from lifebench.runner._store import RunStore
from lifebench.runner._transcript import UnitRecorder
from lifebench.runner._units import UnitOutcome, WorkUnit
from lifebench.simulation import Simulation, TerminationReason, run_episode
from lifebench.suites import RunOptions, RunWarmer, Suite, get_suite
from lifebench.suites._options import (
    MAX_UNITS,
    MAX_WORKERS,
    MODEL_ROLES,
    config_hash_of,
    make_run_options,
)
from lifebench.suites._run_tasks import load_run_tasks

_log = logging.getLogger(__name__)

CACHE_FILENAME = "model_cache.sqlite"
REJECTED_FLAG = "content_rejected"
"""Key of ``Simulation.info`` set when the episode ended because the provider rejected a
request for its content (:class:`~lifebench.errors.ContentRejectedError`)."""


@dataclass(frozen=True)
class ExecutionPlan:
    """Where units run: this process (``workers=1``), ``workers`` local processes, or
    ``workers`` Ray actors (``backend="ray"``, on the cluster at ``ray_address``)."""

    backend: Literal["local", "ray"] = "local"
    workers: int = 1
    ray_address: str | None = None
    ray_init: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 1 <= self.workers <= MAX_WORKERS:
            raise InputError(f"must be 1 to {MAX_WORKERS}, got {self.workers}", field="--workers")


def select_tasks(tasks: Sequence[Any], options: RunOptions) -> list[Any]:
    """Apply ``--task-ids`` then ``--num-tasks`` (both may be given; neither overrides)."""
    chosen = list(tasks)
    if options.task_ids:
        known = {t.id for t in chosen}
        missing = [i for i in options.task_ids if i not in known]
        if missing:
            raise InputError(
                f"unknown task id(s): {', '.join(missing)}",
                file=options.tasks_file or "(bundled tasks)",
                field="--task-ids",
            )
        wanted = set(options.task_ids)
        chosen = [t for t in chosen if t.id in wanted]
    if options.num_tasks is not None:
        chosen = chosen[: options.num_tasks]
    if not chosen:
        raise InputError("no tasks selected", file=options.tasks_file or "(bundled tasks)")
    return chosen


def plan_units(tasks: Sequence[Any], options: RunOptions) -> list[WorkUnit]:
    """One unit per (task, trial), each with a seed derived from the run seed (sha256); with
    ``user_seeds`` > 1, the replays of :mod:`lifebench.runner._replay` too.

    Raises:
        InputError: more than :data:`~lifebench.suites._options.MAX_UNITS` units.
    """
    count = len(tasks) * options.trials * max(1, options.user_seeds)
    if count > MAX_UNITS:
        raise InputError(
            f"{len(tasks)} tasks × {options.trials} trials = {count:,} units, more than the "
            f"{MAX_UNITS:,} one run takes; select fewer tasks (--num-tasks, --task-ids) or trials",
            field="--trials",
        )
    if options.user_seeds > 1:
        from lifebench.runner import _replay

        return _replay.plan(tasks, options)
    return [
        WorkUnit(task_id=t.id, trial=trial, seed=derive_seed(options.seed, t.id, trial))
        for t in tasks
        for trial in range(options.trials)
    ]


def default_run_dir(options: RunOptions) -> Path:
    """``runs/<suite>-<domain>-<agent>-<user>-<config hash>``: the same command → the same dir."""
    name = f"{options.suite}-{options.domain}-{options.agent}-{options.user}-{options.config_hash()[:10]}"
    return Path("runs") / name


@dataclass
class Experiment:
    """A run, fully built: suite, tasks, units, models, evaluators and the store."""

    options: RunOptions
    suite: Suite
    tasks: dict[str, Any]
    units: list[WorkUnit]
    models: ModelFactory
    evaluators: dict[str, Evaluator]
    bases: list[str]
    run_dir: Path
    notes: list[str] = field(default_factory=list)
    """What resuming noticed (see :attr:`RunStore.notes`), filled by :func:`run_experiment`."""
    _warming: asyncio.Task[None] | None = field(default=None, init=False, repr=False)
    _recorder: UnitRecorder = field(default_factory=UnitRecorder, init=False, repr=False)

    async def execute_unit(self, unit: WorkUnit) -> UnitOutcome:
        """Simulate and grade one unit (layer 1), with no I/O of its own.

        A provider that rejected a request for its content ends the unit as ``rejected``
        (with its trajectory so far); a :class:`FatalProviderError` propagates (the run stops).
        The first call also starts the suite's warm-up (:class:`~lifebench.suites.RunWarmer`).
        """
        if self._warming is None or self._warming.get_loop() is not asyncio.get_running_loop():
            # Scheduled behind the units already started: it begins once they all wait (for
            # the endpoint's first answer), so the thread uses time the event loop is idle.
            self._warming = asyncio.create_task(self._warm_up())
        task = self.tasks[unit.task_id]
        log = self._recorder.log() if self.options.record_requests else None
        replays = self.options.user_seeds > 1
        with recording(log):  # every model call of the unit goes into its log
            if replays:
                from lifebench.runner import _replay

                episode = _replay.replay_episode(self.suite, task, unit, self.options, self.models)
            else:
                episode = self.suite.build_episode(
                    task, unit.trial, unit.seed, self.options, self.models
                )
            if log is not None:
                self._recorder.brief(log, episode)
            simulation = await run_episode(episode)
            if replays:
                simulation = _replay.mark(simulation, unit, self.options)
            evaluation = None
            if simulation.termination is not TerminationReason.INFRASTRUCTURE_ERROR:
                evaluation = await evaluate(task, simulation, self.evaluators, self.bases)
        calls = None if log is None else log.pack()
        if evaluation is None:
            rejected = bool(simulation.info.get(REJECTED_FLAG))
            return UnitOutcome(
                simulation=simulation,
                error=simulation.error,
                infra=not rejected,
                rejected=rejected,
                calls=calls,
            )
        return UnitOutcome(simulation=simulation, evaluation=evaluation, calls=calls)

    async def execute(self, unit: WorkUnit) -> UnitOutcome:
        """:class:`~lifebench.runner._workers.UnitExecutor`: :meth:`execute_unit`."""
        return await self.execute_unit(unit)

    async def _warm_up(self) -> None:
        if not isinstance(self.suite, RunWarmer):
            return
        try:
            await asyncio.to_thread(self.suite.warm_up, self.options, list(self.tasks.values()))
        except Exception as exc:  # only memos were being filled: the units compute their own
            _log.warning("the %s suite's warm-up failed: %s", self.options.suite, exc)

    async def aclose(self) -> None:
        """Wait for the warm-up, if one runs, and close the models (HTTP clients, cache)."""
        warming, self._warming = self._warming, None
        if warming is not None and warming.get_loop() is asyncio.get_running_loop():
            with contextlib.suppress(asyncio.CancelledError):
                await warming
        await self.models.aclose()


async def evaluate(
    task: Any,
    simulation: Simulation,
    evaluators: Mapping[str, Evaluator],
    bases: Sequence[str],
    previous: Evaluation | None = None,
) -> Evaluation:
    """Grade ``simulation`` with every evaluator; the reward is the product of ``bases``.

    Results of ``previous`` for bases not recomputed now are kept (re-grading adds a basis
    without losing the others). A judge that fails after its re-asks — or whose model call
    fails — yields an evaluation *error*: recorded, excluded from the metrics until re-graded,
    and never a reason to re-run the rollout (a judge request rejected for its content is one).
    A :class:`FatalProviderError` (the judge's provider refuses every call) propagates.
    """
    results = dict(previous.by_basis) if previous is not None else {}
    errors: list[str] = []
    for name, evaluator in evaluators.items():
        try:
            with grading(name):  # recorded judge calls name the basis they grade
                results[name] = await evaluator.evaluate(task, simulation)
        except FatalProviderError:
            raise
        except (JudgeError, InfrastructureError) as exc:
            errors.append(f"{name}: {exc}")
            results[name] = failed_basis(name, exc)
    missing = [b for b in bases if b not in results]
    if errors or missing:  # judge tokens already spent are kept in the failed basis
        detail = "; ".join(errors) or f"bases not computed: {', '.join(missing)}"
        return Evaluation(
            reward=0.0,
            basis="+".join(bases),
            by_basis=results,
            error=f"evaluation failed: {detail}",
        )
    return combine(results, list(bases))


def _load_tasks(suite: Suite, options: RunOptions) -> tuple[RunOptions, list[Any]]:
    """Resolve the domain and load and select the tasks (input problems as InputError)."""
    source = Path(options.tasks_file) if options.tasks_file else None
    domain = suite.resolve_domain(source, options.domain)
    if domain != options.domain:
        options = options.model_copy(update={"domain": domain})
    try:
        loaded = load_run_tasks(suite, source, domain, options)
    except RecursionError:
        raise InputError(
            "the JSON is nested too deeply to read (hundreds of levels); is it a task file?",
            file=str(source) if source else "(bundled tasks)",
        ) from None
    return options, select_tasks(loaded, options)


def _build_models(
    options: RunOptions,
    run_dir: Path,
    sleep: Callable[[float], Awaitable[None]] | None,
    *,
    remote: bool = False,
) -> ModelFactory:
    """The run's models, with the call cache in ``run_dir`` (a worker on a machine without the
    run directory — a Ray node — runs without the cache)."""
    use_cache = options.cache and (not remote or run_dir.is_dir())
    cache = ModelCache(run_dir / CACHE_FILENAME) if use_cache else None
    kwargs: dict[str, Any] = {"cache": cache}
    if sleep is not None:
        kwargs["sleep"] = sleep
    if not options.models_file:
        return ModelFactory(**kwargs)
    try:
        return ModelFactory.from_file(options.models_file, **kwargs)
    except RecursionError:
        raise InputError(
            "nested too deeply to read (hundreds of levels)", file=options.models_file
        ) from None


def _assemble(
    options: RunOptions,
    suite: Suite,
    tasks: Sequence[Any],
    models: ModelFactory,
    run_dir: Path,
) -> Experiment:
    for role in MODEL_ROLES:
        spec = options.model_for(role)
        if spec:  # fail before the run, not once per unit
            try:
                models.resolve(spec)
            except InputError as exc:
                raise InputError(str(exc), field=f"--{role}-model") from None
    return Experiment(
        options=options,
        suite=suite,
        tasks={t.id: t for t in tasks},
        units=plan_units(tasks, options),
        models=models,
        evaluators=suite.build_evaluators(options, models),
        bases=suite.reward_bases(options),
        run_dir=run_dir,
    )


def build_experiment(
    options: RunOptions,
    *,
    models: ModelFactory | None = None,
    sleep: Callable[[float], Awaitable[None]] | None = None,
) -> Experiment:
    """Resolve the suite, load and select tasks, and build models and evaluators."""
    suite = get_suite(options.suite)
    options, tasks = _load_tasks(suite, options)
    run_dir = Path(options.out) if options.out else default_run_dir(options)
    if models is None:
        models = _build_models(options, run_dir, sleep)
    return _assemble(options, suite, tasks, models, run_dir)


@dataclass(frozen=True)
class ExperimentExecutorFactory:
    """Builds, in a worker process or Ray actor, the experiment the writer runs: from the run's
    options (JSON, model specs unscrubbed: the worker calls the models) and the selected
    tasks' JSON (so the task file need not exist where the worker runs). Pickles."""

    options: dict[str, Any]
    task_data: dict[str, str]
    run_dir: str

    @classmethod
    def of(cls, exp: Experiment) -> ExperimentExecutorFactory:
        """The factory that rebuilds ``exp`` elsewhere."""
        return cls(
            options=exp.options.model_dump(mode="json"),
            task_data={i: t.model_dump_json() for i, t in exp.tasks.items()},
            run_dir=str(exp.run_dir),
        )

    def __call__(self) -> Experiment:
        options = make_run_options(self.options)
        suite = get_suite(options.suite)
        tasks = [suite.parse_task(self.task_data[i]) for i in self.task_data]
        run_dir = Path(self.run_dir)
        models = _build_models(options, run_dir, None, remote=True)
        return _assemble(options, suite, tasks, models, run_dir)


def grading_description(options: RunOptions, bases: Sequence[str]) -> dict[str, Any]:
    """What defines the reward of a grading: evaluator, judge (scrubbed), bases and the suite's
    options (VitaBench: judge variant, window, overlap, …)."""
    semantic = options.semantic_dict()
    return {
        "evaluator": options.evaluator,
        "judge_model": semantic.get("judge_model"),
        "bases": list(bases),
        "suite_options": semantic.get("suite_options") or {},
    }


def _backend(exp: Experiment, plan: ExecutionPlan, pool: Any = None) -> Backend | None:
    """The backend of ``plan`` (None: the default, this event loop); ``pool``: the
    :class:`~lifebench.runner._workers.WorkerPool` spawned for it."""
    concurrency = exp.options.concurrency
    if plan.backend == "ray":
        from lifebench.runner._ray import RayBackend

        return RayBackend(
            ExperimentExecutorFactory.of(exp),
            plan.workers,
            concurrency,
            plan.ray_address,
            plan.ray_init,
        )
    if plan.workers > 1:
        from lifebench.runner._workers import ProcessBackend

        return ProcessBackend(
            ExperimentExecutorFactory.of(exp), plan.workers, concurrency, local=exp, pool=pool
        )
    return None


def _observed_sleep(progress: Progress) -> Callable[[float], Awaitable[None]]:
    """A backoff sleep that shows the unit as retrying while it waits."""

    async def sleep(seconds: float) -> None:
        progress.retrying(+1)
        try:
            await asyncio.sleep(seconds)
        finally:
            progress.retrying(-1)

    return sleep


async def _grade_failed_again(exp: Experiment, store: RunStore) -> int:
    """Grade again, from their stored trajectories, the done units of this run whose earlier
    grading failed (nothing is simulated again); returns how many were graded."""
    from lifebench.runner._regrade import grade_records, needs_grading, refreshing_models

    if not _grading_failures(exp, store):  # (in SQL, without reading every trajectory)
        return 0
    wanted = {(u.task_id, u.trial) for u in exp.units}
    records = [
        r
        for r in store.results()
        if r.status == "done"
        and r.simulation is not None
        and (r.task_id, r.trial) in wanted
        and needs_grading(r)
    ]
    if records:  # fresh judge calls: the cached answers are the ones that failed
        models = refreshing_models(exp.run_dir, exp.options)
        try:
            evaluators = exp.suite.build_evaluators(exp.options, models)
            await grade_records(
                store,
                records,
                exp.tasks,
                evaluators,
                exp.bases,
                exp.options.concurrency,
                record_requests=exp.options.record_requests,
            )
        finally:
            await models.aclose()
    return len(records)


def _grading_failures(exp: Experiment, store: RunStore) -> int:
    """Done units of this run whose stored grading failed."""
    failed = store.failed_gradings()
    return sum(1 for u in exp.units if (u.task_id, u.trial) in failed)


async def run_experiment(
    options: RunOptions,
    *,
    models: ModelFactory | None = None,
    progress: Progress | None = None,
    plan: ExecutionPlan | None = None,
    on_ready: Callable[[], object] | None = None,
) -> tuple[Experiment, RunSummary]:
    """Build the run from ``options`` and execute every unit not yet done (resuming), on the
    backend of ``plan`` (default: this process).

    ``on_ready`` is called once the experiment is built and its store opened, right before
    the first unit starts (the CLI settles its garbage-collector policy there:
    :class:`lifebench._util.gcpolicy.BatchGC`)."""
    plan = plan or ExecutionPlan()
    pool = None
    spawn = min(plan.workers, _most_units(options)) - 1
    if plan.backend == "local" and spawn > 0:
        # the worker processes import while this one loads the tasks and opens the store
        from lifebench.runner._workers import WorkerPool

        pool = WorkerPool(spawn, options.suite)
    try:
        return await _run_experiment(options, models, progress, plan, on_ready, pool)
    finally:
        if pool is not None:
            pool.close()  # the processes the backend did not take (a run that stopped early)


def _most_units(options: RunOptions) -> int:
    """The most units the run can have, as far as its options tell before its tasks are
    loaded (``--num-tasks``, ``--task-ids``, ``--trials``, ``--user-seeds``)."""
    counts = [n for n in (options.num_tasks, len(set(options.task_ids))) if n]
    if not counts:
        return MAX_UNITS
    return min(counts) * options.trials * max(1, options.user_seeds)


async def _run_experiment(
    options: RunOptions,
    models: ModelFactory | None,
    progress: Progress | None,
    plan: ExecutionPlan,
    on_ready: Callable[[], object] | None,
    pool: Any,
) -> tuple[Experiment, RunSummary]:
    progress = progress or Progress(quiet=options.quiet)
    exp = build_experiment(options, models=models, sleep=_observed_sleep(progress))
    options = exp.options  # with the domain resolved
    config = {**options.semantic_dict(), "bases": exp.bases}
    try:
        hashes = {i: t.content_hash() for i, t in exp.tasks.items()}
        provenance = collect(options, hashes, exp.evaluators, exp.models.resolve)
        store = RunStore.open(
            exp.run_dir,
            config,
            options.config_hash(),
            hashes,
            {i: t.model_dump_json() for i, t in exp.tasks.items()},
            rehash=config_hash_of,
            provenance=provenance,
        )
    except BaseException:
        await exp.aclose()
        raise
    exp.notes = store.notes
    try:
        if on_ready is not None:
            on_ready()
        grading = store.begin_grading(
            "run", grading_description(options, exp.bases), len(exp.units), provenance
        )
        regraded = await _grade_failed_again(exp, store)
        summary = await run_units(
            exp.units,
            exp.execute_unit,
            store,
            options.concurrency,
            progress,
            backend=_backend(exp, plan, pool),
        )
        failed = _grading_failures(exp, store)
        summary = dataclasses.replace(summary, regraded=regraded, grading_errors=failed)
        store.finish_grading(grading, summary.done + regraded, failed)
    finally:
        store.close()
        await exp.aclose()
    return exp, summary
