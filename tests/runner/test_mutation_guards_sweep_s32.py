"""Mutation guards for ``runner/_sweep.py`` (s32): the pooled groups of a combined report lead
with the number ``--headline`` picks, as every cell's row does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.metrics import OfficialComparison
from lifebench.metrics._official import ScorePair
from lifebench.runner._sweep import SweepSpec, _score, combined_report, expand, load_sweep

ROW = {"time": "2025-10-24 10:00", "query": "明天成都到重庆的高铁", "context": ""}


def _travel_sweep(tmp_path: Path) -> Path:
    specs = {
        "single": ("single_turn.jsonl", 3, {}),
        "multi": ("multi_turn.jsonl", 2, {"user_profile": "一位旅客"}),
        "unsolvable": ("unsolve.jsonl", 4, {"missing_tool": True}),
    }
    grid = []
    for subset, (name, n, extra) in specs.items():
        path = tmp_path / name
        rows = [{**ROW, "trace_id": f"{subset}-{i}", **extra} for i in range(n)]
        path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), "utf-8")
        grid.append(f"    - {{name: {subset}, subset: {subset}, tasks_file: '{path}'}}")
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        "name: travel\nbase:\n  suite: travel\ngrid:\n  split:\n"
        + "\n".join(grid)
        + "\ncombine: [split]\n",
        encoding="utf-8",
    )
    return sweep


def test_a_pooled_groups_score_follows_the_official_headline(tmp_path: Path) -> None:
    sweep = _travel_sweep(tmp_path)
    out = tmp_path / "out"
    args = ["sweep", str(sweep), "--out", str(out), "--quiet", "--headline", "official"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    report = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert report["headline"] == "official"
    (group,) = report["combined"]
    score = group["score"]
    assert score["headline"] == "official"  # the pooled number that leads is named
    assert (score["metric"], score["official"]) == ("overall", 88.19)  # printed with 2 decimals
    assert score["value"] != score["lifebench"]  # 88.1944…: the official number leads
    assert (score["value"], score["interval"]) == (score["official"], score["official_ci"])
    for cell in report["cells"]:  # the cells agree with their group
        assert cell["score"]["headline"] == "official"


def test_a_rows_score_repeats_the_comparisons_headline_pair_as_written(tmp_path: Path) -> None:
    sweep = _travel_sweep(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["sweep", str(sweep), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr
    spec = load_sweep(sweep)
    report = combined_report(spec, expand(spec), out)
    rows = [*report["cells"], *report["combined"]]
    assert len(rows) == 4  # three subset cells and their pooled group
    for row in rows:
        (first, *_) = row["comparison"]["pairs"]
        if "cell" in row:  # a cell's pair has an interval: a list in the JSON form
            assert first["lifebench_ci"] is not None
        # the score holds the headline pair in the same (JSON) form as the comparison beside it
        assert {k: row["score"][k] for k in first} == first


@pytest.mark.parametrize("headline", ["official", "lifebench"])
def test_a_rows_score_takes_the_value_and_interval_of_its_headline(headline: str) -> None:
    pair = ScorePair(
        metric="overall",
        label="总分 overall (0–100)",
        lifebench=88.194,
        official=88.19,
        lifebench_ci=(80.5, 94.25),
        official_ci=(80.0, 94.0),
        scale="points",
    )
    comparison = OfficialComparison(reference="TravelBench", pairs=[pair], units=9)
    score = _score(comparison, headline)["score"]  # type: ignore[arg-type]
    want = (88.19, (80.0, 94.0)) if headline == "official" else (88.194, (80.5, 94.25))
    assert (score["headline"], score["value"], tuple(score["interval"])) == (headline, *want)


def test_an_unavailable_comparison_gives_a_null_score_and_no_comparison_no_fields() -> None:
    empty = OfficialComparison(reference="VitaBench", available=False, reason="无官方数字")
    row = _score(empty, "official")
    assert row["score"] is None and row["comparison"]["reason"] == "无官方数字"
    assert _score(None, "official") == {}


HEADLINE_KEYS = (
    "n_tasks",
    "n_simulations",
    "n_scored",
    "n_errors",
    "n_rejected",
    "n_pending",
    "max_k",
    "avg_reward",
    "avg_at_k",
    "pass_at_k",
    "pass_hat_k",
    "ci95",
    "warnings",
)


def test_every_row_carries_the_headline_numbers_of_its_report(tmp_path: Path) -> None:
    sweep = tmp_path / "s.yaml"
    sweep.write_text(
        "name: g\nbase: {num_tasks: 2}\ngrid:\n  trials: [1, 2]\ncombine: [trials]\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["sweep", str(sweep), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr
    report = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    for row in report["cells"]:
        # a cell's row: its labels, the headline numbers of its own report.json, the grading
        # its store logged and the official comparison
        assert set(row) == {"cell", "labels", "grading", "score", "comparison", *HEADLINE_KEYS}
        own = json.loads((out / row["cell"] / "report.json").read_text(encoding="utf-8"))
        assert {k: row[k] for k in HEADLINE_KEYS} == {k: own[k] for k in HEADLINE_KEYS}
        assert row["grading"] == own["grading"] and row["grading"]["parts"]
    counts = [
        (r["n_tasks"], r["n_simulations"], r["n_scored"], r["max_k"]) for r in report["cells"]
    ]
    assert counts == [(2, 2, 2, 1), (2, 4, 4, 2)]
    (group,) = report["combined"]
    assert set(group) == {"group", "labels", "pooled", "score", "comparison", *HEADLINE_KEYS}
    # the pooled units keep their cell in their task id: 2 + 2 tasks, 2 + 4 simulations
    pooled = (group["n_tasks"], group["n_simulations"], group["n_scored"], group["max_k"])
    assert pooled == (4, 6, 6, 1)
    assert (group["n_errors"], group["n_rejected"], group["n_pending"]) == (0, 0, 0)
    assert group["avg_reward"] == 1.0 and group["pass_hat_k"] == {"1": 1.0}
    assert group["avg_at_k"] == group["pass_at_k"] == {"1": 1.0}
    assert group["ci95"]["avg_at_k"] == {"1": [1.0, 1.0]}
    (warning,) = group["warnings"]
    assert "trials-1/GEN-delivery-0-0" in warning and "k is limited to 1" in warning


def test_a_grid_of_more_than_ten_thousand_cells_is_refused_with_its_sizes() -> None:
    from lifebench.errors import InputError

    assert len(expand(SweepSpec(grid={"trials": list(range(100)), "seed": list(range(100))}))) == (
        10_000
    )  # exactly the most cells of one sweep
    with pytest.raises(InputError) as caught:
        expand(SweepSpec(grid={"trials": list(range(101)), "seed": list(range(100))}))
    assert str(caught.value) == (
        "file sweep file, field grid: the grid has 101 trials × 100 seed = 10,100 cells, more "
        "than the 10,000 one sweep runs; split it into several sweeps"
    )


def test_cell_names_keep_their_edges_and_an_unprintable_name_is_x() -> None:
    spec = SweepSpec(grid={"模型": [{"name": "甲", "trials": 1}], "agent_model": ["GPT-X", "o1!"]})
    assert [c.name for c in expand(spec)] == ["x__agent_model-GPT-X", "x__agent_model-o1"]


def test_only_a_model_at_url_value_is_labelled_by_its_model() -> None:
    spec = SweepSpec(grid={"agent_model": [" 甲 ", "gpt-4o@http://127.0.0.1:9/v1"]})
    assert [c.labels for c in expand(spec)] == [
        {"agent_model": " 甲 "},  # a plain value is labelled as written
        {"agent_model": "gpt-4o"},
    ]
