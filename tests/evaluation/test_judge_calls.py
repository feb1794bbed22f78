"""ask_json (what the judge is sent, re-asks, usage, failures), parse_json, render_transcript,
combine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lifebench.errors import ModelError
from lifebench.evaluation import (
    BasisResult,
    Evaluation,
    JudgeError,
    ShapeError,
    ask_json,
    combine,
    parse_json,
    render_transcript,
)
from lifebench.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.models import GenerateConfig, ScriptedModel


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise ShapeError("expected a list")
    return value


def _reply(text: str, prompt: int, completion: int, cost: float = 0.0) -> AssistantMessage:
    usage = Usage(prompt_tokens=prompt, completion_tokens=completion, cost=cost, retries=1)
    return AssistantMessage(content=text, usage=usage)


async def test_first_answer_is_used_with_its_usage_and_config() -> None:
    model = ScriptedModel([_reply("[1]", 10, 2, 0.5)])
    config = GenerateConfig(temperature=0.0, seed=31)
    answer = await ask_json(model, "SYS", "PROMPT", _list, config=config)
    assert (answer.value, answer.raw, answer.attempts) == ([1], "[1]", 1)
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens, answer.usage.calls) == (
        10,
        2,
        1,
    )
    assert answer.usage.cost == 0.5 and answer.usage.retries == 1
    (call,) = model.calls
    assert [(m.role, m.content) for m in call.messages] == [("system", "SYS"), ("user", "PROMPT")]
    assert call.config == config


async def test_reasks_show_the_judge_its_answer_and_the_problem() -> None:
    model = ScriptedModel(
        [_reply("no json", 10, 1), _reply('{"a": 1}', 20, 2), _reply("[7]", 30, 3)]
    )
    answer = await ask_json(model, "SYS", "PROMPT", _list, config=GenerateConfig(seed=5))
    assert (answer.value, answer.raw, answer.attempts) == ([7], "[7]", 3)
    # usage of every attempt
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (60, 6)
    assert (answer.usage.calls, answer.usage.retries) == (3, 3)
    second, third = model.calls[1].messages, model.calls[2].messages
    assert [m.role for m in second] == ["system", "user", "assistant", "user"]
    assert second[2].content == "no json"
    assert second[3].content == (
        "Your reply could not be used: the reply contains no JSON. Answer again with only the "
        "JSON in the required format, nothing else."
    )
    assert [m.role for m in third] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert third[4].content == '{"a": 1}'
    assert "could not be used: expected a list." in third[5].content
    assert all(c.config == GenerateConfig(seed=5) for c in model.calls)


async def test_a_plain_value_error_from_the_check_is_reasked_too() -> None:
    def positive(value: Any) -> int:
        if not isinstance(value, int) or value <= 0:
            raise ValueError(f"need a positive number, got {value!r}")
        return value

    model = ScriptedModel(["-3", "4"])
    answer = await ask_json(model, "s", "p", positive)
    assert answer.value == 4 and answer.attempts == 2
    assert "need a positive number, got -3" in model.calls[1].messages[-1].content


@pytest.mark.parametrize("max_reasks", [0, 1, 2, 4])
async def test_judge_error_after_max_reasks_with_the_usage_of_every_attempt(
    max_reasks: int,
) -> None:
    model = ScriptedModel([_reply("nope", 7, 1)], repeat_last=True)
    with pytest.raises(JudgeError) as info:
        await ask_json(model, "s", "p", _list, max_reasks=max_reasks)
    attempts = max_reasks + 1
    assert str(info.value) == (
        f"judge gave no usable answer after {attempts} attempts (its last reply: 'nope'): "
        "the reply contains no JSON"
    )
    assert info.value.replies == ("nope",) * attempts
    assert len(model.calls) == attempts
    assert (info.value.usage.calls, info.value.usage.prompt_tokens) == (attempts, 7 * attempts)


async def test_default_is_two_reasks() -> None:
    model = ScriptedModel(["nope"], repeat_last=True)
    with pytest.raises(JudgeError, match="after 3 attempts"):
        await ask_json(model, "s", "p", _list)
    assert len(model.calls) == 3


async def test_a_failing_model_call_is_a_judge_error_keeping_the_usage_so_far() -> None:
    model = ScriptedModel([_reply("nope", 9, 1)])  # the second call raises ModelError
    with pytest.raises(JudgeError) as info:
        await ask_json(model, "s", "p", _list)
    assert str(info.value).startswith("judge call failed: ")
    assert info.value.__cause__ is None and info.value.__suppress_context__
    assert (info.value.usage.calls, info.value.usage.prompt_tokens) == (1, 9)


async def test_a_model_error_on_the_first_call_has_zero_usage() -> None:
    class Down:
        name = "down"

        async def generate(self, messages: Sequence[Message], **kwargs: Any) -> AssistantMessage:
            raise ModelError("provider down")

    with pytest.raises(JudgeError, match="judge call failed: provider down") as info:
        await ask_json(Down(), "s", "p", _list)  # type: ignore[arg-type]
    assert info.value.usage == Usage.zero()


async def test_a_reply_without_usage_adds_nothing() -> None:
    model = ScriptedModel(["[1]"])
    answer = await ask_json(model, "s", "p", _list)
    assert answer.usage.prompt_tokens == 0


def test_parse_json_is_tolerant() -> None:
    assert parse_json('[{"a": 1}]') == [{"a": 1}]
    assert parse_json('  {"a": 1}\n') == {"a": 1}
    assert parse_json('Sure:\n```json\n[{"a": 1}]\n```') == [{"a": 1}]
    assert parse_json('{"a": true,}') == {"a": True}
    assert parse_json('[{"a": 1}] and some trailing words') == [{"a": 1}]
    assert parse_json("0") == 0
    for nothing in ("", "   \n", "no json here at all"):
        assert parse_json(nothing) is None


def test_render_transcript() -> None:
    messages: list[Message] = [
        SystemMessage(content="system prompt"),
        UserMessage(content="  hello  "),
        AssistantMessage(
            content="Let me look.",
            tool_calls=[
                ToolCall(id="1", name="find", arguments='{"q": "tea", "n": 2}'),
                ToolCall(id="2", name="raw", arguments="not json"),
                ToolCall(id="3", name="listy", arguments="[1, 2]"),
                ToolCall(id="4", name="bare", arguments=""),
            ],
        ),
        ToolResultMessage(tool_call_id="1", name="find", content="[]"),
        ToolResultMessage(tool_call_id="2", name="raw", content="bad", error=True),
        AssistantMessage(content="", tool_calls=[ToolCall(id="5", name="pay", arguments="{}")]),
    ]
    assert render_transcript(messages) == "\n".join(
        [
            "[2] user: hello",
            "[3] assistant: Let me look. find(q='tea', n=2). raw(not json). listy([1, 2]). bare()",
            "[4] tool: []",
            "[5] tool: [error] bad",
            "[6] assistant: pay()",
        ]
    )
    assert render_transcript(messages, [3, 1]) == "[4] tool: []\n[2] user: hello"
    assert render_transcript(messages, []) == ""
    assert render_transcript(messages, [0]) == ""


def _result(basis: str, reward: float) -> BasisResult:
    return BasisResult(basis=basis, reward=reward, score=reward)


def test_combine_multiplies_the_chosen_bases_and_keeps_the_others() -> None:
    results = {
        "state": _result("state", 1.0),
        "rubric": _result("rubric", 0.0),
        "x": _result("x", 0.5),
        "y": _result("y", 0.5),
    }
    only_state = combine(results, ["state"])
    assert (only_state.reward, only_state.basis) == (1.0, "state")
    assert only_state.by_basis == results  # every basis kept for display
    assert combine(results, ["state", "rubric"]).reward == 0.0
    assert combine(results, ["state", "rubric"]).basis == "state+rubric"
    assert combine(results, ["x", "y"]).reward == 0.25
    assert combine(results, ["rubric", "state"]).basis == "rubric+state"
    with pytest.raises(KeyError):
        combine(results, ["missing"])


def test_evaluation_success_is_within_the_tolerance_of_one() -> None:
    assert Evaluation(reward=1.0, basis="s").success
    assert Evaluation(reward=1.0 - 0.9e-6, basis="s").success
    assert Evaluation(reward=1.0 + 0.9e-6, basis="s").success
    assert not Evaluation(reward=1.0 - 1.1e-6, basis="s").success
    assert not Evaluation(reward=0.0, basis="s").success


async def test_negative_reasks_are_refused() -> None:
    model = ScriptedModel(["[1]"])
    with pytest.raises(ValueError) as info:
        await ask_json(model, "s", "p", _list, max_reasks=-1)
    assert str(info.value) == "max_reasks must be at least 0, got -1"
    assert not model.calls


async def test_a_custom_parser_feeds_the_check_and_names_its_format_in_the_reask() -> None:
    # TravelBench's judge answers in XML: its own parser, and re-asks that ask for XML.
    def rating(text: str) -> Any:
        found = text.split("<rating>")[-1].split("</rating>")[0] if "<rating>" in text else None
        return None if found is None else {"rating": found}

    def check(parsed: Any) -> str:
        if parsed["rating"] not in ("good", "bad"):
            raise ShapeError(f"unknown rating {parsed['rating']!r}")
        return str(parsed["rating"])

    model = ScriptedModel(
        ["[1]", "<rating>meh</rating>", "<rating>good</rating>"], repeat_last=False
    )
    answer = await ask_json(model, "s", "p", check, parse=rating, answer_format="XML")
    assert (answer.value, answer.attempts) == ("good", 3)
    first_reask = model.calls[1].messages[-1].content
    assert first_reask == (
        "Your reply could not be used: the reply contains no XML. Answer again with only the "
        "XML in the required format, nothing else."
    )
    assert "unknown rating 'meh'" in model.calls[2].messages[-1].content
    with pytest.raises(JudgeError) as info:
        await ask_json(
            ScriptedModel(["[1]"], repeat_last=True),
            "s",
            "p",
            check,
            parse=rating,
            answer_format="XML",
            max_reasks=0,
        )
    assert str(info.value).endswith("(its last reply: '[1]'): the reply contains no XML")


async def test_the_failure_quotes_a_long_last_reply_cut_and_on_one_line() -> None:
    long = "line one\n" + "x" * 300
    model = ScriptedModel([long], repeat_last=True)
    with pytest.raises(JudgeError) as info:
        await ask_json(model, "s", "p", _list, max_reasks=0)
    quoted = str(info.value).split("its last reply: ", 1)[1].split("): ", 1)[0]
    assert quoted.startswith("'line one xxx") and quoted.endswith("…'")
    assert len(quoted) == 160 + 3


async def test_answers_keep_every_reply_and_errors_carry_added_info() -> None:
    model = ScriptedModel(["nope", "[1]"])
    answer = await ask_json(model, "s", "p", _list)
    assert answer.replies == ("nope", "[1]") and answer.raw == "[1]"
    error = JudgeError("bad", answer.usage, replies=["a"], info={"x": 1}).with_info(y=2)
    assert (str(error), error.replies, error.info) == ("bad", ("a",), {"x": 1, "y": 2})
