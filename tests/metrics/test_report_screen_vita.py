"""A VitaBench report (a suite that defines success): 50 tasks × 4 trials, both bases judged,
fits 60 rows of an 80-column terminal and keeps Pass@k / Pass^k for every k."""

from __future__ import annotations

import io

from metrics_fakes import Rec, ev, sim
from rich.console import Console

from lifebench.reporting import build_report, render_report
from lifebench.reporting._render import headline
from lifebench.simulation._types import TerminationReason


def test_a_200_unit_vita_report_fits_60_rows_and_keeps_pass_k() -> None:
    records = []
    for i in range(200):
        task, trial = f"T{i // 4}", i % 4
        end = TerminationReason.MAX_STEPS if i % 7 == 0 else TerminationReason.AGENT_STOP
        evaluation = ev(float(i % 3 == 0), rubric=float(i % 2 == 0))
        records.append(Rec(task, trial, "done", 1, sim(task, trial, termination=end), evaluation))
    report = build_report(records, {"suite": "vita"})
    out = io.StringIO()
    render_report(report, Console(file=out, width=80))
    lines = out.getvalue().splitlines()
    assert len(lines) <= 60 and max(len(line) for line in lines) <= 80, "\n".join(lines)
    assert report.defines_success and not report.suite_tables
    k_rows = [line for line in lines if line.strip()[:2] in ("1 ", "2 ", "3 ", "4 ")]
    assert len(k_rows) == 4  # pass@k / pass^k for k = 1..4
    title = next(i for i, line in enumerate(lines) if "Metrics by k" in line)
    assert lines[title + 1].split() == ["k", "avg@k", "pass@k", "pass^k"]
    assert "pass^4" in headline(report)
