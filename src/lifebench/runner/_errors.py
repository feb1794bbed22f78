"""Errors of the run store and of running units, and the translation of low-level failures
(SQLite, the file system) into messages a user can act on."""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from lifebench.errors import LifebenchError


class StoreError(LifebenchError):
    """The run directory or its store cannot be used (unwritable, disk full, damaged, busy)."""


class StoreInUseError(StoreError):
    """Another live lifebench process holds the writer lease of the run directory."""


class StoreDamagedError(StoreError):
    """``run.sqlite`` is corrupted; the message says what can still be read."""


class RunStopped(LifebenchError):
    """The run stopped before every unit ran (e.g. every worker process died)."""


_FULL = ("database or disk is full", "disk i/o error")
_DAMAGED = ("malformed", "not a database", "file is encrypted")
_UNWRITABLE = ("readonly database", "unable to open database file", "attempt to write")


def store_error(path: Path, exc: BaseException, action: str) -> StoreError:
    """The :class:`StoreError` that explains ``exc`` met while ``action`` on the store ``path``."""
    text = str(exc)
    low = text.lower()
    resume = "finished units are saved; re-run the same command to resume"
    if (isinstance(exc, OSError) and exc.errno == errno.ENOSPC) or any(s in low for s in _FULL):
        return StoreError(
            f"no space left on the device of {path} while {action} ({text}); free some space — "
            f"{resume}"
        )
    if isinstance(exc, sqlite3.DatabaseError) and any(s in low for s in _DAMAGED):
        from lifebench.runner._salvage import describe_damage

        return StoreDamagedError(describe_damage(path, exc))
    if isinstance(exc, PermissionError) or any(s in low for s in _UNWRITABLE):
        return StoreError(
            f"cannot write {path} while {action} ({text}); check that the run directory is "
            "writable, or choose another with --out"
        )
    if "database is locked" in low:
        return StoreError(
            f"{path} stayed locked by another process while {action} ({text}); try again"
        )
    return StoreError(f"{path}: {action} failed ({type(exc).__name__}: {text})")


@contextmanager
def guarded_store(path: Path, action: str) -> Iterator[None]:
    """Turn SQLite and OS errors inside the block into one :class:`StoreError`."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        raise store_error(path, exc, action) from None


def prepare_run_dir(directory: Path) -> None:
    """Create the run directory, or say in one message why it cannot be used."""
    if directory.exists() and not directory.is_dir():
        raise StoreError(f"--out {directory} is a file, not a directory; choose another path")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise StoreError(
            f"--out {directory}: a parent of it is a file, not a directory; choose another path"
        ) from None
    except OSError as exc:
        raise store_error(directory, exc, "creating the run directory") from None
