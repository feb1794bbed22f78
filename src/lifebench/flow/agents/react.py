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
from dataclasses import dataclass

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
from lifebench.simulation import ChatRequest, ask_model

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


@dataclass(frozen=True)
class _Attempt:
    """Where one reply stands: the attempt being made, the usage so far, the call id."""

    number: int
    usage: Usage
    call_id: str


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

    def request(self, trajectory: Sequence[Message]) -> ChatRequest:
        """The trajectory as ReAct text under the system prompt (no tool schemas)."""
        messages = (self._system, *render_for_react(trajectory, self._language))
        attempt = _Attempt(0, Usage.zero(), f"call_{len(trajectory)}")
        return ChatRequest(messages, None, self._config, attempt)

    def read(
        self, request: ChatRequest, answer: AssistantMessage
    ) -> AssistantMessage | ChatRequest:
        """The parsed reply; an unusable one is re-asked with what was wrong, up to
        ``format_retries`` times, then returned empty (``raw["format_error"]``)."""
        attempt: _Attempt = request.state
        usage = attempt.usage + answer.usage if answer.usage is not None else attempt.usage
        parsed = parse_react(answer.content)
        message = reply_message(parsed, answer.content, attempt.call_id, self._tools)
        raw = dict(message.raw or {})
        if parsed.usable:
            raw["format_errors"] = attempt.number
            return message.model_copy(update={"usage": usage, "raw": raw})
        if attempt.number == self._retries:
            raw["format_errors"] = attempt.number + 1
            return AssistantMessage(usage=usage, raw=raw)
        messages = (
            *request.messages,
            AssistantMessage(content=answer.content),
            UserMessage(content=_REASK.format(problems="; ".join(parsed.notes))),
        )
        return ChatRequest(
            messages, None, self._config, _Attempt(attempt.number + 1, usage, attempt.call_id)
        )

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        """Ask the model, parse its ReAct text, re-ask on unusable replies."""
        return await ask_model(self._model, self, trajectory)
