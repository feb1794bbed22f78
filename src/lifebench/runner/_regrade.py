"""Re-grading saved trajectories (``lifebench eval``) without re-running them."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lifebench.errors import InputError, LifebenchError
from lifebench.evaluation import Evaluator
from lifebench.messages import AssistantMessage
from lifebench.models import ModelCache, ModelFactory, recording
from lifebench.runner._experiment import CACHE_FILENAME, evaluate, grading_description
from lifebench.runner._progress import Progress
from lifebench.runner._provenance import collect
from lifebench.runner._rejudge import RecordOnlyCache, Rejudge
from lifebench.runner._scheduler import primary_error
from lifebench.runner._store import RunStore
from lifebench.runner._transcript import UnitRecorder
from lifebench.suites import RunOptions, get_suite
from lifebench.suites._options import make_run_options
from lifebench.suites._registry import options_model


@dataclass(frozen=True)
class RegradeSummary:
    """What a re-grade did."""

    graded: int
    """Simulations graded now."""
    errors: int
    """Of those, evaluations that failed (recorded as grading errors)."""
    skipped: int
    """Units without a completed simulation (pending or infrastructure errors)."""
    no_judge: bool = False
    """``rejudge`` > 1 was asked, but no grader of the run asks a judge (deterministic
    grading): a second grading always agrees with the first, so none was made."""


class RefreshingCache(ModelCache):
    """The run's model cache as seen by a second grading of failed evaluations: no call is
    answered from it (a cached unusable judge answer would only fail again), every new answer
    is stored in it, replacing the answer that failed (so the next identical grading is free)."""

    on_conflict = "REPLACE"

    async def get(self, key: str) -> AssistantMessage | None:
        """Nothing is answered from the cache."""
        return None


def refreshing_models(
    run_dir: Path, options: RunOptions, models_file: str | None = None
) -> ModelFactory:
    """Models for grading failed evaluations again (see :class:`RefreshingCache`)."""
    cache = RefreshingCache(run_dir / CACHE_FILENAME) if options.cache else None
    source = models_file or options.models_file
    return ModelFactory.from_file(source, cache=cache) if source else ModelFactory(cache=cache)


def needs_grading(record: Any) -> bool:
    """A done unit whose stored evaluation failed (or that was never graded)."""
    return record.evaluation is None or record.evaluation.error is not None


async def grade_records(
    store: RunStore,
    records: Sequence[Any],
    tasks: Mapping[str, Any],
    evaluators: Mapping[str, Evaluator],
    bases: Sequence[str],
    concurrency: int,
    progress: Progress | None = None,
    *,
    record_requests: bool = True,
    rejudge: Rejudge | None = None,
) -> int:
    """Grade the stored simulations of ``records`` again and store each new evaluation (the
    bases of the earlier one that are not recomputed are kept). Returns how many of the new
    evaluations failed. Nothing is simulated: only the evaluators' (judge) calls are made.
    ``progress`` is told of each unit; the caller starts and stops it (one display for all
    the units of a re-grade, whichever group they are graded in).
    A judge provider that refuses every call stops it (:class:`FatalProviderError`). With
    ``record_requests`` the judge's requests and responses are stored with each evaluation;
    ``rejudge`` adds the extra gradings of ``--rejudge`` (their judge calls recorded too)."""
    limit = asyncio.Semaphore(concurrency)
    recorder = UnitRecorder()
    errors = 0

    async def one(record: Any) -> None:
        nonlocal errors
        async with limit:
            if progress is not None:
                progress.unit_started()
            log = recorder.log() if record_requests else None
            with recording(log):
                try:
                    new = await evaluate(
                        tasks[record.task_id],
                        record.simulation,
                        evaluators,
                        bases,
                        record.evaluation,
                    )
                except RecursionError:
                    raise LifebenchError(
                        f"unit {record.task_id}#{record.trial}: its trajectory is nested too "
                        "deeply to grade (hundreds of levels of JSON, e.g. in a tool call's "
                        "arguments); re-run that unit (lifebench run) before grading"
                    ) from None
                if rejudge is not None:
                    new = await rejudge.extend(
                        tasks[record.task_id], record.simulation, new, record.evaluation
                    )
            store.record_evaluation(
                record.task_id, record.trial, new, None if log is None else log.pack()
            )
            errors += int(new.error is not None)
            if progress is not None:
                progress.unit_finished(failed=new.error is not None)

    try:
        async with asyncio.TaskGroup() as group:
            for record in records:
                group.create_task(one(record))
    except BaseExceptionGroup as group_error:
        raise primary_error(group_error) from None
    return errors


def regrade_options(stored: dict[str, Any], overrides: dict[str, Any], run_dir: Path) -> RunOptions:
    """The run's stored options with the grading options replaced by ``overrides``.

    ``overrides`` holds core options (``None`` = keep) and, under ``suite_options``, the suite
    options to change. A store written before suite options existed kept them at the top
    level; they are moved where they belong.
    """
    fields = set(RunOptions.model_fields)
    suite = str(stored.get("suite") or "vita")
    suite_fields = set(options_model(suite).model_fields)
    values = {k: v for k, v in stored.items() if k in fields}
    suite_values = dict(stored.get("suite_options") or {})
    suite_values.update({k: v for k, v in stored.items() if k in suite_fields - fields})
    changes = dict(overrides)
    suite_values.update(changes.pop("suite_options", None) or {})
    if changes.get("judge_model") and not changes.get("evaluator"):
        values["evaluator"] = ""  # a new judge without a named evaluator: the suite's default
    values.update({k: v for k, v in changes.items() if v is not None})
    values["suite_options"] = suite_values
    values["out"] = str(run_dir)
    return make_run_options(values)


async def regrade(
    run_dir: Path,
    overrides: dict[str, Any],
    *,
    models: ModelFactory | None = None,
    models_file: str | None = None,
    concurrency: int = 8,
    progress: Progress | None = None,
    rejudge: int = 1,
    record_requests: bool = True,
) -> RegradeSummary:
    """Grade every completed simulation of ``run_dir`` again with the evaluators of ``overrides``.

    New bases are merged into each stored evaluation (earlier bases are kept, the reward is
    recomputed from the chosen bases). Judge calls go through the run's model cache, so an
    identical second re-grade makes no API call. The grading is logged in the store (what
    defines the reward, how many simulations it is to grade, whether it finished), so a report
    can tell which grading produced its numbers — and that a re-grade killed part-way left
    them mixed. A judge provider that refuses every call stops the re-grade
    (:class:`~lifebench.errors.FatalProviderError`). ``rejudge`` > 1 grades each trajectory
    that many times in all (:mod:`lifebench.runner._rejudge`: the extra gradings bypass the
    cache and are stored inside the evaluation); a run no grader of which asks a judge
    (``"judge"`` not in :attr:`~lifebench.suites.RunOptions.roles_needed`) gets none, since
    its judge variance is 0 by construction (``no_judge``). With ``record_requests`` the judge's
    requests and responses are stored with each new evaluation. ``models`` (default: built
    from ``models_file`` on the run's cache) grades every simulation, the failed ones included;
    without it those are asked again past the cache.
    """
    store = RunStore.read(run_dir, write=True)
    try:
        options = regrade_options(store.config(), overrides, run_dir)
        suite = get_suite(options.suite)
        stored_tasks = store.task_data()
        records = [r for r in store.results() if r.status == "done" and r.simulation is not None]
        missing = sorted({r.task_id for r in records} - stored_tasks.keys())
        if missing:
            raise InputError(
                f"the run store holds no task data for {', '.join(missing[:5])}; "
                "it was created by an older lifebench — re-run it to re-grade",
                file=str(run_dir),
            )
        tasks = {tid: suite.parse_task(stored_tasks[tid]) for tid in {r.task_id for r in records}}
        models_given = models is not None
        if models is None:
            cache = ModelCache(run_dir / CACHE_FILENAME) if options.cache else None
            models = (
                ModelFactory.from_file(models_file, cache=cache)
                if models_file
                else ModelFactory(cache=cache)
            )
        evaluators = suite.build_evaluators(options, models)
        bases = suite.reward_bases(options)
        failed = [r for r in records if needs_grading(r)]
        # The failed ones are asked again: by fresh calls (past the cache) unless the caller
        # gave the models, which then grade everything.
        fresh = None
        if failed:
            fresh = models if models_given else refreshing_models(run_dir, options, models_file)
        no_judge = rejudge > 1 and "judge" not in options.roles_needed
        extra = _rejudger(
            suite,
            options,
            bases,
            1 if no_judge else rejudge,
            models,
            models_given,
            models_file,
            run_dir,
        )
        provenance = collect(options, store.tasks(), evaluators, models.resolve)
        grading = store.begin_grading(
            "eval", grading_description(options, bases), len(records), provenance
        )
        if progress is not None:
            progress.start(total=len(records))
        try:
            errors = await grade_records(
                store,
                [r for r in records if not needs_grading(r)],
                tasks,
                evaluators,
                bases,
                concurrency,
                progress,
                record_requests=record_requests,
                rejudge=None if extra is None else extra[0],
            )
            if fresh is not None:  # graded again by fresh calls, not the answers that failed
                again = suite.build_evaluators(options, fresh)
                errors += await grade_records(
                    store,
                    failed,
                    tasks,
                    again,
                    bases,
                    concurrency,
                    progress,
                    record_requests=record_requests,
                    rejudge=None if extra is None else extra[0],
                )
        finally:
            if progress is not None:
                progress.stop()
            await models.aclose()
            if fresh is not None and fresh is not models:
                await fresh.aclose()
            if extra is not None and extra[1] is not models:
                await extra[1].aclose()
        store.finish_grading(grading, len(records), errors)
        total = len(store.results())
        return RegradeSummary(
            graded=len(records), errors=errors, skipped=total - len(records), no_judge=no_judge
        )
    finally:
        store.close()


def _rejudger(
    suite: Any,
    options: RunOptions,
    bases: list[str],
    gradings: int,
    models: ModelFactory,
    models_given: bool,
    models_file: str | None,
    run_dir: Path,
) -> tuple[Rejudge, ModelFactory] | None:
    """The extra gradings of ``--rejudge`` (None for one grading): the run's evaluators on
    models whose cache only records (:class:`RecordOnlyCache`; the given factory in tests)."""
    if gradings < 1:
        raise InputError(f"--rejudge must be at least 1, got {gradings}", field="--rejudge")
    if gradings == 1:
        return None
    fresh = models
    if not models_given:
        cache = RecordOnlyCache(run_dir / CACHE_FILENAME) if options.cache else None
        fresh = (
            ModelFactory.from_file(models_file, cache=cache)
            if models_file
            else ModelFactory(cache=cache)
        )
    return Rejudge(gradings, suite.build_evaluators(options, fresh), bases), fresh
