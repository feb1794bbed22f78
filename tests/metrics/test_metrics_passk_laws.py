"""Laws of pass^k and pass@k (Hypothesis), and exact values enumerated by hand.

For a task with n trials of which c succeeded, pass^k is the chance that k trials drawn without
replacement all succeed and pass@k the chance that at least one does. So for every n, c, k:
0 <= pass^k <= c/n <= pass@k <= 1, pass^k falls and pass@k rises with k, k = 1 gives c/n for
both, and pass@k + (pass^k of the failures) = 1.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lifebench.metrics import SUCCESS_TOLERANCE, is_success, pass_at_k, pass_hat_k


@st.composite
def nck(draw: st.DrawFn) -> tuple[int, int, int]:
    n = draw(st.integers(1, 40))
    return n, draw(st.integers(0, n)), draw(st.integers(1, n))


def _enumerated(n: int, c: int, k: int) -> tuple[Fraction, Fraction]:
    """pass^k and pass@k by listing every k-subset of n trials (the first c succeed)."""
    subsets = list(itertools.combinations(range(n), k))
    all_ok = sum(all(i < c for i in s) for s in subsets)
    any_ok = sum(any(i < c for i in s) for s in subsets)
    return Fraction(all_ok, len(subsets)), Fraction(any_ok, len(subsets))


@pytest.mark.parametrize("n", range(1, 7))
def test_every_small_case_matches_enumeration(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            hat, at = _enumerated(n, c, k)
            assert pass_hat_k(n, c, k) == pytest.approx(float(hat), abs=1e-12), (n, c, k)
            assert pass_at_k(n, c, k) == pytest.approx(float(at), abs=1e-12), (n, c, k)


@given(nck())
def test_bounds(case: tuple[int, int, int]) -> None:
    n, c, k = case
    hat, at = pass_hat_k(n, c, k), pass_at_k(n, c, k)
    assert 0.0 <= hat <= c / n + 1e-12
    assert c / n - 1e-12 <= at <= 1.0
    assert hat <= at + 1e-12


@given(nck())
def test_k_equal_one_is_the_success_rate(case: tuple[int, int, int]) -> None:
    n, c, _ = case
    assert pass_hat_k(n, c, 1) == pytest.approx(c / n)
    assert pass_at_k(n, c, 1) == pytest.approx(c / n)


@given(nck())
def test_monotone_in_k(case: tuple[int, int, int]) -> None:
    n, c, k = case
    if k < n:
        assert pass_hat_k(n, c, k + 1) <= pass_hat_k(n, c, k) + 1e-12
        assert pass_at_k(n, c, k + 1) >= pass_at_k(n, c, k) - 1e-12


@given(nck())
def test_monotone_in_successes(case: tuple[int, int, int]) -> None:
    n, c, k = case
    if c < n:
        assert pass_hat_k(n, c + 1, k) >= pass_hat_k(n, c, k) - 1e-12
        assert pass_at_k(n, c + 1, k) >= pass_at_k(n, c, k) - 1e-12


@given(nck())
def test_duality_and_extremes(case: tuple[int, int, int]) -> None:
    n, c, k = case
    # at least one success <=> not all k drawn are failures
    assert pass_at_k(n, c, k) == pytest.approx(1.0 - pass_hat_k(n, n - c, k), abs=1e-12)
    assert (pass_hat_k(n, c, k) == 0.0) == (c < k)
    assert (pass_at_k(n, c, k) == 1.0) == (n - c < k)
    assert pass_hat_k(n, n, k) == 1.0 and pass_at_k(n, 0, k) == 0.0


@pytest.mark.parametrize(
    ("n", "c", "k", "message"),
    [
        (4, 5, 1, "need 0 <= c <= n, got n=4, c=5"),
        (4, -1, 1, "need 0 <= c <= n, got n=4, c=-1"),
        (4, 2, 0, "need 1 <= k <= n, got n=4, k=0"),
        (4, 2, 5, "need 1 <= k <= n, got n=4, k=5"),
    ],
)
def test_invalid_arguments_are_named(n: int, c: int, k: int, message: str) -> None:
    for fn in (pass_hat_k, pass_at_k):
        with pytest.raises(ValueError) as info:
            fn(n, c, k)
        assert str(info.value) == message


def test_boundaries_of_valid_arguments_are_accepted() -> None:
    assert pass_hat_k(3, 0, 1) == 0.0 and pass_hat_k(3, 3, 3) == 1.0
    assert pass_at_k(3, 0, 3) == 0.0 and pass_at_k(3, 3, 1) == 1.0


def test_success_is_within_the_tolerance_of_one() -> None:
    assert SUCCESS_TOLERANCE == 1e-6
    assert is_success(1.0) and is_success(1.0 - 0.9e-6) and is_success(1.0 + 0.9e-6)
    assert not is_success(1.0 - 1.1e-6) and not is_success(1.0 + 1.1e-6)
    assert not is_success(0.0) and not is_success(2.0)
