"""The function-calling agent: the same rules, tools as native function schemas."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lifebench.flow.agents.prompts import OBSERVATION
from lifebench.messages import AssistantMessage, Message, ToolResultMessage, UserMessage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation import ChatRequest, LLMAgent, ask_model


def render_for_native(trajectory: Sequence[Message]) -> list[Message]:
    """The trajectory for a function-calling model: Thoughts dropped (they are the gold
    history's, not this model's), and a tool result that answers no call of the message before
    it shown as an "Observation" user message (providers refuse orphan tool messages)."""
    out: list[Message] = []
    open_calls: set[str] = set()
    for m in trajectory:
        if isinstance(m, AssistantMessage):
            out.append(AssistantMessage(content=m.content, tool_calls=list(m.tool_calls)))
            open_calls = {c.id for c in m.tool_calls}
        elif isinstance(m, ToolResultMessage):
            if m.tool_call_id in open_calls:
                out.append(m)
            else:
                text = OBSERVATION.get("en").format(name=m.name, content=m.content)
                out.append(UserMessage(content=text))
        else:
            out.append(m)
            open_calls = set()
    return out


class NativeAgent:
    """:class:`~lifebench.simulation.LLMAgent` over a FlowBench-rendered trajectory."""

    def __init__(
        self,
        model: ChatModel,
        system_prompt: str,
        tools: Sequence[dict[str, Any]],
        config: GenerateConfig | None = None,
    ) -> None:
        self._agent = LLMAgent(model, system_prompt, tools, config)
        self._model = model

    @property
    def system_prompt(self) -> str:
        """The system prompt this agent runs with."""
        return self._agent.system_prompt

    def request(self, trajectory: Sequence[Message]) -> ChatRequest:
        """The rendered trajectory under the system prompt, with the tools."""
        return self._agent.request(render_for_native(trajectory))

    def read(self, request: ChatRequest, answer: AssistantMessage) -> AssistantMessage:
        """The model's answer is the reply."""
        return answer

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """Ask the model with the tools as function schemas."""
        return await ask_model(self._model, self, trajectory)
