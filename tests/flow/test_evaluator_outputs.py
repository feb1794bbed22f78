"""Whole outputs of the flow evaluators and judges (every key of what is stored), their model
settings and re-ask budgets, and the exact shape rules of every judge answer."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flow_synthetic import PAY, session_task, turn_samples

from lifebench.evaluation import BasisResult, JudgeError
from lifebench.flow.evaluation.arguments import FuzzyJudge, _same
from lifebench.flow.evaluation.prediction import Prediction, normalize_node, prediction_of
from lifebench.flow.evaluation.response import ResponseJudge, check_score, history_text
from lifebench.flow.evaluation.session import (
    CompletionJudge,
    FailureClassifier,
    RuleCompletion,
    SessionToolsEvaluator,
    _check_failure,
    check_completion,
    render_dialogue,
)
from lifebench.flow.evaluation.turn import TurnEvaluator
from lifebench.flow.tasks import FlowMessage
from lifebench.messages import AssistantMessage, ToolCall, ToolResultMessage, Usage, UserMessage
from lifebench.models import ScriptedModel
from lifebench.simulation import Simulation, TerminationReason

_SAMPLES = turn_samples()
_REPLY_TURN, _TOOL_TURN = _SAMPLES[0], _SAMPLES[1]
_META = {
    "domain": "Customer Service",
    "role": "bill_clerk",
    "setting": "single",
    "session": "20350305100000123456789",
}


def _static(*messages: AssistantMessage, seed: int = 7) -> Simulation:
    return Simulation(
        task_id="t",
        trial=0,
        seed=seed,
        messages=list(messages),
        termination=TerminationReason.STATIC,
    )


def _dump(result: BasisResult) -> dict[str, Any]:
    return result.model_dump(mode="json")


def _scripted(*texts: str) -> ScriptedModel:
    return ScriptedModel([AssistantMessage(content=t, usage=Usage(prompt_tokens=9)) for t in texts])


# -- turn ----------------------------------------------------------------------------------


async def test_turn_result_of_a_correct_call() -> None:
    message = AssistantMessage(
        reasoning="current_node=PB002.",
        tool_calls=[
            ToolCall(id="1", name="payBill", arguments='{"bill_id": "b-77", "amount": "120"}'),
            ToolCall(id="2", name="payBill", arguments="{}"),
        ],
        raw={"notes": ["tool name 'paybill' read as 'payBill'"], "format_errors": 1},
    )
    result = await TurnEvaluator(knowledge_format="code").evaluate(_TOOL_TURN, _static(message))
    assert _dump(result) == {
        "gradable": True,
        "unchecked": [],
        "basis": "turn",
        "reward": 1.0,
        "score": 1.0,
        "criteria": [
            {
                "id": "action",
                "description": "The agent should call payBill.",
                "met": True,
                "evidence": "predicted: call payBill",
            }
        ],
        "usage": Usage.zero().model_dump(mode="json"),
        "note": "",
        "info": {
            **_META,
            "format": "code",
            "counts": {
                "gold_call": 1,
                "pred_call": 1,
                "pred_reply": 0,
                "correct_call": 1,
                "gold_params": 2,
                "pred_params": 2,
                "correct_params": 2,
                "node_gold": 1,
                "node_correct": 1,
                "format_error": 0,
                "unusable_replies": 1,
            },
            "gold_action": "payBill",
            "pred_action": "payBill",
            "pred_node": "PB002",
            "gold_node": "PB002",
            "judge_asked": 0,
            "unsure_values": 0,
            "extra_calls": 1,
            "notes": ["tool name 'paybill' read as 'payBill'"],
            # officially "120" is not 120 (types strict) and the empty "method" is counted
            "official": {
                "skipped": 0,
                "gold_call": 1,
                "pred_call": 1,
                "correct_call": 0,
                "gold_params": 3,
                "pred_params": 2,
                "correct_params": 1,
            },
        },
    }


async def test_turn_result_of_a_reply_turn() -> None:
    said = await TurnEvaluator().evaluate(_REPLY_TURN, _static(AssistantMessage(content="Hi")))
    assert said.reward == 1.0 and said.criteria[0].evidence == "predicted: reply"
    assert said.criteria[0].description == "The agent should reply to the user."
    silent = await TurnEvaluator().evaluate(_REPLY_TURN, _static(AssistantMessage(content="")))
    assert silent.reward == 0.0 and silent.score == 0.0
    assert silent.criteria[0].evidence == "predicted: nothing"
    assert silent.info["gold_action"] is None and silent.info["notes"] == []
    assert silent.info["format"] == ""  # no knowledge format named unless one is given
    none = await TurnEvaluator().evaluate(_REPLY_TURN, _static())
    assert none.info["counts"]["format_error"] == 1 and none.info["pred_node"] == ""


async def test_turn_unsure_values_are_counted_and_judged() -> None:
    message = AssistantMessage(
        tool_calls=[
            ToolCall(id="1", name="payBill", arguments='{"bill_id": "bill 77", "amount": 120}')
        ]
    )
    plain = await TurnEvaluator().evaluate(_TOOL_TURN, _static(message))
    assert (
        plain.reward == 0.0 and plain.info["unsure_values"] == 2 and plain.info["judge_asked"] == 0
    )
    model = _scripted('{"same": true}')
    judged = await TurnEvaluator(FuzzyJudge(model)).evaluate(_TOOL_TURN, _static(message))
    assert judged.reward == 1.0 and judged.info["judge_asked"] == 1
    assert judged.usage.prompt_tokens == 9
    prompt = model.calls[0].messages[-1].content
    assert 'A (reference): "B-77"' in prompt and 'B (assistant): "bill 77"' in prompt
    assert "API: payBill" in prompt and "2035-03-05 10:00:00 Monday" in prompt
    assert model.calls[0].config is not None and model.calls[0].config.temperature == 0.0


async def test_turn_enumerations_come_from_the_sample_tools() -> None:
    sample = _TOOL_TURN.model_copy(
        update={
            "gold": _TOOL_TURN.gold.model_copy(
                update={
                    "thought": _TOOL_TURN.gold.thought.model_copy(
                        update={
                            "action_input": '{"bill_id": "B-77", "amount": 120, "method": "card"}'
                        }
                    )
                }
            )
        }
    )
    args = '{"bill_id": "B-77", "amount": 120, "method": "card or cash"}'
    message = AssistantMessage(tool_calls=[ToolCall(id="1", name="payBill", arguments=args)])
    result = await TurnEvaluator().evaluate(sample, _static(message))
    assert result.reward == 0.0 and result.info["counts"]["correct_params"] == 2
    assert result.info["unsure_values"] == 0  # an enumeration is never unsure


async def test_turn_gold_without_a_node() -> None:
    sample = _REPLY_TURN.model_copy(
        update={
            "gold": _REPLY_TURN.gold.model_copy(
                update={
                    "thought": _REPLY_TURN.gold.thought.model_copy(update={"current_node": None})
                }
            )
        }
    )
    result = await TurnEvaluator().evaluate(sample, _static(AssistantMessage(content="Hi")))
    assert result.info["gold_node"] == "" and result.info["counts"]["node_gold"] == 0


async def test_turn_strict_parameters() -> None:
    message = AssistantMessage(
        tool_calls=[ToolCall(id="1", name="pay", arguments='{"bill_id": "B-77", "amount": 120}')]
    )
    official = await TurnEvaluator().evaluate(_TOOL_TURN, _static(message))
    strict = await TurnEvaluator(strict_params=True).evaluate(_TOOL_TURN, _static(message))
    assert official.info["counts"]["correct_params"] == 2
    assert strict.info["counts"]["correct_params"] == 0


async def test_turn_evaluator_refuses_other_episodes_and_tasks() -> None:
    sim = _static().model_copy(update={"termination": TerminationReason.USER_STOP})
    result = await TurnEvaluator().evaluate(_REPLY_TURN, sim)
    assert _dump(result) == {
        "basis": "turn",
        "reward": 0.0,
        "score": 0.0,
        "criteria": [],
        "usage": Usage.zero().model_dump(mode="json"),
        "note": "not a turn-level prediction (episode ended with user_stop); ungradable",
        "info": {**_META, "ungradable": True},
        "gradable": False,
        "unchecked": [],
    }
    with pytest.raises(
        TypeError, match=r"^the turn evaluator grades turn samples, not SessionTask$"
    ):
        await TurnEvaluator().evaluate(session_task(), sim)


def test_unknown_domain_and_role_are_named() -> None:
    from lifebench.flow.evaluation.session import session_meta
    from lifebench.flow.evaluation.turn import sample_meta

    sample = _REPLY_TURN.model_copy(update={"domain": "", "role": ""})
    assert (
        sample_meta(sample)["domain"] == "(unknown)" and sample_meta(sample)["role"] == "(unknown)"
    )
    task = session_task().model_copy(update={"domain": "", "role": ""})
    meta = session_meta(task, _static(AssistantMessage(content="a"), AssistantMessage(content="b")))
    assert meta == {
        "domain": "(unknown)",
        "role": "(unknown)",
        "setting": "single",
        "termination": "static",
        "capped": False,
        "agent_turns": 2,
    }


# -- response -------------------------------------------------------------------------------


async def test_response_judge_outputs() -> None:
    model = _scripted('{"score": 7, "reason": "ok"}')
    judge = ResponseJudge(model, lambda task: "WORKFLOW", knowledge_format="text")
    tool = await judge.evaluate(_TOOL_TURN, _static(AssistantMessage(content="x")))
    assert _dump(tool)["info"] == {
        **_META,
        "format": "text",
        "score": None,
        "note": "tool turn; not scored",
    }
    assert (tool.reward, tool.score) == (1.0, 1.0)
    plain = await ResponseJudge(model, lambda task: "").evaluate(
        _TOOL_TURN, _static(AssistantMessage(content="x"))
    )
    assert plain.info["format"] == ""  # no knowledge format named unless one is given
    call = AssistantMessage(tool_calls=[ToolCall(id="1", name="payBill")], content="text too")
    missing = await judge.evaluate(_SAMPLES[2], _static(call))
    assert _dump(missing)["info"] == {**_META, "format": "text", "score": 1, "missing": True}
    assert (missing.reward, missing.score) == (0.1, 0.1)
    assert model.calls == []
    scored = await judge.evaluate(
        _SAMPLES[2], _static(AssistantMessage(content="All paid."), seed=41)
    )
    assert _dump(scored)["info"] == {**_META, "format": "text", "score": 7, "missing": False}
    assert (scored.reward, scored.usage.prompt_tokens) == (0.7, 9)
    sent = model.calls[0]
    assert sent.config is not None and (sent.config.temperature, sent.config.seed) == (0.0, 41)
    prompt = sent.messages[-1].content
    assert "Reference reply:\nYour bill B-77 is paid. Anything else?" in prompt
    assert "Assistant's reply:\nAll paid." in prompt and "Workflow knowledge:\nWORKFLOW" in prompt
    assert 'API payBill returned: {"ok": "yes"}' in prompt
    with pytest.raises(
        TypeError, match=r"^the response judge grades turn samples, not SessionTask$"
    ):
        await judge.evaluate(session_task(), _static())


async def test_response_judge_reasks_twice() -> None:
    model = _scripted("great", "8/10", "eight")
    with pytest.raises(JudgeError):
        await ResponseJudge(model, lambda t: "").evaluate(
            _SAMPLES[2], _static(AssistantMessage(content="a"))
        )
    assert len(model.calls) == 3


def test_history_text_keeps_the_last_messages() -> None:
    history = [FlowMessage(role="user", content=f"m{i}") for i in range(10)]
    history.append(FlowMessage(role="function", name="f", content=" {} "))
    assert history_text(history) == "\n".join(
        [*(f"user: m{i}" for i in range(3, 10)), "API f returned: {}"]
    )
    assert history_text(history, last=1) == "API f returned: {}"


@pytest.mark.parametrize(
    ("answer", "score"),
    [({"score": 1}, 1), ({"score": 10}, 10), ([{"score": "7"}], 7), ({"score": 6.0}, 6), (9, 9)],
)
def test_score_answers_accepted(answer: Any, score: int) -> None:
    assert check_score(answer) == score


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"score": 0}, "score must be between 1 and 10"),
        ({"score": 11}, "score must be between 1 and 10"),
        ({"score": True}, 'expected {"score": <integer 1-10>}'),
        ({"score": 6.5}, 'expected {"score": <integer 1-10>}'),
        ({"grade": 6}, 'expected {"score": <integer 1-10>}'),
    ],
)
def test_score_answers_refused(answer: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        check_score(answer)


# -- session -------------------------------------------------------------------------------


def _session(calls: list[tuple[str, str]], **kw: Any) -> Simulation:
    messages: list[Any] = [UserMessage(content="pay B-77")]
    for i, (name, args) in enumerate(calls):
        messages.append(
            AssistantMessage(tool_calls=[ToolCall(id=str(i), name=name, arguments=args)])
        )
        messages.append(ToolResultMessage(tool_call_id=str(i), name=name, content='{"ok": "yes"}'))
    messages.append(AssistantMessage(content="Done.", raw={"format_errors": 1}))
    return Simulation(
        task_id="s",
        trial=0,
        seed=kw.pop("seed", 3),
        messages=messages,
        termination=kw.pop("termination", TerminationReason.USER_STOP),
        info=kw.pop("info", {}),
    )


_SESSION_META = {
    "domain": "Customer Service",
    "role": "bill_clerk",
    "setting": "single",
    "termination": "user_stop",
    "capped": False,
}
_RIGHT = '{"bill_id": "B-77", "amount": 120}'


async def test_session_tools_output() -> None:
    result = await SessionToolsEvaluator(knowledge_format="flowchart").evaluate(
        session_task(), _session([("payBill", _RIGHT), ("payBill", _RIGHT)])
    )
    assert _dump(result) == {
        "gradable": True,
        "unchecked": [],
        "basis": "session_tools",
        "reward": 1.0,
        "score": pytest.approx(2 / 3),
        "criteria": [],
        "usage": Usage.zero().model_dump(mode="json"),
        "note": "",
        "info": {
            **_SESSION_META,
            "agent_turns": 3,
            "format": "flowchart",
            "calls": {"tp": 1, "n_pred": 2, "n_gold": 1, "official_right": 1, "pairs": [0]},
            "judge_asked": 0,
            "format_errors": 1,
            # the released session comparison never matches a string argument
            "official": {"right": 0, "n_gold": 1, "n_pred": 2},
        },
    }
    empty = await SessionToolsEvaluator().evaluate(
        session_task().model_copy(update={"gold_calls": ()}), _session([])
    )
    assert (empty.reward, empty.score) == (1.0, 1.0)  # nothing expected, nothing made
    wrong = await SessionToolsEvaluator().evaluate(session_task(), _session([]))
    assert (wrong.reward, wrong.score) == (0.0, 0.0)
    assert wrong.info["format"] == ""  # no knowledge format named unless one is given


async def test_session_tools_with_a_judge() -> None:
    model = _scripted('{"same": true}')
    result = await SessionToolsEvaluator(FuzzyJudge(model)).evaluate(
        session_task(), _session([("payBill", '{"bill_id": "bill seventy-seven", "amount": 120}')])
    )
    assert (
        result.reward == 1.0 and result.info["judge_asked"] == 1 and result.usage.prompt_tokens == 9
    )
    prompt = model.calls[0].messages[-1].content
    assert "Current time: 2035-03-05 10:00:00 Monday" in prompt and "Parameter: bill_id" in prompt
    assert "API: payBill" in prompt
    with pytest.raises(
        TypeError, match=r"^session evaluators grade session tasks, not TurnSample$"
    ):
        await SessionToolsEvaluator().evaluate(_TOOL_TURN, _session([]))


async def test_session_calls_with_empty_or_odd_arguments() -> None:
    from lifebench.flow.evaluation.session import Call, predicted_calls

    messages = [
        AssistantMessage(tool_calls=[ToolCall(id="1", name="a", arguments="")]),
        AssistantMessage(tool_calls=[ToolCall(id="2", name="b", arguments="[1]")]),
        AssistantMessage(tool_calls=[ToolCall(id="3", name="c", arguments="{oops")]),
    ]
    assert predicted_calls(messages) == [Call("a", {}), Call("b", None), Call("c", None)]


async def test_rule_completion_outputs() -> None:
    two = session_task().model_copy(
        update={
            "gold_calls": (
                *session_task().gold_calls,
                session_task().gold_calls[0].model_copy(update={"name": "lookupBill"}),
            )
        }
    )
    result = await RuleCompletion(knowledge_format="text").evaluate(
        two, _session([("payBill", _RIGHT)])
    )
    assert _dump(result) == {
        "gradable": True,
        "unchecked": [],
        "basis": "completion",
        "reward": 0.0,
        "score": 0.5,
        "criteria": [
            {
                "id": "goals",
                "description": "Every user goal is achieved",
                "met": False,
                "evidence": "not made: lookupBill",
            }
        ],
        "usage": Usage.zero().model_dump(mode="json"),
        "note": "",
        "info": {
            **_SESSION_META,
            "agent_turns": 2,
            "format": "text",
            "judge": "rules",
            "goals": 2,
            "achieved": 1,
            "judge_success": False,
            "success": False,
            "progress": 0.5,
            "reason": "not made: lookupBill",
        },
    }
    three = two.model_copy(update={"gold_calls": (*two.gold_calls, two.gold_calls[1])})
    missing = await RuleCompletion().evaluate(three, _session([("payBill", _RIGHT)]))
    assert missing.info["reason"] == "not made: lookupBill, lookupBill"
    done = await RuleCompletion().evaluate(session_task(), _session([("payBill", _RIGHT)]))
    assert done.info["reason"] == "" and done.criteria[0].evidence == ""
    assert done.info["format"] == ""  # no knowledge format named unless one is given


async def test_rule_completion_of_an_uncheckable_task() -> None:
    result = await RuleCompletion().evaluate(
        session_task().model_copy(update={"gold_calls": ()}), _session([])
    )
    assert (result.reward, result.score) == (0.0, 0.0)
    assert result.note == "no gold calls: the rule judge cannot check this task (ungradable)"
    assert result.info["ungradable"] is True and result.info["judge"] == "rules"
    assert result.gradable is False  # counted as ungradable by the core, never a pass


async def test_capped_completion_notes_why() -> None:
    sim = _session(
        [("payBill", _RIGHT)],
        termination=TerminationReason.MAX_STEPS,
        info={"limit": "max_agent_messages"},
    )
    result = await RuleCompletion().evaluate(session_task(), sim)
    assert (
        result.note == "session ended with max_steps" and result.criteria[0].evidence == result.note
    )
    assert result.info["capped"] is True and result.reward == 0.0 and result.score == 1.0


async def test_completion_judge_output_and_settings() -> None:
    model = _scripted('{"success": true, "total_goals": 2, "achieved_goals": 2, "reason": ""}')
    judge = CompletionJudge(model, lambda task: f"WORKFLOW OF {task.id}", knowledge_format="none")
    result = await judge.evaluate(session_task(), _session([("payBill", _RIGHT)], seed=99))
    assert result.info == {
        **_SESSION_META,
        "agent_turns": 2,
        "format": "none",
        "judge": "llm",
        "attempts": 1,
        "goals": 2,
        "achieved": 2,
        "judge_success": True,
        "success": True,
        "progress": 1.0,
        "reason": "",
    }
    sent = model.calls[0]
    assert sent.config is not None and (sent.config.temperature, sent.config.seed) == (0.0, 99)
    prompt = sent.messages[-1].content
    assert "WORKFLOW OF 20350305100000123456789" in prompt
    assert "Goal: pay bill B-77" in prompt
    assert f"assistant called payBill with {_RIGHT}" in prompt
    no_target = session_task().model_copy(update={"user_target": ""})
    plain = await CompletionJudge(
        _scripted('{"success": true, "total_goals": 1, "achieved_goals": 1}'), lambda t: ""
    ).evaluate(no_target, _session([]))
    assert plain.info["format"] == ""  # no knowledge format named unless one is given


async def test_completion_judge_falls_back_to_the_summary_and_reasks_twice() -> None:
    model = _scripted("yes", "ok", "fine")
    task = session_task().model_copy(update={"user_target": ""})
    with pytest.raises(JudgeError):
        await CompletionJudge(model, lambda t: "").evaluate(task, _session([]))
    assert len(model.calls) == 3
    assert "You want to pay bill B-77 of 120 yuan" in model.calls[0].messages[-1].content


async def test_failure_classifier() -> None:
    model = _scripted('{"category": "3", "explanation": "went elsewhere"}')
    classifier = FailureClassifier(model, lambda task: "WF")
    ok = BasisResult(basis="completion", reward=1.0, score=1.0)
    assert await classifier.classify(session_task(), _session([]), ok) is ok
    failed = BasisResult(
        basis="completion", reward=0.0, score=0.5, note="session ended with max_steps",
        usage=Usage(prompt_tokens=1), info={"reason": ""},
    )  # fmt: skip
    result = await classifier.classify(session_task(), _session([], seed=5), failed)
    assert result.info == {
        "reason": "",
        "failure_category": 3,
        "failure_reason": "incorrect transition",
        "failure_explanation": "went elsewhere",
    }
    assert result.usage.prompt_tokens == 10
    sent = model.calls[0]
    assert sent.config is not None and (sent.config.temperature, sent.config.seed) == (0.0, 5)
    prompt = sent.messages[-1].content
    assert "Why the conversation was judged a failure: session ended with max_steps" in prompt
    assert "Goal: pay bill B-77" in prompt and "WF" in prompt and "user: pay B-77" in prompt
    by_reason = _scripted('{"category": 1}')
    reasoned = failed.model_copy(update={"info": {"reason": "no call"}})
    result = await FailureClassifier(by_reason, lambda t: "").classify(
        session_task(), _session([]), reasoned
    )
    assert "judged a failure: no call" in by_reason.calls[0].messages[-1].content
    assert result.info["failure_explanation"] == ""
    no_target = session_task().model_copy(update={"user_target": ""})
    summary = _scripted('{"category": 5}')
    await FailureClassifier(summary, lambda t: "").classify(no_target, _session([]), failed)
    assert "You want to pay bill" in summary.calls[0].messages[-1].content
    tired = _scripted("x", "y", "z")
    with pytest.raises(JudgeError):
        await FailureClassifier(tired, lambda t: "").classify(session_task(), _session([]), failed)
    assert len(tired.calls) == 3


async def test_rule_completion_with_the_classifier() -> None:
    model = _scripted('{"category": 4}')
    rule = RuleCompletion(classifier=FailureClassifier(model, lambda t: ""))
    result = await rule.evaluate(session_task(), _session([]))
    assert result.info["failure_reason"] == "tool usage" and len(model.calls) == 1
    judge_model = _scripted(
        '{"success": false, "total_goals": 1, "achieved_goals": 0}', '{"category": 2}'
    )
    judge = CompletionJudge(
        judge_model, lambda t: "", classifier=FailureClassifier(judge_model, lambda t: "")
    )
    judged = await judge.evaluate(session_task(), _session([]))
    assert judged.info["failure_reason"] == "incorrect sequence"


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("text", "expected a JSON object"),
        ({"success": True, "total_goals": 1}, "missing achieved_goals"),
        (
            {"success": "maybe", "total_goals": 1, "achieved_goals": 1},
            "success must be true or false",
        ),
        (
            {"success": True, "total_goals": 0, "achieved_goals": 0},
            "total_goals must be at least 1",
        ),
        (
            {"success": False, "total_goals": 2, "achieved_goals": -1},
            "achieved_goals must be between 0 and total_goals",
        ),
        (
            {"success": True, "total_goals": 2, "achieved_goals": 1},
            "success must be true exactly when every goal is achieved",
        ),
        (
            {"success": True, "total_goals": "x", "achieved_goals": 1},
            "total_goals must be an integer, got 'x'",
        ),
        (
            {"success": True, "total_goals": 1, "achieved_goals": True},
            "achieved_goals must be an integer",
        ),
    ],
)
def test_completion_answers_refused(answer: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        check_completion(answer)


@pytest.mark.parametrize(
    ("success", "expected"), [("TRUE", True), (" yes ", True), ("false", False), ("No", False)]
)
def test_completion_success_words(success: str, expected: bool) -> None:
    total = 1 if expected else 2
    got = check_completion(
        {"success": success, "total_goals": total, "achieved_goals": 1, "reason": "r"}
    )
    assert got.success is expected and got.reason == "r"
    assert check_completion([{"success": True, "total_goals": 1, "achieved_goals": 1}]).reason == ""


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("nope", 'expected {"category": <1-5>, "explanation": "..."}'),
        ({"explanation": "x"}, 'expected {"category": <1-5>, "explanation": "..."}'),
        ({"category": 6}, "category must be 1, 2, 3, 4 or 5"),
        ({"category": 0}, "category must be 1, 2, 3, 4 or 5"),
        ({"category": "four"}, "category must be an integer, got 'four'"),
    ],
)
def test_failure_answers_refused(answer: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        _check_failure(answer)


def test_failure_answers_accepted() -> None:
    assert _check_failure([{"category": 5, "explanation": "e"}]) == (5, "e")
    assert _check_failure({"category": 1.0}) == (1, "")


@pytest.mark.parametrize(
    ("answer", "same"),
    [
        ({"same": True}, True),
        ({"same": False}, False),
        ([{"same": " YES "}], True),
        ({"same": "No"}, False),
        ({"same": "true"}, True),
        ({"same": "FALSE"}, False),
    ],
)
def test_fuzzy_answers_accepted(answer: Any, same: bool) -> None:
    assert _same(answer) is same


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"equal": True}, 'expected {"same": true} or {"same": false}'),
        ([], 'expected {"same": true} or {"same": false}'),
        ({"same": "perhaps"}, "\"same\" must be true or false, got 'perhaps'"),
        ({"same": 1}, '"same" must be true or false, got 1'),
    ],
)
def test_fuzzy_answers_refused(answer: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        _same(answer)


def test_dialogue_rendering_is_exact() -> None:
    messages = [
        UserMessage(content=" hi "),
        AssistantMessage(
            content=" ", tool_calls=[ToolCall(id="1", name="payBill", arguments="{}")]
        ),
        ToolResultMessage(tool_call_id="1", name="payBill", content=" {} "),
        ToolResultMessage(tool_call_id="1", name="payBill", content="bad", error=True),
        AssistantMessage(content=" Paid. "),
    ]
    assert render_dialogue(messages) == (
        "user: hi\nassistant called payBill with {}\nAPI payBill returned: {}\n"
        "API payBill returned (error): bad\nassistant: Paid."
    )
    assert render_dialogue([]) == "(no messages)"


@pytest.mark.parametrize("joiner", [" AND ", " OR ", "&", "|", ",", "，"])
def test_node_joiners(joiner: str) -> None:
    assert normalize_node(f"ab001{joiner}AB002") == frozenset({"AB001", "AB002"})


def test_node_decorations_and_prediction_defaults() -> None:
    assert normalize_node(" `AB001`. ") == frozenset({"AB001"})
    assert normalize_node("'XA001'") == frozenset({"XA001"})
    assert normalize_node("AB001 AB002") == frozenset({"AB001 AB002"})
    assert prediction_of(None) == Prediction(None, None, "", "", True, 0, 1)
    message = AssistantMessage(content=" Hi ", raw={"format_error": True, "format_errors": 2})
    assert prediction_of(message) == Prediction(None, None, "Hi", "", True, 0, 2)
    assert prediction_of(AssistantMessage(content="x")) == Prediction(
        None, None, "x", "", False, 0, 0
    )
    empty_args = AssistantMessage(tool_calls=[ToolCall(id="1", name="p", arguments="")])
    assert prediction_of(empty_args).arguments == {}
    listed = AssistantMessage(tool_calls=[ToolCall(id="1", name="p", arguments="[1]")])
    assert prediction_of(listed).arguments is None


def test_fuzzy_judge_settings() -> None:
    model = _scripted('{"same": false}')
    judge = FuzzyJudge(model)
    import asyncio

    from lifebench.flow.evaluation.arguments import ToolDocs

    same, usage = asyncio.run(judge.same(ToolDocs(now="T"), "payBill", "bill_id", "A", "B"))
    assert (same, usage.prompt_tokens) == (False, 9)
    sent = model.calls[0]
    assert sent.config is not None and sent.config.temperature == 0.0
    assert "API documentation:\n(not available)" in sent.messages[-1].content
    assert PAY.name == "payBill"
