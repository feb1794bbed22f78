"""The charts of the HTML report, each from the runs being compared."""

from __future__ import annotations

from collections.abc import Sequence

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

ROLES = ("agent", "user", "judge", "tool")


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
        StackRow(
            r.label,
            [(role, getattr(r.report.cost, role) or 0.0) for role in ROLES],
            unknown=[role for role in ROLES if r.report.cost.unknown(role)],
        )
        for r in runs
    ]
    return stacked_rows(
        "Cost per simulation by role",
        "Mean US dollars per completed simulation: agent, user simulator, judge, tool simulator "
        "(a role with calls whose price is not known: unknown, never $0).",
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
