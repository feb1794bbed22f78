"""Bootstrap intervals: hand-computed values, pairing, defaults, seeds and the actual coverage."""

from __future__ import annotations

import random

import pytest

from lifebench.metrics import bootstrap_ci, quantile

VALUES = [0.0, 0.25, 0.5, 1.0, 1.0, 0.75, 0.0, 1.0, 0.5, 0.25]

X = [0.0, 1.0, 0.25]
Y = [1.0, 0.0, 0.5]
# random.Random(11).choices(range(3), k=3), five times, gives the task draws
#   [1, 1, 2], [1, 1, 1], [0, 1, 1], [2, 0, 0], [0, 2, 2]
# so the replicate means of X are 0.75, 1, 2/3, 1/12, 1/6 -> sorted 1/12, 1/6, 2/3, 0.75, 1
# and those of Y (same draws) 1/6, 0, 1/3, 5/6, 2/3 -> sorted 0, 1/6, 1/3, 2/3, 5/6.
# 95%: the 2.5% and 97.5% quantiles sit at positions 0.025·4 = 0.1 and 3.9:
#   X: 1/12 + 0.1·(1/6 − 1/12) = 0.0916…, 0.75 + 0.9·(1 − 0.75) = 0.975
#   Y: 0 + 0.1·(1/6) = 0.0166…,          2/3 + 0.9·(5/6 − 2/3) = 0.8166…
# 50%: positions 1 and 3: X (1/6, 0.75), Y (1/6, 2/3).


def test_intervals_match_the_hand_computed_replicates() -> None:
    ci = bootstrap_ci({"x": X, "y": Y}, samples=5, seed=11)
    assert ci["x"] == pytest.approx((1 / 12 + 0.1 / 12, 0.975), abs=1e-12)
    assert ci["y"] == pytest.approx((1 / 60, 2 / 3 + 0.15), abs=1e-12)
    half = bootstrap_ci({"x": X, "y": Y}, samples=5, seed=11, level=0.5)
    assert half["x"] == pytest.approx((1 / 6, 0.75), abs=1e-12)
    assert half["y"] == pytest.approx((1 / 6, 2 / 3), abs=1e-12)


def test_quantile_interpolates() -> None:
    assert quantile([0.0, 1.0, 2.0, 3.0], 0.5) == 1.5
    assert quantile([0.0, 1.0, 2.0, 3.0], 0.0) == 0.0
    assert quantile([0.0, 1.0, 2.0, 3.0], 1.0) == 3.0
    assert quantile([0.0, 10.0, 20.0], 0.3) == pytest.approx(6.0)
    assert quantile([0.0, 10.0, 20.0], 0.9) == pytest.approx(18.0)
    assert quantile([5.0], 0.3) == 5.0
    with pytest.raises(ValueError) as info:
        quantile([], 0.5)
    assert str(info.value) == "quantile of no values"


def test_defaults_are_1000_samples_seed_0_and_95_percent() -> None:
    rng = random.Random(5)
    values = [rng.random() for _ in range(12)]  # continuous: no ties between replicates
    default = bootstrap_ci({"x": values})
    assert default == bootstrap_ci({"x": values}, samples=1000, seed=0, level=0.95)
    assert default != bootstrap_ci({"x": values}, samples=999, seed=0, level=0.95)
    assert default != bootstrap_ci({"x": values}, samples=1001, seed=0, level=0.95)
    assert default != bootstrap_ci({"x": values}, samples=1000, seed=1, level=0.95)
    assert default != bootstrap_ci({"x": values}, samples=1000, seed=0, level=0.9)


def test_deterministic_for_a_seed_and_the_seed_matters() -> None:
    a = bootstrap_ci({"x": VALUES}, samples=500, seed=7)
    assert a == bootstrap_ci({"x": VALUES}, samples=500, seed=7)
    assert a != bootstrap_ci({"x": VALUES}, samples=500, seed=8)


def test_a_wider_level_gives_a_wider_interval() -> None:
    lo90, hi90 = bootstrap_ci({"x": VALUES}, level=0.9)["x"]
    lo95, hi95 = bootstrap_ci({"x": VALUES}, level=0.95)["x"]
    lo99, hi99 = bootstrap_ci({"x": VALUES}, level=0.99)["x"]
    assert lo99 < lo95 < lo90 < hi90 < hi95 < hi99


def test_contains_point_estimate_and_is_within_range() -> None:
    point = sum(VALUES) / len(VALUES)
    lo, hi = bootstrap_ci({"x": VALUES})["x"]
    assert 0.0 <= lo < point < hi <= 1.0


def test_columns_share_the_resample() -> None:
    ci = bootstrap_ci({"x": VALUES, "y": VALUES}, samples=200, seed=1)
    assert ci["x"] == ci["y"]
    # a column that is another shifted by 1 gets the same interval shifted by 1
    shifted = bootstrap_ci({"x": VALUES, "y": [v + 1 for v in VALUES]}, samples=200, seed=1)
    assert shifted["y"] == pytest.approx((shifted["x"][0] + 1, shifted["x"][1] + 1))


def test_edge_cases() -> None:
    assert bootstrap_ci({}) == {}
    assert bootstrap_ci({"x": []}) == {}
    assert bootstrap_ci({"x": [0.3]}) == {"x": (0.3, 0.3)}
    with pytest.raises(ValueError) as info:
        bootstrap_ci({"x": [1.0], "y": [1.0, 2.0]})
    assert str(info.value) == "bootstrap columns must have one value per task each"
    with pytest.raises(ValueError, match="samples must be at least 1, got 0"):
        bootstrap_ci({"x": [1.0]}, samples=0)
    for level in (0.0, 1.0, -0.5, 1.5):
        with pytest.raises(ValueError, match=f"level must be in \\(0, 1\\), got {level}"):
            bootstrap_ci({"x": [1.0]}, level=level)


def test_one_sample_is_allowed_and_gives_one_replicate() -> None:
    # the single replicate is the first draw [1, 1, 2]: mean 0.75, at both ends
    assert bootstrap_ci({"x": X}, samples=1, seed=11)["x"] == pytest.approx((0.75, 0.75))


def test_coverage_of_the_95_percent_interval_on_simulated_data() -> None:
    """A 95% interval must contain the true mean in about 95% of samples.

    1000 samples of 60 uniform(0, 1) values (true mean 0.5), each with a 200-replicate
    interval, all seeded. The binomial sd of the coverage estimate is sqrt(.95·.05/1000) ≈
    0.0069; we accept 3 sd around 0.95, widened downwards by one point for the percentile
    bootstrap's known small-sample undercoverage (its spread uses the divisor n and normal
    rather than t quantiles: about 0.943 expected at n = 60). A 90% interval labelled 95%
    (≈ 0.89) or a 99% one (≈ 0.985) falls outside.
    """
    rng = random.Random(1)
    trials, hits = 1000, 0
    for i in range(trials):
        values = [rng.random() for _ in range(60)]
        lo, hi = bootstrap_ci({"x": values}, samples=200, seed=i)["x"]
        hits += lo <= 0.5 <= hi
    sd = (0.95 * 0.05 / trials) ** 0.5
    assert 0.95 - 0.01 - 3 * sd <= hits / trials <= 0.95 + 3 * sd
