"""A SIGKILLed run loses nothing it committed, half-writes nothing, and resumes exactly."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from crash_worker import crash_units, execute
from runner_fakes import CONFIG, CONFIG_HASH

from lifebench.runner import STORE_FILENAME, EventKind, RunStore, UnitStatus, run_units

N_UNITS = 300
KILL_AFTER_DONE = 20
TIMEOUT_S = 15.0


def done_count(db: Path) -> int:
    try:
        conn = sqlite3.connect(db, timeout=1)
        try:
            return int(
                conn.execute("SELECT count(*) FROM units WHERE status = 'done'").fetchone()[0]
            )
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return 0  # not created yet


def consistent(db: Path) -> None:
    """Every unit's attempt counter matches its attempt-log entries (same transaction)."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT u.task_id, u.trial, u.status, u.attempts, u.simulation_json IS NOT NULL, "
            "(SELECT count(*) FROM attempts a WHERE a.kind = 'attempt' "
            " AND a.task_id = u.task_id AND a.trial = u.trial) FROM units u"
        ).fetchall()
    finally:
        conn.close()
    for task_id, trial, status, attempts, has_sim, logged in rows:
        assert attempts == logged, (task_id, trial)
        assert has_sim == (status != "pending"), (task_id, trial)


def run_and_kill(run_dir: Path) -> None:
    """Start the worker, SIGKILL it once it has committed a few units."""
    worker = Path(__file__).with_name("crash_worker.py")
    db = run_dir / STORE_FILENAME
    proc = subprocess.Popen([sys.executable, str(worker), str(run_dir), str(N_UNITS)])
    try:
        deadline = time.monotonic() + TIMEOUT_S
        while done_count(db) < KILL_AFTER_DONE:
            assert proc.poll() is None, "worker exited before it was killed"
            assert time.monotonic() < deadline, "worker made no progress"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=TIMEOUT_S)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_sigkill_mid_run_then_resume(tmp_path: Path) -> None:
    db = tmp_path / STORE_FILENAME
    run_and_kill(tmp_path)
    killed_at = done_count(db)
    assert KILL_AFTER_DONE <= killed_at < N_UNITS
    consistent(db)

    tasks, work = crash_units(N_UNITS)
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, tasks) as store:
        summary = asyncio.run(run_units(work, execute, store, concurrency=16))
        assert summary.skipped == killed_at
        assert summary.done == N_UNITS - killed_at
        records = store.results()
        attempts = Counter(
            (e.task_id, e.trial) for e in store.attempt_log() if e.kind is EventKind.ATTEMPT
        )
    assert len(records) == N_UNITS
    assert all(r.status is UnitStatus.DONE and r.attempts == 1 for r in records)
    assert attempts == Counter({(u.task_id, u.trial): 1 for u in work})
    consistent(db)
