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
from lifebench.reporting._bundle import RunReport
from lifebench.reporting._charts import (
    Bar,
    Chart,
    LineSeries,
    Point,
    StackRow,
    bar_chart,
    line_chart,
    scatter_chart,
    stacked_rows,
)
from lifebench.reporting._outcomes import UnitSummary
from lifebench.reporting._templates import environment, static_text

ROLES = ("agent", "user", "judge", "tool")


def pct(value: float | None, digits: int = 1) -> str:
    """``0.4567`` → ``45.7%``; None → ``—``."""
    return "—" if value is None else f"{100 * value:.{digits}f}%"


def ci_text(ci: Sequence[float] | None) -> str:
    """A 95 % interval as ``[40.0–51.2]`` (empty when absent)."""
    return "" if not ci else f"[{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]"


def num(value: float | None, digits: int = 1) -> str:
    """A number with thousands separators; None → ``—``."""
    return "—" if value is None else f"{value:,.{digits}f}"


def money(value: float | None) -> str:
    """US dollars with 4 decimals; None → ``—``."""
    return "—" if value is None else f"${value:,.4f}"


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


def passk_chart(runs: Sequence[RunReport]) -> Chart:
    """Pass@k (solid) and Pass^k (dashed) against k for every run, with CI bands."""
    series = []
    for i, r in enumerate(runs):
        rep = r.report
        ks = sorted(rep.pass_hat_k, key=int)
        if not ks:
            continue
        at_ci = rep.ci95.get("pass_at_k", {})
        hat_ci = rep.ci95.get("pass_hat_k", {})
        series.append(
            LineSeries(
                f"{r.label} Pass@k",
                i,
                [(int(k), rep.pass_at_k[k]) for k in ks],
                band=[(int(k), *at_ci[k]) for k in ks if k in at_ci],
            )
        )
        series.append(
            LineSeries(
                f"{r.label} Pass^k",
                i,
                [(int(k), rep.pass_hat_k[k]) for k in ks],
                band=[(int(k), *hat_ci[k]) for k in ks if k in hat_ci],
                dashed=True,
            )
        )
    return line_chart(
        "Pass@k and Pass^k against k",
        "Pass@k (solid; some of k trials succeed) rises with k, Pass^k (dashed; all k "
        "succeed) falls; shaded: 95% bootstrap interval over tasks.",
        series,
        x_title="k (trials)",
        y_title="tasks solved",
    )


def domain_chart(runs: Sequence[RunReport]) -> Chart:
    """Avg@k per suite/domain, one bar per model."""
    models = list(dict.fromkeys(r.model for r in runs))
    bars = [
        Bar(r.group, r.model, models.index(r.model), r.report.avg_at_k.get(str(r.k)) or 0.0)
        for r in runs
        if r.report.avg_at_k
    ]
    return bar_chart(
        "Avg@k by domain",
        "Mean reward over tasks (Avg@k) for each suite/domain and model.",
        bars,
        y_title="Avg@k",
        categories=sorted({b.category for b in bars}),
    )


def turns_chart(runs: Sequence[RunReport]) -> Chart:
    """Avg@k against mean turns (VitaBench Fig. 5), one point per run."""
    points = [
        Point(r.label, i, r.report.mean_turns, r.report.avg_at_k.get(str(r.k)) or 0.0)
        for i, r in enumerate(runs)
        if r.report.mean_turns is not None and r.report.avg_at_k
    ]
    return scatter_chart(
        "Performance against turns",
        "Each run's Avg@k against its mean number of user and assistant messages.",
        points,
        x_title="mean turns per simulation",
        y_title="Avg@k",
    )


def cost_chart(runs: Sequence[RunReport]) -> Chart:
    """Mean cost per simulation, stacked by role."""
    rows = [
        StackRow(r.label, [(role, getattr(r.report.cost, role) or 0.0) for role in ROLES])
        for r in runs
    ]
    return stacked_rows(
        "Cost per simulation by role",
        "Mean US dollars per completed simulation: agent, user simulator, judge, tool simulator.",
        rows,
        normalise=False,
        unit="$",
    )


def token_chart(runs: Sequence[RunReport]) -> Chart:
    """Mean tokens (prompt + completion) per simulation, stacked by role."""
    rows = []
    for r in runs:
        parts = []
        for role in ROLES:
            t = getattr(r.report.tokens, role)
            parts.append((role, (t.prompt or 0.0) + (t.completion or 0.0)))
        rows.append(StackRow(r.label, parts))
    return stacked_rows(
        "Tokens per simulation by role",
        "Mean prompt + completion tokens per completed simulation.",
        rows,
        normalise=False,
    )


def termination_chart(runs: Sequence[RunReport]) -> Chart:
    """Share of each termination reason, one bar per run."""
    reasons = sorted({t for r in runs for t in r.report.termination})
    rows = [
        StackRow(r.label, [(t, float(r.report.termination.get(t, 0))) for t in reasons])
        for r in runs
    ]
    return stacked_rows(
        "How simulations ended",
        "Share of completed simulations per termination reason.",
        rows,
        normalise=True,
    )


def tool_error_chart(runs: Sequence[RunReport]) -> Chart:
    """Tool error rate per run."""
    bars = [
        Bar(r.label, r.label, i, r.report.tool_error_rate or 0.0)
        for i, r in enumerate(runs)
        if r.report.tool_error_rate is not None
    ]
    return bar_chart(
        "Tool error rate",
        "Tool calls that returned an error, over all tool calls.",
        bars,
        y_title="errors / calls",
    )


def complexity_chart(runs: Sequence[RunReport]) -> Chart:
    """Mean reward against the number of criteria a task's reward bases check."""
    series = [
        LineSeries(r.label, i, [(float(b.criteria), b.mean_reward) for b in r.complexity])
        for i, r in enumerate(runs)
        if r.complexity
    ]
    return line_chart(
        "Performance against task complexity",
        "Mean reward of the tasks grouped by how many criteria their reward bases check "
        "(required orders, rubrics, ...): more criteria, harder task.",
        series,
        x_title="criteria per task",
        y_title="mean reward",
    )


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, Mapping):
        for key in sorted(value, key=str):
            _flatten(f"{prefix}.{key}" if prefix else str(key), value[key], out)
    else:
        out[prefix] = value


def metric_text(value: Any) -> str:
    """A suite metric value as text: fractions in [0, 1] stay numbers (4 significant digits)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return ", ".join(metric_text(v) for v in value[:8]) + (" …" if len(value) > 8 else "")
    return str(value)


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


_MARK = {
    "pass": "✓",
    "fail": "✗",
    "infra_error": "E",
    "grading_error": "G",
    "ungradable": "U",
    "pending": "·",
}


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
                marks="".join(_MARK[u.outcome] for u in units),
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
