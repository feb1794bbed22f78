"""The noise floor of a run: how much its numbers move when nothing changes.

From the scored trials of each task (see :mod:`lifebench.metrics._trials`):

* ``flip_rate``: the chance that two trials of the same task (drawn without replacement, the
  task drawn uniformly) get different verdicts — per task ``2 c (n - c) / (n (n - 1))`` for
  ``c`` successes in ``n`` trials, averaged over the tasks with two or more trials;
  ``tasks_flipping`` is the share of those tasks with both verdicts;
* ``icc``: the one-way random-effects intraclass correlation ICC(1) of the reward with tasks
  as groups, ``(MSB - MSW) / (MSB + (n0 - 1) MSW)`` (``n0`` the ANOVA's effective group
  size): the share of the reward's variance due to which task it is (1: trials of a task
  always agree; near 0 or below: a trial says little about its task);
* ``mdd``: the minimum detectable difference of Avg@k at ``power`` (80 %) for a two-sided
  paired test at ``alpha`` (5 %) between this run and another of the same design (its tasks,
  its trials) and the same trial noise: ``lambda * sqrt(2 MSW / (k n))`` where ``n`` is the
  number of tasks, ``k`` the harmonic mean of their trials, ``MSW`` the pooled within-task
  variance of the reward and ``lambda`` the noncentrality at which the paired t test (``n - 1``
  degrees of freedom; :mod:`scipy.stats.nct`) reaches the power. Task difficulty cancels in a
  paired comparison; a difference between agents that varies from task to task adds variance
  this run cannot see, so the figure is a floor;
* ``trials_needed``: for each target difference, the fewest trials per task at which the
  minimum detectable difference reaches it (on this run's tasks).

The last two need scipy (the optional extra ``stats``); without it they are left out and a
note says how to install it. Every other figure is computed with the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from lifebench.metrics._extra import STATS_INSTALL, have_scipy
from lifebench.metrics._trials import ScoredTrial
from lifebench.metrics._variance import VarianceSplit, variance_split

ALPHA = 0.05
POWER = 0.8
DEFAULT_TARGETS: tuple[float, ...] = (0.02, 0.05, 0.1)
"""Differences (in reward units) whose trials_needed every report lists."""


class NoiseFloor(BaseModel):
    """How noisy a run is, and what difference it can tell apart (module docstring)."""

    model_config = ConfigDict(frozen=True)

    outcome: str = Field("reward", description="What the figures are of.")
    tasks: int = Field(description="Tasks with a scored trial.")
    tasks_repeated: int = Field(description="Tasks with two or more scored trials.")
    trials_per_task: float | None = Field(
        None, description="Harmonic mean of the scored trials per task (k of the MDD)."
    )
    flip_rate: float | None = Field(
        None, description="Chance that two trials of one task get different verdicts."
    )
    tasks_flipping: float | None = Field(
        None, description="Share of the repeated tasks with both verdicts among their trials."
    )
    icc: float | None = Field(None, description="Intraclass correlation ICC(1) of the reward.")
    within_task_variance: float | None = Field(
        None, description="Pooled within-task variance of the reward (ANOVA MSW)."
    )
    between_task_variance: float | None = Field(
        None, description="Variance of the reward due to the task, (MSB - MSW) / n0, at least 0."
    )
    alpha: float = Field(ALPHA, description="Two-sided significance level of the MDD.")
    power: float = Field(POWER, description="Power of the MDD.")
    mdd: float | None = Field(
        None,
        description="Minimum detectable difference of Avg@k (reward units) against a run of "
        "the same design and noise, at this power and level.",
    )
    trials_needed: dict[str, int | None] = Field(
        default_factory=dict,
        description="Target difference -> fewest trials per task whose MDD reaches it.",
    )
    sources: VarianceSplit | None = Field(
        None, description="The reward's variance split into task, agent, user and judge."
    )
    notes: list[str] = Field(default_factory=list)


def pair_disagreement(n: int, c: int) -> float:
    """The chance that two of ``n`` trials, ``c`` of them successes, disagree."""
    if n < 2 or not 0 <= c <= n:
        raise ValueError(f"need n >= 2 and 0 <= c <= n, got n={n}, c={c}")
    return 2 * c * (n - c) / (n * (n - 1))


def anova(groups: Sequence[Sequence[float]]) -> tuple[float, float, float] | None:
    """One-way ANOVA of ``groups`` (one per task): ``(MSB, MSW, n0)``, or None when there are
    fewer than two groups or no group of two or more values."""
    groups = [g for g in groups if g]
    a = len(groups)
    total = sum(len(g) for g in groups)
    if a < 2 or total <= a:
        return None
    grand = math.fsum(x for g in groups for x in g) / total
    means = [math.fsum(g) / len(g) for g in groups]
    ssb = math.fsum(len(g) * (m - grand) ** 2 for g, m in zip(groups, means, strict=True))
    ssw = math.fsum((x - m) ** 2 for g, m in zip(groups, means, strict=True) for x in g)
    n0 = (total - math.fsum(len(g) ** 2 for g in groups) / total) / (a - 1)
    return ssb / (a - 1), ssw / (total - a), n0


def noncentrality(df: int, *, alpha: float = ALPHA, power: float = POWER) -> float:
    """The noncentrality at which a two-sided t test with ``df`` degrees of freedom at level
    ``alpha`` rejects with probability ``power``: :func:`solve_noncentrality`, read from its
    table (:mod:`lifebench.metrics._noncentrality`, the same numbers) at the default level and
    power for up to 1,000 degrees of freedom, so that a report does not import scipy for it."""
    if df < 1:
        raise ValueError(f"need df >= 1, got {df}")
    from lifebench.metrics import _noncentrality as table

    if alpha == table.ALPHA and power == table.POWER and df <= len(table.NONCENTRALITY):
        return table.NONCENTRALITY[df - 1]
    return solve_noncentrality(df, alpha=alpha, power=power)


def solve_noncentrality(df: int, *, alpha: float = ALPHA, power: float = POWER) -> float:
    """:func:`noncentrality` computed with scipy (``nct`` and ``brentq``)."""
    if df < 1:
        raise ValueError(f"need df >= 1, got {df}")
    if not (0 < alpha < 1 and 0 < power < 1):
        raise ValueError("alpha and power must be in (0, 1)")
    from scipy.optimize import brentq
    from scipy.stats import nct, t

    crit = float(t.ppf(1 - alpha / 2, df))

    def shortfall(lam: float) -> float:
        upper = float(nct.sf(crit, df, lam))
        lower = float(nct.cdf(-crit, df, lam))  # NaN far out in the tail, where it is ~0
        return upper + (lower if math.isfinite(lower) else 0.0) - power

    high = 8.0
    while shortfall(high) < 0:  # widen the bracket (df = 1 needs lambda near 16)
        high *= 2
    return float(brentq(shortfall, 0.0, high, xtol=1e-12))


def mdd(
    n_tasks: int,
    trials: float,
    within_variance: float,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
) -> float:
    """The minimum detectable difference of a paired comparison of two runs of ``n_tasks``
    tasks and ``trials`` trials each (harmonic mean) with this within-task variance."""
    if n_tasks < 2 or trials <= 0 or within_variance < 0:
        raise ValueError("need n_tasks >= 2, trials > 0 and a variance >= 0")
    return _mdd(
        noncentrality(n_tasks - 1, alpha=alpha, power=power), n_tasks, trials, within_variance
    )


def _mdd(lam: float, n_tasks: int, trials: float, within_variance: float) -> float:
    return lam * math.sqrt(2 * within_variance / (trials * n_tasks))


def trials_needed(
    n_tasks: int,
    within_variance: float,
    target: float,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
) -> int:
    """The fewest trials per task at which :func:`mdd` is at most ``target`` (> 0)."""
    if n_tasks < 2 or within_variance < 0:
        raise ValueError("need n_tasks >= 2 and a variance >= 0")
    return _trials_needed(
        noncentrality(n_tasks - 1, alpha=alpha, power=power), n_tasks, within_variance, target
    )


def _trials_needed(lam: float, n_tasks: int, within_variance: float, target: float) -> int:
    if target <= 0:
        raise ValueError(f"the target difference must be > 0, got {target}")
    exact = 2 * within_variance * lam**2 / (n_tasks * target**2)
    k = max(1, math.ceil(exact - 1e-9))
    while k > 1 and _mdd(lam, n_tasks, k - 1, within_variance) <= target:
        k -= 1  # guard the ceiling against rounding
    return k


def target_key(target: float) -> str:
    """How a target difference is written as a key (``0.05``)."""
    return f"{target:g}"


def noise_floor(
    trials: Mapping[str, Sequence[ScoredTrial]],
    *,
    targets: Sequence[float] = DEFAULT_TARGETS,
    alpha: float = ALPHA,
    power: float = POWER,
    judged: bool = True,
) -> NoiseFloor:
    """The noise floor of the scored trials of a run, task by task (``judged``: see
    :func:`~lifebench.metrics._variance.variance_split`)."""
    rows = {t: list(v) for t, v in trials.items() if v}
    notes: list[str] = []
    repeated = {t: v for t, v in rows.items() if len(v) >= 2}
    flips = [pair_disagreement(len(v), sum(r.success for r in v)) for v in repeated.values()]
    flipping = [0 < sum(r.success for r in v) < len(v) for v in repeated.values()]
    k = len(rows) / math.fsum(1 / len(v) for v in rows.values()) if rows else None
    fit = anova([[r.reward for r in v] for v in rows.values()])
    icc = within = between = floor = None
    needed: dict[str, int | None] = {target_key(x): None for x in targets}
    if fit is None:
        notes.append(
            "the noise floor needs two or more tasks and two or more trials of some task "
            "(--trials 2 or more)"
        )
    else:
        msb, msw, n0 = fit
        within = msw
        between = max(0.0, (msb - msw) / n0)
        denominator = msb + (n0 - 1) * msw
        icc = (msb - msw) / denominator if denominator > 0 else None
        assert k is not None
        if have_scipy():
            lam = noncentrality(len(rows) - 1, alpha=alpha, power=power)
            floor = _mdd(lam, len(rows), k, msw)
            needed = {target_key(x): _trials_needed(lam, len(rows), msw, x) for x in targets}
        else:
            notes.append(
                "the minimum detectable difference and the trials needed are left out: they "
                f"need the stats extra (scipy): {STATS_INSTALL}"
            )
        if msw == 0:
            notes.append(
                "the trials of every task agree: no trial noise was measured, so any "
                "difference between agents that shows in these tasks is detectable"
            )
        if len(repeated) < len(rows):
            notes.append(
                f"{len(rows) - len(repeated)} task(s) have a single scored trial and add no "
                "information about trial noise"
            )
    return NoiseFloor(
        tasks=len(rows),
        tasks_repeated=len(repeated),
        trials_per_task=k,
        flip_rate=math.fsum(flips) / len(flips) if flips else None,
        tasks_flipping=sum(flipping) / len(flipping) if flipping else None,
        icc=icc,
        within_task_variance=within,
        between_task_variance=between,
        alpha=alpha,
        power=power,
        mdd=floor,
        trials_needed=needed,
        sources=variance_split(rows, judged=judged) if rows else None,
        notes=notes,
    )
