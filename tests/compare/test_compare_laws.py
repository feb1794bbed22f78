"""Statistical laws of the comparison, on synthetic runs of known effect (seeded).

* two runs of the same agent (no difference): the 95% paired interval covers 0 in about 95%
  of the pairs, and the exact test rejects in at most about 5%;
* a planted difference equal to a run's minimum detectable difference is detected in about
  80% of the pairs (the designed power): the MDD matches a simulation;
* with the trials the noise floor says are needed, the target difference is detected at the
  designed power;
* a planted per-task effect comes out of ``compare_runs`` with its interval and exactly the
  discordant tasks it planted.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import bernoulli_run, records, run_data

from lifebench.compare import compare_runs
from lifebench.compare._stats import paired_interval, paired_test
from lifebench.metrics._noise import noise_floor
from lifebench.metrics._trials import scored_trials

REPLICATES = 300


def _means(run: dict[str, list[float]]) -> list[float]:
    return [math.fsum(v) / len(v) for _, v in sorted(run.items())]


def _probabilities(
    n: int, rng: random.Random, low: float = 0.1, high: float = 0.9
) -> dict[str, float]:
    return {f"t{i:03d}": rng.uniform(low, high) for i in range(n)}


def _band(rate: float, expected: float, replicates: int, sds: float = 3.5) -> bool:
    sd = math.sqrt(expected * (1 - expected) / replicates)
    return abs(rate - expected) <= sds * sd


def test_identical_runs_cover_zero_at_the_stated_rate() -> None:
    rng = random.Random(20260417)
    covered = rejected = 0
    for r in range(REPLICATES):
        p = _probabilities(40, rng)
        a, b = _means(bernoulli_run(p, 3, rng)), _means(bernoulli_run(p, 3, rng))
        low, high = paired_interval(a, b, samples=1000, seed=r, level=0.95)
        covered += low <= 0.0 <= high
        rejected += paired_test(a, b, resamples=199, seed=r).p_value <= 0.05
    assert _band(covered / REPLICATES, 0.95, REPLICATES), covered
    assert rejected / REPLICATES <= 0.05 + 3.5 * math.sqrt(0.05 * 0.95 / REPLICATES), rejected


def test_identical_single_trial_runs_keep_mcnemar_at_its_level() -> None:
    rng = random.Random(7)
    rejected = 0
    for r in range(REPLICATES):
        p = _probabilities(60, rng)
        a, b = _means(bernoulli_run(p, 1, rng)), _means(bernoulli_run(p, 1, rng))
        test = paired_test(a, b, seed=r)
        assert test.test == "mcnemar_exact"
        rejected += test.p_value <= 0.05
    # the exact test is conservative: at most alpha (plus simulation noise)
    assert rejected / REPLICATES <= 0.05 + 3.5 * math.sqrt(0.05 * 0.95 / REPLICATES)


def _power(p: dict[str, float], effect: float, trials: int, rng: random.Random) -> float:
    up = {t: v + effect / 2 for t, v in p.items()}
    down = {t: v - effect / 2 for t, v in p.items()}
    hits = 0
    for r in range(REPLICATES):
        a, b = _means(bernoulli_run(up, trials, rng)), _means(bernoulli_run(down, trials, rng))
        hits += paired_test(a, b, resamples=199, seed=r).p_value <= 0.05
    return hits / REPLICATES


def test_a_difference_of_the_mdd_is_detected_at_the_designed_power() -> None:
    rng = random.Random(11)
    p = _probabilities(60, rng, 0.3, 0.7)
    null_run = bernoulli_run(p, 4, rng)
    floor = noise_floor(scored_trials(records(null_run)))
    assert floor.mdd is not None and 0.05 < floor.mdd < 0.3
    power = _power(p, floor.mdd, 4, rng)
    assert 0.70 <= power <= 0.90, (floor.mdd, power)
    # half the MDD is detected far less often
    assert _power(p, floor.mdd / 2, 4, rng) < 0.5


def test_the_trials_needed_reach_the_target_at_the_designed_power() -> None:
    rng = random.Random(13)
    p = _probabilities(50, rng, 0.3, 0.7)
    floor = noise_floor(scored_trials(records(bernoulli_run(p, 3, rng))), targets=(0.1,))
    k = floor.trials_needed["0.1"]
    assert k is not None and 4 <= k <= 20
    assert 0.70 <= _power(p, 0.1, k, rng) <= 0.92


def test_a_planted_effect_is_reported_with_its_interval_and_discordant_tasks() -> None:
    rng = random.Random(17)
    p = _probabilities(40, rng, 0.6, 0.95)
    base = bernoulli_run(p, 3, rng)
    planted = sorted(p)[::4]  # 10 tasks the second agent always fails
    weaker = {t: ([0.0] * 3 if t in planted else list(v)) for t, v in base.items()}
    runs = [run_data(records(base), name="a"), run_data(records(weaker), name="b")]
    result = compare_runs(runs, ["a", "b"], bootstrap_samples=1000)
    assert result.comparable and result.shared_tasks == 40 and result.k == 3
    pair = result.pairs[0]
    avg = next(m for m in pair.metrics if m.metric == "avg@k")
    effect = math.fsum(math.fsum(base[t]) / 3 for t in planted) / 40
    assert avg.difference == pytest.approx(avg.a - avg.b)
    assert avg.difference == pytest.approx(effect)
    assert avg.ci[0] > 0 and avg.ci[0] <= effect <= avg.ci[1]
    assert avg.significant and avg.p_value < 0.01 and avg.b_better == 0
    solved = {t for t in planted if sum(base[t]) > 0}
    assert {d.task_id for d in pair.discordant} == solved
    assert all(d.better == "a" and d.b_successes == 0 for d in pair.discordant)
    assert (pair.discordant_a, pair.discordant_b) == (len(solved), 0)


def test_runs_that_differ_only_by_seed_show_no_significant_difference() -> None:
    rng = random.Random(19)
    p = _probabilities(50, rng)
    runs = [run_data(records(bernoulli_run(p, 4, rng)), name=n) for n in ("a", "b", "c")]
    result = compare_runs(runs, ["a", "b", "c"], bootstrap_samples=1000)
    assert len(result.pairs) == 3
    for pair in result.pairs:
        for m in pair.metrics:
            assert not m.significant, (pair.a, pair.b, m.metric, m.p_holm)
            assert m.ci[0] <= 0 <= m.ci[1] or m.p_value > 0.01
