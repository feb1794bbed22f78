"""Metrics over unit records: avg@k, pass@k, pass^k with bootstrap CIs, usage aggregates.

Every function is pure: the same records give the same numbers (bootstraps are seeded).
"""

from lifebench.metrics._bootstrap import bootstrap_ci, quantile, stratified_bootstrap
from lifebench.metrics._compute import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    compute_metrics,
)
from lifebench.metrics._official import (
    HEADLINES,
    Headline,
    OfficialComparison,
    ScorePair,
    official_round,
    tally_classes,
    unavailable,
)
from lifebench.metrics._passk import SUCCESS_TOLERANCE, is_success, pass_at_k, pass_hat_k
from lifebench.metrics._records import ResultRecord
from lifebench.metrics._types import (
    BasisCoverage,
    BootstrapInfo,
    CostStats,
    Metrics,
    RetryStats,
    RoleTokens,
    TaskMetrics,
    TokenStats,
)

__all__ = [
    "DEFAULT_BOOTSTRAP_SAMPLES",
    "DEFAULT_BOOTSTRAP_SEED",
    "HEADLINES",
    "SUCCESS_TOLERANCE",
    "BasisCoverage",
    "BootstrapInfo",
    "CostStats",
    "Headline",
    "Metrics",
    "OfficialComparison",
    "ResultRecord",
    "RetryStats",
    "RoleTokens",
    "ScorePair",
    "TaskMetrics",
    "TokenStats",
    "bootstrap_ci",
    "compute_metrics",
    "is_success",
    "official_round",
    "pass_at_k",
    "pass_hat_k",
    "quantile",
    "stratified_bootstrap",
    "tally_classes",
    "unavailable",
]
