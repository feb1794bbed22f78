"""Byte-stable serialisation of generated task files."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def dumps_tasks(tasks: Sequence[dict[str, Any]]) -> str:
    """A JSON array, keys in insertion order, ``ensure_ascii=False``, indent 2, final newline."""
    return json.dumps(list(tasks), ensure_ascii=False, indent=2) + "\n"


def write_tasks(tasks: Sequence[dict[str, Any]], path: Path) -> None:
    """Write :func:`dumps_tasks` of ``tasks`` to ``path`` as UTF-8 (LF line ends)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.write(dumps_tasks(tasks))
