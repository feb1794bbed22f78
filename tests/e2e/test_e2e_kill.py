"""A run killed with SIGKILL part-way and re-run finishes with every unit exactly once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from lifebench.cli import app

TRIALS = 60  # 6 bundled tasks × 60 trials = 360 units, a few seconds of work


def _done(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(
                conn.execute("SELECT COUNT(*) FROM units WHERE status = 'done'").fetchone()[0]
            )
    except sqlite3.OperationalError:
        return 0


def test_sigkill_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "run",
        "--task-set",
        "demo",
        "--trials",
        str(TRIALS),
        "--concurrency",
        "4",
        "--out",
        str(out),
        "--quiet",
    ]
    code = "import sys; from lifebench.cli import main; sys.argv = ['lifebench', *sys.argv[1:]]; main()"
    proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=tmp_path)
    db = out / "run.sqlite"
    deadline = time.monotonic() + 60
    while _done(db) < 20 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    at_kill = _done(db)
    assert 0 < at_kill < 6 * TRIALS, f"kill landed outside the run ({at_kill} done)"

    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert f"{at_kill} already done" in result.stdout
    with sqlite3.connect(db) as conn:
        units = conn.execute("SELECT task_id, trial, status FROM units").fetchall()
        done_logs = conn.execute(
            "SELECT task_id, trial, COUNT(*) FROM attempts WHERE status = 'done' GROUP BY task_id, trial"
        ).fetchall()
    assert len(units) == 6 * TRIALS and {s for _, _, s in units} == {"done"}
    assert len(done_logs) == 6 * TRIALS and all(n == 1 for _, _, n in done_logs)
    rep = json.loads(CliRunner().invoke(app, ["report", str(out), "--json"]).stdout)
    assert rep["n_simulations"] == 6 * TRIALS and rep["n_errors"] == 0
