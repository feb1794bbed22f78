"""``lifebench tasks``: validate and lint task files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import user_errors, write_json

app = typer.Typer(help="Inspect task files.", no_args_is_help=True)


@app.command("validate")
def validate(
    file: Annotated[Path, typer.Argument(help="A task file in the official VitaBench format.")],
    suite: Annotated[str, typer.Option(help="Suite whose format the file is in.")] = "vita",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the lint findings as JSON.")
    ] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Exit 1 when lint finds data errors.")
    ] = False,
) -> None:
    """Load FILE; exit 0 if it is valid, else name the file, task id and field that are wrong.

    Exit codes: 0 loadable, 2 malformed (with file, task id and field). Data oddities that do not
    stop a run (unknown stores in expected orders, duplicated rubrics, …) are listed on stderr;
    with --strict, lint errors among them make the exit code 1.
    """
    from lifebench.vita.lint import lint_tasks
    from lifebench.vita.loader import load_tasks

    with user_errors():
        if suite != "vita":
            from lifebench.errors import InputError

            raise InputError(f"task validation for suite '{suite}' is not available yet")
        tasks = load_tasks(file)
    issues = lint_tasks(tasks)
    if as_json:
        write_json(
            json.dumps([i.model_dump(mode="json") for i in issues], ensure_ascii=False, indent=2)
        )
    else:
        for i in issues:
            typer.echo(f"{i.severity}: task {i.task_id}, {i.field}: {i.message}", err=True)
        typer.echo(f"{file}: {len(tasks)} tasks OK ({len(issues)} lint findings)")
    if strict and any(i.severity == "error" for i in issues):
        raise typer.Exit(code=1)
