"""FlowBench's session-level official comparison, unit by unit: which records it counts, how
it reads a verdict without the judge's own, and which classes of difference it reports.

Each record below exercises one rule; the numbers are worked out by hand in the comments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from lifebench.evaluation import BasisResult, Evaluation
from lifebench.flow.evaluation.report import official_comparison

SESSION = {"suite": "flow", "suite_options": {"level": "session", "knowledge_format": "text"}}


@dataclass(frozen=True)
class _Rec:
    evaluation: Evaluation | None
    status: str = "done"


def _completion(success: bool, progress: float, *, judge: bool | None = None) -> BasisResult:
    info: dict[str, Any] = {
        "domain": "d",
        "role": "r",
        "format": "text",
        "success": success,
        "progress": progress,
        "capped": False,
    }
    if judge is not None:
        info["judge_success"] = judge
    return BasisResult(basis="completion", reward=float(success), score=progress, info=info)


def _tools(ours: tuple[int, int, int], theirs: tuple[int, int, int]) -> BasisResult:
    tp, n_pred, n_gold = ours
    right, o_gold, o_pred = theirs
    info = {
        "calls": {"tp": tp, "n_pred": n_pred, "n_gold": n_gold, "official_right": right},
        "format_errors": 0,
        "official": {"right": right, "n_gold": o_gold, "n_pred": o_pred},
    }
    return BasisResult(basis="session_tools", reward=0.0, score=0.0, info=info)


def _rec(*parts: BasisResult, status: str = "done") -> _Rec:
    bases = {p.basis: p for p in parts}
    return _Rec(Evaluation(reward=0.0, basis="completion", by_basis=bases), status)


def _records() -> list[_Rec]:
    ungradable = BasisResult(
        basis="completion", reward=0.0, score=0.0, info={"domain": "d", "ungradable": True}
    )
    return [
        # A: agrees both ways
        _rec(_completion(True, 1.0, judge=True), _tools((1, 2, 1), (1, 1, 2))),
        # not evaluated: skipped, and the records after it still count
        _Rec(None),
        # B: no judge_success stored → the verdict is `success`; ours matched 0, theirs 1
        _rec(_completion(True, 0.5), _tools((0, 1, 2), (1, 2, 1))),
        # a failed run that still holds an evaluation: not counted either way
        _rec(
            _completion(True, 1.0, judge=True), _tools((1, 1, 1), (1, 1, 1)), status="infra_error"
        ),
        # E: a completion verdict without tool counts
        _rec(_completion(False, 0.0, judge=False)),
        # F: tool counts without a completion verdict
        _rec(_tools((0, 0, 1), (0, 1, 0))),
        # G: an ungradable session: no success, no progress
        _rec(ungradable),
    ]


def test_the_session_official_numbers_count_each_record_by_its_own_parts() -> None:
    comparison = official_comparison(_records(), SESSION)
    pairs = {p.metric: (p.lifebench, p.official) for p in comparison.pairs}
    # successes A, B, E = 1, 1, 0 both ways; progress 1.0, 0.5, 0.0
    assert pairs["success_rate"] == (pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert pairs["task_progress"] == (0.5, 0.5)
    # ours: tp 1 + 0 + 0, predicted 2 + 1 + 0, gold 1 + 2 + 1
    # theirs: right 1 + 1 + 0, predicted 2 + 1 + 0, gold 1 + 2 + 1
    assert pairs["tool_precision"] == (pytest.approx(1 / 3), pytest.approx(2 / 3))
    assert pairs["tool_recall"] == (0.25, 0.5)
    # A, B, E, F, G compared; only B differs (calls matched differently)
    assert (comparison.units, comparison.differing_units) == (5, 1)
    assert comparison.classes == {"session_calls_matched_differently": 1}
    assert len(comparison.notes) == 1  # no stale session: no note about one


def test_a_session_counted_differently_and_a_stale_one_are_reported() -> None:
    stale = BasisResult(
        basis="session_tools",
        reward=0.0,
        score=0.0,
        info={
            "calls": {"tp": 0, "n_pred": 0, "n_gold": 1, "official_right": 0},
            "format_errors": 0,
        },
    )
    records = [
        _rec(_completion(True, 1.0, judge=True), _tools((1, 1, 1), (1, 2, 1))),
        _rec(_completion(False, 0.0, judge=False), stale),
    ]
    comparison = official_comparison(records, SESSION)
    assert comparison.classes == {"session_calls_counted_differently": 1}
    assert comparison.notes[1].startswith("1 session(s) were graded before")


TURN = {"suite": "flow", "suite_options": {"level": "turn", "knowledge_format": "text"}}
KEYS = ("gold_call", "pred_call", "correct_call", "gold_params", "pred_params", "correct_params")


def _turn(ours: tuple[int, ...], theirs: tuple[int, ...], *, skipped: int = 0) -> BasisResult:
    counts: dict[str, int] = dict(zip(KEYS, ours, strict=True))
    counts.update(node_gold=0, node_correct=0, format_error=0, unusable_replies=0)
    official = {"skipped": skipped, **dict(zip(KEYS, theirs, strict=True))}
    info = {"domain": "d", "role": "r", "format": "text", "counts": counts, "official": official}
    return BasisResult(basis="turn", reward=0.0, score=0.0, info=info)


def test_the_turn_official_numbers_count_done_unskipped_turns() -> None:
    records = [
        # A: agrees
        _Rec(Evaluation(reward=0.0, basis="turn", by_basis={"turn": _turn((1, 1, 1, 2, 2, 2), (1, 1, 1, 2, 2, 2))})),
        # B: the call judged differently, the predicted arguments counted differently
        _Rec(Evaluation(reward=0.0, basis="turn", by_basis={"turn": _turn((1, 1, 0, 2, 1, 1), (1, 1, 1, 2, 2, 1))})),
        # C: skipped officially ("api call error"): not in the official sums
        _Rec(Evaluation(reward=0.0, basis="turn", by_basis={"turn": _turn((1, 1, 1, 1, 1, 1), (5, 5, 5, 5, 5, 5), skipped=1)})),
        # a failed run holding an evaluation: counted neither way
        _Rec(Evaluation(reward=0.0, basis="turn", by_basis={"turn": _turn((3, 3, 0, 3, 3, 0), (3, 3, 0, 3, 3, 0))}), "infra_error"),
    ]  # fmt: skip
    comparison = official_comparison(records, TURN)
    pairs = {p.metric: (p.lifebench, p.official) for p in comparison.pairs}
    # ours (A + B + C): calls tp 2 of 3 predicted, 3 gold; params tp 4 of 4 predicted, 5 gold
    # theirs (A + B): calls 2 / 2 / 2; params 3 of 4 predicted, 4 gold
    assert pairs == {
        "tool_f1": (pytest.approx(2 / 3), 1.0),
        "tool_precision": (pytest.approx(2 / 3), 1.0),
        "tool_recall": (pytest.approx(2 / 3), 1.0),
        "param_f1": (pytest.approx(8 / 9), 0.75),
        "param_precision": (1.0, 0.75),
        "param_recall": (0.8, 0.75),
    }
    assert (comparison.units, comparison.differing_units) == (3, 2)
    assert comparison.classes == {
        "call_judged_differently": 1,
        "predicted_arguments_counted_differently": 1,
        "skipped_api_call_error": 1,
    }
    assert len(comparison.notes) == 1  # nothing stale
