"""Table layout of ``run.sqlite`` (see :class:`lifebench.runner.RunStore`) and its migrations.

Version 3 (this one) added what the models saw: ``blobs`` (content-addressed, compressed
pieces of requests and responses), ``calls`` (every model call of an attempt or a re-grade,
as a recipe over blobs), ``briefings`` (the prompts and tools an attempt started with),
``run_tools`` (the tool lists offered, once per run), and provenance (``sessions`` and
``gradings`` gained ``provenance_json``). Version 2 added the ``rejected`` unit status, the
writer lease, the grading log and notes on sessions. An older store is migrated in place the
first time a writer opens it (one transaction); readers of an older store see it as it is
(no calls, no provenance).
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 3

_UNITS_TABLE = """
CREATE TABLE IF NOT EXISTS {name} (
    task_id         TEXT    NOT NULL REFERENCES tasks (task_id),
    trial           INTEGER NOT NULL,
    seed            INTEGER NOT NULL,
    status          TEXT    NOT NULL
                    CHECK (status IN ('pending', 'done', 'infra_error', 'rejected')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    simulation_json TEXT,
    evaluation_json TEXT,
    error           TEXT,
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    PRIMARY KEY (task_id, trial)
)
"""

DDL = (
    """
CREATE TABLE IF NOT EXISTS run_meta (
    id                INTEGER PRIMARY KEY CHECK (id = 1),
    schema_version    INTEGER NOT NULL,
    config_json       TEXT    NOT NULL,
    config_hash       TEXT    NOT NULL,
    lifebench_version TEXT    NOT NULL,
    created_at        TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    opened_at         TEXT    NOT NULL,
    lifebench_version TEXT    NOT NULL,
    resumed           INTEGER NOT NULL,
    tasks_added       INTEGER NOT NULL,
    notes             TEXT,
    provenance_json   TEXT
);
CREATE TABLE IF NOT EXISTS tasks (
    task_id      TEXT PRIMARY KEY,
    content_hash TEXT NOT NULL,
    added_at     TEXT NOT NULL
);
"""
    + _UNITS_TABLE.format(name="units")
    + """;
CREATE TABLE IF NOT EXISTS attempts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT    NOT NULL CHECK (kind IN ('attempt', 'cancelled', 'regrade')),
    task_id       TEXT    NOT NULL,
    trial         INTEGER NOT NULL,
    seed          INTEGER NOT NULL,
    attempt       INTEGER NOT NULL,
    status        TEXT,
    error         TEXT,
    model_retries INTEGER NOT NULL DEFAULT 0,
    reward        REAL,
    duration_s    REAL    NOT NULL DEFAULT 0,
    at            TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_unit ON attempts (task_id, trial);
CREATE TABLE IF NOT EXISTS task_data (
    task_id   TEXT PRIMARY KEY REFERENCES tasks (task_id),
    task_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS writer_lease (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    token        TEXT    NOT NULL,
    pid          INTEGER NOT NULL,
    host         TEXT    NOT NULL,
    boot_id      TEXT    NOT NULL,
    pid_start    TEXT    NOT NULL,
    command      TEXT    NOT NULL,
    acquired_at  TEXT    NOT NULL,
    heartbeat_at REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS gradings (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    source         TEXT    NOT NULL,
    grading_json   TEXT    NOT NULL,
    first_log_id   INTEGER NOT NULL,
    to_grade       INTEGER NOT NULL,
    graded         INTEGER,
    errors         INTEGER,
    started_at     TEXT    NOT NULL,
    finished_at    TEXT,
    provenance_json TEXT
);
CREATE TABLE IF NOT EXISTS blobs (
    hash  TEXT    PRIMARY KEY,
    codec TEXT    NOT NULL CHECK (codec IN ('raw', 'zlib')),
    size  INTEGER NOT NULL,
    data  BLOB    NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS calls (
    log_id    INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    task_id   TEXT    NOT NULL,
    trial     INTEGER NOT NULL,
    role      TEXT    NOT NULL,
    basis     TEXT,
    label     TEXT,
    cached    INTEGER NOT NULL,
    cache_key TEXT,
    call_json TEXT    NOT NULL,
    PRIMARY KEY (log_id, seq)
);
CREATE INDEX IF NOT EXISTS calls_unit ON calls (task_id, trial);
CREATE TABLE IF NOT EXISTS briefings (
    log_id        INTEGER PRIMARY KEY,
    task_id       TEXT    NOT NULL,
    trial         INTEGER NOT NULL,
    briefing_json TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS briefings_unit ON briefings (task_id, trial);
CREATE TABLE IF NOT EXISTS run_tools (
    hash        TEXT PRIMARY KEY,
    first_task  TEXT    NOT NULL,
    first_trial INTEGER NOT NULL
);
"""
)


def statements(ddl: str) -> list[str]:
    """The statements of a DDL script (split at ``;``)."""
    return [s for s in ddl.split(";") if s.strip()]


def _add_column(conn: sqlite3.Connection, table: str, column: str, kind: str) -> None:
    """``ALTER TABLE table ADD COLUMN column kind`` unless the column is there (a table the
    DDL has just created has it already)."""
    columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
    if column not in columns:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def migrate(conn: sqlite3.Connection, from_version: int) -> None:
    """Bring a store of ``from_version`` to :data:`SCHEMA_VERSION` (inside the caller's
    transaction, after the DDL created the tables that were missing). Version 1 lacked
    ``rejected`` in the status check (a table rebuild) and the ``notes`` column of sessions;
    version 2 lacked the provenance columns of sessions and gradings (the new tables of
    version 3 — blobs, calls, briefings, run_tools — are created by the DDL, empty: units
    recorded before have no calls)."""
    if from_version < 2:
        conn.execute(_UNITS_TABLE.format(name="units_v2"))
        conn.execute("INSERT INTO units_v2 SELECT * FROM units")
        conn.execute("DROP TABLE units")
        conn.execute("ALTER TABLE units_v2 RENAME TO units")
        _add_column(conn, "sessions", "notes", "TEXT")
    if from_version < 3:
        _add_column(conn, "sessions", "provenance_json", "TEXT")
        _add_column(conn, "gradings", "provenance_json", "TEXT")
    conn.execute("UPDATE run_meta SET schema_version = ?", (SCHEMA_VERSION,))
