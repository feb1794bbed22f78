"""Guards of per-unit outcomes and failure groups (issue 21, s33): each test is a near miss of
one rule of ``lifebench.reporting._outcomes`` (the outcome of a unit, its error line, the
criteria it failed, its cost, and how failures are grouped, counted and ordered)."""

from __future__ import annotations

import pytest
from test_report_outcomes import _Rec

from lifebench.evaluation._types import BasisResult, CriterionVerdict, Evaluation
from lifebench.messages import AssistantMessage, ToolResultMessage, Usage, UserMessage
from lifebench.reporting._outcomes import (
    FailedCriterion,
    FailureGroup,
    failure_groups,
    failure_key,
    first_line,
    tool_error_kinds,
    unit_summaries,
    unit_summary,
)
from lifebench.simulation._types import Simulation, TerminationReason


def _sim(task_id: str = "t", trial: int = 0, **update: object) -> Simulation:
    base = Simulation(
        task_id=task_id,
        trial=trial,
        seed=trial,
        messages=[
            UserMessage(turn=0, content="订一张票"),
            AssistantMessage(turn=1, content="ok"),
        ],
        termination=TerminationReason.AGENT_STOP,
        tool_calls=3,
        tool_errors=1,
        agent_usage=Usage(prompt_tokens=10, completion_tokens=2, cost=0.25),
        user_usage=Usage(prompt_tokens=5, completion_tokens=1, cost=0.125),
        tool_usage=Usage(cost=0.0625),
    )
    return base.model_copy(update=update)


def _ev(reward: float, error: str | None = None, **by_basis: BasisResult) -> Evaluation:
    bases = by_basis or {"state": BasisResult(basis="state", reward=reward, score=reward)}
    return Evaluation(reward=reward, basis="state", by_basis=bases, error=error)


# ------------------------------------------------------------------ first_line / failure_key


def test_first_line_skips_blank_lines_collapses_spaces_and_cuts_at_the_limit() -> None:
    assert first_line("\n   \n  Timeout   while\tcalling  \nsecond line") == "Timeout while calling"
    assert first_line(None) == "" and first_line("") == "" and first_line(" \n\t") == ""
    exact = "x" * 200
    assert first_line(exact) == exact  # exactly the limit is kept whole
    assert first_line(exact + "y") == "x" * 199 + "…"
    assert len(first_line("长" * 500)) == 200
    assert first_line("abcdef", limit=4) == "abc…"
    assert first_line("abcd", limit=4) == "abcd"


def test_failure_key_masks_request_ids_and_hashes_only() -> None:
    uuid = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    assert failure_key(f"rate limited (request {uuid})") == "rate limited (request …)"
    assert failure_key("hash 0123456789abcdef0 failed") == "hash … failed"
    # 15 hex digits, or 16 letters a-f with no digit (a word), are kept
    assert failure_key("id 0123456789abcde") == "id 0123456789abcde"
    assert failure_key("deadbeefdeadbeef") == "deadbeefdeadbeef"
    assert failure_key("ID ABCDEF0123456789") == "ID …"
    assert failure_key(None) == "(no message)" and failure_key("  \n ") == "(no message)"


# ------------------------------------------------------------------ unit_summary


def test_failed_criteria_every_basis_sorted_with_notes() -> None:
    rubric = BasisResult(
        basis="rubric",
        reward=0.0,
        score=0.5,
        criteria=[
            CriterionVerdict(id="r1", description="polite", met=True),
            CriterionVerdict(
                id="r2", description="confirms the date\nin detail", met=False, evidence=""
            ),
        ],
    )
    state = BasisResult(
        basis="state",
        reward=0.0,
        score=0.0,
        criteria=[
            CriterionVerdict(
                id="s1", description="order placed", met=False, evidence="没有订单\nmore"
            )
        ],
    )
    action = BasisResult(basis="action", reward=1.0, score=1.0, note="no actions\nexpected")
    checked = BasisResult(
        basis="zz",
        reward=1.0,
        score=1.0,
        note="ignored: has criteria",
        criteria=[CriterionVerdict(id="z", description="d", met=True)],
    )
    summary = unit_summary(
        _Rec(
            "t",
            0,
            "done",
            simulation=_sim(),
            evaluation=_ev(0.0, rubric=rubric, state=state, action=action, zz=checked),
        )
    )
    assert summary.failed == [
        FailedCriterion(basis="rubric", id="r2", description="confirms the date", evidence=""),
        FailedCriterion(basis="state", id="s1", description="order placed", evidence="没有订单"),
    ]
    assert [c.line() for c in summary.failed] == [
        "rubric/r2: confirms the date",
        "state/s1: 没有订单",
    ]
    assert summary.notes == ["action: no actions"]
    assert summary.outcome == "fail" and summary.reward == 0.0 and summary.error is None


def test_a_done_unit_carries_its_numbers() -> None:
    summary = unit_summary(
        _Rec("t", 2, "done", attempts=3, simulation=_sim("t", 2), evaluation=_ev(1.0))
    )
    assert summary.outcome == "pass" and summary.reward == 1.0
    assert summary.status == "done" and summary.attempts == 3 and summary.trial == 2
    assert summary.termination == TerminationReason.AGENT_STOP.value
    assert (summary.turns, summary.tool_calls, summary.tool_errors) == (2, 3, 1)
    assert summary.cost == pytest.approx(0.4375)
    judged = BasisResult(
        basis="rubric", reward=1.0, score=1.0, usage=Usage(prompt_tokens=1, cost=0.5)
    )
    with_judge = unit_summary(
        _Rec("t", 0, "done", simulation=_sim(), evaluation=_ev(1.0, rubric=judged))
    )
    assert with_judge.cost == pytest.approx(0.9375)


def test_a_grading_error_keeps_its_criteria_and_first_line() -> None:
    state = BasisResult(
        basis="state",
        reward=0.0,
        score=0.0,
        criteria=[CriterionVerdict(id="s", description="d", met=False, evidence="e")],
    )
    summary = unit_summary(
        _Rec(
            "t",
            0,
            "done",
            simulation=_sim(),
            evaluation=_ev(0.0, error="judge returned no JSON\ntraceback", state=state),
        )
    )
    assert summary.outcome == "grading_error" and summary.reward is None
    assert summary.error == "judge returned no JSON"
    assert [c.id for c in summary.failed] == ["s"]


@pytest.mark.parametrize(
    ("record", "error"),
    [
        (_Rec("t", 0, "infra_error", error="connection reset\nstack"), "connection reset"),
        (_Rec("t", 0, "infra_error", simulation=_sim(error="上游超时")), "上游超时"),
        (
            _Rec("t", 0, "infra_error", simulation=_sim(error="from sim"), error="from record"),
            "from record",
        ),
        (_Rec("t", 0, "infra_error", simulation=_sim()), "infrastructure error"),
        (_Rec("t", 0, "infra_error"), "infrastructure error"),
    ],
    ids=["record-error", "simulation-error", "record-first", "no-message", "no-simulation"],
)
def test_the_error_of_an_infrastructure_failure(record: _Rec, error: str) -> None:
    summary = unit_summary(record)
    assert summary.outcome == "infra_error" and summary.error == error and summary.reward is None


def test_pending_and_ungradable_units() -> None:
    pending = unit_summary(_Rec("t", 0, "pending"))
    assert pending.outcome == "pending" and pending.error is None
    assert (pending.termination, pending.turns, pending.cost) == (None, None, None)
    done_without_simulation = unit_summary(_Rec("t", 0, "done", evaluation=_ev(1.0)))
    assert done_without_simulation.outcome == "pending"
    running = unit_summary(_Rec("t", 0, "running", simulation=_sim(), evaluation=_ev(1.0)))
    assert running.outcome == "pending" and running.reward is None
    ungradable = unit_summary(_Rec("t", 0, "done", simulation=_sim()))
    assert ungradable.outcome == "ungradable"
    assert ungradable.error == "no evaluation stored for a completed simulation"


def test_an_unpriced_part_makes_the_cost_unknown() -> None:
    unpriced = _sim(user_usage=Usage(prompt_tokens=5, unpriced=1))
    assert unit_summary(_Rec("t", 0, "done", simulation=unpriced, evaluation=_ev(1.0))).cost is None


def test_summaries_are_ordered_by_task_then_trial() -> None:
    records = [
        _Rec("b", 0, "pending"),
        _Rec("a", 10, "pending"),
        _Rec("a", 9, "pending"),
    ]
    assert [(s.task_id, s.trial) for s in unit_summaries(records)] == [
        ("a", 9),
        ("a", 10),
        ("b", 0),
    ]


# ------------------------------------------------------------------ failure_groups


def test_failure_groups_count_order_and_example() -> None:
    def infra(task: str, trial: int, message: str) -> _Rec:
        return _Rec(task, trial, "infra_error", error=message)

    records = [
        infra("b", 1, "HTTP 503 (request 0123456789abcdef01)"),
        infra("a", 3, "HTTP 503 (request fedcba98765432100)"),
        infra("a", 1, "HTTP 503 (request 00000000000000000a)"),
        infra("c", 0, "DNS failure"),
        _Rec("z", 0, "done", simulation=_sim(), evaluation=_ev(0.0, error="judge down")),
        _Rec("y", 0, "done", simulation=_sim()),
        _Rec("x", 0, "done", simulation=_sim(), evaluation=_ev(1.0)),
        _Rec("w", 0, "done", simulation=_sim(), evaluation=_ev(0.0)),
        _Rec("v", 0, "pending"),
        infra("d", 0, "A timeout"),
        infra("d", 1, "A timeout"),
    ]
    groups = failure_groups(unit_summaries(records))
    assert groups == [
        FailureGroup(
            kind="infrastructure", message="HTTP 503 (request …)", count=3, tasks=2, example="a#1"
        ),
        FailureGroup(kind="infrastructure", message="A timeout", count=2, tasks=1, example="d#0"),
        FailureGroup(kind="infrastructure", message="DNS failure", count=1, tasks=1, example="c#0"),
        FailureGroup(kind="grading", message="judge down", count=1, tasks=1, example="z#0"),
        FailureGroup(
            kind="ungradable",
            message="no evaluation stored for a completed simulation",
            count=1,
            tasks=1,
            example="y#0",
        ),
    ]
    # the same order whatever order the summaries come in
    assert failure_groups(list(reversed(unit_summaries(records)))) == groups


def test_groups_of_equal_count_are_ordered_by_message() -> None:
    records = [
        _Rec("a", 0, "infra_error", error="beta"),
        _Rec("b", 0, "infra_error", error="alpha"),
        _Rec("c", 0, "done", simulation=_sim(), evaluation=_ev(0.0, error="aaa")),
    ]
    assert [(g.kind, g.message) for g in failure_groups(unit_summaries(records))] == [
        ("infrastructure", "alpha"),
        ("infrastructure", "beta"),
        ("grading", "aaa"),
    ]


# ------------------------------------------------------------------ tool_error_kinds


def test_tool_error_kinds_by_kind_sorted() -> None:
    def result(kind: str | None, error: bool = True) -> ToolResultMessage:
        return ToolResultMessage(
            turn=2, tool_call_id="c", name="pay", content="x", error=error, error_kind=kind
        )

    messages = [
        *_sim().messages,
        result("validation"),
        result(None),
        result("precondition"),
        result("validation"),
        result("validation", error=False),
    ]
    done = _Rec("t", 0, "done", simulation=_sim(messages=messages), evaluation=_ev(0.0))
    kinds = tool_error_kinds([done, _Rec("u", 0, "done")])
    assert kinds == {"precondition": 1, "unspecified": 1, "validation": 2}
    assert list(kinds) == ["precondition", "unspecified", "validation"]
