"""``lifebench tasks certify``: oracle, noop, near misses and variations over every task."""

from lifebench.vita.certify.engine import (
    CertifyReport,
    CertifySummary,
    FieldCounts,
    TaskCertificate,
    Trial,
    VariationCounts,
    certify_task,
    certify_tasks,
    summarise,
)
from lifebench.vita.certify.generate import Candidate, near_misses, variations
from lifebench.vita.certify.perturb import PlanContext

__all__ = [
    "Candidate",
    "CertifyReport",
    "CertifySummary",
    "FieldCounts",
    "PlanContext",
    "TaskCertificate",
    "Trial",
    "VariationCounts",
    "certify_task",
    "certify_tasks",
    "near_misses",
    "summarise",
    "variations",
]
