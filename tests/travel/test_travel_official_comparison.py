"""The TravelBench comparison's rules beyond the differential fixture: where a unit's subset comes
from, what is not replayed, the overall only with three subsets, the meta-judge's reading."""

from __future__ import annotations

from typing import Any

import pytest
from travel_fakes import Rec, judge_xml, meta_xml, record, simulation

from lifebench.evaluation import BasisResult
from lifebench.travel.grading.report import official_comparison, official_overall

DIMS = ("reasoning_planning", "summarization_extraction", "presentation", "user_interaction")


def _judged(
    ratings: tuple[int | None, ...],
    *,
    subset: str = "single",
    replies: list[str] | None = None,
    meta: int | None = None,
    meta_replies: list[str] | None = None,
    kind: str = "llm",
    task_id: str = "1",
) -> Rec:
    info: dict[str, Any] = {
        "subset": subset,
        "ratings": dict(zip(DIMS, ratings, strict=False)),
        "judge_kind": kind,
        "meta_judge": meta is not None,
        "meta_score": meta,
        "tool_calls": 1,
        "tool_errors": 0,
        "attempts": 1,
    }
    if replies is not None:
        info["judge_replies"] = replies
    if meta_replies is not None:
        info["meta_replies"] = meta_replies
    result = BasisResult(basis="travel", reward=0.5, score=0.5, info=info)
    return record(result, simulation(task_id=task_id), task_id=task_id)


def _failed(task_id: str, status: str = "infra_error") -> Rec:
    return Rec(task_id, 0, status, 1, None, None)


def _pairs(records: list[Rec], config: dict[str, Any] | None = None) -> dict[str, Any]:
    c = official_comparison(records, config or {"suite": "travel"})
    return {p.metric: (p.lifebench, p.official) for p in c.pairs}


def test_the_subset_of_a_failed_run_comes_from_its_id_its_run_or_its_file() -> None:
    ok = _judged((5, 5, 5), replies=[judge_xml("优秀", "优秀", "优秀")], task_id="single-1")
    # by id prefix (runs of several subsets)
    assert _pairs([ok, _failed("single-2")])["single"] == (100.0, 50.0)
    plain = _judged((5, 5, 5), replies=[judge_xml("优秀", "优秀", "优秀")])
    # by the run's --subset, else by the task file's name
    config = {"suite": "travel", "suite_options": {"subset": "single"}}
    assert _pairs([plain, _failed("2")], config)["single"] == (100.0, 50.0)
    by_file = {"suite": "travel", "tasks_file": "data/single_turn.jsonl"}
    assert _pairs([plain, _failed("2")], by_file)["single"] == (100.0, 50.0)
    # pooled records read their own run's configuration (a sweep's combine)
    pooled = {"suite": "travel", "pooled": {"cellA": config}}
    moved = Rec("cellA/2", 0, "infra_error", 1, None, None)
    assert _pairs([plain, moved], pooled)["single"] == (100.0, 50.0)
    # unknown: not counted
    assert _pairs([plain, _failed("2")])["single"] == (100.0, 100.0)
    # a rejected run counts like a failed one; a pending one not at all
    assert _pairs([ok, _failed("single-2", "rejected"), _failed("single-3", "pending")])[
        "single"
    ] == (100.0, 50.0)


def test_nothing_to_compare() -> None:
    c = official_comparison([_failed("2", "pending")], {"suite": "travel"})
    assert not c.available and "no unit of a known subset" in c.reason


def test_offline_and_imported_verdicts_are_their_own_official_reading() -> None:
    offline = _judged((4, 4, 4), kind="offline")
    c = official_comparison([offline], {"suite": "travel"})
    assert c.pairs[0].official == c.pairs[0].lifebench == 75.0 and c.differing_units == 0
    assert not any("stored" in n for n in c.notes)
    # an llm judgement graded before the answers were stored: taken as lifebench's, and said
    stale = _judged((4, 4, 4))
    c = official_comparison([stale], {"suite": "travel"})
    assert c.pairs[0].official == 75.0
    assert any("1 trajectory(ies) were graded before" in n for n in c.notes)


def test_the_meta_judge_is_read_officially() -> None:
    answer = judge_xml("优秀", "优秀", "优秀")
    exact = _judged((5, 5, 5), replies=[answer], meta=4, meta_replies=[meta_xml("较好")])
    decorated = _judged((5, 5, 5), replies=[answer], meta=4, meta_replies=[meta_xml("**较好**")])
    other = _judged((5, 5, 5), replies=[answer], meta=4, meta_replies=[meta_xml("一般")])
    older = _judged((5, 5, 5), replies=[answer], meta=4)  # no stored meta answers
    assert _pairs([exact])["single"] == (80.0, 80.0)
    assert _pairs([decorated])["single"] == (80.0, 100.0)  # factor 1 officially
    assert _pairs([other])["single"] == (80.0, 60.0)
    assert _pairs([older])["single"] == (80.0, 80.0)
    classes = official_comparison([exact, decorated, other, older], {"suite": "travel"}).classes
    assert classes == {"meta_unread_officially": 1, "meta_read_differently": 1}


def test_a_lifebench_grading_error_the_official_reader_can_use() -> None:
    answer = judge_xml("较好", "较好", "较好")
    info = {"judge_replies": [answer], "grading_error": "x", "subset": "single"}
    failed = BasisResult(basis="travel", reward=0.0, score=0.0, info=info)
    rec = record(failed, error="evaluation failed: travel: x")
    c = official_comparison([rec], {"suite": "travel"})
    assert (c.pairs[0].lifebench, c.pairs[0].official) == (None, 75.0)
    assert c.classes == {"lifebench_grading_error_scored_officially": 1}
    unreadable = record(
        failed.model_copy(update={"info": {**info, "judge_replies": ["no"]}}), error="x"
    )
    c = official_comparison([unreadable], {"suite": "travel"})
    assert (c.pairs[0].lifebench, c.pairs[0].official) == (None, None) and c.classes == {}


def _unsolved(first: str, later: str, rule: str, task_id: str) -> Rec:
    from lifebench.messages import AssistantMessage, UserMessage

    sim = simulation(
        [
            UserMessage(content="q"),
            AssistantMessage(content=first),
            AssistantMessage(content=later),
        ],
        task_id=task_id,
    )
    by_rule = {
        "first": "[Unsolved]" in first,
        "final": "[Unsolved]" in later,
        "exact": later == "[Unsolved]",
    }
    info = {"subset": "unsolvable", "rule": rule, "by_rule": by_rule}
    result = BasisResult(basis="travel", reward=float(by_rule[rule]), score=0.0, info=info)
    return record(result, sim, task_id=task_id)


def test_the_unsolved_rule_and_the_overall() -> None:
    late = _unsolved("let me check", "[Unsolved]", "final", "unsolvable-1")
    early = _unsolved("[Unsolved]", "[Unsolved]", "final", "unsolvable-2")
    c = official_comparison([late, early], {"suite": "travel"})
    assert (c.pairs[0].lifebench, c.pairs[0].official) == (100.0, 50.0)
    assert c.classes == {"unsolved_rule_not_first": 1}
    answer = judge_xml("较好", "较好", "较好")
    single = _judged((4, 4, 4), replies=[answer], task_id="single-1")
    answer4 = judge_xml("较好", "较好", "较好", "较好")
    multi = _judged((4, 4, 4, 4), subset="multi", replies=[answer4], task_id="multi-1")
    pairs = official_comparison([single, multi, late, early], {"suite": "travel"}).pairs
    assert [p.metric for p in pairs] == ["overall", "single", "multi", "unsolvable"]
    assert pairs[0].lifebench == pytest.approx((75 + 75 + 100) / 3)
    assert pairs[0].official == official_overall(75.0, 75.0, 50.0) == 66.67
    two = official_comparison([single, multi], {"suite": "travel"})
    assert [p.metric for p in two.pairs] == ["single", "multi"]
    assert two.pairs[0].lifebench_ci is None and any("two subsets only" in n for n in two.notes)


def test_the_official_overall_rounds_each_part_then_the_mean() -> None:
    assert official_overall(33.335, 33.335, 33.335) == 33.34
    assert official_overall(10.004, 10.004, 10.004) == 10.0
    assert official_overall(None, 1.0, 1.0) is None
    assert official_overall(1.0, None, 1.0) is None
    assert official_overall(1.0, 1.0, None) is None
