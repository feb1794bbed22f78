"""Paired comparison of runs and the statistics behind it (``lifebench compare``).

* :func:`compare_runs` — per pair of runs and metric: the mean difference over the shared
  tasks, its paired bootstrap interval, the exact test that fits the values, Holm's
  correction, and the discordant tasks;
* :func:`run_differences` — whether two runs may be compared at all (the one check);
* :mod:`lifebench.compare._stats` — the statistics themselves (scipy.stats tests).
"""

from lifebench.compare._comparability import Mismatch, run_differences, stored_config_differences
from lifebench.compare._compare import (
    Comparison,
    ComparisonError,
    DiscordantTask,
    MetricComparison,
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
    "Mismatch",
    "PairComparison",
    "PairedTest",
    "RunSide",
    "compare_runs",
    "holm",
    "paired_interval",
    "paired_test",
    "run_differences",
    "stored_config_differences",
]
