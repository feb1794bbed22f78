"""What the viewer shows, read from run directories that may still be written to.

Each :class:`RunSource` reads its store with :meth:`RunStore.read` (read-only; SQLite WAL lets a
run keep writing) and keeps the last snapshot until the database files change, so a page view
costs a ``stat`` when nothing happened.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lifebench._util.text import natural_key
from lifebench.errors import LifebenchError
from lifebench.metrics import is_success
from lifebench.reporting._bundle import RunReport, build_run_report, model_label
from lifebench.reporting._load import RunData, load_run
from lifebench.reporting._outcomes import OUTCOMES, UnitSummary, unit_summaries
from lifebench.runner import STORE_FILENAME, UnitRecord

Fingerprint = tuple[tuple[int, int], ...]


def _fingerprint(run_dir: Path) -> Fingerprint:
    """(mtime, size) of the database and its WAL: any commit changes one of them."""
    out = []
    for name in (STORE_FILENAME, STORE_FILENAME + "-wal"):
        try:
            st = (run_dir / name).stat()
        except OSError:
            out.append((0, 0))
        else:
            out.append((st.st_mtime_ns, st.st_size))
    return tuple(out)


@dataclass(frozen=True)
class Snapshot:
    """One read of a run: data, unit summaries, and a version number that grows on change."""

    version: int
    data: RunData
    summaries: list[UnitSummary]
    tags: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Task id → its tags (see :func:`task_tags`)."""
    results: Mapping[tuple[str, int], Mapping[str, str]] = field(default_factory=dict)
    """(task id, trial) → basis → pass or fail (see :func:`basis_results`)."""

    @property
    def progress(self) -> dict[str, int]:
        """Units by outcome, plus ``total`` and ``finished`` (everything not pending)."""
        counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
        for s in self.summaries:
            counts[s.outcome] += 1
        counts["total"] = len(self.summaries)
        counts["finished"] = len(self.summaries) - counts["pending"]
        return counts

    @property
    def last_update(self) -> str:
        """UTC time of the latest change to any unit ('' for none)."""
        return max((r.updated_at for r in self.data.records), default="")


MAX_TAG_VALUES = 12
MAX_TAG_CHARS = 40


def task_tags(task_data: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Tags of each task, read from the stored tasks' own structure: every top-level field
    whose value is a short scalar (text of at most ``MAX_TAG_CHARS`` characters, a number, a
    boolean) and that splits the run's tasks into 2 to ``MAX_TAG_VALUES`` groups (fewer than
    the tasks, so that some tasks share a value) gives each
    task the tag ``field=value`` (a boolean: ``field`` when true). VitaBench's ``domain``,
    TravelBench's ``subset`` and ``missing_tool``, FlowBench's ``setting`` and ``role`` are such
    fields; ids, texts and nested objects are not."""
    values: dict[str, dict[str, str | None]] = {}
    for task_id, text in task_data.items():
        try:
            task = json.loads(text)
        except (ValueError, RecursionError):
            continue
        if not isinstance(task, dict):
            continue
        for key, value in task.items():
            if isinstance(value, bool):
                tag = str(key) if value else None
            elif isinstance(value, int | float) and math.isfinite(value):
                tag = f"{key}={value:g}"
            elif isinstance(value, str) and 0 < len(value) <= MAX_TAG_CHARS:
                tag = f"{key}={value}"
            else:
                continue
            values.setdefault(str(key), {})[task_id] = tag
    out: dict[str, list[str]] = {task_id: [] for task_id in task_data}
    for _key, by_task in sorted(values.items()):
        distinct = set(by_task.values())
        # a field every task has with one value, or one that (nearly) names each task, does
        # not group anything
        if len(by_task) < len(task_data) and None not in distinct:
            distinct.add(None)
        if not 2 <= len(distinct) <= min(MAX_TAG_VALUES, len(task_data) - 1):
            continue
        for task_id, tag in by_task.items():
            if tag is not None:
                out[task_id].append(tag)
    return {task_id: tuple(tags) for task_id, tags in out.items()}


def basis_results(records: Sequence[UnitRecord]) -> dict[tuple[str, int], dict[str, str]]:
    """(task id, trial) → each evaluation basis → ``pass`` (its reward is a success) or
    ``fail``, for units with a usable evaluation."""
    out: dict[tuple[str, int], dict[str, str]] = {}
    for record in records:
        ev = record.evaluation
        if ev is None or ev.error is not None:
            continue
        out[(record.task_id, record.trial)] = {
            name: "pass" if is_success(result.reward) else "fail"
            for name, result in sorted(ev.by_basis.items())
        }
    return out


@dataclass
class RunSource:
    """One run directory given to ``lifebench view``."""

    index: int
    label: str
    run_dir: Path
    min_interval: float = 1.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _snapshot: Snapshot | None = field(default=None, repr=False)
    _fingerprint: Fingerprint | None = field(default=None, repr=False)
    _checked: float = field(default=-1e9, repr=False)
    _report: tuple[int, RunReport] | None = field(default=None, repr=False)
    _load_s: float = field(default=0.0, repr=False)
    error: str | None = None

    def snapshot(self) -> Snapshot | None:
        """The current snapshot, re-read when the store changed — at most once per
        ``min_interval`` seconds, and never more often than twice the last read took (a big
        run being written to costs at most a third of a core; ``min_interval`` 0 checks on
        every call). None when the run cannot be read (see ``error``)."""
        with self._lock:
            now = time.monotonic()
            wait = max(self.min_interval, 2 * self._load_s) if self.min_interval > 0 else 0.0
            if self._snapshot is not None and now - self._checked < wait:
                return self._snapshot
            self._checked = now
            current = _fingerprint(self.run_dir)
            if self._snapshot is not None and current == self._fingerprint:
                return self._snapshot
            try:
                data = load_run(self.run_dir)
            except LifebenchError as exc:
                self.error = str(exc)
                return self._snapshot
            self._load_s = time.monotonic() - now
            self._checked = time.monotonic()
            self.error = None
            version = (self._snapshot.version + 1) if self._snapshot else 1
            self._snapshot = Snapshot(
                version,
                data,
                unit_summaries(data.records),
                task_tags(data.task_data),
                basis_results(data.records),
            )
            self._fingerprint = current
            return self._snapshot

    def report(self) -> RunReport | None:
        """The run's report (rebuilt only when the snapshot changed)."""
        snap = self.snapshot()
        if snap is None:
            return None
        with self._lock:
            if self._report is None or self._report[0] != snap.version:
                try:
                    self._report = (snap.version, build_run_report(snap.data, self.label))
                except LifebenchError as exc:
                    self.error = str(exc)
                    return None
            return self._report[1]

    @property
    def config(self) -> Mapping[str, Any]:
        """Stored configuration (empty if unreadable)."""
        snap = self.snapshot()
        return snap.data.config if snap else {}

    @property
    def model(self) -> str:
        """Agent model name (or kind)."""
        return model_label(self.config.get("agent_model"), self.config.get("agent"))


NOT_PASSED = ("fail", "infra_error", "grading_error", "ungradable")
"""Outcomes of a finished unit that did not pass (the ``failed`` filter)."""
PAGE_SIZES = (25, 50, 100, 200, 500)
DEFAULT_PAGE_SIZE = 50
_OUTCOME_ORDER = {name: i for i, name in enumerate(OUTCOMES)}


@dataclass(frozen=True)
class Filters:
    """Filters, search, order and page of the simulation list (empty string: none)."""

    run: str = ""
    suite: str = ""
    domain: str = ""
    task: str = ""
    outcome: str = ""
    termination: str = ""
    error: str = ""
    failed: str = ""
    tag: str = ""
    result: str = ""
    q: str = ""
    sort: str = ""
    page: str = ""
    per: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> Filters:
        """From URL query parameters (unknown ones ignored, values stripped)."""
        names = cls.__dataclass_fields__
        return cls(**{k: str(query.get(k, "")).strip() for k in names})

    def as_dict(self) -> dict[str, str]:
        """Non-empty filters."""
        return {k: v for k, v in self.__dict__.items() if v}

    def with_(self, **changes: str) -> dict[str, str]:
        """The non-empty parameters with ``changes`` applied (for links)."""
        return {k: v for k, v in {**self.as_dict(), **changes}.items() if v}

    @property
    def page_size(self) -> int:
        """Rows per page: ``per`` when it is one of ``PAGE_SIZES``, else the default."""
        return int(self.per) if self.per in {str(n) for n in PAGE_SIZES} else DEFAULT_PAGE_SIZE

    @property
    def page_number(self) -> int:
        """The 1-based page asked for (1 when ``page`` is not a positive number)."""
        return int(self.page) if self.page.isdigit() and int(self.page) > 0 else 1

    @property
    def sort_column(self) -> tuple[str, bool]:
        """(column, descending) of ``sort`` (``-reward``: reward, highest first); ('', False)
        for the default order or an unknown column."""
        name = self.sort.removeprefix("-")
        return (name, self.sort.startswith("-")) if name in SORT_KEYS else ("", False)


@dataclass(frozen=True)
class Row:
    """One simulation in the list."""

    run: int
    run_label: str
    suite: str
    domain: str
    unit: UnitSummary
    tags: tuple[str, ...] = ()
    results: Mapping[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """Plain JSON for the live-update script."""
        u = self.unit
        return {
            "run": self.run,
            "run_label": self.run_label,
            "suite": self.suite,
            "domain": self.domain,
            "task_id": u.task_id,
            "trial": u.trial,
            "outcome": u.outcome,
            "reward": u.reward,
            "termination": u.termination or "",
            "turns": u.turns,
            "tool_calls": u.tool_calls,
            "tool_errors": u.tool_errors,
            "failed": len(u.failed),
            "error": u.error or "",
            "tags": list(self.tags),
            "results": dict(self.results),
        }

    def text(self) -> str:
        """Everything the search box looks in, lower-cased."""
        u = self.unit
        parts = [
            u.task_id,
            u.termination or "",
            u.error or "",
            *(c.line() for c in u.failed),
            *u.notes,
            *self.tags,
            *(f"{basis}:{result}" for basis, result in self.results.items()),
        ]
        return "\n".join(parts).lower()


def _none_last(value: float | int | None) -> tuple[int, float]:
    return (1, 0.0) if value is None else (0, float(value))


SORT_KEYS: Mapping[str, Callable[[Row], Any]] = {
    "run": lambda r: r.run,
    "domain": lambda r: r.domain,
    "task": lambda r: natural_key(r.unit.task_id),
    "trial": lambda r: r.unit.trial,
    "outcome": lambda r: _OUTCOME_ORDER[r.unit.outcome],
    "reward": lambda r: _none_last(r.unit.reward),
    "termination": lambda r: r.unit.termination or "",
    "turns": lambda r: _none_last(r.unit.turns),
    "tool_calls": lambda r: _none_last(r.unit.tool_calls),
    "failed": lambda r: len(r.unit.failed),
}
"""Columns the list can be sorted by (``?sort=NAME``, ``?sort=-NAME`` for descending)."""


def _matches(row: Row, f: Filters) -> bool:
    u = row.unit
    text = " ".join([u.error or "", *(c.line() for c in u.failed), *u.notes]).lower()
    basis, _, wanted = f.result.partition(":")
    return (
        (not f.run or f.run == str(row.run))
        and (not f.suite or f.suite == row.suite)
        and (not f.domain or f.domain == row.domain)
        and (not f.task or f.task.lower() in u.task_id.lower())
        and (not f.outcome or f.outcome == u.outcome)
        and (not f.termination or f.termination == (u.termination or ""))
        and (not f.error or f.error.lower() in text)
        and (not f.failed or u.outcome in NOT_PASSED)
        and (not f.tag or f.tag in row.tags)
        and (not f.result or row.results.get(basis) == wanted)
        and (not f.q or all(word in row.text() for word in f.q.lower().split()))
    )


def rows(sources: Sequence[RunSource], filters: Filters) -> list[Row]:
    """Every simulation of every readable run that passes ``filters``, in the order of
    ``filters.sort`` (default: run, task id with numbers by value, trial)."""
    out = []
    for source in sources:
        snap = source.snapshot()
        if snap is None:
            continue
        suite = str(snap.data.config.get("suite") or "?")
        domain = str(snap.data.config.get("domain") or "?")
        for unit in snap.summaries:
            row = Row(
                source.index,
                source.label,
                suite,
                domain,
                unit,
                snap.tags.get(unit.task_id, ()),
                snap.results.get((unit.task_id, unit.trial), {}),
            )
            if _matches(row, filters):
                out.append(row)
    out.sort(key=lambda r: (r.run, natural_key(r.unit.task_id), r.unit.trial))
    column, descending = filters.sort_column
    if column:
        out.sort(key=SORT_KEYS[column], reverse=descending)  # stable: ties keep the default
    return out


@dataclass(frozen=True)
class Page:
    """One page of the matching rows."""

    rows: list[Row]
    total: int
    number: int
    pages: int
    size: int

    @property
    def first(self) -> int:
        """1-based position of the first row shown (0 when none)."""
        return (self.number - 1) * self.size + 1 if self.rows else 0

    @property
    def last(self) -> int:
        """1-based position of the last row shown."""
        return self.first + len(self.rows) - 1 if self.rows else 0


def paginate(matched: Sequence[Row], filters: Filters) -> Page:
    """The page of ``matched`` that ``filters`` asks for (the last one when it asks past
    the end)."""
    size = filters.page_size
    pages = max(1, -(-len(matched) // size))
    number = min(filters.page_number, pages)
    start = (number - 1) * size
    return Page(list(matched[start : start + size]), len(matched), number, pages, size)


def choices(sources: Sequence[RunSource]) -> dict[str, list[str]]:
    """Values offered by the filter menus."""
    suites: set[str] = set()
    domains: set[str] = set()
    terms: set[str] = set()
    tags: set[str] = set()
    results: set[str] = set()
    for source in sources:
        snap = source.snapshot()
        if snap is None:
            continue
        suites.add(str(snap.data.config.get("suite") or "?"))
        domains.add(str(snap.data.config.get("domain") or "?"))
        terms.update(s.termination for s in snap.summaries if s.termination)
        tags.update(tag for task in snap.tags.values() for tag in task)
        results.update(f"{b}:{r}" for unit in snap.results.values() for b, r in unit.items())
    return {
        "suite": sorted(suites),
        "domain": sorted(domains),
        "outcome": list(OUTCOMES),
        "termination": sorted(terms),
        "tag": sorted(tags, key=natural_key),
        "result": sorted(results),
    }
