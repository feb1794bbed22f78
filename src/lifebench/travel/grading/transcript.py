"""The conversation as the judge reads it (the official layout, one line per event).

System messages are left out; each tool call is ``assistant tool_calls: NAME (ARGS)`` with the
arguments as indented JSON, assistant text is ``assistant: …``, a tool result is
``tool_response: NAME CONTENT`` and a user line ``user: …``. A user message that is only the
core's end-of-episode token (the single-turn scripted user's ``###STOP###``) is not part of the
conversation and is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from lifebench.messages import Message
from lifebench.simulation._stop import USER_STOP_TOKENS


def _arguments(text: str) -> str:
    try:
        parsed = json.loads(text or "{}")
    except json.JSONDecodeError:
        return text
    return json.dumps(parsed, ensure_ascii=False, indent=2)


def history_text(messages: Sequence[Message]) -> str:
    """The trajectory rendered for the judge and the meta-judge."""
    lines: list[str] = []
    for m in messages:
        if m.role == "system":
            continue
        if m.role == "user":
            if m.content.strip() in USER_STOP_TOKENS:
                continue
            lines.append(f"user: {m.content}")
        elif m.role == "assistant":
            for call in m.tool_calls:
                lines.append(f"assistant tool_calls: {call.name} ({_arguments(call.arguments)})")
            if m.content.strip():
                lines.append(f"assistant: {m.content}")
        else:
            lines.append(f"tool_response: {m.name} {m.content}")
    return "\n".join(lines)
