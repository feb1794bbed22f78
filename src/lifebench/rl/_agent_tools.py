"""An episode as tools, the MCP way: the task's own tools, a message to the (simulated) user,
the conversation so far, and ``finish``. The MCP server and the OpenEnv server's
``list_tools`` / ``call_tool`` actions (OpenEnv RFC 003) both use it.

Each tool call is one agent message of the episode (:meth:`StepSession.act`): a task tool
becomes a message with that one call, ``send_message_to_user`` a message of text (the user
simulator answers it), ``finish`` ends the conversation as the agent (its message, followed
by the stop token ``###STOP###``) unless it has ended, and returns the grading.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lifebench.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from lifebench.models._convert import messages_to_openai
from lifebench.rl._env import StepSession
from lifebench.simulation import AGENT_STOP

SEND = "send_message_to_user"
READ = "read_conversation"
FINISH = "finish"
CONVERSATION_TOOLS = (SEND, READ, FINISH)

_SPECS: dict[str, dict[str, Any]] = {
    SEND: {
        "description": "Send a message to the user and get the user's reply. This is the only "
        "way to talk to the user; the conversation ends when the user says so.",
        "input_schema": {
            "type": "object",
            "properties": {"message": {"type": "string", "description": "What to say."}},
            "required": ["message"],
        },
    },
    READ: {
        "description": "The conversation so far (your messages, tool results, the user's "
        "messages), as OpenAI chat messages. Changes nothing.",
        "input_schema": {"type": "object", "properties": {}},
    },
    FINISH: {
        "description": "End the conversation (with a last message to the user, if given) and "
        "get the grading: the reward and the evidence for each criterion.",
        "input_schema": {
            "type": "object",
            "properties": {
                "message": {"type": "string", "description": "A last message to the user."}
            },
        },
    },
}


@dataclass(frozen=True)
class ToolReply:
    """What a tool call returns to the client."""

    text: str
    is_error: bool = False
    done: bool = False


def task_tool_schemas(session: StepSession) -> list[dict[str, Any]]:
    """The OpenAI schemas of the tools the agent may call: the ones its model is offered, or
    (an agent that lists its tools in its prompt, e.g. ReAct) the environment's, each name
    once."""
    request = session.request
    if request is not None and request.tools:
        return [dict(t) for t in request.tools]
    seen: dict[str, dict[str, Any]] = {}
    for schema in session.episode.environment.tools.openai_schemas(session.language):
        seen.setdefault(str(schema["function"]["name"]), schema)
    return list(seen.values())


def tool_specs(session: StepSession) -> list[dict[str, Any]]:
    """Every tool, MCP style (``name``, ``description``, ``input_schema``): the task's, then
    the conversation tools."""
    specs = [
        {
            "name": s["function"]["name"],
            "description": s["function"].get("description", ""),
            "input_schema": s["function"].get("parameters") or {"type": "object"},
        }
        for s in task_tool_schemas(session)
    ]
    clash = sorted({s["name"] for s in specs} & set(CONVERSATION_TOOLS))
    if clash:
        raise ValueError(f"the task has tools named like the conversation tools: {clash}")
    return [*specs, *({"name": name, **spec} for name, spec in _SPECS.items())]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


async def call_tool(session: StepSession, name: str, arguments: Mapping[str, Any]) -> ToolReply:
    """Play tool ``name`` with ``arguments`` in ``session`` (see the module docstring)."""
    if name == READ:
        return ToolReply(json.dumps(messages_to_openai(session.messages), ensure_ascii=False))
    if name == FINISH:
        if not session.done:
            last = _text(arguments.get("message") or "").strip()
            await session.act(AssistantMessage(content=f"{last} {AGENT_STOP}".strip()))
        assert session.outcome is not None
        return ToolReply(session.outcome.model_dump_json(), done=True)
    if session.done:
        return ToolReply(
            f"The conversation has ended ({session.outcome.termination if session.outcome else ''}); "
            f"call {FINISH} to get the grading.",
            is_error=True,
            done=True,
        )
    if name == SEND:
        obs = await session.act(AssistantMessage(content=_text(arguments.get("message", ""))))
        said = [m.content for m in obs.new_messages if isinstance(m, UserMessage)]
        text = "\n".join(said) if said else "(the user said nothing)"
        if obs.done:
            text += f"\n[The conversation has ended; call {FINISH} to get the grading.]"
        return ToolReply(text, done=obs.done)
    call = ToolCall(
        id=f"call_{len(session.messages)}",
        name=name,
        arguments=json.dumps(dict(arguments), ensure_ascii=False),
    )
    obs = await session.act(AssistantMessage(tool_calls=[call]))
    results = [m for m in obs.new_messages if isinstance(m, ToolResultMessage)]
    text = "\n".join(r.content for r in results)
    if obs.done:
        text += f"\n[The episode has ended ({obs.outcome.termination if obs.outcome else ''}); call {FINISH} to get the grading.]"
    return ToolReply(text, is_error=any(r.error for r in results), done=obs.done)
