"""Layers 2 and 3 of a run: build everything from :class:`RunOptions`, then batch it.

Layer 1 is :func:`lifebench.simulation.run_episode` plus the evaluators (no I/O). This module
selects tasks, derives per-unit seeds, opens the run store, builds models, and hands
``execute_unit`` to the scheduler, which commits every finished unit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lifebench._util.hashing import derive_seed
from lifebench.errors import InfrastructureError, InputError
from lifebench.evaluation import BasisResult, Evaluation, Evaluator, JudgeError, combine
from lifebench.messages import Usage
from lifebench.models import ModelFactory
from lifebench.models._cache import ModelCache
from lifebench.runner._progress import Progress
from lifebench.runner._scheduler import RunSummary, run_units
from lifebench.runner._store import RunStore
from lifebench.runner._units import UnitOutcome, WorkUnit
from lifebench.simulation import Simulation, TerminationReason, run_episode
from lifebench.suites import RunOptions, Suite, get_suite
from lifebench.suites._options import MODEL_ROLES
from lifebench.suites._run_tasks import load_run_tasks

CACHE_FILENAME = "model_cache.sqlite"


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
    """One unit per (task, trial), each with a seed derived from the run seed (sha256)."""
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

    async def execute_unit(self, unit: WorkUnit) -> UnitOutcome:
        """Simulate and grade one unit (layer 1), with no I/O of its own."""
        task = self.tasks[unit.task_id]
        episode = self.suite.build_episode(task, unit.trial, unit.seed, self.options, self.models)
        simulation = await run_episode(episode)
        if simulation.termination is TerminationReason.INFRASTRUCTURE_ERROR:
            return UnitOutcome(simulation=simulation, error=simulation.error, infra=True)
        evaluation = await evaluate(task, simulation, self.evaluators, self.bases)
        return UnitOutcome(simulation=simulation, evaluation=evaluation)


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
    and never a reason to re-run the rollout.
    """
    results = dict(previous.by_basis) if previous is not None else {}
    errors: list[str] = []
    for name, evaluator in evaluators.items():
        try:
            results[name] = await evaluator.evaluate(task, simulation)
        except (JudgeError, InfrastructureError) as exc:
            errors.append(f"{name}: {exc}")
            spent = exc.usage if isinstance(exc, JudgeError) else Usage.zero()
            results[name] = BasisResult(
                basis=name, reward=0.0, score=0.0, usage=spent, note=f"failed: {exc}"
            )
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


def build_experiment(
    options: RunOptions,
    *,
    models: ModelFactory | None = None,
    sleep: Callable[[float], Awaitable[None]] | None = None,
) -> Experiment:
    """Resolve the suite, load and select tasks, and build models and evaluators."""
    suite = get_suite(options.suite)
    source = Path(options.tasks_file) if options.tasks_file else None
    domain = suite.resolve_domain(source, options.domain)
    if domain != options.domain:
        options = options.model_copy(update={"domain": domain})
    tasks = select_tasks(load_run_tasks(suite, source, domain, options), options)
    run_dir = Path(options.out) if options.out else default_run_dir(options)
    if models is None:
        cache = ModelCache(run_dir / CACHE_FILENAME) if options.cache else None
        kwargs: dict[str, Any] = {"cache": cache}
        if sleep is not None:
            kwargs["sleep"] = sleep
        models = (
            ModelFactory.from_file(options.models_file, **kwargs)
            if options.models_file
            else ModelFactory(**kwargs)
        )
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


def _observed_sleep(progress: Progress) -> Callable[[float], Awaitable[None]]:
    """A backoff sleep that shows the unit as retrying while it waits."""

    async def sleep(seconds: float) -> None:
        progress.retrying(+1)
        try:
            await asyncio.sleep(seconds)
        finally:
            progress.retrying(-1)

    return sleep


async def run_experiment(
    options: RunOptions, *, models: ModelFactory | None = None, progress: Progress | None = None
) -> tuple[Experiment, RunSummary]:
    """Build the run from ``options`` and execute every unit not yet done (resuming)."""
    progress = progress or Progress(quiet=options.quiet)
    exp = build_experiment(options, models=models, sleep=_observed_sleep(progress))
    options = exp.options  # with the domain resolved
    exp.run_dir.mkdir(parents=True, exist_ok=True)
    config = {**options.semantic_dict(), "bases": exp.bases}
    store = RunStore.open(
        exp.run_dir,
        config,
        options.config_hash(),
        {i: t.content_hash() for i, t in exp.tasks.items()},
        {i: t.model_dump_json() for i, t in exp.tasks.items()},
    )
    try:
        summary = await run_units(exp.units, exp.execute_unit, store, options.concurrency, progress)
    finally:
        store.close()
        await exp.models.aclose()
    return exp, summary
