"""FlowBench dialogue messages ↔ lifebench messages.

A FlowBench assistant message is ReAct text. As a lifebench :class:`AssistantMessage` it keeps
only the reply in ``content`` (what the user sees), the Thought in ``reasoning`` (never shown to
the user or the tool simulator), the Action as a :class:`ToolCall`, and the original text in
``raw["react"]`` so that a ReAct agent sees its history exactly as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from lifebench.flow.agents.parse import ParsedReply, parse_react
from lifebench.flow.tasks.models import FlowMessage
from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage


def reply_message(
    parsed: ParsedReply, text: str, call_id: str, tool_names: Sequence[str] = ()
) -> AssistantMessage:
    """The lifebench message of a parsed ReAct reply (tool names case-corrected against
    ``tool_names`` when that makes them unique)."""
    notes = list(parsed.notes)
    calls = []
    if parsed.action is not None:
        name = canonical_name(parsed.action, tool_names)
        if name != parsed.action:
            notes.append(f"tool name {parsed.action!r} read as {name!r}")
        calls.append(ToolCall(id=call_id, name=name, arguments=parsed.arguments_text))
    return AssistantMessage(
        content=parsed.response or "",
        tool_calls=calls,
        reasoning=parsed.thought or None,
        raw={"react": text, "notes": notes, "format_error": not parsed.usable},
    )


def canonical_name(name: str, tool_names: Sequence[str]) -> str:
    """``name`` itself when known; else the one known name equal to it ignoring case."""
    if not tool_names or name in tool_names:
        return name
    folded = [t for t in tool_names if t.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else name


def to_messages(history: Sequence[FlowMessage]) -> list[Message]:
    """A FlowBench history as lifebench messages (tool results answer the call before them)."""
    out: list[Message] = []
    last_call: str | None = None
    for i, m in enumerate(history):
        if m.role == "user":
            out.append(UserMessage(content=m.content, turn=i))
        elif m.role == "assistant":
            message = reply_message(parse_react(m.content), m.content, f"gold_{i}")
            out.append(message.model_copy(update={"turn": i}))
            last_call = message.tool_calls[0].id if message.tool_calls else None
        else:
            out.append(
                ToolResultMessage(
                    tool_call_id=last_call or f"gold_{i}",
                    name=m.name or "",
                    content=m.content,
                    turn=i,
                )
            )
            last_call = None
    return out


def react_text(message: AssistantMessage) -> str:
    """The ReAct text of an assistant message: as written when known, else rebuilt."""
    raw = message.raw or {}
    if isinstance(raw.get("react"), str):
        return str(raw["react"])
    parts = [f"Thought: {message.reasoning}"] if message.reasoning else []
    if message.tool_calls:
        call = message.tool_calls[0]
        parts += [f"Action: {call.name}", f"Action Input: {call.arguments}"]
    else:
        parts.append(f"Response: {message.content}")
    return "\n".join(parts)
