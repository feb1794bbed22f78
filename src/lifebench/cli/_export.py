"""``lifebench export``: a run's simulations and evaluations as JSON Lines."""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import user_errors, write_json, write_output
from lifebench.errors import LifebenchError


class ExportFormat(enum.StrEnum):
    """Output formats of ``lifebench export``."""

    JSONL = "jsonl"


def export(
    run_dir: Annotated[
        Path | None, typer.Argument(help="A run directory (holds run.sqlite).")
    ] = None,
    fmt: Annotated[
        ExportFormat, typer.Option("--format", help="Output format (one JSON object a line).")
    ] = ExportFormat.JSONL,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write to this file (default: stdout).")
    ] = None,
    tasks: Annotated[
        bool, typer.Option("--tasks", help="Add one 'task' line per stored task.")
    ] = False,
    attempts: Annotated[
        bool, typer.Option("--attempts", help="Add the attempt log ('attempt' lines).")
    ] = False,
    calls: Annotated[
        bool,
        typer.Option(
            "--calls",
            help="After each unit line: a 'briefing' line (system prompts, tools offered, the "
            "user's instruction) and one 'call' line per model call, with the request and "
            "response bodies exactly as sent and received.",
        ),
    ] = False,
    schema: Annotated[
        bool, typer.Option("--schema", help="Print the JSON Schema of a line and exit.")
    ] = False,
) -> None:
    """Export every simulation and evaluation of a run: a 'run' line, then one 'unit' line
    per (task, trial) with its full trajectory and evaluation (see docs/run-format.md).

    The output is deterministic: the same run store always exports the same bytes.
    """
    from lifebench.reporting._export import export_lines, export_schema, line_json
    from lifebench.reporting._load import load_run
    from lifebench.runner import RunStore

    if schema:
        write_json(json.dumps(export_schema(), indent=2, sort_keys=True))
        return
    with user_errors():
        if run_dir is None:
            raise LifebenchError("export needs a RUN_DIR (or --schema)")
        run = load_run(run_dir, attempts=attempts)
        store = RunStore.read(run_dir) if calls else None
        try:
            lines = (
                line_json(line) + "\n"
                for line in export_lines(
                    run,
                    tasks=tasks,
                    attempts=attempts,
                    transcripts=None if store is None else store.transcript,
                )
            )
            if out is None:
                sys.stdout.writelines(lines)
                return
            write_output(out, lines)
        finally:
            if store is not None:
                store.close()
    typer.echo(f"exported {len(run.records)} unit(s) of {run_dir} to {out}", err=True)
