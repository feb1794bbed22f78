"""``lifebench import``: bring a results file of the official harness into a run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import user_errors


def import_(
    results: Annotated[
        Path, typer.Argument(help="A results JSON written by the official VitaBench.")
    ],
    out: Annotated[Path, typer.Option(help="Run directory to create (or add to).")],
    domain: Annotated[
        str | None, typer.Option(help="Domain (default: the file's environment_info.domain_name).")
    ] = None,
) -> None:
    """Import official VitaBench results so they can be re-graded, reported and viewed.

    The official verdict is kept as the basis 'official'; `lifebench eval OUT --evaluator
    both --judge-model M` adds the state and rubric bases. API headers in the file's llm_args
    are not imported.
    """
    from lifebench.vita.interop import import_official_results

    with user_errors():
        count = import_official_results(results, out, domain)
    typer.echo(f"imported {count} simulations into {out}")
