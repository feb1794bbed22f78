"""``lifebench run``: simulate and grade (task, trial) units, resuming where a run stopped."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lifebench.cli._common import (
    EXIT_NOTHING_RAN,
    EXIT_UNITS_FAILED,
    err_console,
    fail,
    run_async,
    user_errors,
)

if TYPE_CHECKING:
    from lifebench.reporting import Report
    from lifebench.runner import RunSummary


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
    concurrency: Annotated[
        int, typer.Option(min=1, help="Units run at once (in total, over all workers).")
    ] = 8,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Processes the units are spread over (or Ray actors with --backend ray); one "
            "process writes the run store.",
        ),
    ] = 1,
    backend: Annotated[
        str,
        typer.Option(
            help="local (this machine) | ray (a Ray cluster; pip install 'lifebench[ray]')."
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="Ray cluster address for --backend ray (default: RAY_ADDRESS, else a local "
            "Ray instance started for the run)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Run directory (default: runs/<suite>-<domain>-<agent>-<user>-<hash>)."),
    ] = None,
    max_steps: Annotated[
        int | None,
        typer.Option(min=1, help="Step limit per episode (default: the suite's; vita 300)."),
    ] = None,
    max_errors: Annotated[
        int | None,
        typer.Option(min=1, help="Tool-error limit per episode (default: the suite's; vita 10)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Run seed; per-unit seeds derive from it.")] = 300,
    temperature: Annotated[float, typer.Option(help="Sampling temperature of every role.")] = 0.0,
    cache: Annotated[
        bool, typer.Option(help="Cache model calls in RUN_DIR/model_cache.sqlite.")
    ] = True,
    quiet: Annotated[
        bool, typer.Option(help="No progress display; the report as one headline line.")
    ] = False,
    record_requests: Annotated[
        bool,
        typer.Option(
            help="Store every model call's request and response as sent and received, and "
            "each unit's prompts and tools, in the run store (compressed, de-duplicated; "
            "shown by show / view / export)."
        ),
    ] = True,
) -> None:
    """Run a suite. With no model configured: the offline demo (the suite's offline agent and
    user on its bundled tasks).

    Re-running the same command resumes: finished units are skipped, infrastructure errors are
    re-run, units the provider rejected for their content are not, and changed tasks or a
    changed configuration are refused with what changed. Tasks are matched by content (a moved
    task file resumes); a higher --trials adds trials; another endpoint for the same model is
    accepted with a note. A provider that refuses every call (bad key, unknown model, endpoint
    down) stops the run at once with its message.

    Exit codes: 0 all units done; 1 some units ended in infrastructure errors or were rejected
    by the provider; 2 bad input or changed configuration; 3 nothing could run (the provider
    refuses every call, or every unit failed); 4 the run directory cannot be used
    (unwritable, disk full, damaged, in use); 130 Ctrl-C; 143 SIGTERM (finished units are
    saved in both).

    Options of the suite itself follow the common ones, as --name VALUE (listed below).
    """
    from lifebench._util.gcpolicy import batch_gc

    with user_errors(), batch_gc() as gc_policy:
        # (imported under the batch policy: importing allocates thousands of long-lived objects)
        from lifebench.cli._suite_flags import parse_suite_flags
        from lifebench.runner._experiment import ExecutionPlan, run_experiment
        from lifebench.suites import make_run_options, options_model

        if backend not in ("local", "ray"):
            raise fail(f"--backend must be local or ray, not {backend!r}", 2)
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
            "record_requests": record_requests,
        }
        options = make_run_options(values)
        plan = ExecutionPlan(
            backend="ray" if backend == "ray" else "local",
            workers=workers,
            ray_address=ray_address,
        )
        exp, summary = run_async(
            lambda: run_experiment(options, plan=plan, on_ready=gc_policy.settle)
        )
        for note in exp.notes:
            err_console().print(f"note: {note}", highlight=False, markup=False)
        rep = finish_report(exp.run_dir, quiet=quiet)
        code = outcome_code(summary, rep, exp.run_dir)
    if code:
        raise typer.Exit(code=code)


def finish_report(run_dir: Path, *, quiet: bool) -> Report:
    """Build, write (``RUN_DIR/report.json``) and show the report of a run directory (with
    ``quiet``, its one-line headline only)."""
    from lifebench.reporting import build_report, render_report, write_report
    from lifebench.reporting._render import headline
    from lifebench.runner import RunStore

    store = RunStore.read(run_dir)
    try:
        rep = build_report(
            store.results(),
            store.config(),
            grading=store.grading(),
            provenance=store.provenance(),
        )
    finally:
        store.close()
    write_report(rep, run_dir / "report.json")
    if quiet:
        typer.echo(headline(rep))
    else:
        render_report(rep)
    return rep


def outcome_code(summary: RunSummary, rep: Report, run_dir: Path) -> int:
    """Print the summary lines and return the exit code: 3 when units ran and every one
    ended in an infrastructure error, 1 when the run holds failed or rejected units, else 0."""
    typer.echo(
        f"{summary.done} units done, {summary.infra_errors} infrastructure errors, "
        f"{summary.rejected} rejected, {summary.skipped} already done; results in {run_dir}"
    )
    typer.echo(
        f"run total: {rep.n_simulations} done, {rep.n_errors} infrastructure errors, "
        f"{rep.n_rejected} rejected, {rep.n_pending} pending"
    )
    if summary.executed and summary.done == 0 and summary.rejected == 0:
        err_console().print(
            f"[bold red]error:[/] nothing could run: all {summary.executed} unit(s) of this "
            f"session ended in an infrastructure error; most common: {_common_error(run_dir)}",
            highlight=False,
        )
        return EXIT_NOTHING_RAN
    if rep.n_errors or rep.n_rejected:
        typer.echo(
            "Re-run the same command to retry the units that failed"
            + (" (rejected units are not retried)." if rep.n_rejected else "."),
            err=True,
        )
        return EXIT_UNITS_FAILED
    return 0


def _common_error(run_dir: Path) -> str:
    """The most frequent first line of the infrastructure errors of a run, with its count."""
    from lifebench.runner import RunStore, UnitStatus

    store = RunStore.read(run_dir)
    try:
        errors = [
            (r.error or "").strip().splitlines()[-1:] or ["(no message)"]
            for r in store.results()
            if r.status is UnitStatus.INFRA_ERROR
        ]
    finally:
        store.close()
    if not errors:
        return "(none recorded)"
    (message, count), *_ = Counter(e[0] for e in errors).most_common(1)
    return f"{message} ({count}×)"
