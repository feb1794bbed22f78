#!/usr/bin/env python3
"""An OpenEnv client loop against ``lifebench serve openenv``.

    lifebench serve openenv --suite vita --domain delivery --port 8000 &
    python examples/openenv_client.py http://127.0.0.1:8000

The policy here is a stand-in that looks up the user's order then ends the conversation; a
trainer puts its model there: the observation's ``messages`` and ``tools`` are the chat
request to send it, and its answer (an OpenAI assistant message) is the action.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from openenv.core import GenericEnvClient


def policy(observation: dict[str, Any], turn: int) -> dict[str, Any]:
    """First turn: call the first tool offered with no arguments; then say goodbye."""
    tools = observation["tools"]
    if turn == 0 and tools:
        name = tools[0]["function"]["name"]
        call = {"id": "call_0", "type": "function", "function": {"name": name, "arguments": "{}"}}
        return {"type": "message", "content": "", "tool_calls": [call]}
    return {"type": "message", "content": "Thank you, goodbye. ###STOP###"}


async def main(base_url: str, episodes: int) -> None:
    async with GenericEnvClient(base_url=base_url) as env:
        for _ in range(episodes):
            result = await env.reset()  # the server's tasks in turn; or reset(task_id=…, trial=…)
            turn = 0
            while not result.done:
                result = await env.step(policy(result.observation, turn))
                turn += 1
            obs = result.observation
            components = obs["reward_components"]
            criteria = [
                (c["id"], c["met"]) for b in components["bases"].values() for c in b["criteria"]
            ]
            print(
                f"{obs['task_id']}#{obs['trial']}: reward {result.reward} ({obs['status']}, "
                f"{obs['termination']}); criteria {json.dumps(criteria)[:120]}"
            )
            tools = await env.step({"type": "list_tools"})  # the MCP way (RFC 003)
            print("  tools:", ", ".join(t["name"] for t in tools.observation["mcp_tools"]))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000", 2))
