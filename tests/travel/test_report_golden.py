"""The whole travel report of a small hand-built run, every number computed by hand."""

from __future__ import annotations

from typing import Any

import pytest
from travel_fakes import Rec

from lifebench.evaluation import BasisResult, Evaluation
from lifebench.messages import UserMessage
from lifebench.simulation import Simulation, TerminationReason
from lifebench.travel.grading import report_metrics
from lifebench.travel.grading.report import report_metrics as direct

RP, SE, PR = "reasoning_planning", "summarization_extraction", "presentation"


def _sim(calls: int, errors: int, box: dict[str, Any] | None = None, trial: int = 0) -> Simulation:
    return Simulation(
        task_id="t",
        trial=trial,
        seed=0,
        messages=[UserMessage(content="q")],
        termination=TerminationReason.MAX_TURNS,
        tool_calls=calls,
        tool_errors=errors,
        final_state={} if box is None else {"sandbox": box},
    )


def _judged(
    ratings: list[int | None], calls: int, errors: int, meta: int | None, **info: Any
) -> dict[str, Any]:
    return {
        "method": "judge",
        "subset": "single",
        "ratings": dict(zip((RP, SE, PR), ratings, strict=True)),
        "tool_calls": calls,
        "tool_errors": errors,
        "meta_score": meta,
        "meta_judge": True,
        "meta_failed": False,
        "judge_kind": "llm",
        **info,
    }


def _rec(
    sim: Simulation,
    info: dict[str, Any] | None,
    *,
    error: str | None = None,
    basis: str = "travel",
    status: str = "done",
    graded: bool = True,
) -> Rec:
    evaluation = None
    if graded:
        by_basis = (
            {}
            if info is None
            else {basis: BasisResult(basis=basis, reward=0.0, score=0.0, info=info)}
        )
        evaluation = Evaluation(reward=0.0, basis=basis, by_basis=by_basis, error=error)
    return Rec("t", sim.trial, status, 1, sim, evaluation)


def _records() -> list[Rec]:
    box1 = {"calls": 2, "cache_hits": 1, "cache_misses": 1, "simulated_calls": 1, "memo_hits": 0}
    box2 = {
        "backend": "x",
        "calls": 4,
        "cache_hits": 0,
        "cache_misses": 4,
        "simulated_calls": 3,
        "memo_hits": 1,
    }
    box5 = {"calls": "3", "cache_hits": 2.0}
    failed = BasisResult(basis="travel", reward=0, score=0, note="failed: judge")
    return [
        _rec(_sim(2, 0, box1), _judged([5, 5, 5], 2, 0, 5)),
        _rec(
            _sim(4, 1, box2, 1),
            _judged([3, 3, None], 4, 1, 4, judge_kind="official"),
            basis="official",
        ),
        Rec(
            "t",
            2,
            "done",
            1,
            _sim(1, 0, trial=2),
            Evaluation(
                reward=0,
                basis="travel",
                by_basis={"travel": failed.model_copy(update={"info": {"subset": "single"}})},
                error="evaluation failed: travel: judge gave no usable answer",
            ),
        ),
        _rec(_sim(1, 0, trial=3), _judged([5, 5, 5], 0, 0, None) | {"ratings": {}}),
        _rec(_sim(1, 1, box5, 4), _judged([1, 1, 1], 1, 1, None, meta_failed=True)),
        _rec(
            _sim(0, 0, trial=11), _judged([None, None, None], 0, 0, None) | {"ratings": {RP: "x"}}
        ),
        # unsolvable
        _rec(
            _sim(0, 0, trial=5),
            {
                "method": "unsolved",
                "subset": "unsolvable",
                "rule": "final",
                "by_rule": {"first": True, "final": True, "exact": False},
            },
        ),
        _rec(
            _sim(2, 1, trial=6),
            {
                "method": "unsolved",
                "subset": "unsolvable",
                "rule": "final",
                "by_rule": {"first": False, "final": True, "exact": True},
            },
        ),
        _rec(_sim(1, 1, trial=7), {"method": "unsolved", "subset": "unsolvable"}),
        # no subset anywhere
        _rec(_sim(1, 0, trial=8), {"method": "judge"}),
        # not part of the report: pending, infrastructure error
        _rec(_sim(9, 9, trial=9), None, status="pending", graded=False),
        Rec("t", 10, "done", 1, None, None),
    ]


EXPECTED_SINGLE = {
    "n": 3,
    "judge_failures": 3,
    "ungraded": 0,
    "judge_kind": ["llm", "official"],
    # per dimension F means: RP (100 + 30 + 0)/3, SE the same, PR (100 + 0)/2
    "score": 45.5555555556,
    "raw_score": 50.0,  # N_i: 100, 50, 0
    "penalized_score": 45.8333333333,  # P_i: 100, 37.5, 0
    "mean_instance_score": 43.3333333333,  # F_i: 100, 30, 0
    "score_failures_as_zero": 22.7777777778,  # 45.56 × 3 / 6
    "dimensions": {
        RP: {
            "rated": 3,
            "mean_rating": 3.0,
            "raw": 50.0,
            "score": 43.3333333333,
            "distribution": [1, 0, 1, 0, 1],
            "missing": 0,
        },
        SE: {
            "rated": 3,
            "mean_rating": 3.0,
            "raw": 50.0,
            "score": 43.3333333333,
            "distribution": [1, 0, 1, 0, 1],
            "missing": 0,
        },
        PR: {
            "rated": 2,
            "mean_rating": 3.0,
            "raw": 50.0,
            "score": 50.0,
            "distribution": [1, 0, 0, 0, 1],
            "missing": 1,
        },
    },
    "tool_error_rate": 0.4166666667,  # (0 + 0.25 + 1) / 3
    "pooled_tool_error_rate": 0.2222222222,  # (0 + 1 + 0 + 0 + 1) / (2 + 4 + 1 + 1 + 1)
    "samples_with_tool_errors": 2,
    "tool_error_rate_buckets": [1, 1, 0, 0, 1],
    "meta_judge": {
        "enabled": 3,
        "rated": 2,
        "failures": 1,
        "mean": 4.5,
        "distribution": [0, 0, 0, 1, 1],
        "calibrated": 1,
    },
    "sandbox": {
        "reported": True,
        "calls": 6,
        "cache_hits": 3,
        "cache_misses": 5,
        "simulated_calls": 4,
        "memo_hits": 1,
        "cache_hit_rate": 0.375,
    },
}
EXPECTED_UNSOLVABLE = {
    "n": 2,
    "evaluation_failures": 1,
    "ungraded": 0,
    "rule": "final",
    "unsolved_accuracy": 1.0,
    "accuracy_by_rule": {"first": 0.5, "final": 1.0, "exact": 0.5},
    "score": 100.0,
    "raw_score": 100.0,
    "tool_error_rate": 0.5,  # (0 + 0.5 + 1) / 3
    "pooled_tool_error_rate": 0.6666666667,
    "sandbox": {"reported": False},
}


def test_the_whole_report() -> None:
    out = report_metrics(_records(), {"suite": "travel"})
    assert out["travel"]["subsets"]["single"] == EXPECTED_SINGLE
    assert out["travel"]["subsets"]["unsolvable"] == EXPECTED_UNSOLVABLE
    assert out["travel"]["subsets"]["unknown"] == {"n": 1, "note": "subset unknown: not scored"}
    assert out == {
        "score": None,  # two subsets: neither one subset's score nor the overall
        "raw_score": None,
        "unsolved_accuracy": 1.0,
        "travel": {
            "subsets": out["travel"]["subsets"],
            "overall": None,
            "judge_kind": ["llm", "official"],
            "judge_failures": 3,
        },
    }


def test_the_config_subset_places_records_without_a_result() -> None:
    records = [
        _rec(_sim(1, 0), None, graded=False),
        _rec(_sim(1, 0, trial=1), None, error="evaluation failed: x"),
        _rec(_sim(1, 0, trial=2), None, graded=False),
        _rec(_sim(1, 0, trial=3), None, error="evaluation failed: y"),
    ]
    out = direct(records, {"suite": "travel", "suite_options": {"subset": "unsolvable"}})
    unsolvable = out["travel"]["subsets"]["unsolvable"]
    assert (unsolvable["ungraded"], unsolvable["evaluation_failures"], unsolvable["n"]) == (2, 2, 0)
    assert unsolvable["unsolved_accuracy"] is None and unsolvable["score"] is None
    assert unsolvable["accuracy_by_rule"] == {"first": None, "final": None, "exact": None}
    assert "unsolved_accuracy" not in out and out["score"] is None
    auto = direct(records, {"suite": "travel", "suite_options": {"subset": "auto"}})
    assert set(auto["travel"]["subsets"]) == {"unknown"}
    single = direct(records, {"suite": "travel", "suite_options": {"subset": "single"}})
    judged = single["travel"]["subsets"]["single"]
    assert (judged["ungraded"], judged["judge_failures"], judged["n"]) == (2, 2, 0)
    assert judged["score"] is None and judged["score_failures_as_zero"] is None
    assert judged["tool_error_rate"] is None and judged["pooled_tool_error_rate"] == 0.0
    assert judged["meta_judge"]["mean"] is None


def test_no_tool_calls_gives_no_pooled_rate() -> None:
    out = direct([_rec(_sim(0, 0), _judged([4, 4, 4], 0, 0, None))], {"suite": "travel"})
    single = out["travel"]["subsets"]["single"]
    assert single["pooled_tool_error_rate"] is None and single["tool_error_rate"] == 0.0
    assert out["score"] == 75.0 and out["raw_score"] == 75.0
    assert single["score_failures_as_zero"] == 75.0


def test_two_meta_failures_and_the_default_unsolved_rule() -> None:
    records = [
        _rec(_sim(0, 0), _judged([4, 4, 4], 0, 0, None, meta_failed=True)),
        _rec(_sim(0, 0, trial=1), _judged([4, 4, 4], 0, 0, None, meta_failed=True)),
        _rec(_sim(0, 0, trial=2), {"subset": "unsolvable", "by_rule": {"first": True}}),
    ]
    out = direct(records, {"suite": "travel"})
    assert out["travel"]["subsets"]["single"]["meta_judge"]["failures"] == 2
    unsolvable = out["travel"]["subsets"]["unsolvable"]
    assert unsolvable["rule"] == "first" and unsolvable["unsolved_accuracy"] == 1.0


def test_multi_turn_subset_uses_four_dimensions() -> None:
    info = _judged([3, 3, 3], 0, 0, None) | {
        "subset": "multi",
        "ratings": {RP: 3, SE: 3, PR: 3, "user_interaction": 1},
    }
    out = direct([_rec(_sim(0, 0), info)], {"suite": "travel"})
    assert out["score"] == 37.5 and set(out["travel"]["subsets"]["multi"]["dimensions"]) == {
        RP,
        SE,
        PR,
        "user_interaction",
    }


def test_unrated_values_in_stored_info_are_ignored() -> None:
    info = _judged([4, 4, 4], 2, 1, 4)
    info["ratings"] = {RP: 4, SE: "4", PR: 6.0}
    info["meta_score"] = "5"
    info.pop("tool_calls")
    out = direct([_rec(_sim(2, 1), info)], {"suite": "travel"})
    single = out["travel"]["subsets"]["single"]
    # only RP is a usable rating; no calls recorded → no penalty; the meta score is not an int
    assert single["raw_score"] == 75.0 and single["mean_instance_score"] == 75.0
    assert single["dimensions"][SE]["missing"] == 1 and single["meta_judge"]["rated"] == 0
    assert single["score"] == pytest.approx(25.0)
