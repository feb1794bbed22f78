"""Terminal rendering of a :class:`Report` with rich tables."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from lifebench._util.text import natural_key
from lifebench.metrics._types import Interval
from lifebench.reporting._format import money
from lifebench.reporting._outcomes import OUTCOME_MARKS, UnitSummary
from lifebench.reporting._report import Report
from lifebench.reporting._safe import safe_text


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _with_ci(value: float | None, ci: Interval | None) -> str:
    if value is None:
        return "—"
    if ci is None:
        return _pct(value)
    return f"{_pct(value)} [{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]"


def _num(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:,.{digits}f}"


def _money(value: float | None, unknown: bool = False) -> str:
    return money(value, unknown)


def summary_table(report: Report) -> Table:
    """Counts, mean reward and retries."""
    table = Table(title="Run summary", show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    rows = [
        ("tasks", str(report.n_tasks)),
        ("simulations (scored)", f"{report.n_simulations} ({report.n_scored})"),
        ("infrastructure errors (excluded)", str(report.n_errors)),
        ("pending", str(report.n_pending)),
        ("rejected by the provider (excluded)", str(report.n_rejected)),
        ("ungraded / grading errors", f"{report.n_ungraded} / {report.n_grading_errors}"),
        ("ungradable (excluded)", str(report.n_ungradable)),
        ("mean reward", _pct(report.avg_reward)),
        ("retries: model calls / units", f"{report.retries.model} / {report.retries.unit_reruns}"),
        ("graded by", report.grading_summary()),
    ]
    for name, value in rows:
        table.add_row(name, value)
    return table


def k_table(report: Report) -> Table:
    """avg@k, pass@k and pass^k for each k, with confidence intervals."""
    level = f"{100 * report.bootstrap.level:.0f}%"
    table = Table(title=f"Metrics by k (macro over tasks, {level} bootstrap CI)")
    table.add_column("k", justify="right")
    for name in ("avg@k", "pass@k", "pass^k"):
        table.add_column(name, justify="right")
    for k in sorted(report.pass_hat_k, key=int):
        table.add_row(
            k,
            _with_ci(report.avg_at_k.get(k), report.ci95.get("avg_at_k", {}).get(k)),
            _with_ci(report.pass_at_k.get(k), report.ci95.get("pass_at_k", {}).get(k)),
            _with_ci(report.pass_hat_k.get(k), report.ci95.get("pass_hat_k", {}).get(k)),
        )
    return table


def basis_table(report: Report) -> Table:
    """Mean reward and criterion score of each evaluation basis."""
    table = Table(title="Reward by basis")
    table.add_column("basis")
    table.add_column("mean reward", justify="right")
    table.add_column("mean score", justify="right")
    table.add_column("judge calls", justify="right")
    table.add_column("tokens / eval", justify="right")
    table.add_column("cost / eval", justify="right")
    for name, reward in report.reward_by_basis.items():
        usage = report.usage_by_basis.get(name)
        table.add_row(
            Text(safe_text(name)),
            _pct(reward),
            _pct(report.score_by_basis.get(name)),
            str(usage.calls) if usage else "–",
            _num(usage.mean_tokens, 0) if usage else "–",
            _money(usage.mean_cost, usage.unpriced > 0) if usage else "–",
        )
    for pair, kappa in report.kappa_by_pair.items():
        label = Text(safe_text(f"κ {pair.replace('~', ' vs ')}"))
        table.add_row(label, _num(kappa, 3), "", "", "", "")
    return table


def coverage_table(report: Report) -> Table:
    """What each basis could check: criteria per task, tasks with asks it cannot check."""
    table = Table(title="Coverage by basis")
    table.add_column("basis")
    table.add_column("tasks", justify="right")
    table.add_column("ungradable", justify="right")
    table.add_column("criteria / task", justify="right")
    table.add_column("tasks with unchecked asks", justify="right")
    table.add_column("undecided", justify="right")
    table.add_column("checked / unchecked by field", justify="left")
    for name, cov in report.coverage_by_basis.items():
        fields = ", ".join(
            f"{field} {c.get('checked', 0)}/{c.get('unchecked', 0)}"
            for field, c in cov.by_field.items()
        )
        table.add_row(
            name,
            str(cov.tasks),
            str(cov.ungradable_tasks),
            _num(cov.mean_criteria),
            f"{cov.tasks_with_unchecked} ({_pct(cov.share_with_unchecked)})",
            str(cov.undecided_tasks),
            Text(safe_text(fields or "–")),
        )
    return table


def termination_table(report: Report) -> Table:
    """How the completed simulations ended."""
    table = Table(title="Termination")
    table.add_column("reason")
    table.add_column("count", justify="right")
    table.add_column("share", justify="right")
    total = sum(report.termination.values())
    for reason, count in report.termination.items():
        table.add_row(reason, str(count), _pct(count / total if total else None))
    return table


def usage_table(report: Report) -> Table:
    """Mean tokens and cost per simulation by role, plus activity means."""
    table = Table(title="Usage per simulation (means)")
    table.add_column("role")
    table.add_column("prompt tokens", justify="right")
    table.add_column("completion tokens", justify="right")
    table.add_column("cost", justify="right")
    tokens, cost = report.tokens, report.cost
    for role, usage, spend in (
        ("agent", tokens.agent, cost.agent),
        ("user", tokens.user, cost.user),
        ("judge", tokens.judge, cost.judge),
        ("tool", tokens.tool, cost.tool),
    ):
        spend_text = _money(spend, cost.unknown(role))
        table.add_row(role, _num(usage.prompt, 0), _num(usage.completion, 0), spend_text)
    table.add_section()
    unknown = cost.unknown("total")
    table.add_row("total", "", "", _money(cost.total, unknown))
    table.add_row(
        "run total / per success", "", _money(cost.sum, unknown), _money(cost.per_success, unknown)
    )
    priced = [f"{role}: {', '.join(sources)}" for role, sources in cost.priced_by.items()]
    unpriced = [f"{role}: unknown ({n} call(s))" for role, n in cost.unpriced.items()]
    if priced or unpriced:
        table.caption = "prices — " + "; ".join([*priced, *unpriced])
    table.add_row("turns / tool calls", _num(report.mean_turns), _num(report.mean_tool_calls), "")
    table.add_row("tool error rate", _pct(report.tool_error_rate), "", "")
    return table


MAX_FAILED_LINES = 3


def outcome_marks(outcomes: Sequence[UnitSummary]) -> str:
    """One mark per trial: ✓ pass, ✗ fail, E infrastructure error, G grading error,
    U ungradable, · pending."""
    return "".join(OUTCOME_MARKS[o.outcome] for o in sorted(outcomes, key=lambda o: o.trial))


def _counts(values: Iterable[str]) -> str:
    counts = Counter(values)
    return ", ".join(f"{v}×{n}" if n > 1 else v for v, n in sorted(counts.items()))


def _task_evidence(outcomes: Sequence[UnitSummary]) -> list[tuple[str, str]]:
    """(mark, line) evidence of one task's trials: distinct failed criteria with counts, then
    each trial's error."""
    failed = Counter(
        line for o in outcomes if o.outcome != "pass" for line in (f.line() for f in o.failed)
    )
    lines = [("✗", f"{line} (×{n})" if n > 1 else line) for line, n in sorted(failed.items())]
    if len(lines) > MAX_FAILED_LINES:
        lines = [*lines[:MAX_FAILED_LINES], ("", f"… {len(lines) - MAX_FAILED_LINES} more")]
    lines += [(OUTCOME_MARKS[o.outcome], f"#{o.trial} {o.error}") for o in outcomes if o.error]
    return lines


def task_table(report: Report) -> Table:
    """One row per task: scored trials, successes, mean reward, errors, pending."""
    table = Table(title="Tasks")
    table.add_column("task", overflow="fold")
    table.add_column("trials", justify="right")
    table.add_column("successes", justify="right")
    table.add_column("mean reward", justify="right")
    table.add_column("errors", justify="right")
    table.add_column("pending", justify="right")
    for row in report.tasks:
        table.add_row(
            Text(safe_text(row.task_id)),
            str(row.n_trials),
            str(row.n_successes),
            _pct(row.mean_reward),
            str(row.n_errors),
            str(row.n_pending),
        )
    return table


_MARK_STYLE = {"✓": "green", "✗": "red", "E": "yellow", "G": "yellow", "U": "yellow"}


def task_lines(report: Report, outcomes: Sequence[UnitSummary]) -> list[Text]:
    """Per task (ids in natural order: ``T2`` before ``T10``): its trials' marks, mean reward
    and terminations, then (indented) the criteria that failed (first lines, with counts) and
    each trial's error."""
    by_task: dict[str, list[UnitSummary]] = defaultdict(list)
    for o in outcomes:
        by_task[o.task_id].append(o)
    means = {r.task_id: r.mean_reward for r in report.tasks}
    out = [
        Text(
            "Tasks — trials: ✓ pass, ✗ fail, E infrastructure error, G grading error, "
            "U ungradable, · pending",
            style="bold",
        )
    ]
    for task_id in sorted(by_task, key=natural_key):
        units = sorted(by_task[task_id], key=lambda o: o.trial)
        line = Text(safe_text(task_id), style="bold") + Text("  ")
        for mark in outcome_marks(units):
            line.append(mark, style=_MARK_STYLE.get(mark, ""))
        line.append(f"  mean {_pct(means.get(task_id))}")
        ends = _counts(o.termination for o in units if o.termination)
        if ends:
            line.append(f"  {ends}", style="dim")
        out.append(line)
        for mark, text in _task_evidence(units):
            evidence = Text("    ") + Text(mark, style=_MARK_STYLE.get(mark, ""))
            out.append(evidence + Text(" " + safe_text(text)))
    return out


def failure_table(report: Report) -> Table:
    """Failures grouped by kind and message, with counts and an example unit."""
    table = Table(title="Failures (grouped by message)")
    table.add_column("kind")
    table.add_column("count", justify="right")
    table.add_column("tasks", justify="right")
    table.add_column("message", overflow="fold")
    table.add_column("example", overflow="fold")
    for group in report.failures:
        table.add_row(
            group.kind,
            str(group.count),
            str(group.tasks),
            Text(safe_text(group.message)),
            Text(safe_text(group.example)),
        )
    return table


def _flat(prefix: str, value: Any, out: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        for key in sorted(value):
            _flat(f"{prefix}.{key}" if prefix else str(key), value[key], out)
    elif isinstance(value, float):
        out.append((prefix, f"{value:.4g}"))
    elif isinstance(value, list):
        out.append(
            (prefix, ", ".join(str(v) for v in value[:8]) + (" …" if len(value) > 8 else ""))
        )
    else:
        out.append((prefix, "-" if value is None else str(value)))


def suite_table(report: Report) -> Table:
    """The suite's own metrics (nested ones flattened to dotted names)."""
    suite = report.config.get("suite", "suite")
    table = Table(title=f"{suite} metrics")
    table.add_column("metric")
    table.add_column("value", justify="right")
    rows: list[tuple[str, str]] = []
    for name, value in report.suite_metrics().items():
        _flat(name, value, rows)
    for name, text in rows:
        table.add_row(Text(safe_text(name)), Text(safe_text(text)))
    return table


def headline(report: Report) -> str:
    """The report in one line: the largest k's avg@k / pass@k / pass^k, counts and cost."""
    k = str(report.max_k) if report.max_k else None
    parts = [f"{report.n_tasks} tasks, {report.n_simulations} simulations"]
    if k is not None:
        parts.append(
            f"avg@{k} {_pct(report.avg_at_k.get(k))} · pass@{k} {_pct(report.pass_at_k.get(k))}"
            f" · pass^{k} {_pct(report.pass_hat_k.get(k))}"
        )
    problems = [
        f"{n} {what}"
        for n, what in (
            (report.n_errors, "infrastructure errors"),
            (report.n_rejected, "rejected"),
            (report.n_grading_errors, "grading errors"),
            (report.n_pending, "pending"),
        )
        if n
    ]
    parts.append(f"cost {_money(report.cost.sum, report.cost.unknown('sum'))}")
    return " — ".join([*parts, *(["; ".join(problems)] if problems else [])])


def render_report(
    report: Report,
    console: Console | None = None,
    *,
    show_tasks: bool = False,
    outcomes: Sequence[UnitSummary] | None = None,
) -> None:
    """Print the report's tables (and warnings) to ``console`` (stdout by default).

    ``show_tasks`` adds the per-task table; with ``outcomes`` (see
    :func:`~lifebench.reporting.unit_summaries`) it shows each trial's outcome, termination,
    failed criteria and errors.
    """
    out = console or Console()
    tables = [summary_table(report), k_table(report), basis_table(report), coverage_table(report)]
    tables += [suite_table(report), termination_table(report), usage_table(report)]
    tables.append(failure_table(report))
    if show_tasks and outcomes is None:
        tables.append(task_table(report))
    for table in tables:
        if table.row_count:
            out.print(table)
    if show_tasks and outcomes is not None:
        for line in task_lines(report, outcomes):
            out.print(line, highlight=False)
    for warning in report.warnings:
        out.print(Text("warning: ", style="yellow") + Text(safe_text(warning)), highlight=False)
