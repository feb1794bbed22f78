"""Errors a tool raises to tell the agent that a call failed."""

from __future__ import annotations

from typing import Literal

ToolErrorKind = Literal[
    "unknown_tool", "bad_arguments", "precondition", "not_found", "internal", "unavailable"
]


class ToolError(Exception):
    """A failure the agent must see as a tool error (never propagated out of the loop).

    Tools raise it when a precondition does not hold (``precondition``), when an id does not
    exist (``not_found``), and so on. The message is shown to the agent verbatim.
    """

    def __init__(self, message: str, kind: ToolErrorKind = "precondition") -> None:
        super().__init__(message)
        self.message = message
        self.kind: ToolErrorKind = kind
