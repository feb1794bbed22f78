"""SQLite run store: the single source of truth of a run directory (``<run_dir>/run.sqlite``).

Durability: the database is in WAL mode with ``synchronous=NORMAL``. Every write is one
``BEGIN IMMEDIATE … COMMIT`` transaction, so a unit is either fully recorded (its row and its
attempt-log entry) or not at all, and a committed transaction survives the process being killed
(SIGKILL, OOM). Only a power loss or OS crash can roll back the last few commits.

Concurrency: the methods are synchronous and meant to be called inline from the event loop. Each
call is one small transaction (no fsync per commit in WAL/NORMAL mode), so it costs well under a
millisecond to a few milliseconds; calling inline also serialises writes without a lock. The
connection belongs to the thread that opened the store. Other processes may read the database
while a run is going (``busy_timeout`` covers brief lock waits). One process writes: the writer
holds a lease stored in the database itself (see :mod:`lifebench.runner._lease`), checked by
every write; worker processes and Ray actors send their outcomes to it.

Errors of SQLite and of the file system (disk full, unwritable directory, damaged file) are
raised as one :class:`~lifebench.runner._errors.StoreError` that says what to do.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
import zlib
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from lifebench import __version__
from lifebench._util.hashing import canonical_json
from lifebench.errors import ConfigChangedError, LifebenchError
from lifebench.evaluation._types import Evaluation
from lifebench.models._record import Blob, PackedCalls, decode_blob, encode_blob
from lifebench.models._secrets import Scrubber
from lifebench.runner._diff import config_differences, task_differences
from lifebench.runner._errors import (
    StoreError,
    StoreInUseError,
    guarded_store,
    prepare_run_dir,
    store_error,
)
from lifebench.runner._lease import (
    FileId,
    Heartbeat,
    Holder,
    file_id,
    holder_alive,
    lock_directory,
    read_holder,
    this_holder,
)
from lifebench.runner._lease import write_holder as _write_holder
from lifebench.runner._provenance import Provenance, RunFacts, facts_from
from lifebench.runner._records import AttemptRecord, EventKind, RunMeta, UnitRecord, UnitStatus
from lifebench.runner._schema import DDL, SCHEMA_VERSION, migrate, statements
from lifebench.runner._transcript import Transcript, read_transcript
from lifebench.runner._transcript import run_tools as read_run_tools
from lifebench.runner._units import PackedOutcome, UnitOutcome, WorkUnit
from lifebench.simulation._types import Simulation

STORE_FILENAME = "run.sqlite"
BUSY_TIMEOUT_MS = 30_000
_MAX_IDS_SHOWN = 20
_STORED_BLOBS = 65_536
"""Blob names a writer remembers having stored (see ``RunStore._stored_blobs``)."""

_UNIT_COLUMNS = (
    "task_id, trial, seed, status, attempts, simulation_json, evaluation_json, error, "
    "created_at, updated_at"
)
_ATTEMPT_COLUMNS = (
    "id, kind, task_id, trial, seed, attempt, status, error, model_retries, reward, duration_s, at"
)
_FINAL = (UnitStatus.DONE, UnitStatus.REJECTED)
"""Statuses a resume does not run again."""

Rehash = Callable[[Mapping[str, Any]], str]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:_MAX_IDS_SHOWN])
    more = len(ids) - _MAX_IDS_SHOWN
    return shown + (f" … and {more} more" if more > 0 else "")


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # first: the next pragmas may wait
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        conn.close()
        raise
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


def _table_exists(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return row is not None


def _read_meta(conn: sqlite3.Connection) -> RunMeta | None:
    if not _table_exists(conn, "run_meta"):
        return None
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


def _take_lease(conn: sqlite3.Connection, directory: Path, command: str) -> tuple[Holder, str]:
    """Take the writer lease (inside the caller's transaction) or refuse with who holds it.

    Returns the new lease and a note ('' or a line saying a dead holder's lease was taken)."""
    held = read_holder(conn)
    note = ""
    if held is not None:
        if holder_alive(held, now=time.time()):
            raise StoreInUseError(
                f"{directory} is in use by another lifebench process ({held.describe()}); "
                "wait for it to finish or use another run directory"
            )
        note = f"took over the writer lease of {held.describe()}, which is no longer running"
    mine = this_holder(command)
    _write_holder(conn, mine)
    return mine, note


def _lock(directory: Path) -> int:
    """The OS lock of the run directory (see :mod:`lifebench.runner._lease`), or
    :class:`StoreInUseError` naming the holder when another process has it."""
    try:
        fd = lock_directory(directory)
    except OSError as exc:
        raise store_error(directory, exc, "locking the run directory") from None
    if fd is None:
        holder = ""
        path = directory / STORE_FILENAME
        with contextlib.suppress(sqlite3.Error, OSError):
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
            try:
                held = read_holder(conn)
            finally:
                conn.close()
            holder = f" ({held.describe()})" if held is not None else ""
        raise StoreInUseError(
            f"{directory} is in use by another lifebench process{holder}; wait for it to "
            "finish or use another run directory"
        )
    return fd


def _unlock(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


class RunStore:
    """Persistent state of one run: its configuration, tasks, units, attempt log and gradings.

    Create or resume with :meth:`open`; close with :meth:`close` (or use it as a context
    manager). See the module docstring for durability and concurrency guarantees.
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        meta: RunMeta,
        lease: Holder | None = None,
        notes: Iterable[str] = (),
        lock_fd: int | None = None,
    ) -> None:
        """Use :meth:`open` or :meth:`read`; this only wires an already validated connection."""
        self._conn = conn
        self._lock_fd = lock_fd
        self._files: dict[Path, FileId] = {}
        if lease is not None:
            wal = path.with_name(path.name + "-wal")
            self._files = {path: file_id(path), wal: file_id(wal)}
        self._path = path
        self._meta = meta
        self._lease = lease
        self._heartbeat: Heartbeat | None = None
        self._notes = list(notes)
        self._scrub = Scrubber.of(environment=True)
        """Every text a unit brings is scrubbed here, at the store boundary."""
        self._stored_blobs: OrderedDict[str, None] = OrderedDict()
        """Names of blobs this store wrote (bounded): a piece that every unit resends (the tool
        schemas, a system prompt) is scrubbed and inserted once, not once per unit. Names join
        it only when their transaction has committed (:meth:`_write`)."""
        self._new_blobs: list[str] = []
        if lease is not None:
            self._heartbeat = Heartbeat(path, lease.token)
            self._heartbeat.start()

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        run_dir: str | Path,
        config: Mapping[str, Any],
        config_hash: str,
        tasks: Mapping[str, str],
        task_data: Mapping[str, str] | None = None,
        *,
        rehash: Rehash | None = None,
        command: str = "lifebench run",
        provenance: Provenance | None = None,
    ) -> RunStore:
        """Create the run store in ``run_dir``, or resume the one already there, as its writer.

        ``tasks`` maps task id to the task's content hash: tasks are identified by content, so
        the same tasks read from another path resume. On resume the configuration hash must
        match the stored one — directly, or as ``rehash`` recomputes it from the stored
        configuration (a store written under older hash rules) — and every stored task must
        still be present with the same hash; otherwise
        :class:`~lifebench.errors.ConfigChangedError` names the configuration keys and task ids
        that differ. Keys outside the hash that changed (a moved task file, more trials, another
        endpoint for the same model) are accepted and listed in :attr:`notes`; the stored
        configuration becomes the current one. Tasks not seen before are added. ``task_data``
        (task id → the task's JSON) is kept so that trajectories can be re-graded without the
        original task file. ``provenance`` (versions, commit, packages, task hashes, graders,
        models) is stored with the session.

        Raises:
            StoreInUseError: Another live process writes to ``run_dir``.
            StoreError: The directory or database cannot be created, written or read.
        """
        directory = Path(run_dir)
        prepare_run_dir(directory)
        path = directory / STORE_FILENAME
        lock_fd = _lock(directory)
        with guarded_store(path, "opening the run store"):
            try:
                conn = _connect(path)
            except BaseException:
                _unlock(lock_fd)
                raise
            try:
                with _transaction(conn):
                    for statement in statements(DDL):
                        conn.execute(statement)
                    lease, lease_note = _take_lease(conn, directory, command)
                    meta, notes = cls._init_or_check(
                        conn, directory, dict(config), config_hash, tasks, rehash
                    )
                    if lease_note:
                        notes.insert(0, lease_note)
                    conn.execute(
                        "UPDATE sessions SET notes = ?, provenance_json = ? "
                        "WHERE id = (SELECT max(id) FROM sessions)",
                        (
                            "\n".join(notes) or None,
                            None if provenance is None else provenance.model_dump_json(),
                        ),
                    )
                    conn.executemany(
                        "INSERT OR IGNORE INTO task_data (task_id, task_json) VALUES (?, ?)",
                        sorted((task_data or {}).items()),
                    )
            except BaseException:
                conn.close()
                _unlock(lock_fd)
                raise
        return cls(conn, path, meta, lease, notes, lock_fd)

    @classmethod
    def read(
        cls, run_dir: str | Path, *, write: bool = False, command: str = "lifebench eval"
    ) -> RunStore:
        """Open an existing run store without a config check: for reports (any time, even
        while a run is going) or, with ``write=True``, for re-grading (as the writer).

        Raises:
            LifebenchError: ``run_dir`` holds no run store.
            StoreInUseError: (``write``) another lifebench process is writing to it.
            StoreError: The database is damaged or cannot be read.
        """
        directory = Path(run_dir)
        path = directory / STORE_FILENAME
        if not path.is_file():
            raise LifebenchError(f"{run_dir} is not a run directory (no {STORE_FILENAME})")
        lock_fd = _lock(directory) if write else None
        with guarded_store(path, "reading the run store"):
            try:
                conn = _connect(path)
            except BaseException:
                _unlock(lock_fd)
                raise
            try:
                meta = _read_meta(conn)
                if meta is None:
                    raise LifebenchError(f"{path} has no run metadata")
                lease = None
                if write:
                    with _transaction(conn):
                        if meta.schema_version < SCHEMA_VERSION:
                            for statement in statements(DDL):
                                conn.execute(statement)
                            migrate(conn, meta.schema_version)
                        lease, _ = _take_lease(conn, directory, command)
            except BaseException:
                conn.close()
                _unlock(lock_fd)
                raise
        return cls(conn, path, meta, lease, lock_fd=lock_fd)

    @staticmethod
    def _init_or_check(
        conn: sqlite3.Connection,
        directory: Path,
        config: dict[str, Any],
        config_hash: str,
        tasks: Mapping[str, str],
        rehash: Rehash | None,
    ) -> tuple[RunMeta, list[str]]:
        now = _now()
        stored = _read_meta(conn)
        config_json = canonical_json(config)
        notes: list[str] = []
        if stored is None:
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
            if stored.schema_version > SCHEMA_VERSION:
                raise LifebenchError(
                    f"{directory / STORE_FILENAME} was written by a newer lifebench "
                    f"(store schema {stored.schema_version}, this version reads {SCHEMA_VERSION})"
                )
            if stored.schema_version < SCHEMA_VERSION:
                migrate(conn, stored.schema_version)
            stored_tasks = dict(conn.execute("SELECT task_id, content_hash FROM tasks").fetchall())
            same_hash = config_hash == stored.config_hash or (
                rehash is not None and rehash(stored.config) == config_hash
            )
            RunStore._check_unchanged(
                directory, stored, config, config_hash, same_hash, stored_tasks, tasks
            )
            current = json.loads(config_json)
            notes = [
                f"changed without affecting results: {line}"
                for line in config_differences(stored.config, current)
            ]
            conn.execute(
                "UPDATE run_meta SET config_json = ?, config_hash = ? WHERE id = 1",
                (config_json, config_hash),
            )
            meta = stored.model_copy(
                update={
                    "config": current,
                    "config_hash": config_hash,
                    "schema_version": SCHEMA_VERSION,
                }
            )
            added = sorted(tasks.keys() - stored_tasks.keys())
            if added:
                notes.append(f"{len(added)} task(s) added to the run: {_ids(added)}")
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
        return meta, notes

    @staticmethod
    def _check_unchanged(
        directory: Path,
        meta: RunMeta,
        config: dict[str, Any],
        config_hash: str,
        same_hash: bool,
        stored_tasks: Mapping[str, str],
        tasks: Mapping[str, str],
    ) -> None:
        problems: list[str] = []
        if not same_hash:
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
        """The configuration, hash, version and creation time of the run (as now stored)."""
        return self._meta

    @property
    def notes(self) -> list[str]:
        """What opening this session noticed: options changed without affecting results (a
        moved task file, more trials, another endpoint), tasks added, a dead writer's lease
        taken over."""
        return list(self._notes)

    def config(self) -> dict[str, Any]:
        """The stored run configuration (a fresh copy)."""
        return self._meta.model_copy(deep=True).config

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _write(self, action: str) -> Iterator[sqlite3.Connection]:
        """One write transaction, as the lease holder, with errors explained."""
        if self._lease is None:
            raise LifebenchError(f"{self._path} was opened for reading only")
        self._check_files()
        self._new_blobs.clear()
        with guarded_store(self._path, action), _transaction(self._conn) as conn:
            held = read_holder(conn)
            if held is None:  # removed by hand: nobody else holds it, so take it back
                _write_holder(conn, self._lease)
            elif held.token != self._lease.token:
                raise StoreInUseError(
                    f"{self._path.parent}: the writer lease was taken over by "
                    f"{held.describe()}; this process stops writing"
                )
            yield conn
        stored = self._stored_blobs  # committed: these blobs are in the store for good
        for name in self._new_blobs:
            stored[name] = None
            stored.move_to_end(name)
        while len(stored) > _STORED_BLOBS:
            stored.popitem(last=False)
        self._new_blobs.clear()

    def _check_files(self) -> None:
        """Stop when a file this writer opened was deleted or replaced at its path (another
        process could then start the run afresh in a new file: units would be lost)."""
        for path, opened in self._files.items():
            if opened is not None and file_id(path) != opened:
                raise StoreError(
                    f"{path} was deleted or replaced while this process was writing the run; "
                    "it stops so that no unit is written where nobody will read it. Units "
                    "finished before are in the file that was replaced (restore it if you can); "
                    "re-run the same command to resume from what the run directory holds"
                )

    def pending_units(self, units: Iterable[WorkUnit]) -> list[WorkUnit]:
        """Register ``units`` (as pending when new) and return those still to run, in order.

        Done and rejected units are skipped; pending and infra_error units are returned (infra
        errors are re-run). Raises :class:`ConfigChangedError` if a stored unit has a different
        seed, and ``ValueError`` for duplicate units or units of tasks the store does not know.
        """
        wanted = list(units)
        if len({(u.task_id, u.trial) for u in wanted}) != len(wanted):
            raise ValueError("pending_units: duplicate (task_id, trial) units")
        now = _now()
        with self._write("registering units") as conn:
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
        return [u for u in wanted if stored[(u.task_id, u.trial)][1] not in _FINAL]

    def record(
        self,
        unit: WorkUnit,
        simulation: Simulation,
        evaluation: Evaluation | None = None,
        error: str | None = None,
        *,
        infra: bool | None = None,
        rejected: bool = False,
        calls: PackedCalls | None = None,
    ) -> UnitStatus:
        """Record one attempt of ``unit`` atomically (unit row + attempt-log entry).

        The unit becomes ``rejected`` when ``rejected``; ``infra_error`` when ``infra`` is true
        (default: when ``error`` is given) or the simulation ended with an infrastructure error;
        otherwise ``done``. The latest attempt replaces the unit's simulation and evaluation;
        the attempt log keeps every attempt. Returns the new status.
        """
        is_infra = (error is not None) if infra is None else infra
        outcome = UnitOutcome(
            simulation, evaluation, error, infra=is_infra, rejected=rejected, calls=calls
        )
        return self.record_packed(PackedOutcome.of(unit, outcome))

    def record_packed(self, packed: PackedOutcome) -> UnitStatus:
        """Record an outcome packed by :meth:`PackedOutcome.of` (see :meth:`record`)."""
        unit, now = packed.unit, _now()
        with self._write("saving a finished unit") as conn:
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
                    packed.status.value,
                    self._scrub(packed.simulation_json),
                    self._scrub.optional(packed.evaluation_json),
                    self._scrub.optional(packed.error),
                    now,
                    now,
                ),
            )
            (attempt,) = conn.execute(
                "SELECT attempts FROM units WHERE task_id = ? AND trial = ?",
                (unit.task_id, unit.trial),
            ).fetchone()
            log_id = self._log(
                conn,
                EventKind.ATTEMPT,
                unit,
                attempt,
                packed.status,
                self._scrub.optional(packed.error),
                packed.model_retries,
                packed.reward,
                packed.duration_s,
                now,
            )
            if packed.calls is not None:
                self._save_calls(conn, log_id, unit.task_id, unit.trial, packed.calls)
        return packed.status

    def record_cancelled(self, unit: WorkUnit, note: str = "cancelled while running") -> None:
        """Log that ``unit`` was running when the run was cancelled (the unit stays as it was)."""
        with self._write("logging a cancelled unit") as conn:
            self._log(
                conn, EventKind.CANCELLED, unit, 0, None, self._scrub(note), 0, None, 0.0, _now()
            )

    def record_evaluation(
        self,
        task_id: str,
        trial: int,
        evaluation: Evaluation,
        calls: PackedCalls | None = None,
    ) -> None:
        """Replace the evaluation of a done unit (re-grading) and log it, with the judge calls
        that produced it when they were recorded.

        Raises ``KeyError`` for an unknown unit and ``ValueError`` for one that is not done.
        """
        now = _now()
        with self._write("saving an evaluation") as conn:
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
                (self._scrub(evaluation.model_dump_json()), now, task_id, trial),
            )
            retries = sum(b.usage.retries for b in evaluation.by_basis.values())
            log_id = self._log(
                conn,
                EventKind.REGRADE,
                WorkUnit(task_id, trial, seed),
                attempts,
                UnitStatus.DONE,
                self._scrub.optional(evaluation.error),
                retries,
                evaluation.reward,
                0.0,
                now,
            )
            if calls is not None:
                self._save_calls(conn, log_id, task_id, trial, calls)

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
    ) -> int:
        cursor = conn.execute(
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
        return int(cursor.lastrowid or 0)

    def _clean_blob(self, blob: Blob) -> Blob:
        """``blob`` scrubbed (its name kept: the same content always scrubs the same way, and
        every reference to it stays valid)."""
        try:
            text = decode_blob(blob.codec, blob.data).decode("utf-8")
        except (UnicodeDecodeError, ValueError, zlib.error):
            return blob
        clean = self._scrub(text)
        if clean == text:
            return blob
        encoded = encode_blob(clean.encode("utf-8"), bytes.fromhex(blob.hash))
        return Blob(blob.hash, encoded.codec, encoded.size, encoded.data)

    def _save_calls(
        self, conn: sqlite3.Connection, log_id: int, task_id: str, trial: int, calls: PackedCalls
    ) -> None:
        """Store a unit's recorded calls under the log entry ``log_id`` (blobs once each),
        every text through the scrubber."""
        stored = self._stored_blobs
        blobs = [self._clean_blob(b) for b in calls.blobs if b.hash not in stored]
        conn.executemany(
            "INSERT OR IGNORE INTO blobs (hash, codec, size, data) VALUES (?, ?, ?, ?)",
            [(b.hash, b.codec, b.size, b.data) for b in blobs],
        )
        self._new_blobs.extend(b.hash for b in calls.blobs)
        conn.executemany(
            "INSERT INTO calls (log_id, seq, task_id, trial, role, basis, label, cached, "
            "cache_key, call_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    log_id,
                    seq,
                    task_id,
                    trial,
                    role,
                    basis,
                    label,
                    int(cached),
                    key,
                    self._scrub(text),
                )
                for seq, role, basis, label, cached, key, text in calls.calls
            ],
        )
        if calls.briefing is not None:
            conn.execute(
                "INSERT INTO briefings (log_id, task_id, trial, briefing_json) VALUES (?, ?, ?, ?)",
                (log_id, task_id, trial, self._scrub(calls.briefing)),
            )
        if calls.tools:
            conn.executemany(
                "INSERT OR IGNORE INTO run_tools (hash, first_task, first_trial) VALUES (?, ?, ?)",
                [(h, task_id, trial) for h in calls.tools],
            )

    # ------------------------------------------------------------------ gradings

    def begin_grading(
        self,
        source: str,
        description: Mapping[str, Any],
        to_grade: int,
        provenance: Provenance | None = None,
    ) -> int:
        """Log that a grading starts: ``source`` is ``run`` (units graded as they finish) or
        ``eval`` (a re-grade); ``description`` names evaluator, judge, bases and options;
        ``provenance`` the grader versions and models behind it. Evaluations logged from now
        on are attributed to it. Returns its id."""
        with self._write("logging a grading") as conn:
            (last,) = conn.execute("SELECT coalesce(max(id), 0) FROM attempts").fetchone()
            cursor = conn.execute(
                "INSERT INTO gradings (source, grading_json, first_log_id, to_grade, started_at, "
                "provenance_json) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    source,
                    self._scrub(canonical_json(dict(description))),
                    last + 1,
                    to_grade,
                    _now(),
                    None if provenance is None else self._scrub(provenance.model_dump_json()),
                ),
            )
            return int(cursor.lastrowid or 0)

    def finish_grading(self, grading_id: int, graded: int, errors: int) -> None:
        """Mark a grading as finished (a grading never finished was interrupted)."""
        with self._write("logging a grading") as conn:
            conn.execute(
                "UPDATE gradings SET graded = ?, errors = ?, finished_at = ? WHERE id = ?",
                (graded, errors, _now(), grading_id),
            )

    def _attribution(self) -> tuple[list[Any], Counter[int], int] | None:
        """The gradings (rows, oldest first), how many done units' current evaluations each
        produced (by row index), and how many were logged before any grading (None: no
        grading log)."""
        if not _table_exists(self._conn, "gradings"):
            return None
        columns = {r[1] for r in self._conn.execute("PRAGMA table_info(gradings)")}
        provenance = "provenance_json" if "provenance_json" in columns else "NULL"
        rows = self._conn.execute(
            "SELECT id, source, grading_json, first_log_id, to_grade, finished_at, "
            f"{provenance} FROM gradings ORDER BY first_log_id, id"
        ).fetchall()
        if not rows:
            return None
        latest = self._conn.execute(
            "SELECT a.task_id, a.trial, max(a.id) FROM attempts a "
            "JOIN units u ON u.task_id = a.task_id AND u.trial = a.trial "
            "WHERE a.kind IN ('attempt', 'regrade') AND u.status = 'done' "
            "GROUP BY a.task_id, a.trial"
        ).fetchall()
        starts = [int(r[3]) for r in rows]
        per_grading: Counter[int] = Counter()
        unattributed = 0
        for _, _, log_id in latest:
            index = max((i for i, start in enumerate(starts) if start <= log_id), default=-1)
            if index < 0:
                unattributed += 1
            else:
                per_grading[index] += 1
        return rows, per_grading, unattributed

    def grading(self) -> dict[str, Any] | None:
        """Which grading produced the evaluations now stored (``None``: the store has no
        grading log — written by an older lifebench).

        Every done unit's current evaluation is attributed to the grading during which it was
        logged. Returns ``{"parts": [...], "mixed": bool}`` where each part is a grading
        description with ``source``, ``simulations`` (done units whose evaluation it produced),
        ``to_grade`` and ``interrupted`` (a re-grade that never finished), newest first.
        """
        with guarded_store(self._path, "reading the grading log"):
            found = self._attribution()
        return None if found is None else _grading_summary(*found)

    # ------------------------------------------------------------------ provenance

    def provenance(self) -> Provenance | None:
        """The provenance of the latest session (None: written by a lifebench that did not
        record it)."""
        sessions = self._sessions()
        return sessions[-1] if sessions else None

    def _sessions(self) -> list[Provenance | None]:
        with guarded_store(self._path, "reading the sessions"):
            columns = {r[1] for r in self._conn.execute("PRAGMA table_info(sessions)")}
            if "provenance_json" not in columns:
                return []
            rows = self._conn.execute("SELECT provenance_json FROM sessions ORDER BY id").fetchall()
        return [None if r[0] is None else Provenance.model_validate_json(r[0]) for r in rows]

    def facts(self) -> RunFacts:
        """What :func:`lifebench.runner.comparability` compares of this run: configuration,
        tasks, the sessions' provenance, and the gradings behind the stored evaluations."""
        with guarded_store(self._path, "reading the grading log"):
            found = self._attribution()
        gradings: list[tuple[dict[str, Any], Provenance | None]] = []
        mixed = False
        if found is None:  # no grading log: whatever graded the evaluations is unknown
            gradings.append(({}, None))
        else:
            rows, per_grading, unattributed = found
            for index in sorted(per_grading):
                row = rows[index]
                gradings.append(
                    (
                        json.loads(row[2]),
                        None if row[6] is None else Provenance.model_validate_json(row[6]),
                    )
                )
            mixed = bool(_grading_summary(*found)["mixed"])
            if unattributed:
                gradings.append(({}, None))
        return facts_from(self.config(), self.tasks(), self._sessions(), gradings, mixed)

    # ------------------------------------------------------------------ reading

    def results(self) -> list[UnitRecord]:
        """Every registered unit (pending ones included), ordered by (task_id, trial)."""
        with guarded_store(self._path, "reading results"):
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

    def failed_gradings(self) -> set[tuple[str, int]]:
        """(task_id, trial) of every done unit whose stored evaluation failed or is missing —
        the records :func:`~lifebench.runner._regrade.needs_grading` selects among the done
        ones — read in SQL without parsing any simulation (the end of a run asks this of
        every unit)."""
        with guarded_store(self._path, "reading the gradings"):
            rows = self._conn.execute(
                "SELECT task_id, trial FROM units WHERE status = ? AND (evaluation_json IS NULL "
                "OR json_extract(evaluation_json, '$.error') IS NOT NULL)",
                (UnitStatus.DONE.value,),
            ).fetchall()
        return {(str(r[0]), int(r[1])) for r in rows}

    def attempt_log(self) -> list[AttemptRecord]:
        """The append-only log of attempts, cancellations and re-gradings, oldest first."""
        with guarded_store(self._path, "reading the attempt log"):
            rows = self._conn.execute(
                f"SELECT {_ATTEMPT_COLUMNS} FROM attempts ORDER BY id"
            ).fetchall()
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

    def transcript(self, task_id: str, trial: int) -> Transcript:
        """What the models of unit ``task_id``#``trial`` saw and said: its briefing and every
        recorded model call of its latest attempt (and of the re-gradings after it), each
        request and response body rebuilt exactly (see :mod:`lifebench.runner._transcript`).
        """
        with guarded_store(self._path, "reading recorded model calls"):
            return read_transcript(self._conn, task_id, trial)

    def run_tools(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """Every tool list offered to an agent of the run: (sha256, the schemas as sent)."""
        with guarded_store(self._path, "reading recorded tools"):
            return read_run_tools(self._conn)

    def task_data(self) -> dict[str, str]:
        """Stored task JSON by task id (runs created before it was kept have none)."""
        with guarded_store(self._path, "reading task data"):
            return dict(
                self._conn.execute(
                    "SELECT task_id, task_json FROM task_data ORDER BY task_id"
                ).fetchall()
            )

    def tasks(self) -> dict[str, str]:
        """Stored task ids and content hashes."""
        with guarded_store(self._path, "reading tasks"):
            return dict(
                self._conn.execute(
                    "SELECT task_id, content_hash FROM tasks ORDER BY task_id"
                ).fetchall()
            )

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None:
        """Release the writer lease and close the connection (idempotent)."""
        if self._heartbeat is not None:
            self._heartbeat.stop()
            self._heartbeat = None
        if self._lease is not None:
            token, self._lease = self._lease.token, None
            try:
                with _transaction(self._conn):
                    self._conn.execute("DELETE FROM writer_lease WHERE token = ?", (token,))
            except sqlite3.Error:
                pass  # a lease left behind is taken over once this process is gone
        self._conn.close()
        _unlock(self._lock_fd)
        self._lock_fd = None

    def __enter__(self) -> RunStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


_COUNTS = frozenset({"simulations", "to_grade", "interrupted", "source"})
"""Keys of a grading part that do not define the reward (parts differing only in them agree)."""


def _grading_summary(
    rows: list[Any], per_grading: Counter[int], unattributed: int
) -> dict[str, Any]:
    """``RunStore.grading()`` from the attribution of the stored evaluations to gradings."""
    parts: dict[str, dict[str, Any]] = {}
    for index in sorted(per_grading, reverse=True):
        _, source, desc_json, _, to_grade, finished, _ = rows[index]
        key = f"{source}:{desc_json}"
        part = parts.setdefault(
            key,
            {
                **json.loads(desc_json),
                "source": source,
                "simulations": 0,
                "to_grade": to_grade,
                "interrupted": source == "eval" and finished is None,
            },
        )
        part["simulations"] += per_grading[index]
    out = list(parts.values())
    if unattributed:
        out.append({"source": "unknown", "simulations": unattributed, "interrupted": False})
    distinct = {canonical_json({k: v for k, v in p.items() if k not in _COUNTS}) for p in out}
    return {"parts": out, "mixed": len(distinct) > 1 or any(p["interrupted"] for p in out)}


__all__ = ["STORE_FILENAME", "RunStore", "StoreError"]
