"""lifebench's official-mode FlowBench numbers against the official code's, on crafted inputs.

``tests/official/flowbench_scoring.json`` holds our inputs (raw agent replies, gold thoughts,
session dialogues and gold call lists, judge verdicts, the fuzzy matcher's yes-answers) and
what the official code made of them: the text its inference stores, every turn's counters,
the turn-level P/R, every session's counters and the session-level numbers (see
``tests/official/README.md``). Each must come out of lifebench's official mode exactly.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from id_rules import readable_id
from lifebench.evaluation import GRADING_ERROR, BasisResult, Evaluation
from lifebench.flow.evaluation.official import (
    official_prediction,
    official_ratio,
    official_turn,
)
from lifebench.flow.evaluation.report import official_comparison
from lifebench.flow.evaluation.session import SessionToolsEvaluator
from lifebench.flow.tasks import parse_actions
from lifebench.flow.tasks.models import SessionTask
from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from lifebench.simulation import Simulation, TerminationReason

FIXTURE = Path(__file__).parents[1] / "official" / "flowbench_scoring.json"
DATA = json.loads(FIXTURE.read_text(encoding="utf-8"))
YES = {tuple(x) for x in DATA["fuzzy_yes"]}


def _same(key: str, gold: str, pred: str) -> bool:
    return (key, gold, pred) in YES


def _official(turn: dict[str, Any]) -> dict[str, int]:
    thought = turn["gt_thought"]
    return official_turn(
        turn["predict"], thought.get("Action"), thought.get("Action Input"), _same
    ).as_info()


def test_the_fixture_has_at_least_forty_inputs_per_level() -> None:
    assert len(DATA["turns"]) >= 40 and len(DATA["sessions"]) >= 40


@pytest.mark.parametrize("turn", DATA["turns"], ids=lambda t: readable_id(t["raw"][-40:]))
def test_each_prediction_is_stored_and_counted_as_officially(turn: dict[str, Any]) -> None:
    assert official_prediction(turn["raw"]) == turn["predict"]
    counted = _official(turn)
    if turn["official"] is None:  # skipped ("api call error")
        assert counted["skipped"] == 1
    else:
        assert {k: v for k, v in counted.items() if k != "skipped"} == turn["official"]


def test_the_turn_level_precision_and_recall() -> None:
    totals = {"correct_call": 0, "pred_call": 0, "gold_call": 0}
    params = {"correct_params": 0, "pred_params": 0, "gold_params": 0}
    for turn in DATA["turns"]:
        counted = _official(turn)
        for key in (*totals, *params):
            (totals if key in totals else params)[key] += counted[key]
    final = DATA["turn_final"]
    assert official_ratio(totals["correct_call"], totals["pred_call"]) == final["turn_call_pre"]
    assert official_ratio(totals["correct_call"], totals["gold_call"]) == final["turn_call_rec"]
    assert (
        official_ratio(params["correct_params"], params["pred_params"])
        == (final["turn_params_pre"])
    )
    assert (
        official_ratio(params["correct_params"], params["gold_params"])
        == (final["turn_params_rec"])
    )


def test_a_zero_denominator_gives_the_official_negative_zero() -> None:
    assert str(official_ratio(0, 0)) == "-0.0" and official_ratio(1, 2) == 0.5


def _session_messages(case: dict[str, Any]) -> list[Message]:
    messages: list[Message] = [UserMessage(content="hello, please help")]
    for i, raw in enumerate(case["raws"]):
        calls = [ToolCall(id=f"c{i}", name="x", arguments="{}")] if "Action:" in raw else []
        messages.append(AssistantMessage(content="", tool_calls=calls, raw={"react": raw}))
        if calls:
            messages.append(
                ToolResultMessage(tool_call_id=f"c{i}", name="x", content='{"ok": true}')
            )
    messages.append(
        AssistantMessage(content="All set.", raw={"react": "Thought: done\nResponse: All set."})
    )
    return messages


def _task(case: dict[str, Any]) -> SessionTask:
    return SessionTask(
        id=case["id"],
        user_summary="goal",
        gold_calls=tuple(parse_actions(case["gt_actions_string"])),
    )


def _simulation(case: dict[str, Any]) -> Simulation:
    return Simulation(
        task_id=case["id"],
        trial=0,
        seed=1,
        messages=_session_messages(case),
        termination=TerminationReason.MAX_STEPS if case["capped"] else TerminationReason.USER_STOP,
    )


def _completion(case: dict[str, Any]) -> BasisResult:
    verdict = case["verdict"]
    if verdict is None:
        info: dict[str, Any] = {GRADING_ERROR: "judge gave no usable answer"}
        return BasisResult(basis="completion", reward=0.0, score=0.0, info=info)
    success, total, achieved = verdict
    info = {
        "domain": "d",
        "role": "r",
        "format": "text",
        "capped": case["capped"],
        "judge_success": success,
        "success": success and not case["capped"],
        "goals": total,
        "achieved": achieved,
        "progress": achieved / total,
    }
    return BasisResult(basis="completion", reward=float(info["success"]), score=0.0, info=info)


@dataclass(frozen=True)
class _Rec:
    task_id: str
    evaluation: Evaluation | None
    status: str = "done"
    trial: int = 0


@pytest.fixture(scope="module")
def session_records() -> list[_Rec]:
    async def build() -> list[_Rec]:
        out = []
        for case in DATA["sessions"]:
            tools = await SessionToolsEvaluator().evaluate(_task(case), _simulation(case))
            bases = {"completion": _completion(case), "session_tools": tools}
            error = None if case["verdict"] is not None else "completion failed"
            out.append(
                _Rec(
                    case["id"],
                    Evaluation(reward=0.0, basis="completion", by_basis=bases, error=error),
                )
            )
        return out

    return asyncio.run(build())


def test_each_session_is_counted_as_officially(session_records: list[_Rec]) -> None:
    for case, record in zip(DATA["sessions"], session_records, strict=True):
        assert record.evaluation is not None
        official = record.evaluation.by_basis["session_tools"].info["official"]
        expected = case["official"]
        assert official == {
            "right": expected["right_api_num"],
            "n_gold": expected["all_api_num_gt"],
            "n_pred": expected["all_api_num_pre"],
        }, case["id"]


def test_the_session_level_numbers(session_records: list[_Rec]) -> None:
    config = {"suite": "flow", "suite_options": {"level": "session", "knowledge_format": "text"}}
    comparison = official_comparison(session_records, config)
    pairs = {p.metric: p.official for p in comparison.pairs}
    final = DATA["session_final"]
    assert pairs == {
        "success_rate": final["success_rate"],
        "task_progress": final["avg_progress"],
        "tool_precision": final["tool_precision"],
        "tool_recall": final["tool_recall"],
    }
    assert comparison.pairs[0].metric == "success_rate"
    assert comparison.classes["completion_judge_failed_counted_zero"] == sum(
        1 for c in DATA["sessions"] if c["verdict"] is None
    )
    capped = sum(1 for c in DATA["sessions"] if c["capped"] and c["verdict"] and c["verdict"][0])
    assert comparison.classes["abnormal_ending_succeeds_officially"] == capped
