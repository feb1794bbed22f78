"""``lifebench import``: bring a results file of an official harness into a run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import user_errors


def import_(
    results: Annotated[
        Path,
        typer.Argument(
            help="A results file of the official harness: VitaBench's results JSON; for "
            "TravelBench an inference output (single_turn.json / multi_turn.json / unsolve.json) "
            "or a judge evaluation output (*_eval.json)."
        ),
    ],
    out: Annotated[Path, typer.Option(help="Run directory to create (or add to).")],
    suite: Annotated[str, typer.Option(help="Whose file it is: vita or travel.")] = "vita",
    domain: Annotated[
        str | None,
        typer.Option(help="vita: domain (default: the file's environment_info.domain_name)."),
    ] = None,
    evaluation: Annotated[
        Path | None,
        typer.Option(
            help="travel: the official evaluation output of these trajectories "
            "(*-turn_eval.json or unsolved_eval.json); kept as the basis 'official'."
        ),
    ] = None,
    tasks: Annotated[
        Path | None,
        typer.Option(
            help="travel: the official rows (JSON Lines) the file was run on; restores each "
            "task's time and intent, which the inference output does not carry."
        ),
    ] = None,
    subset: Annotated[
        str | None,
        typer.Option(
            help="travel: single, multi or unsolvable (default: from the file's summary or name)."
        ),
    ] = None,
) -> None:
    """Import official results so they can be re-graded, reported and viewed.

    vita: the official verdict is kept as the basis 'official'; `lifebench eval OUT --evaluator
    both --judge-model M` adds the state and rubric bases. API headers in the file's llm_args
    are not imported.

    travel: trajectories keep the official tool counts; the official judge's or unsolved
    checker's verdict (from --evaluation, or from a judge evaluation file given directly) is
    the basis 'official', from which `lifebench report` recomputes the official subset score;
    `lifebench eval OUT --judge-model M` adds the 'travel' basis.
    """
    with user_errors():
        if suite == "travel":
            from lifebench.travel.interop import import_official_travel

            if subset is not None and subset not in ("single", "multi", "unsolvable"):
                raise typer.BadParameter(
                    "choose single, multi or unsolvable", param_hint="--subset"
                )
            count = import_official_travel(
                results, out, evaluation=evaluation, tasks=tasks, subset=subset
            )
        elif suite == "vita":
            from lifebench.vita.interop import import_official_results

            count = import_official_results(results, out, domain)
        else:
            raise typer.BadParameter(f"no importer for suite {suite!r}", param_hint="--suite")
    typer.echo(f"imported {count} simulations into {out}")
