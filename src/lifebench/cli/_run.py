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
    ctx: typer.Context,
    suite: Annotated[str, typer.Option(help="Suite (see the suite options below).")] = "vita",
    domain: Annotated[
        str | None,
        typer.Option(
            help="Domain of the suite (vita: delivery | instore | ota | cross; default: the "
            "domain the --tasks file declares; delivery for bundled tasks)."
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
            help="Agent kind of the suite (default: llm with --agent-model, else the suite's "
            "offline agent)."
        ),
    ] = None,
    user: Annotated[
        str | None,
        typer.Option(
            help="User-simulator kind (default: llm with --user-model, else the suite's "
            "offline user)."
        ),
    ] = None,
    evaluator: Annotated[
        str | None, typer.Option(help="Evaluator kind (default: the suite's).")
    ] = None,
    agent_model: Annotated[
        str | None, typer.Option(help="Agent model: a name from --models or MODEL@BASE_URL.")
    ] = None,
    user_model: Annotated[str | None, typer.Option(help="User-simulator model.")] = None,
    judge_model: Annotated[str | None, typer.Option(help="Judge model.")] = None,
    tool_model: Annotated[
        str | None, typer.Option(help="Tool-simulator model (suites whose tools it answers).")
    ] = None,
    models: Annotated[
        Path | None, typer.Option("--models", help="Models config file (YAML or JSON).")
    ] = None,
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
    """Run a suite. With no model configured: the offline demo (the suite's offline agent and
    user on its bundled tasks).

    Re-running the same command resumes: finished units are skipped, infrastructure errors are
    re-run, and a changed task file or configuration is refused with what changed.

    Options of the suite itself follow the common ones, as --name VALUE (listed below).
    """
    from lifebench.cli._suite_flags import parse_suite_flags
    from lifebench.reporting import build_report, render_report, write_report
    from lifebench.runner import RunStore
    from lifebench.runner._experiment import run_experiment
    from lifebench.suites import make_run_options, options_model

    with user_errors():
        suite_options = parse_suite_flags(ctx.args, options_model(suite), suite)
        values: dict[str, Any] = {
            "suite": suite,
            "domain": domain,
            "tasks_file": str(tasks) if tasks else None,
            "task_set": task_set,
            "task_ids": _split_ids(task_ids),
            "num_tasks": num_tasks,
            "trials": trials,
            "agent": agent or "",
            "user": user or "",
            "evaluator": evaluator or "",
            "agent_model": agent_model,
            "user_model": user_model,
            "judge_model": judge_model,
            "tool_model": tool_model,
            "suite_options": suite_options,
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
        options = make_run_options(values)
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
