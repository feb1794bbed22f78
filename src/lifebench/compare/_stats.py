"""Paired statistics over tasks: the bootstrap interval of a mean difference, the exact test
that fits the per-task values, and Holm's step-down correction.

Every function is pure and seeded: the same inputs give the same numbers. The interval is
:func:`scipy.stats.bootstrap` (percentile) and the tests come from ``scipy.stats`` too
(imported only when used): the exact McNemar test is
:func:`scipy.stats.binomtest` on the discordant tasks (the sign test), the paired permutation
test is :func:`scipy.stats.permutation_test` with ``permutation_type="samples"`` (every task's
pair of values may swap runs: sign flips of the differences), exact when it has no more than
``resamples`` arrangements and a seeded Monte Carlo test otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ALPHA = 0.05
"""Family-wise error rate of the significance flags (after Holm's correction)."""
DEFAULT_RESAMPLES = 9999
"""Arrangements drawn by the permutation test when there are more than this many."""

TestName = Literal["mcnemar_exact", "permutation"]


class PairedTest(BaseModel):
    """The outcome of the exact test of one paired difference."""

    model_config = ConfigDict(frozen=True)

    test: TestName = Field(
        description="mcnemar_exact (every per-task value is 0 or 1: a binomial test on the "
        "discordant tasks) or permutation (paired permutation test of the mean difference)."
    )
    p_value: float = Field(description="Two-sided p-value (1.0 when every task ties).")
    a_better: int = Field(description="Tasks whose value is higher in the first run.")
    b_better: int = Field(description="Tasks whose value is higher in the second run.")
    ties: int = Field(description="Tasks with the same value in both runs.")
    exact: bool = Field(
        description="True when the p-value enumerates every arrangement (McNemar always; the "
        "permutation test when 2**(untied tasks) <= resamples)."
    )


def is_binary(values: Sequence[float]) -> bool:
    """True when every value is exactly 0 or 1 (a per-task success)."""
    return all(v in (0.0, 1.0) for v in values)


def _check_paired(a: Sequence[float], b: Sequence[float]) -> None:
    if len(a) != len(b):
        raise ValueError(f"paired values need equal lengths, got {len(a)} and {len(b)}")
    if not a:
        raise ValueError("paired values need at least one task")


def mean_difference(a: Sequence[float], b: Sequence[float]) -> float:
    """Mean over tasks of ``a[i] - b[i]``."""
    _check_paired(a, b)
    return math.fsum(x - y for x, y in zip(a, b, strict=True)) / len(a)


def paired_interval(
    a: Sequence[float],
    b: Sequence[float],
    *,
    samples: int,
    seed: int,
    level: float,
) -> tuple[float, float]:
    """Percentile bootstrap interval of :func:`mean_difference`, resampling tasks: each
    replicate draws tasks with replacement and takes both runs' values of a drawn task, so the
    interval is paired (:func:`scipy.stats.bootstrap` on the per-task differences, seeded).
    One task: the interval is its difference."""
    _check_paired(a, b)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    if len(diffs) == 1:
        return diffs[0], diffs[0]
    import numpy as np
    from scipy.stats import bootstrap

    result = bootstrap(
        (np.array(diffs, dtype=float),),
        np.mean,
        n_resamples=samples,
        confidence_level=level,
        method="percentile",
        vectorized=True,
        rng=np.random.default_rng(seed),
    )
    interval = result.confidence_interval
    return float(interval.low), float(interval.high)


def mcnemar_exact(a_better: int, b_better: int) -> float:
    """Two-sided p-value of the exact McNemar test (the sign test): under no difference each
    discordant task is as likely to favour either run. 1.0 without discordant tasks."""
    if a_better < 0 or b_better < 0:
        raise ValueError("discordant counts cannot be negative")
    n = a_better + b_better
    if n == 0:
        return 1.0
    from scipy.stats import binomtest

    return float(binomtest(a_better, n, 0.5, alternative="two-sided").pvalue)


def _mean_diff_statistic(x: Any, y: Any, axis: int) -> Any:
    return (x - y).mean(axis=axis)


def permutation_p(
    a: Sequence[float], b: Sequence[float], *, resamples: int, seed: int
) -> tuple[float, bool]:
    """Two-sided p-value of the paired permutation test of the mean difference, and whether
    it is exact. Tied tasks change no arrangement and are left out; with fewer than two untied
    tasks every arrangement is as extreme as the observed one: 1.0."""
    _check_paired(a, b)
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(pairs) < 2:  # no untied task, or one: either sign is as extreme
        return 1.0, True
    import numpy as np
    from scipy.stats import permutation_test

    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    result = permutation_test(
        (x, y),
        _mean_diff_statistic,
        permutation_type="samples",
        vectorized=True,
        n_resamples=resamples,
        alternative="two-sided",
        rng=np.random.default_rng(seed),
    )
    return min(1.0, float(result.pvalue)), 2 ** len(pairs) <= resamples


def paired_test(
    a: Sequence[float], b: Sequence[float], *, resamples: int = DEFAULT_RESAMPLES, seed: int = 0
) -> PairedTest:
    """The exact test fitting the per-task values ``a`` and ``b`` (one per shared task, same
    order): McNemar when every value is 0 or 1 (a per-task success), else the paired
    permutation test of the mean difference (a score)."""
    _check_paired(a, b)
    a_better = sum(1 for x, y in zip(a, b, strict=True) if x > y)
    b_better = sum(1 for x, y in zip(a, b, strict=True) if y > x)
    ties = len(a) - a_better - b_better
    if is_binary(a) and is_binary(b):
        return PairedTest(
            test="mcnemar_exact",
            p_value=mcnemar_exact(a_better, b_better),
            a_better=a_better,
            b_better=b_better,
            ties=ties,
            exact=True,
        )
    p, exact = permutation_p(a, b, resamples=resamples, seed=seed)
    return PairedTest(
        test="permutation",
        p_value=p,
        a_better=a_better,
        b_better=b_better,
        ties=ties,
        exact=exact,
    )


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (same order as given): the i-th smallest p times the
    number of hypotheses not yet rejected, made monotone and capped at 1. Rejecting where the
    adjusted value is at most alpha controls the family-wise error rate at alpha."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
