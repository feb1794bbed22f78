"""A function-calling agent backed by any :class:`~lifebench.models.ChatModel`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lifebench.messages import AssistantMessage, Message, SystemMessage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation._protocols import ChatRequest, ask_model


class LLMAgent:
    """System prompt + the trajectory, with the environment's tools as OpenAI functions (a
    :class:`~lifebench.simulation.ModelAgent`: one model answer is one reply)."""

    def __init__(
        self,
        model: ChatModel,
        system_prompt: str,
        tools: Sequence[dict[str, Any]],
        config: GenerateConfig | None = None,
    ) -> None:
        self._model = model
        self._system = SystemMessage(content=system_prompt)
        self._tools = tuple(tools)  # a tuple given is kept as is (shared across episodes)
        self._config = config

    @property
    def system_prompt(self) -> str:
        """The system prompt this agent runs with."""
        return self._system.content

    @property
    def tools(self) -> tuple[dict[str, Any], ...]:
        """The tool schemas offered to the model (OpenAI format)."""
        return self._tools

    def request(self, trajectory: Sequence[Message]) -> ChatRequest:
        """The system prompt, the trajectory and the tools."""
        return ChatRequest((self._system, *trajectory), self._tools or None, self._config)

    def read(self, request: ChatRequest, answer: AssistantMessage) -> AssistantMessage:
        """The model's answer is the reply."""
        return answer

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """Ask the model for the next message."""
        return await ask_model(self._model, self, trajectory)


class NoopAgent:
    """Answers politely and never calls a tool (the lower bound of every task)."""

    def __init__(self, reply: str = "I'm sorry, I can't help with that. ###STOP###") -> None:
        self._reply = reply

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """Always the same polite refusal, ending the conversation."""
        return AssistantMessage(content=self._reply)
