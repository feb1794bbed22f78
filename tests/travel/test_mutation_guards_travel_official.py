"""Mutation guards for lifebench.travel.grading.official (issue 21): why the official loop drops a
trajectory, pinned where the comparison reports it."""

from __future__ import annotations

from typing import Any

from travel_fakes import record, simulation

from lifebench.evaluation import BasisResult
from lifebench.travel.grading.official import drop_class
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
