"""Cohen's κ between bases against hand-computed values, and judge usage per basis."""

from __future__ import annotations

import pytest
from metrics_fakes import Rec, sim

from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import Usage
from lifebench.metrics import compute_metrics
from lifebench.metrics._agreement import basis_kappa, cohen_kappa, usage_by_basis

T, F = True, False

# 10 items: 4 both True, 2 only a, 1 only b, 3 both False.
A = [T, T, T, T, T, T, F, F, F, F]
B = [T, T, T, T, F, F, T, F, F, F]
# By hand: p_o = 7/10; p_a = 0.6, p_b = 0.5; p_e = 0.6·0.5 + 0.4·0.5 = 0.5;
# κ = (0.7 − 0.5) / (1 − 0.5) = 0.4. Raw agreement would say 0.7; p_e = p_a·p_b alone gives
# 0.4/0.7 ≈ 0.571; (1 − p_a)² instead of (1 − p_a)(1 − p_b) gives p_e = 0.46, κ ≈ 0.444.
KAPPA_AB = 0.4

# 8 items: 1 both True, 3 only a, 0 only b, 4 both False: p_o = 5/8, p_a = 1/2, p_b = 1/8,
# p_e = 1/16 + 7/16 = 1/2, κ = (5/8 − 1/2) / (1/2) = 1/4.
C = [T, T, T, T, F, F, F, F]
D = [T, F, F, F, F, F, F, F]


def test_kappa_against_hand_computed_values() -> None:
    assert cohen_kappa(A, B) == pytest.approx(KAPPA_AB, abs=1e-12)
    assert cohen_kappa(B, A) == pytest.approx(KAPPA_AB, abs=1e-12)
    assert cohen_kappa(C, D) == pytest.approx(0.25, abs=1e-12)
    assert cohen_kappa(D, C) == pytest.approx(0.25, abs=1e-12)


def test_kappa_extremes() -> None:
    assert cohen_kappa([T, F, T, F], [T, F, T, F]) == 1.0  # perfect, non-degenerate
    assert cohen_kappa([T, F], [F, T]) == pytest.approx(-1.0)  # systematic disagreement
    # chance-level agreement: half agree, each rater says True half the time
    assert cohen_kappa([T, T, F, F], [T, F, T, F]) == pytest.approx(0.0, abs=1e-12)
    # constant raters: equal ones agree perfectly, opposite ones are at chance
    assert cohen_kappa([T, T, T], [T, T, T]) == 1.0
    assert cohen_kappa([F, F], [F, F]) == 1.0
    assert cohen_kappa([T, T], [F, F]) == pytest.approx(0.0, abs=1e-12)


def test_kappa_needs_paired_items() -> None:
    assert cohen_kappa([], []) is None
    assert cohen_kappa([T], [T, F]) is None
    assert cohen_kappa([T, F], [T]) is None


def _evaluation(**rewards: float) -> Evaluation:
    by_basis = {b: BasisResult(basis=b, reward=r, score=r) for b, r in rewards.items()}
    first = next(iter(rewards))
    return Evaluation(reward=rewards[first], basis=first, by_basis=by_basis)


def test_basis_kappa_uses_success_verdicts_of_evaluations_with_both_bases() -> None:
    pairs = list(zip(A, B, strict=True))
    evaluations = [
        # a reward within 1e-6 of 1 is a success; partial credit is a failure
        _evaluation(state=0.9999995 if a else 0.5, rubric=1.0 if b else 0.0)
        for a, b in pairs
    ]
    # evaluations without one of the bases do not enter the pairs
    evaluations += [_evaluation(state=1.0), _evaluation(rubric=0.0), _evaluation(other=1.0)]
    assert basis_kappa(evaluations, "state", "rubric") == pytest.approx(KAPPA_AB, abs=1e-12)
    assert basis_kappa(evaluations, "rubric", "state") == pytest.approx(KAPPA_AB, abs=1e-12)
    assert basis_kappa(evaluations, "state", "missing") is None


def test_compute_metrics_reports_kappa_of_state_and_rubric_and_every_pair() -> None:
    records = [
        Rec("t", i, "done", 1, sim("t", i), _evaluation(state=float(a), rubric=float(b), x=1.0))
        for i, (a, b) in enumerate(zip(A, B, strict=True))
    ]
    m = compute_metrics(records, bootstrap_samples=10)
    assert m.kappa_state_vs_rubric == pytest.approx(KAPPA_AB, abs=1e-12)
    assert set(m.kappa_by_pair) == {"rubric~state", "rubric~x", "state~x"}
    assert m.kappa_by_pair["rubric~state"] == pytest.approx(KAPPA_AB, abs=1e-12)
    # x always passes: a constant rater against a varying one agrees at chance level only
    assert m.kappa_by_pair["rubric~x"] == pytest.approx(0.0, abs=1e-12)
    assert m.kappa_by_pair["state~x"] == pytest.approx(0.0, abs=1e-12)


def test_kappa_ignores_unscored_evaluations() -> None:
    failed = _evaluation(state=1.0, rubric=0.0).model_copy(update={"error": "judge broke"})
    records = [
        Rec("t", 0, "done", 1, sim("t", 0), _evaluation(state=1.0, rubric=1.0)),
        Rec("t", 1, "done", 1, sim("t", 1), _evaluation(state=0.0, rubric=0.0)),
        Rec("t", 2, "done", 1, sim("t", 2), failed),  # a disagreement that must not count
    ]
    assert compute_metrics(records, bootstrap_samples=10).kappa_state_vs_rubric == 1.0


def _judged(basis: str, prompt: int, completion: int, cost: float, calls: int) -> BasisResult:
    usage = Usage(prompt_tokens=prompt, completion_tokens=completion, cost=cost, calls=calls)
    return BasisResult(basis=basis, reward=1.0, score=1.0, usage=usage)


def test_usage_by_basis_sums_and_means_per_basis() -> None:
    evaluations = [
        Evaluation(
            reward=1.0,
            basis="rubric",
            by_basis={
                "rubric": _judged("rubric", 100, 10, 0.5, 3),
                "rubric_full": _judged("rubric_full", 1000, 20, 2.0, 1),
            },
        ),
        Evaluation(
            reward=1.0, basis="rubric", by_basis={"rubric": _judged("rubric", 300, 30, 1.5, 4)}
        ),
        Evaluation(
            reward=1.0, basis="rubric", by_basis={"rubric": _judged("rubric", 200, 5, 1.0, 2)}
        ),
    ]
    usage = usage_by_basis(evaluations)
    assert list(usage) == ["rubric", "rubric_full"]
    rubric, full = usage["rubric"], usage["rubric_full"]
    assert (rubric.evaluations, rubric.calls) == (3, 9)
    assert (rubric.prompt_tokens, rubric.completion_tokens) == (600, 45)
    assert rubric.cost == pytest.approx(3.0)
    assert rubric.mean_tokens == pytest.approx(645 / 3)
    assert rubric.mean_cost == pytest.approx(1.0)
    assert (full.evaluations, full.calls, full.prompt_tokens, full.completion_tokens) == (
        1,
        1,
        1000,
        20,
    )
    assert (full.cost, full.mean_tokens, full.mean_cost) == (2.0, 1020.0, 2.0)
    assert usage_by_basis([]) == {}


def test_compute_metrics_reports_judge_usage_of_scored_evaluations_only() -> None:
    scored = Evaluation(
        reward=1.0, basis="rubric", by_basis={"rubric": _judged("rubric", 40, 4, 0.2, 2)}
    )
    failed = scored.model_copy(update={"error": "no answer"})
    records = [
        Rec("t", 0, "done", 1, sim("t", 0), scored),
        Rec("t", 1, "done", 1, sim("t", 1), scored),
        Rec("t", 2, "done", 1, sim("t", 2), failed),
    ]
    usage = compute_metrics(records, bootstrap_samples=10).usage_by_basis["rubric"]
    assert (usage.evaluations, usage.calls, usage.prompt_tokens) == (2, 4, 80)
