"""Table layout of ``run.sqlite`` (see :class:`lifebench.runner.RunStore`)."""

from __future__ import annotations

SCHEMA_VERSION = 1

DDL = """
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
    tasks_added       INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tasks (
    task_id      TEXT PRIMARY KEY,
    content_hash TEXT NOT NULL,
    added_at     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS units (
    task_id         TEXT    NOT NULL REFERENCES tasks (task_id),
    trial           INTEGER NOT NULL,
    seed            INTEGER NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'done', 'infra_error')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    simulation_json TEXT,
    evaluation_json TEXT,
    error           TEXT,
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    PRIMARY KEY (task_id, trial)
);
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
"""
