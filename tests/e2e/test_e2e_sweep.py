"""Sweeps: a grid as one resumable job; on a local Ray instance it gives exactly the results of
the local backend; killed part-way and re-run, every unit runs exactly once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench.cli import app

CODE = "import sys; from lifebench.cli import main; sys.argv = ['lifebench', *sys.argv[1:]]; main()"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vitabench-full.yaml"


def _sweep_file(tmp_path: Path, trials: int) -> Path:
    path = tmp_path / "sweep.yaml"
    path.write_text(
        f"""
name: offline
base:
  suite: vita
  task_set: demo
grid:
  domain: [delivery, instore]
  trials: [{trials}]
combine: [domain]
""",
        encoding="utf-8",
    )
    return path


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _cells(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / "run.sqlite").is_file())


def test_sweep_runs_every_cell_and_pools_them(tmp_path: Path) -> None:
    code, out, err = _invoke("sweep", str(_sweep_file(tmp_path, 2)), "--out", str(tmp_path / "s"))
    assert code == 0, out + err
    report = json.loads((tmp_path / "s" / "sweep.json").read_text())
    assert [c["cell"] for c in report["cells"]] == [
        "domain-delivery__trials-2",
        "domain-instore__trials-2",
    ]
    (pooled,) = report["combined"]
    per_cell = sum(c["n_simulations"] for c in report["cells"])
    assert pooled["n_simulations"] == per_cell > 0
    assert pooled["n_tasks"] == sum(c["n_tasks"] for c in report["cells"])
    code, out, _ = _invoke("sweep", str(_sweep_file(tmp_path, 2)), "--out", str(tmp_path / "s"))
    assert code == 0 and out.count("0 units done") == 2  # resumed: nothing ran again


def test_bad_sweep_file_names_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("grid:\n  domain: []\n", encoding="utf-8")
    code, _, err = _invoke("sweep", str(bad))
    assert code == 2 and "grid" in err and "no values" in err
    bad.write_text("base: {trials: 0}\ngrid: {domain: [delivery]}\n", encoding="utf-8")
    code, _, err = _invoke("sweep", str(bad), "--out", str(tmp_path / "x"))
    assert code == 2 and "--trials" in err


def test_example_sweep_checks_every_cells_task_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the official data the dry run names every cell and its missing file (and how
    to get the data); the run with data laid out by `lifebench data get` is
    tests/data/test_data_readme_flow.py."""
    monkeypatch.chdir(tmp_path)
    code, _out, err = _invoke("sweep", str(EXAMPLE), "--dry-run")
    assert code == 2
    assert "8 of 8 cell(s) cannot load their inputs" in err
    assert "lifebench data get vitabench" in err
    for split in ("cross", "delivery", "instore", "ota"):
        assert f"__split-{split}: file data/vitabench/{split}/tasks_en.json: no such" in err
    text = EXAMPLE.read_text(encoding="utf-8")
    for split in ("cross", "delivery", "instore", "ota"):
        assert f"domain: {split}" in text


@pytest.fixture
def local_ray():  # type: ignore[no-untyped-def]
    if os.environ.get("CI"):
        import ray  # CI installs the extra: a missing Ray fails there
    else:
        ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_sweep_on_local_ray_gives_exactly_the_local_results(tmp_path: Path, local_ray) -> None:  # type: ignore[no-untyped-def]
    sweep = _sweep_file(tmp_path, 3)
    code, out, err = _invoke("sweep", str(sweep), "--out", str(tmp_path / "local"), "--quiet")
    assert code == 0, out + err
    code, out, err = _invoke(
        "sweep", str(sweep), "--out", str(tmp_path / "ray"), "--backend", "ray",
        "--workers", "2", "--quiet",
    )  # fmt: skip
    assert code == 0, out + err
    assert local_ray.is_initialized()  # the sweep used the instance the test started
    local, distributed = _cells(tmp_path / "local"), _cells(tmp_path / "ray")
    assert [p.name for p in local] == [p.name for p in distributed] and local
    for a, b in zip(local, distributed, strict=True):
        assert (a / "report.json").read_bytes() == (b / "report.json").read_bytes()
    assert (tmp_path / "local" / "sweep.json").read_bytes() == (
        tmp_path / "ray" / "sweep.json"
    ).read_bytes()


def _done(root: Path) -> int:
    total = 0
    for db in root.glob("*/run.sqlite"):
        try:
            with sqlite3.connect(db, timeout=5) as conn:
                total += conn.execute("SELECT COUNT(*) FROM units WHERE status='done'").fetchone()[
                    0
                ]
        except sqlite3.OperationalError:
            pass
    return total


def test_killed_sweep_rerun_finishes_every_unit_exactly_once(tmp_path: Path) -> None:
    sweep, root = _sweep_file(tmp_path, 40), tmp_path / "s"
    args = ["sweep", str(sweep), "--out", str(root), "--quiet", "--concurrency", "4"]
    proc = subprocess.Popen([sys.executable, "-c", CODE, *args], cwd=tmp_path)
    deadline = time.monotonic() + 120
    while _done(root) < 30 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    at_kill = _done(root)
    assert 0 < at_kill < 2 * 6 * 40  # 6 demo tasks per domain
    code, out, err = _invoke(*args)
    assert code == 0, out + err
    for db in root.glob("*/run.sqlite"):
        with sqlite3.connect(db) as conn:
            per_unit = conn.execute(
                "SELECT COUNT(*) FROM attempts WHERE kind = 'attempt' GROUP BY task_id, trial"
            ).fetchall()
            statuses = {s for (s,) in conn.execute("SELECT DISTINCT status FROM units")}
        assert statuses == {"done"} and len(per_unit) == 6 * 40
        assert all(n == 1 for (n,) in per_unit)
