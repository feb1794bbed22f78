"""--workers N: the same results as one process; kill -9 and resume finish every unit once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from lifebench.cli import app

CODE = "import sys; from lifebench.cli import main; sys.argv = ['lifebench', *sys.argv[1:]]; main()"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_two_workers_give_the_report_of_one(tmp_path: Path) -> None:
    common = ["run", "--task-set", "demo", "--trials", "3", "--quiet"]
    code, out, err = _run(*common, "--out", str(tmp_path / "one"))
    assert code == 0, out + err
    code, out, err = _run(*common, "--out", str(tmp_path / "two"), "--workers", "2")
    assert code == 0, out + err
    assert "18 units done" in out
    one = (tmp_path / "one" / "report.json").read_bytes()
    assert one == (tmp_path / "two" / "report.json").read_bytes()


def _done(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM units WHERE status='done'").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


def test_kill_9_with_workers_then_resume_runs_every_unit_once(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--task-set", "demo", "--trials", "60", "--workers", "2",
            "--concurrency", "4", "--out", str(out), "--quiet"]  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-c", CODE, *args], cwd=tmp_path)
    db = out / "run.sqlite"
    deadline = time.monotonic() + 120
    while _done(db) < 20 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.005)
    workers = _children(proc.pid) if Path("/proc").is_dir() else set()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    at_kill = _done(db)
    assert 0 < at_kill < 360, f"kill landed outside the run ({at_kill} done)"
    deadline = time.monotonic() + 60  # orphaned workers see their pipe close and exit
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in workers)

    code, stdout, err = _run(*args)
    assert code == 0, stdout + err
    assert f"{at_kill} already done" in stdout
    with sqlite3.connect(db) as conn:
        statuses = {s for (s,) in conn.execute("SELECT DISTINCT status FROM units")}
        per_unit = conn.execute(
            "SELECT COUNT(*) FROM attempts WHERE kind = 'attempt' GROUP BY task_id, trial"
        ).fetchall()
    assert statuses == {"done"}
    assert len(per_unit) == 360 and all(n == 1 for (n,) in per_unit)
