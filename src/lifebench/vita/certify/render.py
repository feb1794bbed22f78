"""Terminal output of ``lifebench tasks certify``: one row per task, one row per near-miss kind."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from lifebench.vita.certify.engine import CertifyReport, outcome_counts
from lifebench.vita.certify.perturb import PERTURBATIONS

_MARK = {"accepted": "A", "rejected": ".", "n/a": "-"}


def task_table(report: CertifyReport) -> Table:
    """Per task: solvable, discriminating, data errors and one mark per near-miss kind."""
    table = Table(
        title="Tasks (near misses: . rejected, A accepted = false accept, - n/a)",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for col in ("task", "solvable", "discriminating", "data errors", "near misses"):
        table.add_column(col, no_wrap=True)
    for cert in report.tasks:
        marks = "".join(_MARK[cert.perturbations.get(k, "n/a")] for k in PERTURBATIONS)
        table.add_row(
            cert.id,
            "yes" if cert.solvable else "NO",
            "yes" if cert.discriminating else "no",
            str(len(cert.data_errors)) if cert.data_errors else "",
            marks,
        )
    return table


def summary_table(report: CertifyReport) -> Table:
    """Per near-miss kind: false accepts, rejections, not applicable, stopped by a tool."""
    table = Table(title="Near misses by kind", box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("kind", "false accepts", "rejected", "n/a", "tool-stopped"):
        table.add_column(col, justify="left" if col == "kind" else "right", no_wrap=True)
    for kind, counts in outcome_counts(report).items():
        table.add_row(
            kind,
            str(counts["accepted"]),
            str(counts["rejected"]),
            str(counts["n/a"]),
            str(report.summary.invalid.get(kind, 0)),
        )
    return table


def render(report: CertifyReport, console: Console | None = None) -> None:
    """Print the task table, the kind table and the headline counts."""
    out = console or Console()
    out.print(task_table(report))
    out.print("near-miss kinds, in mark order: " + ", ".join(PERTURBATIONS), highlight=False)
    out.print(summary_table(report))
    s = report.summary
    out.print(
        f"{s.tasks} tasks ({report.domain}, {report.language}): solvable {s.solvable}, "
        f"discriminating {s.discriminating}, with data errors {s.with_data_errors}, "
        f"ungradable {s.ungradable}; noop accepted {len(s.noop_accepted)}; "
        f"false accepts {sum(s.false_accepts.values())}",
        highlight=False,
    )
    if s.unsolved_without_data_error:
        out.print(
            "[red]unsolved without a data error (a lint gap):[/] "
            + ", ".join(s.unsolved_without_data_error),
            highlight=False,
        )
    for cert in report.tasks:
        accepted = [k for k, v in cert.perturbations.items() if v == "accepted"]
        if cert.solvable and accepted:
            out.print(f"[red]false accept[/] {cert.id}: {', '.join(accepted)}", highlight=False)
        for error in cert.data_errors:
            out.print(f"data error {cert.id}: {error}", highlight=False, markup=False)
