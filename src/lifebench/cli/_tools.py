"""``lifebench tools``: list a domain's tool schemas, or run tools (one call, or a batch).

``tools call NAME 'JSON'`` prints ``{result, error, error_kind}``; ``tools call --batch FILE``
reads JSON Lines ``{"tool", "args", "time"}`` and prints one ``{"result", "error"}`` line per
input, in order, so whole call sets can be diffed against another implementation. ``args`` is
an object, or a string holding the raw arguments exactly as a model would send them.

Clocks: a suite whose tools read an instance time (travel) uses ``--time`` / each line's
``time`` (default: the chosen task's time). VitaBench ignores ``time``: its tools read the
clock of the task's database; a batch runs in order in one environment of the chosen task, so
later lines see what earlier lines wrote.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from lifebench._util.text import Language
from lifebench.cli._common import user_errors, write_json

app = typer.Typer(
    help="List the tools of a domain (default) or call them (`tools call`).",
    invoke_without_command=True,
)

SuiteOpt = Annotated[str, typer.Option("--suite", help="Suite name.")]
DomainOpt = Annotated[
    str | None, typer.Option("--domain", help="Domain of the suite (default: the suite's).")
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
    """List the tools of DOMAIN: kind (read/write/general), name and parameters, and the
    description the agent sees (its first line; --json: in full, with the parameter schema)."""
    if ctx.invoked_subcommand is not None:
        return
    from lifebench.suites import get_suite

    with user_errors():
        lang = _language(language)
        s = get_suite(suite)
        toolset = s.toolset(s.resolve_domain(None, domain), lang)
    rows = [
        {
            "name": t.name,
            "kind": t.kind.value,
            "description": t.description(lang),
            "parameters": t.parameters_schema(lang),
        }
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
        summary = _first_line(t.description(lang))
        if summary:
            typer.echo(f"{'':9}{summary}")
    counts = toolset.count_by_kind()
    typer.echo(
        f"{len(toolset)} tools ({', '.join(f'{v} {k}' for k, v in counts.items())}); "
        f"graph |V|={stats.nodes} |E|={stats.edges} density={stats.density:.4f}"
    )


def _first_line(text: str, width: int = 90) -> str:
    """The first non-empty line of ``text``, shortened to ``width`` characters."""
    import textwrap

    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return textwrap.shorten(line, width=width, placeholder=" …") if line else ""


def _payload(content: str, error: bool) -> tuple[Any, str | None]:
    """(result, error message) of a tool outcome; JSON results are decoded."""
    if error:
        try:
            decoded = json.loads(content)
        except json.JSONDecodeError:
            return None, content
        if isinstance(decoded, dict) and isinstance(decoded.get("error"), str):
            return None, decoded["error"]
        return None, content
    try:
        return json.loads(content), None
    except json.JSONDecodeError:
        return content, None


def _batch_lines(path: Path) -> Iterator[tuple[int, str, Any, str | None]]:
    from lifebench._util.inputs import parse_json_records, read_text
    from lifebench.errors import InputError

    text = read_text(path, what="batch file")
    for record in parse_json_records(text, str(path), what="call"):
        number, item = record.line, record.value
        if not isinstance(item, dict) or not isinstance(item.get("tool"), str):
            raise InputError(
                f'line {number}: expected {{"tool": NAME, "args": {{...}}, "time": "..."}}',
                file=str(path),
                field="tool",
            )
        args = item.get("args", {})
        if not isinstance(args, dict | str):
            raise InputError(
                f"line {number}: args must be an object or a string", file=str(path), field="args"
            )
        when = item.get("time")
        if when is not None and not isinstance(when, str):
            raise InputError(f"line {number}: time must be a string", file=str(path), field="time")
        yield number, item["tool"], args, when


@app.command("call")
def call(
    name: Annotated[str | None, typer.Argument(help="Tool name (omit with --batch).")] = None,
    arguments: Annotated[str, typer.Argument(help="Arguments as a JSON object.")] = "{}",
    suite: SuiteOpt = "vita",
    domain: DomainOpt = None,
    language: LangOpt = "en",
    tasks: Annotated[
        Path | None, typer.Option("--tasks", help="Task file (default: the bundled tasks).")
    ] = None,
    task_id: Annotated[
        str | None,
        typer.Option("--task-id", help="Task whose environment to use (default: first)."),
    ] = None,
    time: Annotated[
        str | None,
        typer.Option(
            "--time",
            help='Instance time "YYYY-MM-DD HH:MM" for suites whose tools read a clock (travel); '
            "default: the task's. VitaBench ignores it.",
        ),
    ] = None,
    batch: Annotated[
        Path | None,
        typer.Option(
            "--batch",
            help='JSON Lines of {"tool", "args", "time"}; prints one {"result", "error"} line '
            "per input, in order.",
        ),
    ] = None,
) -> None:
    """Run one tool (or a batch) and print {result, error} as JSON.

    Exit codes: 0 the call succeeded (a batch: always, errors are part of the output), 1 the
    single call returned a tool error, 2 bad input.
    """
    import asyncio

    from lifebench.errors import InputError
    from lifebench.suites import get_suite

    with user_errors():
        lang = _language(language)
        s = get_suite(suite)
        dom = s.resolve_domain(tasks, domain)
        loaded = s.load_tasks(tasks, dom, lang)
        chosen = [t for t in loaded if task_id is None or t.id == task_id]
        if not chosen:
            raise InputError(
                f"no task with id '{task_id}'", file=str(tasks or "(bundled)"), field="--task-id"
            )
        task = chosen[0]
        clocked = hasattr(s, "toolset_at")

        def toolset_for(when: str | None) -> Any:
            if clocked and when is not None:
                return s.toolset_at(dom, lang, when, task)  # type: ignore[attr-defined]
            return s.toolset(dom, lang, task)

        if batch is None:
            if name is None:
                raise InputError("give a tool NAME and its JSON arguments, or --batch FILE")
            toolset = toolset_for(time)
        else:
            lines = list(_batch_lines(batch))
            shared = toolset_for(time)
            per_time: dict[str, Any] = {}
            for _, _, _, when in lines:
                if clocked and when is not None and when not in per_time:
                    per_time[when] = toolset_for(when)

    if batch is not None:

        async def run_all() -> list[dict[str, Any]]:
            out = []
            for _, tool_name, args, when in lines:
                toolset = per_time.get(when, shared) if when is not None else shared
                raw = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
                outcome = await toolset.run(tool_name, raw)
                result, error = _payload(outcome.content, outcome.error)
                out.append({"result": result, "error": error})
            return out

        for row in asyncio.run(run_all()):
            write_json(json.dumps(row, ensure_ascii=False))
        return

    outcome = asyncio.run(toolset.run(name, arguments))
    result, error = _payload(outcome.content, outcome.error)
    payload = {"result": result, "error": error, "error_kind": outcome.error_kind}
    write_json(json.dumps(payload, ensure_ascii=False, indent=2))
    if outcome.error:
        raise typer.Exit(code=1)
