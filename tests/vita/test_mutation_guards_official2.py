"""The official comparison of a VitaBench run (vita/grading/official.py official_comparison),
pinned by its effect: which records count (finished ones only), a record without the judged
basis still counts as a unit and does not stop the others, evaluations stored without the
judge's answers are counted in the note, and the reason given when there is no judgement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lifebench.evaluation import GRADING_ERROR, BasisResult, Evaluation
from lifebench.vita.grading.official import official_comparison

REPLAYED_NOTE = (
    "official: the rubric judge's first answer of every window replayed with the official "
    "reading (json_repair, rubric_idx / rubric_key, statuses kept when unanswered)"
)


@dataclass
class _Rec:
    task_id: str
    evaluation: Evaluation | None
    status: str = "done"
    trial: int = 0


def _info(met: bool) -> dict[str, Any]:
    verdict = "true" if met else "false"
    return {
        "rubric_keys": ["0"],
        "windows": [{"replies": [f'[{{"rubric_key": "0", "meetExpectation": {verdict}}}]']}],
        "total_windows": 1,
    }


def _judged(task: str, reward: float, info: dict[str, Any] | None = None, **kw: Any) -> _Rec:
    result = BasisResult(basis="rubric", reward=reward, score=reward, info=info or {})
    evaluation = Evaluation(reward=reward, basis="rubric", by_basis={"rubric": result})
    return _Rec(task, evaluation, **kw)


def _state_only(task: str, reward: float) -> _Rec:
    result = BasisResult(basis="state", reward=reward, score=reward)
    return _Rec(task, Evaluation(reward=reward, basis="state", by_basis={"state": result}))


def test_only_finished_records_count_and_a_unit_without_a_judgement_does_not_stop_the_rest() -> (
    None
):
    records = [
        _state_only("a", 0.0),
        _judged("b", 1.0, _info(True)),
        _judged("c", 0.0, _info(False)),
        _judged("d", 1.0, _info(True), status="error"),
    ]
    comparison = official_comparison(records, {"suite": "vita"})
    (pair,) = comparison.pairs
    assert (pair.lifebench, pair.official) == (1 / 3, 0.5)
    assert (pair.metric, pair.label) == (
        "avg_reward",
        "mean reward (official: the rubric judge alone)",
    )
    assert (comparison.units, comparison.differing_units) == (3, 0)
    assert comparison.notes == [REPLAYED_NOTE]


def test_evaluations_stored_without_the_judges_answers_are_counted_in_a_note() -> None:
    records = [_judged("a", 1.0), _judged("b", 0.0), _judged("c", 1.0, _info(True))]
    comparison = official_comparison(records, {})
    (pair,) = comparison.pairs
    assert (pair.lifebench, pair.official) == (2 / 3, 2 / 3)
    assert comparison.notes == [
        REPLAYED_NOTE,
        "2 evaluation(s) were graded before lifebench stored the judge's answers: their "
        "official reward is taken to be lifebench's rubric reward (re-grade with "
        "`lifebench eval`)",
    ]


def test_a_run_without_a_rubric_judgement_says_how_to_get_one() -> None:
    comparison = official_comparison([_state_only("a", 1.0)], {})
    assert not comparison.available
    assert comparison.reason == (
        "the official harness scores with its rubric judge, and this run has no rubric "
        "judgement (grade it with `lifebench eval RUN --evaluator rubric` or `both`)"
    )


def test_a_failed_grading_stored_without_answers_has_no_official_reward() -> None:
    failed = _judged("a", 0.0, {GRADING_ERROR: "judge unreachable"})
    comparison = official_comparison([failed, _judged("b", 1.0, _info(True))], {})
    (pair,) = comparison.pairs
    assert pair.official == 1.0


def test_a_unit_differs_only_when_lifebench_has_a_reward_and_says_why() -> None:
    def rec(task: str, reward: float, judged: float, met: bool, **kw: Any) -> _Rec:
        result = BasisResult(basis="rubric", reward=judged, score=judged, info=_info(met))
        state = BasisResult(basis="state", reward=reward, score=reward)
        evaluation = Evaluation(
            reward=reward, basis="both", by_basis={"rubric": result, "state": state}, **kw
        )
        return _Rec(task, evaluation)

    records = [
        rec("state", 0.0, 1.0, True),  # the state basis lowered lifebench's reward
        rec("state2", 0.0, 1.0, True),
        rec("read", 0.0, 0.0, True),  # the same answers read differently
        rec("error", 0.0, 0.0, True, error="judge failed"),  # no lifebench reward: no class
    ]
    comparison = official_comparison(records, {})
    assert comparison.classes == {
        "answer_read_differently": 1,
        "state_basis_in_lifebench_reward": 2,
    }
    assert (comparison.units, comparison.differing_units) == (4, 3)


def test_an_imported_run_says_its_official_numbers_are_the_imported_verdicts() -> None:
    imported = BasisResult(basis="official", reward=1.0, score=1.0)
    ours = BasisResult(basis="rubric", reward=1.0, score=1.0)
    evaluation = Evaluation(
        reward=1.0, basis="rubric", by_basis={"official": imported, "rubric": ours}
    )
    comparison = official_comparison([_Rec("a", evaluation)], {})
    assert comparison.notes == ["official: the verdicts imported from the official results file"]
    (pair,) = comparison.pairs
    assert pair.label == "mean reward (official: the imported verdicts)"
