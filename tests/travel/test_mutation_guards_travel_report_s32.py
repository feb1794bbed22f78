"""Mutation guards for lifebench.travel.grading.report (issue 21, session 32): which unsolvable
records count as evaluation failures and the numbers the subset reports beside them.

Numbers are worked out by hand in the comments."""

from __future__ import annotations

from typing import Any

import pytest
from travel_fakes import Rec, judge_xml, meta_xml, record, simulation

from lifebench.evaluation import BasisResult
from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.travel.grading.report import official_comparison, report_metrics


def _unsolved(
    task_id: str,
    text: str,
    *,
    error: str | None = None,
    by_rule: bool = True,
    rule: str | None = "first",
) -> Rec:
    messages: list[Message] = [UserMessage(content="下雨时提醒我"), AssistantMessage(content=text)]
    tagged = "[Unsolved]" in text
    info: dict[str, Any] = {"subset": "unsolvable"}
    if rule is not None:
        info["rule"] = rule
    if by_rule:
        info["by_rule"] = {"first": tagged, "final": tagged, "exact": text == "[Unsolved]"}
    result = BasisResult(basis="travel", reward=float(tagged), score=float(tagged), info=info)
    return record(result, simulation(messages, task_id=task_id), task_id=task_id, error=error)


@pytest.mark.parametrize(
    "error",
    ["evaluation failed: travel: grader crashed", "评估失败：travel：评分出错"],
    ids=["english", "chinese"],
)
def test_a_failed_evaluation_that_stored_verdicts_is_a_failure(error: str) -> None:
    # the failed grading kept a (tagged) verdict: it must not count as a correct refusal
    records = [
        _unsolved("unsolvable-1", "[Unsolved]", error=error),
        _unsolved("unsolvable-2", "I set the reminder."),
    ]
    out = report_metrics(records, {"suite": "travel"})
    unsolvable = out["travel"]["subsets"]["unsolvable"]
    assert (unsolvable["n"], unsolvable["evaluation_failures"]) == (1, 1)
    assert out["unsolved_accuracy"] == 0.0 and out["score"] == 0.0


def test_a_result_without_verdicts_is_a_failure_and_the_others_count() -> None:
    records = [
        _unsolved("unsolvable-1", "[Unsolved]", by_rule=False),
        _unsolved("unsolvable-2", "[Unsolved]"),
        _unsolved("unsolvable-3", "已设置。"),
    ]
    unsolvable = report_metrics(records, {"suite": "travel"})["travel"]["subsets"]["unsolvable"]
    # 1 of the 2 usable verdicts is tagged
    assert (unsolvable["n"], unsolvable["evaluation_failures"]) == (2, 1)
    assert unsolvable["unsolved_accuracy"] == 0.5


def _official(records: list[Rec]) -> tuple[Any, Any, dict[str, int]]:
    comparison = official_comparison(records, {"suite": "travel"})
    (pair,) = comparison.pairs
    assert pair.metric == "unsolvable"
    return pair.lifebench, pair.official, comparison.classes


@pytest.mark.parametrize("status", ["rejected", "infra_error"])
def test_a_failed_unsolvable_run_counts_as_a_miss_officially(status: str) -> None:
    # eval.sh scores a run that never answered as no [Unsolved]: 1 of 2 officially;
    # lifebench leaves it out: 1 of 1
    records = [
        _unsolved("unsolvable-1", "[Unsolved]"),
        Rec("unsolvable-2", 0, status, 1, None, None),
    ]
    ours, theirs, classes = _official(records)
    assert (ours, theirs) == (100.0, 50.0)
    assert classes == {"failed_run_scored_zero": 1}


def test_a_done_record_without_a_trajectory_counts_neither_way() -> None:
    # nothing was said, so there is nothing to read the tag in: as in report_metrics, not counted
    records = [
        _unsolved("unsolvable-1", "[Unsolved]"),
        Rec("unsolvable-2", 0, "done", 1, None, None),
    ]
    ours, theirs, classes = _official(records)
    assert (ours, theirs) == (100.0, 100.0)
    assert classes == {}


@pytest.mark.parametrize(
    ("text", "theirs"),
    [("[Unsolved] 没有提醒工具。", 100.0), ("I cannot set reminders.", 0.0)],
    ids=["tagged-zh", "untagged-en"],
)
def test_a_trajectory_graded_on_another_basis_is_read_officially(text: str, theirs: float) -> None:
    # the evaluation holds no travel result (another suite's basis): lifebench has no verdict,
    # the official rule still reads the first reply
    messages: list[Message] = [UserMessage(content="提醒我"), AssistantMessage(content=text)]
    other = BasisResult(basis="state", reward=1.0, score=1.0, info={})
    rec = record(other, simulation(messages, task_id="unsolvable-7"), task_id="unsolvable-7")
    ours, official, classes = _official([rec])
    assert (ours, official) == (None, theirs)
    assert classes == {}


@pytest.mark.parametrize(
    ("error", "by_rule"),
    [("evaluation failed: travel: grader crashed", True), (None, False)],
    ids=["failed-with-verdicts", "no-verdicts"],
)
def test_an_unusable_unsolved_verdict_is_scored_officially_only(
    error: str | None, by_rule: bool
) -> None:
    # unit 1: lifebench's verdict is unusable (a failed grading, or no verdicts stored): only
    # the official rule counts it (tagged: a hit); unit 2 answers, both ways a miss
    records = [
        _unsolved("unsolvable-1", "[Unsolved]", error=error, by_rule=by_rule),
        _unsolved("unsolvable-2", "Reminder set."),
    ]
    ours, theirs, classes = _official(records)
    assert (ours, theirs) == (0.0, 50.0)
    assert classes == {"lifebench_grading_error_scored_officially": 1}


def test_an_unsolvable_result_stored_without_its_rule_is_read_by_the_official_one() -> None:
    # stored before the rule was recorded: the verdict of the official rule ("first") is used
    tagged = _unsolved("unsolvable-1", "[Unsolved] 无法提醒。", rule=None)
    ours, theirs, classes = _official([tagged, _unsolved("unsolvable-2", "Done.", rule=None)])
    assert (ours, theirs) == (50.0, 50.0)
    assert classes == {}


DIMS = ("reasoning_planning", "summarization_extraction", "presentation")


def _single(task_id: str, rating: int, presentation: int | None) -> Rec:
    # an offline (non-llm) judgement: its official reading is lifebench's
    ratings = {"reasoning_planning": rating, "summarization_extraction": rating}
    if presentation is not None:
        ratings["presentation"] = presentation
    info = {"subset": "single", "ratings": ratings, "judge_kind": "offline", "tool_calls": 0}
    result = BasisResult(basis="travel", reward=0.5, score=0.5, info=info)
    return record(result, simulation(task_id=task_id), task_id=task_id)


def test_the_interval_of_a_subset_whose_dimension_is_never_rated() -> None:
    # presentation is never rated: it counts 0 (as in the score). Task a: 5,5 → 100, 100;
    # task b: 3,3 → 50, 50. A resample of a only: (100 + 100 + 0) / 3; of b only: 100 / 3
    records = [_single("single-a", 5, None), _single("single-b", 3, None)]
    (pair,) = official_comparison(records, {"suite": "travel"}).pairs
    assert pair.lifebench == pytest.approx(50.0) and pair.official == pytest.approx(50.0)
    for ci in (pair.lifebench_ci, pair.official_ci):
        assert ci is not None
        assert ci[0] == pytest.approx(100 / 3) and ci[1] == pytest.approx(200 / 3)


def test_the_interval_resamples_tasks_not_the_whole_subset() -> None:
    # each unit its own task: resamples range from both poor (0) to both perfect (100)
    records = [
        _single("single-a", 5, 5),
        _single("single-b", 1, 1),
        _single("single-c", 5, 5),
        _single("single-d", 1, 1),
    ]
    (pair,) = official_comparison(records, {"suite": "travel"}).pairs
    assert pair.lifebench == pytest.approx(50.0)
    assert pair.lifebench_ci is not None and pair.official_ci is not None
    assert pair.lifebench_ci[0] < 50.0 < pair.lifebench_ci[1]
    assert pair.official_ci[0] < 50.0 < pair.official_ci[1]


def _llm(task_id: str, ratings: dict[str, Any], replies: list[str], **extra: Any) -> Rec:
    error = extra.pop("error", None)
    info: dict[str, Any] = {
        "subset": "single",
        "ratings": ratings,
        "judge_kind": "llm",
        "judge_replies": replies,
        "tool_calls": 0,
        "tool_errors": 0,
        **extra,
    }
    result = BasisResult(basis="travel", reward=0.5, score=0.5, info=info)
    return record(result, simulation(task_id=task_id), task_id=task_id, error=error)


def _single_pair(
    records: list[Rec], config: dict[str, Any] | None = None
) -> tuple[Any, Any, dict[str, int]]:
    comparison = official_comparison(records, config or {"suite": "travel"})
    (pair,) = comparison.pairs
    assert pair.metric == "single"
    return pair.lifebench, pair.official, comparison.classes


@pytest.mark.parametrize(("attempts", "classes"), [(2, {"lifebench_used_a_reask": 1}), (1, {})])
def test_a_reasked_judge_is_a_class_of_difference(attempts: int, classes: dict[str, int]) -> None:
    # both answers rate every dimension 较好 (4 → 75): only the re-ask tells them apart
    answer = judge_xml("较好", "较好", "较好")
    rec = _llm("single-1", dict.fromkeys(DIMS, 4), [answer, answer], attempts=attempts)
    assert _single_pair([rec]) == (75.0, 75.0, classes)


def test_a_failed_grading_is_scored_officially_without_its_meta_judge() -> None:
    # the grading failed after the judge (优秀 → 100) and the meta judge (一般 → × 3/5) answered:
    # the official reading scores the judge's answer only
    rec = _llm(
        "single-1",
        dict.fromkeys(DIMS, 5),
        [judge_xml("优秀", "优秀", "优秀")],
        meta_judge=True,
        meta_replies=[meta_xml("一般")],
        error="evaluation failed: travel: 元评审超时",
    )
    assert _single_pair([rec]) == (
        None,
        100.0,
        {"lifebench_grading_error_scored_officially": 1},
    )


def test_a_meta_score_stored_as_a_float_is_read_by_neither_side() -> None:
    # an imported store holds meta_score 4.0 (not an int) and no meta answers: both sides
    # leave the factor at 1 and agree
    rec = _llm(
        "single-1",
        dict.fromkeys(DIMS, 5),
        [judge_xml("优秀", "优秀", "优秀")],
        meta_judge=True,
        meta_score=4.0,
    )
    assert _single_pair([rec]) == (100.0, 100.0, {})


def test_unusable_stored_ratings_leave_only_the_official_reading() -> None:
    # lifebench's stored ratings are words (no usable rating), the stored answer reads 较好
    rec = _llm("single-1", dict.fromkeys(DIMS, "较好"), [judge_xml("较好", "较好", "较好")])
    assert _single_pair([rec]) == (None, 75.0, {})


@pytest.mark.parametrize("attempts", [2.0, "2"], ids=["float", "text"])
def test_attempts_not_stored_as_an_int_are_not_read_as_a_reask(attempts: Any) -> None:
    answer = judge_xml("较好", "较好", "较好")
    rec = _llm("single-1", dict.fromkeys(DIMS, 4), [answer, answer], attempts=attempts)
    assert _single_pair([rec]) == (75.0, 75.0, {})


def test_each_side_s_interval_resamples_its_own_verdicts() -> None:
    # lifebench graded with the `final` rule: every unit answered [Unsolved] in the end (ours:
    # all hits); the official first-reply rule finds none (every first reply is a tool call)
    units = []
    for i in range(4):
        messages: list[Message] = [
            UserMessage(content="提醒我"),
            AssistantMessage(content=""),
            AssistantMessage(content="[Unsolved]"),
        ]
        info = {
            "subset": "unsolvable",
            "rule": "final",
            "by_rule": {"first": False, "final": True, "exact": True},
        }
        result = BasisResult(basis="travel", reward=1.0, score=1.0, info=info)
        task_id = f"unsolvable-{i}"
        units.append(record(result, simulation(messages, task_id=task_id), task_id=task_id))
    comparison = official_comparison(units, {"suite": "travel"})
    (pair,) = comparison.pairs
    assert (pair.lifebench, pair.official) == (100.0, 0.0)
    assert pair.lifebench_ci == (100.0, 100.0) and pair.official_ci == (0.0, 0.0)
    assert comparison.classes == {"unsolved_rule_not_first": 4}


def test_the_interval_is_reproducible() -> None:
    # eight tasks of different quality: a seeded bootstrap gives the same interval every time
    ratings = [5, 4, 3, 2, 1, 5, 3, 4]
    records = [_single(f"single-{i}", r, r) for i, r in enumerate(ratings)]
    first = official_comparison(records, {"suite": "travel"}).pairs[0]
    second = official_comparison(records, {"suite": "travel"}).pairs[0]
    assert first.lifebench_ci is not None and first.lifebench_ci[0] < first.lifebench_ci[1]
    assert first.lifebench_ci == second.lifebench_ci
    assert first.official_ci == second.official_ci == first.lifebench_ci


def test_pending_units_are_not_compared() -> None:
    pending = Rec("single-1", 0, "pending", 0, None, None)
    alone = official_comparison([pending], {"suite": "travel"})
    assert not alone.available
    assert alone.reason == "no unit of a known subset has run"
    # a pending unit before a finished one: the finished one is still compared
    done = _single("single-2", 5, 5)
    assert _single_pair([pending, done]) == (100.0, 100.0, {})


def _judged(task_id: str, subset: str, rating: int, kind: str = "offline") -> Rec:
    dims = [*DIMS, "user_interaction"] if subset == "multi" else list(DIMS)
    info = {
        "subset": subset,
        "ratings": dict.fromkeys(dims, rating),
        "judge_kind": kind,
        "tool_calls": 0,
    }
    result = BasisResult(basis="travel", reward=0.5, score=0.5, info=info)
    return record(result, simulation(task_id=task_id), task_id=task_id)


def test_the_pairs_of_three_subsets_as_the_user_reads_them() -> None:
    # single 优秀 (100), multi 较好 (75), unsolvable tagged (100): overall (75 + 100 + 100) / 3
    records = [
        _judged("single-1", "single", 5),
        _judged("multi-1", "multi", 4),
        _unsolved("unsolvable-1", "[Unsolved]"),
    ]
    comparison = official_comparison(records, {"suite": "travel"})
    rows = [(p.metric, p.label, p.scale) for p in comparison.pairs]
    assert rows == [
        ("overall", "overall = (multi + single + 100 × unsolved acc.) / 3", "points"),
        ("single", "single-turn score (0–100)", "points"),
        ("multi", "multi-turn score (0–100)", "points"),
        ("unsolvable", "unsolvable: 100 × accuracy", "points"),
    ]
    overall = comparison.pairs[0]
    assert overall.lifebench == pytest.approx(275 / 3) and overall.official == 91.67


def test_the_overall_without_any_unsolvable_verdict_of_lifebench() -> None:
    # the only unsolvable run failed: officially a miss (0), lifebench has no unsolvable number
    # and so no overall; the official overall is (75 + 100 + 0) / 3
    records = [
        _judged("single-1", "single", 5),
        _judged("multi-1", "multi", 4),
        Rec("unsolvable-1", 0, "infra_error", 1, None, None),
    ]
    comparison = official_comparison(records, {"suite": "travel"})
    overall = comparison.pairs[0]
    assert overall.metric == "overall"
    assert overall.lifebench is None and overall.official == 58.33
    assert comparison.pairs[3].official == 0.0 and comparison.pairs[3].lifebench is None


FAILED_NOTE = (
    "failed runs count as the lowest rating officially (the official judge rates an empty "
    "conversation; lifebench makes no judge call for it)"
)
OVERALL_NOTE = "the official overall is eval.sh's: subset numbers rounded to two decimals, averaged"


def test_the_notes_of_a_three_subset_comparison() -> None:
    records = [
        _judged("single-1", "single", 5),
        _judged("multi-1", "multi", 4),
        _unsolved("unsolvable-1", "[Unsolved]"),
    ]
    assert official_comparison(records, {"suite": "travel"}).notes == [FAILED_NOTE, OVERALL_NOTE]


def test_the_notes_name_the_stale_trajectories_and_the_missing_overall() -> None:
    # two llm judgements stored before lifebench kept the judge's answers; two subsets only
    records = [
        _judged("single-1", "single", 5, kind="llm"),
        _judged("multi-1", "multi", 4, kind="llm"),
        _judged("multi-2", "multi", 3),
    ]
    assert official_comparison(records, {"suite": "travel"}).notes == [
        FAILED_NOTE,
        OVERALL_NOTE,
        "2 trajectory(ies) were graded before lifebench stored the judge's answers: "
        "their official reading is taken to be lifebench's (re-grade with `lifebench eval`)",
        "two subsets only: no overall (it needs all three)",
    ]


@pytest.mark.parametrize(
    "config",
    [
        {"suite": "travel", "suite_options": {"subset": "single"}},
        {"suite": "travel", "suite_options": {"subset": "single"}, "pooled": {"other": {}}},
    ],
    ids=["not-pooled", "cell-not-listed"],
)
def test_an_id_with_a_cell_prefix_outside_a_pool_reads_the_run_s_subset(
    config: dict[str, Any],
) -> None:
    # a failed unit "cellA/2": no pooled configuration of its cell, so the run's --subset counts
    ok = _judged("cellA/1", "single", 5)
    failed = Rec("cellA/2", 0, "infra_error", 1, None, None)
    assert _single_pair([ok, failed], config) == (100.0, 50.0, {"failed_run_scored_zero": 1})
