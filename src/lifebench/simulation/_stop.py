"""Stop tokens of the VitaBench/tau-bench conversation protocol."""

from __future__ import annotations

AGENT_STOP = "###STOP###"
USER_STOP_TOKENS: tuple[str, ...] = ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###")


def agent_stopped(text: str) -> bool:
    """True when an agent message asks to end the conversation."""
    return AGENT_STOP in text


def user_stopped(text: str) -> bool:
    """True when a user message ends the conversation."""
    return any(token in text for token in USER_STOP_TOKENS)
