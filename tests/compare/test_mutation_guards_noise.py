"""Rules of the noise floor and the variance split that the other tests leave unpinned: exact
values on small hand-computable inputs, scipy references for the noncentrality (each test fails
when one rule is deleted; scripts/mutation.sh)."""

from __future__ import annotations

import math

import pytest
from scipy.stats import nct, t

from lifebench.metrics._noise import mdd, noncentrality, trials_needed


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
