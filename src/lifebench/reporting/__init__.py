"""Reports of a run: a deterministic JSON document, rich terminal tables, per-unit outcomes,
trajectories, the JSONL export and the HTML / Markdown reports."""

from lifebench.reporting._outcomes import (
    FailedCriterion,
    FailureGroup,
    UnitSummary,
    failure_groups,
    unit_summaries,
    unit_summary,
)
from lifebench.reporting._render import render_report
from lifebench.reporting._report import Report, build_report, report_json, write_report

__all__ = [
    "FailedCriterion",
    "FailureGroup",
    "Report",
    "UnitSummary",
    "build_report",
    "failure_groups",
    "render_report",
    "report_json",
    "unit_summaries",
    "unit_summary",
    "write_report",
]
