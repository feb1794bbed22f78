"""``lifebench compare`` in the terminal: tables that fit 80 columns."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from lifebench.compare._compare import Comparison, MetricComparison, PairComparison
from lifebench.reporting._format import pct
from lifebench.reporting._safe import safe_text

MAX_DISCORDANT_SHOWN = 20
_TEST = {"mcnemar_exact": "McNemar", "permutation": "perm."}


def _decimals(m: MetricComparison) -> int:
    """Decimals of a raw metric's numbers: 1 from 10 up, 2 from 1 up, else 3."""
    largest = max(abs(x) for x in (m.a, m.b, *m.ci))
    return 1 if largest >= 10 else 2 if largest >= 1 else 3


def value_text(m: MetricComparison, value: float) -> str:
    """A metric value: a percentage for fractions, else as many decimals as its size needs."""
    return pct(value) if m.scale == "fraction" else f"{value:.{_decimals(m)}f}"


def difference_text(m: MetricComparison) -> str:
    """``+7.0 [+1.0, +13.0]``: in percentage points for fractions."""
    factor = 100.0 if m.scale == "fraction" else 1.0
    digits = 1 if m.scale == "fraction" else _decimals(m)
    low, high = (f"{factor * x:+.{digits}f}" for x in m.ci)
    return f"{factor * m.difference:+.{digits}f} [{low}, {high}]"


def p_text(m: MetricComparison, several: bool) -> str:
    """The p-value (Holm-adjusted when several pairs), with the test's short name."""
    p = m.p_holm if several else m.p_value
    shown = "<0.001" if p < 0.001 else f"{p:.3f}"
    return f"{shown} {_TEST.get(m.test, m.test)}"


def runs_table(c: Comparison) -> Table:
    """The runs: label, agent, tasks and each run's noise floor on the shared tasks."""
    table = Table(title=f"Runs (compared on {c.shared_tasks} shared tasks)")
    table.add_column("", justify="right")
    table.add_column("run", overflow="fold")
    table.add_column("agent", overflow="ellipsis", no_wrap=True, max_width=32)
    table.add_column("tasks", justify="right")
    table.add_column("flips", justify="right")
    table.add_column("MDD", justify="right")
    for r in c.runs:
        mdd = r.noise.mdd
        table.add_row(
            chr(ord("A") + r.index) if r.index < 26 else str(r.index),
            Text(safe_text(r.label)),
            Text(safe_text(r.agent)),
            str(r.tasks),
            pct(r.noise.flip_rate),
            "—" if mdd is None else f"{100 * mdd:.1f} pts",
        )
    return table


def _name(c: Comparison, index: int) -> str:
    return chr(ord("A") + index) if index < 26 else str(index)


def pair_table(c: Comparison, pair: PairComparison) -> Table:
    """One row per metric: both means, the difference with its interval, p and the test."""
    a, b = _name(c, pair.a), _name(c, pair.b)
    several = len(c.pairs) > 1
    level = f"{100 * c.settings.level:.0f}%"
    table = Table(
        title=f"{a} − {b}: paired over tasks ({level} bootstrap CI"
        + (", Holm-adjusted p)" if several else ")")
    )
    table.add_column("metric", overflow="fold")
    table.add_column(a, justify="right")
    table.add_column(b, justify="right")
    table.add_column(f"{a}−{b} [CI]", justify="right")
    table.add_column("p (test)", justify="right")
    table.add_column("", justify="left")
    for m in pair.metrics:
        table.add_row(
            Text(safe_text(m.metric)),
            value_text(m, m.a),
            value_text(m, m.b),
            difference_text(m),
            p_text(m, several),
            Text("*", style="bold") if m.significant else "",
        )
    return table


def discordant_table(c: Comparison, pair: PairComparison) -> Table:
    """Tasks whose success rate differs: successes / trials in each run, the trials to view."""
    a, b = _name(c, pair.a), _name(c, pair.b)
    table = Table(  # its heading is printed above it (a narrow table would wrap a title)
        caption=(
            f"… {pair.discordant_total - MAX_DISCORDANT_SHOWN} more (--json lists them)"
            if pair.discordant_total > MAX_DISCORDANT_SHOWN
            else None
        ),
    )
    table.add_column("task", overflow="fold")
    table.add_column(a, justify="right")
    table.add_column(b, justify="right")
    table.add_column("view trials", justify="right")
    for d in pair.discordant[:MAX_DISCORDANT_SHOWN]:
        table.add_row(
            Text(safe_text(d.task_id)),
            f"{d.a_successes}/{d.a_trials}",
            f"{d.b_successes}/{d.b_trials}",
            f"{a}#{d.a_trial} {b}#{d.b_trial}",
        )
    return table


def render_comparison(c: Comparison, console: Console | None = None) -> None:
    """Print the comparison: mismatches (if allowed), the runs, each pair's metrics and its
    discordant tasks, and the warnings."""
    out = console or Console()
    if not c.comparable:
        out.print(Text("NOT COMPARABLE (--allow-mismatch):", style="bold red"), highlight=False)
        for m in c.mismatches:
            out.print(Text(safe_text(f"  {m.line()}")), highlight=False)
    out.print(runs_table(c))
    for pair in c.pairs:
        out.print(pair_table(c, pair))
        if pair.discordant_total:
            a, b = _name(c, pair.a), _name(c, pair.b)
            out.print(
                Text(
                    f"Discordant tasks: {pair.discordant_a} better in {a}, "
                    f"{pair.discordant_b} in {b}",
                    style="bold",
                ),
                highlight=False,
            )
            out.print(discordant_table(c, pair))
    out.print(
        Text(
            f"* significant at α = {c.settings.alpha:g}"
            + (" after Holm's correction over the pairs" if len(c.pairs) > 1 else "")
            + ". McNemar: exact test on tasks won by each run (per-task values 0/1); perm.: "
            "paired permutation test of the mean difference. MDD: the run's minimum "
            "detectable difference of Avg@k (80% power). Trajectories side by side: "
            "lifebench view "
            + " ".join(safe_text(r.run_dir) for r in c.runs)
            + ", then /comparison.",
            style="dim",
        ),
        highlight=False,
    )
    for m in c.noted:
        out.print(Text(safe_text(f"noted: {m.line()}"), style="dim"), highlight=False)
    for w in c.warnings:
        out.print(Text("warning: ", style="yellow") + Text(safe_text(w)), highlight=False)
