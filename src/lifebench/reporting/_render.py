"""Terminal rendering of a :class:`Report` with rich tables."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from lifebench._util.text import natural_key
from lifebench.metrics import Headline
from lifebench.metrics._types import Interval
from lifebench.reporting._format import money
from lifebench.reporting._noise import noise_table, sources_table
from lifebench.reporting._outcomes import OUTCOME_MARKS, UnitSummary
from lifebench.reporting._report import Report
from lifebench.reporting._safe import safe_text
from lifebench.suites._tables import StatsTable


def _table(title: str, **kwargs: Any) -> Table:
    """A report table as printed: a rule under the header, no outer border (the report of a
    run must read at 80 columns and fit a screen)."""
    return Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, **kwargs)


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


def _score(value: float | None, scale: str) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}" if scale == "points" else _pct(value)


def _score_ci(value: float | None, ci: Interval | None, scale: str) -> str:
    if value is None or ci is None:
        return _score(value, scale)
    if scale == "points":
        return f"{value:.2f} [{ci[0]:.2f}–{ci[1]:.2f}]"
    return _with_ci(value, ci)


def headline_row(report: Report) -> tuple[str, str] | None:
    """("label (who)", value [interval]) of the suite's headline aggregate, as ``--headline``
    picks it (None when the suite has no official comparison)."""
    comparison = report.comparison
    if comparison is None or not comparison.pairs:
        return None
    pair = comparison.pairs[0]
    who = report.headline
    return (
        f"{pair.label} ({who})",
        _score_ci(pair.value(who), pair.interval(who), pair.scale),
    )


def comparison_table(report: Report) -> Table:
    """The suite's numbers as the official code computes them beside lifebench's (the one
    ``--headline`` picks first), and why units differ."""
    table = _table(title="Official scoring vs lifebench (same stored outputs)")
    comparison = report.comparison
    if comparison is None:
        return table
    order: tuple[Headline, Headline] = (
        ("official", "lifebench") if report.headline == "official" else ("lifebench", "official")
    )
    table.add_column("number")
    for who in order:
        table.add_column(who + (" (headline)" if who == report.headline else ""), justify="right")
    if not comparison.available:
        table.add_row(Text(safe_text(comparison.reason)), "—", "—")
        return table
    for pair in comparison.pairs:
        table.add_row(
            Text(safe_text(pair.label)),
            *(_score_ci(pair.value(who), pair.interval(who), pair.scale) for who in order),
        )
    table.add_row(
        "units where they differ",
        f"{comparison.differing_units} of {comparison.units}",
        "",
    )
    for name, count in comparison.classes.items():
        table.add_row(Text("  " + safe_text(name), style="dim"), str(count), "")
    return table


def summary_table(report: Report) -> Table:
    """Counts, mean reward and retries."""
    table = _table("Run summary", show_header=False)
    table.add_column("what")
    table.add_column("value", overflow="fold")
    excluded = (
        f"infra {report.n_errors} · rejected {report.n_rejected} · "
        f"ungradable {report.n_ungradable} · pending {report.n_pending}"
    )
    total = sum(report.termination.values())
    ends = ", ".join(
        f"{reason} {count} ({_pct(count / total)})" for reason, count in report.termination.items()
    )
    rows = [
        (
            "tasks / simulations",
            f"{report.n_tasks} / {report.n_simulations} ({report.n_scored} scored)",
        ),
        ("excluded", excluded),
        ("ungraded / grading errors", f"{report.n_ungraded} / {report.n_grading_errors}"),
        ("mean reward" if report.defines_success else "mean score", _pct(report.avg_reward)),
        ("retries: calls / units", f"{report.retries.model} / {report.retries.unit_reruns}"),
        ("graded by", report.grading_summary()),
    ]
    if ends:
        rows.insert(1, ("terminations", ends))
    for name, value in rows:
        table.add_row(name, Text(safe_text(value)))
    return table


def k_table(report: Report) -> Table:
    """avg@k, pass@k and pass^k for each k, with confidence intervals."""
    level = f"{100 * report.bootstrap.level:.0f}%"
    # Pass@k / Pass^k only where a unit succeeds or fails; a score suite shows its mean score
    names = K_METRICS if report.defines_success else K_METRICS[:1]
    title = "Metrics by k" if report.defines_success else "Mean score by k"
    table = _table(title=f"{title} (macro over tasks, {level} CI)")
    if not report.defines_success and len(report.pass_hat_k) < 2:
        return table  # its one number is the summary's mean score
    table.add_column("k", justify="right")
    for name in names:
        table.add_column(name.replace("_at_", "@").replace("_hat_", "^"), justify="right")
    for k in sorted(report.pass_hat_k, key=int):
        cells = (
            _with_ci(getattr(report, name).get(k), report.ci95.get(name, {}).get(k))
            for name in names
        )
        table.add_row(k, *cells)
    return table


K_METRICS = ("avg_at_k", "pass_at_k", "pass_hat_k")
"""The per-k metrics; only the first (the mean) applies to a suite without success."""


def basis_table(report: Report) -> Table:
    """Mean reward and criterion score of each evaluation basis."""
    table = _table(title="Reward by basis")
    table.add_column("basis")
    table.add_column("mean reward", justify="right")
    table.add_column("mean score", justify="right")
    table.add_column("judge calls", justify="right")
    table.add_column("tokens/eval", justify="right")
    table.add_column("cost/eval", justify="right")
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
    table = _table(title="Coverage by basis")
    table.add_column("basis")
    table.add_column("tasks", justify="right")
    table.add_column("ungradable", justify="right")
    table.add_column("criteria/task", justify="right")
    table.add_column("unchecked asks", justify="right")
    table.add_column("undecided", justify="right")
    by_field = any(cov.by_field for cov in report.coverage_by_basis.values())
    telling = by_field or any(
        cov.ungradable_tasks or cov.tasks_with_unchecked or cov.undecided_tasks
        for cov in report.coverage_by_basis.values()
    )
    if not telling:  # every task fully checkable: nothing to say (report.json keeps the counts)
        return table
    if by_field:
        table.add_column("checked/unchecked by field", justify="left", overflow="fold")
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
            *([Text(safe_text(fields or "–"))] if by_field else []),
        )
    return table


def termination_table(report: Report) -> Table:
    """How the completed simulations ended."""
    table = _table(title="Termination")
    table.add_column("reason")
    table.add_column("count", justify="right")
    table.add_column("share", justify="right")
    total = sum(report.termination.values())
    for reason, count in report.termination.items():
        table.add_row(reason, str(count), _pct(count / total if total else None))
    return table


def usage_table(report: Report) -> Table:
    """Mean tokens and cost per simulation by role, plus activity means."""
    table = _table(title="Usage per simulation (means)")
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
    unknown = cost.unknown("total")
    table.add_row("total", "", "", _money(cost.total, unknown))
    if report.defines_success:
        per_success = _money(cost.per_success, unknown)
        table.add_row("run total / per success", "", _money(cost.sum, unknown), per_success)
    else:  # a score suite has no successes to divide by
        table.add_row("run total", "", _money(cost.sum, unknown), "")
    priced = [f"{role}: {', '.join(sources)}" for role, sources in cost.priced_by.items()]
    unpriced = [f"{role}: unknown ({n} call(s))" for role, n in cost.unpriced.items()]
    if priced or unpriced:
        table.caption = "prices — " + "; ".join([*priced, *unpriced])
    calls = f"{_num(report.mean_tool_calls)} ({_pct(report.tool_error_rate)} failed)"
    table.add_row("turns / tool calls", _num(report.mean_turns), calls, "")
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
    table = _table(title="Tasks")
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
    # a score suite's graded trials earn a score: one neutral mark, never pass / fail
    scored = not report.defines_success
    graded = "• scored" if scored else "✓ pass, ✗ fail"
    out = [
        Text(
            f"Tasks — trials: {graded}, E infrastructure error, G grading error, "
            "U ungradable, · pending",
            style="bold",
        )
    ]
    for task_id in sorted(by_task, key=natural_key):
        units = sorted(by_task[task_id], key=lambda o: o.trial)
        line = Text(safe_text(task_id), style="bold") + Text("  ")
        for mark in outcome_marks(units):
            if scored and mark in "✓✗":
                mark = "•"
            line.append(mark, style=_MARK_STYLE.get(mark, ""))
        line.append(f"  mean {'score ' if scored else ''}{_pct(means.get(task_id))}")
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
    table = _table(title="Failures (grouped by message)")
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


def compact_table(table: StatsTable) -> Table:
    """A suite's table (``tasks stats``, the report's suite tables) as printed: no side
    borders, one rule under the header, cells never wrapped."""
    out = _table(table.title, collapse_padding=True)
    for i, column in enumerate(table.columns):
        justify: Literal["left", "right"] = "left" if i in table.left_columns else "right"
        out.add_column(safe_text(column), justify=justify, no_wrap=True)
    for row in table.rows:
        out.add_row(*(Text(safe_text(cell)) for cell in row))
    return out


def suite_tables(report: Report) -> list[tuple[Table, list[str]]]:
    """The suite's own metrics: the tables it designs with their notes, else one table of its
    metrics by (dotted) name."""
    if report.suite_tables:
        return [(compact_table(t), list(t.notes)) for t in report.suite_tables]
    return [(suite_table(report), [])]


def suite_table(report: Report) -> Table:
    """The suite's own metrics (nested ones flattened to dotted names)."""
    suite = report.config.get("suite", "suite")
    table = _table(title=f"{suite} metrics")
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
    head = headline_row(report)
    if head is not None:
        parts.append(f"{head[0]} {head[1]}")
    if k is not None and report.defines_success:
        parts.append(
            f"avg@{k} {_pct(report.avg_at_k.get(k))} · pass@{k} {_pct(report.pass_at_k.get(k))}"
            f" · pass^{k} {_pct(report.pass_hat_k.get(k))}"
        )
    elif k is not None:  # a score suite: no success, so no pass@k / pass^k
        parts.append(f"mean score@{k} {_pct(report.avg_at_k.get(k))}")
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
    tables: list[tuple[Table, list[str]]] = [
        (summary_table(report), []),
        (comparison_table(report), []),
        *suite_tables(report),
        (k_table(report), []),
        (basis_table(report), []),
        (coverage_table(report), []),
        (usage_table(report), []),
    ]
    if report.noise is not None and report.noise.tasks_repeated:  # one trial: no floor
        tables.append((noise_table(report.noise), []))
        sources = sources_table(report.noise)
        if sources is not None:
            tables.append((sources, []))
    tables.append((failure_table(report), []))
    if show_tasks and outcomes is None:
        tables.append((task_table(report), []))
    for table, notes in tables:
        if table.row_count:
            out.print(table)
        for note in notes:
            out.print(Text(safe_text(note), style="dim"), highlight=False)
    if show_tasks and outcomes is not None:
        for line in task_lines(report, outcomes):
            out.print(line, highlight=False)
    if report.comparison is not None:
        for note in report.comparison.notes:
            out.print(Text("official: ", style="dim") + Text(safe_text(note)), highlight=False)
    for warning in report.warnings:
        out.print(Text("warning: ", style="yellow") + Text(safe_text(warning)), highlight=False)
