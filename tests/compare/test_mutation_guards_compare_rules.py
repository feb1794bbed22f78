"""More rules of ``compare_runs`` pinned by their effect (each test fails when its rule is
deleted; scripts/mutation.sh on compare/_compare.py shows it)."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import config, records, run_data

import lifebench.runner._experiment
import lifebench.runner._regrade
import lifebench.suites
from lifebench.compare import compare_runs
from lifebench.compare._stats import paired_test

TASKS = [f"t{i:02d}" for i in range(12)]


def _pair(a: dict[str, list[float]], b: dict[str, list[float]], **cfg: object) -> list:
    return [
        run_data(records(a), name="a", cfg=config(**cfg)),
        run_data(records(b), name="b", cfg=config(**cfg)),
    ]


def test_one_label_per_run_is_required_and_said() -> None:
    runs = _pair({t: [1.0] for t in TASKS}, {t: [0.0] for t in TASKS})
    with pytest.raises(ValueError, match=r"^one label per run$"):
        compare_runs(runs, ["a"])


def test_a_single_shared_task_is_enough_when_min_shared_is_one() -> None:
    runs = _pair({"t00": [1.0, 1.0]}, {"t00": [0.0, 1.0]})
    result = compare_runs(runs, ["a", "b"], min_shared=1, bootstrap_samples=50)
    assert result.shared_tasks == 1
    avg = next(m for m in result.pairs[0].metrics if m.metric == "avg@k")
    assert (avg.a, avg.b, avg.difference) == (1.0, 0.5, 0.5)


def test_the_default_seed_is_zero() -> None:
    rewards_a = {t: [float(i % 2), float(i % 3 == 0)] for i, t in enumerate(TASKS)}
    rewards_b = {t: [float(i % 4 == 0), 0.0] for i, t in enumerate(TASKS)}
    default = compare_runs(_pair(rewards_a, rewards_b), ["a", "b"], bootstrap_samples=200)
    zero = compare_runs(_pair(rewards_a, rewards_b), ["a", "b"], bootstrap_samples=200, seed=0)
    one = compare_runs(_pair(rewards_a, rewards_b), ["a", "b"], bootstrap_samples=200, seed=1)
    assert default.settings.seed == 0
    ci = [next(m.ci for m in r.pairs[0].metrics if m.metric == "avg@k") for r in (default, zero)]
    assert ci[0] == ci[1]
    assert next(m.ci for m in one.pairs[0].metrics if m.metric == "avg@k") != ci[0]


def test_the_permutation_test_gets_the_seed_and_the_resamples() -> None:
    # 30 tasks with distinct differences of both signs: too many sign patterns for an exact
    # test, so the p-value is a Monte Carlo estimate that depends on the seed and the number
    # of resamples (0.956 with seed 7 and 999 resamples, 0.948 with seed 8 and 499).
    tasks = [f"t{i:02d}" for i in range(30)]
    a = {t: [0.5 + 0.01 * i] for i, t in enumerate(tasks)}
    b = {t: [a[t][0] + (-1) ** i * 0.01 * (i + 1) + 0.004] for i, t in enumerate(tasks)}
    xa = [a[t][0] for t in tasks]
    xb = [b[t][0] for t in tasks]
    for seed, resamples in ((7, 999), (8, 499)):
        expected = paired_test(xa, xb, resamples=resamples, seed=seed)
        assert not expected.exact
        result = compare_runs(
            _pair(a, b), ["a", "b"], bootstrap_samples=50, seed=seed, resamples=resamples
        )
        avg = next(m for m in result.pairs[0].metrics if m.metric == "avg@k")
        assert avg.p_value == expected.p_value
    seeds = {paired_test(xa, xb, resamples=999, seed=s).p_value for s in (0, 7, 8)}
    assert len(seeds) == 3
    assert paired_test(xa, xb, seed=8).p_value != paired_test(xa, xb, resamples=499, seed=8).p_value


def test_a_run_without_an_agent_model_is_named_by_its_agent_kind() -> None:
    runs = _pair({t: [1.0] for t in TASKS}, {t: [0.0] for t in TASKS}, agent_model=None)
    runs[1] = run_data(records({t: [0.0] for t in TASKS}), name="b", cfg=config(agent_model=None))
    result = compare_runs(runs, ["a", "b"], bootstrap_samples=50, allow_mismatch=True)
    assert [s.agent for s in result.runs] == ["llm (no model)", "llm (no model)"]
    oracle = config(agent="oracle", agent_model=None)
    runs = [
        run_data(records({t: [1.0] for t in TASKS}), name="a", cfg=oracle),
        run_data(records({t: [0.0] for t in TASKS}), name="b", cfg=config()),
    ]
    result = compare_runs(runs, ["a", "b"], bootstrap_samples=50, allow_mismatch=True)
    assert [s.agent for s in result.runs] == ["oracle (no model)", "model-a"]


def test_discordant_tasks_come_largest_difference_first_then_by_task() -> None:
    a = {"t1": [1.0, 0.0], "t2": [1.0, 1.0], "t3": [1.0, 1.0], "t4": [0.0, 0.0], "t5": [1.0, 0.0]}
    b = {"t1": [0.0, 0.0], "t2": [0.0, 0.0], "t3": [1.0, 0.0], "t4": [1.0, 1.0], "t5": [1.0, 0.0]}
    result = compare_runs(_pair(a, b), ["a", "b"], min_shared=1, bootstrap_samples=50)
    order = [(d.task_id, d.better) for d in result.pairs[0].discordant]
    assert order == [("t2", "a"), ("t4", "b"), ("t1", "a"), ("t3", "a")]


def test_the_judge_rule_reads_the_runs_grading_log_before_its_configuration() -> None:
    # Configured with the state grader only, then re-graded by a judge (eval --evaluator
    # rubric): the grading log says a judge graded the numbers, so judge variance is not 0 by
    # construction; without the log the configuration decides (no judge).
    judged = {
        "parts": [
            {
                "evaluator": "rubric",
                "judge_model": "judge@http://127.0.0.1:9/v1",
                "bases": ["rubric"],
                "suite_options": {"judge_variant": "sliding", "window": 10},
            }
        ]
    }
    a, b = {t: [1.0, 0.0] for t in TASKS}, {t: [0.0, 0.0] for t in TASKS}
    for grading, variance in ((None, 0.0), (judged, None)):
        runs = [
            run_data(records(a), name="a", grading=grading),
            run_data(records(b), name="b", grading=grading),
        ]
        result = compare_runs(runs, ["a", "b"], bootstrap_samples=50, allow_mismatch=True)
        sources = result.runs[0].noise.sources
        assert sources is not None
        assert sources.component("judge").variance == variance


class _ConfiguredSuite:
    """A suite whose compared metric is named by the run's configuration (``metric``) and
    whose number is None for the tasks the configuration lists under ``missing``."""

    def compared_metrics(self, cfg: Mapping[str, Any]) -> Mapping[str, str]:
        return {cfg["metric"]: "score"}

    def report_metrics(self, recs: Sequence[Any], cfg: Mapping[str, Any]) -> Mapping[str, Any]:
        task = recs[0].task_id
        value = None if task in cfg.get("missing", ()) else sum(r.evaluation.reward for r in recs)
        return {"first": value, "second": value}


def _suite_runs(*cfgs: dict[str, Any]) -> list[Any]:
    rewards = [{t: [1.0] for t in TASKS}, {t: [0.0] for t in TASKS}, {t: [1.0] for t in TASKS}]
    return [
        run_data(records(rewards[i]), name=f"r{i}", cfg=config(**cfg)) for i, cfg in enumerate(cfgs)
    ]


def test_the_suite_metrics_are_those_the_first_runs_configuration_declares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the modules compare imports lazily bind get_suite by name: imported above, before the
    # patch, so that they never keep the fake
    assert lifebench.runner._regrade.get_suite is lifebench.suites.get_suite
    monkeypatch.setattr(lifebench.suites, "get_suite", lambda name: _ConfiguredSuite())
    runs = _suite_runs({"metric": "first"}, {"metric": "second"})
    result = compare_runs(runs, ["a", "b"], bootstrap_samples=50, allow_mismatch=True)
    names = [m.metric for m in result.pairs[0].metrics]
    assert "first" in names
    assert "second" not in names


def test_a_suite_number_missing_in_one_run_leaves_that_task_out_of_that_pair_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert lifebench.runner._experiment.get_suite is lifebench.suites.get_suite
    monkeypatch.setattr(lifebench.suites, "get_suite", lambda name: _ConfiguredSuite())
    # run b has no number on t00 and t01: the pairs with b compare the other 10 tasks; a and
    # c compare all 12
    runs = _suite_runs(
        {"metric": "first"}, {"metric": "first", "missing": ["t00", "t01"]}, {"metric": "first"}
    )
    result = compare_runs(runs, ["a", "b", "c"], bootstrap_samples=50, allow_mismatch=True)
    tasks = {
        (p.a, p.b): next(m.tasks for m in p.metrics if m.metric == "first") for p in result.pairs
    }
    assert tasks == {(0, 1): 10, (0, 2): 12, (1, 2): 10}


def test_a_metric_no_task_of_one_pair_has_is_still_compared_in_the_other_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert lifebench.runner._experiment.get_suite is lifebench.suites.get_suite
    monkeypatch.setattr(lifebench.suites, "get_suite", lambda name: _ConfiguredSuite())
    runs = _suite_runs(
        {"metric": "first"}, {"metric": "first", "missing": TASKS}, {"metric": "first"}
    )
    result = compare_runs(runs, ["a", "b", "c"], bootstrap_samples=50, allow_mismatch=True)
    compared = {(p.a, p.b): [m.metric for m in p.metrics] for p in result.pairs}
    assert "first" not in compared[(0, 1)]
    assert "first" in compared[(0, 2)]
    assert "first: no shared task has a value in both a and b" in result.warnings
