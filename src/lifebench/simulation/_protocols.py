"""What the simulation loop needs from the agent and the user simulator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from lifebench.messages import AssistantMessage, Message, UserMessage


@runtime_checkable
class Agent(Protocol):
    """The system under test. One instance serves one simulation.

    ``respond`` receives the whole trajectory so far (the greeting, user messages, the agent's
    own messages and tool results) and returns the next assistant message: text for the user,
    tool calls for the environment, or both.
    """

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """Return the next assistant message."""
        ...


@runtime_checkable
class UserSimulator(Protocol):
    """The simulated user. One instance serves one simulation.

    ``respond`` sees the same trajectory; implementations decide what a user can see (tool
    results are normally hidden). A reply containing a stop token ends the episode.
    """

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        """Return the user's next message."""
        ...
