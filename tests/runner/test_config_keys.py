"""Sweep and models files refuse unknown keys with the file, the line, the key and the known key
it most likely stands for — `tasks:` for `tasks_file:` must never run the bundled tasks."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from lifebench._util.keys import fields_at, key_lines, suggestion
from lifebench.cli import app
from lifebench.errors import InputError
from lifebench.models import load_models_config
from lifebench.models._config import ModelsConfig
from lifebench.runner._sweep import cell_options, expand, load_sweep


def _file(tmp_path: Path, text: str, name: str = "sweep.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "line", "field", "message"),
    [
        (
            "name: t\nbase:\n  suite: vita\n  tasks: x.json\ngrid:\n  trials: [1]\n",
            4,
            "base.tasks",
            "unknown option 'tasks' in base; did you mean 'tasks_file'?",
        ),
        (
            "base:\n  suite: travel\ngrid:\n  split:\n    - {name: a, tasks_fle: x.jsonl}\n",
            5,
            "grid.split.0.tasks_fle",
            "unknown option 'tasks_fle' in grid.split.0; did you mean 'tasks_file'?",
        ),
        (
            "base: {suite: vita}\ngrid:\n  trails: [1, 2]\n",
            3,
            "grid.trails",
            "unknown option (an axis of plain values names the option it sets) 'trails' in grid; "
            "did you mean 'trials'?",
        ),
        ("name: t\ncombin: [x]\n", 2, "combin", "unknown key 'combin'; did you mean 'combine'?"),
        (
            '{"name": "t",\n "base": {"suite": "vita", "judge_varient": "full"}}\n',
            2,
            "base.judge_varient",
            "did you mean 'judge_variant'?",
        ),
        ("base: {suite: vita, zzzzzz: 1}\n", 1, "base.zzzzzz", "unknown option 'zzzzzz' in base"),
    ],
)
def test_unknown_sweep_keys_are_refused_with_line_and_suggestion(
    tmp_path: Path, text: str, line: int, field: str, message: str
) -> None:
    path = _file(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_sweep(path)
    assert info.value.file == f"{path}, line {line}"
    assert info.value.field == field
    assert message in str(info.value)
    if "zzzzzz" in text:
        assert "did you mean" not in str(info.value)


def test_the_cli_refuses_a_misspelt_tasks_file_before_running(tmp_path: Path) -> None:
    path = _file(tmp_path, "base:\n  suite: vita\n  tasks: nowhere.json\ngrid:\n  trials: [1]\n")
    result = CliRunner().invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "did you mean 'tasks_file'?" in result.stderr
    assert not (tmp_path / "out").exists()  # nothing ran


def test_a_suites_own_options_may_sit_beside_the_common_ones(tmp_path: Path) -> None:
    path = _file(
        tmp_path,
        "base:\n  suite: vita\n  window: 6\n  overlap: 1\n"
        "grid:\n  variant:\n    - {name: full, judge_variant: full}\n",
    )
    spec = load_sweep(path)
    (cell,) = expand(spec)
    options = cell_options(spec, cell, tmp_path, quiet=True)
    assert options.suite_options.model_dump() | {} == {
        **options.suite_options.model_dump(),
        "window": 6,
        "overlap": 1,
        "judge_variant": "full",
    }


def test_a_misspelt_models_key_names_its_line(tmp_path: Path) -> None:
    path = _file(
        tmp_path,
        "models:\n  gpt41:\n    model: gpt-4.1\n    base_ur: https://api.openai.com/v1\n",
        "models.yaml",
    )
    with pytest.raises(InputError) as info:
        load_models_config(path)
    assert info.value.file == f"{path}, line 4"
    assert "unknown key 'base_ur' in models.gpt41; did you mean 'base_url'?" in str(info.value)
    nested = _file(
        tmp_path,
        '{"models": {"m": {"model": "x", "base_url": "http://h/v1",\n'
        '  "price": {"input_per_mtoken": 1}}}}\n',
        "models.json",
    )
    with pytest.raises(InputError, match="did you mean 'input_per_mtok'") as info:
        load_models_config(nested)
    assert info.value.file == f"{nested}, line 2"


def test_helpers() -> None:
    assert key_lines("a:\n  b: 1\nc: [ {d: 2} ]\n") == {
        ("a",): 1,
        ("a", "b"): 2,
        ("c",): 3,
        ("c", 0, "d"): 3,
    }
    assert key_lines("a: [unclosed") == {}
    assert suggestion("TASK_SET", ["task_set"]) == "; did you mean 'task_set'?"
    assert suggestion("q", ["task_set"]) == ""
    assert suggestion("tasks", ["x"], {"tasks": "tasks_file"}) == "; did you mean 'tasks_file'?"
    assert "base_url" in fields_at(ModelsConfig, ("models", "m", "x"))
    assert "max_attempts" in fields_at(ModelsConfig, ("models", "m", "retry", "x"))
    assert fields_at(ModelsConfig, ("nothing", "x")) == []
