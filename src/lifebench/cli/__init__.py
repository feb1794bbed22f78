"""The ``lifebench`` command line (typer). Sub-commands live in one module each."""

from __future__ import annotations

from lifebench.cli._app import app


def main() -> None:
    """Entry point of the ``lifebench`` console script."""
    app()


__all__ = ["app", "main"]
