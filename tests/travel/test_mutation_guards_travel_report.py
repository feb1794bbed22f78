"""Mutation guards for lifebench.travel.grading.report (issue 21): which judged records count as
judge failures, the judge kind of an unlabelled result, the official overall of a zero subset,
and the interval of an unsolvable-only comparison."""

from __future__ import annotations

from typing import Any

from travel_fakes import Rec, record, simulation

from lifebench.evaluation import BasisResult
from lifebench.messages import AssistantMessage, UserMessage
from lifebench.travel.grading.report import official_comparison, official_overall, report_metrics

DIMS = ("reasoning_planning", "summarization_extraction", "presentation")


def _single(task_id: str, ratings: Any, *, basis: str = "travel", **extra: Any) -> Rec:
    error = extra.pop("error", None)
    info: dict[str, Any] = {"subset": "single", "ratings": ratings, "tool_calls": 0, **extra}
    result = BasisResult(basis=basis, reward=0.5, score=0.5, info=info)
    return record(result, simulation(task_id=task_id), task_id=task_id, error=error)


def _subset(records: list[Rec]) -> dict[str, Any]:
    out: dict[str, Any] = report_metrics(records, {"suite": "travel"})["travel"]["subsets"]
    return out["single"]


def test_which_judged_records_are_judge_failures() -> None:
    good = _single("single-9", dict.fromkeys(DIMS, 5), judge_kind="llm")
    # graded, but not on a travel basis
    other = _single("single-1", dict.fromkeys(DIMS, 3), basis="other")
    # a grading error that still stored ratings
    failed = _single("single-2", dict.fromkeys(DIMS, 3), error="judge gave no usable answer")
    # ratings stored, none of them usable
    unusable = _single("single-3", {"presentation": "good"})
    subset = _subset([other, failed, unusable, good])
    assert (subset["n"], subset["judge_failures"]) == (1, 3)
    assert subset["score"] == 100.0
    assert subset["judge_kind"] == ["llm"]


def test_a_result_without_a_judge_kind_is_unlabelled() -> None:
    subset = _subset([_single("single-1", dict.fromkeys(DIMS, 4))])
    assert subset["judge_kind"] == ["unlabelled"]


def test_the_official_overall_keeps_a_zero_subset_at_zero() -> None:
    assert official_overall(0.0, 50.0, 100.0) == 50.0
    assert official_overall(0.0, 0.0, 0.0) == 0.0


def _unsolved(task_id: str, tagged: bool) -> Rec:
    first = "[Unsolved]" if tagged else "let me look"
    sim = simulation([UserMessage(content="q"), AssistantMessage(content=first)], task_id=task_id)
    by_rule = {"first": tagged, "final": tagged, "exact": tagged}
    info = {"subset": "unsolvable", "rule": "first", "by_rule": by_rule}
    result = BasisResult(basis="travel", reward=float(tagged), score=0.0, info=info)
    return record(result, sim, task_id=task_id)


def test_an_unsolvable_only_comparison_has_an_interval_on_the_100_scale() -> None:
    units = [_unsolved(f"unsolvable-{i}", i < 2) for i in range(4)]
    comparison = official_comparison(units, {"suite": "travel"})
    (pair,) = comparison.pairs
    assert (pair.metric, pair.lifebench, pair.official) == ("unsolvable", 50.0, 50.0)
    for ci in (pair.lifebench_ci, pair.official_ci):
        assert ci is not None
        low, high = ci
        # four tasks, two solved: resamples from none to all of them solved
        assert low == 0.0 and high == 100.0
