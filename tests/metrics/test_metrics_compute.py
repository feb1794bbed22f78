"""compute_metrics over a hand-checked scenario and edge cases."""

from __future__ import annotations

import random

import pytest
from metrics_fakes import Rec, done, ev, scenario, sim

from lifebench.metrics import compute_metrics

A_MEAN = 0.5
B_MEAN = (1.0 + 0.9999995 + 1.0 + 0.5) / 4


def test_scenario_metrics() -> None:
    m = compute_metrics(scenario())
    assert (m.n_tasks, m.n_simulations, m.n_scored) == (2, 8, 8)
    assert (m.n_errors, m.n_pending, m.n_ungraded, m.n_grading_errors) == (1, 1, 0, 0)
    assert m.max_k == 4
    assert m.pass_hat_k["1"] == pytest.approx((0.5 + 0.75) / 2)
    assert m.pass_hat_k["2"] == pytest.approx((1 / 6 + 0.5) / 2)
    assert m.pass_hat_k["4"] == 0.0
    assert m.pass_at_k["2"] == pytest.approx((5 / 6 + 1.0) / 2)
    assert m.avg_at_k == {k: pytest.approx((A_MEAN + B_MEAN) / 2) for k in ("1", "2", "3", "4")}
    assert m.avg_reward == pytest.approx((2 + 3.4999995) / 8)
    assert m.termination == {"agent_stop": 7, "max_steps": 1}
    assert m.mean_turns == 4
    assert m.mean_tool_calls == 0.5
    assert m.tool_error_rate == 0.25
    assert m.tokens.agent.prompt == 100
    assert m.tokens.user.completion == 10
    assert m.tokens.judge.prompt == 0
    assert m.cost.total == pytest.approx(0.012)
    assert m.cost.sum == pytest.approx(0.096)
    assert m.cost.per_success == pytest.approx(0.096 / 5)
    assert (m.retries.model, m.retries.unit_reruns) == (5, 2)
    assert m.reward_by_basis == {"state": pytest.approx(m.avg_reward)}
    rows = {t.task_id: t for t in m.tasks}
    assert (rows["A"].n_trials, rows["A"].n_successes, rows["A"].n_errors) == (4, 2, 1)
    assert rows["A"].pass_hat_k["2"] == pytest.approx(1 / 6)
    assert (rows["C"].n_trials, rows["C"].n_pending, rows["C"].mean_reward) == (0, 1, None)
    assert any("infrastructure error" in w for w in m.warnings)
    assert any("not run yet" in w for w in m.warnings)


def test_confidence_intervals_contain_point_estimates() -> None:
    records = [
        done(f"t{i}", j, float((i * 7 + j * 3) % 4 == 0)) for i in range(12) for j in range(3)
    ]
    m = compute_metrics(records)
    for name in ("avg_at_k", "pass_at_k", "pass_hat_k"):
        point = getattr(m, name)
        for k, (lo, hi) in m.ci95[name].items():
            assert lo <= point[k] <= hi, (name, k)
    assert compute_metrics(records).ci95 == m.ci95


def test_uneven_trials_limit_k() -> None:
    records = [done("A", t, 1.0) for t in range(4)] + [done("B", t, 0.0) for t in range(2)]
    m = compute_metrics(records)
    assert m.max_k == 2
    assert set(m.pass_hat_k) == {"1", "2"}
    assert any("uneven trials" in w and "B" in w for w in m.warnings)
    assert m.tasks[0].pass_hat_k == {"1": 1.0, "2": 1.0, "3": 1.0, "4": 1.0}


def test_order_does_not_matter() -> None:
    records = scenario()
    shuffled = list(records)
    random.Random(3).shuffle(shuffled)
    assert compute_metrics(shuffled) == compute_metrics(records)


def test_zero_tasks() -> None:
    m = compute_metrics([])
    assert (m.n_tasks, m.n_simulations, m.max_k) == (0, 0, 0)
    assert m.pass_hat_k == m.pass_at_k == m.avg_at_k == {}
    assert m.ci95 == {"avg_at_k": {}, "pass_at_k": {}, "pass_hat_k": {}}
    assert m.avg_reward is None and m.mean_turns is None and m.tool_error_rate is None
    assert m.cost.total is None and m.cost.per_success is None


def test_ungraded_and_grading_errors_are_excluded() -> None:
    records = [
        done("A", 0, 1.0),
        Rec("A", 1, "done", 1, sim("A", 1), None),
        Rec("A", 2, "done", 1, sim("A", 2), ev(0.0, error="judge returned garbage")),
    ]
    m = compute_metrics(records)
    assert (m.n_simulations, m.n_scored, m.n_ungraded, m.n_grading_errors) == (3, 1, 1, 1)
    assert m.pass_hat_k == {"1": 1.0}
    assert m.mean_turns == 4  # activity counts every completed simulation


def test_judge_usage_and_basis_rewards() -> None:
    records = [
        Rec("A", 0, "done", 1, sim("A", 0), ev(1.0, rubric=1.0)),
        Rec("A", 1, "done", 1, sim("A", 1), ev(0.0, rubric=0.0)),
    ]
    m = compute_metrics(records)
    assert m.reward_by_basis == {"rubric": 0.5, "state": 0.5}
    assert m.score_by_basis == {"rubric": 0.5, "state": 0.5}
    assert m.tokens.judge.prompt == 50
    assert m.cost.judge == pytest.approx(0.004)
    assert m.retries.model == 2
