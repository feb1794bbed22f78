"""``lifebench tasks certify``: oracle, noop and near-miss agents over every task of a file."""

from lifebench.vita.certify.engine import (
    CertifyReport,
    CertifySummary,
    TaskCertificate,
    certify_task,
    certify_tasks,
    outcome_counts,
    summarise,
)
from lifebench.vita.certify.perturb import PERTURBATIONS, PlanContext

__all__ = [
    "PERTURBATIONS",
    "CertifyReport",
    "CertifySummary",
    "PlanContext",
    "TaskCertificate",
    "certify_task",
    "certify_tasks",
    "outcome_counts",
    "summarise",
]
