"""Comparability of runs (runner/_provenance.py): a temperature difference between two runs
whose only judge is one their gradings' provenance names (no judge in the run's options, its
session or the grading's description) still changes what the agent is measured against, so
the runs are not comparable."""

from __future__ import annotations

from test_comparability import _facts, _provenance

from lifebench.runner._provenance import ModelInfo, RunFacts, compare_facts

AGENT_ONLY = {"agent": ModelInfo(spec="agent-a", model="gpt-a")}
WITH_JUDGE = {**AGENT_ONLY, "judge": ModelInfo(spec="judge-x", model="gpt-j")}
NO_JUDGE = {"user": "dummy", "user_model": None, "judge_model": None}


def _graded(temperature: float, judged: bool) -> RunFacts:
    grader = _provenance(models=WITH_JUDGE if judged else AGENT_ONLY)
    return _facts(
        {**NO_JUDGE, "temperature": temperature},
        session=_provenance(models=AGENT_ONLY),
        gradings=[({"bases": ["state", "rubric"]}, grader)],
    )


def _temperature(a: RunFacts, b: RunFacts) -> tuple[str, bool]:
    (difference,) = [d for d in compare_facts(a, b) if "--temperature" in d.detail]
    return difference.detail, difference.comparable


def test_a_judge_named_only_by_the_gradings_makes_a_temperature_difference_breaking() -> None:
    a, b = _graded(0.0, True), _graded(0.5, True)
    assert a.judges == ["gpt-j"] and a.config["judge_model"] is None
    assert _temperature(a, b) == ("--temperature: 0.0 vs 0.5 (also the judge model's)", False)


def test_without_any_judge_the_difference_is_the_agents_only() -> None:
    a, b = _graded(0.0, False), _graded(0.5, False)
    assert _temperature(a, b) == (
        "--temperature: 0.0 vs 0.5 (only the agent's: no other role is a model)",
        True,
    )
