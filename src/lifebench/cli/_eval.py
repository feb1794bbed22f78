"""``lifebench eval``: re-grade the saved trajectories of a run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import HEADLINE_HELP, check_headline, run_async, user_errors


def eval_(
    ctx: typer.Context,
    run_dir: Annotated[Path, typer.Argument(help="A run directory (holds run.sqlite).")],
    evaluator: Annotated[
        str | None,
        typer.Option(help="Evaluator kind (vita: state | rubric | both; default: the run's)."),
    ] = None,
    judge_model: Annotated[
        str | None, typer.Option(help="Judge model: a name from --models or MODEL@BASE_URL.")
    ] = None,
    models: Annotated[
        Path | None, typer.Option("--models", help="Models config file (YAML or JSON).")
    ] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Simulations graded at once.")] = 8,
    cache: Annotated[
        bool,
        typer.Option(
            help="Answer and record judge calls in RUN_DIR/model_cache.sqlite (--no-cache: "
            "every judge call is made again and nothing is recorded there)."
        ),
    ] = True,
    rejudge: Annotated[
        int,
        typer.Option(
            min=1,
            help="Grade each trajectory K times in all: K - 1 extra gradings, each a fresh "
            "judge call (never answered from the cache, but recorded in it) with its own seed, "
            "stored with the evaluation; "
            "the report then splits off the judge's share of the variance. The reward is "
            "still the ordinary grading's. A run no grader of which asks a judge is not graded "
            "again (its judge variance is 0 by construction).",
        ),
    ] = 1,
    quiet: Annotated[
        bool, typer.Option(help="No progress display; the report as one headline line.")
    ] = False,
    record_requests: Annotated[
        bool,
        typer.Option(help="Store the judge's requests and responses in the run store."),
    ] = True,
    headline: Annotated[
        str, typer.Option(help=HEADLINE_HELP, callback=check_headline)
    ] = "lifebench",
) -> None:
    """Grade saved trajectories again, without re-running them.

    New bases are added to each stored evaluation (earlier ones are kept) and the reward is
    recomputed from --evaluator. Judge calls go through RUN_DIR/model_cache.sqlite, so a second
    identical re-grade makes no API call (evaluations that had failed are asked again; with
    --no-cache every call is made again). A judge
    that fails is recorded as a grading error and the command exits 1 (3 when every grading
    failed), with the judge's last reply or the provider's message; a judge provider that
    refuses every call stops the re-grade (exit code 3). The report
    names the grading behind its numbers; a re-grade interrupted part-way (Ctrl-C: 130,
    SIGTERM: 143) is marked as mixed until it is run again.
    Grading options of the run's suite follow as --name VALUE (listed below).
    """
    from lifebench._util.gcpolicy import batch_gc
    from lifebench.cli._run import finish_report, grading_code
    from lifebench.cli._suite_flags import parse_suite_flags
    from lifebench.runner import Progress, RunStore
    from lifebench.runner._regrade import regrade
    from lifebench.suites import options_model

    with user_errors(), batch_gc():
        store = RunStore.read(run_dir)
        try:
            suite = str(store.config().get("suite") or "vita")
        finally:
            store.close()
        overrides = {
            "evaluator": evaluator,
            "judge_model": judge_model,
            "cache": cache,
            "suite_options": parse_suite_flags(ctx.args, options_model(suite), suite),
        }
        summary = run_async(
            lambda: regrade(
                run_dir,
                overrides,
                models_file=str(models) if models else None,
                concurrency=concurrency,
                progress=Progress(quiet=quiet, description="grading"),
                rejudge=rejudge,
                record_requests=record_requests,
            )
        )
        rep = finish_report(run_dir, quiet=quiet, headline=headline)
        typer.echo(
            f"graded {summary.graded} simulations ({summary.errors} grading errors, "
            f"{summary.skipped} units without a simulation) in {run_dir}"
            + (
                f"; each graded {rejudge} times (--rejudge)"
                if rejudge > 1 and not summary.no_judge
                else ""
            )
        )
        if summary.no_judge:
            typer.echo(
                f"--rejudge {rejudge}: no grader of this run asks a judge (deterministic "
                "grading), so there is no judge to re-ask and no extra grading was made: "
                "judge variance is 0 by construction"
            )
        code = grading_code(rep, "Run the same `lifebench eval` again to grade them again")
    if code:
        raise typer.Exit(code=code)
