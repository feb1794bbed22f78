"""What the viewer shows, read from run directories that may still be written to.

Each :class:`RunSource` reads its store with :meth:`RunStore.read` (read-only; SQLite WAL lets a
run keep writing) and keeps the last snapshot until the database files change, so a page view
costs a ``stat`` when nothing happened.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lifebench.errors import LifebenchError
from lifebench.reporting._bundle import RunReport, build_run_report, model_label
from lifebench.reporting._load import RunData, load_run
from lifebench.reporting._outcomes import OUTCOMES, UnitSummary, unit_summaries
from lifebench.runner import STORE_FILENAME

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
            self._snapshot = Snapshot(version, data, unit_summaries(data.records))
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


@dataclass(frozen=True)
class Filters:
    """Filters of the simulation list (empty string: no filter)."""

    run: str = ""
    suite: str = ""
    domain: str = ""
    task: str = ""
    outcome: str = ""
    termination: str = ""
    error: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> Filters:
        """From URL query parameters (unknown ones ignored, values stripped)."""
        names = cls.__dataclass_fields__
        return cls(**{k: str(query.get(k, "")).strip() for k in names})

    def as_dict(self) -> dict[str, str]:
        """Non-empty filters."""
        return {k: v for k, v in self.__dict__.items() if v}


@dataclass(frozen=True)
class Row:
    """One simulation in the list."""

    run: int
    run_label: str
    suite: str
    domain: str
    unit: UnitSummary

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
        }


def _matches(row: Row, f: Filters) -> bool:
    u = row.unit
    text = " ".join([u.error or "", *(c.line() for c in u.failed), *u.notes]).lower()
    return (
        (not f.run or f.run == str(row.run))
        and (not f.suite or f.suite == row.suite)
        and (not f.domain or f.domain == row.domain)
        and (not f.task or f.task.lower() in u.task_id.lower())
        and (not f.outcome or f.outcome == u.outcome)
        and (not f.termination or f.termination == (u.termination or ""))
        and (not f.error or f.error.lower() in text)
    )


def rows(sources: Sequence[RunSource], filters: Filters) -> list[Row]:
    """Every simulation of every readable run that passes ``filters``, in run, task, trial
    order."""
    out = []
    for source in sources:
        snap = source.snapshot()
        if snap is None:
            continue
        suite = str(snap.data.config.get("suite") or "?")
        domain = str(snap.data.config.get("domain") or "?")
        for unit in snap.summaries:
            row = Row(source.index, source.label, suite, domain, unit)
            if _matches(row, filters):
                out.append(row)
    return out


def choices(sources: Sequence[RunSource]) -> dict[str, list[str]]:
    """Values offered by the filter menus."""
    suites: set[str] = set()
    domains: set[str] = set()
    terms: set[str] = set()
    for source in sources:
        snap = source.snapshot()
        if snap is None:
            continue
        suites.add(str(snap.data.config.get("suite") or "?"))
        domains.add(str(snap.data.config.get("domain") or "?"))
        terms.update(s.termination for s in snap.summaries if s.termination)
    return {
        "suite": sorted(suites),
        "domain": sorted(domains),
        "outcome": list(OUTCOMES),
        "termination": sorted(terms),
    }
