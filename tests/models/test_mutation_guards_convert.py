"""Mutation guards (issue 21): what ``lifebench.models._convert`` sends to the provider and
takes from its answer, pinned by effect — the exact limits and their messages, the content
filter, reasoning, and how a call is priced."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lifebench.messages import (
    AssistantMessage,
    SystemMessage,
    ToolResultMessage,
    UserMessage,
)
from lifebench.models._convert import (
    MAX_ANSWER_BYTES,
    MAX_ARGUMENT_DEPTH,
    MAX_TOOL_CALLS,
    FilteredResponseError,
    MalformedResponseError,
    message_to_openai,
    messages_to_openai,
    nesting_depth,
    parse_completion,
)
from lifebench.models._price import Price, Unpriced


def _body(message: dict[str, Any], finish_reason: Any = "stop", **extra: Any) -> str:
    return json.dumps({"choices": [{"message": message, "finish_reason": finish_reason}], **extra})


def _call(arguments: Any, **extra: Any) -> dict[str, Any]:
    return {"id": "c1", "function": {"name": "f", "arguments": arguments}, **extra}


def test_the_limits() -> None:
    assert (MAX_TOOL_CALLS, MAX_ANSWER_BYTES, MAX_ARGUMENT_DEPTH) == (256, 4 * 1024 * 1024, 64)


def test_nesting_depth_ignores_brackets_in_strings_and_counts_closings() -> None:
    assert nesting_depth("") == 0
    assert nesting_depth("{}") == 1
    assert nesting_depth("[][][]") == 1
    assert nesting_depth("[[]][[]]") == 2
    assert nesting_depth('{"a":[{"b":1}]}') == 3
    assert nesting_depth('{"a":"[[[["}') == 1
    assert nesting_depth('{"a":"\\"[[[["}') == 1  # an escaped quote does not end the string
    assert nesting_depth('{"a":"\\\\",  "b":[1]}') == 2  # an escaped backslash does
    assert nesting_depth('["]", [[1]]]') == 3
    assert nesting_depth("[][[]]") == 2
    assert nesting_depth('{"a":"\\n","b":[[1]]}') == 3  # the string ends after an escape
    # other characters outside strings (malformed arguments) neither open nor close
    assert nesting_depth("[X[X]X]X") == 2


def test_arguments_nested_deeper_than_the_limit_are_refused() -> None:
    deep = "[" * (MAX_ARGUMENT_DEPTH + 1) + "]" * (MAX_ARGUMENT_DEPTH + 1)
    with pytest.raises(MalformedResponseError) as caught:
        parse_completion(_body({"tool_calls": [_call(deep)]}), Price(), 0)
    assert str(caught.value) == (
        "the arguments of tool call #0 are nested 65 levels deep, more than the 64 taken"
    )
    assert caught.value.endpoint is False
    # 64 levels deep with more than 64 brackets (so the depth is measured): taken
    at_limit = "[" * MAX_ARGUMENT_DEPTH + "]" * (MAX_ARGUMENT_DEPTH - 1) + ",[]]"
    message = parse_completion(_body({"tool_calls": [_call(at_limit)]}), Price(), 0)
    assert message.tool_calls[0].arguments == at_limit
    braces = '{"a":' * (MAX_ARGUMENT_DEPTH + 1) + "1" + "}" * (MAX_ARGUMENT_DEPTH + 1)
    with pytest.raises(MalformedResponseError, match="nested 65 levels deep"):
        parse_completion(_body({"tool_calls": [_call(braces)]}), Price(), 0)
    # malformed text around the brackets: only the brackets nest
    flat = "[]" * 40 + "X" * 70
    assert parse_completion(_body({"tool_calls": [_call(flat)]}), Price(), 0).tool_calls
    interrupted = "[" * 60 + "X" * 10 + "[" * 5 + "]" * 65
    with pytest.raises(MalformedResponseError, match="nested 65 levels deep"):
        parse_completion(_body({"tool_calls": [_call(interrupted)]}), Price(), 0)
    # many brackets, all inside a string: not nested at all
    quoted = json.dumps({"a": "[" * 100})
    assert parse_completion(_body({"tool_calls": [_call(quoted)]}), Price(), 0).tool_calls


def test_object_arguments_are_sent_on_as_unescaped_json_text() -> None:
    message = parse_completion(_body({"tool_calls": [_call({"城市": "北京"})]}), Price(), 0)
    assert message.tool_calls[0].arguments == '{"城市": "北京"}'


def test_too_many_tool_calls() -> None:
    calls = [_call("{}") for _ in range(MAX_TOOL_CALLS + 1)]
    with pytest.raises(MalformedResponseError) as caught:
        parse_completion(_body({"tool_calls": calls}), Price(), 0)
    assert str(caught.value) == "the answer makes 257 tool calls, more than the 256 one message may"
    ok = parse_completion(_body({"tool_calls": calls[:MAX_TOOL_CALLS]}), Price(), 0)
    assert len(ok.tool_calls) == MAX_TOOL_CALLS
    assert [c.id for c in ok.tool_calls[:2]] == ["c1", "c1"]


def test_an_answer_larger_than_the_limit() -> None:
    body = _body({"content": "x"})
    exact = body + " " * (MAX_ANSWER_BYTES - len(body))
    assert parse_completion(exact, Price(), 0).content == "x"
    with pytest.raises(MalformedResponseError) as caught:
        parse_completion(exact + " ", Price(), 0)
    assert str(caught.value) == "the answer has 4,194,305 bytes, more than the 4,194,304 taken"
    assert caught.value.endpoint is False


def test_an_answer_nested_too_deeply_to_read() -> None:
    with pytest.raises(MalformedResponseError) as caught:
        parse_completion("[" * 200_000, Price(), 0)
    assert str(caught.value) == "the answer is nested too deeply to read"
    assert caught.value.endpoint is False


def test_a_body_that_is_no_json_is_the_endpoints_problem() -> None:
    page = b"<html><body>502 Bad Gateway from the proxy in front</body></html>"
    with pytest.raises(MalformedResponseError) as caught:
        parse_completion(page, Price(), 0)
    assert str(caught.value) == (
        "response is not JSON (starts with '<html><body>502 Bad Gateway from the pro')"
    )
    assert caught.value.endpoint is True
    with pytest.raises(MalformedResponseError) as text:
        parse_completion("oops", Price(), 0)
    assert str(text.value) == "response is not JSON (starts with 'oops')"
    with pytest.raises(MalformedResponseError) as other:
        parse_completion("[1]", Price(), 0)
    assert other.value.endpoint is False


@pytest.mark.parametrize(
    ("message", "finish_reason", "filtered"),
    [
        ({"content": ""}, "content_filter", True),
        ({"content": None}, "content_filter", True),
        ({"content": " \n"}, "content_filter", True),
        ({"content": "partial"}, "content_filter", False),
        ({"content": "", "tool_calls": [_call("{}")]}, "content_filter", False),
        ({"content": ""}, "stop", False),
        ({"content": ""}, "length", False),
    ],
    ids=["empty", "null", "blank", "said-something", "called-a-tool", "stop", "length"],
)
def test_a_content_filter_stop_before_anything_was_said(
    message: dict[str, Any], finish_reason: str, filtered: bool
) -> None:
    body = _body(message, finish_reason)
    if filtered:
        with pytest.raises(
            FilteredResponseError, match=r"^the answer was stopped by a content filter$"
        ):
            parse_completion(body, Price(), 0)
    else:
        parse_completion(body, Price(), 0)


def test_reasoning_content_first_then_reasoning() -> None:
    both = parse_completion(
        _body({"content": "a", "reasoning_content": "rc", "reasoning": "r"}), Price(), 0
    )
    assert both.reasoning == "rc"
    fallback = parse_completion(
        _body({"content": "a", "reasoning_content": None, "reasoning": "r"}), Price(), 0
    )
    assert fallback.reasoning == "r"
    neither = parse_completion(_body({"content": "a", "reasoning": 5}), Price(), 0)
    assert neither.reasoning is None


def test_raw_fields_only_as_text() -> None:
    message = parse_completion(
        _body({"content": "a"}, None, model="m-1", system_fingerprint="fp_1"), Price(), 0
    )
    assert message.raw == {"model": "m-1", "system_fingerprint": "fp_1"}
    bare = parse_completion(_body({"content": "a"}, None), Price(), 0)
    assert bare.raw is None


def test_pricing_known_unknown_and_missing_counts() -> None:
    usage = {"prompt_tokens": 1000, "completion_tokens": 500}
    priced = parse_completion(
        json.dumps({"choices": [{"message": {"content": "a"}}], "usage": usage}),
        Price(input_per_mtok=2.0, output_per_mtok=8.0),
        3,
    ).usage
    assert priced is not None
    assert priced.cost == pytest.approx((1000 * 2.0 + 500 * 8.0) / 1_000_000)
    assert (priced.unpriced, priced.usage_missing, priced.retries) == (0, 0, 3)
    assert priced.priced_by == (Price().source,)
    unknown = parse_completion(
        json.dumps({"choices": [{"message": {"content": "a"}}], "usage": usage}),
        Unpriced("no price"),
        0,
    ).usage
    assert unknown is not None
    assert (unknown.cost, unknown.unpriced, unknown.usage_missing) == (0.0, 1, 0)
    assert unknown.priced_by == ()
    missing = parse_completion(
        json.dumps({"choices": [{"message": {"content": "a"}}]}), Unpriced("no price"), 0
    ).usage
    assert missing is not None
    assert (missing.cost, missing.unpriced, missing.usage_missing) == (0.0, 0, 1)
    assert missing.priced_by == ()
    # no counts at a known price: unknown, not a priced call of $0
    uncounted = parse_completion(
        json.dumps({"choices": [{"message": {"content": "a"}}]}), Price(input_per_mtok=1.0), 0
    ).usage
    assert uncounted is not None
    assert (uncounted.cost, uncounted.usage_missing, uncounted.priced_by) == (0.0, 1, ())
    free = parse_completion(
        json.dumps({"choices": [{"message": {"content": "a"}}], "usage": usage}), Price(), 0
    ).usage
    assert free is not None and free.cost == 0.0 and free.priced_by == (Price().source,)


def test_messages_of_every_role_on_the_wire_in_order() -> None:
    messages = [
        SystemMessage(content="rules"),
        UserMessage(content="hi"),
        AssistantMessage(content="ok", reasoning=""),
        ToolResultMessage(tool_call_id="c9", name="f", content="{}"),
    ]
    assert messages_to_openai(messages) == [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "ok", "reasoning_content": ""},
        {"role": "tool", "tool_call_id": "c9", "content": "{}"},
    ]
    assert message_to_openai(AssistantMessage(content="x", tool_calls=[])) == {
        "role": "assistant",
        "content": "x",
    }


def test_content_parts_without_text_add_nothing() -> None:
    parts = [{"type": "image_url", "image_url": {"url": "x"}}, {"type": "text", "text": "seen"}]
    assert parse_completion(_body({"content": parts}), Price(), 0).content == "seen"


def test_the_start_of_a_body_that_is_no_json_is_quoted_cut_and_decoded() -> None:
    text = "<!DOCTYPE html><html><head><title>Gateway Timeout</title></head></html>"
    with pytest.raises(MalformedResponseError) as caught:
        parse_completion(text, Price(), 0)
    assert str(caught.value) == f"response is not JSON (starts with {text[:40]!r})"
    broken = b"\xff\xfe not JSON " + "网关超时".encode() * 4  # byte 40 cuts a character
    with pytest.raises(MalformedResponseError) as undecodable:
        parse_completion(broken, Price(), 0)
    shown = broken[:40].decode(errors="replace")
    assert shown.startswith("\ufffd\ufffd") and shown.endswith("\ufffd")
    assert str(undecodable.value) == f"response is not JSON (starts with {shown!r})"
