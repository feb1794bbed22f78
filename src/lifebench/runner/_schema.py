"""Table layout of ``run.sqlite`` (see :class:`lifebench.runner.RunStore`) and its migrations.

Version 2 (this one) added the ``rejected`` unit status, the writer lease, the grading log and
notes on sessions. A version-1 store is migrated in place the first time a writer opens it
(one transaction); readers of a version-1 store see it as it is.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 2

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
    notes             TEXT
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
    finished_at    TEXT
);
"""
)


def statements(ddl: str) -> list[str]:
    """The statements of a DDL script (split at ``;``)."""
    return [s for s in ddl.split(";") if s.strip()]


def migrate(conn: sqlite3.Connection, from_version: int) -> None:
    """Bring a store of ``from_version`` to :data:`SCHEMA_VERSION` (inside the caller's
    transaction). Version 1 lacked ``rejected`` in the status check (a table rebuild) and the
    ``notes`` column of sessions."""
    if from_version < 2:
        conn.execute(_UNITS_TABLE.format(name="units_v2"))
        conn.execute("INSERT INTO units_v2 SELECT * FROM units")
        conn.execute("DROP TABLE units")
        conn.execute("ALTER TABLE units_v2 RENAME TO units")
        columns = {row[1] for row in conn.execute("PRAGMA table_info(sessions)")}
        if "notes" not in columns:
            conn.execute("ALTER TABLE sessions ADD COLUMN notes TEXT")
    conn.execute("UPDATE run_meta SET schema_version = ?", (SCHEMA_VERSION,))
