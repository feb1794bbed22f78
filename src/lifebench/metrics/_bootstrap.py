"""Percentile bootstrap over tasks, deterministic for a given seed (no numpy)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence


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
