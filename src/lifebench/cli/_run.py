"""``lifebench run``: simulate and grade (task, trial) units, resuming where a run stopped."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import typer

from lifebench.cli._common import err_console, user_errors


def _split_ids(values: list[str] | None) -> tuple[str, ...]:
    out: list[str] = []
    for v in values or []:
        out.extend(p for p in v.replace(",", " ").split() if p)
    return tuple(out)


def run(
    suite: Annotated[str, typer.Option(help="Suite: vita.")] = "vita",
    domain: Annotated[
        str | None,
        typer.Option(
            help="Domain: delivery | instore | ota | cross (default: the domain the --tasks file "
            "declares; delivery for bundled tasks)."
        ),
    ] = None,
    tasks: Annotated[
        Path | None,
        typer.Option("--tasks", help="Official task file (default: bundled demo tasks)."),
    ] = None,
    task_set: Annotated[
        str,
        typer.Option(
            help="Without --tasks: generated (100 per domain) | demo | auto (generated if shipped)."
        ),
    ] = "auto",
    task_ids: Annotated[
        list[str] | None,
        typer.Option("--task-ids", help="Only these task ids (repeat, or comma/space separated)."),
    ] = None,
    num_tasks: Annotated[int | None, typer.Option(help="Only the first N selected tasks.")] = None,
    trials: Annotated[int, typer.Option(min=1, help="Trials per task (k of Pass@k/Pass^k).")] = 1,
    agent: Annotated[
        str | None,
        typer.Option(
            help="llm | solo | oracle | noop (default: llm with --agent-model, else oracle)."
        ),
    ] = None,
    user: Annotated[
        str | None,
        typer.Option(
            help="llm | dummy | scripted (default: llm with --user-model, else scripted)."
        ),
    ] = None,
    evaluator: Annotated[
        str, typer.Option(help="Reward basis: state | rubric | both (state AND rubric).")
    ] = "state",
    agent_model: Annotated[
        str | None, typer.Option(help="Agent model: a name from --models or MODEL@BASE_URL.")
    ] = None,
    user_model: Annotated[str | None, typer.Option(help="User-simulator model.")] = None,
    judge_model: Annotated[str | None, typer.Option(help="Judge model.")] = None,
    models: Annotated[
        Path | None, typer.Option("--models", help="Models config file (YAML or JSON).")
    ] = None,
    judge_variant: Annotated[
        str, typer.Option(help="sliding | full | sliding-norubric | full-norubric.")
    ] = "sliding",
    window: Annotated[int, typer.Option(help="Messages per judge window.")] = 10,
    overlap: Annotated[int, typer.Option(help="Messages shared by consecutive windows.")] = 2,
    rubric_dedup: Annotated[
        str, typer.Option(help="Rubric de-duplication: paraphrase | exact (official) | overall.")
    ] = "paraphrase",
    language: Annotated[str, typer.Option(help="en | zh: prompts and tool descriptions.")] = "en",
    concurrency: Annotated[int, typer.Option(min=1, help="Units run at once.")] = 8,
    out: Annotated[
        Path | None,
        typer.Option(help="Run directory (default: runs/<suite>-<domain>-<agent>-<user>-<hash>)."),
    ] = None,
    max_steps: Annotated[int, typer.Option(min=1, help="Step limit per episode.")] = 300,
    max_errors: Annotated[int, typer.Option(min=1, help="Tool-error limit per episode.")] = 10,
    seed: Annotated[int, typer.Option(help="Run seed; per-unit seeds derive from it.")] = 300,
    temperature: Annotated[float, typer.Option(help="Sampling temperature of every role.")] = 0.0,
    cache: Annotated[
        bool, typer.Option(help="Cache model calls in RUN_DIR/model_cache.sqlite.")
    ] = True,
    quiet: Annotated[bool, typer.Option(help="No progress display.")] = False,
) -> None:
    """Run a suite. With no model configured: the offline demo (oracle agent, scripted user).

    Re-running the same command resumes: finished units are skipped, infrastructure errors are
    re-run, and a changed task file or configuration is refused with what changed.
    """
    from pydantic import ValidationError

    from lifebench.errors import InputError
    from lifebench.reporting import build_report, render_report, write_report
    from lifebench.runner import RunStore
    from lifebench.runner._experiment import run_experiment
    from lifebench.suites import RunOptions, get_suite

    with user_errors():
        resolver = getattr(get_suite(suite), "resolve_domain", None)  # vita: from the file
        domain = resolver(tasks, domain) if resolver else (domain or "delivery")
        values: dict[str, Any] = {
            "suite": suite,
            "domain": domain,
            "tasks_file": str(tasks) if tasks else None,
            "task_set": task_set,
            "task_ids": _split_ids(task_ids),
            "num_tasks": num_tasks,
            "trials": trials,
            "agent": agent or ("llm" if agent_model else "oracle"),
            "user": user or ("llm" if user_model else "scripted"),
            "evaluator": evaluator,
            "agent_model": agent_model,
            "user_model": user_model,
            "judge_model": judge_model,
            "judge_variant": judge_variant,
            "window": window,
            "overlap": overlap,
            "rubric_dedup": rubric_dedup,
            "language": language,
            "max_steps": max_steps,
            "max_errors": max_errors,
            "seed": seed,
            "temperature": temperature,
            "concurrency": concurrency,
            "out": str(out) if out else None,
            "models_file": str(models) if models else None,
            "cache": cache,
            "quiet": quiet,
        }
        try:
            options = RunOptions(**values)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = first.get("loc") or ()
            flag = ("--" + str(loc[0]).replace("_", "-")) if loc else None
            message = str(first["msg"]).removeprefix("Value error, ")
            raise InputError(message, field=flag) from None
        try:
            exp, summary = asyncio.run(run_experiment(options))
        except KeyboardInterrupt:
            err_console().print(
                "interrupted; finished units are saved. Re-run the same command to resume."
            )
            raise typer.Exit(code=130) from None
        store = RunStore.read(exp.run_dir)
        try:
            rep = build_report(store.results(), store.config())
        finally:
            store.close()
    write_report(rep, exp.run_dir / "report.json")
    if not quiet:
        render_report(rep)
    typer.echo(
        f"{summary.done} units done, {summary.infra_errors} infrastructure errors, "
        f"{summary.skipped} already done; results in {exp.run_dir}"
    )
    if summary.infra_errors:
        typer.echo("Re-run the same command to retry the units that failed.", err=True)
