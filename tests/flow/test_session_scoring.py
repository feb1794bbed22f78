"""Session-level scoring: one-to-one matching vs the official double count, completion by
rules and by the judge's shape rules, and the caps."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lifebench.flow.evaluation.arguments import ArgumentMatcher, ToolDocs
from lifebench.flow.evaluation.session import (
    Call,
    Completion,
    CompletionJudge,
    FailureClassifier,
    RuleCompletion,
    SessionToolsEvaluator,
    check_completion,
    completion_result,
    match_calls,
    max_matching,
    predicted_calls,
    render_dialogue,
)
from lifebench.flow.kb import ParamSpec, ToolDef
from lifebench.flow.tasks import GoldCall, SessionTask
from lifebench.messages import AssistantMessage, ToolCall, ToolResultMessage, Usage, UserMessage
from lifebench.models import ScriptedModel
from lifebench.simulation import Simulation, TerminationReason


def _sim(calls: list[tuple[str, dict[str, Any] | str]], **kw: Any) -> Simulation:
    messages: list[Any] = [UserMessage(content="hi")]
    for i, (name, args) in enumerate(calls):
        text = args if isinstance(args, str) else json.dumps(args)
        messages.append(
            AssistantMessage(tool_calls=[ToolCall(id=f"c{i}", name=name, arguments=text)])
        )
        messages.append(ToolResultMessage(tool_call_id=f"c{i}", name=name, content="{}"))
    messages.append(AssistantMessage(content="Done."))
    return Simulation(
        task_id="s",
        trial=0,
        seed=1,
        messages=messages,
        termination=kw.pop("termination", TerminationReason.USER_STOP),
        **kw,
    )


_TOOL = ToolDef(
    name="pay",
    inputs={
        "bill": ParamSpec(type="string", description="Bill id", required=True),
        "amount": ParamSpec(type="integer", description="Amount", required=False),
    },
    outputs={"ok": ParamSpec(type="string", description="Enumeration type, [yes, no]")},
)


def _task(*gold: tuple[str, dict[str, Any]]) -> SessionTask:
    return SessionTask(
        id="s",
        domain="Customer Service",
        role="apartment_manager",
        user_summary="Pay my bills.",
        gold_calls=tuple(GoldCall(name=n, arguments=a, output='{"ok": "yes"}') for n, a in gold),
        tools=(_TOOL,),
    )


def test_max_matching_beats_greedy() -> None:
    # gold 0 can pair with p0 or p1; gold 1 only with p0: greedy (gold 0 → p0) finds 1 pair
    assert max_matching([[True, True], [True, False]], 2) == [1, 0]
    assert max_matching([], 0) == []
    assert max_matching([[False], [False]], 1) == [None, None]


async def test_one_to_one_vs_official_double_count() -> None:
    # the same bill paid twice in the gold session, once by the agent
    gold = [Call("pay", {"bill": "B1"}), Call("pay", {"bill": "B1"})]
    pred = [Call("pay", {"bill": "b1"})]
    result = await match_calls(gold, pred, ArgumentMatcher(ToolDocs()))
    assert result.counts.as_dict()["tp"] == 1
    assert result.counts.precision == 1.0 and result.counts.recall == 0.5
    assert result.official_right == 2  # the official count lets one call satisfy both
    assert result.pairs == [0, None]


async def test_one_to_one_needs_the_arguments() -> None:
    gold = [Call("pay", {"bill": "B1", "amount": 5}), Call("pay", {"bill": "B1"})]
    pred = [Call("pay", {"bill": "B1"}), Call("pay", {"bill": "B1", "amount": 5})]
    result = await match_calls(gold, pred, ArgumentMatcher(ToolDocs()))
    assert result.counts.tp == 2 and result.pairs == [1, 0]


async def test_no_calls_count_zero_not_one() -> None:
    result = await match_calls([], [], ArgumentMatcher(ToolDocs()))
    assert (result.counts.n_gold, result.counts.n_pred, result.counts.f1) == (0, 0, None)


def test_predicted_calls_include_failed_and_malformed() -> None:
    sim = _sim([("pay", {"bill": "B1"}), ("nope", "not json")])
    assert predicted_calls(sim.messages) == [Call("pay", {"bill": "B1"}), Call("nope", None)]


async def test_session_tools_basis() -> None:
    task = _task(("pay", {"bill": "B1"}), ("pay", {"bill": "B2", "amount": 3}))
    sim = _sim([("pay", {"bill": "B1"}), ("pay", {"bill": "B2", "amount": 4})])
    messages = [
        *sim.messages,
        AssistantMessage(content="ok", raw={"format_errors": 2}),
        AssistantMessage(content="ok", raw={"format_errors": 0}),
    ]
    result = await SessionToolsEvaluator().evaluate(
        task, sim.model_copy(update={"messages": messages})
    )
    assert result.info["format_errors"] == 2
    calls = result.info["calls"]
    assert (calls["tp"], calls["n_pred"], calls["n_gold"]) == (1, 2, 2)
    assert result.reward == 0.0 and result.score == pytest.approx(0.5)


# -- completion --------------------------------------------------------------------------


async def test_rule_completion_progress_and_success() -> None:
    task = _task(("pay", {"bill": "B1"}), ("pay", {"bill": "B2"}), ("pay", {"bill": "B3"}))
    half = await RuleCompletion().evaluate(
        task, _sim([("pay", {"bill": "B1"}), ("pay", {"bill": "B3"})])
    )
    assert (half.reward, half.score) == (0.0, pytest.approx(2 / 3))
    assert half.info["goals"] == 3 and half.info["achieved"] == 2 and "pay" in half.info["reason"]
    full = await RuleCompletion().evaluate(
        task, _sim([("pay", {"bill": b}) for b in ("B3", "B2", "B1")])
    )
    assert (full.reward, full.score) == (1.0, 1.0) and full.info["success"]


async def test_capped_session_fails_whatever_the_goals() -> None:
    task = _task(("pay", {"bill": "B1"}))
    sim = _sim([("pay", {"bill": "B1"})], termination=TerminationReason.MAX_STEPS)
    result = await RuleCompletion().evaluate(task, sim)
    assert result.reward == 0.0 and result.score == 1.0
    assert "max_steps" in result.note and result.info["judge_success"] is True


async def test_task_without_gold_calls_is_ungradable_offline() -> None:
    result = await RuleCompletion().evaluate(_task(), _sim([]))
    assert result.info["ungradable"] and result.reward == 0.0


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ({"success": True, "total_goals": 3, "achieved_goals": 2}, "exactly when"),
        ({"success": False, "total_goals": 2, "achieved_goals": 3}, "between"),
        ({"success": False, "total_goals": 0, "achieved_goals": 0}, "at least 1"),
        ({"success": "maybe", "total_goals": 1, "achieved_goals": 1}, "true or false"),
        ({"total_goals": 1, "achieved_goals": 1}, "missing success"),
        ({"success": True, "total_goals": "two", "achieved_goals": 1}, "integer"),
    ],
)
def test_completion_answer_shape(answer: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        check_completion(answer)


def test_completion_answer_accepted() -> None:
    got = check_completion([{"success": "yes", "total_goals": "4", "achieved_goals": 4.0}])
    assert got == Completion(True, 4, 4, "")


def test_completion_result_progress() -> None:
    r = completion_result(Completion(False, 4, 3, "one missing"), _sim([]), {}, Usage.zero())
    assert (r.reward, r.score) == (0.0, 0.75)


async def test_llm_completion_judge_with_failure_reason() -> None:
    answers = [
        '{"success": false, "total_goals": 2, "achieved_goals": 1, "reason": "no payment"}',
        '{"category": 4, "explanation": "wrong bill id"}',
    ]
    model = ScriptedModel(
        [AssistantMessage(content=a, usage=Usage(prompt_tokens=5)) for a in answers]
    )
    judge = CompletionJudge(
        model,
        lambda task: "WORKFLOW TEXT",
        classifier=FailureClassifier(model, lambda task: "WORKFLOW TEXT"),
    )
    task = _task(("pay", {"bill": "B1"}))
    result = await judge.evaluate(task, _sim([("pay", {"bill": "B9"})]))
    assert (result.reward, result.score) == (0.0, 0.5)
    assert result.info["failure_reason"] == "tool usage"
    assert result.usage.prompt_tokens == 10 and result.usage.calls == 2
    prompt = model.calls[0].messages[-1].content
    assert "WORKFLOW TEXT" in prompt and "Pay my bills." in prompt
    assert 'assistant called pay with {"bill": "B9"}' in prompt


async def test_classifier_skips_successful_sessions() -> None:
    model = ScriptedModel(['{"success": true, "total_goals": 1, "achieved_goals": 1}'])
    judge = CompletionJudge(model, lambda t: "", classifier=FailureClassifier(model, lambda t: ""))
    result = await judge.evaluate(_task(("pay", {"bill": "B1"})), _sim([]))
    assert result.reward == 1.0 and "failure_reason" not in result.info
    assert len(model.calls) == 1


def test_dialogue_for_the_judge_has_no_thoughts() -> None:
    messages = [
        UserMessage(content="hi"),
        AssistantMessage(
            content="", reasoning="SECRET THOUGHT", tool_calls=[ToolCall(id="1", name="pay")]
        ),
        ToolResultMessage(tool_call_id="1", name="pay", content="{}", error=True),
        AssistantMessage(content="Paid.", reasoning="ANOTHER"),
    ]
    text = render_dialogue(messages)
    assert "SECRET" not in text and "ANOTHER" not in text
    assert "API pay returned (error): {}" in text and "assistant: Paid." in text
