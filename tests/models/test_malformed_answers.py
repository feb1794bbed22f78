"""A malformed answer is the problem of the unit that asked, never of the endpoint's health.

The endpoint answered (HTTP 200, JSON), so it is alive: an answer whose content is a number,
whose message is null, whose ``tool_calls`` is not a list, that makes too many tool calls, is
too large or nests its arguments too deeply is retried as that call's problem (boundedly) and
then fails that call with a :class:`ModelError` — never a :class:`FatalProviderError`, which
would stop the run as "endpoint down" (exit 3) on every re-run.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from lifebench.errors import FatalProviderError, ModelError
from lifebench.messages import UserMessage
from lifebench.models import OpenAICompatibleModel, RetryPolicy
from lifebench.models._convert import (
    MAX_ANSWER_BYTES,
    MAX_ARGUMENT_DEPTH,
    MAX_TOOL_CALLS,
    nesting_depth,
)
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import completion_response, tool_call


def _with_message(message: Any) -> dict[str, Any]:
    body = completion_response("x")
    body["choices"][0]["message"] = message
    return body


def _calls(count: int, arguments: str = "{}") -> dict[str, Any]:
    body = completion_response(None, tool_calls=[tool_call("f", {}) for _ in range(count)])
    for call in body["choices"][0]["message"]["tool_calls"]:
        call["function"]["arguments"] = arguments
    return body


MALFORMED: dict[str, dict[str, Any]] = {
    "content a number": _with_message({"role": "assistant", "content": 42}),
    "content an object": _with_message({"role": "assistant", "content": {"a": 1}}),
    "null message": _with_message(None),
    "message a list": _with_message([]),
    "tool_calls a string": _with_message({"role": "assistant", "tool_calls": "f()"}),
    "tool_calls an object": _with_message({"role": "assistant", "tool_calls": {"a": 1}}),
    "tool call a number": _with_message({"role": "assistant", "tool_calls": [7]}),
    "tool call without function": _with_message({"role": "assistant", "tool_calls": [{}]}),
    "no choices": {"choices": []},
    "choices not a list": {"choices": {"message": {}}},
    "choice a string": {"choices": ["hello"]},
    "body a list": [1, 2],  # type: ignore[dict-item]
    "too many tool calls": _calls(MAX_TOOL_CALLS + 1),
    "arguments nested too deeply": _calls(1, "[" * (MAX_ARGUMENT_DEPTH + 1) + "]" * 70),
    "answer too large": completion_response("x" * (MAX_ANSWER_BYTES + 1)),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_answer_fails_the_call_not_the_endpoint(case: str) -> None:
    answer = MALFORMED[case]

    async def main() -> tuple[BaseException | None, int]:
        async with MockOpenAIServer(responder=lambda body: answer) as server:
            model = OpenAICompatibleModel(
                name="m",
                model="mock",
                base_url=server.base_url,
                api_key="k" * 10,
                retry=RetryPolicy(max_attempts=3, base_delay_s=0.0, max_delay_s=0.0),
            )
            errors: list[BaseException | None] = []
            for _ in range(3):  # every later call too: the endpoint stays healthy
                try:
                    await model.generate([UserMessage(content="hi")])
                    errors.append(None)
                except ModelError as exc:
                    errors.append(exc)
            await model.aclose()
            return errors[-1], server.count

    error, count = asyncio.run(main())
    assert isinstance(error, ModelError) and not isinstance(error, FatalProviderError), error
    assert "malformed response" in str(error)
    assert count == 9, "each call is retried boundedly (3 attempts), none is refused up front"


def test_a_body_that_is_no_json_is_still_the_endpoints_health() -> None:
    async def main() -> BaseException:
        async with MockOpenAIServer(faults=["garbage"] * 100) as server:
            model = OpenAICompatibleModel(
                name="m",
                model="mock",
                base_url=server.base_url,
                api_key="k" * 10,
                retry=RetryPolicy(max_attempts=2, base_delay_s=0.0, max_delay_s=0.0),
            )
            try:
                await model.generate([UserMessage(content="hi")])
            except ModelError as exc:
                return exc
            finally:
                await model.aclose()
        raise AssertionError("a garbage body was taken")

    assert "not JSON" in str(asyncio.run(main()))


def test_the_limits_let_ordinary_answers_through() -> None:
    assert len(json.dumps(_calls(MAX_TOOL_CALLS))) < MAX_ANSWER_BYTES
    assert nesting_depth('{"a": [1, {"b": "[[[\\"["}]}') == 3
    assert nesting_depth("[" * MAX_ARGUMENT_DEPTH + "]" * MAX_ARGUMENT_DEPTH) == MAX_ARGUMENT_DEPTH
