"""``lifebench tools``: list a domain's tool schemas, or run one tool in a task's environment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from lifebench._util.text import Language
from lifebench.cli._common import user_errors, write_json

app = typer.Typer(
    help="List the tools of a domain (default) or call one (`tools call`).",
    invoke_without_command=True,
)

SuiteOpt = Annotated[str, typer.Option("--suite", help="Suite name.")]
DomainOpt = Annotated[
    str | None,
    typer.Option(
        "--domain",
        help="Domain of the suite (default: the domain the --tasks file declares, else delivery).",
    ),
]
LangOpt = Annotated[str, typer.Option("--language", help="en or zh.")]


def _language(value: str) -> Language:
    from lifebench.errors import InputError

    if value not in ("en", "zh"):
        raise InputError(f"language must be en or zh, not '{value}'", field="--language")
    return "zh" if value == "zh" else "en"


@app.callback()
def tools(
    ctx: typer.Context,
    suite: SuiteOpt = "vita",
    domain: DomainOpt = None,
    language: LangOpt = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the tools of DOMAIN: name, kind (read/write/general) and the parameter schema."""
    if ctx.invoked_subcommand is not None:
        return
    from lifebench.suites import get_suite

    with user_errors():
        lang = _language(language)
        s = get_suite(suite)
        toolset = s.toolset(s.resolve_domain(None, domain), lang)
    rows = [
        {"name": t.name, "kind": t.kind.value, "parameters": t.parameters_schema(lang)}
        for t in toolset
    ]
    if as_json:
        write_json(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    stats = toolset.graph_stats()
    for t in toolset:
        typer.echo(
            f"{t.kind.value:8} {t.name}({', '.join(t.parameters_schema(lang)['properties'])})"
        )
    counts = toolset.count_by_kind()
    typer.echo(
        f"{len(toolset)} tools ({', '.join(f'{v} {k}' for k, v in counts.items())}); "
        f"graph |V|={stats.nodes} |E|={stats.edges} density={stats.density:.4f}"
    )


@app.command("call")
def call(
    name: Annotated[str, typer.Argument(help="Tool name.")],
    arguments: Annotated[str, typer.Argument(help="Arguments as a JSON object.")] = "{}",
    suite: SuiteOpt = "vita",
    domain: DomainOpt = None,
    language: LangOpt = "en",
    tasks: Annotated[
        Path | None, typer.Option("--tasks", help="Task file (default: the bundled tasks).")
    ] = None,
    task_id: Annotated[
        str | None, typer.Option("--task-id", help="Task whose database to use (default: first).")
    ] = None,
) -> None:
    """Run one tool in a fresh environment of a task and print {result, error} as JSON."""
    import asyncio

    from lifebench.errors import InputError
    from lifebench.suites import get_suite

    with user_errors():
        lang = _language(language)
        s = get_suite(suite)
        domain = s.resolve_domain(tasks, domain)  # vita: the domain the file declares
        loaded = s.load_tasks(tasks, domain, lang)
        chosen = [t for t in loaded if task_id is None or t.id == task_id]
        if not chosen:
            raise InputError(
                f"no task with id '{task_id}'", file=str(tasks or "(bundled)"), field="--task-id"
            )
        toolset = s.toolset(domain, lang, chosen[0])
    outcome = asyncio.run(toolset.run(name, arguments))
    try:
        result = json.loads(outcome.content) if not outcome.error else None
    except json.JSONDecodeError:
        result = outcome.content
    payload = {
        "result": result,
        "error": outcome.content if outcome.error else None,
        "error_kind": outcome.error_kind,
    }
    write_json(json.dumps(payload, ensure_ascii=False, indent=2))
    if outcome.error:
        raise typer.Exit(code=1)
