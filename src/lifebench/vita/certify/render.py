"""Terminal output of ``lifebench tasks certify``: per task, per field class, per variation."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from lifebench.vita.certify.engine import CertifyReport


def task_table(report: CertifyReport) -> Table:
    """Per task: solvable, discriminating, data errors, near misses and variations."""
    table = Table(title="Tasks", box=box.SIMPLE_HEAD, pad_edge=False)
    for col in (
        "task",
        "solvable",
        "discriminating",
        "data errors",
        "near misses rejected",
        "false accepts",
        "variations accepted",
        "false rejects",
    ):
        table.add_column(col, no_wrap=True)
    for cert in report.tasks:
        rejected = sum(t.outcome == "rejected" for t in cert.near_misses)
        accepted = sum(t.outcome == "accepted" for t in cert.variations)
        table.add_row(
            cert.id,
            "yes" if cert.solvable else ("undecided" if cert.undecided else "NO"),
            "yes" if cert.discriminating else "no",
            str(len(cert.data_errors)) if cert.data_errors else "",
            f"{rejected}/{len(cert.near_misses)}",
            str(len(cert.false_accepts)) if cert.false_accepts else "",
            f"{accepted}/{len(cert.variations)}",
            str(len(cert.false_rejects)) if cert.false_rejects else "",
        )
    return table


def field_table(report: CertifyReport) -> Table:
    """Per field class: near misses generated, rejected, false accepts, undecided, tool-stopped."""
    table = Table(title="Near misses by field class", box=box.SIMPLE_HEAD, pad_edge=False)
    for col in (
        "field",
        "tasks",
        "generated",
        "rejected",
        "false accepts",
        "undecided",
        "tool-stopped",
    ):
        table.add_column(col, justify="left" if col == "field" else "right", no_wrap=True)
    for field, c in report.summary.by_field.items():
        table.add_row(
            field,
            str(c.tasks),
            str(c.generated),
            str(c.rejected),
            str(c.accepted),
            str(c.undecided),
            str(c.tool_stopped),
        )
    return table


def variation_table(report: CertifyReport) -> Table:
    """Per variation kind: generated, accepted, false rejects, tool-stopped."""
    table = Table(title="Correct-but-unusual variations", box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("variation", "generated", "accepted", "false rejects", "tool-stopped"):
        table.add_column(col, justify="left" if col == "variation" else "right", no_wrap=True)
    for kind, c in report.summary.variations.items():
        table.add_row(
            kind, str(c.generated), str(c.accepted), str(c.false_rejects), str(c.tool_stopped)
        )
    return table


def render(report: CertifyReport, console: Console | None = None) -> None:
    """Print the task table, the field-class and variation tables and the headline counts."""
    out = console or Console()
    out.print(task_table(report))
    out.print(field_table(report))
    out.print(variation_table(report))
    s = report.summary
    out.print(
        f"{s.tasks} tasks ({report.domain}, {report.language}): solvable {s.solvable}, "
        f"discriminating {s.discriminating}, with data errors {s.with_data_errors}, "
        f"ungradable {s.ungradable}, undecided {s.undecided}; noop accepted "
        f"{len(s.noop_accepted)}; false accepts {sum(s.false_accepts.values())}; false rejects "
        f"{sum(s.false_rejects.values())}",
        highlight=False,
    )
    if s.unsolved_without_data_error:
        out.print(
            "[red]unsolved without a data error (a lint gap):[/] "
            + ", ".join(s.unsolved_without_data_error),
            highlight=False,
        )
    for cert in report.tasks:
        for t in cert.false_accepts:
            out.print(
                f"[red]false accept[/] {cert.id}: {t.field}/{t.kind} at {t.target}",
                highlight=False,
            )
        for t in cert.false_rejects:
            out.print(f"[red]false reject[/] {cert.id}: {t.kind} at {t.target}", highlight=False)
        for error in cert.data_errors:
            out.print(f"data error {cert.id}: {error}", highlight=False, markup=False)
