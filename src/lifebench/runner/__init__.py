"""Running a benchmark: work units, the asyncio scheduler, the SQLite run store and progress.

A run directory holds ``run.sqlite`` (see :class:`RunStore`). :func:`run_units` executes the
units the store has not completed, commits each outcome as it arrives and can be interrupted
and resumed at any point.
"""

from lifebench.runner._progress import Progress, ProgressCounts, RetryObserver
from lifebench.runner._provenance import (
    Difference,
    Provenance,
    RunFacts,
    comparability,
    grader_version,
)
from lifebench.runner._records import AttemptRecord, EventKind, RunMeta, UnitRecord, UnitStatus
from lifebench.runner._scheduler import (
    Execute,
    RunSummary,
    exception_summary,
    infra_outcome,
    run_units,
)
from lifebench.runner._store import STORE_FILENAME, RunStore
from lifebench.runner._units import UnitOutcome, WorkUnit

__all__ = [
    "STORE_FILENAME",
    "AttemptRecord",
    "Difference",
    "EventKind",
    "Execute",
    "Progress",
    "ProgressCounts",
    "Provenance",
    "RetryObserver",
    "RunFacts",
    "RunMeta",
    "RunStore",
    "RunSummary",
    "UnitOutcome",
    "UnitRecord",
    "UnitStatus",
    "WorkUnit",
    "comparability",
    "exception_summary",
    "grader_version",
    "infra_outcome",
    "run_units",
]
