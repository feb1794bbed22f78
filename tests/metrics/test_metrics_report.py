"""build_report JSON: required keys, determinism, and terminal rendering."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from metrics_fakes import scenario
from rich.console import Console

from lifebench.reporting import build_report, render_report, report_json, write_report

CONFIG = {"agent": {"model": "fake"}, "trials": 4}
REQUIRED = {
    "n_tasks",
    "n_simulations",
    "n_errors",
    "avg_at_k",
    "pass_at_k",
    "pass_hat_k",
    "ci95",
    "termination",
    "tokens",
    "cost",
    "mean_turns",
    "mean_tool_calls",
    "tool_error_rate",
    "reward_by_basis",
    "tasks",
}


def test_report_json_has_required_keys() -> None:
    data = json.loads(report_json(build_report(scenario(), CONFIG)))
    assert data.keys() >= REQUIRED
    assert data["pass_hat_k"]["2"] == (1 / 6 + 0.5) / 2
    assert set(data["ci95"]) == {"avg_at_k", "pass_at_k", "pass_hat_k"}
    lo, hi = data["ci95"]["pass_hat_k"]["1"]
    assert lo <= data["pass_hat_k"]["1"] <= hi
    assert data["tokens"]["agent"] == {"prompt": 100.0, "completion": 20.0}
    assert data["config"] == CONFIG
    assert [row["task_id"] for row in data["tasks"]] == ["A", "B", "C"]


def test_identical_input_gives_identical_bytes(tmp_path: Path) -> None:
    records = scenario()
    shuffled = list(records)
    random.Random(5).shuffle(shuffled)
    first = report_json(build_report(records, CONFIG))
    assert report_json(build_report(shuffled, dict(reversed(CONFIG.items())))) == first
    a = write_report(build_report(records, CONFIG), tmp_path / "a.json")
    b = write_report(build_report(records, CONFIG), tmp_path / "out" / "b.json")
    assert a.read_bytes() == b.read_bytes() == first.encode()
    assert list(tmp_path.glob(".*")) == []


def test_empty_report() -> None:
    data = json.loads(report_json(build_report([], {})))
    assert (data["n_tasks"], data["pass_hat_k"], data["mean_turns"]) == (0, {}, None)


def test_render_report() -> None:
    buffer = io.StringIO()
    render_report(
        build_report(scenario(), CONFIG), Console(file=buffer, width=140), show_tasks=True
    )
    text = buffer.getvalue()
    for needle in ("pass^k", "avg@k", "Reward by basis", "agent_stop", "Tasks", "warning:"):
        assert needle in text
    assert "16.7%" not in text  # macro pass^2 is 33.3%, not task A's 16.7%
    assert "33.3%" in text
