"""A FlowBench report designed for the suite: turn P/R/F1 and node accuracy by format, session
SR / TP / tool F1, by domain; a 200-unit run's report fits 60 rows of an 80-column terminal;
Pass@k / Pass^k only at session level, where a session succeeds or fails."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

from rich.console import Console
from test_report import _session, _turn

from lifebench.reporting import build_report, render_report
from lifebench.simulation._types import Simulation, TerminationReason

DOMAINS = ("Healthcare", "Public Services", "Telecommunications")


def _with_sim(records: list[Any]) -> list[Any]:
    out = []
    for i, rec in enumerate(records):
        sim = Simulation(
            task_id=f"t{i}", trial=0, seed=i, messages=[], termination=TerminationReason.USER_STOP
        )
        out.append(_Unit(f"t{i}", 0, rec.status, 1, sim, rec.evaluation))
    return out


class _Unit:
    def __init__(self, task_id: str, trial: int, status: str, attempts: int, sim: Any, ev: Any):
        self.task_id, self.trial, self.status, self.attempts = task_id, trial, status, attempts
        self.simulation, self.evaluation = sim, ev


def _screen(report: Any) -> list[str]:
    out = io.StringIO()
    render_report(report, Console(file=out, width=80))
    return out.getvalue().splitlines()


def _config(level: str) -> dict[str, Any]:
    return {"suite": "flow", "suite_options": {"level": level, "knowledge_format": "ensemble"}}


def test_a_200_turn_report_fits_60_rows_and_shows_scores() -> None:
    turns = [
        _turn(DOMAINS[i % 3], (1, 1, i % 2, 2, 2, i % 3), node=(1, i % 2), fmt="ensemble")
        for i in range(200)
    ]
    report = build_report(_with_sim(turns), _config("turn"))
    lines = _screen(report)
    assert len(lines) <= 60 and max(len(line) for line in lines) <= 80, "\n".join(lines)
    text = "\n".join(lines)
    by_format = report.suite_tables[0]
    assert by_format.columns[:4] == ["format", "turns", "tool P", "tool R"]
    assert "node" in by_format.columns and by_format.rows[0][0] == "ensemble"
    assert by_format.rows[0][by_format.columns.index("tool F1")] == "50.0"
    assert [r[0] for r in report.suite_tables[1].rows] == sorted(DOMAINS)
    assert not report.defines_success and "pass@" not in text.lower()
    assert "by_domain." not in text  # no dump of metric keys


def test_a_200_session_report_fits_60_rows_with_pass_at_k() -> None:
    sessions = [
        _session(DOMAINS[i % 3], (i % 3, 2, 2), success=i % 4 == 0, progress=0.5)
        for i in range(200)
    ]
    report = build_report(_with_sim([replace(s) for s in sessions]), _config("session"))
    lines = _screen(report)
    assert len(lines) <= 60 and max(len(line) for line in lines) <= 80, "\n".join(lines)
    table = report.suite_tables[0]
    assert table.columns == [
        "format",
        "sessions",
        "SR",
        "TP",
        "tool P",
        "tool R",
        "tool F1",
        "capped",
    ]
    assert table.rows[0][2] == "25.0" and table.rows[0][3] == "50.0"
    assert report.defines_success and "pass^" in "\n".join(lines)  # sessions succeed or fail
