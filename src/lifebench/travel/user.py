"""TravelBench's users: the multi-turn LLM simulator and the offline scripted users.

:class:`TravelUser` opens with the row's query verbatim (no model call, as officially) and then
answers with the user model, which sees the system prompt of
:func:`~lifebench.travel.prompts.user_prompt` (time, location context, profile as its sole
source, current intent) and a role-flipped view of the dialogue: its own earlier lines as
``assistant``, and as ``user`` only the assistant's *final* text of each turn — never tool calls,
tool results or text that accompanied a tool call. Its reply is returned verbatim, so a reply
containing ``[Finish Conversation]`` stays in the transcript and ends the episode (the suite
passes :data:`~lifebench.travel.prompts.FINISH` as the episode's user stop token).

A failed user-model call raises (the core records an infrastructure error and re-runs the unit on
resume) instead of the official random English canned line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lifebench.messages import AssistantMessage, Message, SystemMessage, UserMessage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation import ScriptedUser
from lifebench.travel.prompts import FINISH, NO_PREFERENCE, user_prompt


def user_view(system_prompt: str, trajectory: Sequence[Message]) -> list[Message]:
    """The simulator's messages: its lines as assistant, the agent's turn-ending texts as user."""
    view: list[Message] = [SystemMessage(content=system_prompt)]
    for m in trajectory:
        if m.role == "user":
            view.append(AssistantMessage(content=m.content))
        elif m.role == "assistant" and not m.tool_calls and m.content.strip():
            view.append(UserMessage(content=m.content))
    return view


def _opened(trajectory: Sequence[Message]) -> bool:
    return any(m.role == "user" for m in trajectory)


class TravelUser:
    """The multi-turn user simulator of one task."""

    def __init__(
        self,
        model: ChatModel,
        *,
        query: str,
        profile: str,
        intent: str,
        context: str,
        time: str,
        language: str,
        config: GenerateConfig | None = None,
    ) -> None:
        self._model = model
        self._query = query
        self._config = config
        self.system_prompt = user_prompt(profile, intent, context, time, language)

    @classmethod
    def for_task(
        cls, model: ChatModel, task: Any, language: str, config: GenerateConfig | None = None
    ) -> TravelUser:
        """The simulator of a TravelTask (query, user_profile, intent, context, time)."""
        return cls(
            model,
            query=str(task.query),
            profile=str(getattr(task, "user_profile", "") or ""),
            intent=str(getattr(task, "intent", "") or ""),
            context=str(getattr(task, "context", "") or ""),
            time=str(getattr(task, "time", "") or ""),
            language=language,
            config=config,
        )

    @staticmethod
    def finished(text: str) -> bool:
        """True when a user line ends the dialogue."""
        return FINISH in text

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        """The query first; afterwards the user model's reply, verbatim (stripped)."""
        if not _opened(trajectory):
            return UserMessage(content=self._query)
        reply = await self._model.generate(
            user_view(self.system_prompt, trajectory), config=self._config
        )
        return UserMessage(content=reply.content.strip(), usage=reply.usage)


def single_turn_user(query: str) -> ScriptedUser:
    """The single-turn / unsolvable user: the query, once."""
    return ScriptedUser([query])


class ScriptedTravelUser:
    """The offline multi-turn user: the query, then "no preference, you decide" to each of up to
    ``max_answers`` questions, then ``[Finish Conversation]``. Deterministic, no model."""

    def __init__(self, query: str, language: str = "zh", max_answers: int = 2) -> None:
        self._query = query
        self._answer = NO_PREFERENCE["en" if language == "en" else "zh"]
        self._max_answers = max_answers
        self._answered = 0

    @staticmethod
    def _is_question(text: str) -> bool:
        stripped = text.strip()
        return stripped.endswith(("?", "？", "吗", "呢")) or "？" in stripped[-40:]

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        """The next scripted line."""
        if not _opened(trajectory):
            return UserMessage(content=self._query)
        last = next((m for m in reversed(trajectory) if m.role == "assistant"), None)
        if (
            last is not None
            and self._answered < self._max_answers
            and self._is_question(last.content)
        ):
            self._answered += 1
            return UserMessage(content=self._answer)
        return UserMessage(content=FINISH)


def scripted_multi_user(task: Any) -> ScriptedTravelUser:
    """The offline multi-turn user of a TravelTask."""
    return ScriptedTravelUser(str(task.query), str(getattr(task, "language", "zh")))
