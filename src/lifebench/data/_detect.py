"""Which suite a data file belongs to, from its content (its first record), so `tasks validate`
and `tasks stats` need no ``--suite``.

A record is recognised by the fields each format cannot do without: VitaBench tasks carry
``user_scenario`` / ``evaluation_criteria`` (or ``environment`` with ``instructions``),
TravelBench rows ``trace_id`` and ``query``, FlowBench lines the turn, FlowSwitch or session
shapes (:func:`lifebench.flow.tasks.turns.line_kind`), and FlowBench knowledge a scenario
``uuid`` with its ``workflow`` (or a pool: uuid → scenario). A record that fits none, or more
than one, is an error that shows its fields and names ``--suite``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from lifebench.errors import InputError

SUITES = ("vita", "travel", "flow")


def _vita(record: Mapping[str, Any]) -> bool:
    return (
        "user_scenario" in record
        or "evaluation_criteria" in record
        or ("environment" in record and "instructions" in record)
    )


def _travel(record: Mapping[str, Any]) -> bool:
    return "trace_id" in record and "query" in record


def _flow(record: Mapping[str, Any]) -> bool:
    from lifebench.flow.tasks.turns import line_kind

    if line_kind(dict(record)) != "unknown":
        return True
    if "uuid" in record and ("workflow" in record or "apis" in record):
        return True  # workflow_final.jsonl
    values = list(record.values())[:3]
    return bool(values) and all(isinstance(v, Mapping) and "workflow" in v for v in values)


RECOGNISERS: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "vita": _vita,
    "travel": _travel,
    "flow": _flow,
}


def first_record(path: Path) -> Mapping[str, Any] | None:
    """The first JSON object of a JSON array, a JSON object or JSON Lines file (None: none).

    The file is read by the one reader of input files (regular files only, size-capped,
    UTF-8), so a FIFO or a device is refused, never waited on."""
    from lifebench._util.inputs import decode_text, read_bytes

    text = decode_text(read_bytes(path, what="data file"), str(path), allow_empty=True)
    stripped = text.lstrip("\ufeff \t\r\n")
    decoder = json.JSONDecoder()
    if stripped.startswith("["):
        stripped = stripped[1:].lstrip()
    try:
        value, _ = decoder.raw_decode(stripped)
    except json.JSONDecodeError:
        return None
    except RecursionError:
        raise InputError(
            "nested too deeply to read (hundreds of levels of arrays or objects)",
            file=str(path),
        ) from None
    return value if isinstance(value, Mapping) else None


def _candidates(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix in (".json", ".jsonl") and p.is_file())
    if not path.exists():
        raise InputError("no such file or directory", file=str(path))
    return [path]


def suites_of(record: Mapping[str, Any]) -> list[str]:
    """The suites whose format ``record`` fits."""
    return [name for name, fits in RECOGNISERS.items() if fits(record)]


def detect_suite(path: Path) -> str:
    """The suite of a data file (a directory: of its first recognisable ``*.json(l)`` file).

    Raises:
        InputError: Unreadable, no JSON object in it, or a record that fits no suite or several
            (the message lists its fields and says to give ``--suite``).
    """
    path = Path(path)
    seen: list[str] = []
    for candidate in _candidates(path):
        record = first_record(candidate)
        if record is None:
            continue
        fits = suites_of(record)
        if len(fits) == 1:
            return fits[0]
        keys = ", ".join(sorted(map(str, record))[:12]) or "none"
        seen.append(f"{candidate.name}: fields {keys}" + (f" (fits {fits})" if fits else ""))
    where = "; ".join(seen) if seen else "no JSON object found"
    raise InputError(
        f"cannot tell which suite this data is for ({where}); give --suite " + " | ".join(SUITES),
        file=str(path),
    )


def detect_suite_of(paths: list[Path]) -> str:
    """The one suite of several files.

    Raises:
        InputError: A file's suite cannot be told, or the files are of different suites.
    """
    found = {str(p): detect_suite(p) for p in paths}
    if len(set(found.values())) > 1:
        listed = ", ".join(f"{p} ({s})" for p, s in found.items())
        raise InputError(f"the files are of different suites: {listed}; give them apart")
    return next(iter(found.values()))
