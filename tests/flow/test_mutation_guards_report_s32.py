"""Mutation guards for lifebench.flow.evaluation.report (issue 21, session 32): how many gradings
of one basis failed, the group of a unit whose main basis failed, and the group of a result
stored without a grouping key.

Numbers are worked out by hand in the comments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from lifebench.evaluation import GRADING_ERROR, BasisResult, Evaluation
from lifebench.flow.evaluation.report import flow_report


@dataclass(frozen=True)
class _Rec:
    evaluation: Evaluation | None
    status: str = "done"


def _config(level: str) -> dict[str, Any]:
    return {"suite": "flow", "suite_options": {"level": level, "knowledge_format": "text"}}


def _turn_info(domain: str, calls: tuple[int, int, int], **meta: Any) -> dict[str, Any]:
    gold, pred, correct = calls
    return {
        "domain": domain,
        "role": f"{domain}-role",
        "format": "text",
        **meta,
        "counts": {
            "gold_call": gold,
            "pred_call": pred,
            "correct_call": correct,
            "gold_params": 0,
            "pred_params": 0,
            "correct_params": 0,
            "node_gold": 0,
            "node_correct": 0,
            "format_error": 0,
            "unusable_replies": 0,
        },
    }


def _rec(**bases: dict[str, Any]) -> _Rec:
    by_basis = {
        name: BasisResult(basis=name, reward=0.0, score=0.0, info=info)
        for name, info in bases.items()
    }
    first = next(iter(by_basis))
    return _Rec(Evaluation(reward=0.0, basis=first, by_basis=by_basis))


def _failed(message: str) -> dict[str, Any]:
    return {GRADING_ERROR: message}


@pytest.mark.parametrize(
    "message", ["judge call failed: HTTP 500", "裁判调用失败：超时"], ids=["english", "chinese"]
)
def test_every_failed_grading_of_a_basis_is_counted(message: str) -> None:
    # three units: two failed response judges, one failed turn grading
    records = [
        _rec(turn=_turn_info("hotel", (1, 1, 1)), response=_failed(message)),
        _rec(turn=_turn_info("hotel", (1, 1, 0)), response=_failed(message)),
        _rec(turn=_failed(message)),
    ]
    counts = flow_report(records, _config("turn"))["turn_counts"]
    assert counts["grading_errors"] == {"response": 2, "turn": 1}
    assert counts["not_evaluated"] == 1


def test_every_failed_session_grading_is_counted() -> None:
    completion = _failed("completion judge failed: no verdict")
    records = [
        _rec(completion=completion),
        _rec(completion=completion),
        _rec(completion=completion),
    ]
    counts = flow_report(records, _config("session"))["session_counts"]
    assert counts["grading_errors"] == {"completion": 3}
    assert counts["not_evaluated"] == 3


def test_a_unit_whose_turn_grading_failed_is_grouped_by_its_response_judge() -> None:
    # the response judge still scored the reply (8): the unit counts in its own domain, role
    # and format, not in "(unknown)"
    response = {"domain": "酒店", "role": "前台", "format": "text", "score": 8, "missing": False}
    records = [
        _rec(turn=_failed("turn grading failed"), response=response),
        _rec(turn=_turn_info("酒店", (1, 1, 1), role="前台"), response={**response, "score": 4}),
    ]
    report = flow_report(records, _config("turn"))
    assert set(report["by_domain"]) == {"酒店"}
    assert set(report["by_role"]) == {"前台"}
    assert set(report["by_format"]) == {"text"}
    hotel = report["by_domain"]["酒店"]
    # one usable turn, two response scores: (8 + 4) / 2
    assert (hotel["turns"], hotel["response_score"], hotel["response_scored"]) == (1, 6.0, 2)


def test_a_result_stored_without_a_grouping_key_is_grouped_as_unknown() -> None:
    # graded before the knowledge format was recorded: no "format" key in its info
    old = _turn_info("flight", (1, 1, 1))
    del old["format"]
    records = [_rec(turn=old), _rec(turn=_turn_info("flight", (1, 2, 0)))]
    report = flow_report(records, _config("turn"))
    assert sorted(report["by_format"]) == ["(unknown)", "text"]
    assert report["by_format"]["(unknown)"]["tool_precision"] == 1.0
    assert report["by_format"]["text"]["tool_precision"] == 0.0
    assert set(report["by_domain"]) == {"flight"}
