"""Mutation guards for ``runner/_sweep.py`` (second set): which suites' own option names a sweep
file may use.

A sweep's option names are checked before anything runs, against the common run options and the
options of every suite the sweep names: the base's ``suite`` (VitaBench when absent), every plain
value of a ``suite`` axis, and the ``suite`` of every mapping value of any axis. A suite's own
option is accepted exactly when that suite is among them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lifebench.errors import InputError
from lifebench.runner._sweep import load_sweep


def _load(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "sweep.yaml"
    path.write_text(text, encoding="utf-8")
    spec = load_sweep(path)
    return sorted(spec.base)


def test_a_suite_axis_of_plain_values_admits_each_suites_options(tmp_path: Path) -> None:
    # subset is TravelBench's, knowledge_format FlowBench's; the base names no suite (VitaBench)
    keys = _load(
        tmp_path,
        "base:\n  subset: all\n  knowledge_format: text\n  window: 6\n"
        "grid:\n  suite: [travel, flow]\n",
    )
    assert keys == ["knowledge_format", "subset", "window"]


def test_a_suite_axis_without_that_suite_refuses_its_options(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="knowledge_format"):
        _load(tmp_path, "base:\n  knowledge_format: text\ngrid:\n  suite: [travel]\n")


def test_a_mapping_value_naming_a_suite_admits_its_options(tmp_path: Path) -> None:
    # the axis is not called "suite": only the mapping's own "suite" key names the suite
    keys = _load(
        tmp_path,
        "base:\n  knowledge_format: text\n"
        "grid:\n  setup:\n    - {name: f, suite: flow, level: turn}\n",
    )
    assert keys == ["knowledge_format"]


def test_a_mapping_value_on_the_suite_axis_still_counts_by_its_suite_key(tmp_path: Path) -> None:
    keys = _load(
        tmp_path,
        "base:\n  subset: all\ngrid:\n  suite:\n    - {name: t, suite: travel}\n",
    )
    assert keys == ["subset"]


@pytest.mark.parametrize(("axis", "meant"), [("tasks", "tasks_file"), ("agent_llm", "agent_model")])
def test_an_axis_named_like_another_harness_suggests_lifebenchs_option(
    tmp_path: Path, axis: str, meant: str
) -> None:
    # without the aliases the nearest spelling would be task_set / agent
    with pytest.raises(InputError) as info:
        _load(tmp_path, f"grid:\n  {axis}: [a, b]\n")
    assert f"unknown option (an axis of plain values names the option it sets) '{axis}'" in str(
        info.value
    )
    assert f"did you mean '{meant}'?" in str(info.value)
    assert info.value.field == f"grid.{axis}"


def test_a_mapping_after_a_plain_value_on_one_axis_is_checked_too(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        _load(tmp_path, "grid:\n  window:\n    - 4\n    - {name: w, windw: 6}\n")
    assert info.value.field == "grid.window.1.windw"
    assert "did you mean 'window'?" in str(info.value)


def test_a_sweep_file_that_is_not_a_mapping_says_what_it_must_hold(tmp_path: Path) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text("- suite: vita\n- suite: travel\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_sweep(path)
    assert str(info.value) == f"file {path}: a sweep file holds a mapping (name, base, grid, …)"


def test_another_harness_name_inside_a_mapping_value_suggests_lifebenchs_option(
    tmp_path: Path,
) -> None:
    with pytest.raises(InputError) as info:
        _load(tmp_path, "grid:\n  split:\n    - {name: a, tasks: x.jsonl}\n")
    assert info.value.field == "grid.split.0.tasks"
    assert "unknown option 'tasks' in grid.split.0; did you mean 'tasks_file'?" in str(info.value)


def test_a_misspelt_label_key_inside_a_mapping_value_suggests_name(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        _load(tmp_path, "grid:\n  split:\n    - {nmae: a, window: 4}\n")
    assert info.value.field == "grid.split.0.nmae"
    assert "did you mean 'name'?" in str(info.value)


def test_an_invalid_nested_value_names_its_dotted_field(tmp_path: Path) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text("grid:\n  window: 3\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_sweep(path)
    assert info.value.field == "grid.window"
