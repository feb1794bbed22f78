"""Conversation messages shared by every role (agent, user simulator, judge, tool simulator)."""

from lifebench.messages._messages import (
    AssistantMessage,
    Message,
    Role,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)

__all__ = [
    "AssistantMessage",
    "Message",
    "Role",
    "SystemMessage",
    "ToolCall",
    "ToolResultMessage",
    "Usage",
    "UserMessage",
]
