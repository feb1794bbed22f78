"""The suite's report numbers: micro aggregation over turns / sessions, breakdowns, exclusions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from lifebench.evaluation import BasisResult, Evaluation
from lifebench.flow.evaluation.report import flow_report


@dataclass(frozen=True)
class _Rec:
    evaluation: Evaluation | None
    status: str = "done"
    simulation: Any = None
    task_id: str = "t"
    trial: int = 0
    attempts: int = 1


def _turn(
    domain: str,
    *,
    gold_call: int,
    pred_call: int,
    correct_call: int,
    gp: int = 0,
    pp: int = 0,
    cp: int = 0,
    node: tuple[int, int] = (1, 1),
    fe: int = 0,
    unusable: int | None = None,
    score: int | None = None,
    missing: bool = False,
    error: str | None = None,
) -> _Rec:
    counts = {
        "gold_call": gold_call,
        "pred_call": pred_call,
        "correct_call": correct_call,
        "gold_params": gp,
        "pred_params": pp,
        "correct_params": cp,
        "node_gold": node[0],
        "node_correct": node[1],
        "format_error": fe,
        "unusable_replies": fe if unusable is None else unusable,
    }
    bases = {
        "turn": BasisResult(
            basis="turn",
            reward=1.0,
            score=1.0,
            info={
                "domain": domain,
                "role": f"{domain}-role",
                "format": "flowchart",
                "counts": counts,
            },
        )
    }
    if score is not None:
        bases["response"] = BasisResult(
            basis="response",
            reward=score / 10,
            score=score / 10,
            info={"score": score, "missing": missing},
        )
    return _Rec(Evaluation(reward=1.0, basis="turn", by_basis=bases, error=error))


_TURN_CONFIG = {
    "suite": "flow",
    "suite_options": {"level": "turn", "knowledge_format": "flowchart"},
}


def test_turn_metrics_are_micro_over_turns() -> None:
    records = [
        _turn("A", gold_call=1, pred_call=1, correct_call=1, gp=2, pp=2, cp=2),
        _turn("A", gold_call=1, pred_call=1, correct_call=0, gp=3, pp=2, cp=1, node=(1, 0)),
        _turn("B", gold_call=1, pred_call=0, correct_call=0, gp=1),
        _turn("B", gold_call=0, pred_call=1, correct_call=0, node=(0, 0), fe=1, unusable=3),
        _turn("B", gold_call=0, pred_call=0, correct_call=0, unusable=1),
    ]
    r = flow_report(records, _TURN_CONFIG)
    # tools: tp 1, pred 3, gold 3; params: tp 3, pred 4, gold 6
    assert r["tool_precision"] == pytest.approx(1 / 3)
    assert r["tool_recall"] == pytest.approx(1 / 3)
    assert r["tool_f1"] == pytest.approx(1 / 3)
    assert r["param_precision"] == pytest.approx(3 / 4)
    assert r["param_recall"] == pytest.approx(3 / 6)
    assert r["param_f1"] == pytest.approx(2 * 3 / 10)
    assert r["node_accuracy"] == pytest.approx(3 / 4)
    assert r["format_errors"] == 4 and r["unusable_turns"] == 1 and r["turns"] == 5
    assert r["by_domain"]["A"]["tool_recall"] == pytest.approx(1 / 2)
    assert r["by_domain"]["B"]["tool_precision"] == 0.0
    assert r["by_domain"]["B"]["tool_recall"] == 0.0
    assert r["by_format"]["flowchart"]["tool_f1"] == r["tool_f1"]
    assert set(r["by_role"]) == {"A-role", "B-role"}
    assert "response_score" not in r


def test_response_score_mean_and_missing() -> None:
    records = [
        _turn("A", gold_call=0, pred_call=0, correct_call=0, score=8),
        _turn("A", gold_call=0, pred_call=1, correct_call=0, score=1, missing=True),
        _turn("A", gold_call=1, pred_call=1, correct_call=1, score=None),
    ]
    records[2] = _turn("A", gold_call=1, pred_call=1, correct_call=1)
    r = flow_report(records, _TURN_CONFIG)
    assert r["response_score"] == pytest.approx(4.5)
    assert r["response_scored"] == 2 and r["response_missing"] == 1


def test_node_accuracy_only_for_flowchart_knowledge() -> None:
    records = [_turn("A", gold_call=0, pred_call=0, correct_call=0)]
    text = flow_report(records, {"suite_options": {"level": "turn", "knowledge_format": "text"}})
    assert "node_accuracy" not in text
    assert "node_accuracy" in flow_report(records, _TURN_CONFIG)


def test_unusable_units_are_left_out_and_counted() -> None:
    good = _turn("A", gold_call=1, pred_call=1, correct_call=1)
    records = [
        good,
        _turn("A", gold_call=1, pred_call=0, correct_call=0, error="judge failed"),
        _Rec(None, status="infra_error"),
    ]
    r = flow_report(records, _TURN_CONFIG)
    assert r["tool_recall"] == 1.0 and r["turns"] == 1
    assert r["turn_counts"]["not_evaluated"] == 2


def _session(
    domain: str,
    *,
    success: bool,
    progress: float,
    tp: int,
    n_pred: int,
    n_gold: int,
    official: int | None = None,
    capped: bool = False,
    failure: str | None = None,
    ungradable: bool = False,
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
        info["ungradable"] = True
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
                }
            },
        ),
    }
    return _Rec(Evaluation(reward=float(success), basis="completion", by_basis=bases))


_SESSION_CONFIG = {
    "suite": "flow",
    "suite_options": {"level": "session", "knowledge_format": "text"},
}


def test_session_metrics() -> None:
    records = [
        _session("A", success=True, progress=1.0, tp=2, n_pred=2, n_gold=2),
        _session(
            "A",
            success=False,
            progress=0.5,
            tp=1,
            n_pred=3,
            n_gold=2,
            official=2,
            failure="tool usage",
        ),
        _session(
            "B",
            success=False,
            progress=0.0,
            tp=0,
            n_pred=0,
            n_gold=1,
            capped=True,
            failure="missing step",
        ),
        _session("B", success=False, progress=0.0, tp=0, n_pred=0, n_gold=0, ungradable=True),
    ]
    r = flow_report(records, _SESSION_CONFIG)
    assert r["level"] == "session" and r["sessions"] == 3
    assert r["success_rate"] == pytest.approx(1 / 3)
    assert r["task_progress"] == pytest.approx(0.5)
    assert r["tool_precision"] == pytest.approx(3 / 5)
    assert r["tool_recall"] == pytest.approx(3 / 5)
    assert r["tool_f1"] == pytest.approx(3 / 5)
    assert r["capped"] == 1
    assert r["session_counts"]["official_double_count_right"] == 4
    assert r["session_counts"]["ungradable"] == 1
    assert r["failure_reasons"]["tool usage"] == 0.5 and r["failure_reasons"]["other"] == 0.0
    assert r["by_domain"]["A"]["success_rate"] == 0.5
    assert r["by_domain"]["B"]["task_progress"] == 0.0
    assert r["by_format"]["text"]["sessions"] == 3


def test_level_falls_back_to_the_bases_present() -> None:
    r = flow_report([_session("A", success=True, progress=1.0, tp=1, n_pred=1, n_gold=1)], {})
    assert r["level"] == "session" and r["success_rate"] == 1.0
