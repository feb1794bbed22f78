"""Helpers shared by the CLI commands: error reporting and console output."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from lifebench.errors import LifebenchError

T = TypeVar("T")


def err_console() -> Console:
    """A console on stderr (created per call: no module-level state)."""
    return Console(stderr=True)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn lifebench errors into a one-line message and exit code 2 (no traceback)."""
    try:
        yield
    except LifebenchError as exc:
        message = escape(str(exc))  # ids and paths may contain [brackets]: text, not markup
        err_console().print(f"[bold red]error:[/] {message}", highlight=False, markup=True)
        raise typer.Exit(code=2) from None


def guarded(fn: Callable[[], T]) -> T:
    """Run ``fn`` under :func:`user_errors`."""
    with user_errors():
        return fn()


def write_json(text: str) -> None:
    """Write JSON to stdout followed by a newline."""
    sys.stdout.write(text)
    sys.stdout.write("\n")
