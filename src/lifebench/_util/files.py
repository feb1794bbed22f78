"""Files written whole or not at all."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable
from pathlib import Path

FILE_MODE = 0o666
"""Mode asked for new files; the process umask takes its bits away (typically → 0644), as for
any file a program creates with ``open(path, "w")``."""


def _create_temporary(folder: Path, name: str) -> tuple[int, Path]:
    """A new, empty file beside ``folder/name`` opened for writing, created with
    :data:`FILE_MODE` less the umask (``tempfile.mkstemp`` would make it 0600 for good)."""
    while True:
        tmp = folder / f".{name}.{secrets.token_hex(6)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE), tmp
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue


def write_atomic(path: Path, chunks: Iterable[str]) -> None:
    """Write ``chunks`` (UTF-8, ``\\n`` line ends) to ``path`` through a temporary file in the
    same folder and a rename, creating missing parent folders: a reader sees the old file or
    the new one, never a part. The file gets the usual mode of a new file (0666 less the
    umask: 0644 under the common umask 022). On any error the temporary file is removed and
    the error (an :class:`OSError` for the file system's refusals) propagates."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _create_temporary(path.parent, path.name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.writelines(chunks)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
