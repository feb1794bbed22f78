"""``lifebench view``: browse run directories in a local web viewer."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lifebench.cli._common import user_errors
from lifebench.errors import LifebenchError


def view(
    run_dirs: Annotated[
        list[Path], typer.Argument(help="One or more run directories (each holds run.sqlite).")
    ],
    port: Annotated[
        int,
        typer.Option(min=0, max=65535, help="Port on 127.0.0.1 (0: a free port, printed)."),
    ] = 0,
    poll: Annotated[
        float,
        typer.Option(min=0.2, help="Seconds between a page's checks for new units."),
    ] = 2.0,
) -> None:
    """Serve a local web viewer of RUN_DIRs on 127.0.0.1: page through, sort, search and filter
    the simulations (suite, domain, outcome, termination, not passed, tag, evaluator result,
    task); read a trajectory beside its evaluation;
    compare two runs on the same task; watch a run in progress (new units appear as they are
    recorded). Needs the optional extra view: pip install -e '.[view]' (part of .[dev]).

    Model, user and tool text is shown as text: markup in it is escaped and a strict
    Content-Security-Policy forbids any script but the viewer's own.
    """
    with user_errors():
        try:
            import starlette  # noqa: F401
            import uvicorn  # noqa: F401
        except ImportError:
            raise LifebenchError(
                "lifebench view needs the web extra: pip install 'lifebench[view]'"
            ) from None
        from lifebench.reporting._load import load_run
        from lifebench.viewer._serve import serve

        for run_dir in run_dirs:
            load_run(run_dir)  # one clear message for a directory that is not a run

        def announce(url: str) -> None:
            typer.echo(f"lifebench view: {url}  (Ctrl-C to stop)")

        serve(
            run_dirs,
            port=port,
            min_interval=min(1.0, poll / 2),
            poll_ms=int(poll * 1000),
            announce=announce,
        )
