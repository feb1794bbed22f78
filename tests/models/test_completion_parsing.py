"""Reading a chat completion: token counts (missing only when neither count is there), cost,
tool calls as the provider sent them, and the request fields a call carries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lifebench.messages import AssistantMessage, ToolCall
from lifebench.models import GenerateConfig
from lifebench.models._convert import (
    MalformedResponseError,
    message_to_openai,
    parse_completion,
    request_options,
)
from lifebench.models._price import Price


def _body(message: dict[str, Any], usage: Any = None, **extra: Any) -> str:
    data: dict[str, Any] = {"choices": [{"message": message, "finish_reason": "stop"}], **extra}
    if usage is not None:
        data["usage"] = usage
    return json.dumps(data)


@pytest.mark.parametrize(
    ("usage", "missing", "prompt", "completion"),
    [
        (None, 1, 0, 0),
        ({}, 1, 0, 0),
        ({"total_tokens": 9}, 1, 0, 0),
        ({"prompt_tokens": 5}, 0, 5, 0),
        ({"completion_tokens": 4}, 0, 0, 4),
        ({"prompt_tokens": 5, "completion_tokens": 4}, 0, 5, 4),
        ({"prompt_tokens": True, "completion_tokens": "4"}, 0, 0, 0),
        ("not an object", 1, 0, 0),
    ],
    ids=["absent", "empty", "total-only", "prompt-only", "completion-only", "both",
         "wrong-types", "not-an-object"],
)  # fmt: skip
def test_usage_is_missing_only_without_either_count(
    usage: Any, missing: int, prompt: int, completion: int
) -> None:
    price = Price(input_per_mtok=1_000_000, output_per_mtok=2_000_000)
    message = parse_completion(_body({"content": "hi"}, usage), price, retries=2)
    assert message.usage is not None
    assert message.usage.usage_missing == missing
    assert (message.usage.prompt_tokens, message.usage.completion_tokens) == (prompt, completion)
    assert message.usage.cost == pytest.approx(prompt * 1 + completion * 2)
    assert message.usage.retries == 2


def test_tool_calls_keep_the_providers_argument_text() -> None:
    body = _body(
        {
            "content": None,
            "tool_calls": [
                {"id": "c1", "function": {"name": "pay", "arguments": '{"a": 1}'}},
                {"function": {"name": "look", "arguments": {"城市": "北京"}}},
                {"id": "", "function": {"name": None}},
            ],
        }
    )
    message = parse_completion(body, Price(), 0)
    assert message.content == ""
    assert [(c.id, c.name, c.arguments) for c in message.tool_calls] == [
        ("c1", "pay", '{"a": 1}'),
        ("call_1", "look", '{"城市": "北京"}'),
        ("call_2", "", "{}"),
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("not json", "response is not JSON (starts with 'not json')"),
        ("[1]", "response is not a JSON object"),
        ('{"choices": []}', "response has no choices"),
        ('{"choices": [{}]}', "first choice has no message"),
        ('{"choices": [{"message": {"tool_calls": {"a": 1}}}]}', "tool_calls is not a list"),
        ('{"choices": [{"message": {"tool_calls": [1]}}]}', "tool call #0 is not an object"),
        ('{"choices": [{"message": {"tool_calls": [{}]}}]}', "tool call #0 has no function object"),
        ('{"choices": [{"message": {"content": 5}}]}', "message content has type int"),
    ],
    ids=["not-json", "a-list", "no-choices", "no-message", "calls-object", "call-number",
         "no-function", "content-number"],
)  # fmt: skip
def test_malformed_completions_say_what_is_wrong(body: str, message: str) -> None:
    with pytest.raises(MalformedResponseError) as caught:
        parse_completion(body, Price(), 0)
    assert str(caught.value) == message


def test_content_parts_reasoning_and_raw_fields() -> None:
    body = _body(
        {"content": [{"type": "text", "text": "a"}, {"text": "b"}, "x"], "reasoning": "why"},
        {"prompt_tokens": 1},
        model="m-1",
        system_fingerprint=7,
    )
    message = parse_completion(body.encode(), Price(), 0)
    assert message.content == "ab" and message.reasoning == "why"
    assert message.raw == {"finish_reason": "stop", "model": "m-1"}


def test_tool_call_arguments_go_to_the_provider_as_json_text() -> None:
    call = ToolCall(id="c1", name="pay", arguments='{"amount": 3}')
    wire = message_to_openai(AssistantMessage(content="", tool_calls=[call], reasoning="r"))
    assert wire == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "pay", "arguments": '{"amount": 3}'},
            }
        ],
        "reasoning_content": "r",
    }
    plain = message_to_openai(AssistantMessage(content=""))
    assert plain == {"role": "assistant", "content": ""}
    said = message_to_openai(AssistantMessage(content="Checking.", tool_calls=[call]))
    assert said["content"] == "Checking." and said["tool_calls"][0]["id"] == "c1"


def test_request_options_carry_the_set_sampling_fields_only() -> None:
    config = GenerateConfig(temperature=0.0, seed=7, top_p=None, max_tokens=12)
    assert request_options(config) == {"temperature": 0.0, "max_tokens": 12, "seed": 7}
    assert request_options(GenerateConfig()) == {}


def test_only_overrides_of_model_messages_or_tools_need_the_general_body() -> None:
    from lifebench.models._wire import needs_plain_body

    for key in ("model", "messages", "tools"):
        assert needs_plain_body(GenerateConfig(extra_body={key: 1})) is True
    assert needs_plain_body(GenerateConfig(extra_body={"stop": ["x"]})) is False
    assert needs_plain_body(GenerateConfig()) is False
