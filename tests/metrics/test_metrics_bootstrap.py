"""Bootstrap intervals are deterministic, paired and sensible."""

from __future__ import annotations

import pytest

from lifebench.metrics import bootstrap_ci, quantile

VALUES = [0.0, 0.25, 0.5, 1.0, 1.0, 0.75, 0.0, 1.0, 0.5, 0.25]


def test_quantile_interpolates() -> None:
    assert quantile([0.0, 1.0, 2.0, 3.0], 0.5) == 1.5
    assert quantile([0.0, 1.0, 2.0, 3.0], 0.0) == 0.0
    assert quantile([0.0, 1.0, 2.0, 3.0], 1.0) == 3.0
    assert quantile([5.0], 0.3) == 5.0
    with pytest.raises(ValueError):
        quantile([], 0.5)


def test_deterministic_for_a_seed() -> None:
    a = bootstrap_ci({"x": VALUES}, samples=500, seed=7)
    b = bootstrap_ci({"x": VALUES}, samples=500, seed=7)
    c = bootstrap_ci({"x": VALUES}, samples=500, seed=8)
    assert a == b
    assert a != c


def test_contains_point_estimate_and_is_within_range() -> None:
    point = sum(VALUES) / len(VALUES)
    lo, hi = bootstrap_ci({"x": VALUES})["x"]
    assert 0.0 <= lo < point < hi <= 1.0


def test_columns_share_the_resample() -> None:
    ci = bootstrap_ci({"x": VALUES, "y": VALUES}, samples=200, seed=1)
    assert ci["x"] == ci["y"]


def test_edge_cases() -> None:
    assert bootstrap_ci({}) == {}
    assert bootstrap_ci({"x": []}) == {}
    assert bootstrap_ci({"x": [0.3]}) == {"x": (0.3, 0.3)}
    with pytest.raises(ValueError):
        bootstrap_ci({"x": [1.0], "y": [1.0, 2.0]})
    with pytest.raises(ValueError):
        bootstrap_ci({"x": [1.0]}, samples=0)
