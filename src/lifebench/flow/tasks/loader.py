"""Task files of both levels: detect the format, load with clear errors, and the bundled sets.

A file is JSON Lines (one object per line) or a JSON array; a directory means every ``*.jsonl``
in it, in name order. Every problem is reported through one
:class:`~lifebench.errors.InputError` naming the file, the line (and turn / task id) and field.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, Literal

from lifebench._util.inputs import parse_json_records, read_text
from lifebench._util.text import Language
from lifebench.errors import InputError
from lifebench.flow._problems import Problems
from lifebench.flow.kb.models import KnowledgeBase
from lifebench.flow.tasks.models import SessionTask, Setting, TurnSample
from lifebench.flow.tasks.sessions import parse_session_line
from lifebench.flow.tasks.turns import line_kind, parse_flowswitch_line, parse_turn_line

Level = Literal["turn", "session"]
_LEVEL_OF = {"turn": "turn", "flowswitch": "turn", "session": "session"}


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == ".jsonl" and p.is_file())
        if not files:
            raise InputError("no *.jsonl task files in this directory", file=str(path))
        return files
    if not path.exists():
        raise InputError("no such task file or directory", file=str(path))
    return [path]  # anything else (a FIFO, a device) is refused by the one reader


def _lines(text: str, name: str, problems: Problems) -> list[tuple[str, dict[str, Any]]]:
    """The objects of JSON Lines text or of a JSON array (the core reader's rules:
    :mod:`lifebench._util.inputs`), each with where it is (``line n``, ``item i``)."""
    array = text.lstrip().startswith("[")
    out = []
    for record in parse_json_records(text, name, what="line"):
        where = f"item {record.index}" if array else f"line {record.line}"
        if not isinstance(record.value, dict):
            problems.add(where, "", "expected a JSON object")
            continue
        out.append((where, record.value))
    return out


def _read(
    file: Path | Traversable, name: str, problems: Problems
) -> list[tuple[str, dict[str, Any]]]:
    return _lines(read_text(file, what="task file"), name, problems)


def detect_task_file(path: Path) -> Level:
    """The level of a task file (or directory): ``turn`` (official turn lines, FlowSwitch
    samples, ours) or ``session``; from its first object.

    Raises:
        InputError: empty, unreadable, or neither format.
    """
    for file in _files(Path(path)):
        problems = Problems(str(file))
        for where, data in _read(file, str(file), problems):
            kind = line_kind(data)
            if kind == "unknown":
                raise InputError(
                    "neither a turn-level line (id, messages, gt_thought) nor a FlowSwitch sample "
                    "(turn_id, ground_truth) nor a session-level line (user_agent, function_agent)",
                    file=str(file),
                    field=where,
                )
            return "turn" if _LEVEL_OF[kind] == "turn" else "session"
        problems.raise_if_any()
    raise InputError("no tasks in the file", file=str(path))


def _check_ids(ids: list[tuple[str, str, str]], problems: Problems) -> None:
    seen: dict[str, str] = {}
    for where, task_id, name in ids:
        if task_id in seen:
            problems.add(where, "id", f"{task_id} already used at {seen[task_id]} of {name}")
        else:
            seen[task_id] = where


def _load(
    sources: list[tuple[Path | Traversable, str]],
    level: Level,
    kb: KnowledgeBase | None,
    language: Language,
) -> list[Any]:
    out: list[Any] = []
    ids: list[tuple[str, str, str]] = []
    for file, name in sources:
        problems = Problems(name)
        for where, data in _read(file, name, problems):
            kind = line_kind(data)
            if kind == "unknown":
                problems.add(
                    where,
                    "",
                    "neither a turn-level line (id, messages, gt_thought), a FlowSwitch sample "
                    "(turn_id, ground_truth) nor a session-level line (user_agent, function_agent)",
                )
                continue
            if _LEVEL_OF[kind] != level:
                other = "session" if level == "turn" else "turn"
                problems.add(
                    where, "", f"a {other}-level line in a {level}-level run (use --level {other})"
                )
                continue
            item: TurnSample | SessionTask | None
            if kind == "flowswitch":
                item = parse_flowswitch_line(data, where, problems, kb, language)
            elif kind == "turn":
                item = parse_turn_line(data, where, problems, kb, language)
            else:
                item = parse_session_line(data, where, problems, kb, language)
            if item is not None:
                out.append(item)
                ids.append((where, item.id, name))
        _check_ids([x for x in ids if x[2] == name], problems)
        problems.raise_if_any()
    problems = Problems(", ".join(n for _, n in sources))
    _check_ids(ids, problems)
    problems.raise_if_any()
    return out


def load_turn_samples(
    path: Path, kb: KnowledgeBase | None = None, language: Language = "en"
) -> list[TurnSample]:
    """Turn-level samples of a file or directory (official turn lines, FlowSwitch samples,
    ours). ``kb`` resolves domain, role and scenarios of lines that do not carry them
    (FlowSwitch uuids, node ids in thoughts, tool names)."""
    files = _files(Path(path))
    loaded: list[TurnSample] = _load([(f, str(f)) for f in files], "turn", kb, language)
    return loaded


def load_session_tasks(
    path: Path, kb: KnowledgeBase | None = None, language: Language = "en"
) -> list[SessionTask]:
    """Session-level tasks of a file or directory (official session lines, ours)."""
    files = _files(Path(path))
    loaded: list[SessionTask] = _load([(f, str(f)) for f in files], "session", kb, language)
    return loaded


def _bundled(level: Level, language: Language, setting: Setting) -> tuple[Traversable, str]:
    file = (
        resources.files("lifebench.flow")
        .joinpath("data")
        .joinpath(level)
        .joinpath(language)
        .joinpath(f"{setting}.jsonl")
    )
    if not file.is_file():
        raise InputError(f"no bundled {level}-level {setting} set in {language}")
    return file, f"(bundled {level} {setting} {language})"


def bundled_turn_samples(language: Language, setting: Setting) -> list[TurnSample]:
    """The bundled generated turn-level samples of ``setting`` in ``language``."""
    loaded: list[TurnSample] = _load([_bundled("turn", language, setting)], "turn", None, language)
    return loaded


def bundled_session_tasks(language: Language, setting: Setting) -> list[SessionTask]:
    """The bundled generated session-level tasks of ``setting`` in ``language``."""
    loaded: list[SessionTask] = _load(
        [_bundled("session", language, setting)], "session", None, language
    )
    return loaded
