"""Every number of one small paired comparison, pinned: means, differences, the bootstrap
interval and the p-values (scipy references with the same seeds), Holm, the discordant tasks
with their viewer links, the settings (scripts/mutation.sh)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binomtest, bootstrap, permutation_test

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import records, run_data

from lifebench.compare import compare_runs

TASKS = [f"t{i:02d}" for i in range(10)]
# a: tasks 0-6 always succeed, 7-9 once in two; b: 0-3 never, 4-6 once, 7-9 always
A = {t: [1.0, 1.0] if i < 7 else [0.0, 1.0] for i, t in enumerate(TASKS)}
B = {t: [0.0, 0.0] if i < 4 else [1.0, 0.0] if i < 7 else [1.0, 1.0] for i, t in enumerate(TASKS)}


def _ci(diffs: list[float], samples: int, seed: int) -> tuple[float, float]:
    result = bootstrap(
        (np.array(diffs),),
        np.mean,
        n_resamples=samples,
        confidence_level=0.95,
        method="percentile",
        vectorized=True,
        rng=np.random.default_rng(seed),
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def _permutation(diffs: list[float]) -> float:
    x = np.array([d for d in diffs if d != 0])
    result = permutation_test(
        (x, np.zeros_like(x)),
        lambda u, v, axis: (u - v).mean(axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=9999,
        rng=np.random.default_rng(5),
    )
    return float(result.pvalue)


def test_every_number_of_a_small_comparison() -> None:
    runs = [run_data(records(A), name="a"), run_data(records(B), name="b")]
    result = compare_runs(runs, ["a", "b"], bootstrap_samples=300, seed=5)
    assert (result.shared_tasks, result.k, result.comparable, result.warnings) == (
        10,
        2,
        True,
        [],
    )
    avg, pass1, pass2 = result.pairs[0].metrics
    # per-task avg@k differences: 1 (x4), 0.5 (x3), -0.5 (x3)
    avg_diffs = [1.0] * 4 + [0.5] * 3 + [-0.5] * 3
    assert (avg.metric, avg.kind, avg.scale, avg.tasks) == ("avg@k", "score", "fraction", 10)
    assert (avg.a, avg.b, avg.difference) == pytest.approx((0.85, 0.45, 0.4))
    assert avg.ci == pytest.approx(_ci(avg_diffs, 300, 5))
    assert (avg.test, avg.exact) == ("permutation", True)  # 2**10 arrangements <= 9999
    assert avg.p_value == pytest.approx(_permutation(avg_diffs))
    assert (avg.a_better, avg.b_better, avg.ties) == (7, 3, 0)
    assert pass1.difference == pytest.approx(0.4) and pass1.test == "permutation"
    # pass^2: a succeeds twice on 0-6, b on 7-9 — 7 discordant for a, 3 for b
    assert (pass2.a, pass2.b, pass2.difference) == pytest.approx((0.7, 0.3, 0.4))
    assert (pass2.test, pass2.exact, pass2.kind) == ("mcnemar_exact", True, "success")
    assert pass2.p_value == pytest.approx(binomtest(7, 10, 0.5).pvalue)
    assert pass2.ci == pytest.approx(_ci([1.0] * 7 + [-1.0] * 3, 300, 5))
    for m in (avg, pass1, pass2):  # one pair: Holm changes nothing
        assert m.p_holm == m.p_value and m.significant is (m.p_value <= 0.05)
    pair = result.pairs[0]
    assert (pair.a, pair.b, pair.discordant_total, pair.discordant_a, pair.discordant_b) == (
        0,
        1,
        10,
        7,
        3,
    )
    rows = [
        (d.task_id, d.better, d.a_successes, d.b_successes, d.a_trial, d.b_trial, d.viewer)
        for d in pair.discordant
    ]
    # largest difference of success rate first (1.0: tasks 0-3), then by task id
    assert rows[:4] == [
        (f"t0{i}", "a", 2, 0, 0, 0, f"/compare?task=t0{i}&a=0&b=1&ta=0&tb=0") for i in range(4)
    ]
    assert rows[4:] == [
        ("t04", "a", 2, 1, 0, 1, "/compare?task=t04&a=0&b=1&ta=0&tb=1"),
        ("t05", "a", 2, 1, 0, 1, "/compare?task=t05&a=0&b=1&ta=0&tb=1"),
        ("t06", "a", 2, 1, 0, 1, "/compare?task=t06&a=0&b=1&ta=0&tb=1"),
        ("t07", "b", 1, 2, 0, 0, "/compare?task=t07&a=0&b=1&ta=0&tb=0"),
        ("t08", "b", 1, 2, 0, 0, "/compare?task=t08&a=0&b=1&ta=0&tb=0"),
        ("t09", "b", 1, 2, 0, 0, "/compare?task=t09&a=0&b=1&ta=0&tb=0"),
    ]
    assert all((d.a_trials, d.b_trials) == (2, 2) for d in pair.discordant)
    s = result.settings
    assert (s.level, s.bootstrap_samples, s.seed, s.permutation_resamples, s.alpha) == (
        0.95,
        300,
        5,
        9999,
        0.05,
    )
    assert (s.correction, s.min_shared) == ("holm over the pairs of each metric", 10)
    sides = [(r.index, r.label, r.tasks, r.not_shared, r.noise.tasks) for r in result.runs]
    assert sides == [(0, "a", 10, 0, 10), (1, "b", 10, 0, 10)]


def test_three_runs_are_holm_corrected_per_metric() -> None:
    c = {t: [1.0, 1.0] for t in TASKS}
    runs = [
        run_data(records(A), name="a"),
        run_data(records(B), name="b"),
        run_data(records(c), name="c"),
    ]
    result = compare_runs(runs, ["a", "b", "c"], bootstrap_samples=100, seed=5)
    assert [(p.a, p.b) for p in result.pairs] == [(0, 1), (0, 2), (1, 2)]
    p = [pair.metrics[2].p_value for pair in result.pairs]  # pass^2: McNemar
    assert p == pytest.approx(
        [binomtest(7, 10, 0.5).pvalue, binomtest(0, 3, 0.5).pvalue, binomtest(0, 7, 0.5).pvalue]
    )
    order = sorted(range(3), key=lambda i: p[i])
    expected = [0.0] * 3
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (3 - rank) * p[i]))
        expected[i] = running
    assert [pair.metrics[2].p_holm for pair in result.pairs] == pytest.approx(expected)
    assert [pair.metrics[2].significant for pair in result.pairs] == [e <= 0.05 for e in expected]
