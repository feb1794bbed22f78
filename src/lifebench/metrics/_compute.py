"""From unit records to :class:`Metrics` (pure; the same records give the same result)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lifebench.evaluation._types import Evaluation
from lifebench.metrics._agreement import basis_kappa, usage_by_basis
from lifebench.metrics._bootstrap import bootstrap_ci
from lifebench.metrics._coverage import coverage_by_basis
from lifebench.metrics._passk import is_success, pass_at_k, pass_hat_k
from lifebench.metrics._records import (
    STATUS_DONE,
    STATUS_INFRA_ERROR,
    STATUS_REJECTED,
    ResultRecord,
)
from lifebench.metrics._types import (
    BootstrapInfo,
    CostStats,
    Interval,
    Metrics,
    RetryStats,
    TaskMetrics,
)
from lifebench.metrics._usage import (
    Graded,
    cost_stats,
    mean,
    model_retries,
    termination_counts,
    token_stats,
    tool_error_rate,
    usage_missing,
)
from lifebench.simulation._types import Simulation

DEFAULT_BOOTSTRAP_SAMPLES = 1000
DEFAULT_BOOTSTRAP_SEED = 0
CI_LEVEL = 0.95


@dataclass
class _TaskTally:
    rewards: list[float] = field(default_factory=list)
    errors: int = 0
    pending: int = 0
    rejected: int = 0
    ungradable: int = 0

    @property
    def successes(self) -> int:
        return sum(is_success(r) for r in self.rewards)


def _task_rows(tallies: dict[str, _TaskTally]) -> list[TaskMetrics]:
    rows = []
    for task_id in sorted(tallies):
        t = tallies[task_id]
        n, c = len(t.rewards), t.successes
        rows.append(
            TaskMetrics(
                task_id=task_id,
                n_trials=n,
                n_successes=c,
                n_errors=t.errors,
                n_pending=t.pending,
                n_rejected=t.rejected,
                n_ungradable=t.ungradable,
                mean_reward=mean(t.rewards),
                rewards=t.rewards,
                pass_hat_k={str(k): pass_hat_k(n, c, k) for k in range(1, n + 1)},
            )
        )
    return rows


def _per_k(
    scored: Sequence[TaskMetrics], max_k: int
) -> tuple[dict[str, list[float]], dict[str, list[float]], list[float]]:
    """Per-task values of pass^k and pass@k for each k, and per-task mean rewards."""
    hat: dict[str, list[float]] = {}
    at: dict[str, list[float]] = {}
    for k in range(1, max_k + 1):
        hat[str(k)] = [pass_hat_k(t.n_trials, t.n_successes, k) for t in scored]
        at[str(k)] = [pass_at_k(t.n_trials, t.n_successes, k) for t in scored]
    avg = [t.mean_reward for t in scored if t.mean_reward is not None]
    return hat, at, avg


def _macro(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def _reward_by_basis(
    evaluations: Sequence[Evaluation],
) -> tuple[dict[str, float], dict[str, float]]:
    rewards: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    for evaluation in evaluations:
        for name, result in evaluation.by_basis.items():
            rewards[name].append(result.reward)
            scores[name].append(result.score)
    return (
        {name: _macro(rewards[name]) for name in sorted(rewards)},
        {name: _macro(scores[name]) for name in sorted(scores)},
    )


def compute_metrics(
    records: Iterable[ResultRecord],
    *,
    bootstrap_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Metrics:
    """Aggregate metrics of ``records`` (any order; results are sorted by task id and trial).

    Scored simulations (done, with an evaluation that did not fail) enter avg@k, pass@k and
    pass^k, macro-averaged over tasks for k = 1 … the fewest scored trials of any task.
    Infrastructure errors, pending units, ungraded simulations, failed gradings and ungradable
    evaluations (tasks the reward's bases cannot check) are counted but excluded. Turns, tool calls, tokens and cost are means over completed simulations.
    Confidence intervals are percentile bootstraps over tasks (``bootstrap_samples``
    replicates drawn with ``random.Random(seed)``).
    """
    ordered = sorted(records, key=lambda r: (r.task_id, r.trial))
    tallies: dict[str, _TaskTally] = defaultdict(_TaskTally)
    completed: list[Graded] = []
    scored_evaluations: list[Evaluation] = []
    n_ungraded = n_grading_errors = n_errors = n_pending = n_rejected = unit_reruns = 0
    n_ungradable = 0
    recorded: list[Graded] = []
    checked: list[tuple[str, Evaluation]] = []
    for record in ordered:
        tally = tallies[record.task_id]
        unit_reruns += max(0, record.attempts - 1)
        sim, ev = record.simulation, record.evaluation
        if sim is not None and record.status in (STATUS_DONE, STATUS_INFRA_ERROR, STATUS_REJECTED):
            recorded.append((sim, ev))
        if record.status == STATUS_INFRA_ERROR:
            n_errors += 1
            tally.errors += 1
        elif record.status == STATUS_REJECTED:
            n_rejected += 1
            tally.rejected += 1
        elif record.status != STATUS_DONE or sim is None:
            n_pending += 1
            tally.pending += 1
        else:
            completed.append((sim, ev))
            if ev is None:
                n_ungraded += 1
            elif ev.error is not None:
                n_grading_errors += 1
            elif not ev.gradable:
                n_ungradable += 1
                tally.ungradable += 1
                checked.append((record.task_id, ev))
            else:
                checked.append((record.task_id, ev))
                scored_evaluations.append(ev)
                tally.rewards.append(ev.reward)

    rows = _task_rows(tallies)
    scored_rows = [t for t in rows if t.n_trials > 0]
    max_k = min((t.n_trials for t in scored_rows), default=0)
    hat, at, avg = _per_k(scored_rows, max_k)
    ci = bootstrap_ci(  # no scored task: empty columns, no interval
        {
            "avg": avg,
            **{f"hat{k}": v for k, v in hat.items()},
            **{f"at{k}": v for k, v in at.items()},
        },
        samples=bootstrap_samples,
        seed=seed,
        level=CI_LEVEL,
    )
    ks = [str(k) for k in range(1, max_k + 1)]
    ci95: dict[str, dict[str, Interval]] = {
        "avg_at_k": {k: ci["avg"] for k in ks},
        "pass_at_k": {k: ci[f"at{k}"] for k in ks},
        "pass_hat_k": {k: ci[f"hat{k}"] for k in ks},
    }
    sims: list[Simulation] = [s for s, _ in completed]
    unreported = usage_missing(recorded)
    n_successes = sum(t.n_successes for t in rows)
    by_basis, score_by_basis = _reward_by_basis(scored_evaluations)
    cost = cost_stats(completed, n_successes)
    return Metrics(
        n_tasks=len(scored_rows),
        n_simulations=len(completed),
        n_scored=len(scored_evaluations),
        n_errors=n_errors,
        n_pending=n_pending,
        n_rejected=n_rejected,
        n_ungraded=n_ungraded,
        n_grading_errors=n_grading_errors,
        n_ungradable=n_ungradable,
        max_k=max_k,
        avg_reward=mean([e.reward for e in scored_evaluations]),
        avg_at_k={k: _macro(avg) for k in ks},
        pass_at_k={k: _macro(at[k]) for k in ks},
        pass_hat_k={k: _macro(hat[k]) for k in ks},
        ci95=ci95,
        bootstrap=BootstrapInfo(samples=bootstrap_samples, seed=seed, level=CI_LEVEL),
        termination=termination_counts(sims),
        mean_turns=mean([s.turns for s in sims]),
        mean_tool_calls=mean([s.tool_calls for s in sims]),
        tool_error_rate=tool_error_rate(sims),
        tokens=token_stats(completed),
        cost=cost,
        retries=RetryStats(model=model_retries(recorded), unit_reruns=unit_reruns),
        usage_missing=unreported,
        reward_by_basis=by_basis,
        score_by_basis=score_by_basis,
        kappa_state_vs_rubric=basis_kappa(scored_evaluations, "state", "rubric"),
        kappa_by_pair={
            f"{a}~{b}": basis_kappa(scored_evaluations, a, b)
            for i, a in enumerate(sorted(by_basis))
            for b in sorted(by_basis)[i + 1 :]
        },
        usage_by_basis=usage_by_basis(scored_evaluations),
        coverage_by_basis=coverage_by_basis(checked),
        tasks=rows,
        warnings=[
            *_warnings(rows, scored_rows, max_k, n_errors, n_pending, n_grading_errors, n_rejected),
            *_ungradable_warning(rows),
            *_usage_warnings(unreported),
            *_price_warnings(cost),
        ],
    )


def _price_warnings(cost: CostStats) -> list[str]:
    """One line naming the roles whose cost is unknown (calls to a model without a price)."""
    if not cost.unpriced:
        return []
    roles = ", ".join(f"{role} ({n} call(s))" for role, n in cost.unpriced.items())
    return [
        f"cost unknown for {roles}: no price for their model (not in the models file, not in "
        "genai-prices, or a self-hosted endpoint); give it `price:` in a models file "
        "(0 for a free self-hosted model)"
    ]


def _usage_warnings(unreported: int) -> list[str]:
    if not unreported:
        return []
    return [
        f"{unreported} model call(s) reported no token usage: their tokens and cost are "
        "unknown and counted as 0, so the token and cost figures are too low"
    ]


def _ungradable_warning(rows: Sequence[TaskMetrics]) -> list[str]:
    """One line naming the tasks whose simulations could not be graded (excluded)."""
    tasks = sorted(t.task_id for t in rows if t.n_ungradable)
    if not tasks:
        return []
    n = sum(t.n_ungradable for t in rows)
    listed = ", ".join(tasks[:5]) + (" …" if len(tasks) > 5 else "")
    return [
        f"{n} simulation(s) of {len(tasks)} task(s) are ungradable (no criterion the reward's "
        f"bases can check) and are excluded: {listed}"
    ]


def _warnings(
    rows: Sequence[TaskMetrics],
    scored: Sequence[TaskMetrics],
    max_k: int,
    n_errors: int,
    n_pending: int,
    n_grading_errors: int,
    n_rejected: int,
) -> list[str]:
    out: list[str] = []
    most = max((t.n_trials for t in scored), default=0)
    if most > max_k:
        fewest = sorted(t.task_id for t in scored if t.n_trials == max_k)
        out.append(
            f"uneven trials: k is limited to {max_k} by {len(fewest)} task(s) "
            f"({', '.join(fewest[:5])}{' …' if len(fewest) > 5 else ''}); others have up to {most}"
        )
    unscored = sorted(t.task_id for t in rows if t.n_trials == 0)
    if unscored:
        out.append(f"{len(unscored)} task(s) have no scored trial and are not in the metrics")
    if n_errors:
        out.append(f"{n_errors} unit(s) ended in an infrastructure error; re-run to include them")
    if n_rejected:
        out.append(
            f"{n_rejected} unit(s) were rejected by the provider for their content and are "
            "excluded (not re-run on resume)"
        )
    if n_pending:
        out.append(f"{n_pending} unit(s) have not run yet; the run is incomplete")
    if n_grading_errors:
        out.append(f"{n_grading_errors} evaluation(s) failed and are excluded; re-grade them")
    return out
