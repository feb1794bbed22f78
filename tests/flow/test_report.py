"""The suite's report numbers: micro aggregation over turns / sessions, breakdowns, exclusions.

Whole reports are compared, so that every key and every sum is pinned."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lifebench.evaluation import GRADING_ERROR, BasisResult, Evaluation
from lifebench.flow.evaluation.report import flow_report


@dataclass(frozen=True)
class _Rec:
    evaluation: Evaluation | None
    status: str = "done"


def _turn(
    domain: str,
    counts: tuple[int, ...],
    *,
    node: tuple[int, int] = (1, 1),
    fe: tuple[int, int] = (0, 0),
    score: int | None = None,
    missing: bool = False,
    error: str | None = None,
    fmt: str = "flowchart",
) -> _Rec:
    gold_call, pred_call, correct_call, gp, pp, cp = counts
    info = {
        "domain": domain,
        "role": f"{domain}-role",
        "format": fmt,
        "counts": {
            "gold_call": gold_call,
            "pred_call": pred_call,
            "correct_call": correct_call,
            "gold_params": gp,
            "pred_params": pp,
            "correct_params": cp,
            "node_gold": node[0],
            "node_correct": node[1],
            "format_error": fe[0],
            "unusable_replies": fe[1],
        },
    }
    bases = {"turn": BasisResult(basis="turn", reward=1.0, score=1.0, info=info)}
    if score is not None:
        bases["response"] = BasisResult(
            basis="response",
            reward=score / 10,
            score=score / 10,
            info={"score": score, "missing": missing},
        )
    return _Rec(Evaluation(reward=1.0, basis="turn", by_basis=bases, error=error))


def _failed_turn() -> _Rec:
    failed = BasisResult(
        basis="turn", reward=0.0, score=0.0, info={GRADING_ERROR: "judge call failed: HTTP 500"}
    )
    return _Rec(Evaluation(reward=0.0, basis="turn", by_basis={"turn": failed}, error="failed"))


def _config(level: str, fmt: str) -> dict[str, Any]:
    return {"suite": "flow", "suite_options": {"level": level, "knowledge_format": fmt}}


def _nums(
    turns: int, tool: tuple[int, int, int], param: tuple[int, int, int], **kw: Any
) -> dict[str, Any]:
    def prf(tp: int, n_pred: int, n_gold: int) -> tuple[Any, Any, Any]:
        p = tp / n_pred if n_pred else None
        r = tp / n_gold if n_gold else None
        f = 2 * tp / (n_pred + n_gold) if n_pred + n_gold else None
        return p, r, f

    tp_, tr_, tf_ = prf(*tool)
    pp_, pr_, pf_ = prf(*param)
    return {
        "turns": turns,
        "tool_precision": tp_,
        "tool_recall": tr_,
        "tool_f1": tf_,
        "param_precision": pp_,
        "param_recall": pr_,
        "param_f1": pf_,
        "format_errors": kw.pop("format_errors", 0),
        "unusable_turns": kw.pop("unusable_turns", 0),
        **kw,
    }


def test_turn_report_whole() -> None:
    records = [
        _turn("A", (1, 1, 1, 2, 2, 2)),
        _turn("A", (1, 1, 0, 3, 2, 1), node=(1, 0)),
        _turn("B", (1, 0, 0, 1, 0, 0)),
        _turn("B", (0, 1, 0, 0, 0, 0), node=(0, 0), fe=(1, 3)),
        _turn("B", (0, 0, 0, 0, 0, 0), fe=(0, 1)),
        _failed_turn(),  # its grading failed: not evaluated
        _Rec(None, status="infra_error"),  # not evaluated
        _Rec(
            Evaluation(
                reward=0.0,
                basis="turn",
                by_basis={
                    "turn": BasisResult(
                        basis="turn", reward=0.0, score=0.0, info={"ungradable": True}
                    )
                },
            )
        ),
    ]
    a = _nums(2, (1, 2, 2), (3, 4, 5), node_accuracy=0.5)
    b = _nums(3, (0, 1, 1), (0, 0, 1), format_errors=4, unusable_turns=1, node_accuracy=1.0)
    total = _nums(5, (1, 3, 3), (3, 4, 6), format_errors=4, unusable_turns=1, node_accuracy=0.75)
    assert flow_report(records, _config("turn", "flowchart")) == {
        "level": "turn",
        **total,
        "turn_counts": {
            "tools": {
                "tp": 1,
                "n_pred": 3,
                "n_gold": 3,
                "precision": 1 / 3,
                "recall": 1 / 3,
                "f1": 1 / 3,
            },
            "params": {
                "tp": 3,
                "n_pred": 4,
                "n_gold": 6,
                "precision": 0.75,
                "recall": 0.5,
                "f1": 0.6,
            },
            "nodes": {"correct": 3, "gold": 4},
            "ungradable": 1,
            "not_evaluated": 2,
            "grading_errors": {"turn": 1},
        },
        "by_domain": {"A": a, "B": b},
        "by_role": {"A-role": a, "B-role": b},
        "by_format": {"flowchart": total},
    }


def test_response_score_and_node_accuracy_only_when_they_apply() -> None:
    records = [
        _turn("A", (0, 0, 0, 0, 0, 0), score=8, fmt="text"),
        _turn("A", (0, 1, 0, 0, 0, 0), score=1, missing=True, fmt="text"),
        _turn("A", (0, 1, 0, 0, 0, 0), score=1, missing=True, fmt="text"),
        _turn("B", (1, 1, 1, 0, 0, 0), fmt="text"),
    ]
    rep = flow_report(records, _config("turn", "text"))
    judged = {"response_score": 10 / 3, "response_scored": 3, "response_missing": 2}
    want = _nums(4, (1, 3, 1), (0, 0, 0), **judged)
    assert {k: rep[k] for k in want} == want
    assert "node_accuracy" not in rep and rep["by_format"] == {"text": want}
    no_scores = {"response_score": None, "response_scored": 0, "response_missing": 0}
    assert rep["by_domain"]["B"] == _nums(1, (1, 1, 1), (0, 0, 0), **no_scores)
    assert "node_accuracy" in flow_report(records, _config("turn", "ensemble"))
    plain = flow_report(records[3:], _config("turn", "text"))
    assert "response_score" not in plain and plain["turns"] == 1


def _session(
    domain: str,
    calls: tuple[int, int, int],
    *,
    success: bool = False,
    progress: float = 0.0,
    official: int | None = None,
    capped: bool = False,
    failure: str | None = None,
    ungradable: bool = False,
    format_errors: int = 0,
) -> _Rec:
    info: dict[str, Any] = {
        "domain": domain,
        "role": "r",
        "format": "text",
        "success": success,
        "progress": progress,
        "capped": capped,
    }
    if failure:
        info["failure_reason"] = failure
    if ungradable:
        info = {"domain": domain, "ungradable": True}
    tp, n_pred, n_gold = calls
    bases = {
        "completion": BasisResult(
            basis="completion", reward=float(success), score=progress, info=info
        ),
        "session_tools": BasisResult(
            basis="session_tools",
            reward=0.0,
            score=0.0,
            info={
                "calls": {
                    "tp": tp,
                    "n_pred": n_pred,
                    "n_gold": n_gold,
                    "official_right": tp if official is None else official,
                },
                "format_errors": format_errors,
            },
        ),
    }
    return _Rec(Evaluation(reward=float(success), basis="completion", by_basis=bases))


def _s(
    sessions: int, sr: float, tp_: float, tools: tuple[Any, Any, Any], **kw: Any
) -> dict[str, Any]:
    return {
        "sessions": sessions,
        "success_rate": sr,
        "task_progress": tp_,
        "tool_precision": tools[0],
        "tool_recall": tools[1],
        "tool_f1": tools[2],
        "capped": kw.pop("capped", 0),
        "format_errors": kw.pop("format_errors", 0),
        **kw,
    }


def test_session_report_whole() -> None:
    records = [
        _session("A", (2, 2, 2), success=True, progress=1.0, format_errors=2),
        _session("A", (1, 3, 2), progress=0.5, official=2, failure="tool usage"),
        _session("B", (0, 0, 1), capped=True, failure="tool usage", format_errors=1),
        _session("B", (0, 0, 0), ungradable=True),
        _session("B", (0, 0, 0), ungradable=True),
        _session("B", (0, 0, 0), failure="missing step"),
    ]
    reasons_ab = {
        "missing step": 1 / 3,
        "incorrect sequence": 0.0,
        "incorrect transition": 0.0,
        "tool usage": 2 / 3,
        "other": 0.0,
    }
    a = _s(
        2, 0.5, 0.75, (3 / 5, 3 / 4, 6 / 9), format_errors=2,
        failure_reasons={**{k: 0.0 for k in reasons_ab}, "tool usage": 1.0},
    )  # fmt: skip
    b = _s(
        2, 0.0, 0.0, (None, 0.0, 0.0), capped=1, format_errors=1,
        failure_reasons={**{k: 0.0 for k in reasons_ab}, "tool usage": 0.5, "missing step": 0.5},
    )  # fmt: skip
    total = _s(
        4, 0.25, 1.5 / 4, (3 / 5, 3 / 5, 3 / 5), capped=1, format_errors=3,
        failure_reasons=reasons_ab,
    )  # fmt: skip
    assert flow_report(records, _config("session", "text")) == {
        "level": "session",
        **total,
        "session_counts": {
            "tools": {
                "tp": 3,
                "n_pred": 5,
                "n_gold": 5,
                "precision": 0.6,
                "recall": 0.6,
                "f1": 0.6,
            },
            "official_double_count_right": 4,
            "ungradable": 2,
            "not_evaluated": 0,
            "grading_errors": {},
        },
        "by_domain": {"A": a, "B": b},
        "by_role": {"r": total},
        "by_format": {"text": total},
    }


def test_no_failure_reasons_without_classified_failures() -> None:
    rep = flow_report(
        [_session("A", (1, 1, 1), success=True, progress=1.0)], _config("session", "text")
    )
    assert "failure_reasons" not in rep and rep["success_rate"] == 1.0


def _failed(result: BasisResult) -> BasisResult:
    return result.model_copy(update={"info": {GRADING_ERROR: "inconsistent verdict"}})


def test_each_judged_part_fails_alone() -> None:
    # a session whose completion judge failed keeps its tool counts; one whose fuzzy matcher
    # failed keeps its success and progress
    ok = _session("A", (1, 1, 1), success=True, progress=1.0)
    judge_failed = _session("A", (2, 3, 2))
    assert judge_failed.evaluation is not None
    bases = dict(judge_failed.evaluation.by_basis)
    bases["completion"] = _failed(bases["completion"])
    judge_failed = _Rec(
        judge_failed.evaluation.model_copy(update={"by_basis": bases, "error": "x"})
    )
    tools_failed = _session("B", (9, 9, 9), success=True, progress=1.0)
    assert tools_failed.evaluation is not None
    bases = dict(tools_failed.evaluation.by_basis)
    bases["session_tools"] = _failed(bases["session_tools"])
    tools_failed = _Rec(
        tools_failed.evaluation.model_copy(update={"by_basis": bases, "error": "y"})
    )
    rep = flow_report([ok, judge_failed, tools_failed], _config("session", "text"))
    assert (rep["sessions"], rep["success_rate"], rep["task_progress"]) == (2, 1.0, 1.0)
    assert rep["session_counts"]["tools"] == {
        "tp": 3, "n_pred": 4, "n_gold": 3, "precision": 0.75, "recall": 1.0, "f1": 6 / 7,
    }  # fmt: skip
    assert rep["session_counts"]["not_evaluated"] == 1
    assert rep["session_counts"]["grading_errors"] == {"completion": 1, "session_tools": 1}
    # at turn level a failed response judge leaves the turn's counters in
    turn = _turn("A", (1, 1, 1, 2, 2, 2), score=7)
    assert turn.evaluation is not None
    bases = dict(turn.evaluation.by_basis)
    bases["response"] = _failed(bases["response"])
    failed_response = _Rec(turn.evaluation.model_copy(update={"by_basis": bases}))
    rep = flow_report([failed_response], _config("turn", "text"))
    assert rep["turns"] == 1 and rep["tool_f1"] == 1.0
    assert (rep["response_score"], rep["response_scored"]) == (None, 0)
    assert rep["turn_counts"]["grading_errors"] == {"response": 1}
