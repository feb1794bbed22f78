"""The intervals compute_metrics reports: per-task columns, 95%, the seed and sample count."""

from __future__ import annotations

import pytest
from metrics_fakes import Rec, done

from lifebench.metrics import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    bootstrap_ci,
    compute_metrics,
    pass_at_k,
    pass_hat_k,
)

# three tasks, three trials each: successes 3, 1, 0 and one partial reward
REWARDS = {"a": [1.0, 1.0, 1.0], "b": [1.0, 0.0, 0.5], "c": [0.0, 0.0, 0.0], "d": [1.0, 1.0, 0.0]}


def _records() -> list[Rec]:
    return [done(t, i, r) for t, rs in REWARDS.items() for i, r in enumerate(rs)]


def _columns() -> dict[str, list[float]]:
    successes = {t: sum(r == 1.0 for r in rs) for t, rs in REWARDS.items()}
    columns = {"avg": [sum(rs) / 3 for rs in REWARDS.values()]}
    for k in (1, 2, 3):
        columns[f"hat{k}"] = [pass_hat_k(3, successes[t], k) for t in REWARDS]
        columns[f"at{k}"] = [pass_at_k(3, successes[t], k) for t in REWARDS]
    return columns


def test_intervals_are_95_percent_bootstraps_of_the_per_task_values() -> None:
    m = compute_metrics(_records(), bootstrap_samples=300, seed=9)
    expected = bootstrap_ci(_columns(), samples=300, seed=9, level=0.95)
    for k in ("1", "2", "3"):
        assert m.ci95["avg_at_k"][k] == pytest.approx(expected["avg"])
        assert m.ci95["pass_hat_k"][k] == pytest.approx(expected[f"hat{k}"])
        assert m.ci95["pass_at_k"][k] == pytest.approx(expected[f"at{k}"])
    assert (m.bootstrap.samples, m.bootstrap.seed, m.bootstrap.level) == (300, 9, 0.95)
    # and not a 90% interval
    narrower = bootstrap_ci(_columns(), samples=300, seed=9, level=0.9)
    assert m.ci95["pass_hat_k"]["1"] != pytest.approx(narrower["hat1"])


def test_the_seed_and_the_sample_count_change_the_intervals() -> None:
    records = _records()
    base = compute_metrics(records, bootstrap_samples=300, seed=9)
    assert compute_metrics(records, bootstrap_samples=300, seed=9) == base
    other_seed = compute_metrics(records, bootstrap_samples=300, seed=10)
    other_count = compute_metrics(records, bootstrap_samples=301, seed=9)
    assert other_seed.ci95 != base.ci95 and other_seed.bootstrap.seed == 10
    assert other_count.ci95 != base.ci95 and other_count.bootstrap.samples == 301
    # the point estimates do not depend on the bootstrap
    assert other_seed.pass_hat_k == base.pass_hat_k == other_count.pass_hat_k


def test_defaults() -> None:
    assert (DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_BOOTSTRAP_SEED) == (1000, 0)
    m = compute_metrics(_records())
    assert (m.bootstrap.samples, m.bootstrap.seed) == (1000, 0)
    assert m.ci95 == compute_metrics(_records(), bootstrap_samples=1000, seed=0).ci95
    expected = bootstrap_ci(_columns(), samples=1000, seed=0, level=0.95)
    assert m.ci95["pass_at_k"]["2"] == pytest.approx(expected["at2"])
