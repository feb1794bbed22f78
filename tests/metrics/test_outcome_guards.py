"""A unit's reported outcome and cost, pinned by effect: an unpriced call makes the unit's cost
unknown (never a sum that leaves it out), a failed grading is a grading error, a unit without an
evaluation is ungradable, and the tool errors of unfinished units are not counted."""

from __future__ import annotations

import pytest
from metrics_fakes import Rec, ev, sim

from lifebench.messages import ToolResultMessage, Usage
from lifebench.reporting._outcomes import tool_error_kinds, unit_summary


def test_an_unpriced_call_makes_the_cost_unknown() -> None:
    priced = sim("t", 0)
    assert unit_summary(Rec("t", 0, "done", 1, priced, ev(1.0))).cost == pytest.approx(0.012)
    unpriced = priced.model_copy(
        update={"tool_usage": Usage(prompt_tokens=5, completion_tokens=5, unpriced=1)}
    )
    assert unit_summary(Rec("t", 0, "done", 1, unpriced, ev(1.0))).cost is None


@pytest.mark.parametrize(
    ("evaluation", "outcome", "reward"),
    [
        (ev(1.0), "pass", 1.0),
        (ev(0.0), "fail", 0.0),
        (ev(0.0, error="the judge answered no JSON"), "grading_error", None),
        (None, "ungradable", None),
    ],
    ids=["pass", "fail", "grading-error", "no-evaluation"],
)
def test_outcome_of_a_done_unit(evaluation: object, outcome: str, reward: float | None) -> None:
    summary = unit_summary(Rec("t", 0, "done", 1, sim("t", 0), evaluation))  # type: ignore[arg-type]
    assert (summary.outcome, summary.reward) == (outcome, reward)
    if outcome == "grading_error":
        assert summary.error == "the judge answered no JSON"


def test_tool_errors_of_unfinished_units_are_not_counted() -> None:
    failed_call = ToolResultMessage(
        turn=2, tool_call_id="c", name="pay", content="bad", error=True, error_kind="precondition"
    )
    with_error = sim("t", 0).model_copy(update={"messages": [*sim("t", 0).messages, failed_call]})
    done = Rec("t", 0, "done", 1, with_error, ev(0.0))
    assert tool_error_kinds([done]) == {"precondition": 1}
    for status in ("infra_error", "pending", "rejected"):
        assert tool_error_kinds([done, Rec("t", 1, status, 1, with_error, None)]) == {
            "precondition": 1
        }
