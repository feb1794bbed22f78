"""Helpers shared by the CLI commands: exit codes, error reporting, signals, console output.

Exit codes (documented in the README and ``lifebench run --help``):

====  =====================================================================================
0     every unit ran and was graded
1     the run finished, but some units ended in an infrastructure error (re-run to retry
      them), were rejected by the provider for their content, or could not be graded (re-run
      to grade them again)
2     bad input: an option, a task or models file, a changed configuration on resume
3     nothing could run: the provider refuses every call (bad key, unknown model, endpoint
      down — its message is printed), every unit of this session failed, the grading of every
      simulation failed, or no worker started
4     the run directory cannot be used: unwritable, a file, disk full, damaged, or in use by
      another lifebench process
70    internal error (a lifebench bug; ``LIFEBENCH_DEBUG=1`` shows the traceback)
130   interrupted with Ctrl-C (finished units are saved)
143   terminated with SIGTERM (finished units are saved)
====  =====================================================================================
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sqlite3
import sys
from collections.abc import Callable, Coroutine, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Generic, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from lifebench.errors import FatalProviderError, LifebenchError

T = TypeVar("T")

EXIT_OK = 0
EXIT_UNITS_FAILED = 1
EXIT_USAGE = 2
EXIT_NOTHING_RAN = 3
EXIT_STORE = 4
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

EXIT_CODES_HELP = (
    "Exit codes: 0 all units done and graded; 1 some units ended in infrastructure errors, "
    "were rejected by the provider or could not be graded; 2 bad input or changed "
    "configuration; 3 nothing could run (the provider refuses every call, every unit failed, "
    "or every grading failed); 4 the run directory cannot be "
    "used (unwritable, disk full, damaged, in use); 130 Ctrl-C; 143 SIGTERM (finished units "
    "are saved in both)."
)


class Interrupted(Exception):
    """The command was stopped by Ctrl-C or SIGTERM (``code`` is 130 or 143)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code


def err_console() -> Console:
    """A console on stderr (created per call: no module-level state)."""
    return Console(stderr=True)


def fail(message: str, code: int) -> typer.Exit:
    """Print ``error: message`` on stderr and return the exit to raise."""
    from lifebench.models._secrets import Scrubber

    text = escape(Scrubber.of(environment=True)(message))  # [brackets] are text, not markup
    err_console().print(f"[bold red]error:[/] {text}", highlight=False, markup=True, soft_wrap=True)
    return typer.Exit(code=code)


def _os_message(exc: OSError) -> str:
    where = f" {exc.filename}" if exc.filename else ""
    if exc.errno == errno.ENOSPC:
        return f"no space left on the device{where}; free some space and re-run"
    return f"cannot access{where}: {exc.strerror or exc}"


def _code_of(exc: LifebenchError) -> int:
    from lifebench.runner._errors import RunStopped, StoreError

    if isinstance(exc, RunStopped):
        return EXIT_NOTHING_RAN
    if isinstance(exc, StoreError):
        return EXIT_STORE
    return EXIT_USAGE


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn every error a user can cause or meet into one message and an exit code (see the
    module docstring); never a traceback."""
    try:
        yield
    except (typer.Exit, typer.Abort, typer.TyperException):  # the CLI's own exits
        raise
    except Interrupted as stop:
        err_console().print(
            f"{stop}; finished units are saved. Re-run the same command to resume.",
            highlight=False,
        )
        raise typer.Exit(code=stop.code) from None
    except FatalProviderError as exc:
        raise fail(
            f"the model provider refuses this run's calls, so it stopped: {exc}\n"
            "Units finished before are saved; fix the cause and re-run the same command.",
            EXIT_NOTHING_RAN,
        ) from None
    except LifebenchError as exc:
        raise fail(str(exc), _code_of(exc)) from None
    except RecursionError:
        raise fail(
            "the input is nested too deeply to read (hundreds of levels of JSON or YAML)",
            EXIT_USAGE,
        ) from None
    except sqlite3.Error as exc:
        raise fail(f"a database of lifebench failed: {exc}", EXIT_STORE) from None
    except OSError as exc:
        raise fail(_os_message(exc), EXIT_STORE) from None
    except Exception as exc:
        if os.environ.get("LIFEBENCH_DEBUG"):
            raise
        raise fail(
            f"internal error: {type(exc).__name__}: {exc} (a lifebench bug; set "
            "LIFEBENCH_DEBUG=1 to see the traceback)",
            EXIT_INTERNAL,
        ) from None


class _Boxed(Generic[T]):
    """The result of :func:`run_async`'s main task, with a constant ``repr``: when
    ``asyncio.run`` restores the SIGINT handler, Python 3.11 formats the repr of its handler,
    which holds the finished main task and so the repr of its result — for ``run`` a whole
    experiment with every task (tens of milliseconds spent on a string nobody reads)."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "<result>"


def run_async(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(main())`` with SIGTERM handled like Ctrl-C: the running units are
    cancelled (and logged), the store is closed, and :class:`Interrupted` is raised (code 130
    for Ctrl-C, 143 for SIGTERM)."""
    import asyncio  # not at import time: ``lifebench --help`` does not need it

    received: list[int] = []

    async def wrapper() -> _Boxed[T]:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()

        def on_term() -> None:
            received.append(signal.SIGTERM)
            if task is not None:
                task.cancel()

        # Not the main thread, or no signals here: SIGTERM keeps its default.
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGTERM, on_term)
        return _Boxed(await main())

    try:
        return asyncio.run(wrapper()).value
    except KeyboardInterrupt:
        raise Interrupted(EXIT_INTERRUPTED, "interrupted (Ctrl-C)") from None
    except asyncio.CancelledError:
        if received:
            raise Interrupted(EXIT_TERMINATED, "terminated (SIGTERM)") from None
        raise


def guarded(fn: Callable[[], T]) -> T:
    """Run ``fn`` under :func:`user_errors`."""
    with user_errors():
        return fn()


def write_json(text: str) -> None:
    """Write JSON to stdout followed by a newline."""
    sys.stdout.write(text)
    sys.stdout.write("\n")


def write_output(path: Path, chunks: Iterable[str]) -> None:
    """Write a file the user asked for (whole or not at all); an unwritable target is one
    clear error naming it."""
    from lifebench._util.files import write_atomic

    try:
        write_atomic(path, chunks)
    except OSError as exc:
        raise LifebenchError(f"cannot write {path}: {exc.strerror or exc}") from None


HEADLINE_HELP = (
    "Which number leads where the suite's official number is shown beside lifebench's: "
    "lifebench (corrected) | official (the official code's semantics on the same outputs)."
)


def check_headline(value: str) -> Any:
    """``--headline``: lifebench or official (else a usage error naming the flag)."""
    from lifebench.metrics import HEADLINES

    if value not in HEADLINES:
        raise typer.BadParameter(
            f"must be {' or '.join(HEADLINES)}, not {value!r}", param_hint="--headline"
        )
    return value
