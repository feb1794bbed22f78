"""An opt-in suite hook: which of the suite's own report numbers ``lifebench compare`` tests,
and whether each is a per-task success or a score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Protocol, runtime_checkable

MetricKind = Literal["success", "score"]
"""``success``: per unit a verdict (the per-task value is a rate); ``score``: a number."""


@runtime_checkable
class ComparedMetrics(Protocol):
    """A suite whose ``report_metrics`` has top-level numbers worth comparing between runs
    implements this. ``lifebench compare`` computes each named number on every shared task's
    records alone (``report_metrics`` of that task) and compares the runs task by task; the
    kind decides how it is shown (a success as a percentage). Numbers not named here are not
    compared; a suite without the hook is compared on the core metrics only."""

    def compared_metrics(self, config: Mapping[str, Any]) -> Mapping[str, MetricKind]:
        """Top-level ``report_metrics`` names of a run configured by ``config``, with their
        kinds, in display order."""
        ...
