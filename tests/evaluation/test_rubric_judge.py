"""The rubric judge with a scripted model: carry-over, flips, malformed output, variants, dedup."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest

from lifebench.evaluation import JudgeError
from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.models import ScriptedModel
from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.grading.rubric import RubricJudge
from lifebench.vita.grading.rubrics import task_rubrics
from lifebench.vita.task import VitaTask


def _task(state: list[str], overall: list[str]) -> VitaTask:
    return VitaTask.model_validate(
        {
            "id": "T1",
            "environment": {"time": "2025-06-21 11:20:00", "user_id": "U1"},
            "instructions": "Order noodles.",
            "evaluation_criteria": {
                "expected_states": [{"required_orders": [], "state_rubrics": state}],
                "overall_rubrics": overall,
            },
        }
    )


def _sim(
    n_messages: int, termination: TerminationReason = TerminationReason.AGENT_STOP
) -> Simulation:
    messages: list[Any] = []
    for i in range(n_messages):
        messages.append(
            UserMessage(content=f"u{i}") if i % 2 else AssistantMessage(content=f"a{i}")
        )
    return Simulation(task_id="T1", trial=0, seed=5, messages=messages, termination=termination)


def _current(messages: Sequence[Message]) -> dict[str, Any]:
    prompt = messages[1].content
    block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", prompt, re.S)
    assert block is not None
    return dict(json.loads(block.group(1)))


def test_rubric_dedup_modes() -> None:
    # the three modes give three different lists on this task
    task = _task(
        ["The noodles must be mild", "Deliver to the hospital", "Pay with the saved card"],
        ["The noodle dish must be mild.", "Deliver to the hospital", "Pay the order"],
    )
    assert task_rubrics(task, "exact") == [
        "The noodles must be mild",
        "Deliver to the hospital",
        "Pay with the saved card",
        "The noodle dish must be mild.",
        "Pay the order",
    ]
    assert task_rubrics(task, "overall") == [
        "The noodle dish must be mild.",
        "Deliver to the hospital",
        "Pay the order",
    ]
    assert task_rubrics(task, "paraphrase") == [
        "The noodle dish must be mild.",
        "Deliver to the hospital",
        "Pay the order",
        "Pay with the saved card",
    ]


async def test_state_carries_over_and_flips_only_when_told() -> None:
    seen: list[dict[str, Any]] = []

    def judge(messages: Sequence[Message], tools: Any) -> str:
        current = _current(messages)
        seen.append({k: v["meetExpectation"] for k, v in current.items()})
        window = len(seen)
        if window == 1:
            return json.dumps(
                [{"rubric_key": "rubric_0", "meetExpectation": True, "justification": "[2]"}]
            )
        if window == 2:  # reply says nothing about rubric_0: it keeps its value
            return json.dumps(
                [{"rubric_key": "rubric_1", "meetExpectation": True, "justification": "[9]"}]
            )
        return json.dumps(
            [{"rubric_key": "rubric_1", "meetExpectation": False, "justification": "[17] reversed"}]
        )

    model = ScriptedModel([judge], repeat_last=True)
    result = await RubricJudge(model).evaluate(_task([], ["A", "B"]), _sim(19))
    assert seen == [
        {"rubric_0": False, "rubric_1": False},
        {"rubric_0": True, "rubric_1": False},
        {"rubric_0": True, "rubric_1": True},
    ]
    assert [c.met for c in result.criteria] == [True, False]
    assert result.reward == 0.0 and result.score == 0.5
    # each window's justification is appended to the rubric's record
    assert result.criteria[1].evidence == "[9]\n[17] reversed"
    assert [w["messages"] for w in result.info["windows"]] == [[0, 9], [8, 17], [16, 18]]
    # window text carries 1-based global indices
    assert "[17] assistant: a16" in model.calls[2].messages[1].content
    assert "window 3 (out of 3" not in model.calls[2].messages[0].content
    assert "window 3 of 3" in model.calls[2].messages[0].content


async def test_all_met_gives_reward_one_and_usage_is_recorded() -> None:
    def judge(messages: Sequence[Message], tools: Any) -> str:
        return json.dumps(
            [{"rubric_key": k, "meetExpectation": "true"} for k in _current(messages)]
        )

    result = await RubricJudge(ScriptedModel([judge], repeat_last=True)).evaluate(
        _task([], ["A", "B"]), _sim(8)
    )
    assert result.reward == 1.0 and result.score == 1.0 and result.basis == "rubric"
    assert result.usage.calls == 1


async def test_malformed_then_valid_and_unknown_keys() -> None:
    replies = [
        "garbage",
        json.dumps([{"rubric_key": "rubric_9", "meetExpectation": True}]),
        json.dumps(
            [
                {"rubric_key": "rubric_0", "meetExpectation": True},
                {"rubric_key": "zzz", "meetExpectation": True},
            ]
        ),
    ]
    model = ScriptedModel(replies)
    result = await RubricJudge(model).evaluate(_task([], ["A"]), _sim(4))
    assert result.reward == 1.0 and len(model.calls) == 3
    assert result.info["windows"][0]["attempts"] == 3


async def test_judge_that_never_answers_raises_judge_error() -> None:
    with pytest.raises(JudgeError):
        await RubricJudge(ScriptedModel(["???"], repeat_last=True)).evaluate(
            _task([], ["A"]), _sim(4)
        )


async def test_abnormal_endings_are_not_judged() -> None:
    model = ScriptedModel([])
    result = await RubricJudge(model).evaluate(
        _task([], ["A"]), _sim(4, TerminationReason.MAX_STEPS)
    )
    assert result.reward == 0.0 and "max_steps" in result.note and not model.calls


async def test_full_and_norubric_variants() -> None:
    full = ScriptedModel([json.dumps([{"rubric_key": "rubric_0", "meetExpectation": True}])])
    r = await RubricJudge(full, variant="full").evaluate(_task([], ["A"]), _sim(25))
    assert r.basis == "rubric_full" and r.reward == 1.0 and len(full.calls) == 1
    assert "<conversation>" in full.calls[0].messages[1].content

    memories: list[str] = []

    def verdict(messages: Sequence[Message], tools: Any) -> str:
        memories.append(re.search(r"<memory>\n(.*)\n</memory>", messages[1].content, re.S).group(1))  # type: ignore[union-attr]
        return json.dumps(
            {"justification": "ok", "meetExpectation": True, "memory": f"m{len(memories)}"}
        )

    sliding = ScriptedModel([verdict], repeat_last=True)
    r = await RubricJudge(sliding, variant="sliding-norubric").evaluate(_task([], ["A"]), _sim(19))
    assert r.basis == "judge_sliding" and r.reward == 1.0 and memories == ["", "m1", "m2"]

    one = ScriptedModel([json.dumps([{"justification": "no", "meetExpectation": False}])])
    r = await RubricJudge(one, variant="full-norubric").evaluate(_task([], ["A"]), _sim(19))
    assert r.basis == "judge_full" and r.reward == 0.0


async def test_chinese_judge_prompt() -> None:
    model = ScriptedModel([json.dumps([{"rubric_key": "rubric_0", "meetExpectation": True}])])
    await RubricJudge(model, language="zh").evaluate(_task([], ["A"]), _sim(3))
    system = model.calls[0].messages[0].content
    assert "星期六" in system and "功能等价" in system and "推翻" in system
