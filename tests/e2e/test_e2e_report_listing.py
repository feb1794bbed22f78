"""Report listing and output details: `report --tasks --failed`, task ids in natural order,
`--quiet` keeping the headline, report files with the usual mode, tool listings with their
descriptions."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench._util.text import natural_key
from lifebench.cli import app
from lifebench.cli._report import listed_units
from lifebench.reporting._outcomes import UnitSummary

_TASK_LINE = re.compile(r"^(\S+)  [✓✗EGU·]+  mean ")


def _listed(out: str) -> list[str]:
    return [m.group(1) for m in map(_TASK_LINE.match, out.splitlines()) if m]


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("runs")
    out = {"oracle": root / "oracle", "noop": root / "noop"}
    for agent, run_dir in out.items():
        code, stdout, err = _invoke(
            "run", "--task-set", "demo", "--agent", agent, "--out", str(run_dir), "--quiet"
        )
        assert code == 0, err + stdout
    return out


# --- task ids in natural order --------------------------------------------------------------


def test_natural_key_orders_numbers_as_numbers() -> None:
    ids = ["T10", "T2", "T1", "T2b", "T2a", "task-100", "task-20", "C0715001", "C0715", "9", "10"]
    assert sorted(ids, key=natural_key) == [
        "9",
        "10",
        "C0715",
        "C0715001",
        "T1",
        "T2",
        "T2a",
        "T2b",
        "T10",
        "task-20",
        "task-100",
    ]
    # distinct ids never tie: zero-padded and plain numbers keep a fixed order
    assert sorted(["T2", "T02", "T002"], key=natural_key) == ["T002", "T02", "T2"]
    assert natural_key("订单10") > natural_key("订单9")


def _unit(task: str, trial: int, outcome: str) -> UnitSummary:
    return UnitSummary(task_id=task, trial=trial, status="done", outcome=outcome)  # type: ignore[arg-type]


def test_listed_units_sorts_naturally_and_keeps_only_failed_tasks() -> None:
    units = [
        _unit("T10", 0, "pass"),
        _unit("T2", 1, "fail"),
        _unit("T2", 0, "pass"),
        _unit("T1", 0, "pass"),
        _unit("T3", 0, "pending"),
        _unit("T4", 0, "infra_error"),
        _unit("T5", 0, "grading_error"),
        _unit("T6", 0, "ungradable"),
    ]
    everything = listed_units(units, failed_only=False)
    assert [(u.task_id, u.trial) for u in everything] == [
        ("T1", 0),
        ("T2", 0),
        ("T2", 1),
        ("T3", 0),
        ("T4", 0),
        ("T5", 0),
        ("T6", 0),
        ("T10", 0),
    ]
    failed = listed_units(units, failed_only=True)
    # a failed task keeps all its trials (the passing one too); passing and pending tasks go
    assert [(u.task_id, u.trial) for u in failed] == [
        ("T2", 0),
        ("T2", 1),
        ("T4", 0),
        ("T5", 0),
        ("T6", 0),
    ]


def test_report_tasks_failed_lists_only_failing_tasks(runs: dict[str, Path]) -> None:
    code, out, err = _invoke("report", str(runs["noop"]), "--tasks", "--failed")
    assert code == 0, err
    listed = _listed(out)
    assert len(listed) == 6 and listed == sorted(listed, key=natural_key)
    code, out, err = _invoke("report", str(runs["oracle"]), "--tasks", "--failed")
    assert code == 0, err
    assert _listed(out) == []
    code, out, err = _invoke("report", str(runs["oracle"]), "--tasks")
    assert len(_listed(out)) == 6

    code, out, _ = _invoke("report", str(runs["oracle"]), "--tasks", "--failed", "--json")
    assert code == 0 and json.loads(out)["units"] == []
    code, out, _ = _invoke("report", str(runs["noop"]), "--tasks", "--failed", "--json")
    assert len(json.loads(out)["units"]) == 6


def test_failed_without_tasks_is_refused(runs: dict[str, Path]) -> None:
    code, _, err = _invoke("report", str(runs["noop"]), "--failed")
    assert code == 2 and "--tasks" in err


# --- --quiet keeps the headline -------------------------------------------------------------


def test_quiet_run_prints_the_headline_only(tmp_path: Path) -> None:
    code, out, err = _invoke(
        "run", "--task-set", "demo", "--trials", "2", "--out", str(tmp_path / "q"), "--quiet"
    )
    assert code == 0, err
    lines = out.splitlines()
    headline = [line for line in lines if "avg@2" in line]
    assert len(headline) == 1
    assert "6 tasks, 12 simulations" in headline[0]
    assert "pass@2 100.0%" in headline[0] and "pass^2 100.0%" in headline[0]
    assert "Run summary" not in out and "Metrics by k" not in out
    code, loud, _ = _invoke(
        "run", "--task-set", "demo", "--trials", "2", "--out", str(tmp_path / "q")
    )
    assert code == 0 and "Metrics by k" in loud


# --- report files get the usual mode --------------------------------------------------------


@pytest.fixture
def umask() -> Iterator[object]:
    def set_mask(mask: int) -> None:
        os.umask(mask)

    old = os.umask(0o022)
    try:
        yield set_mask
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_reports_are_written_with_the_umask_mode(
    tmp_path: Path, umask: object, mask: int, expected: int
) -> None:
    umask(mask)  # type: ignore[operator]
    run_dir = tmp_path / "run"
    code, _, err = _invoke("run", "--task-set", "demo", "--out", str(run_dir), "--quiet")
    assert code == 0, err
    files = {
        "report.json": run_dir / "report.json",
        "html": tmp_path / "out" / "r.html",
        "markdown": tmp_path / "out" / "r.md",
        "export": tmp_path / "out" / "x.jsonl",
    }
    assert _invoke("report", str(run_dir), "--html", str(files["html"]))[0] == 0
    assert _invoke("report", str(run_dir), "--markdown", str(files["markdown"]))[0] == 0
    assert _invoke("export", str(run_dir), "--out", str(files["export"]))[0] == 0
    assert {name: oct(_mode(p)) for name, p in files.items()} == {
        name: oct(expected) for name in files
    }


# --- tool listings carry descriptions -------------------------------------------------------


@pytest.mark.parametrize("suite", ["vita", "travel", "flow"])
def test_tool_listing_shows_each_tools_description(suite: str) -> None:
    code, out, err = _invoke("tools", "--suite", suite, "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert rows and all(isinstance(r["description"], str) and r["description"] for r in rows)
    code, text, _ = _invoke("tools", "--suite", suite)
    lines = text.splitlines()
    for row in rows:
        at = next(i for i, line in enumerate(lines) if f" {row['name']}(" in line)
        first = next(ln.strip() for ln in row["description"].splitlines() if ln.strip())
        shown = lines[at + 1].strip()
        assert shown and first.startswith(shown.removesuffix(" …").rstrip())
