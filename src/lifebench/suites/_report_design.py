"""An opt-in suite hook: the suite's own numbers as compact tables, and whether it defines
success.

A suite that implements :class:`ReportDesign` has its metrics shown as the tables it designs
(TravelBench: subset scores and the overall; FlowBench: P/R/F1 by knowledge format) in the
terminal (readable at 80 columns), HTML and Markdown reports, instead of a dump of its metric
keys. A suite whose reward is a score, not a success (TravelBench's 0–100 rating, FlowBench's
turn-level P/R/F1), says so with :meth:`ReportDesign.defines_success`: its reports show mean
scores, never Pass@k / Pass^k or a pass/fail outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from lifebench.suites._tables import StatsTable


@runtime_checkable
class ReportDesign(Protocol):
    """How a suite's report reads (suites without it: their metrics flattened, success
    defined by the reward)."""

    def report_tables(
        self, metrics: Mapping[str, Any], config: Mapping[str, Any]
    ) -> list[StatsTable]:
        """The suite's metrics (``Suite.report_metrics`` of a run configured by ``config``)
        as compact tables, each at most 80 columns wide when printed."""
        ...

    def defines_success(self, config: Mapping[str, Any]) -> bool:
        """Whether a unit of a run configured by ``config`` succeeds or fails (then Pass@k and
        Pass^k mean something), rather than earning a score."""
        ...
