"""What an agent message predicts: a tool call (name, arguments), a reply, a thought."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from lifebench.flow.agents.parse import thought_fields
from lifebench.messages import AssistantMessage


@dataclass(frozen=True)
class Prediction:
    """One agent turn, as scored.

    Attributes:
        action: The first tool call's name, or None.
        arguments: Its arguments when they are a JSON object, else None (malformed).
        response: The text for the user ("" when none).
        thought: The ReAct Thought ("" for agents that do not write one).
        format_error: The agent's final reply was unusable ReAct text.
        extra_calls: Tool calls after the first one (one call per turn is the protocol).
        unusable_replies: Unusable replies the agent got on the way (re-asked ones included).
    """

    action: str | None
    arguments: dict[str, Any] | None
    response: str
    thought: str
    format_error: bool
    extra_calls: int = 0
    unusable_replies: int = 0

    @property
    def current_node(self) -> str:
        """The node the Thought says the agent is at ("" when it does not say)."""
        return thought_fields(self.thought).current_node

    @property
    def n_arguments(self) -> int:
        """Predicted arguments with a non-empty value."""
        from lifebench.flow.evaluation.matching import is_empty

        return sum(1 for v in (self.arguments or {}).values() if not is_empty(v))


def _arguments(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text or "{}")
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def prediction_of(message: AssistantMessage | None) -> Prediction:
    """The prediction an agent message carries (an absent message predicts nothing)."""
    if message is None:
        return Prediction(None, None, "", "", format_error=True, unusable_replies=1)
    raw = message.raw or {}
    call = message.tool_calls[0] if message.tool_calls else None
    return Prediction(
        action=call.name if call else None,
        arguments=_arguments(call.arguments) if call else None,
        response=message.content.strip(),
        thought=message.reasoning or "",
        format_error=bool(raw.get("format_error")),
        extra_calls=max(len(message.tool_calls) - 1, 0),
        unusable_replies=int(raw.get("format_errors", 0)),
    )


def normalize_node(value: str | None) -> frozenset[str]:
    """A node label as a set of ids (``A AND B`` / ``A OR B`` joined), upper-cased."""
    text = (value or "").strip().upper()
    if not text:
        return frozenset()
    for joiner in (" AND ", " OR ", "&", "|", ",", "，"):
        text = text.replace(joiner, "\n")
    return frozenset(part.strip().strip("'\"`*.") for part in text.split("\n") if part.strip())
