"""Mutation guards for ``runner/_sweep.py`` (3): a sweep's dry check of its inputs.

Every cell's models file is loaded on its own (a broken second file is reported even when the
first one loads), no cell is skipped, and only a task input that does not exist earns the hint
to fetch the official data (a missing models file is the user's own file). A cell's own
``suite_options`` join the suite options written flat and win over them; a refused cell names
the sweep file; a cell's row in the combined report describes the grading its store logged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.errors import InputError
from lifebench.runner._sweep import SweepSpec, cell_options, check_inputs, expand

HINT = " (the official data: `lifebench data get vitabench|travelbench|flowbench`)"


def cells_and_options(spec: SweepSpec, out: Path) -> tuple[list[Any], list[Any]]:
    cells = expand(spec)
    return cells, [cell_options(spec, c, out, quiet=True) for c in cells]


def models_files(tmp_path: Path) -> tuple[Path, Path]:
    good = tmp_path / "good.yaml"
    good.write_text("models: {}\n", encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text("models:\n  m1:\n    model: x\n    bogus: 1\n", encoding="utf-8")
    return good, broken


@pytest.mark.parametrize("order", ["good first", "broken first"])
def test_every_distinct_models_file_is_loaded_and_a_broken_one_named(
    tmp_path: Path, order: str
) -> None:
    good, broken = models_files(tmp_path)
    files = [good, broken] if order == "good first" else [broken, good]
    spec = SweepSpec(base={"num_tasks": 1}, grid={"models_file": [str(f) for f in files]})
    cells, options = cells_and_options(spec, tmp_path)
    bad_cell = cells[files.index(broken)].name
    with pytest.raises(InputError) as caught:
        check_inputs(cells, options, source="s.yaml")
    assert str(caught.value) == (
        "file s.yaml: 1 of 2 cell(s) cannot load their inputs:\n"
        f"  cell {bad_cell}: file {broken}, line 4, field models.m1.bogus: "
        "unknown key 'bogus' in models.m1"
    )


def test_cells_sharing_a_good_models_file_all_count_their_tasks(tmp_path: Path) -> None:
    good, _ = models_files(tmp_path)
    other = tmp_path / "other.yaml"
    other.write_text("models: {}\n", encoding="utf-8")
    spec = SweepSpec(
        base={"num_tasks": 2},
        grid={
            "models": [
                {"name": "a", "models_file": str(good)},
                {"name": "b", "models_file": str(other)},
                {"name": "c", "models_file": str(good)},
            ]
        },
    )
    cells, options = cells_and_options(spec, tmp_path)
    assert check_inputs(cells, options) == {c.name: 2 for c in cells}


def test_a_cell_without_its_options_is_refused_not_skipped(tmp_path: Path) -> None:
    spec = SweepSpec(base={"num_tasks": 1}, grid={"trials": [1, 2]})
    cells, options = cells_and_options(spec, tmp_path)
    with pytest.raises(ValueError, match="zip"):
        check_inputs(cells, options[:1])
    with pytest.raises(ValueError, match="zip"):
        check_inputs(cells[:1], options)


def test_a_missing_models_file_is_named_without_the_official_data_hint(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "models.yaml"
    spec = SweepSpec(models=str(missing), base={"num_tasks": 1}, grid={"trials": [1]})
    cells, options = cells_and_options(spec, tmp_path)
    with pytest.raises(InputError) as caught:
        check_inputs(cells, options, source="s.yaml")
    assert str(caught.value) == (
        "file s.yaml: 1 of 1 cell(s) cannot load their inputs:\n"
        f"  cell trials-1: file {missing}: no such models config file"
    )


def test_a_missing_task_file_beside_a_missing_models_file_earns_the_hint(tmp_path: Path) -> None:
    missing_models = tmp_path / "models.yaml"
    missing_tasks = tmp_path / "tasks.json"
    spec = SweepSpec(
        base={"num_tasks": 1},
        grid={
            "inputs": [
                {"name": "m", "models_file": str(missing_models)},
                {"name": "t", "tasks_file": str(missing_tasks)},
            ]
        },
    )
    cells, options = cells_and_options(spec, tmp_path)
    with pytest.raises(InputError) as caught:
        check_inputs(cells, options, source="s.yaml")
    assert str(caught.value) == (
        f"file s.yaml: 2 of 2 cell(s) cannot load their inputs{HINT}:\n"
        f"  cell inputs-m: file {missing_models}: no such models config file\n"
        f"  cell inputs-t: file {missing_tasks}: no such task file"
    )


def test_a_cells_own_suite_options_join_the_flat_ones_and_win(tmp_path: Path) -> None:
    spec = SweepSpec(base={"suite_options": {"window": 7}, "window": 5}, grid={"overlap": [3]})
    _, options = cells_and_options(spec, tmp_path)
    (opts,) = options
    assert opts.suite_options is not None
    assert opts.suite_options.model_dump()["window"] == 7  # the mapping wins over "window: 5"
    assert opts.suite_options.model_dump()["overlap"] == 3  # the flat axis value still counts


def test_a_refused_cell_names_the_sweep_file(tmp_path: Path) -> None:
    spec = SweepSpec(base={"task_set": "nope"}, grid={"trials": [1]})
    (cell,) = expand(spec)
    reason = "field --task-set: Input should be 'auto', 'generated' or 'demo'"
    with pytest.raises(InputError) as caught:
        cell_options(spec, cell, tmp_path, quiet=True)
    assert str(caught.value) == f"file sweep file: cell trials-1: {reason}"
    with pytest.raises(InputError) as caught:
        cell_options(spec, cell, tmp_path, quiet=True, source="s.yaml")
    assert str(caught.value) == f"file s.yaml: cell trials-1: {reason}"


def test_a_cells_row_describes_the_grading_its_store_logged(tmp_path: Path) -> None:
    sweep = tmp_path / "s.yaml"
    sweep.write_text("name: g\nbase: {num_tasks: 1}\ngrid:\n  trials: [1]\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["sweep", str(sweep), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr
    (cell,) = json.loads((out / "sweep.json").read_text(encoding="utf-8"))["cells"]
    assert cell["grading"]["mixed"] is False
    (part,) = cell["grading"]["parts"]
    # the store's log: the run graded its one simulation (the configuration alone cannot say)
    assert (part["source"], part["simulations"], part["to_grade"]) == ("run", 1, 1)


def test_a_cells_score_follows_the_official_headline(tmp_path: Path) -> None:
    row = {"time": "2025-10-24 10:00", "query": "明天成都到重庆的高铁", "context": ""}
    tasks = tmp_path / "single_turn.jsonl"
    tasks.write_text(
        "\n".join(json.dumps({**row, "trace_id": str(i)}, ensure_ascii=False) for i in range(3)),
        encoding="utf-8",
    )
    sweep = tmp_path / "s.yaml"
    sweep.write_text(
        f"name: t\nbase:\n  suite: travel\n  subset: single\ngrid:\n  tasks_file: ['{tasks}']\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = ["sweep", str(sweep), "--out", str(out), "--quiet", "--headline", "official"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    (cell,) = json.loads((out / "sweep.json").read_text(encoding="utf-8"))["cells"]
    score = cell["score"]
    assert score["headline"] == "official"  # the number that leads is named, not left blank
    assert (score["value"], score["interval"]) == (score["official"], score["official_ci"])


@pytest.mark.parametrize(
    ("grid", "group"),
    [
        ("  trials: [1, 2]\n", "all"),  # every axis pooled
        ("  trials: [1, 2]\n  window: [9]\n  overlap: [1]\n", "window=9__overlap=1"),
    ],
)
def test_a_pooled_group_is_named_by_the_axes_it_keeps(
    tmp_path: Path, grid: str, group: str
) -> None:
    sweep = tmp_path / "s.yaml"
    sweep.write_text(
        f"name: g\nbase: {{num_tasks: 1}}\ngrid:\n{grid}combine: [trials]\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["sweep", str(sweep), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr
    (pooled,) = json.loads((out / "sweep.json").read_text(encoding="utf-8"))["combined"]
    assert pooled["group"] == group and pooled["n_simulations"] == 3  # 1 + 2 trials
