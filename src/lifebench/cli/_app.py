"""The top-level typer application."""

from __future__ import annotations

from typing import Annotated

import typer

from lifebench.cli._compare import compare
from lifebench.cli._data import app as data_app
from lifebench.cli._eval import eval_
from lifebench.cli._export import export
from lifebench.cli._help import HelpGroup
from lifebench.cli._import import import_
from lifebench.cli._report import report
from lifebench.cli._rollout import rollout
from lifebench.cli._run import run
from lifebench.cli._serve import app as serve_app
from lifebench.cli._serve import mcp as serve_mcp
from lifebench.cli._serve import openenv as serve_openenv
from lifebench.cli._show import show
from lifebench.cli._suite_flags import SUITE_FLAGS_SETTINGS, SuiteCommand
from lifebench.cli._sweep import sweep
from lifebench.cli._tasks import app as tasks_app
from lifebench.cli._tools import app as tools_app
from lifebench.cli._view import view

app = typer.Typer(
    name="lifebench",
    cls=HelpGroup,
    help="Evaluate LLM agents on multi-turn life-service tasks (VitaBench, TravelBench, FlowBench).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        from lifebench import __version__
        from lifebench._about import revision

        commit = revision()
        line = f"lifebench {__version__}"
        if commit.source == "checkout":
            line += f" (git {commit.describe()})"
        typer.echo(line)
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Evaluate LLM agents on multi-turn life-service tasks (VitaBench, TravelBench, FlowBench)."""
    from lifebench.models._secrets import scrub_logs

    scrub_logs()


app.command("run", cls=SuiteCommand, context_settings=SUITE_FLAGS_SETTINGS)(run)
app.command("report")(report)
app.command("compare")(compare)
app.command("eval", cls=SuiteCommand, context_settings=SUITE_FLAGS_SETTINGS)(eval_)
app.command("sweep")(sweep)
app.command("rollout", cls=SuiteCommand, context_settings=SUITE_FLAGS_SETTINGS)(rollout)
app.command("import")(import_)
app.command("show")(show)
app.command("export")(export)
app.command("view")(view)
app.add_typer(tasks_app, name="tasks")
app.add_typer(tools_app, name="tools")
serve_app.command("openenv", cls=SuiteCommand, context_settings=SUITE_FLAGS_SETTINGS)(serve_openenv)
serve_app.command("mcp", cls=SuiteCommand, context_settings=SUITE_FLAGS_SETTINGS)(serve_mcp)
app.add_typer(serve_app, name="serve")
app.add_typer(data_app, name="data")
