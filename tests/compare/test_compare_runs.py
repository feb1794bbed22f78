"""``compare_runs``: what it refuses, what it computes, and how it marks allowed mismatches."""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import config, rec, records, run_data

import lifebench.suites
from lifebench.compare import ComparisonError, compare_runs
from lifebench.compare._stats import holm, mcnemar_exact

TASKS = [f"t{i:02d}" for i in range(12)]


def _run(name: str, rewards: Mapping[str, Sequence[float]], **kw: Any) -> Any:
    return run_data(records(rewards), name=name, **kw)


def test_needs_two_runs_and_labels() -> None:
    run = _run("a", {t: [1.0] for t in TASKS})
    with pytest.raises(ComparisonError, match="at least two"):
        compare_runs([run], ["a"])
    with pytest.raises(ValueError, match="one label"):
        compare_runs([run, run], ["a"])


def test_refuses_incomparable_runs_naming_every_difference() -> None:
    a = _run("a", {t: [1.0] for t in TASKS})
    b = _run("b", {t: [1.0] for t in TASKS}, cfg=config(judge_model="j@http://x/v1", language="zh"))
    with pytest.raises(ComparisonError) as info:
        compare_runs([a, b], ["a", "b"])
    text = str(info.value)
    assert "  - a vs b: judge: none vs j\n" in text
    assert '  - a vs b: --language: "en" vs "zh"\n' in text
    assert "--allow-mismatch" in text
    result = compare_runs([a, b], ["a", "b"], allow_mismatch=True)
    assert result.comparable is False
    assert [(m.aspect, m.a, m.b) for m in result.mismatches] == [
        ("judge", "a", "b"),
        ("option", "a", "b"),
    ]
    assert result.warnings[0].startswith("NOT COMPARABLE: 2 mismatch(es)")


def test_refuses_too_few_shared_tasks() -> None:
    a = _run("a", {t: [1.0] for t in TASKS[:8]})
    b = _run("b", {t: [1.0] for t in TASKS[4:]})
    with pytest.raises(
        ComparisonError, match=r"share 4 scored task\(s\) \(a: 8, b: 8.*at least 10"
    ):
        compare_runs([a, b], ["a", "b"])
    result = compare_runs([a, b], ["a", "b"], min_shared=4)
    assert result.shared_tasks == 4
    assert result.warnings == [
        "a: 4 scored task(s) not shared by every run are left out",
        "b: 4 scored task(s) not shared by every run are left out",
    ]
    assert [r.not_shared for r in result.runs] == [4, 4]
    with pytest.raises(ComparisonError, match="at least 1 are needed"):
        compare_runs([_run("a", {"x": [1.0]}), _run("b", {"y": [1.0]})], ["a", "b"], min_shared=0)


def test_values_differences_and_tests_of_one_pair() -> None:
    a = {t: [1.0, 1.0] if i < 8 else [0.0, 1.0] for i, t in enumerate(TASKS)}
    b = {t: [1.0, 0.0] if i < 3 else [1.0, 1.0] for i, t in enumerate(TASKS)}
    result = compare_runs([_run("a", a), _run("b", b)], ["a", "b"])
    assert result.k == 2 and result.shared_tasks == 12
    pair = result.pairs[0]
    assert [m.metric for m in pair.metrics] == ["avg@k", "pass^1", "pass^2"]
    avg, hat1, hat2 = pair.metrics
    assert avg.a == pytest.approx((8 + 4 * 0.5) / 12) and avg.b == pytest.approx((3 * 0.5 + 9) / 12)
    assert avg.difference == pytest.approx(avg.a - avg.b)
    assert (avg.kind, avg.scale, avg.tasks) == ("score", "fraction", 12)
    assert (avg.a_better, avg.b_better, avg.ties) == (3, 4, 5)
    assert avg.test == "permutation" and avg.exact
    assert hat1.a == avg.a and hat1.kind == "success"
    # pass^2 per task is 0/1: McNemar on tasks won (a: t00-t02, b: t08-t11)
    assert hat2.test == "mcnemar_exact"
    assert (hat2.a_better, hat2.b_better) == (3, 4)
    assert hat2.p_value == pytest.approx(mcnemar_exact(3, 4))
    assert hat2.p_holm == hat2.p_value  # one pair: nothing to correct
    assert not hat2.significant
    assert avg.ci[0] <= avg.difference <= avg.ci[1]
    # discordant tasks: success rates differ (t00-t02: 2/2 vs 1/2; t08-t11: 1/2 vs 2/2)
    got = [(d.task_id, d.better, d.a_successes, d.b_successes) for d in pair.discordant]
    assert got == [
        ("t00", "a", 2, 1),
        ("t01", "a", 2, 1),
        ("t02", "a", 2, 1),
        ("t08", "b", 1, 2),
        ("t09", "b", 1, 2),
        ("t10", "b", 1, 2),
        ("t11", "b", 1, 2),
    ]
    first = pair.discordant[0]
    assert (first.a_trial, first.b_trial) == (0, 1)  # a success of a, the failure of b
    assert first.viewer == "/compare?task=t00&a=0&b=1&ta=0&tb=1"
    eighth = pair.discordant[3]
    assert (eighth.a_trial, eighth.b_trial) == (0, 0)  # a failed trial 0, b succeeded trial 0


def test_discordant_tasks_put_the_largest_difference_first() -> None:
    a = {"x": [1.0, 1.0], "y": [1.0, 0.0], **{t: [1.0, 1.0] for t in TASKS}}
    b = {"x": [1.0, 0.0], "y": [0.0, 0.0], **{t: [1.0, 1.0] for t in TASKS}}
    pair = compare_runs([_run("a", a), _run("b", b)], ["a", "b"]).pairs[0]
    assert [d.task_id for d in pair.discordant] == ["x", "y"]
    b["x"] = [0.0, 0.0]
    pair = compare_runs([_run("a", a), _run("b", b)], ["a", "b"]).pairs[0]
    assert [d.task_id for d in pair.discordant] == ["x", "y"]  # tie on size: by id
    b["y"] = [0.0, 0.0]
    a["y"] = [1.0, 0.0]
    b["x"] = [1.0, 0.0]
    pair = compare_runs([_run("a", a), _run("b", b)], ["a", "b"]).pairs[0]
    assert [d.task_id for d in pair.discordant] == ["x", "y"]


def test_holm_over_the_pairs_of_three_runs() -> None:
    good = {t: [1.0] for t in TASKS}
    bad = {t: [0.0] if i < 9 else [1.0] for i, t in enumerate(TASKS)}
    mid = {t: [0.0] if i < 4 else [1.0] for i, t in enumerate(TASKS)}
    result = compare_runs([_run("g", good), _run("b", bad), _run("m", mid)], ["g", "b", "m"])
    assert [(p.a, p.b) for p in result.pairs] == [(0, 1), (0, 2), (1, 2)]
    raw = [p.metrics[0].p_value for p in result.pairs]
    assert raw == pytest.approx([mcnemar_exact(9, 0), mcnemar_exact(4, 0), mcnemar_exact(0, 5)])
    assert [p.metrics[0].p_holm for p in result.pairs] == pytest.approx(holm(raw))
    assert [p.metrics[0].significant for p in result.pairs] == [h <= 0.05 for h in holm(raw)]
    assert result.pairs[0].metrics[0].significant
    assert not result.pairs[1].metrics[0].significant  # 0.125 * 2 after correction
    assert result.settings.correction.startswith("holm")


def test_k_is_the_fewest_trials_of_a_shared_task() -> None:
    a = {t: [1.0, 1.0, 1.0] for t in TASKS}
    b = {t: [1.0, 1.0, 1.0, 1.0] for t in TASKS}
    b[TASKS[3]] = [1.0, 0.0]
    result = compare_runs([_run("a", a), _run("b", b)], ["a", "b"])
    assert result.k == 2
    assert [m.metric for m in result.pairs[0].metrics] == ["avg@k", "pass^1", "pass^2"]


def test_runs_carry_their_noise_floor_on_the_shared_tasks() -> None:
    a = {t: [1.0, 0.0] for t in TASKS}
    b = {t: [1.0, 1.0] for t in TASKS}
    b["extra"] = [1.0, 0.0]
    result = compare_runs([_run("a", a), _run("b", b)], ["a", "b"])
    assert result.runs[0].noise.flip_rate == 1.0
    assert result.runs[1].noise.flip_rate == 0.0  # the extra task is not shared
    assert result.runs[1].tasks == 13 and result.runs[1].noise.tasks == 12
    assert result.runs[0].agent == "model-a"
    assert result.runs[0].run_dir == "/runs/a"


class _FakeSuite:
    """Reports a per-record score and a solved rate; compares both."""

    def compared_metrics(self, cfg: Mapping[str, Any]) -> Mapping[str, str]:
        return {"score": "score", "solved": "success", "missing": "score"}

    def report_metrics(self, recs: Sequence[Any], cfg: Mapping[str, Any]) -> Mapping[str, Any]:
        done = [r for r in recs if r.evaluation is not None]
        if not done:
            return {"score": None, "solved": None}
        rewards = [r.evaluation.reward for r in done]
        return {
            "score": 100 * sum(rewards) / len(rewards),
            "solved": sum(x == 1.0 for x in rewards) / len(rewards),
            "label": "not a number",
            "missing": math.nan,
        }


def test_the_suite_names_its_own_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lifebench.suites, "get_suite", lambda name: _FakeSuite())
    a = {t: [1.0, 0.5] for t in TASKS}
    b = {t: [0.5, 0.5] for t in TASKS}
    result = compare_runs([_run("a", a), _run("b", b)], ["a", "b"])
    names = [m.metric for m in result.pairs[0].metrics]
    assert names == ["avg@k", "pass^1", "pass^2", "score", "solved"]
    score = result.pairs[0].metrics[3]
    assert (score.kind, score.scale) == ("score", "raw")
    assert score.a == pytest.approx(75.0) and score.b == pytest.approx(50.0)
    solved = result.pairs[0].metrics[4]
    assert (solved.kind, solved.scale, solved.a, solved.b) == ("success", "fraction", 0.5, 0.0)
    assert any("missing: no shared task has a value" in w for w in result.warnings)


def test_suite_numbers_of_different_suites_are_not_compared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lifebench.suites, "get_suite", lambda name: _FakeSuite())
    a = _run("a", {t: [1.0] for t in TASKS})
    b = _run("b", {t: [1.0] for t in TASKS}, cfg=config(suite="other"))
    result = compare_runs([a, b], ["a", "b"], allow_mismatch=True)
    assert [m.metric for m in result.pairs[0].metrics] == ["avg@k", "pass^1"]
    assert any("different suites" in w for w in result.warnings)


def test_a_suite_without_the_hook_is_compared_on_the_core_metrics() -> None:
    result = compare_runs(
        [_run("a", {t: [1.0] for t in TASKS}), _run("b", {t: [0.0] for t in TASKS})], ["a", "b"]
    )
    assert [m.metric for m in result.pairs[0].metrics] == ["avg@k", "pass^1"]
    no_suite = _run("c", {t: [1.0] for t in TASKS}, cfg={**config(), "suite": None})
    result = compare_runs([no_suite, no_suite], ["c", "d"], allow_mismatch=True)
    assert [m.metric for m in result.pairs[0].metrics] == ["avg@k", "pass^1"]


def test_only_scored_trials_are_compared() -> None:
    a = records({t: [1.0] for t in TASKS})
    a.append(rec(TASKS[0], 1, 0.0, status="infra_error"))
    result = compare_runs([run_data(a, name="a"), _run("b", {t: [1.0] for t in TASKS})], ["a", "b"])
    assert result.k == 1
    assert result.pairs[0].discordant == []


def test_the_discordant_list_is_capped_but_counted() -> None:
    many = [f"m{i:03d}" for i in range(230)]
    result = compare_runs(
        [_run("a", {t: [1.0] for t in many}), _run("b", {t: [0.0] for t in many})], ["a", "b"]
    )
    pair = result.pairs[0]
    assert len(pair.discordant) == 200 and pair.discordant_total == 230
    assert pair.discordant_a == 230 and pair.discordant_b == 0


def test_the_messages_are_exact() -> None:
    run = _run("a", {t: [1.0] for t in TASKS})
    with pytest.raises(ComparisonError) as info:
        compare_runs([run], ["a"])
    assert str(info.value) == "compare needs at least two run directories"
    other = _run("b", {t: [1.0] for t in TASKS}, cfg=config(max_errors=3))
    with pytest.raises(ComparisonError) as info:
        compare_runs([run, other], ["a", "b"])
    assert str(info.value) == (
        "the runs are not comparable:\n"
        "  - a vs b: --max-errors: 10 vs 3\n"
        "Compare runs of the same tasks, grader, user simulator and judge, or pass "
        "--allow-mismatch to compare anyway (every output is then marked)."
    )
    few = _run("c", {t: [1.0] for t in TASKS[:3]})
    with pytest.raises(ComparisonError) as info:
        compare_runs([run, few], ["a", "c"])
    assert str(info.value) == (
        "the runs share 3 scored task(s) (a: 12, c: 3 scored tasks each); at least 10 are "
        "needed for a paired comparison (--min-shared)"
    )
    allowed = compare_runs([run, other], ["a", "b"], allow_mismatch=True)
    assert allowed.warnings == [
        "NOT COMPARABLE: 1 mismatch(es) allowed with --allow-mismatch; differences may come "
        "from them rather than from the agents"
    ]


def test_the_suite_warnings_are_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lifebench.suites, "get_suite", lambda name: _FakeSuite())
    a = _run("a", {t: [1.0] for t in TASKS})
    b = _run("b", {t: [1.0] for t in TASKS}, cfg=config(suite="other"))
    result = compare_runs([a, b], ["a", "b"], allow_mismatch=True)
    assert result.warnings[1:] == [
        "the runs are of different suites: the suites' own numbers are not compared"
    ]
    same = compare_runs([a, _run("c", {t: [1.0] for t in TASKS})], ["a", "c"])
    assert same.warnings == ["missing: no shared task has a value in both a and c"]


class _FlagSuite(_FakeSuite):
    def compared_metrics(self, cfg: Mapping[str, Any]) -> Mapping[str, str]:
        return {"flag": "success"}

    def report_metrics(self, recs: Sequence[Any], cfg: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"flag": True}


def test_a_yes_no_suite_number_is_not_a_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lifebench.suites, "get_suite", lambda name: _FlagSuite())
    result = compare_runs(
        [_run("a", {t: [1.0] for t in TASKS}), _run("b", {t: [1.0] for t in TASKS})], ["a", "b"]
    )
    assert [m.metric for m in result.pairs[0].metrics] == ["avg@k", "pass^1"]
    assert result.warnings == ["flag: no shared task has a value in both a and b"]


def test_significance_includes_alpha_itself_and_settings_are_kept() -> None:
    a = {t: [1.0] if i < 6 else [0.0] for i, t in enumerate(TASKS)}
    b = {t: [0.0] for t in TASKS}
    exact = mcnemar_exact(6, 0)  # 2 / 64
    result = compare_runs(
        [_run("a", a), _run("b", b)],
        ["a", "b"],
        alpha=exact,
        bootstrap_samples=300,
        seed=4,
        resamples=99,
        min_shared=5,
    )
    m = result.pairs[0].metrics[0]
    assert m.p_value == pytest.approx(exact) and m.significant
    s = result.settings
    assert (s.alpha, s.bootstrap_samples, s.seed, s.permutation_resamples, s.min_shared) == (
        exact,
        300,
        4,
        99,
        5,
    )
    below = compare_runs([_run("a", a), _run("b", b)], ["a", "b"], alpha=exact * 0.99)
    assert not below.pairs[0].metrics[0].significant
    assert [(r.index, r.label) for r in result.runs] == [(0, "a"), (1, "b")]


def test_the_seed_draws_the_interval() -> None:
    a = {t: [0.1 * (i % 7), 0.05 * i] for i, t in enumerate(TASKS)}
    b = {t: [0.03 * (i % 5), 0.2] for i, t in enumerate(TASKS)}
    runs = [_run("a", a), _run("b", b)]
    one = compare_runs(runs, ["a", "b"], seed=1).pairs[0].metrics[0].ci
    assert compare_runs(runs, ["a", "b"], seed=1).pairs[0].metrics[0].ci == one
    assert compare_runs(runs, ["a", "b"], seed=2).pairs[0].metrics[0].ci != one
    fewer = compare_runs(runs, ["a", "b"], seed=1, bootstrap_samples=100).pairs[0].metrics[0].ci
    assert fewer != one


def test_without_scipy_compare_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    a = _run("a", {t: [1.0, 0.0] for t in TASKS})
    b = _run("b", {t: [1.0, 1.0] for t in TASKS})
    monkeypatch.setitem(sys.modules, "scipy", None)  # import scipy fails, as without the extra
    with pytest.raises(ComparisonError) as caught:
        compare_runs([a, b], ["a", "b"])
    assert str(caught.value) == (
        "lifebench compare needs the stats extra (scipy): pip install 'lifebench[stats]'"
    )
