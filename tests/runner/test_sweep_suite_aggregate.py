"""A sweep's ``combine`` uses each suite's own aggregate: TravelBench's three subset cells pool
into its overall (multi + single + 100 × unsolved) / 3, not a plain mean of rewards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench.cli import app

ROW = {"time": "2025-10-24 10:00", "query": "明天成都到重庆的高铁", "context": ""}


def _files(tmp_path: Path) -> dict[str, Path]:
    specs = {
        "single": ("single_turn.jsonl", 3, {}),
        "multi": ("multi_turn.jsonl", 2, {"user_profile": "一位旅客"}),
        "unsolvable": ("unsolve.jsonl", 4, {"missing_tool": True}),
    }
    out = {}
    for subset, (name, n, extra) in specs.items():
        path = tmp_path / name
        rows = [{**ROW, "trace_id": str(i), **extra} for i in range(n)]
        path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows))
        out[subset] = path
    return out


def test_travel_subsets_pool_into_the_overall(tmp_path: Path) -> None:
    files = _files(tmp_path)
    grid = "\n".join(
        f"    - {{name: {s}, subset: {s}, tasks_file: '{p}'}}" for s, p in files.items()
    )
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        f"name: travel\nbase:\n  suite: travel\ngrid:\n  split:\n{grid}\ncombine: [split]\n",
        encoding="utf-8",
    )
    out = tmp_path / "s"
    result = CliRunner().invoke(app, ["sweep", str(sweep), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr
    report = json.loads((out / "sweep.json").read_text())
    cells = {c["labels"]["split"]: c for c in report["cells"]}
    single = cells["single"]["score"]["lifebench"]
    multi = cells["multi"]["score"]["lifebench"]
    unsolved = cells["unsolvable"]["score"]["lifebench"]
    (group,) = report["combined"]
    overall = (multi + single + unsolved) / 3
    assert group["score"]["metric"] == "overall"
    assert group["score"]["lifebench"] == pytest.approx(overall)
    assert group["score"]["value"] == group["score"]["lifebench"]  # headline: lifebench
    # not the plain mean of the pooled rewards (9 units weigh the subsets 3 : 2 : 4)
    assert group["avg_reward"] != pytest.approx(overall / 100)
    assert group["comparison"]["units"] == 9
    assert group["score"]["official"] == float(f"{overall:.2f}")
    assert group["score"]["lifebench_ci"] is not None


def test_the_official_headline_leads_when_asked(tmp_path: Path) -> None:
    files = _files(tmp_path)
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        "name: t\nbase:\n  suite: travel\n  subset: single\n"
        f"grid:\n  tasks_file: ['{files['single']}']\n",
        encoding="utf-8",
    )
    out = tmp_path / "s"
    args = ["sweep", str(sweep), "--out", str(out), "--quiet", "--headline", "official"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    report = json.loads((out / "sweep.json").read_text())
    (cell,) = report["cells"]
    assert report["headline"] == "official"
    assert cell["score"]["value"] == cell["score"]["official"]
    assert report["combined"] == []
