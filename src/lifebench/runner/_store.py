"""SQLite run store: the single source of truth of a run directory (``<run_dir>/run.sqlite``).

Durability: the database is in WAL mode with ``synchronous=NORMAL``. Every write is one
``BEGIN IMMEDIATE … COMMIT`` transaction, so a unit is either fully recorded (its row and its
attempt-log entry) or not at all, and a committed transaction survives the process being killed
(SIGKILL, OOM). Only a power loss or OS crash can roll back the last few commits.

Concurrency: the methods are synchronous and meant to be called inline from the event loop. Each
call is one small transaction (no fsync per commit in WAL/NORMAL mode), so it costs well under a
millisecond to a few milliseconds; calling inline also serialises writes without a lock. The
connection belongs to the thread that opened the store. Other processes may read the database
while a run is going (``busy_timeout`` covers brief lock waits); running two writers on the same
run directory at once is not supported.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from lifebench import __version__
from lifebench._util.hashing import canonical_json
from lifebench.errors import ConfigChangedError, LifebenchError
from lifebench.evaluation._types import Evaluation
from lifebench.runner._diff import config_differences, task_differences
from lifebench.runner._records import AttemptRecord, EventKind, RunMeta, UnitRecord, UnitStatus
from lifebench.runner._schema import DDL, SCHEMA_VERSION
from lifebench.runner._units import WorkUnit
from lifebench.simulation._types import Simulation, TerminationReason

STORE_FILENAME = "run.sqlite"
BUSY_TIMEOUT_MS = 30_000
_MAX_IDS_SHOWN = 20

_UNIT_COLUMNS = (
    "task_id, trial, seed, status, attempts, simulation_json, evaluation_json, error, "
    "created_at, updated_at"
)
_ATTEMPT_COLUMNS = (
    "id, kind, task_id, trial, seed, attempt, status, error, model_retries, reward, duration_s, at"
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:_MAX_IDS_SHOWN])
    more = len(ids) - _MAX_IDS_SHOWN
    return shown + (f" … and {more} more" if more > 0 else "")


def _model_retries(simulation: Simulation | None, evaluation: Evaluation | None) -> int:
    """Retried model calls behind a simulation and its grading (agent, user and judges)."""
    roles = (
        0 if simulation is None else simulation.agent_usage.retries + simulation.user_usage.retries
    )
    judges = 0 if evaluation is None else sum(b.usage.retries for b in evaluation.by_basis.values())
    return roles + judges


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # first: the next pragmas may wait
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``; roll back on any exception (including cancellation)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _read_meta(conn: sqlite3.Connection) -> RunMeta | None:
    row = conn.execute(
        "SELECT config_json, config_hash, lifebench_version, created_at, schema_version "
        "FROM run_meta WHERE id = 1"
    ).fetchone()
    if row is None:
        return None
    return RunMeta(
        config=json.loads(row[0]),
        config_hash=row[1],
        lifebench_version=row[2],
        created_at=row[3],
        schema_version=row[4],
    )


LOCK_FILENAME = "run.lock"


def _writer_lock(directory: Path) -> int:
    """Take the exclusive writer lock of a run directory (released when the fd closes).

    The lock is advisory (``flock``) and dies with the process, so a killed run never leaves a
    stale lock behind.
    """
    fd = os.open(directory / LOCK_FILENAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise LifebenchError(
            f"{directory} is in use by another lifebench process (run or eval); wait for it to "
            "finish or use another run directory"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return fd


class RunStore:
    """Persistent state of one run: its configuration, tasks, units and attempt log.

    Create or resume with :meth:`open`; close with :meth:`close` (or use it as a context
    manager). See the module docstring for durability and concurrency guarantees.
    """

    def __init__(
        self, conn: sqlite3.Connection, path: Path, meta: RunMeta, lock: int | None = None
    ) -> None:
        """Use :meth:`open`; this only wires an already validated connection."""
        self._conn = conn
        self._path = path
        self._meta = meta
        self._lock = lock

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        run_dir: str | Path,
        config: Mapping[str, Any],
        config_hash: str,
        tasks: Mapping[str, str],
        task_data: Mapping[str, str] | None = None,
    ) -> RunStore:
        """Create the run store in ``run_dir``, or resume the one already there.

        ``tasks`` maps task id to the task's content hash. On resume the configuration hash must
        match the stored one and every stored task must still be present with the same hash;
        otherwise :class:`~lifebench.errors.ConfigChangedError` names the configuration keys
        and task ids that differ. Tasks not seen before are added. ``task_data`` (task id →
        the task's JSON) is kept so that saved trajectories can be re-graded without the
        original task file.
        """
        directory = Path(run_dir)
        directory.mkdir(parents=True, exist_ok=True)
        lock = _writer_lock(directory)
        path = directory / STORE_FILENAME
        conn = _connect(path)
        try:
            with _transaction(conn):
                for statement in DDL.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                meta = cls._init_or_check(conn, directory, dict(config), config_hash, tasks)
                conn.executemany(
                    "INSERT OR IGNORE INTO task_data (task_id, task_json) VALUES (?, ?)",
                    sorted((task_data or {}).items()),
                )
        except BaseException:
            conn.close()
            os.close(lock)
            raise
        return cls(conn, path, meta, lock)

    @classmethod
    def read(cls, run_dir: str | Path, *, write: bool = False) -> RunStore:
        """Open an existing run store without a config check: for reports (any time, even
        while a run is going) or, with ``write=True``, for re-grading (exclusive, like a run).

        Raises:
            LifebenchError: ``run_dir`` holds no run store, or (``write``) another lifebench
                process is writing to it.
        """
        path = Path(run_dir) / STORE_FILENAME
        if not path.is_file():
            raise LifebenchError(f"{run_dir} is not a run directory (no {STORE_FILENAME})")
        lock = _writer_lock(Path(run_dir)) if write else None
        conn: sqlite3.Connection | None = None
        try:
            conn = _connect(path)
            meta = _read_meta(conn)
        except sqlite3.DatabaseError:  # not SQLite, or not a run store's tables
            meta = None
        if conn is None or meta is None:
            if conn is not None:
                conn.close()
            if lock is not None:
                os.close(lock)
            raise LifebenchError(f"{path} has no run metadata (not a lifebench run store)")
        return cls(conn, path, meta, lock)

    @staticmethod
    def _init_or_check(
        conn: sqlite3.Connection,
        directory: Path,
        config: dict[str, Any],
        config_hash: str,
        tasks: Mapping[str, str],
    ) -> RunMeta:
        now = _now()
        stored = _read_meta(conn)
        if stored is None:
            config_json = canonical_json(config)
            conn.execute(
                "INSERT INTO run_meta (id, schema_version, config_json, config_hash, "
                "lifebench_version, created_at) VALUES (1, ?, ?, ?, ?, ?)",
                (SCHEMA_VERSION, config_json, config_hash, __version__, now),
            )
            meta = RunMeta(
                config=json.loads(config_json),
                config_hash=config_hash,
                lifebench_version=__version__,
                created_at=now,
                schema_version=SCHEMA_VERSION,
            )
            added = sorted(tasks)
            resumed = False
        else:
            meta = stored
            if meta.schema_version > SCHEMA_VERSION:
                raise LifebenchError(
                    f"{directory / STORE_FILENAME} was written by a newer lifebench "
                    f"(store schema {meta.schema_version}, this version reads {SCHEMA_VERSION})"
                )
            stored_tasks = dict(conn.execute("SELECT task_id, content_hash FROM tasks").fetchall())
            RunStore._check_unchanged(directory, meta, config, config_hash, stored_tasks, tasks)
            added = sorted(tasks.keys() - stored_tasks.keys())
            resumed = True
        conn.executemany(
            "INSERT INTO tasks (task_id, content_hash, added_at) VALUES (?, ?, ?)",
            [(task_id, tasks[task_id], now) for task_id in added],
        )
        conn.execute(
            "INSERT INTO sessions (opened_at, lifebench_version, resumed, tasks_added) "
            "VALUES (?, ?, ?, ?)",
            (now, __version__, int(resumed), len(added)),
        )
        return meta

    @staticmethod
    def _check_unchanged(
        directory: Path,
        meta: RunMeta,
        config: dict[str, Any],
        config_hash: str,
        stored_tasks: Mapping[str, str],
        tasks: Mapping[str, str],
    ) -> None:
        problems: list[str] = []
        if config_hash != meta.config_hash:
            diffs = config_differences(meta.config, json.loads(canonical_json(config)))
            head = (
                f"the configuration changed (stored hash {meta.config_hash[:12]}, "
                f"now {config_hash[:12]})"
            )
            if diffs:
                problems.append(head + "; differing keys:\n" + "\n".join(f"    {d}" for d in diffs))
            else:
                problems.append(head + ", although no key of the stored configuration differs")
        changed, removed, _ = task_differences(stored_tasks, tasks)
        if changed:
            problems.append(f"content of {len(changed)} task(s) changed: {_ids(changed)}")
        if removed:
            problems.append(f"{len(removed)} task(s) of the run are missing: {_ids(removed)}")
        if problems:
            raise ConfigChangedError(
                f"cannot resume the run in {directory}:\n"
                + "\n".join(f"  - {p}" for p in problems)
                + "\nRestore the original configuration and tasks, or use a new run directory."
            )

    # ------------------------------------------------------------------ properties

    @property
    def path(self) -> Path:
        """Path of the SQLite file."""
        return self._path

    @property
    def meta(self) -> RunMeta:
        """The configuration, hash, version and creation time the run was created with."""
        return self._meta

    def config(self) -> dict[str, Any]:
        """The stored run configuration (a fresh copy)."""
        return self._meta.model_copy(deep=True).config

    # ------------------------------------------------------------------ units

    def pending_units(self, units: Iterable[WorkUnit]) -> list[WorkUnit]:
        """Register ``units`` (as pending when new) and return those still to run, in order.

        Done units are skipped; pending and infra_error units are returned (infra errors are
        re-run). Raises :class:`ConfigChangedError` if a stored unit has a different seed, and
        ``ValueError`` for duplicate units or units of tasks the store does not know.
        """
        wanted = list(units)
        if len({(u.task_id, u.trial) for u in wanted}) != len(wanted):
            raise ValueError("pending_units: duplicate (task_id, trial) units")
        now = _now()
        with _transaction(self._conn) as conn:
            known = {row[0] for row in conn.execute("SELECT task_id FROM tasks")}
            unknown = sorted({u.task_id for u in wanted} - known)
            if unknown:
                raise ValueError(f"units refer to tasks the run does not know: {_ids(unknown)}")
            conn.executemany(
                "INSERT OR IGNORE INTO units (task_id, trial, seed, status, attempts, "
                "created_at, updated_at) VALUES (?, ?, ?, 'pending', 0, ?, ?)",
                [(u.task_id, u.trial, u.seed, now, now) for u in wanted],
            )
            stored = {
                (row[0], row[1]): (row[2], UnitStatus(row[3]))
                for row in conn.execute("SELECT task_id, trial, seed, status FROM units")
            }
        reseeded = sorted(
            f"{u.task_id}#{u.trial}" for u in wanted if stored[(u.task_id, u.trial)][0] != u.seed
        )
        if reseeded:
            raise ConfigChangedError(
                f"cannot resume the run in {self._path.parent}: the seed of "
                f"{len(reseeded)} unit(s) changed: {_ids(reseeded)}"
            )
        return [u for u in wanted if stored[(u.task_id, u.trial)][1] is not UnitStatus.DONE]

    def record(
        self,
        unit: WorkUnit,
        simulation: Simulation,
        evaluation: Evaluation | None = None,
        error: str | None = None,
        *,
        infra: bool | None = None,
    ) -> UnitStatus:
        """Record one attempt of ``unit`` atomically (unit row + attempt-log entry).

        The unit becomes ``infra_error`` when ``infra`` is true (default: when ``error`` is
        given) or the simulation ended with an infrastructure error; otherwise ``done``. The
        latest attempt replaces the unit's simulation and evaluation; the attempt log keeps
        every attempt. Returns the new status.
        """
        if (simulation.task_id, simulation.trial) != (unit.task_id, unit.trial):
            raise ValueError(
                f"simulation of {simulation.task_id}#{simulation.trial} recorded for unit "
                f"{unit.task_id}#{unit.trial}"
            )
        is_infra = (error is not None) if infra is None else infra
        if simulation.termination == TerminationReason.INFRASTRUCTURE_ERROR:
            is_infra = True
        status = UnitStatus.INFRA_ERROR if is_infra else UnitStatus.DONE
        if is_infra and error is None:
            error = simulation.error or "infrastructure error"
        now = _now()
        with _transaction(self._conn) as conn:
            conn.execute(
                f"INSERT INTO units ({_UNIT_COLUMNS}) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?) "
                "ON CONFLICT (task_id, trial) DO UPDATE SET seed = excluded.seed, "
                "status = excluded.status, attempts = units.attempts + 1, "
                "simulation_json = excluded.simulation_json, "
                "evaluation_json = excluded.evaluation_json, error = excluded.error, "
                "updated_at = excluded.updated_at",
                (
                    unit.task_id,
                    unit.trial,
                    unit.seed,
                    status.value,
                    simulation.model_dump_json(),
                    None if evaluation is None else evaluation.model_dump_json(),
                    error,
                    now,
                    now,
                ),
            )
            (attempt,) = conn.execute(
                "SELECT attempts FROM units WHERE task_id = ? AND trial = ?",
                (unit.task_id, unit.trial),
            ).fetchone()
            self._log(
                conn,
                EventKind.ATTEMPT,
                unit,
                attempt,
                status,
                error,
                _model_retries(simulation, evaluation),
                None if evaluation is None else evaluation.reward,
                simulation.duration_s,
                now,
            )
        return status

    def record_cancelled(self, unit: WorkUnit, note: str = "cancelled while running") -> None:
        """Log that ``unit`` was running when the run was cancelled (the unit stays as it was)."""
        with _transaction(self._conn) as conn:
            self._log(conn, EventKind.CANCELLED, unit, 0, None, note, 0, None, 0.0, _now())

    def record_evaluation(self, task_id: str, trial: int, evaluation: Evaluation) -> None:
        """Replace the evaluation of a done unit (re-grading) and log it.

        Raises ``KeyError`` for an unknown unit and ``ValueError`` for one that is not done.
        """
        now = _now()
        with _transaction(self._conn) as conn:
            row = conn.execute(
                "SELECT seed, status, attempts FROM units WHERE task_id = ? AND trial = ?",
                (task_id, trial),
            ).fetchone()
            if row is None:
                raise KeyError(f"no unit {task_id}#{trial} in {self._path}")
            seed, status, attempts = row[0], UnitStatus(row[1]), row[2]
            if status is not UnitStatus.DONE:
                raise ValueError(f"unit {task_id}#{trial} is {status.value}; only done units")
            conn.execute(
                "UPDATE units SET evaluation_json = ?, updated_at = ? "
                "WHERE task_id = ? AND trial = ?",
                (evaluation.model_dump_json(), now, task_id, trial),
            )
            self._log(
                conn,
                EventKind.REGRADE,
                WorkUnit(task_id, trial, seed),
                attempts,
                UnitStatus.DONE,
                evaluation.error,
                _model_retries(None, evaluation),
                evaluation.reward,
                0.0,
                now,
            )

    @staticmethod
    def _log(
        conn: sqlite3.Connection,
        kind: EventKind,
        unit: WorkUnit,
        attempt: int,
        status: UnitStatus | None,
        error: str | None,
        model_retries: int,
        reward: float | None,
        duration_s: float,
        at: str,
    ) -> None:
        conn.execute(
            f"INSERT INTO attempts ({_ATTEMPT_COLUMNS}) "
            "VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                kind.value,
                unit.task_id,
                unit.trial,
                unit.seed,
                attempt,
                None if status is None else status.value,
                error,
                model_retries,
                reward,
                duration_s,
                at,
            ),
        )

    # ------------------------------------------------------------------ reading

    def results(self) -> list[UnitRecord]:
        """Every registered unit (pending ones included), ordered by (task_id, trial)."""
        rows = self._conn.execute(
            f"SELECT {_UNIT_COLUMNS} FROM units ORDER BY task_id, trial"
        ).fetchall()
        return [
            UnitRecord(
                task_id=r[0],
                trial=r[1],
                seed=r[2],
                status=UnitStatus(r[3]),
                attempts=r[4],
                simulation=None if r[5] is None else Simulation.model_validate_json(r[5]),
                evaluation=None if r[6] is None else Evaluation.model_validate_json(r[6]),
                error=r[7],
                created_at=r[8],
                updated_at=r[9],
            )
            for r in rows
        ]

    def attempt_log(self) -> list[AttemptRecord]:
        """The append-only log of attempts, cancellations and re-gradings, oldest first."""
        rows = self._conn.execute(f"SELECT {_ATTEMPT_COLUMNS} FROM attempts ORDER BY id").fetchall()
        return [
            AttemptRecord(
                id=r[0],
                kind=EventKind(r[1]),
                task_id=r[2],
                trial=r[3],
                seed=r[4],
                attempt=r[5],
                status=None if r[6] is None else UnitStatus(r[6]),
                error=r[7],
                model_retries=r[8],
                reward=r[9],
                duration_s=r[10],
                at=r[11],
            )
            for r in rows
        ]

    def task_data(self) -> dict[str, str]:
        """Stored task JSON by task id (runs created before it was kept have none)."""
        return dict(
            self._conn.execute(
                "SELECT task_id, task_json FROM task_data ORDER BY task_id"
            ).fetchall()
        )

    def tasks(self) -> dict[str, str]:
        """Stored task ids and content hashes."""
        return dict(
            self._conn.execute(
                "SELECT task_id, content_hash FROM tasks ORDER BY task_id"
            ).fetchall()
        )

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None:
        """Close the connection and release the writer lock (idempotent)."""
        self._conn.close()
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the flock
            self._lock = None

    def __enter__(self) -> RunStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
