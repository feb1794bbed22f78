"""Paired comparison of runs and the statistics behind it (``lifebench compare``).

* :func:`compare_runs` — per pair of runs and metric: the mean difference over the shared
  tasks, its paired bootstrap interval, the exact test that fits the values, Holm's
  correction, and the discordant tasks;
* whether two runs may be compared at all is :func:`lifebench.runner.comparability` (the
  one check of every face, asked about the shared tasks);
* :mod:`lifebench.compare._stats` — the statistics themselves (scipy.stats tests).
"""

from lifebench.compare._compare import (
    Comparison,
    ComparisonError,
    DiscordantTask,
    MetricComparison,
    MismatchRow,
    PairComparison,
    RunSide,
    compare_runs,
)
from lifebench.compare._stats import PairedTest, holm, paired_interval, paired_test

__all__ = [
    "Comparison",
    "ComparisonError",
    "DiscordantTask",
    "MetricComparison",
    "MismatchRow",
    "PairComparison",
    "PairedTest",
    "RunSide",
    "compare_runs",
    "holm",
    "paired_interval",
    "paired_test",
]
