"""Rules of the noise floor and the variance split that the other tests leave unpinned: exact
values on small hand-computable inputs, scipy references for the noncentrality (each test fails
when one rule is deleted; scripts/mutation.sh)."""

from __future__ import annotations

import math

import pytest
from scipy.stats import nct, t

from lifebench.metrics._noise import mdd, noncentrality, trials_needed
from lifebench.metrics._trials import ScoredTrial
from lifebench.metrics._variance import variance_split


def _power(df: int, alpha: float, lam: float) -> float:
    """Power of the two-sided t test with ``df`` degrees of freedom at noncentrality ``lam``."""
    crit = t.ppf(1 - alpha / 2, df)
    return float(nct.sf(crit, df, lam) + nct.cdf(-crit, df, lam))


def test_the_level_and_power_reach_the_minimum_detectable_difference() -> None:
    # alpha 1 %, power 90 %, 10 tasks: the noncentrality at which the t test reaches 90 %
    lam = noncentrality(9, alpha=0.01, power=0.9)
    assert lam == pytest.approx(4.774199636519426, rel=1e-9)
    assert _power(9, 0.01, lam) == pytest.approx(0.9, abs=1e-9)
    # MDD = lambda * sqrt(2 * 0.25 / (2 trials * 10 tasks))
    assert mdd(10, 2, 0.25, alpha=0.01, power=0.9) == pytest.approx(lam * math.sqrt(0.025))
    assert mdd(10, 2, 0.25, alpha=0.01, power=0.9) == pytest.approx(0.7548672427874689)
    assert mdd(10, 2, 0.25) == pytest.approx(0.49800068572773193)  # 5 %, 80 %
    assert mdd(10, 2, 0.25, alpha=0.01) != pytest.approx(mdd(10, 2, 0.25))
    assert mdd(10, 2, 0.25, power=0.9) != pytest.approx(mdd(10, 2, 0.25))
    # trials: 2 * 0.25 * lambda^2 / (10 * 0.1^2) = 113.96..., so 114
    assert trials_needed(10, 0.25, 0.1, alpha=0.01, power=0.9) == 114
    assert trials_needed(10, 0.25, 0.1) == 50
    assert trials_needed(10, 0.25, 0.1, alpha=0.01) != 50
    assert trials_needed(10, 0.25, 0.1, power=0.9) != 50


def _row(trial: int, agent: int, seed: int, *gradings: float) -> ScoredTrial:
    return ScoredTrial("t", trial, gradings[0], agent, seed, tuple(gradings[1:]))


def test_unequal_user_seeds_weigh_the_judge_share_by_degrees_of_freedom() -> None:
    # agent trial 0: user seeds 0, 1 — trajectory (1, 0.8) graded twice, (1.0) once
    # agent trial 1: user seeds 0, 1, 2 — trajectories 0, 1, 1 graded once
    rows = [
        _row(0, 0, 0, 1.0, 0.8),
        _row(1, 0, 1, 1.0),
        _row(2, 1, 0, 0.0),
        _row(3, 1, 1, 1.0),
        _row(4, 1, 2, 1.0),
    ]
    split = variance_split({"t": rows})
    judge = 0.02  # (1 - 0.9)^2 + (0.8 - 0.9)^2 over 1 degree of freedom
    assert split.component("judge").variance == pytest.approx(judge)
    # user means: [0.9, 1.0] (SS 0.005, df 1) and [0, 1, 1] (SS 2/3, df 2)
    pooled = (0.005 + 2 / 3) / 3
    # judge noise in a trajectory mean: mean 1/gradings per agent trial, 0.75 and 1, weighted
    # by the degrees of freedom of the user seeds (1 and 2)
    coefficient = (1 * 0.75 + 2 * 1.0) / 3
    assert split.component("user").variance == pytest.approx(pooled - coefficient * judge)
    assert split.component("user").variance == pytest.approx(0.20555555555555557)


def test_the_anova_of_three_unequal_tasks() -> None:
    from fractions import Fraction as F

    from lifebench.metrics._noise import anova

    # means 1/2, 2/3, 1/4 of 2, 3, 4 trials; grand mean 4/9
    msb, msw, n0 = anova([[1, 0], [1, 1, 0], [0, 0, 0, 1]])  # type: ignore[misc]
    ssb = 2 * (F(1, 2) - F(4, 9)) ** 2 + 3 * (F(2, 3) - F(4, 9)) ** 2 + 4 * (F(1, 4) - F(4, 9)) ** 2
    assert ssb == F(11, 36)
    assert msb == pytest.approx(float(ssb / 2))  # a - 1 = 2 degrees of freedom
    assert msw == pytest.approx(float(F(1, 2) + F(2, 3) + F(3, 4)) / 6)  # total - a = 6
    assert n0 == pytest.approx(float((9 - F(29, 9)) / 2))  # (N - sum n_i^2 / N) / (a - 1)


def _trials(rewards: dict[str, list[float]]) -> dict[str, list[ScoredTrial]]:
    return {
        task: [ScoredTrial(task, i, r, i, 0) for i, r in enumerate(rs)]
        for task, rs in rewards.items()
    }


def test_a_task_that_always_fails_does_not_flip() -> None:
    from lifebench.metrics._noise import noise_floor

    floor = noise_floor(_trials({"a": [1.0, 0.0], "b": [0.0, 0.0], "c": [1.0, 1.0]}))
    assert floor.tasks_flipping == pytest.approx(1 / 3)
    assert floor.flip_rate == pytest.approx(1 / 3)


def test_the_noise_floor_uses_its_level_and_power() -> None:
    from lifebench.metrics._noise import noise_floor

    rewards = {"a": [1.0, 0.0], "b": [0.0, 0.0], "c": [1.0, 1.0], "d": [1.0, 0.0]}
    floor = noise_floor(_trials(rewards), alpha=0.01, power=0.9, targets=(0.1,))
    assert (floor.alpha, floor.power) == (0.01, 0.9)
    msw = 0.25  # within-task SS 0.5 + 0 + 0 + 0.5 over 4 degrees of freedom
    assert floor.within_task_variance == pytest.approx(msw)
    assert floor.mdd == pytest.approx(mdd(4, 2, msw, alpha=0.01, power=0.9))
    assert floor.trials_needed == {"0.1": trials_needed(4, msw, 0.1, alpha=0.01, power=0.9)}
    plain = noise_floor(_trials(rewards), targets=(0.1,))
    assert (plain.alpha, plain.power) == (0.05, 0.8)
    assert plain.mdd == pytest.approx(mdd(4, 2, msw)) and plain.mdd != pytest.approx(floor.mdd)


def test_the_noncentrality_counts_both_tails() -> None:
    # at 5 % and 9 degrees of freedom the lower tail still holds 7e-7 of the power
    lam = noncentrality(9)
    assert _power(9, 0.05, lam) == pytest.approx(0.8, abs=1e-11)
    assert lam == pytest.approx(3.149632886450681, rel=1e-11)


def test_trials_needed_at_the_edges() -> None:
    from lifebench.metrics._noise import _mdd, _trials_needed

    lam = noncentrality(9)
    # a target one trial already reaches: 1, not more
    assert _mdd(lam, 10, 1, 0.25) < 1.0 and trials_needed(10, 0.25, 1.0) == 1
    # a requirement within 1e-9 above 50 trials is 50 (rounding is not a trial more)
    target = math.sqrt(2 * 0.25 * lam**2 / (10 * (50 + 5e-10)))
    assert _trials_needed(lam, 10, 0.25, target) == 50
    target = math.sqrt(2 * 0.25 * lam**2 / (10 * (50 + 1e-6)))
    assert _trials_needed(lam, 10, 0.25, target) == 51


def _design(shift: float) -> list[ScoredTrial]:
    """Agent trial 0: seeds graded (1, 0.8) and (0); agent trial 1: (1) and (0.9, 0.9); + shift."""
    cells = {(0, 0): (1.0, 0.8), (0, 1): (0.0,), (1, 0): (1.0,), (1, 1): (0.9, 0.9)}
    return [
        ScoredTrial("t", i, g[0] + shift, a, s, tuple(x + shift for x in g[1:]))
        for i, ((a, s), g) in enumerate(cells.items())
    ]


def test_the_task_variance_less_the_noise_each_task_mean_carries() -> None:
    rows = {
        "a": _design(0.0),
        "b": [r.__class__(**{**r.__dict__, "task_id": "b"}) for r in _design(3.0)],
    }
    split = variance_split(rows)
    judge, user, agent = (split.component(n).variance for n in ("judge", "user", "agent"))
    assert judge == pytest.approx(0.01)  # SS 0.02 + 0 per task, 4 degrees of freedom in all
    assert user is not None and agent is not None and user > 0 and agent > 0
    # a task mean carries, per agent trial (m = 2 seeds): agent + user / m + judge * (sum of
    # 1 / gradings) / m^2, over n_a^2 = 4 agent trials squared
    carried = 2 * (agent + user / 2 + judge * 1.5 / 4) / 4
    # task means 0.7 and 3.7: sample variance 4.5
    assert split.component("task").variance == pytest.approx(4.5 - carried)
    assert split.component("task").variance == pytest.approx(4.4375)
    within = agent + user + judge
    assert split.within_task == pytest.approx(within)
    assert [split.component(n).share for n in ("agent", "user", "judge")] == pytest.approx(
        [agent / within, user / within, judge / within]
    )


def test_tasks_with_equal_means_have_no_task_variance() -> None:
    rows = {
        "a": _design(0.0),
        "b": [r.__class__(**{**r.__dict__, "task_id": "b"}) for r in _design(0.0)],
    }
    split = variance_split(rows)
    assert split.component("task").variance == 0.0  # 0 spread less the noise: below 0
    assert any(n.startswith("the task estimate was negative") for n in split.notes)
