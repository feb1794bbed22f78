"""``lifebench sweep``: a grid of runs as one resumable job, with one combined report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import (
    EXIT_NOTHING_RAN,
    EXIT_UNITS_FAILED,
    err_console,
    fail,
    run_async,
    user_errors,
)


def sweep(
    sweep_file: Annotated[Path, typer.Argument(help="The sweep file (YAML or JSON).")],
    out: Annotated[
        Path | None, typer.Option(help="Sweep directory (default: the file's out, else runs/NAME).")
    ] = None,
    backend: Annotated[
        str | None, typer.Option(help="local | ray (default: the file's, else local).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Processes / Ray actors (default: the file's).")
    ] = None,
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: the file's, RAY_ADDRESS).")
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option(min=1, help="Units in flight per cell (default: the file's).")
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="List the cells and check that every cell's tasks load, then exit without "
            "running (a real sweep checks them too, before its first cell).",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option(help="No progress display.")] = False,
) -> None:
    """Run every cell of a sweep (the cross product of the file's grid axes, e.g. models ×
    suites × domains × trials) one after the other, each as an ordinary, resumable run in
    OUT/<cell>; then write OUT/sweep.json with every cell's numbers and the pooled groups of
    `combine` (e.g. VitaBench's 400-task average over its four splits).

    Re-running the same command resumes: finished cells and units are skipped. With --backend
    ray the units of each cell are spread over a Ray cluster (pip install 'lifebench[ray]');
    the results are the same as on the local backend. See examples/vitabench-full.yaml.

    Exit codes as for `lifebench run`: 0 every unit of every cell done; 1 some units failed or
    were rejected; 2 bad sweep file; 3 the provider refuses every call (the sweep stops);
    4 a run directory cannot be used; 130 / 143 interrupted (resume by re-running).
    """
    from lifebench._util.gcpolicy import batch_gc

    with user_errors(), batch_gc() as gc_policy:
        from lifebench.cli._run import finish_report, outcome_code
        from lifebench.runner._experiment import ExecutionPlan, run_experiment
        from lifebench.runner._sweep import (
            SWEEP_REPORT,
            cell_options,
            check_inputs,
            combined_report,
            expand,
            load_sweep,
            sweep_json,
        )

        spec = load_sweep(sweep_file)
        source = str(sweep_file)
        if backend is not None and backend not in ("local", "ray"):
            raise fail(f"--backend must be local or ray, not {backend!r}", 2)
        spec = spec.model_copy(
            update={
                k: v
                for k, v in {
                    "backend": backend,
                    "workers": workers,
                    "ray_address": ray_address,
                    "concurrency": concurrency,
                }.items()
                if v is not None
            }
        )
        root = out or Path(spec.out or Path("runs") / spec.name)
        cells = expand(spec, source)
        options = [cell_options(spec, c, root, quiet=quiet, source=source) for c in cells]
        counts = check_inputs(cells, options, source)  # every cell's tasks load, before any runs
        if dry_run:
            for cell, opts in zip(cells, options, strict=True):
                typer.echo(f"{cell.name}: {opts.suite}/{opts.domain or '-'} → {opts.out}")
            typer.echo(f"inputs checked: {sum(counts.values())} tasks in {len(cells)} cell(s)")
            return
        plan = ExecutionPlan(
            backend=spec.backend, workers=spec.workers, ray_address=spec.ray_address
        )
        worst = 0
        for index, (cell, opts) in enumerate(zip(cells, options, strict=True), start=1):
            err_console().print(f"[bold]cell {index}/{len(cells)}:[/] {cell.name}", highlight=False)
            exp, summary = run_async(
                lambda o=opts: run_experiment(o, plan=plan, on_ready=gc_policy.settle)  # type: ignore[misc]
            )
            for note in exp.notes:
                err_console().print(f"note: {note}", highlight=False, markup=False)
            rep = finish_report(exp.run_dir, quiet=True)
            code = outcome_code(summary, rep, exp.run_dir)
            worst = max(worst, code if code in (EXIT_UNITS_FAILED, EXIT_NOTHING_RAN) else 0)
        report = combined_report(spec, cells, root)
        (root / SWEEP_REPORT).write_text(sweep_json(report), encoding="utf-8")
        if not quiet:
            _render(report)
        typer.echo(
            f"sweep of {len(cells)} cell(s) in {root}; combined report {root / SWEEP_REPORT}"
        )
    if worst:
        raise typer.Exit(code=worst)


def _render(report: dict[str, object]) -> None:
    from rich.console import Console
    from rich.table import Table

    def pct(value: object) -> str:
        return "—" if not isinstance(value, int | float) else f"{100 * value:.1f}%"

    table = Table(title=f"Sweep {report['name']}")
    for column in (
        "cell / group",
        "tasks",
        "sims",
        "errors",
        "rejected",
        "avg@k",
        "pass@k",
        "pass^k",
    ):
        table.add_column(column)
    rows = list(report.get("cells") or []) + list(report.get("combined") or [])  # type: ignore[call-overload]
    for row in rows:
        k = str(row.get("max_k") or 1)
        table.add_row(
            str(row.get("cell") or f"pooled: {row.get('group')}"),
            str(row.get("n_tasks")),
            str(row.get("n_simulations")),
            str(row.get("n_errors")),
            str(row.get("n_rejected")),
            pct((row.get("avg_at_k") or {}).get(k)),
            pct((row.get("pass_at_k") or {}).get(k)),
            pct((row.get("pass_hat_k") or {}).get(k)),
        )
    Console().print(table)
