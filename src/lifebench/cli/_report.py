"""``lifebench report``: metrics of a run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import user_errors, write_json


def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (holds run.sqlite).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    tasks: Annotated[bool, typer.Option("--tasks", help="Also list per-task results.")] = False,
) -> None:
    """Show Avg@k, Pass@k, Pass^k (with 95% bootstrap CIs), errors, turns, tokens and cost.

    The JSON is deterministic: the same stored results always print the same bytes.
    """
    from lifebench.reporting import build_report, render_report, report_json
    from lifebench.runner import RunStore

    with user_errors():
        store = RunStore.read(run_dir)
        try:
            rep = build_report(store.results(), store.config(), grading=store.grading())
        finally:
            store.close()
    if as_json:
        write_json(report_json(rep).rstrip("\n"))
    else:
        render_report(rep, show_tasks=tasks)
