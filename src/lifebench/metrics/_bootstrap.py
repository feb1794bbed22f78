"""Percentile bootstrap over tasks, deterministic for a given seed (no numpy)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ascending ``sorted_values`` by linear interpolation."""
    if not sorted_values:
        raise ValueError("quantile of no values")
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = pos - lo
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac


def bootstrap_ci(
    columns: Mapping[str, Sequence[float]],
    *,
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Percentile confidence intervals of the mean of each column, resampling rows (tasks).

    Every column holds one value per task, in the same task order. Each bootstrap replicate
    draws ``len`` tasks with replacement from ``random.Random(seed)`` and uses the same draw
    for every column, so intervals are paired and reproducible. Returns ``{}`` for no tasks.
    """
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    lengths = {len(values) for values in columns.values()}
    if len(lengths) > 1:
        raise ValueError("bootstrap columns must have one value per task each")
    n = lengths.pop() if lengths else 0
    if n == 0:
        return {}
    rng = random.Random(seed)
    population = range(n)
    replicates: dict[str, list[float]] = {name: [] for name in columns}
    for _ in range(samples):
        draw = rng.choices(population, k=n)
        for name, values in columns.items():
            replicates[name].append(math.fsum(values[i] for i in draw) / n)
    tail = (1.0 - level) / 2
    out: dict[str, tuple[float, float]] = {}
    for name, reps in replicates.items():
        reps.sort()
        out[name] = (quantile(reps, tail), quantile(reps, 1.0 - tail))
    return out


def stratified_bootstrap(
    strata: Mapping[str, Sequence[Sequence[float]]],
    statistic: Callable[[Mapping[str, Sequence[float]]], float | None],
    *,
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile interval of ``statistic`` under resampling within strata.

    Each stratum (e.g. a TravelBench subset) holds one vector per task — sums and counts the
    statistic needs, all of one length. A replicate draws, in every stratum, as many tasks as it
    has, with replacement (``random.Random(seed)``, strata in sorted order), adds up the drawn
    vectors per stratum and applies ``statistic`` to those totals; replicates where it is None
    are skipped. Returns None when a stratum is empty or no replicate has a value.
    """
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    names = sorted(strata)
    if not names or any(not strata[n] for n in names):
        return None
    rng = random.Random(seed)
    values: list[float] = []
    for _ in range(samples):
        totals: dict[str, Sequence[float]] = {}
        for name in names:
            rows = strata[name]
            draw = rng.choices(rows, k=len(rows))
            totals[name] = [math.fsum(column) for column in zip(*draw, strict=True)]
        value = statistic(totals)
        if value is not None:
            values.append(value)
    if not values:
        return None
    values.sort()
    tail = (1.0 - level) / 2
    return (quantile(values, tail), quantile(values, 1.0 - tail))
