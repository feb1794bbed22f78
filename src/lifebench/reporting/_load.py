"""Reading what reports need from a run directory, through the read-only run store."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lifebench.errors import LifebenchError
from lifebench.runner import AttemptRecord, RunMeta, RunStore, UnitRecord
from lifebench.runner._provenance import Provenance, RunFacts
from lifebench.runner._transcript import Transcript


@dataclass(frozen=True)
class RunData:
    """A snapshot of one run directory: configuration, unit records, stored tasks."""

    run_dir: Path
    meta: RunMeta
    records: list[UnitRecord]
    task_data: dict[str, str]
    task_hashes: dict[str, str]
    attempts: list[AttemptRecord]
    grading: dict[str, Any] | None = None
    provenance: Provenance | None = None
    """The latest session's provenance (None: not recorded)."""
    facts: RunFacts | None = None
    """What :func:`lifebench.runner.comparability` compares (None: not read)."""

    @property
    def config(self) -> dict[str, Any]:
        """The stored run configuration."""
        return self.meta.config

    def record(self, task_id: str, trial: int | None) -> UnitRecord:
        """The unit ``task_id``#``trial`` (``trial`` None: the first trial of the task).

        Raises:
            LifebenchError: no such task (closest ids suggested) or trial (trials listed).
        """
        units = [r for r in self.records if r.task_id == task_id]
        if not units:
            from rapidfuzz import process

            ids = sorted({r.task_id for r in self.records})
            close = [m[0] for m in process.extract(task_id, ids, limit=3)]
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise LifebenchError(f"{self.run_dir}: no task '{task_id}' in the run{hint}")
        if trial is None:
            return units[0]
        for unit in units:
            if unit.trial == trial:
                return unit
        trials = ", ".join(str(u.trial) for u in units)
        raise LifebenchError(
            f"{self.run_dir}: task '{task_id}' has no trial {trial} (trials: {trials})"
        )


def load_run(run_dir: str | Path, *, attempts: bool = False) -> RunData:
    """Read ``run_dir`` with :meth:`RunStore.read` (safe while a run is writing to it).

    Raises:
        LifebenchError: ``run_dir`` is not a run directory.
    """
    store = RunStore.read(run_dir)
    try:
        return RunData(
            run_dir=Path(run_dir),
            meta=store.meta,
            records=store.results(),
            task_data=store.task_data(),
            task_hashes=store.tasks(),
            attempts=store.attempt_log() if attempts else [],
            grading=store.grading(),
            provenance=store.provenance(),
            facts=store.facts(),
        )
    except Exception as exc:  # a damaged or foreign database: one clear message
        import sqlite3

        if isinstance(exc, sqlite3.DatabaseError):
            raise LifebenchError(f"{run_dir}: cannot read the run store: {exc}") from None
        raise
    finally:
        store.close()


def load_transcript(run_dir: str | Path, task_id: str, trial: int) -> Transcript:
    """The recorded briefing and model calls of one unit (read-only; safe while a run writes).

    Raises:
        LifebenchError: ``run_dir`` is not a run directory or cannot be read.
    """
    store = RunStore.read(run_dir)
    try:
        return store.transcript(task_id, trial)
    finally:
        store.close()
