"""A noisy VitaBench user simulator served by the mock OpenAI server, for measuring
user-simulator variance offline: it states the task's instructions — adding that it is in a
hurry when a seeded coin per (request seed, task) says so — and ends the conversation after the
agent's next answer. The flaky oracle (:mod:`flaky_oracle`) gives up on a hurried user, so the
outcome depends on the user's seed. The model name configures it: ``noisyuser/rate=0.3`` (the
chance of a hurried user; default 0.3)."""

from __future__ import annotations

import os
from typing import Any

from flaky_oracle import HURRY, _tasks, settings

from lifebench._util.hashing import derive_seed
from lifebench.testing.mock_openai import completion_response


def respond(body: dict[str, Any]) -> dict[str, Any]:
    """The user's next line."""
    messages = body["messages"]
    system = messages[0]["content"]
    tasks = _tasks(
        os.environ.get("LIFEBENCH_FLAKY_TASKS", ""),
        os.environ.get("LIFEBENCH_FLAKY_LANGUAGE", "en"),
    )
    instructions = next(text for text in tasks if text in system)
    if any(m["role"] == "assistant" for m in messages):  # the user has spoken: done
        return completion_response("###STOP###")
    rate, _ = settings(str(body.get("model") or ""))
    task = tasks[instructions]
    hurried = derive_seed("hurry", task.id, int(body.get("seed") or 0)) / (2**31 - 1) < rate
    return completion_response(instructions + (HURRY if hurried else ""))
