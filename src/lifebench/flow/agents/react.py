"""The ReAct agent: plain-text Thought / Action / Action Input / Response turned into
lifebench messages.

Format errors are counted, never hidden: a reply with neither an Action nor a Response is
*unusable*; the agent shows the model what was wrong and asks again, up to ``format_retries``
times (a re-ask with a correction rather than a re-sample, so a cached or deterministic model
does not repeat itself). Every unusable reply is counted in ``raw["format_errors"]``; when the
last one is still unusable the message carries ``raw["format_error"] = True`` and no text, and
the loop treats it as an empty reply (re-asked, then ``invalid_agent_message``). A malformed
Action Input is passed on verbatim, so the tool layer answers with a ``bad_arguments`` tool
error the agent sees and the metrics count.
"""

from __future__ import annotations

from collections.abc import Sequence

from lifebench.flow.agents.convert import react_text, reply_message
from lifebench.flow.agents.parse import parse_react
from lifebench.flow.agents.prompts import OBSERVATION
from lifebench.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.models import ChatModel, GenerateConfig

_REASK = (
    "Your reply could not be used ({problems}). Answer again with exactly one of the two forms: "
    "'Thought: …' then 'Response: …', or 'Thought: …' then 'Action: …' and "
    "'Action Input: {{…}}'."
)


def render_for_react(trajectory: Sequence[Message], language: str = "en") -> list[Message]:
    """The trajectory as plain chat text: the agent's turns as ReAct text, API results as
    user-role "Observation" messages."""
    out: list[Message] = []
    for m in trajectory:
        if isinstance(m, UserMessage):
            out.append(UserMessage(content=m.content))
        elif isinstance(m, AssistantMessage):
            out.append(AssistantMessage(content=react_text(m)))
        elif isinstance(m, ToolResultMessage):
            text = OBSERVATION.get("zh" if language == "zh" else "en")
            out.append(UserMessage(content=text.format(name=m.name, content=m.content)))
    return out


class ReActAgent:
    """A FlowBench agent that writes ReAct text (no function-calling schema is sent)."""

    def __init__(
        self,
        model: ChatModel,
        system_prompt: str,
        *,
        tool_names: Sequence[str] = (),
        config: GenerateConfig | None = None,
        format_retries: int = 2,
        language: str = "en",
    ) -> None:
        self._model = model
        self._system = SystemMessage(content=system_prompt)
        self._tools = tuple(tool_names)
        self._config = config
        self._retries = format_retries
        self._language = language

    @property
    def system_prompt(self) -> str:
        """The system prompt this agent runs with."""
        return self._system.content

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """Ask the model, parse its ReAct text, re-ask on unusable replies."""
        messages: list[Message] = [self._system, *render_for_react(trajectory, self._language)]
        usage = Usage.zero()
        for attempt in range(self._retries + 1):
            reply = await self._model.generate(messages, config=self._config)
            if reply.usage is not None:
                usage = usage + reply.usage
            parsed = parse_react(reply.content)
            message = reply_message(parsed, reply.content, f"call_{len(trajectory)}", self._tools)
            raw = dict(message.raw or {})
            if parsed.usable:
                raw["format_errors"] = attempt
                return message.model_copy(update={"usage": usage, "raw": raw})
            if attempt == self._retries:
                raw["format_errors"] = attempt + 1
                return AssistantMessage(usage=usage, raw=raw)
            messages = [
                *messages,
                AssistantMessage(content=reply.content),
                UserMessage(content=_REASK.format(problems="; ".join(parsed.notes))),
            ]
        raise AssertionError("unreachable")
