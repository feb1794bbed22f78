"""FlowBench's official comparison as the user reads it: the label of every number pair, the
notes (the fuzzy-matcher note, how many stale units were left out), the class of a unit whose
lifebench grading failed, and the official numbers when nothing could be counted.

Numbers are worked out by hand in the comments (issue 21: the survivors of the report module)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from lifebench.evaluation import GRADING_ERROR, BasisResult, Evaluation
from lifebench.flow.evaluation.official import REFERENCE
from lifebench.flow.evaluation.report import official_comparison

SESSION = {"suite": "flow", "suite_options": {"level": "session", "knowledge_format": "text"}}
TURN = {"suite": "flow", "suite_options": {"level": "turn", "knowledge_format": "text"}}
KEYS = ("gold_call", "pred_call", "correct_call", "gold_params", "pred_params", "correct_params")
MATCHER_NOTE = (
    "the official fuzzy matcher's questions are answered with lifebench's verdicts on the "
    "same values (official mode makes no model call)"
)


@dataclass(frozen=True)
class _Rec:
    evaluation: Evaluation | None
    status: str = "done"


def _eval(*parts: BasisResult) -> Evaluation:
    return Evaluation(reward=0.0, basis=parts[0].basis, by_basis={p.basis: p for p in parts})


def _completion(success: bool, progress: float, **more: Any) -> BasisResult:
    info: dict[str, Any] = {
        "domain": "d",
        "role": "r",
        "format": "text",
        "success": success,
        "progress": progress,
        "capped": False,
        **more,
    }
    return BasisResult(basis="completion", reward=float(success), score=progress, info=info)


def _tools(
    ours: tuple[int, int, int], theirs: tuple[int, int, int] | None, **more: Any
) -> BasisResult:
    tp, n_pred, n_gold = ours
    info: dict[str, Any] = {
        "calls": {"tp": tp, "n_pred": n_pred, "n_gold": n_gold, "official_right": tp},
        "format_errors": 0,
        **more,
    }
    if theirs is not None:
        right, o_gold, o_pred = theirs
        info["official"] = {"right": right, "n_gold": o_gold, "n_pred": o_pred}
    return BasisResult(basis="session_tools", reward=0.0, score=0.0, info=info)


def _turn(ours: tuple[int, ...], theirs: tuple[int, ...] | None, **more: Any) -> BasisResult:
    counts: dict[str, int] = dict(zip(KEYS, ours, strict=True))
    counts.update(node_gold=0, node_correct=0, format_error=0, unusable_replies=0)
    info: dict[str, Any] = {"domain": "d", "role": "r", "format": "text", "counts": counts}
    if theirs is not None:
        info["official"] = {"skipped": 0, **dict(zip(KEYS, theirs, strict=True))}
    info.update(more)
    return BasisResult(basis="turn", reward=0.0, score=0.0, info=info)


def test_the_turn_pairs_carry_their_labels_in_order_and_the_reference() -> None:
    records = [_Rec(_eval(_turn((1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1))))]
    comparison = official_comparison(records, TURN)
    assert comparison.reference == REFERENCE
    assert [(p.metric, p.label) for p in comparison.pairs] == [
        ("tool_f1", "tool F1 (official: 2PR/(P+R) of its P and R)"),
        ("tool_precision", "tool precision"),
        ("tool_recall", "tool recall"),
        ("param_f1", "parameter F1"),
        ("param_precision", "parameter precision"),
        ("param_recall", "parameter recall"),
    ]
    assert comparison.notes == [MATCHER_NOTE]


def test_the_session_pairs_carry_their_labels_in_order_and_the_reference() -> None:
    records = [
        _Rec(_eval(_completion(True, 1.0, judge_success=True), _tools((1, 1, 1), (1, 1, 1))))
    ]
    comparison = official_comparison(records, SESSION)
    assert comparison.reference == REFERENCE
    assert [(p.metric, p.label) for p in comparison.pairs] == [
        ("success_rate", "success rate"),
        ("task_progress", "task progress"),
        ("tool_precision", "tool precision"),
        ("tool_recall", "tool recall"),
    ]
    assert comparison.notes == [MATCHER_NOTE]


def test_two_stale_turns_are_counted_in_the_note_and_left_out_of_the_numbers() -> None:
    records = [
        # counted officially: 1 right call of 1 predicted, 2 gold; params 1 of 2 predicted, 4 gold
        _Rec(_eval(_turn((2, 1, 1, 4, 2, 1), (2, 1, 1, 4, 2, 1)))),
        # graded before the official counters were stored: left out of the official sums
        _Rec(_eval(_turn((3, 3, 3, 3, 3, 3), None))),
        _Rec(_eval(_turn((5, 5, 5, 5, 5, 5), None))),
    ]
    comparison = official_comparison(records, TURN)
    pairs = {p.metric: p.official for p in comparison.pairs}
    assert pairs["tool_precision"] == 1.0 and pairs["tool_recall"] == 0.5
    assert pairs["param_precision"] == 0.5 and pairs["param_recall"] == 0.25
    assert comparison.notes == [
        MATCHER_NOTE,
        "2 turn prediction(s) were graded before lifebench stored the official counters: they "
        "are left out of the official numbers (re-grade with `lifebench eval`)",
    ]
    # every done turn is a compared unit; the stale ones differ in nothing
    assert (comparison.units, comparison.differing_units) == (3, 0)


def test_a_turn_whose_grading_failed_is_classed_and_not_counted_and_ungradable_is_skipped() -> None:
    failed = _turn((1, 1, 1, 1, 1, 1), (9, 9, 9, 9, 9, 9), **{GRADING_ERROR: "judge failed"})
    ungradable = _turn((1, 1, 1, 1, 1, 1), (7, 7, 7, 7, 7, 7), ungradable=True)
    skipped = _turn((1, 1, 1, 1, 1, 1), (5, 5, 5, 5, 5, 5))
    skipped.info["official"]["skipped"] = 1
    counted = _Rec(_eval(_turn((1, 1, 1, 1, 1, 1), (1, 2, 1, 2, 1, 1))))
    # each kind of turn left out of the official sums is followed by one that counts
    records = [
        _Rec(None),
        counted,
        _Rec(_eval(ungradable)),
        counted,
        _Rec(_eval(failed)),
        counted,
        _Rec(_eval(_turn((1, 1, 1, 1, 1, 1), None))),  # stale
        counted,
        _Rec(_eval(skipped)),  # "api call error": skipped officially
        counted,
    ]
    comparison = official_comparison(records, TURN)
    pairs = {p.metric: p.official for p in comparison.pairs}
    # the five counted turns: calls 5 right of 10 predicted, 5 gold; params 5 of 5, 10 gold
    assert pairs["tool_precision"] == 0.5 and pairs["tool_recall"] == 1.0
    assert pairs["param_precision"] == 1.0 and pairs["param_recall"] == 0.5
    # units: 5 counted, the failed, the stale and the skipped one (not None, not ungradable)
    assert (comparison.units, comparison.differing_units) == (8, 7)
    assert comparison.classes == {
        "empty_gold_values_counted": 5,
        "lifebench_grading_error_not_replayed": 1,
        "predicted_call_parsed_differently": 5,
        "skipped_api_call_error": 1,
    }
    assert comparison.notes[1].startswith("1 turn prediction(s) were graded before")


def test_turn_official_ratios_with_nothing_counted_are_the_official_negative_zero() -> None:
    comparison = official_comparison([_Rec(_eval(_turn((0,) * 6, (0,) * 6)))], TURN)
    for pair in comparison.pairs:
        if pair.metric.endswith("_f1"):
            assert pair.official == 0.0, pair.metric
        else:
            assert str(pair.official) == "-0.0", pair.metric


def test_a_config_without_a_level_is_compared_at_turn_level() -> None:
    records = [_Rec(_eval(_turn((1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1))))]
    assert official_comparison(records, {"suite": "flow"}).pairs[0].metric == "tool_f1"
    assert official_comparison(records, {"suite_options": None}).pairs[0].metric == "tool_f1"


def test_a_session_whose_tool_grading_failed_counts_officially_and_is_classed() -> None:
    failed = _tools((0, 0, 0), (1, 2, 2), **{GRADING_ERROR: "matcher failed"})
    records = [
        _Rec(_eval(_completion(True, 1.0, judge_success=True), failed)),
        # the official counters of a failed grading are counted: right 1 + 1, gold 2 + 2, pred 2 + 4
        _Rec(_eval(_completion(False, 0.5, judge_success=False), _tools((1, 4, 2), (1, 2, 4)))),
    ]
    comparison = official_comparison(records, SESSION)
    pairs = {p.metric: p.official for p in comparison.pairs}
    assert pairs["tool_precision"] == pytest.approx(2 / 6)
    assert pairs["tool_recall"] == 0.5
    assert comparison.classes == {"lifebench_grading_error_counted": 1}
    assert (comparison.units, comparison.differing_units) == (2, 1)


def test_two_stale_sessions_are_counted_in_the_note() -> None:
    records = [
        _Rec(_eval(_completion(True, 1.0, judge_success=True), _tools((1, 1, 1), None))),
        _Rec(_eval(_completion(False, 0.0, judge_success=False), _tools((0, 1, 1), None))),
        _Rec(_eval(_completion(True, 1.0, judge_success=True), _tools((1, 1, 1), (1, 1, 1)))),
    ]
    comparison = official_comparison(records, SESSION)
    assert comparison.notes == [
        MATCHER_NOTE,
        "2 session(s) were graded before lifebench stored the official counters: they are left "
        "out of the official numbers (re-grade with `lifebench eval`)",
    ]
    pairs = {p.metric: p.official for p in comparison.pairs}
    # success counts every session with a verdict (2 of 3); the tools only the third
    assert pairs["success_rate"] == pytest.approx(2 / 3)
    assert pairs["tool_precision"] == 1.0 and pairs["tool_recall"] == 1.0


def test_a_failed_completion_judge_counts_zero_and_an_abnormal_success_counts_one() -> None:
    failed = BasisResult(
        basis="completion", reward=0.0, score=0.0, info={GRADING_ERROR: "no usable answer"}
    )
    records = [
        _Rec(_eval(failed, _tools((1, 1, 1), (1, 1, 1)))),
        # capped: ours fails it, the official judge's verdict counts it a success
        _Rec(_eval(_completion(False, 0.75, judge_success=True, capped=True))),
    ]
    comparison = official_comparison(records, SESSION)
    pairs = {p.metric: (p.lifebench, p.official) for p in comparison.pairs}
    # official: successes 0 + 1 of 2, progress (0 + 0.75) / 2; ours: only the second session
    assert pairs["success_rate"] == (0.0, 0.5)
    assert pairs["task_progress"] == (0.75, 0.375)
    assert comparison.classes == {
        "abnormal_ending_succeeds_officially": 1,
        "completion_judge_failed_counted_zero": 1,
    }


def test_session_official_numbers_with_nothing_to_count_are_zero() -> None:
    # only tool counts, none predicted nor gold: no success or progress to average
    comparison = official_comparison([_Rec(_eval(_tools((0, 0, 0), (0, 0, 0))))], SESSION)
    assert {p.metric: p.official for p in comparison.pairs} == {
        "success_rate": 0.0,
        "task_progress": 0.0,
        "tool_precision": 0.0,
        "tool_recall": 0.0,
    }
    assert comparison.units == 1
