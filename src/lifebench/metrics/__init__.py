"""Metrics over unit records: avg@k, pass@k, pass^k with bootstrap CIs, usage aggregates.

Every function is pure: the same records give the same numbers (bootstraps are seeded).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lifebench.metrics._bootstrap import bootstrap_ci, quantile, stratified_bootstrap
    from lifebench.metrics._compute import (
        DEFAULT_BOOTSTRAP_SAMPLES,
        DEFAULT_BOOTSTRAP_SEED,
        compute_metrics,
    )
    from lifebench.metrics._headline import HEADLINES, Headline
    from lifebench.metrics._official import (
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

_MODULES: dict[str, str] = {
    "bootstrap_ci": "_bootstrap",
    "quantile": "_bootstrap",
    "stratified_bootstrap": "_bootstrap",
    "DEFAULT_BOOTSTRAP_SAMPLES": "_compute",
    "DEFAULT_BOOTSTRAP_SEED": "_compute",
    "compute_metrics": "_compute",
    "HEADLINES": "_headline",
    "Headline": "_headline",
    "OfficialComparison": "_official",
    "ScorePair": "_official",
    "official_round": "_official",
    "tally_classes": "_official",
    "unavailable": "_official",
    "SUCCESS_TOLERANCE": "_passk",
    "is_success": "_passk",
    "pass_at_k": "_passk",
    "pass_hat_k": "_passk",
    "ResultRecord": "_records",
    "BasisCoverage": "_types",
    "BootstrapInfo": "_types",
    "CostStats": "_types",
    "Metrics": "_types",
    "RetryStats": "_types",
    "RoleTokens": "_types",
    "TaskMetrics": "_types",
    "TokenStats": "_types",
}
"""Where each name of ``__all__`` is defined: the submodule is imported on first use, so that
importing one name (``HEADLINES`` for a command-line check) does not import every metric."""


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
