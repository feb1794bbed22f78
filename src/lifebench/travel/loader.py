"""Read TravelBench rows (the official JSON Lines files, unchanged) with errors a user can act on.

Every problem of a file is collected and reported through one :class:`InputError` that names
the file, the line and task id, and the field ("line 7 (task 12): field time: ..."). The
subset of each row is, in order: the row's own ``subset`` field (our bundled rows), the file's
name (``single_turn`` / ``multi_turn`` / ``unsolve`` as in the official repository), or the
row's shape (``user_profile`` → multi; one of the three unsolvable flags set → unsolvable;
else single). ``--subset`` overrides it at run time (:func:`lifebench.travel.task.effective_subset`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from lifebench._util.inputs import parse_json_records, read_text
from lifebench.errors import InputError
from lifebench.travel.task import SUBSETS, Subset, TravelTask, parse_time

__all__ = [
    "OFFICIAL_TRACE_ID",
    "infer_subset",
    "keyed_by_subset",
    "load_folder",
    "load_tasks",
    "parse_rows",
    "subset_of_file",
]

_MAX_LISTED = 25
_CJK = re.compile(r"[\u4e00-\u9fff]")
_FILE_SUBSETS: tuple[tuple[str, Subset], ...] = (
    ("multi", "multi"),
    ("unsolv", "unsolvable"),
    ("single", "single"),
)
_STRINGS = ("trace_id", "time", "query", "context", "intent", "primary_intent", "user_profile")
_FLAGS = ("missing_tool", "missing_info", "no_actionable")


def subset_of_file(path: Path | str | None) -> Subset | None:
    """The subset a file's name declares (official names: single_turn, multi_turn, unsolve)."""
    if path is None:
        return None
    name = Path(path).name.lower()
    for needle, subset in _FILE_SUBSETS:
        if needle in name:
            return subset
    return None


def infer_subset(row: Mapping[str, Any], file_subset: Subset | None = None) -> Subset:
    """The subset of one row: its ``subset`` field, the file's, or the row's shape."""
    declared = row.get("subset")
    if declared in SUBSETS:
        return declared  # type: ignore[no-any-return]
    if file_subset is not None:
        return file_subset
    if row.get("user_profile"):
        return "multi"
    if any(row.get(flag) is True for flag in _FLAGS):
        return "unsolvable"
    return "single"


def _problems(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for every field of ``row`` that cannot be used as written."""
    out: list[tuple[str, str]] = []
    for name in ("trace_id", "time", "query"):
        if name not in row:
            out.append((name, "missing"))
    for name in _STRINGS:
        value = row.get(name)
        if name in row and not isinstance(value, str) and not (name == "trace_id" and _int(value)):
            out.append((name, f"must be a string, got {type(value).__name__}"))
    for name in _FLAGS:
        if name in row and not isinstance(row[name], bool):
            out.append((name, f"must be true or false, got {row[name]!r}"))
    avg = row.get("avg_tool_calls")
    if avg is not None and (isinstance(avg, bool) or not isinstance(avg, int | float)):
        out.append(("avg_tool_calls", f"must be a number, got {avg!r}"))
    if "subset" in row and row["subset"] not in SUBSETS:
        out.append(("subset", f"must be one of {', '.join(SUBSETS)}, got {row['subset']!r}"))
    if "language" in row and row["language"] not in ("zh", "en"):
        out.append(("language", f"must be zh or en, got {row['language']!r}"))
    time = row.get("time")
    if isinstance(time, str):
        try:
            parse_time(time)
        except ValueError as exc:
            out.append(("time", str(exc)))
    if isinstance(row.get("query"), str) and not row["query"].strip():
        out.append(("query", "is empty"))
    return out


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _task(row: Mapping[str, Any], subset: Subset) -> TravelTask:
    data = dict(row)
    data["trace_id"] = str(data["trace_id"])
    if data.get("context") is None:
        data["context"] = ""
    if data.get("user_profile") is None:
        data["user_profile"] = ""
    data["subset"] = subset
    if "language" not in data:
        text = f"{data.get('query', '')}{data.get('context', '')}"
        data["language"] = "zh" if _CJK.search(text) else "en"
    return TravelTask.model_validate(data)


def parse_rows(
    rows: Iterable[tuple[int, Any]], *, file: str, file_subset: Subset | None = None
) -> list[TravelTask]:
    """Tasks from ``(line number, decoded row)`` pairs; one InputError lists every problem."""
    tasks: list[TravelTask] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for line, row in rows:
        where = f"line {line}"
        if not isinstance(row, dict):
            problems.append(f"{where}: expected a JSON object, got {type(row).__name__}")
            continue
        trace = row.get("trace_id")
        if trace is not None:
            where += f" (task {trace})"
        found = _problems(row)
        if found:
            problems.extend(f"{where}: field {name}: {msg}" for name, msg in found)
            continue
        subset = infer_subset(row, file_subset)
        if subset == "multi" and not str(row.get("user_profile") or "").strip():
            problems.append(
                f"{where}: field user_profile: a multi-turn row needs the user's profile (the "
                "simulated user plays it); without one the user would be made up"
            )
            continue
        try:
            task = _task(row, subset)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err.get("loc", ())) or "row"
            problems.append(f"{where}: field {loc}: {err.get('msg', 'invalid')}")
            continue
        if task.id in seen:
            problems.append(
                f"{where}: field trace_id: duplicate id {task.id!r} (first on line {seen[task.id]})"
            )
            continue
        seen[task.id] = line
        tasks.append(task)
    if problems:
        listed = problems[:_MAX_LISTED]
        more = len(problems) - len(listed)
        tail = f"\n  ... and {more} more" if more else ""
        raise InputError(f"{len(problems)} problem(s):\n  " + "\n  ".join(listed) + tail, file=file)
    if not tasks:
        raise InputError("no rows", file=file)
    return tasks


def _decode(text: str, file: str) -> list[tuple[int, Any]]:
    """``(line, row)`` of JSON Lines text or of a JSON array of rows (the core reader's rules:
    :mod:`lifebench._util.inputs`)."""
    return [(r.line, r.value) for r in parse_json_records(text, file, what="row")]


OFFICIAL_TRACE_ID = "official_trace_id"
"""Extra field of a row whose id was prefixed by its subset: the id the official file gives it."""


def keyed_by_subset(task: TravelTask) -> TravelTask:
    """``task`` with the id ``<subset>-<trace_id>`` (the official trace id kept as
    :data:`OFFICIAL_TRACE_ID`): the official files reuse trace ids across subsets, so a run of
    several subsets keys its units by subset and trace id."""
    if getattr(task, OFFICIAL_TRACE_ID, None) is not None:
        return task
    data = task.model_dump(mode="json")
    data[OFFICIAL_TRACE_ID] = task.trace_id
    data["trace_id"] = f"{task.subset}-{task.trace_id}"
    return TravelTask.model_validate(data)


def load_folder(path: Path) -> list[TravelTask]:
    """The three official files of a folder as one task set (``--subset all``): the file whose
    name says single, multi or unsolv(e) gives that subset; ids are keyed by subset."""
    folder = str(path)
    files: dict[Subset, list[Path]] = {s: [] for s in SUBSETS}
    for candidate in sorted(path.iterdir()):
        subset = subset_of_file(candidate)
        if candidate.is_file() and candidate.suffix in (".jsonl", ".json") and subset:
            files[subset].append(candidate)
    missing = [s for s in SUBSETS if not files[s]]
    if missing:
        raise InputError(
            f"no {' / '.join(missing)} file in the folder; it needs the three official files "
            "(single_turn.jsonl, multi_turn.jsonl, unsolve.jsonl: names holding single, multi "
            "and unsolv)",
            file=folder,
        )
    several = {s: f for s, f in files.items() if len(f) > 1}
    if several:
        listed = "; ".join(f"{s}: {', '.join(p.name for p in f)}" for s, f in several.items())
        raise InputError(f"several files of one subset ({listed}); keep one each", file=folder)
    return [keyed_by_subset(t) for s in SUBSETS for t in load_tasks(files[s][0], s)]


def load_tasks(path: Path, subset: Subset | None = None) -> list[TravelTask]:
    """Rows of a JSON Lines file (or a JSON array); rows without a ``subset`` field get
    ``subset`` (default: the one the file name declares). A folder holds the three official
    files (see :func:`load_folder`)."""
    if path.is_dir():
        return load_folder(path)
    file = str(path)
    text = read_text(path, what="task file")
    return parse_rows(_decode(text, file), file=file, file_subset=subset or subset_of_file(path))


def parse_row_texts(lines: Sequence[str], *, file: str, subset: Subset) -> list[TravelTask]:
    """Tasks from JSON Lines text (bundled data files)."""
    return parse_rows(_decode("\n".join(lines), file), file=file, file_subset=subset)


def load_bundled(language: str) -> list[TravelTask]:
    """Every bundled row of ``language`` (all shipped subsets), ids prefixed by the subset
    ("single-1", "multi-1", "unsolvable-1") so the three sets can share one run."""
    from lifebench.travel import data

    tasks: list[TravelTask] = []
    shipped = [s for s, lang in data.available() if lang == language]
    if not shipped:
        raise InputError(f"no bundled travel rows in language {language!r}", field="--language")
    for subset in shipped:
        rows = []
        for i, row in enumerate(data.load_bundled_rows(subset, language), start=1):
            renamed = dict(row)
            renamed["trace_id"] = f"{subset}-{row.get('trace_id', i)}"
            renamed.setdefault("subset", subset)
            renamed.setdefault("language", language)
            rows.append((i, renamed))
        tasks.extend(
            parse_rows(rows, file=f"(bundled {subset}.{language})", file_subset=subset)  # type: ignore[arg-type]
        )
    return tasks
