"""Mutation guards for lifebench.travel.grading.official (issue 21): why the official loop drops a
trajectory, pinned where the comparison reports it."""

from __future__ import annotations

from typing import Any

from travel_fakes import record, simulation

from lifebench.evaluation import BasisResult
from lifebench.travel.grading.official import (
    drop_class,
    official_judgement,
    official_meta,
    rating_classes,
    read_meta_answer,
)
from lifebench.travel.grading.report import official_comparison

DIMS = ("reasoning_planning", "summarization_extraction", "presentation")


def test_no_stored_answer_is_an_unparsable_drop() -> None:
    # nothing to read is what the official reader sees of a reply it cannot parse
    assert drop_class([], DIMS) == "official_drops_unparsable_xml"
    assert drop_class(["no xml here <"], DIMS) == "official_drops_unparsable_xml"
    assert drop_class(["<response><presentation>x</presentation></response>"], DIMS) == (
        "official_drops_no_exact_rating"
    )


def test_an_llm_result_without_any_stored_answer_is_dropped_officially() -> None:
    info: dict[str, Any] = {
        "subset": "single",
        "ratings": dict.fromkeys(DIMS, 4),
        "judge_kind": "llm",
        "meta_judge": False,
        "tool_calls": 1,
        "tool_errors": 0,
        "attempts": 1,
        "judge_replies": [],
    }
    result = BasisResult(basis="travel", reward=0.75, score=0.75, info=info)
    comparison = official_comparison([record(result, simulation())], {"suite": "travel"})
    assert comparison.classes == {"official_drops_unparsable_xml": 1}
    pair = {p.metric: p for p in comparison.pairs}["single"]
    assert (pair.lifebench, pair.official) == (75.0, None)


def _classes(answer: str, ours: dict[str, int | None], attempt: int | None = 1) -> list[str]:
    judged = official_judgement([answer], DIMS)
    assert judged is not None
    return rating_classes(judged, answer, ours, attempt)


def _block(dim: str, rating: str | None) -> str:
    inner = "" if rating is None else f"<rating>{rating}</rating>"
    return f"<{dim}><reasoning>r</reasoning>{inner}</{dim}>"


RP, SE, PR = DIMS


def test_a_reask_is_a_class_only_from_the_second_attempt() -> None:
    answer = f"<response>{_block(RP, '较好')}</response>"
    ours = {RP: 4}
    assert _classes(answer, ours, 2) == ["lifebench_used_a_reask"]
    assert _classes(answer, ours, 3) == ["lifebench_used_a_reask"]
    assert _classes(answer, ours, 1) == []
    assert _classes(answer, ours, None) == []


def test_why_a_dimension_lifebench_rated_has_no_official_rating() -> None:
    answer = f"<response>{_block(RP, '较好')}{_block(SE, '4')}{_block(PR, None)}</response>"
    assert _classes(answer, {RP: 4, SE: 4, PR: 3}) == [
        "rating_not_an_exact_level_word",
        "dimension_unread_officially",
    ]


def test_a_rating_read_differently_unless_the_answer_repeats_the_block() -> None:
    once = f"<response>{_block(RP, '较好')}</response>"
    assert _classes(once, {RP: 3}) == ["rating_read_differently"]
    # only the official reader rated it: not a duplicate-block case, even with two blocks
    assert _classes(once, {RP: None}) == ["rating_read_differently"]
    twice = f"<response>{_block(RP, '较好')}{_block(RP, '一般')}</response>"
    assert _classes(twice, {RP: 3}) == ["duplicate_block_first_vs_last"]
    assert _classes(twice, {RP: None}) == ["rating_read_differently"]


def test_the_meta_reading_of_nothing_and_of_an_answer_without_rating() -> None:
    assert official_meta([]) is None
    assert read_meta_answer("<meta_evaluation><reasoning>x</reasoning></meta_evaluation>") == ""
    assert official_meta(["<meta_evaluation><rating>较好</rating></meta_evaluation>"]) == 4
