"""The paired statistics of ``lifebench compare``: exact values, edge cases and laws."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lifebench.compare._stats import (
    holm,
    is_binary,
    mcnemar_exact,
    mean_difference,
    paired_interval,
    paired_test,
    permutation_p,
)

values = st.lists(st.floats(0, 1, allow_nan=False), min_size=2, max_size=12)


def test_mcnemar_is_the_exact_binomial_sign_test() -> None:
    # 8 tasks won by A, 1 by B: 2 * P(X <= 1), X ~ Bin(9, 1/2) = 2 * 10 / 512
    assert mcnemar_exact(8, 1) == pytest.approx(20 / 512, abs=1e-12)
    assert mcnemar_exact(1, 8) == pytest.approx(20 / 512, abs=1e-12)
    # 5 vs 5 is the centre: p = 1
    assert mcnemar_exact(5, 5) == pytest.approx(1.0)
    # 6 vs 0: 2 / 64
    assert mcnemar_exact(6, 0) == pytest.approx(2 / 64, abs=1e-12)
    assert mcnemar_exact(0, 0) == 1.0
    with pytest.raises(ValueError, match=r"^discordant counts cannot be negative$"):
        mcnemar_exact(-1, 3)
    with pytest.raises(ValueError, match=r"^discordant counts cannot be negative$"):
        mcnemar_exact(3, -1)


def test_permutation_test_is_exact_on_few_tasks() -> None:
    # three untied tasks all favouring A: 2**3 arrangements, one as extreme each way
    p, exact = permutation_p([1.0, 0.8, 0.6], [0.0, 0.1, 0.2], resamples=9999, seed=0)
    assert exact is True
    assert p == pytest.approx(2 / 8)
    # ties are left out: the same three plus two ties give the same p
    p2, _ = permutation_p(
        [1.0, 0.8, 0.6, 0.5, 0.5], [0.0, 0.1, 0.2, 0.5, 0.5], resamples=99, seed=0
    )
    assert p2 == pytest.approx(2 / 8)


def test_permutation_test_counts_arrangements_as_extreme_as_the_observed_one() -> None:
    # differences +3, +1, -1 (sum 3): of the 8 sign flips, 6 have |sum| >= 3 -> p = 0.75
    diffs = [3.0, 1.0, -1.0]
    extreme = 0
    for mask in range(8):
        signs = [(-1) ** ((mask >> i) & 1) for i in range(3)]
        if abs(sum(s * d for s, d in zip(signs, diffs, strict=True))) >= 3.0 - 1e-12:
            extreme += 1
    p, exact = permutation_p(diffs, [0.0, 0.0, 0.0], resamples=9999, seed=0)
    assert exact
    assert extreme == 6
    assert p == pytest.approx(extreme / 8)


def test_permutation_is_monte_carlo_beyond_the_resamples() -> None:
    a = [float(i % 3) for i in range(20)]
    b = [0.5] * 20
    p, exact = permutation_p(a, b, resamples=999, seed=1)
    assert exact is False
    assert 0 < p <= 1
    assert permutation_p(a, b, resamples=999, seed=1)[0] == p  # seeded


def test_one_arrangement_is_allowed() -> None:
    p, exact = permutation_p([1.0, 0.8, 0.6], [0.0, 0.1, 0.2], resamples=1, seed=0)
    assert exact is False and p in (0.5, 1.0)


def test_permutation_of_identical_values_is_one_and_exact() -> None:
    assert permutation_p([0.3, 0.4], [0.3, 0.4], resamples=10, seed=0) == (1.0, True)
    with pytest.raises(ValueError, match=r"^resamples must be at least 1, got 0$"):
        permutation_p([0.3], [0.1], resamples=0, seed=0)


def test_paired_test_picks_mcnemar_for_successes_and_permutation_for_scores() -> None:
    t = paired_test([1.0, 1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0, 1.0])
    assert (t.test, t.a_better, t.b_better, t.ties, t.exact) == ("mcnemar_exact", 2, 0, 3, True)
    assert t.p_value == pytest.approx(mcnemar_exact(2, 0))
    t = paired_test([1.0, 0.5, 1.0], [0.0, 0.0, 1.0])
    assert (t.test, t.a_better, t.b_better, t.ties) == ("permutation", 2, 0, 1)
    assert t.p_value == pytest.approx(2 / 4)
    assert t.exact is True
    # a single non-binary value on one side makes it a score
    t = paired_test([1.0, 0.0, 1.0], [0.0, 0.0, 0.5])
    assert t.test == "permutation"


def test_is_binary() -> None:
    assert is_binary([0.0, 1.0, 1, 0])
    assert not is_binary([0.0, 0.999999])
    assert is_binary([])


def test_checks_of_paired_inputs() -> None:
    with pytest.raises(ValueError, match=r"^paired values need equal lengths, got 1 and 2$"):
        mean_difference([1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match=r"^paired values need at least one task$"):
        mean_difference([], [])
    with pytest.raises(ValueError, match=r"^paired values need equal lengths, got 1 and 0$"):
        paired_test([1.0], [])


def test_mean_difference() -> None:
    assert mean_difference([1.0, 0.5, 0.0], [0.0, 0.5, 0.5]) == pytest.approx(1 / 6)


def test_paired_interval_is_seeded_and_contains_the_difference() -> None:
    a = [0.1 * (i % 7) for i in range(30)]
    b = [0.05 * (i % 5) for i in range(30)]
    low, high = paired_interval(a, b, samples=2000, seed=3, level=0.95)
    assert low < mean_difference(a, b) < high
    assert paired_interval(a, b, samples=2000, seed=3, level=0.95) == (low, high)
    assert paired_interval(a, b, samples=2000, seed=4, level=0.95) != (low, high)
    narrow = paired_interval(a, b, samples=2000, seed=3, level=0.5)
    assert low < narrow[0] < narrow[1] < high


def test_paired_interval_edge_cases() -> None:
    assert paired_interval([0.7], [0.2], samples=10, seed=0, level=0.95) == pytest.approx(
        (0.5, 0.5)
    )
    assert paired_interval([0.5, 0.5], [0.5, 0.5], samples=10, seed=0, level=0.95) == (0.0, 0.0)
    with pytest.raises(ValueError, match=r"^samples must be at least 1, got 0$"):
        paired_interval([1.0, 0.0], [0.0, 0.0], samples=0, seed=0, level=0.95)
    for level in (0.0, 1.0):
        with pytest.raises(ValueError, match=rf"^level must be in \(0, 1\), got {level}$"):
            paired_interval([1.0, 0.0], [0.0, 0.0], samples=10, seed=0, level=level)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # scipy's standard error of 1 replicate
def test_one_bootstrap_sample_is_enough() -> None:
    low, high = paired_interval([1.0, 0.0, 0.5], [0.0, 0.0, 0.0], samples=1, seed=0, level=0.9)
    assert low == high and 0.0 <= low <= 1.0


def test_paired_interval_is_paired() -> None:
    # big task-to-task spread, a constant +0.1 difference: the paired interval is [0.1, 0.1]
    a = [0.1 + 0.08 * i for i in range(10)]
    b = [0.08 * i for i in range(10)]
    low, high = paired_interval(a, b, samples=500, seed=0, level=0.95)
    assert low == pytest.approx(0.1) and high == pytest.approx(0.1)


def test_holm_known_values() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 -> 0.02, 0.03, 0.06, 0.04 -> monotone
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    assert holm([0.2]) == [0.2]
    assert holm([]) == []
    # ties keep the given order's ranks: both get 2 * 0.01
    assert holm([0.01, 0.01]) == pytest.approx([0.02, 0.02])


@given(st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=8))
def test_holm_laws(ps: list[float]) -> None:
    adjusted = holm(ps)
    assert len(adjusted) == len(ps)
    for p, q in zip(ps, adjusted, strict=True):
        assert p - 1e-12 <= q <= 1.0
        assert q <= min(1.0, len(ps) * p) + 1e-12
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    ranked = [adjusted[i] for i in order]
    assert ranked == sorted(ranked)  # monotone in p


@given(values, st.data())
def test_swapping_the_runs_negates_the_difference_and_keeps_p(
    a: list[float], data: st.DataObject
) -> None:
    b = data.draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=len(a), max_size=len(a)))
    forward = paired_test(a, b, resamples=200, seed=5)
    backward = paired_test(b, a, resamples=200, seed=5)
    assert forward.test == backward.test
    assert (forward.a_better, forward.b_better, forward.ties) == (
        backward.b_better,
        backward.a_better,
        backward.ties,
    )
    assert math.isclose(forward.p_value, backward.p_value, abs_tol=1e-9)
    assert 0 < forward.p_value <= 1
    low, high = paired_interval(a, b, samples=200, seed=5, level=0.9)
    rlow, rhigh = paired_interval(b, a, samples=200, seed=5, level=0.9)
    assert math.isclose(low, -rhigh, abs_tol=1e-9) and math.isclose(high, -rlow, abs_tol=1e-9)
    assert low <= mean_difference(a, b) + 1e-9 or high >= mean_difference(a, b) - 1e-9


def test_the_interval_is_scipys_percentile_bootstrap() -> None:
    import numpy as np
    from scipy.stats import bootstrap

    a = [0.1 * (i % 7) for i in range(25)]
    b = [0.05 * (i % 5) for i in range(25)]
    diffs = np.array([x - y for x, y in zip(a, b, strict=True)])
    for samples, seed, level in ((500, 3, 0.9), (2000, 0, 0.95)):
        expected = bootstrap(
            (diffs,),
            np.mean,
            n_resamples=samples,
            confidence_level=level,
            method="percentile",
            rng=np.random.default_rng(seed),
        ).confidence_interval
        got = paired_interval(a, b, samples=samples, seed=seed, level=level)
        assert got == pytest.approx((expected.low, expected.high), abs=1e-12)
    two = paired_interval([1.0, 0.0], [0.0, 0.0], samples=200, seed=1, level=0.95)
    assert two[0] == pytest.approx(0.0) and two[1] == pytest.approx(1.0)


def test_the_permutation_p_is_scipys() -> None:
    import numpy as np
    from scipy.stats import permutation_test

    a = [float(i % 4) for i in range(20)]
    b = [1.5] * 20
    for resamples, seed in ((999, 2), (9999, 0)):
        expected = permutation_test(
            (np.array(a), np.array(b)),
            lambda x, y, axis: (x - y).mean(axis=axis),
            permutation_type="samples",
            vectorized=True,
            n_resamples=resamples,
            rng=np.random.default_rng(seed),
        ).pvalue
        assert permutation_p(a, b, resamples=resamples, seed=seed)[0] == pytest.approx(expected)
    # the defaults: 9999 arrangements, seed 0
    assert paired_test(a, b).p_value == pytest.approx(
        permutation_p(a, b, resamples=9999, seed=0)[0]
    )


def test_the_permutation_test_is_exact_up_to_its_resamples() -> None:
    a, b = [1.0, 0.8, 0.6], [0.0, 0.1, 0.2]
    assert permutation_p(a, b, resamples=8, seed=0) == (pytest.approx(0.25), True)
    assert permutation_p(a, b, resamples=7, seed=0)[1] is False
    assert paired_test(a, b, resamples=8).exact is True
    assert paired_test(a, b, resamples=7).exact is False
