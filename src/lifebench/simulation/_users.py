"""User simulators: an LLM playing a persona, and a scripted offline user."""

from __future__ import annotations

from collections.abc import Sequence

from lifebench.messages import AssistantMessage, Message, SystemMessage, UserMessage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation._stop import AGENT_STOP


def flip_roles(system_prompt: str, trajectory: Sequence[Message]) -> list[Message]:
    """The user simulator's view: agent text becomes 'user', earlier user turns 'assistant'.

    Tool calls and tool results are invisible to the user; agent messages that only call tools
    are skipped.
    """
    view: list[Message] = [SystemMessage(content=system_prompt)]
    for m in trajectory:
        if m.role == "assistant" and m.content.strip():
            view.append(UserMessage(content=m.content))
        elif m.role == "user":
            view.append(AssistantMessage(content=m.content))
    return view


class LLMUser:
    """A simulated user driven by a chat model and a persona/instructions system prompt."""

    def __init__(
        self, model: ChatModel, system_prompt: str, config: GenerateConfig | None = None
    ) -> None:
        self._model = model
        self._system_prompt = system_prompt
        self._config = config

    @property
    def system_prompt(self) -> str:
        """The system prompt this simulator runs with."""
        return self._system_prompt

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        """Ask the model for the user's next line (tools are never offered to the user)."""
        reply = await self._model.generate(
            flip_roles(self._system_prompt, trajectory), config=self._config
        )
        return UserMessage(content=reply.content.strip(), usage=reply.usage)


class ScriptedUser:
    """Says the given lines in order, one per turn, then ``###STOP###``. Fully offline."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = list(lines)
        self._next = 0

    @property
    def lines(self) -> tuple[str, ...]:
        """What this user says, in order (its whole instruction)."""
        return tuple(self._lines)

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        """The next scripted line, or the stop token once the script is spent."""
        if self._next < len(self._lines):
            line = self._lines[self._next]
            self._next += 1
            return UserMessage(content=line)
        return UserMessage(content=AGENT_STOP)
