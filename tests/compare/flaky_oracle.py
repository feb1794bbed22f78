"""A noisy offline agent for VitaBench: the oracle, served through the mock OpenAI server,
that fails some episodes — a seeded coin per (task, request seed) — and never solves the
tasks it is told to fail (a planted effect).

Use it as the responder of :class:`lifebench.testing.MockOpenAIServer` (``respond``) or of
``python -m lifebench.testing --responder flaky_oracle:respond`` with this folder on
``PYTHONPATH``; ``lifebench run --agent-model mock@http://127.0.0.1:PORT/v1`` then runs the
LLM agent against it. The model name configures it — ``flaky/rate=0.3/fail=ID1,ID2``:

* ``rate``: chance that an episode of any other task fails (default 0.3);
* ``fail``: comma-separated task ids that always fail (the planted effect);

and the environment of the server: ``LIFEBENCH_FLAKY_LANGUAGE`` (en | zh, default en) and
``LIFEBENCH_FLAKY_TASKS`` (a task file; default the bundled generated delivery set).
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from lifebench._util.hashing import derive_seed
from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage
from lifebench.testing.mock_openai import completion_response, tool_call
from lifebench.vita.agents.oracle import OracleAgent
from lifebench.vita.suite import VitaSuite

GIVE_UP = "I am sorry, I cannot help with that."
HURRY = " I am in a hurry."
"""What a hurried user (:mod:`noisy_user`) adds to the instructions: the agent gives up."""


@lru_cache(maxsize=4)
def _tasks(source: str, language: str) -> dict[str, Any]:
    suite = VitaSuite()
    path = Path(source) if source else None
    tasks = suite.load_tasks(path, "delivery", language, "generated")  # type: ignore[arg-type]
    return {t.instructions: t for t in tasks}


def settings(model: str) -> tuple[float, set[str]]:
    """(rate, planted task ids) from a model name ``flaky/rate=R/fail=ID,ID``."""
    rate, planted = 0.3, set()
    for part in model.split("/")[1:]:
        key, _, value = part.partition("=")
        if key == "rate":
            rate = float(value)
        elif key == "fail":
            planted = {t for t in value.split(",") if t}
    return rate, planted


def fails(task_id: str, seed: int, rate: float, planted: set[str]) -> bool:
    """Whether the episode of ``task_id`` run with ``seed`` fails."""
    if task_id in planted:
        return True
    return derive_seed("flaky", task_id, seed) / (2**31 - 1) < rate


def _trajectory(messages: list[dict[str, Any]]) -> list[Message]:
    out: list[Message] = []
    for m in messages:
        if m["role"] == "tool":
            out.append(
                ToolResultMessage(tool_call_id=m["tool_call_id"], name="", content=m["content"])
            )
    return out


async def _oracle_step(
    task: Any, messages: list[dict[str, Any]], language: str
) -> AssistantMessage:
    agent = OracleAgent(task, domain="delivery", language=language)
    made = [m for m in messages if m["role"] == "assistant"][1:]  # the first is the greeting
    history = _trajectory(messages)
    for _ in made:
        await agent.respond(history)
    return await agent.respond(history)


async def respond(body: dict[str, Any]) -> dict[str, Any]:
    """The next agent message of the episode ``body`` belongs to."""
    language = os.environ.get("LIFEBENCH_FLAKY_LANGUAGE", "en")
    tasks = _tasks(os.environ.get("LIFEBENCH_FLAKY_TASKS", ""), language)
    messages = body["messages"]
    first_user = next(m["content"] for m in messages if m["role"] == "user")
    hurried = first_user.endswith(HURRY)
    task = tasks[first_user.removesuffix(HURRY)]
    rate, planted = settings(str(body.get("model") or ""))
    if hurried or fails(task.id, int(body.get("seed") or 0), rate, planted):
        said = [m for m in messages if m["role"] == "assistant"][1:]
        return completion_response("###STOP###" if said else GIVE_UP)
    step = await _oracle_step(task, messages, language)
    if step.tool_calls:
        call: ToolCall = step.tool_calls[0]
        return completion_response(
            None, tool_calls=[tool_call(call.name, json.loads(call.arguments), call.id)]
        )
    return completion_response(step.content)
