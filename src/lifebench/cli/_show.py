"""``lifebench show``: one trajectory and its evaluation in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import user_errors, write_json


def show(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (holds run.sqlite).")],
    task_id: Annotated[str, typer.Argument(help="Id of the task to show.")],
    trial: Annotated[
        int | None, typer.Option("--trial", min=0, help="Trial to show (default: the first).")
    ] = None,
    full: Annotated[
        bool, typer.Option("--full", help="Do not cut long messages and tool results.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the view as JSON (the same fields).")
    ] = False,
    raw: Annotated[
        bool,
        typer.Option(
            "--raw",
            help="Print every model call's request and response bodies exactly as sent and "
            "received (the tool schemas included).",
        ),
    ] = False,
    call: Annotated[
        int | None,
        typer.Option("--call", min=1, help="Print only model call N (1-based), with its bodies."),
    ] = None,
) -> None:
    """Show one (task, trial) unit: what the agent and the user simulator were told (system
    prompts, the tools offered, the user's instruction), the messages (user, assistant, tool
    calls with their arguments, tool results with error flags), how it ended, every model call
    (role, model, tokens, what its request added, the reply; with --raw the exact request and
    response bodies), its evaluation per basis (criteria with verdicts and evidence, judge
    windows and the judge's prompts and replies), the state differences and usage.

    Text from models and tools is printed as text: markup and control characters in it are
    shown, never interpreted.
    """
    from lifebench.reporting._load import load_run, load_transcript
    from lifebench.reporting._show import DEFAULT_LIMIT, render_trajectory
    from lifebench.reporting._trajectory import trajectory_view

    with user_errors():
        run = load_run(run_dir)
        record = run.record(task_id, trial)
        transcript = load_transcript(run_dir, record.task_id, record.trial)
    view = trajectory_view(record, run.task_data.get(record.task_id), transcript)
    if as_json:
        write_json(view.model_dump_json(indent=2))
        return
    others = [
        r.trial for r in run.records if r.task_id == record.task_id and r.trial != record.trial
    ]
    render_trajectory(view, limit=None if full else DEFAULT_LIMIT, raw=raw, call=call)
    if others:
        typer.echo(f"other trials of this task: {', '.join(map(str, others))} (--trial N)")
