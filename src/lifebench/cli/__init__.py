"""The ``lifebench`` command line (typer). Sub-commands live in one module each."""

from __future__ import annotations

import copy
import gc
import sys
from collections.abc import Sequence

import typer

from lifebench.cli._app import app


def main() -> None:
    """Entry point of the ``lifebench`` console script."""
    try:
        app_for(sys.argv[1:])()
    finally:
        # The process ends here. Freezing every object spares the interpreter's final
        # collector passes over all of them (0.1–0.2 s after a run); memory is returned to
        # the system either way, and every file and database is already closed.
        gc.freeze()


def app_for(args: Sequence[str]) -> typer.Typer:
    """The application that runs ``args``: when they start with the name of a command or
    group, the application with only that one (typer converts the options of every command
    it holds at each start, about 50 ms for all of them, 5 for one); else the whole one (the
    top-level help, ``--version``, a mistyped command)."""
    if not args:
        return app
    commands = [c for c in app.registered_commands if c.name == args[0]]
    groups = [g for g in app.registered_groups if g.name == args[0]]
    if not commands and not groups:
        return app
    one = copy.copy(app)
    one.registered_commands, one.registered_groups = commands, groups
    return one


__all__ = ["app", "app_for", "main"]
