"""Paired comparison of runs on the tasks they share (``lifebench compare``).

For every pair of runs and every metric — Avg@k, Pass^k for k = 1 … the fewest trials of a
shared task, and the numbers the suite names (:class:`~lifebench.suites.ComparedMetrics`) —
the comparison takes one value per shared task and run, and reports the mean difference
(first run minus second), its paired bootstrap interval over tasks, the exact test that fits
the values (:func:`~lifebench.compare._stats.paired_test`) and, with more than two runs,
Holm's correction over the pairs of each metric. Tasks whose success rate differs form the
discordant-task table, each with a pair of trajectories to look at side by side.

Runs must be comparable — :func:`lifebench.runner.comparability` on the tasks they share,
the one check of every face — unless the caller allows a mismatch, which every output then
carries; differences that do not break comparability (seed, trials, versions, task sets) are
noted.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict, Field

from lifebench.compare._stats import (
    ALPHA,
    DEFAULT_RESAMPLES,
    holm,
    mean_difference,
    paired_interval,
    paired_test,
)
from lifebench.errors import LifebenchError
from lifebench.metrics._extra import have_scipy, needs_stats
from lifebench.metrics._noise import NoiseFloor, noise_floor
from lifebench.metrics._passk import pass_hat_k
from lifebench.metrics._trials import ScoredTrial, scored_trials
from lifebench.reporting._load import RunData
from lifebench.runner._provenance import RunFacts, compare_facts, facts_from

DEFAULT_MIN_SHARED = 10
DEFAULT_BOOTSTRAP = 2000
LEVEL = 0.95
MAX_DISCORDANT = 200

Scale = Literal["fraction", "raw"]


class ComparisonError(LifebenchError):
    """The runs cannot be compared (not comparable, or too few shared tasks)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class RunSide(_Frozen):
    """One run of a comparison."""

    index: int = Field(description="Position of the run on the command line (0-based).")
    label: str
    run_dir: str
    agent: str = Field(description="Agent model (name) or agent kind.")
    tasks: int = Field(description="Tasks with a scored trial.")
    not_shared: int = Field(description="Of those, tasks the other runs do not all have.")
    noise: NoiseFloor = Field(description="The run's noise floor on the shared tasks.")


class MismatchRow(_Frozen):
    """A difference between two runs (:class:`lifebench.runner.Difference`)."""

    a: str
    b: str
    aspect: str
    detail: str

    def line(self) -> str:
        """``a vs b: detail`` (a difference's detail names what differs)."""
        return f"{self.a} vs {self.b}: {self.detail}"


class MetricComparison(_Frozen):
    """One metric of one pair of runs."""

    metric: str = Field(description="avg@k, pass^K or the suite's name.")
    kind: Literal["success", "score"]
    scale: Scale = Field(description="fraction (shown as a percentage) or raw (as is).")
    tasks: int = Field(description="Shared tasks with a value in both runs.")
    a: float = Field(description="Mean over those tasks, first run.")
    b: float = Field(description="Mean over those tasks, second run.")
    difference: float = Field(description="a - b.")
    ci: tuple[float, float] = Field(description="Paired bootstrap interval of the difference.")
    test: str = Field(description="mcnemar_exact or permutation.")
    exact: bool
    p_value: float
    p_holm: float = Field(description="Holm-adjusted over the pairs of this metric.")
    significant: bool = Field(description="p_holm <= alpha.")
    a_better: int = Field(description="Tasks where the first run's value is higher.")
    b_better: int
    ties: int


class DiscordantTask(_Frozen):
    """A shared task whose success rate differs between the two runs."""

    task_id: str
    a_successes: int
    a_trials: int
    b_successes: int
    b_trials: int
    better: Literal["a", "b"]
    a_trial: int = Field(
        description="A trial of the first run to look at (a success when "
        "it is the better run, else a failure)."
    )
    b_trial: int
    viewer: str = Field(
        description="Path of the pair in `lifebench view` started with the runs in the same order."
    )


class PairComparison(_Frozen):
    """Two runs compared: the first minus the second."""

    a: int = Field(description="Index of the first run.")
    b: int = Field(description="Index of the second run.")
    metrics: list[MetricComparison] = Field(default_factory=list)
    discordant: list[DiscordantTask] = Field(
        default_factory=list,
        description=f"Tasks whose success rate differs, largest difference first (at most "
        f"{MAX_DISCORDANT}).",
    )
    discordant_total: int = 0
    discordant_a: int = Field(0, description="Discordant tasks the first run does better on.")
    discordant_b: int = Field(0, description="Discordant tasks the second run does better on.")


class Settings(_Frozen):
    """How the numbers were computed."""

    level: float = LEVEL
    bootstrap_samples: int = DEFAULT_BOOTSTRAP
    seed: int = 0
    permutation_resamples: int = DEFAULT_RESAMPLES
    alpha: float = ALPHA
    correction: str = "holm over the pairs of each metric"
    min_shared: int = DEFAULT_MIN_SHARED


class Comparison(_Frozen):
    """The paired comparison of two or more runs."""

    runs: list[RunSide]
    shared_tasks: int
    k: int = Field(description="Largest k of Pass^k: the fewest trials of a shared task.")
    comparable: bool = Field(description="False when a mismatch was allowed.")
    mismatches: list[MismatchRow] = Field(
        default_factory=list, description="Differences that make the runs incomparable."
    )
    noted: list[MismatchRow] = Field(
        default_factory=list,
        description="Differences that do not (seed, trials, user seeds, lifebench and package "
        "versions, task sets: only shared tasks are compared).",
    )
    pairs: list[PairComparison] = Field(default_factory=list)
    settings: Settings = Field(default_factory=Settings)
    warnings: list[str] = Field(default_factory=list)

    def label(self, index: int) -> str:
        """The label of run ``index``."""
        return self.runs[index].label


@dataclass(frozen=True)
class _Metric:
    name: str
    kind: Literal["success", "score"]
    scale: Scale
    value: Callable[[int, str, Sequence[ScoredTrial]], float | None]
    """(run index, task id, the task's scored trials in that run) -> the task's value."""


def _avg(_run: int, _task: str, rows: Sequence[ScoredTrial]) -> float | None:
    return math.fsum(r.reward for r in rows) / len(rows)


def _hat(k: int) -> Callable[[int, str, Sequence[ScoredTrial]], float | None]:
    def value(_run: int, _task: str, rows: Sequence[ScoredTrial]) -> float | None:
        return pass_hat_k(len(rows), sum(r.success for r in rows), k)

    return value


def _lookup(
    per_run: Sequence[Mapping[str, Mapping[str, float]]], name: str
) -> Callable[[int, str, Sequence[ScoredTrial]], float | None]:
    def value(run: int, task: str, _rows: Sequence[ScoredTrial]) -> float | None:
        return per_run[run][name].get(task)

    return value


def _suite_metrics(run: RunData) -> list[tuple[str, Literal["success", "score"]]]:
    from lifebench.suites import ComparedMetrics, get_suite

    name = run.config.get("suite")
    if not name:
        return []
    suite = get_suite(str(name))
    if not isinstance(suite, ComparedMetrics):
        return []
    return list(suite.compared_metrics(run.config).items())


def _suite_values(
    run: RunData, names: Sequence[str], tasks: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Per metric name, per task: the suite's number computed on that task's records."""
    from lifebench.suites import get_suite

    suite = get_suite(str(run.config.get("suite")))
    by_task: dict[str, list[Any]] = {}
    for r in run.records:
        by_task.setdefault(r.task_id, []).append(r)
    out: dict[str, dict[str, float]] = {n: {} for n in names}
    for task in tasks:
        numbers = suite.report_metrics(by_task.get(task, []), run.config)
        for n in names:
            value = numbers.get(n)
            if (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and math.isfinite(value)
            ):
                out[n][task] = float(value)
    return out


def _pick_trials(
    a_rows: Sequence[ScoredTrial], b_rows: Sequence[ScoredTrial], a_better: bool
) -> tuple[int, int]:
    """A trial of each run that shows the difference: the first success of the better run and
    the first failure of the other."""

    def first(rows: Sequence[ScoredTrial], success: bool) -> int:
        # the better run has a success and the other a failure: their rates differ
        return next(r.trial for r in rows if r.success == success)

    return first(a_rows, a_better), first(b_rows, not a_better)


def _discordant(
    a: int,
    b: int,
    ta: Mapping[str, Sequence[ScoredTrial]],
    tb: Mapping[str, Sequence[ScoredTrial]],
    shared: Sequence[str],
) -> list[DiscordantTask]:
    rows = []
    for task in shared:
        ra, rb = ta[task], tb[task]
        ca, cb = sum(r.success for r in ra), sum(r.success for r in rb)
        rate_a, rate_b = ca / len(ra), cb / len(rb)
        if rate_a == rate_b:
            continue
        a_wins = rate_a > rate_b
        trial_a, trial_b = _pick_trials(ra, rb, a_wins)
        path = "/compare?" + urlencode({"task": task, "a": a, "b": b, "ta": trial_a, "tb": trial_b})
        rows.append(
            (
                -abs(rate_a - rate_b),
                task,
                DiscordantTask(
                    task_id=task,
                    a_successes=ca,
                    a_trials=len(ra),
                    b_successes=cb,
                    b_trials=len(rb),
                    better="a" if a_wins else "b",
                    a_trial=trial_a,
                    b_trial=trial_b,
                    viewer=path,
                ),
            )
        )
    rows.sort(key=lambda x: (x[0], x[1]))
    return [row for _, _, row in rows]


def compare_runs(
    runs: Sequence[RunData],
    labels: Sequence[str],
    *,
    allow_mismatch: bool = False,
    min_shared: int = DEFAULT_MIN_SHARED,
    bootstrap_samples: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    alpha: float = ALPHA,
) -> Comparison:
    """Compare ``runs`` pairwise on the tasks they all share (see the module docstring).

    Raises:
        ComparisonError: fewer than two runs; scipy missing (the extra ``stats``); runs that
            are not comparable (each difference named) unless ``allow_mismatch``; fewer than
            ``min_shared`` shared scored tasks.
    """
    if len(runs) < 2:
        raise ComparisonError("compare needs at least two run directories")
    if not have_scipy():
        raise ComparisonError(needs_stats("lifebench compare"))
    if len(labels) != len(runs):
        raise ValueError("one label per run")
    mismatches: list[MismatchRow] = []
    noted: list[MismatchRow] = []
    facts = [_facts(r) for r in runs]
    for i in range(len(runs)):
        for j in range(i + 1, len(runs)):
            for d in compare_facts(facts[i], facts[j], shared_tasks=True):
                row = MismatchRow(a=labels[i], b=labels[j], aspect=d.aspect, detail=d.detail)
                (noted if d.comparable else mismatches).append(row)
    if mismatches and not allow_mismatch:
        lines = "\n".join(f"  - {m.line()}" for m in mismatches)
        raise ComparisonError(
            "the runs are not comparable:\n" + lines + "\nCompare runs of the same tasks, "
            "grader, user simulator and judge, or pass --allow-mismatch to compare anyway "
            "(every output is then marked)."
        )
    trials = [scored_trials(r.records) for r in runs]
    shared = sorted(set.intersection(*(set(t) for t in trials)))
    if len(shared) < max(1, min_shared):
        counts = ", ".join(f"{lab}: {len(t)}" for lab, t in zip(labels, trials, strict=True))
        raise ComparisonError(
            f"the runs share {len(shared)} scored task(s) ({counts} scored tasks each); at "
            f"least {max(1, min_shared)} are needed for a paired comparison (--min-shared)"
        )
    warnings: list[str] = []
    if mismatches:
        warnings.append(
            f"NOT COMPARABLE: {len(mismatches)} mismatch(es) allowed with --allow-mismatch; "
            "differences may come from them rather than from the agents"
        )
    sides = []
    for i, (run, label, t) in enumerate(zip(runs, labels, trials, strict=True)):
        outside = len(t) - len(shared)
        if outside:
            warnings.append(
                f"{label}: {outside} scored task(s) not shared by every run are left out"
            )
        sides.append(
            RunSide(
                index=i,
                label=label,
                run_dir=str(run.run_dir),
                agent=_agent(run.config),
                tasks=len(t),
                not_shared=outside,
                noise=noise_floor({task: t[task] for task in shared}, judged=_judged(run)),
            )
        )
    k = min(len(t[task]) for t in trials for task in shared)
    metrics: list[_Metric] = [_Metric("avg@k", "score", "fraction", _avg)]
    metrics += [_Metric(f"pass^{n}", "success", "fraction", _hat(n)) for n in range(1, k + 1)]
    declared = _suite_metrics(runs[0])
    if declared and len({str(r.config.get("suite")) for r in runs}) == 1:
        per_run = [_suite_values(r, [n for n, _ in declared], shared) for r in runs]
        for name, kind in declared:
            scale: Scale = "fraction" if kind == "success" else "raw"
            metrics.append(_Metric(name, kind, scale, _lookup(per_run, name)))
    elif declared:
        warnings.append(
            "the runs are of different suites: the suites' own numbers are not compared"
        )

    def values_of(metric: _Metric, run: int) -> dict[str, float]:
        out = {}
        for task in shared:
            v = metric.value(run, task, trials[run][task])
            if v is not None:
                out[task] = v
        return out

    columns = {(m.name, i): values_of(m, i) for m in metrics for i in range(len(runs))}
    pairs = [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))]
    raw: dict[tuple[int, int], list[dict[str, Any]]] = {p: [] for p in pairs}
    for m in metrics:
        for i, j in pairs:
            va, vb = columns[(m.name, i)], columns[(m.name, j)]
            common = [t for t in shared if t in va and t in vb]
            if not common:
                warnings.append(
                    f"{m.name}: no shared task has a value in both {labels[i]} and {labels[j]}"
                )
                continue
            xa, xb = [va[t] for t in common], [vb[t] for t in common]
            test = paired_test(xa, xb, resamples=resamples, seed=seed)
            raw[(i, j)].append(
                {
                    "metric": m.name,
                    "kind": m.kind,
                    "scale": m.scale,
                    "tasks": len(common),
                    "a": math.fsum(xa) / len(xa),
                    "b": math.fsum(xb) / len(xb),
                    "difference": mean_difference(xa, xb),
                    "ci": paired_interval(
                        xa, xb, samples=bootstrap_samples, seed=seed, level=LEVEL
                    ),
                    "test": test.test,
                    "exact": test.exact,
                    "p_value": test.p_value,
                    "a_better": test.a_better,
                    "b_better": test.b_better,
                    "ties": test.ties,
                }
            )
    for m in metrics:
        entries = [e for p in pairs for e in raw[p] if e["metric"] == m.name]
        for e, adjusted in zip(entries, holm([e["p_value"] for e in entries]), strict=True):
            e["p_holm"] = adjusted
            e["significant"] = adjusted <= alpha
    out_pairs = []
    for i, j in pairs:
        discordant = _discordant(i, j, trials[i], trials[j], shared)
        out_pairs.append(
            PairComparison(
                a=i,
                b=j,
                metrics=[MetricComparison(**e) for e in raw[(i, j)]],
                discordant=discordant[:MAX_DISCORDANT],
                discordant_total=len(discordant),
                discordant_a=sum(1 for d in discordant if d.better == "a"),
                discordant_b=sum(1 for d in discordant if d.better == "b"),
            )
        )
    return Comparison(
        runs=sides,
        shared_tasks=len(shared),
        k=k,
        comparable=not mismatches,
        mismatches=mismatches,
        noted=noted,
        pairs=out_pairs,
        settings=Settings(
            bootstrap_samples=bootstrap_samples,
            seed=seed,
            permutation_resamples=resamples,
            alpha=alpha,
            min_shared=min_shared,
        ),
        warnings=warnings,
    )


def _facts(run: RunData) -> RunFacts:
    """What the comparability check reads of ``run`` (from its configuration and tasks alone
    when the store's facts were not read)."""
    if run.facts is not None:
        return run.facts
    return facts_from(run.config, run.task_hashes, [], [], False)


def _judged(run: RunData) -> bool:
    """Whether a grading of ``run`` may ask a judge (the report's rule)."""
    from lifebench.reporting._report import asks_judge, describe_grading

    return asks_judge(run.config, describe_grading(run.config, run.grading, len(run.records)))


def _agent(config: Mapping[str, Any]) -> str:
    from lifebench.reporting._bundle import model_label

    return model_label(config.get("agent_model"), config.get("agent"))
