"""Reports of a run: a deterministic JSON document and rich terminal tables."""

from lifebench.reporting._render import render_report
from lifebench.reporting._report import Report, build_report, report_json, write_report

__all__ = ["Report", "build_report", "render_report", "report_json", "write_report"]
