"""User simulators: an LLM playing a persona, and a scripted offline user."""

from __future__ import annotations

from collections.abc import Sequence

from lifebench.messages import AssistantMessage, Message, SystemMessage, UserMessage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation._protocols import ChatRequest
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
    """A simulated user driven by a chat model and a persona/instructions system prompt (a
    :class:`~lifebench.simulation.ModelUser`)."""

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

    def request(self, trajectory: Sequence[Message]) -> ChatRequest:
        """The role-flipped trajectory under the persona prompt (tools are never offered)."""
        return ChatRequest(tuple(flip_roles(self._system_prompt, trajectory)), None, self._config)

    def read(self, request: ChatRequest, answer: AssistantMessage) -> UserMessage:
        """The answer's text, stripped, is the user's message."""
        return UserMessage(content=answer.content.strip(), usage=answer.usage)

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        """Ask the model for the user's next line."""
        request = self.request(trajectory)
        reply = await self._model.generate(request.messages, config=request.config)
        return self.read(request, reply)


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
