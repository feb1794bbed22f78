"""Ungradable evaluations (a task no criterion of the reward's bases can check) and coverage:
recorded, counted, excluded from every score, never a pass; reported."""

from __future__ import annotations

import io

import pytest
from metrics_fakes import Rec, done, sim
from rich.console import Console

from lifebench.evaluation import BasisResult, CriterionVerdict, Evaluation, combine
from lifebench.metrics import compute_metrics
from lifebench.reporting import build_report, render_report


def _criteria(n: int) -> list[CriterionVerdict]:
    return [CriterionVerdict(id=f"c{i}", description="d", met=True) for i in range(n)]


def _state(
    reward: float = 1.0, *, gradable: bool = True, n: int = 2, unchecked: tuple[str, ...] = ()
) -> BasisResult:
    return BasisResult(
        basis="state",
        reward=reward,
        score=reward,
        criteria=_criteria(n if gradable else 0),
        gradable=gradable,
        unchecked=list(unchecked),
    )


def _rec(task: str, trial: int, result: BasisResult, *extra: BasisResult) -> Rec:
    results = {r.basis: r for r in (result, *extra)}
    return Rec(task, trial, "done", 1, sim(task, trial), combine(results, ["state"]))


def test_combine_marks_an_evaluation_ungradable_when_a_reward_basis_is() -> None:
    ungradable = BasisResult(basis="state", reward=1.0, score=1.0, gradable=False)
    judged = BasisResult(basis="rubric", reward=1.0, score=1.0)
    both = combine({"state": ungradable, "rubric": judged}, ["state", "rubric"])
    assert not both.gradable and both.reward == 0.0 and not both.success
    # a basis outside the reward does not make the evaluation ungradable
    rubric_only = combine({"state": ungradable, "rubric": judged}, ["rubric"])
    assert rubric_only.gradable and rubric_only.reward == 1.0
    assert combine({"state": _state()}, ["state"]).gradable


def test_ungradable_units_are_counted_and_excluded() -> None:
    records = [
        _rec("A", 0, _state(1.0)),
        _rec("A", 1, _state(0.0)),
        _rec("B", 0, _state(gradable=False)),
        _rec("B", 1, _state(gradable=False)),
        _rec("C", 0, _state(gradable=False)),
    ]
    m = compute_metrics(records)
    assert m.n_ungradable == 3
    assert (m.n_simulations, m.n_scored, m.n_tasks) == (5, 2, 1)
    assert m.avg_reward == 0.5 and m.pass_hat_k["1"] == 0.5  # B and C are not zeros
    rows = {t.task_id: t for t in m.tasks}
    assert (rows["B"].n_ungradable, rows["B"].n_trials) == (2, 0)
    assert rows["C"].n_ungradable == 1 and rows["A"].n_ungradable == 0
    (warning,) = [w for w in m.warnings if "ungradable" in w]
    assert warning.startswith("3 simulation(s) of 2 task(s) are ungradable") and "B, C" in warning


def test_an_ungradable_pass_would_have_inflated_the_score() -> None:
    honest = [_rec("A", 0, _state(0.0)), _rec("B", 0, _state(gradable=False))]
    assert compute_metrics(honest).pass_hat_k == {"1": 0.0}
    vacuous = [_rec("A", 0, _state(0.0)), done("B", 0, 1.0)]  # the old vacuous pass
    assert compute_metrics(vacuous).pass_hat_k == {"1": 0.5}


def test_coverage_per_basis() -> None:
    records = [
        _rec("A", 0, _state(n=2)),
        _rec("A", 1, _state(n=2)),
        _rec("B", 0, _state(n=4, unchecked=("delivery time only in the rubrics",))),
        _rec("C", 0, _state(gradable=False)),
        Rec("D", 0, "done", 1, sim("D", 0), Evaluation(reward=0.0, basis="state", error="boom")),
    ]
    cov = compute_metrics(records).coverage_by_basis["state"]
    assert (cov.tasks, cov.ungradable_tasks, cov.tasks_with_unchecked) == (3, 1, 1)
    assert cov.mean_criteria == pytest.approx(3.0)  # (2 + 4) / 2 gradable tasks
    assert cov.share_with_unchecked == pytest.approx(0.5)
    assert cov.unchecked == {"B": ["delivery time only in the rubrics"]}


def test_coverage_takes_the_evaluation_that_checked_criteria() -> None:
    aborted = BasisResult(basis="state", reward=0.0, score=0.0, note="episode ended with max_steps")
    records = [_rec("A", 0, aborted), _rec("A", 1, _state(n=3))]
    assert compute_metrics(records).coverage_by_basis["state"].mean_criteria == 3.0


def test_coverage_ties_keep_the_earliest_trial() -> None:
    records = [_rec("A", 0, _state(n=2, unchecked=("x",))), _rec("A", 1, _state(n=2))]
    cov = compute_metrics(records).coverage_by_basis["state"]
    assert (cov.tasks_with_unchecked, cov.unchecked) == (1, {"A": ["x"]})


def test_coverage_keeps_the_most_criteria_whatever_the_trial_order() -> None:
    # the richest evaluation comes first: later, poorer ones must not replace it
    aborted = BasisResult(basis="state", reward=0.0, score=0.0, note="episode ended with max_steps")
    records = [_rec("A", 0, _state(n=3)), _rec("A", 1, aborted), _rec("A", 2, _state(n=1))]
    assert compute_metrics(records).coverage_by_basis["state"].mean_criteria == 3.0


def test_report_shows_ungradable_count_and_coverage() -> None:
    records = [_rec("A", 0, _state(n=2, unchecked=("x",))), _rec("B", 0, _state(gradable=False))]
    report = build_report(records, {"suite": "vita"})
    assert report.n_ungradable == 1
    assert report.model_dump(mode="json")["coverage_by_basis"]["state"]["ungradable_tasks"] == 1
    out = io.StringIO()
    render_report(report, Console(file=out, width=200))
    text = out.getvalue()
    assert "Coverage by basis" in text
    row = next(line for line in text.splitlines() if line.startswith("excluded"))
    assert "ungradable 1 ·" in row  # excluded from the numbers
    table = text[text.index("Coverage by basis") :]
    cov = next(line for line in table.splitlines() if line.strip("│ ").startswith("state"))
    assert "1 (100.0%)" in cov and "2.0" in cov


def test_the_ungradable_warning_names_at_most_five_tasks() -> None:
    six = [_rec(t, 0, _state(gradable=False)) for t in "ABCDEF"]
    (warning,) = [w for w in compute_metrics(six).warnings if "ungradable" in w]
    assert warning.endswith("are excluded: A, B, C, D, E …")
    five = [_rec(t, 0, _state(gradable=False)) for t in "ABCDE"]
    (warning,) = [w for w in compute_metrics(five).warnings if "ungradable" in w]
    assert warning.endswith("are excluded: A, B, C, D, E")


def test_coverage_of_a_basis_that_graded_nothing_has_no_means() -> None:
    records = [_rec("A", 0, _state(gradable=False)), _rec("B", 0, _state(gradable=False))]
    cov = compute_metrics(records).coverage_by_basis["state"]
    assert (cov.tasks, cov.ungradable_tasks, cov.tasks_with_unchecked) == (2, 2, 0)
    assert (cov.mean_criteria, cov.share_with_unchecked) == (None, None)
