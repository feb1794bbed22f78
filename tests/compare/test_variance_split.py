"""Where the variance comes from: the nested variance-components estimates."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import rec, records

from lifebench.metrics._compute import compute_metrics
from lifebench.metrics._trials import scored_trials
from lifebench.metrics._variance import variance_split


def _simulated(
    tasks: int, agents: int, seeds: int, gradings: int, sd: dict[str, float], rng: random.Random
) -> list:
    out = []
    for i in range(tasks):
        task = rng.gauss(0, sd["task"])
        for a in range(agents):
            agent = rng.gauss(0, sd["agent"])
            for s in range(seeds):
                user = rng.gauss(0, sd["user"])
                ys = [
                    0.5 + task + agent + user + rng.gauss(0, sd["judge"]) for _ in range(gradings)
                ]
                out.append(rec(f"t{i}", s * agents + a, ys[0], replay=(a, s), extra=ys[1:]))
    return out


def test_known_components_are_recovered() -> None:
    sd = {"task": 0.3, "agent": 0.2, "user": 0.15, "judge": 0.1}
    rows = _simulated(400, 3, 3, 3, sd, random.Random(7))
    split = variance_split(scored_trials(rows))
    for name in ("task", "agent", "user", "judge"):
        c = split.component(name)  # type: ignore[arg-type]
        assert c.variance == pytest.approx(sd[name] ** 2, rel=0.2), name
        assert c.includes == []
    within = 0.2**2 + 0.15**2 + 0.1**2
    assert split.component("judge").share == pytest.approx(0.1**2 / within, rel=0.25)
    total = sum(split.component(n).share or 0 for n in ("agent", "user", "judge"))  # type: ignore[arg-type]
    assert total == pytest.approx(1.0)
    assert split.within_task == pytest.approx(within, rel=0.15)
    assert (split.agent_trials, split.user_seeds, split.gradings) == (3.0, 3.0, 3.0)
    assert split.notes == []


def test_unvaried_levels_stay_inside_the_level_above() -> None:
    sd = {"task": 0.3, "agent": 0.2, "user": 0.15, "judge": 0.1}
    rows = _simulated(300, 4, 1, 1, sd, random.Random(3))
    split = variance_split(scored_trials(rows))
    agent = split.component("agent")
    assert agent.includes == ["user", "judge"]
    assert agent.variance == pytest.approx(0.2**2 + 0.15**2 + 0.1**2, rel=0.2)
    assert split.component("user").variance is None
    assert split.component("judge").variance is None
    assert agent.share == 1.0
    assert any("--user-seeds" in n for n in split.notes)
    assert any("--rejudge" in n and "agent" in n for n in split.notes)


def test_judge_measured_without_user_seeds() -> None:
    sd = {"task": 0.3, "agent": 0.2, "user": 0.15, "judge": 0.1}
    rows = _simulated(300, 3, 1, 4, sd, random.Random(5))
    split = variance_split(scored_trials(rows))
    assert split.component("agent").includes == ["user"]
    assert split.component("agent").variance == pytest.approx(0.2**2 + 0.15**2, rel=0.2)
    assert split.component("judge").variance == pytest.approx(0.01, rel=0.2)


def test_user_seeds_without_rejudge_hold_the_judge_in_the_user_part() -> None:
    sd = {"task": 0.3, "agent": 0.2, "user": 0.15, "judge": 0.1}
    rows = _simulated(300, 3, 3, 1, sd, random.Random(9))
    split = variance_split(scored_trials(rows))
    assert split.component("user").includes == ["judge"]
    assert split.component("user").variance == pytest.approx(0.15**2 + 0.1**2, rel=0.2)
    assert split.component("agent").variance == pytest.approx(0.04, rel=0.2)


def test_exact_small_case() -> None:
    # one task, agent trials 0 and 1 (one user seed each), each graded twice:
    # gradings A0 (1, 0), A1 (1, 1), B0 (0, 0), B1 (0, 0): judge = pooled (0.5 + 0 + 0 + 0) / 4
    rows = [
        rec("A", 0, 1.0, replay=(0, 0), extra=[0.0]),
        rec("A", 1, 1.0, replay=(1, 0), extra=[1.0]),
        rec("B", 0, 0.0, replay=(0, 0), extra=[0.0]),
        rec("B", 1, 0.0, replay=(1, 0), extra=[0.0]),
    ]
    split = variance_split(scored_trials(rows))
    assert split.component("judge").variance == pytest.approx(0.125)
    # agent means: A 0.5, 1 -> var 0.125; B 0, 0 -> 0: pooled 0.0625; minus judge/J = 0.125/2
    assert split.component("agent").variance == pytest.approx(0.0)
    assert split.component("judge").groups == 4


def test_negative_estimates_are_reported_as_zero() -> None:
    # every trajectory's gradings disagree the same way, agent means agree exactly
    rows = [
        rec("A", 0, 1.0, extra=[0.0]),
        rec("A", 1, 0.0, extra=[1.0]),
        rec("B", 0, 1.0, extra=[0.0]),
        rec("B", 1, 0.0, extra=[1.0]),
    ]
    split = variance_split(scored_trials(rows))
    assert split.component("judge").variance == pytest.approx(0.5)
    assert split.component("agent").variance == 0.0
    assert any("agent estimate was negative" in n for n in split.notes)
    assert split.component("judge").share == 1.0


def test_failed_extra_gradings_are_left_out() -> None:
    rows = [rec("A", 0, 1.0, extra=[None, 0.0]), rec("A", 1, 1.0, extra=[None])]
    trials = scored_trials(rows)
    assert trials["A"][0].gradings == (1.0, 0.0)
    assert trials["A"][1].gradings == (1.0,)
    split = variance_split(trials)
    assert split.component("judge").groups == 1
    assert split.component("judge").variance == pytest.approx(0.5)


def test_no_variance_at_all() -> None:
    split = variance_split(scored_trials(records({"A": [1.0, 1.0], "B": [1.0, 1.0]})))
    assert split.within_task == 0.0
    assert all(c.share is None for c in split.components)
    assert any("every trial and grading" in n for n in split.notes)


def test_single_trial_runs() -> None:
    split = variance_split(scored_trials(records({"A": [1.0], "B": [0.0]})))
    assert split.component("agent").variance is None
    assert split.within_task is None
    assert split.component("task").variance == pytest.approx(0.5)
    assert any("one agent trial" in n for n in split.notes)
    assert variance_split({}).tasks == 0


@given(
    st.dictionaries(
        st.sampled_from(["a", "b", "c", "d"]),
        st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=5),
        min_size=1,
    )
)
def test_scored_trials_are_what_the_metrics_score(rewards: dict[str, list[float]]) -> None:
    rows = records(rewards)
    rows.append(rec("e", 0, 1.0, status="pending"))
    trials = scored_trials(rows)
    metrics = compute_metrics(rows, bootstrap_samples=1)
    scored = {t.task_id: t for t in metrics.tasks if t.n_trials}
    assert set(trials) == set(scored)
    for task, row in scored.items():
        assert [t.reward for t in trials[task]] == row.rewards
        assert sum(t.success for t in trials[task]) == row.n_successes


def test_the_notes_say_exactly_what_was_not_measured() -> None:
    assert variance_split({}).notes == ["no scored trial: nothing to split"]
    single = variance_split(scored_trials(records({"A": [1.0], "B": [0.0]})))
    assert single.notes == [
        "one user-simulator seed per agent trial: user-simulator variance is inside the agent "
        "estimate (run with --user-seeds S to separate it)",
        "one grading per trajectory: judge variance is inside the agent estimate (lifebench "
        "eval --rejudge K to separate it)",
        "one agent trial per task: agent variance is not measured (use --trials)",
    ]
    rows = [
        rec("A", 0, 1.0, replay=(0, 0)),
        rec("A", 1, 0.0, replay=(0, 1)),
        rec("B", 0, 1.0, replay=(0, 0)),
        rec("B", 1, 1.0, replay=(0, 1)),
    ]
    seeds = variance_split(scored_trials(rows))
    assert seeds.notes == [
        "one grading per trajectory: judge variance is inside the user-simulator estimate "
        "(lifebench eval --rejudge K to separate it)",
        "one agent trial per task: agent variance is not measured (use --trials)",
    ]
    assert seeds.component("user").variance == pytest.approx(0.25)
    assert seeds.component("user").includes == ["judge"]
    negative = variance_split(
        scored_trials(
            [
                rec("A", 0, 1.0, extra=[0.0]),
                rec("A", 1, 0.0, extra=[1.0]),
                rec("B", 0, 1.0, extra=[0.0]),
                rec("B", 1, 0.0, extra=[1.0]),
            ]
        )
    )
    assert negative.notes[0] == "the agent estimate was negative (-0.25) and is reported as 0"
    flat = variance_split(scored_trials(records({"A": [1.0, 1.0], "B": [1.0, 1.0]})))
    assert flat.notes[-1] == "no within-task variance: every trial and grading of a task agrees"


def test_unequal_designs_use_the_exact_coefficients() -> None:
    # A: agent trial 0 with user seeds graded once (1) and twice (1, 1); agent trial 1 graded
    #    three times (0, 0, 1).  B: two agent trials graded three times (0, 0, 0) each.
    rows = [
        rec("A", 0, 1.0, replay=(0, 0)),
        rec("A", 2, 1.0, replay=(0, 1), extra=[1.0]),
        rec("A", 1, 0.0, replay=(1, 0), extra=[0.0, 1.0]),
        rec("B", 0, 0.0, replay=(0, 0), extra=[0.0, 0.0]),
        rec("B", 1, 0.0, replay=(1, 0), extra=[0.0, 0.0]),
    ]
    split = variance_split(scored_trials(rows))
    # judge: SS 0 (df 1) + 2/3 (df 2) + 0 (df 2) + 0 (df 2) -> 2/3 over 7
    judge = 2 / 21
    assert split.component("judge").variance == pytest.approx(judge)
    # user: one cell (A, 0), means 1 and 1: 0 - mean(1/1, 1/2) * judge < 0 -> reported as 0
    assert split.component("user").variance == 0.0
    assert split.notes == [
        f"the user-simulator estimate was negative ({-0.75 * judge:.3g}) and is reported as 0"
    ]
    # agent: A means 1 and 1/3 (var 2/9), B 0 and 0 -> pooled 1/9; less the judge's part with
    # coefficients A: mean((1 + 1/2) / 2**2, (1/3) / 1**2), B: mean(1/3, 1/3)
    coef = (((1 + 1 / 2) / 4 + 1 / 3) / 2 + 1 / 3) / 2
    assert split.component("agent").variance == pytest.approx(1 / 9 - coef * judge)
    assert split.agent_trials == 2.0 and split.user_seeds == pytest.approx(5 / 4)
    assert split.gradings == pytest.approx((1 + 2 + 3 + 3 + 3) / 5)
    within = 1 / 9 - coef * judge + judge
    assert split.within_task == pytest.approx(within)
    assert split.component("judge").share == pytest.approx(judge / within)


def test_one_task_has_no_task_variance() -> None:
    split = variance_split(scored_trials(records({"A": [1.0, 0.0, 1.0]})))
    assert split.component("task").variance is None
    assert split.component("task").groups == 1
    assert split.component("agent").variance == pytest.approx(1 / 3)
