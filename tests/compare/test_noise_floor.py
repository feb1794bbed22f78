"""The noise floor of a run: flip rate, ICC, minimum detectable difference, trials needed."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import rec, records

from lifebench.metrics._noise import (
    anova,
    mdd,
    noise_floor,
    noncentrality,
    pair_disagreement,
    target_key,
    trials_needed,
)
from lifebench.metrics._trials import scored_trials


def test_pair_disagreement() -> None:
    assert pair_disagreement(4, 2) == pytest.approx(2 * 2 * 2 / 12)
    assert pair_disagreement(2, 1) == 1.0
    assert pair_disagreement(3, 0) == 0.0
    assert pair_disagreement(3, 3) == 0.0
    for n, c in ((1, 0), (3, 4), (3, -1)):
        with pytest.raises(ValueError, match=f"^need n >= 2 and 0 <= c <= n, got n={n}, c={c}$"):
            pair_disagreement(n, c)


@given(st.integers(2, 30), st.data())
def test_pair_disagreement_is_the_share_of_disagreeing_pairs(n: int, data: st.DataObject) -> None:
    c = data.draw(st.integers(0, n))
    verdicts = [True] * c + [False] * (n - c)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    share = sum(verdicts[i] != verdicts[j] for i, j in pairs) / len(pairs)
    assert pair_disagreement(n, c) == pytest.approx(share)


def test_anova_by_hand() -> None:
    # groups [1,1,0], [0,0,0]: grand mean 1/3; means 2/3, 0
    msb, msw, n0 = anova([[1, 1, 0], [0, 0, 0]])  # type: ignore[misc]
    assert msb == pytest.approx(3 * (1 / 3) ** 2 * 2 / 1)
    assert msw == pytest.approx((2 * (1 / 3) ** 2 + (2 / 3) ** 2) / 4)
    assert n0 == pytest.approx(3.0)
    # unbalanced: sizes 2 and 4 -> n0 = (6 - 20/6) / 1
    _, _, n0 = anova([[1, 0], [1, 1, 0, 0]])  # type: ignore[misc]
    assert n0 == pytest.approx(6 - 20 / 6)
    assert anova([[1, 0, 1]]) is None
    assert anova([[1], [0]]) is None
    assert anova([[1], [0], []]) is None


def test_noncentrality_matches_the_normal_limit_and_small_samples() -> None:
    assert noncentrality(10**6) == pytest.approx(1.959964 + 0.841621, abs=1e-3)
    # fewer degrees of freedom need a larger shift
    assert noncentrality(9) > noncentrality(29) > noncentrality(99) > 2.80
    assert noncentrality(1) > 10  # t(1) is very heavy-tailed
    assert noncentrality(50, power=0.9) > noncentrality(50, power=0.8)
    assert noncentrality(50, alpha=0.01) > noncentrality(50, alpha=0.05)
    with pytest.raises(ValueError, match=r"^need df >= 1, got 0$"):
        noncentrality(0)
    for alpha, power in ((0.0, 0.8), (1.0, 0.8), (0.05, 0.0), (0.05, 1.0)):
        with pytest.raises(ValueError, match=r"^alpha and power must be in \(0, 1\)$"):
            noncentrality(10, alpha=alpha, power=power)


def test_mdd_formula() -> None:
    lam = noncentrality(99)
    assert mdd(100, 4, 0.2) == pytest.approx(lam * math.sqrt(2 * 0.2 / 400))
    assert mdd(100, 4, 0.0) == 0.0
    assert mdd(100, 16, 0.2) == pytest.approx(mdd(100, 4, 0.2) / 2)
    for args in ((1, 4, 0.2), (100, 0, 0.2), (100, 4, -0.1)):
        with pytest.raises(
            ValueError, match=r"^need n_tasks >= 2, trials > 0 and a variance >= 0$"
        ):
            mdd(*args)


def test_trials_needed_is_the_fewest_that_reach_the_target() -> None:
    k = trials_needed(100, 0.2, 0.05)
    assert mdd(100, k, 0.2) <= 0.05 < mdd(100, k - 1, 0.2)
    assert trials_needed(100, 0.2, 1.0) == 1
    assert trials_needed(100, 0.0, 0.01) == 1
    with pytest.raises(ValueError, match=r"^the target difference must be > 0, got 0\.0$"):
        trials_needed(100, 0.2, 0.0)
    for args in ((1, 0.2, 0.05), (10, -0.1, 0.05)):
        with pytest.raises(ValueError, match=r"^need n_tasks >= 2 and a variance >= 0$"):
            trials_needed(*args)


@given(st.integers(2, 300), st.floats(0.001, 0.25), st.floats(0.005, 0.5))
def test_trials_needed_law(n: int, variance: float, target: float) -> None:
    k = trials_needed(n, variance, target)
    assert mdd(n, k, variance) <= target + 1e-12
    if k > 1:
        assert mdd(n, k - 1, variance) > target


def test_noise_floor_of_a_known_run() -> None:
    # task A: 1,1,0,0 (c=2, disagreement 2/3); B: 1,1,1,1 (0); C: 1,0,0,0 (1/2)
    rewards = {"A": [1.0, 1.0, 0.0, 0.0], "B": [1.0] * 4, "C": [1.0, 0.0, 0.0, 0.0]}
    floor = noise_floor(scored_trials(records(rewards)), targets=(0.1, 0.5))
    assert floor.tasks == 3 and floor.tasks_repeated == 3
    assert floor.trials_per_task == pytest.approx(4.0)
    assert floor.flip_rate == pytest.approx((2 / 3 + 0 + 1 / 2) / 3)
    assert floor.tasks_flipping == pytest.approx(2 / 3)
    msb, msw, n0 = anova(list(rewards.values()))  # type: ignore[misc]
    assert floor.within_task_variance == pytest.approx(msw)
    assert floor.between_task_variance == pytest.approx(max(0.0, (msb - msw) / n0))
    assert floor.icc == pytest.approx((msb - msw) / (msb + (n0 - 1) * msw))
    assert floor.mdd == pytest.approx(mdd(3, 4, msw))
    assert floor.trials_needed == {
        "0.1": trials_needed(3, msw, 0.1),
        "0.5": trials_needed(3, msw, 0.5),
    }
    assert floor.notes == []
    assert floor.sources is not None and floor.sources.tasks == 3


def test_uneven_trials_use_the_harmonic_mean() -> None:
    rewards = {"A": [1.0, 0.0], "B": [1.0, 0.0, 1.0, 1.0], "C": [0.0]}
    floor = noise_floor(scored_trials(records(rewards)))
    assert floor.trials_per_task == pytest.approx(3 / (1 / 2 + 1 / 4 + 1))
    assert floor.tasks_repeated == 2
    assert floor.flip_rate == pytest.approx((1.0 + 0.5) / 2)
    assert floor.mdd == pytest.approx(mdd(3, 3 / (1 / 2 + 1 / 4 + 1), floor.within_task_variance))  # type: ignore[arg-type]
    assert any("single scored trial" in n for n in floor.notes)


def test_one_trial_per_task_has_no_noise_floor() -> None:
    floor = noise_floor(scored_trials(records({"A": [1.0], "B": [0.0]})))
    assert floor.mdd is None and floor.icc is None and floor.flip_rate is None
    assert floor.trials_needed == {"0.02": None, "0.05": None, "0.1": None}
    assert any("--trials 2" in n for n in floor.notes)


def test_trials_that_always_agree() -> None:
    floor = noise_floor(scored_trials(records({"A": [1.0, 1.0], "B": [0.0, 0.0]})))
    assert floor.within_task_variance == 0.0 and floor.mdd == 0.0 and floor.flip_rate == 0.0
    assert floor.icc == pytest.approx(1.0)
    assert any("no trial noise" in n for n in floor.notes)
    same = noise_floor(scored_trials(records({"A": [1.0, 1.0], "B": [1.0, 1.0]})))
    assert same.icc is None  # no variance at all: undefined


def test_no_scored_trial() -> None:
    floor = noise_floor({})
    assert floor.tasks == 0 and floor.sources is None and floor.trials_per_task is None


def test_only_scored_trials_count() -> None:
    rows = [
        rec("A", 0, 1.0),
        rec("A", 1, 0.0),
        rec("A", 2, 1.0, status="infra_error"),
        rec("B", 0, 1.0),
        rec("B", 1, 1.0),
    ]
    trials = scored_trials(rows)
    assert [t.trial for t in trials["A"]] == [0, 1]
    floor = noise_floor(trials)
    assert floor.flip_rate == pytest.approx(0.5)


def test_target_key() -> None:
    assert target_key(0.05) == "0.05"
    assert target_key(0.1) == "0.1"


def test_the_notes_are_exact() -> None:
    assert noise_floor(scored_trials(records({"A": [1.0], "B": [0.0]}))).notes == [
        "the noise floor needs two or more tasks and two or more trials of some task "
        "(--trials 2 or more)"
    ]
    assert noise_floor(scored_trials(records({"A": [1.0, 1.0], "B": [0.0]}))).notes == [
        "the trials of every task agree: no trial noise was measured, so any difference "
        "between agents that shows in these tasks is detectable",
        "1 task(s) have a single scored trial and add no information about trial noise",
    ]


def test_tasks_that_do_not_differ_have_no_task_variance() -> None:
    # A and B have the same mean: MSB = 0 < MSW = 0.5
    floor = noise_floor(scored_trials(records({"A": [1.0, 0.0], "B": [0.0, 1.0]})))
    assert floor.between_task_variance == 0.0
    assert floor.icc == pytest.approx(-1.0)
    assert floor.flip_rate == 1.0 and floor.tasks_flipping == 1.0


def test_records_in_any_order() -> None:
    rows = list(reversed(records({"A": [1.0, 0.0, 1.0], "B": [0.0, 1.0]})))
    trials = scored_trials(rows)
    assert list(trials) == ["A", "B"]
    assert [t.trial for t in trials["A"]] == [0, 1, 2]
    assert [t.reward for t in trials["A"]] == [1.0, 0.0, 1.0]


def test_without_scipy_the_stdlib_figures_stay_and_the_note_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rewards = {"A": [1.0, 1.0, 0.0, 0.0], "B": [1.0] * 4, "C": [1.0, 0.0, 0.0, 0.0]}
    full = noise_floor(scored_trials(records(rewards)), targets=(0.1, 0.5))
    monkeypatch.setitem(sys.modules, "scipy", None)  # import scipy fails, as without the extra
    bare = noise_floor(scored_trials(records(rewards)), targets=(0.1, 0.5))
    assert bare.mdd is None and bare.trials_needed == {"0.1": None, "0.5": None}
    assert bare.notes == [
        "the minimum detectable difference and the trials needed are left out: they need the "
        "stats extra (scipy): pip install 'lifebench[stats]'"
    ]
    same = {"mdd", "trials_needed", "notes"}
    assert bare.model_dump(exclude=same) == full.model_dump(exclude=same)
    assert full.mdd is not None and bare.flip_rate is not None and bare.icc is not None
