"""Comparability: every difference that makes two runs incomparable is named (closed world),
and what may differ (the agent, its seed, the task selection, trials) is accepted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import config, records, run_data

from lifebench.compare import run_differences, stored_config_differences
from lifebench.compare._comparability import Mismatch

REWARDS = {"A": [1.0, 0.0], "B": [1.0, 1.0]}


def _diff(cfg_a: dict, cfg_b: dict, **kw: object) -> list[Mismatch]:
    a = run_data(records(REWARDS), name="a", cfg=cfg_a, **kw.get("a", {}))  # type: ignore[arg-type]
    b = run_data(records(REWARDS), name="b", cfg=cfg_b, **kw.get("b", {}))  # type: ignore[arg-type]
    return run_differences(a, b)


def test_the_check_is_the_stored_config_one_for_now() -> None:
    assert run_differences is stored_config_differences


def test_identical_runs_are_comparable() -> None:
    assert _diff(config(), config()) == []


@pytest.mark.parametrize(
    "key, value",
    [
        ("agent", "oracle"),
        ("agent_model", "model-b@http://127.0.0.1:9/v1"),
        ("seed", 7),
        ("trials", 8),
        ("user_seeds", 3),
        ("tasks_file", "other/tasks.json"),
        ("task_set", "demo"),
        ("task_ids", ["A"]),
        ("num_tasks", 5),
    ],
)
def test_what_is_being_compared_may_differ(key: str, value: object) -> None:
    assert _diff(config(), config(**{key: value})) == []


@pytest.mark.parametrize(
    "key, value, aspect",
    [
        ("user", "dummy", "user simulator"),
        ("user_model", "other-user@http://127.0.0.1:9/v1", "user simulator"),
        ("evaluator", "both", "judge"),
        ("judge_model", "judge-x@http://127.0.0.1:9/v1", "judge"),
        ("bases", ["state", "rubric"], "judge"),
        ("tool_model", "tools@http://127.0.0.1:9/v1", "tool simulator"),
        ("domain", "instore", "environment"),
        ("suite", "travel", "environment"),
        ("language", "zh", "environment"),
        ("max_steps", 50, "environment"),
        ("max_errors", 3, "environment"),
        ("temperature", 0.7, "user simulator"),
        ("something_new", 1, "configuration"),
    ],
)
def test_each_difference_is_named(key: str, value: object, aspect: str) -> None:
    found = _diff(config(), config(**{key: value}))
    assert len(found) == 1, found
    assert found[0].aspect == aspect
    assert key in found[0].detail
    assert found[0].line().startswith(f"{aspect}: ")


def test_suite_options_are_compared_key_by_key() -> None:
    found = _diff(config(), config(suite_options={"judge_variant": "full", "window": 10, "x": 1}))
    assert [(m.aspect, m.detail) for m in found] == [
        ("suite option", "judge_variant: sliding vs full"),
        ("suite option", "x: (not set) vs 1"),
    ]


def test_the_same_model_at_another_endpoint_is_the_same_model() -> None:
    other = config(user_model="user-m@https://api.example.com/v1", judge_model=None)
    assert _diff(config(), other) == []


def test_temperature_of_an_offline_user_only_changes_the_agent() -> None:
    offline = {"user": "scripted", "user_model": None}
    assert _diff(config(**offline), config(**offline, temperature=0.7)) == []


def test_task_contents_and_versions() -> None:
    found = _diff(
        config(),
        config(),
        b={"hashes": {"A": "h-A", "B": "changed"}, "version": "0.2.0"},
    )
    assert [m.aspect for m in found] == ["tasks", "grader version"]
    assert "B" in found[0].detail and "1 shared task" in found[0].detail
    assert "0.1.0 vs 0.2.0" in found[1].detail
    # tasks only one run has are not a mismatch (they are left out of the comparison)
    assert _diff(config(), config(), b={"hashes": {"A": "h-A", "B": "h-B", "C": "h-C"}}) == []


def test_the_grading_log_decides_the_judge() -> None:
    part = {
        "evaluator": "rubric",
        "judge_model": "j@http://h/v1",
        "bases": ["rubric"],
        "suite_options": {"judge_variant": "sliding", "window": 10},
        "source": "eval",
    }
    graded = {"parts": [part], "mixed": False}
    found = _diff(config(), config(), b={"grading": graded})
    aspects = sorted({m.aspect for m in found})
    assert aspects == ["judge"]
    assert {m.detail.split(":")[0] for m in found} == {"evaluator", "judge_model", "bases"}
    mixed = {"parts": [part, {**part, "judge_model": "k@http://h/v1"}], "mixed": True}
    found = _diff(config(), config(), a={"grading": graded}, b={"grading": mixed})
    assert [m.aspect for m in found] == ["grading"]
    assert "/runs/b" in found[0].detail
    # a grading log without an attributable part falls back on the configuration
    unknown = {"parts": [{"source": "unknown", "simulations": 3}], "mixed": False}
    assert _diff(config(), config(), b={"grading": unknown}) == []


def test_a_suite_not_installed_is_assumed_to_simulate_its_user_with_a_model() -> None:
    other = {"suite": "not-installed", "user": "scripted", "user_model": None}
    found = _diff(config(**other), config(**other, temperature=0.5))
    assert [m.aspect for m in found] == ["user simulator"]
    assert "temperature" in found[0].detail


def test_the_details_are_exact() -> None:
    found = _diff(
        config(),
        config(user="dummy", max_steps=40, suite_options={"judge_variant": "full", "window": 10}),
        b={"hashes": {"A": "x", "B": "y"}, "version": "9"},
    )
    assert [m.line() for m in found] == [
        "tasks: content of 2 shared task(s) differs: A, B",
        "grader version: created by lifebench 0.1.0 vs 9",
        "suite option: judge_variant: sliding vs full",
        "environment: max_steps: 300 vs 40",
        "user simulator: user: llm vs dummy",
    ]
    many = {f"t{i:02d}": "h" for i in range(11)}
    found = _diff(config(), config(), a={"hashes": many}, b={"hashes": dict.fromkeys(many, "g")})
    assert found[0].detail == (
        "content of 11 shared task(s) differs: t00, t01, t02, t03, t04, t05, t06, t07 … and 3 more"
    )
    found = _diff(config(), config(temperature=0.5))
    assert found[0].line() == "user simulator: temperature (the user simulator's too): 0.0 vs 0.5"
    part = {"evaluator": "state", "judge_model": None, "bases": ["state"], "source": "run"}
    mixed = {"parts": [part, part], "mixed": True}
    found = _diff(config(), config(), a={"grading": mixed})
    assert found[0].line() == (
        "grading: /runs/a holds evaluations of different gradings (re-grade it with lifebench eval)"
    )


def test_a_user_kind_the_suite_does_not_know_is_assumed_to_use_a_model() -> None:
    found = _diff(config(user="mystery"), config(user="mystery", temperature=0.5))
    assert [m.aspect for m in found] == ["user simulator"]
    no_suite = {k: v for k, v in config(user="scripted").items() if k != "suite"}
    assert _diff(no_suite, {**no_suite, "temperature": 0.5}) == []  # vita's scripted user
