"""A noisy offline agent for TravelBench: the suite's scripted agent, served through the mock
OpenAI server, that gives up on some episodes — a seeded coin per (row, request seed) — and on
every row it is told to fail (a planted effect). The model name configures it, as for
:mod:`flaky_oracle`: ``flaky/rate=0.3/fail=ID1,ID2``. Rows: the bundled ones of
``LIFEBENCH_FLAKY_LANGUAGE`` (default en).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

from flaky_oracle import fails, settings

from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from lifebench.testing.mock_openai import completion_response, tool_call
from lifebench.travel.agents import ScriptedTravelAgent

GIVE_UP = "Sorry, I cannot help with that."


@lru_cache(maxsize=2)
def _rows(language: str) -> dict[str, Any]:
    from lifebench.travel.loader import load_bundled

    return {r.query: r for r in load_bundled(language)}  # type: ignore[arg-type]


def _trajectory(messages: list[dict[str, Any]]) -> list[Message]:
    out: list[Message] = []
    for m in messages:
        if m["role"] == "user":
            out.append(UserMessage(content=m["content"]))
        elif m["role"] == "assistant":
            calls = [
                ToolCall(
                    id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"]
                )
                for c in m.get("tool_calls") or []
            ]
            out.append(AssistantMessage(content=m.get("content") or "", tool_calls=calls))
        elif m["role"] == "tool":
            out.append(
                ToolResultMessage(tool_call_id=m["tool_call_id"], name="", content=m["content"])
            )
    return out


async def respond(body: dict[str, Any]) -> dict[str, Any]:
    """The next agent message of the episode ``body`` belongs to."""
    rows = _rows(os.environ.get("LIFEBENCH_FLAKY_LANGUAGE", "en"))
    messages = body["messages"]
    first_user = next(m["content"] for m in messages if m["role"] == "user")
    row = rows[first_user]
    rate, planted = settings(str(body.get("model") or ""))
    if fails(row.id, int(body.get("seed") or 0), rate, planted):
        return completion_response(GIVE_UP)
    step = await ScriptedTravelAgent(row, row.subset).respond(_trajectory(messages))
    if step.tool_calls:
        return completion_response(
            None,
            tool_calls=[tool_call(c.name, json.loads(c.arguments), c.id) for c in step.tool_calls],
        )
    return completion_response(step.content)
