"""The HTML and Markdown reports over one or more runs (``lifebench report --html/--markdown``).

The HTML report is one self-contained file: inline CSS (allowed by its SHA-256 in a
Content-Security-Policy that forbids everything else — no script, no fetch, no external
resource), charts as inline SVG, every stored string escaped by Jinja2's autoescaping.
"""

from __future__ import annotations

import base64
import hashlib
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lifebench import __version__
from lifebench.reporting._bundle import RunReport, comparability_by_group
from lifebench.reporting._charts import Bar, Chart, bar_chart
from lifebench.reporting._format import metric_text
from lifebench.reporting._outcomes import OUTCOME_MARKS, UnitSummary
from lifebench.reporting._report_charts import (
    ROLES,
    complexity_chart,
    cost_chart,
    domain_chart,
    passk_chart,
    termination_chart,
    token_chart,
    tool_error_chart,
    turns_chart,
)
from lifebench.reporting._templates import environment, static_text


@dataclass(frozen=True)
class Cell:
    """A leaderboard cell: Avg@k, Pass@k and Pass^k at the run's largest k, with CIs."""

    k: int
    avg: float | None
    avg_ci: Sequence[float] | None
    at: float | None
    at_ci: Sequence[float] | None
    hat: float | None
    hat_ci: Sequence[float] | None
    label: str


def _cell(run: RunReport) -> Cell:
    rep, k = run.report, str(run.k)
    ci = rep.ci95
    return Cell(
        k=run.k,
        avg=rep.avg_at_k.get(k),
        avg_ci=ci.get("avg_at_k", {}).get(k),
        at=rep.pass_at_k.get(k),
        at_ci=ci.get("pass_at_k", {}).get(k),
        hat=rep.pass_hat_k.get(k),
        hat_ci=ci.get("pass_hat_k", {}).get(k),
        label=run.label,
    )


def leaderboard(runs: Sequence[RunReport]) -> tuple[list[str], list[tuple[str, dict[str, Cell]]]]:
    """(columns = suite/domain groups, rows = (model, {group: cell})); a model with two runs
    in one group gets one row per run, named by the run's label."""
    groups = sorted({r.group for r in runs})
    clash: dict[tuple[str, str], int] = defaultdict(int)
    for r in runs:
        clash[(r.model, r.group)] += 1
    rows: dict[str, dict[str, Cell]] = defaultdict(dict)
    for r in runs:
        name = r.model if clash[(r.model, r.group)] == 1 else f"{r.model} ({r.label})"
        rows[name][r.group] = _cell(r)

    def order(item: tuple[str, dict[str, Cell]]) -> tuple[float, str]:
        avgs = [c.avg for c in item[1].values() if c.avg is not None]
        return (-(math.fsum(avgs) / len(avgs)) if avgs else 1.0, item[0])

    return groups, sorted(rows.items(), key=order)


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, Mapping):
        for key in sorted(value, key=str):
            _flatten(f"{prefix}.{key}" if prefix else str(key), value[key], out)
    else:
        out[prefix] = value


@dataclass(frozen=True)
class SuiteSection:
    """A suite's own metrics across the runs of that suite."""

    suite: str
    runs: list[str]
    rows: list[tuple[str, list[str]]]
    charts: list[Chart]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def suite_sections(runs: Sequence[RunReport]) -> list[SuiteSection]:
    """Every suite's metrics rendered generically: a table of dotted names × runs, and a bar
    chart for each metric that maps names to numbers (TravelBench subsets, FlowBench levels)."""
    sections = []
    for suite in sorted({r.suite for r in runs}):
        members = [r for r in runs if r.suite == suite and r.report.suite_metrics()]
        if not members:
            continue
        flat = []
        for r in members:
            out: dict[str, Any] = {}
            _flatten("", r.report.suite_metrics(), out)
            flat.append(out)
        names = sorted({n for f in flat for n in f})
        rows = [(n, [metric_text(f.get(n)) for f in flat]) for n in names]
        charts = []
        for metric in sorted({m for r in members for m in r.report.suite_metrics()}):
            bars: list[Bar] = []
            for i, r in enumerate(members):
                value = r.report.suite_metrics().get(metric)
                if (
                    isinstance(value, Mapping)
                    and value
                    and all(_is_number(v) for v in value.values())
                ):
                    bars.extend(Bar(str(k), r.label, i, float(v)) for k, v in value.items())
            if bars:
                percent = all(0.0 <= b.value <= 1.0 for b in bars)
                charts.append(
                    bar_chart(
                        f"{suite}: {metric}",
                        f"The suite metric '{metric}' for each of its keys and runs.",
                        bars,
                        y_title=metric,
                        percent_y=percent,
                    )
                )
        sections.append(SuiteSection(suite, [r.label for r in members], rows, charts))
    return sections


@dataclass(frozen=True)
class TaskRow:
    """One task of one run: trial marks, mean reward, terminations, failed criteria, errors."""

    task_id: str
    marks: str
    mean_reward: float | None
    terminations: str
    failed: list[str]
    errors: list[str]


def task_rows(run: RunReport) -> list[TaskRow]:
    """Per task evidence of ``run`` (as ``report --tasks`` shows it)."""
    by_task: dict[str, list[UnitSummary]] = defaultdict(list)
    for s in run.summaries:
        by_task[s.task_id].append(s)
    means = {t.task_id: t.mean_reward for t in run.report.tasks}
    rows = []
    for task_id in sorted(by_task):
        units = sorted(by_task[task_id], key=lambda s: s.trial)
        terms: dict[str, int] = defaultdict(int)
        for u in units:
            if u.termination:
                terms[u.termination] += 1
        failed = sorted({f.line() for u in units if u.outcome != "pass" for f in u.failed})
        errors = [f"#{u.trial}: {u.error}" for u in units if u.error]
        rows.append(
            TaskRow(
                task_id=task_id,
                marks="".join(OUTCOME_MARKS[u.outcome] for u in units),
                mean_reward=means.get(task_id),
                terminations=", ".join(
                    f"{t}×{n}" if n > 1 else t for t, n in sorted(terms.items())
                ),
                failed=failed,
                errors=errors,
            )
        )
    return rows


def _context(runs: Sequence[RunReport]) -> dict[str, Any]:
    groups, board = leaderboard(runs)
    charts = {
        "passk": passk_chart(runs),
        "domains": domain_chart(runs),
        "turns": turns_chart(runs),
        "cost": cost_chart(runs),
        "tokens": token_chart(runs),
        "termination": termination_chart(runs),
        "tool_errors": tool_error_chart(runs),
        "complexity": complexity_chart(runs),
    }
    return {
        "version": __version__,
        "runs": runs,
        "groups": groups,
        "board": board,
        "comparability": comparability_by_group(runs),
        "charts": charts,
        "suites": suite_sections(runs),
        "tasks": {r.label: task_rows(r) for r in runs},
        "roles": ROLES,
        "max_k": max((r.k for r in runs), default=0),
    }


def csp_for_style(css: str) -> str:
    """The report's Content-Security-Policy: nothing may load or run except the one inline
    stylesheet whose SHA-256 is given."""
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode("ascii")
    return (
        "default-src 'none'; "
        f"style-src 'sha256-{digest}'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def render_html(runs: Sequence[RunReport]) -> str:
    """The self-contained HTML report of ``runs``."""
    css = static_text("report.css")
    template = environment().get_template("report.html.j2")
    return template.render(**_context(runs), css=css, csp=csp_for_style(css))


def render_markdown(runs: Sequence[RunReport]) -> str:
    """The Markdown version of the report (tables only)."""
    template = environment(markdown=True).get_template("report.md.j2")
    return template.render(**_context(runs)).rstrip("\n") + "\n"
