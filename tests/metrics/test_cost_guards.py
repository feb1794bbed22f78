"""The cost figures of a run, pinned by effect: cost per success exists only when something
succeeded (a run with no success has no cost per success, never the whole cost), and a single
task's macro averages are its own values."""

from __future__ import annotations

import pytest
from metrics_fakes import Rec, ev, sim

from lifebench.metrics import compute_metrics


def _run(rewards: list[float]) -> list[Rec]:
    return [Rec("t", i, "done", 1, sim("t", i), ev(r)) for i, r in enumerate(rewards)]


def test_no_success_means_no_cost_per_success() -> None:
    m = compute_metrics(_run([0.0, 0.5]))
    assert m.cost.sum == pytest.approx(0.024)  # priced: 0.012 per unit
    assert m.cost.per_success is None


@pytest.mark.parametrize(("rewards", "successes"), [([1.0, 0.0], 1), ([1.0, 1.0, 0.0], 2)])
def test_cost_per_success_divides_by_the_successes(rewards: list[float], successes: int) -> None:
    m = compute_metrics(_run(rewards))
    assert m.cost.per_success == pytest.approx(0.012 * len(rewards) / successes)


def test_one_task_reports_its_own_averages() -> None:
    m = compute_metrics(_run([1.0, 0.0]))
    assert m.pass_hat_k == {"1": pytest.approx(0.5), "2": 0.0}
    assert m.pass_at_k["2"] == pytest.approx(1.0)
    assert m.avg_at_k["1"] == pytest.approx(0.5)
