"""What the simulation loop needs from the agent and the user simulator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.models import ChatModel, GenerateConfig


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


@dataclass(frozen=True)
class ChatRequest:
    """One chat-model call a role would make: what it sends, and its own bookkeeping.

    Attributes:
        messages: The prompt (system message first), in lifebench messages.
        tools: OpenAI function schemas offered, or None.
        config: Sampling options of the call.
        state: The role's private bookkeeping between the calls of one reply (e.g. the
            attempts of a ReAct agent re-asked for a usable answer); opaque to everyone else.
    """

    messages: tuple[Message, ...]
    tools: tuple[dict[str, Any], ...] | None = None
    config: GenerateConfig | None = None
    state: Any = None


@runtime_checkable
class ModelAgent(Agent, Protocol):
    """An agent whose every reply comes from chat-model answers: what it would send the model
    (:meth:`request`) and how it reads an answer (:meth:`read`: the reply, or a further call
    to make, e.g. a re-ask). :meth:`respond` is :func:`ask_model` over the two, so an outside
    policy (the step protocol, :mod:`lifebench.rl`) can stand in for the model and see exactly
    the prompts the agent's model would."""

    def request(self, trajectory: Sequence[Message]) -> ChatRequest:
        """The first model call for the next reply after ``trajectory``."""
        ...

    def read(
        self, request: ChatRequest, answer: AssistantMessage
    ) -> AssistantMessage | ChatRequest:
        """The reply that ``answer`` (to ``request``) makes, or the next call to make."""
        ...


@runtime_checkable
class ModelUser(UserSimulator, Protocol):
    """A user simulator driven by chat-model answers, like :class:`ModelAgent` (so that an
    outside policy can play the user)."""

    def request(self, trajectory: Sequence[Message]) -> ChatRequest:
        """The model call for the user's next message after ``trajectory``."""
        ...

    def read(self, request: ChatRequest, answer: AssistantMessage) -> UserMessage:
        """The user's message that ``answer`` makes."""
        ...


async def ask_model(
    model: ChatModel, agent: ModelAgent, trajectory: Sequence[Message]
) -> AssistantMessage:
    """The agent's next reply, asking ``model`` every call the agent makes for it."""
    request = agent.request(trajectory)
    while True:
        answer = await model.generate(request.messages, tools=request.tools, config=request.config)
        reply = agent.read(request, answer)
        if isinstance(reply, AssistantMessage):
            return reply
        request = reply
