"""Mutation guards for ``runner/_sweep.py``: a sweep's dry check of its inputs.

Before anything runs, every cell's tasks (and models file) are loaded as its run would load
them; each distinct input once; every cell that cannot load names itself, the file and the
reason, in one error, with the hint to fetch the official data when a file is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import lifebench.runner._experiment as experiment
from lifebench.errors import InputError
from lifebench.runner._sweep import SweepSpec, cell_options, check_inputs, expand

HINT = " (the official data: `lifebench data get vitabench|travelbench|flowbench`)"


def cells_and_options(spec: SweepSpec, out: Path) -> tuple[list[Any], list[Any]]:
    cells = expand(spec)
    return cells, [cell_options(spec, c, out, quiet=True) for c in cells]


def test_every_cell_counts_its_tasks_and_equal_inputs_load_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[str] = []
    load = experiment._load_tasks

    def counting(suite: Any, options: Any) -> Any:
        loads.append(options.suite)
        return load(suite, options)

    monkeypatch.setattr(experiment, "_load_tasks", counting)
    spec = SweepSpec(base={"num_tasks": 2}, grid={"suite": ["vita", "flow"], "trials": [1, 2]})
    cells, options = cells_and_options(spec, tmp_path)
    counts = check_inputs(cells, options)
    assert counts == {
        "suite-vita__trials-1": 2,
        "suite-vita__trials-2": 2,
        "suite-flow__trials-1": 2,
        "suite-flow__trials-2": 2,
    }
    assert loads == ["vita", "flow"]  # the trials do not change the tasks


def test_every_cell_that_cannot_load_is_named_with_the_hint(tmp_path: Path) -> None:
    good = tmp_path / "none"  # not a task file: the bundled tasks of the cell below load
    spec = SweepSpec(
        base={"num_tasks": 1},
        grid={"tasks_file": [{"name": "ok", "suite": "vita"}, str(good / "t.json")]},
    )
    cells, options = cells_and_options(spec, tmp_path)
    with pytest.raises(InputError) as caught:
        check_inputs(cells, options, source="s.yaml")
    assert str(caught.value) == (
        f"file s.yaml: 1 of 2 cell(s) cannot load their inputs{HINT}:\n"
        f"  cell {cells[1].name}: file {good / 't.json'}: no such task file"
    )


def test_a_broken_models_file_is_named_once_per_cell_and_its_tasks_are_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        experiment, "_load_tasks", lambda *a: pytest.fail("tasks loaded without models")
    )
    models = tmp_path / "models.yaml"
    models.write_text("models: [1, 2\n", encoding="utf-8")
    spec = SweepSpec(models=str(models), grid={"trials": [1, 2]})
    cells, options = cells_and_options(spec, tmp_path)
    with pytest.raises(InputError) as caught:
        check_inputs(cells, options)
    text = str(caught.value)
    assert text.startswith("file sweep file: 2 of 2 cell(s) cannot load their inputs:\n  ")
    assert HINT not in text  # the file is there: no data to fetch
    lines = text.splitlines()[1:]
    assert [line.split(":")[0] for line in lines] == ["  cell trials-1", "  cell trials-2"]
    assert all(str(models) in line for line in lines)


def test_a_task_file_that_does_not_load_has_no_hint(tmp_path: Path) -> None:
    broken = tmp_path / "tasks.json"
    broken.write_text("{not json", encoding="utf-8")
    spec = SweepSpec(base={"tasks_file": str(broken)}, grid={"trials": [1]})
    cells, options = cells_and_options(spec, tmp_path)
    with pytest.raises(InputError) as caught:
        check_inputs(cells, options)
    text = str(caught.value)
    assert text.startswith(
        "file sweep file: 1 of 1 cell(s) cannot load their inputs:\n  cell trials-1: "
    )
    assert str(broken) in text and HINT not in text


def test_a_good_models_file_lets_the_tasks_load(tmp_path: Path) -> None:
    models = tmp_path / "models.yaml"
    models.write_text("models: {}\n", encoding="utf-8")
    spec = SweepSpec(models=str(models), base={"num_tasks": 1}, grid={"trials": [1, 2]})
    cells, options = cells_and_options(spec, tmp_path)
    assert check_inputs(cells, options) == {"trials-1": 1, "trials-2": 1}
