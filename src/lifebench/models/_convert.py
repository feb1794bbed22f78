"""Conversion between lifebench messages and the OpenAI chat-completions wire format."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from lifebench.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.models._price import Pricing
from lifebench.models._types import GenerateConfig

MAX_TOOL_CALLS = 256
"""The most tool calls one answer may make (more is a malformed answer, never executed)."""
MAX_ANSWER_BYTES = 4 * 1024 * 1024
"""The largest answer body taken (a larger one would be re-sent on every later turn)."""


MAX_ARGUMENT_DEPTH = 64
"""The deepest nesting of a tool call's JSON arguments taken (deeper ones would exhaust every
reader's recursion: tools, judge, reports)."""


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in JSON ``text`` (brackets inside strings ignored),
    without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


class MalformedResponseError(Exception):
    """The endpoint answered 200 with something that is not a usable chat completion.

    ``endpoint`` is true when the body is not JSON at all (a proxy's page: the endpoint is
    unwell); otherwise the endpoint is alive and this answer alone is unusable (a content that
    is a number, a null message, ``tool_calls`` not a list, too many tool calls, too large):
    a problem of the unit that asked, retried as such, never counted against the endpoint.
    """

    def __init__(self, message: str, *, endpoint: bool = False) -> None:
        super().__init__(message)
        self.endpoint = endpoint


class FilteredResponseError(Exception):
    """The endpoint answered 200, but a content filter stopped the answer before any text or
    tool call (``finish_reason: content_filter``): the request was refused for its content."""


def message_to_openai(message: Message) -> dict[str, Any]:
    """One lifebench message as an OpenAI chat message dict.

    Assistant reasoning is passed back as ``reasoning_content`` (thinking models need it). An
    assistant message that only calls tools carries ``"content": ""``: OpenAI's format also
    allows null or no member there, but servers typed on the request refuse those (llama.cpp's
    Python server: null fails its validation, a missing member its chat template, both HTTP
    500); the empty string is what a model's own empty answer is, and servers take it.
    """
    if isinstance(message, SystemMessage | UserMessage):
        return {"role": message.role, "content": message.content}
    if isinstance(message, ToolResultMessage):
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    out: dict[str, Any] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in message.tool_calls
        ]
    if message.reasoning is not None:
        out["reasoning_content"] = message.reasoning
    return out


def messages_to_openai(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The OpenAI chat message dicts of ``messages``, in order."""
    return [message_to_openai(m) for m in messages]


def request_options(config: GenerateConfig) -> dict[str, Any]:
    """The sampling fields of a request body; unset (``None``) options are left out."""
    options: dict[str, Any] = {}
    for key in ("temperature", "max_tokens", "top_p", "reasoning_effort", "seed"):
        value = getattr(config, key)
        if value is not None:
            options[key] = value
    return options


def _text_of(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    raise MalformedResponseError(f"message content has type {type(content).__name__}")


def _tool_call_of(index: int, data: Any) -> ToolCall:
    if not isinstance(data, dict):
        raise MalformedResponseError(f"tool call #{index} is not an object")
    function = data.get("function")
    if not isinstance(function, dict):
        raise MalformedResponseError(f"tool call #{index} has no function object")
    arguments = function.get("arguments")
    if arguments is None:
        arguments = "{}"
    elif not isinstance(arguments, str):  # some servers send an object
        arguments = json.dumps(arguments, ensure_ascii=False)
    brackets = arguments.count("[") + arguments.count("{")
    depth = nesting_depth(arguments) if brackets > MAX_ARGUMENT_DEPTH else 0
    if depth > MAX_ARGUMENT_DEPTH:
        raise MalformedResponseError(
            f"the arguments of tool call #{index} are nested {depth} levels deep, more than "
            f"the {MAX_ARGUMENT_DEPTH} taken"
        )
    call_id = data.get("id")
    return ToolCall(
        id=str(call_id) if call_id else f"call_{index}",
        name=str(function.get("name") or ""),
        arguments=arguments,
    )


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def parse_completion(body: str | bytes, price: Pricing, retries: int) -> AssistantMessage:
    """The assistant message of a chat-completion response body.

    A response without token counts (no ``usage`` object, or one without ``prompt_tokens`` and
    ``completion_tokens``) is flagged ``usage.usage_missing = 1``: its tokens and cost are
    unknown, not zero.

    Args:
        body: The raw response (text or UTF-8 bytes).
        price: How the call is priced (an unknown price counts the call in ``unpriced``).
        retries: Retried attempts before this answer (recorded in the usage).

    Returns:
        The message, with usage filled in.

    Raises:
        MalformedResponseError: ``body`` is not JSON or has no usable first choice.
        FilteredResponseError: A content filter stopped the answer before it said anything.
    """
    if len(body) > MAX_ANSWER_BYTES:
        raise MalformedResponseError(
            f"the answer has {len(body):,} bytes, more than the {MAX_ANSWER_BYTES:,} taken"
        )
    try:
        data = json.loads(body)
    except RecursionError:
        raise MalformedResponseError("the answer is nested too deeply to read") from None
    except ValueError:
        start = body[:40] if isinstance(body, str) else body[:40].decode(errors="replace")
        raise MalformedResponseError(
            f"response is not JSON (starts with {start!r})", endpoint=True
        ) from None
    if not isinstance(data, dict):
        raise MalformedResponseError("response is not a JSON object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise MalformedResponseError("response has no choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise MalformedResponseError("first choice has no message")
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise MalformedResponseError("tool_calls is not a list")
    if len(raw_calls) > MAX_TOOL_CALLS:
        raise MalformedResponseError(
            f"the answer makes {len(raw_calls):,} tool calls, more than the {MAX_TOOL_CALLS} "
            "one message may"
        )
    reasoning = message.get("reasoning_content")
    if not isinstance(reasoning, str):
        reasoning = message.get("reasoning")
    content = _text_of(message.get("content"))
    finish_reason = choices[0].get("finish_reason")
    if finish_reason == "content_filter" and not content.strip() and not raw_calls:
        raise FilteredResponseError("the answer was stopped by a content filter")
    usage = data.get("usage")
    if not isinstance(usage, dict):
        usage = {}
    missing = "prompt_tokens" not in usage and "completion_tokens" not in usage
    prompt_tokens = _int(usage.get("prompt_tokens"))
    completion_tokens = _int(usage.get("completion_tokens"))
    raw = {
        key: value
        for key, value in (
            ("finish_reason", finish_reason),
            ("model", data.get("model")),
            ("system_fingerprint", data.get("system_fingerprint")),
        )
        if isinstance(value, str)
    }
    cost = None if missing else price.cost(prompt_tokens, completion_tokens)
    return AssistantMessage(
        content=content,
        tool_calls=[_tool_call_of(i, call) for i, call in enumerate(raw_calls)],
        reasoning=reasoning if isinstance(reasoning, str) else None,
        usage=Usage(
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            cost=cost or 0.0,
            retries=retries,
            usage_missing=int(missing),
            unpriced=int(cost is None and not missing),
            priced_by=(price.source,) if cost is not None and price.source else (),
        ),
        raw=raw or None,
    )
