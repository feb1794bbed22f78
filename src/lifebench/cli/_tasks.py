"""``lifebench tasks``: validate, lint, describe and generate task files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from lifebench._util.text import Language, escape_invisible
from lifebench.cli._common import user_errors, write_json
from lifebench.errors import InputError

app = typer.Typer(help="Inspect task files.", no_args_is_help=True)


def _detected(files: list[Path]) -> str:
    """The suite of ``files``, told from their content (named on stderr)."""
    from lifebench.data import detect_suite_of

    name = detect_suite_of(files)
    typer.echo(f"suite: {name} (from the file's content; --suite to choose)", err=True)
    return name


def _other_suite_hint(file: Path, chosen: str) -> str:
    """'this looks like a travel file (--suite travel); ' when its content says so."""
    from lifebench.data import detect_suite

    try:
        found = detect_suite(file)
    except InputError:
        return ""
    if found == chosen:
        return ""
    return f"this looks like a {found} file (--suite {found}); read as {chosen}: "


def _language(value: str) -> Language:
    if value not in ("en", "zh"):
        raise InputError(f"must be 'en' or 'zh', got {value!r}", field="--language")
    return "zh" if value == "zh" else "en"


@app.command("validate")
def validate(
    file: Annotated[Path, typer.Argument(help="A task file in the suite's official format.")],
    suite: Annotated[
        str | None,
        typer.Option(help="Suite whose format the file is in (default: told from its content)."),
    ] = None,
    domain: Annotated[
        str | None, typer.Option(help="Domain to check the tasks against (default: the file's).")
    ] = None,
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
    from lifebench.suites import get_suite

    with user_errors():
        name = suite or _detected([file])
        s = get_suite(name)
        try:
            dom = s.resolve_domain(file, domain)
            tasks = s.load_tasks(file, dom, "en")
        except InputError as exc:
            raise InputError(_other_suite_hint(file, name) + str(exc)) from None
        if not tasks:  # as `run` refuses it
            raise InputError("holds no tasks", file=str(file))
        issues = list(s.lint(tasks))
    if as_json:
        write_json(
            json.dumps([i.model_dump(mode="json") for i in issues], ensure_ascii=False, indent=2)
        )
    else:
        for i in issues:  # invisible characters escaped, as in every message
            line = f"{i.severity}: task {i.task_id}, {i.field}: {i.message}"
            typer.echo(escape_invisible(line), err=True)
        typer.echo(f"{file}: {len(tasks)} tasks OK ({len(issues)} lint findings)")
    if strict and any(i.severity == "error" for i in issues):
        raise typer.Exit(code=1)


@app.command("stats")
def stats(
    files: Annotated[
        list[Path] | None,
        typer.Argument(help="Task files (default: every bundled set of the suite)."),
    ] = None,
    suite: Annotated[
        str | None,
        typer.Option(
            help="Suite whose format the files are in (default: told from their content; "
            "vita without files)."
        ),
    ] = None,
    domain: Annotated[
        str | None, typer.Option(help="Domain of every file (default: inferred per file).")
    ] = None,
    language: Annotated[str, typer.Option(help="Language of the bundled sets.")] = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Complexity of task sets (vita: the analogue of VitaBench's Tables 2 and 5 — providers,
    products, transactions, search space, rubrics per task, instruction length, tool graph)."""
    from rich.console import Console

    from lifebench.suites import get_suite

    with user_errors():
        name = suite or (_detected(list(files)) if files else "vita")
        result = get_suite(name).stats(list(files or []), domain, _language(language))
    if as_json:
        write_json(json.dumps(result.data, ensure_ascii=False, indent=2))
        return
    from lifebench.reporting._render import compact_table

    console = Console()
    console.print(compact_table(result))
    for note in result.notes:
        console.print(note, highlight=False, markup=False)


@app.command("generate")
def generate(
    out: Annotated[Path, typer.Option("--out", help="Task file to write (a JSON array).")],
    domain: Annotated[
        str, typer.Option(help="Domain: delivery, instore, ota or cross.")
    ] = "delivery",
    n: Annotated[int, typer.Option("--n", help="Number of tasks.")] = 10,
    seed: Annotated[
        int, typer.Option(help="Master seed; the same seed gives a byte-identical file.")
    ] = 0,
    language: Annotated[str, typer.Option(help="Language of the tasks: en or zh.")] = "en",
    subgoals: Annotated[
        int | None, typer.Option(help="Sub-goals per task (default: 1-3, drawn per task).")
    ] = None,
    providers: Annotated[
        int | None, typer.Option(help="Stores (providers) per task (default: as needed).")
    ] = None,
    products: Annotated[
        int | None, typer.Option(help="Products per store (default: the domain's, 5).")
    ] = None,
    certify: Annotated[
        bool,
        typer.Option(
            "--certify/--no-certify",
            help="Run every task through the environment: oracle 1, noop 0, distractor 0.",
        ),
    ] = True,
) -> None:
    """Generate tasks in the official VitaBench format, each one certified by the environment.

    Every task is loaded, linted and run three times (oracle, noop and distractor agents with
    the domain's state evaluator); a draft that fails is replaced by the next sub-seed's draft.
    Exit codes: 0 written, 2 bad option or a task without an acceptable draft.
    """
    from lifebench.vita.generate import GenerateOptions, generate_tasks, write_tasks

    with user_errors():
        lang = _language(language)
        options = GenerateOptions(
            domain=domain,
            n=n,
            seed=seed,
            language=lang,
            subgoals=subgoals,
            providers=providers,
            products=products,
            certify=certify,
        )
        result = generate_tasks(options)
        write_tasks(result.tasks, out)
    checked = (
        f"certified {result.certified}/{len(result.items)} (oracle 1, noop 0, distractor 0)"
        if certify
        else "not certified"
    )
    typer.echo(
        f"{out}: {len(result.items)} {domain} tasks (seed {seed}, {lang}); {checked}; "
        f"{result.regenerated} draft(s) regenerated"
    )


@app.command("certify")
def certify(
    file: Annotated[
        Path | None,
        typer.Argument(help="A task file (default: the bundled set of --task-set/--domain)."),
    ] = None,
    domain: Annotated[
        str | None,
        typer.Option(help="Domain to run the tasks in (default: inferred from their tables)."),
    ] = None,
    language: Annotated[str, typer.Option(help="Language of the tools and bundled set.")] = "en",
    task_set: Annotated[
        str, typer.Option("--task-set", help="Bundled set when FILE is omitted: generated or demo.")
    ] = "generated",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Run the oracle, noop, near misses and variations over every task; report what the grader does.

    Near misses are generated from each task: every field of every record the oracle writes
    wrong in turn, every stated constraint broken, every change it asks left out, every
    record it does not mention changed; each must score 0 (one that scores 1 is a false accept,
    a grader bug). Variations (extra reads, cancel and re-create, a fix after creation, a note
    in other words) must score 1 (else a false reject). Tables per task, per field class and per
    variation. Exit codes: 0 clean; 1 a false accept or reject, noop passing, or a task the
    oracle cannot solve although lint flags no data error; 2 bad input.
    """
    import asyncio

    from lifebench.errors import InputError
    from lifebench.vita.certify import certify_tasks
    from lifebench.vita.certify.render import render
    from lifebench.vita.loader import load_bundled_tasks, load_tasks
    from lifebench.vita.stats import infer_domain

    with user_errors():
        if language not in ("en", "zh"):
            raise InputError(f"must be 'en' or 'zh', got {language!r}", field="--language")
        lang: Language = "zh" if language == "zh" else "en"
        if file is not None:
            tasks = load_tasks(file)
        elif domain is None:
            raise InputError("give a task FILE, or --domain to certify a bundled set", field="FILE")
        else:
            tasks = load_bundled_tasks(domain, lang, "demo" if task_set == "demo" else "generated")
        chosen = domain or infer_domain(tasks)
        report = asyncio.run(certify_tasks(tasks, chosen, lang))
    if as_json:
        write_json(report.model_dump_json(indent=2))
    else:
        render(report)
    s = report.summary
    if (
        any(s.false_accepts.values())
        or any(s.false_rejects.values())
        or s.noop_accepted
        or s.unsolved_without_data_error
    ):
        raise typer.Exit(code=1)
