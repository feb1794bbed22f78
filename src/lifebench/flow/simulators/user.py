"""The LLM user simulator of a FlowBench session.

Each turn it gets its system prompt (the task-user summary and the behaviour rules) and one
message holding the conversation so far as "User:" / "Assistant:" lines and the request for the
next line (the official per-turn prompt). It sees only what the agent said to it: tool calls,
tool results and Thoughts never reach it (the agent's ``content`` holds its reply only).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lifebench._util.text import Language
from lifebench.flow.simulators.prompts import user_turn_prompt
from lifebench.messages import AssistantMessage, Message, SystemMessage, UserMessage
from lifebench.models import ChatModel, GenerateConfig

_PREFIX = re.compile(r"^\s*(?:user|用户)\s*[:：]\s*", re.IGNORECASE)


class FlowUser:
    """A simulated user driven by a chat model (one call per user turn)."""

    def __init__(
        self,
        model: ChatModel,
        system_prompt: str,
        config: GenerateConfig | None = None,
        language: Language = "en",
    ) -> None:
        self._model = model
        self._system = SystemMessage(content=system_prompt)
        self._config = config
        self._language = language

    @property
    def system_prompt(self) -> str:
        """The system prompt this simulator runs with."""
        return self._system.content

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        """The user's next message ("User:" prefixes removed)."""
        lines = [
            (m.role == "user", m.content.strip())
            for m in trajectory
            if isinstance(m, UserMessage | AssistantMessage) and m.content.strip()
        ]
        prompt = UserMessage(content=user_turn_prompt(lines, self._language))
        reply = await self._model.generate([self._system, prompt], config=self._config)
        return UserMessage(content=_PREFIX.sub("", reply.content.strip()), usage=reply.usage)
