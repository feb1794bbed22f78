"""``lifebench compare``: is run A really better than run B?"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import user_errors, write_json


def compare(
    run_dirs: Annotated[
        list[Path], typer.Argument(help="Two or more run directories (each holds run.sqlite).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
    allow_mismatch: Annotated[
        bool,
        typer.Option(
            "--allow-mismatch",
            help="Compare runs whose tasks, grader, user simulator or judge differ (every "
            "output is marked NOT COMPARABLE and lists the differences).",
        ),
    ] = False,
    min_shared: Annotated[
        int,
        typer.Option(min=1, help="Refuse to compare runs sharing fewer scored tasks than this."),
    ] = 10,
    bootstrap_samples: Annotated[
        int, typer.Option(min=100, help="Bootstrap replicates of each interval.")
    ] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap and permutation draws.")] = 0,
) -> None:
    """Compare runs task by task: for Avg@k, Pass^k and the suite's own numbers, the paired
    difference over the shared tasks with its 95% bootstrap interval, an exact test (McNemar
    for per-task success, a paired permutation test for scores), Holm's correction over the
    pairs when more than two runs are given, and the tasks one run solves and the other does
    not (open them side by side with `lifebench view RUN_A RUN_B`, page /comparison).

    Runs whose task contents, grader version, user simulator, judge or environment differ are
    refused, naming each difference (exit 2); --allow-mismatch compares them anyway. Each
    run's noise floor (verdict flip rate, minimum detectable difference) is shown beside it.
    Needs the optional extra stats (scipy): pip install 'lifebench[stats]' (part of .[dev]).
    """
    from lifebench.compare import compare_runs
    from lifebench.compare._render import render_comparison
    from lifebench.reporting._bundle import run_labels
    from lifebench.reporting._load import load_run

    with user_errors():
        runs = [load_run(d) for d in run_dirs]
        result = compare_runs(
            runs,
            run_labels(run_dirs),
            allow_mismatch=allow_mismatch,
            min_shared=min_shared,
            bootstrap_samples=bootstrap_samples,
            seed=seed,
        )
    if as_json:
        write_json(result.model_dump_json(indent=2))
        return
    render_comparison(result)
