"""Comparability as ``lifebench compare`` asks it: the one check
(:func:`lifebench.runner.comparability`) on the tasks the runs share — what compare needs of it
(shared tasks, user-simulator seeds, the temperature of a run whose only model is the agent,
the grading behind the evaluations), and how compare carries each difference."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import config, records, run_data

from lifebench.compare import ComparisonError, compare_runs
from lifebench.runner._provenance import Difference, RunFacts, compare_facts, compared_config

TASKS = [f"t{i:02d}" for i in range(12)]
REWARDS = {t: [1.0, 0.0] for t in TASKS}


def _run(name: str, cfg: dict[str, Any] | None = None, **kw: Any) -> Any:
    return run_data(records(REWARDS), name=name, cfg=cfg or config(), **kw)


def _facts(cfg: dict[str, Any] | None = None, **kw: Any) -> RunFacts:
    facts = _run("x", cfg, **kw).facts
    assert facts is not None
    return facts


def _diffs(b: RunFacts, a: RunFacts | None = None, **kw: Any) -> list[tuple[str, bool]]:
    return [(d.aspect, d.comparable) for d in compare_facts(a or _facts(), b, **kw)]


def test_different_task_sets_are_noted_when_only_shared_tasks_are_compared() -> None:
    fewer = _facts(hashes={t: f"h-{t}" for t in TASKS[:10]})
    assert _diffs(fewer) == [("tasks", False)]  # whole runs: not comparable
    found = compare_facts(_facts(), fewer, shared_tasks=True)
    assert [(d.aspect, d.comparable) for d in found] == [("tasks", True)]
    assert found[0].detail == (
        "different task sets: 2 only in the first (t10, t11) (compared on the 10 shared task(s))"
    )
    # a shared task whose contents differ is never comparable
    edited = _facts(hashes={**{t: f"h-{t}" for t in TASKS}, "t03": "edited"})
    assert _diffs(edited, shared_tasks=True) == [("tasks", False)]


def test_user_seeds_are_noted_like_trials() -> None:
    assert _diffs(_facts(config(user_seeds=1))) == []  # the default, stored or left out
    found = compare_facts(_facts(), _facts(config(user_seeds=3)))
    assert [(d.aspect, d.comparable, d.detail) for d in found] == [
        ("user_seeds", True, "user_seeds: 1 vs 3")
    ]


def test_temperature_changes_the_environment_only_when_another_role_is_a_model() -> None:
    found = compare_facts(_facts(), _facts(config(temperature=0.7)))
    assert [(d.aspect, d.comparable, d.detail) for d in found] == [
        ("option", False, "--temperature: 0.0 vs 0.7 (also the user model's)")
    ]
    offline = {"user": "scripted", "user_model": None}
    found = compare_facts(_facts(config(**offline)), _facts(config(**offline, temperature=0.7)))
    assert [(d.aspect, d.comparable, d.detail) for d in found] == [
        ("option", True, "--temperature: 0.0 vs 0.7 (only the agent's: no other role is a model)")
    ]
    judged = {**offline, "judge_model": "j@http://h/v1", "tool_model": "t@http://h/v1"}
    found = compare_facts(_facts(config(**judged)), _facts(config(**judged, temperature=0.7)))
    assert [(d.comparable, d.detail) for d in found] == [
        (False, "--temperature: 0.0 vs 0.7 (also the judge, tool model's)")
    ]


_PART = {
    "evaluator": "rubric",
    "judge_model": "j@http://h/v1",
    "bases": ["rubric"],
    "suite_options": {"window": 5},
    "source": "eval",
}


def test_the_grading_behind_the_evaluations_decides_evaluator_judge_and_options() -> None:
    regraded = _facts(grading={"parts": [_PART], "mixed": False})
    assert regraded.grading == {k: v for k, v in _PART.items() if k != "source"}
    cfg = compared_config(regraded)
    assert (cfg["evaluator"], cfg["judge_model"], cfg["bases"]) == (
        "rubric",
        "j@http://h/v1",
        ["rubric"],
    )
    assert cfg["suite_options"] == {"judge_variant": "sliding", "window": 5}  # extended
    assert cfg["user_seeds"] == 1  # a default the stored configuration leaves out
    aspects = sorted({a for a, _ in _diffs(regraded)})
    assert aspects == ["evaluator", "judge", "option"]
    # two runs re-graded alike are comparable, whatever their configurations said
    assert _diffs(regraded, _facts(config(evaluator="both"), grading={"parts": [_PART]})) == []
    mixed = _facts(grading={"parts": [_PART, {**_PART, "judge_model": "k@h"}], "mixed": True})
    assert ("grading", False) in _diffs(mixed, regraded)


def test_compare_refuses_naming_each_difference_and_notes_the_rest() -> None:
    a = _run("a")
    b = _run("b", config(max_steps=40, seed=301), version="0.2.0")
    with pytest.raises(ComparisonError) as caught:
        compare_runs([a, b], ["a", "b"])
    assert str(caught.value) == (
        "the runs are not comparable:\n"
        "  - a vs b: --max-steps: 300 vs 40\n"
        "Compare runs of the same tasks, grader, user simulator and judge, or pass "
        "--allow-mismatch to compare anyway (every output is then marked)."
    )
    result = compare_runs([a, b], ["a", "b"], allow_mismatch=True)
    assert not result.comparable
    assert [m.line() for m in result.mismatches] == ["a vs b: --max-steps: 300 vs 40"]
    assert [m.line() for m in result.noted] == [
        "a vs b: seed: 300 vs 301",
        "a vs b: lifebench 0.1.0 vs 0.2.0",
    ]


def test_compare_asks_the_one_check_about_the_shared_tasks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import lifebench.compare._compare as module

    asked: list[bool] = []

    def spy(a: RunFacts, b: RunFacts, *, shared_tasks: bool = False) -> list[Difference]:
        asked.append(shared_tasks)
        return compare_facts(a, b, shared_tasks=shared_tasks)

    monkeypatch.setattr(module, "compare_facts", spy)
    extra = run_data(records({**REWARDS, "t99": [1.0, 1.0]}), name="c")
    result = compare_runs([_run("a"), _run("b"), extra], ["a", "b", "c"])
    assert asked == [True, True, True]  # every pair
    assert result.comparable and result.mismatches == []
    assert [m.line() for m in result.noted] == [
        "a vs c: different task sets: 1 only in the second (t99) "
        "(compared on the 12 shared task(s))",
        "b vs c: different task sets: 1 only in the second (t99) "
        "(compared on the 12 shared task(s))",
    ]


def test_a_run_without_read_facts_is_checked_by_its_configuration_and_tasks() -> None:
    import dataclasses

    a = dataclasses.replace(_run("a"), facts=None)
    b = dataclasses.replace(_run("b", config(domain="instore")), facts=None)
    result = compare_runs([a, b], ["a", "b"], allow_mismatch=True)
    assert [m.line() for m in result.mismatches] == ["a vs b: domain: delivery vs instore"]
