"""The agent ↔ user ↔ environment loop for one episode."""

from __future__ import annotations

import time
from dataclasses import dataclass

from lifebench.environment import Environment
from lifebench.errors import (
    ContentRejectedError,
    FatalProviderError,
    InfrastructureError,
    ModelError,
)
from lifebench.messages import AssistantMessage, Message, Usage
from lifebench.simulation._protocols import Agent, UserSimulator
from lifebench.simulation._stop import USER_STOP_TOKENS, agent_stopped
from lifebench.simulation._types import Simulation, TerminationReason


@dataclass(frozen=True)
class Limits:
    """Per-episode limits.

    Attributes:
        max_steps: Steps before the episode ends with ``max_steps`` (a user message, an agent
            message and a batch of tool results are one step each).
        max_errors: Tool errors (cumulative) before the episode ends with ``too_many_errors``.
        max_empty_replies: Attempts at getting a non-empty agent reply before
            ``invalid_agent_message``.
        max_turns: Agent turns (replies addressed to the user) before the episode ends with
            ``max_turns``; None: no limit. A turn is everything the agent does between two
            user messages.
        reply_after_last_turn: Whether the user still answers the last allowed turn, so that
            a user who ends the conversation there ends it with ``user_stop`` and the user's
            last message is kept (TravelBench multi-turn); False ends the episode right after
            the agent's last turn (single-turn tasks).
        max_agent_calls_per_turn: Agent model calls within one turn before the episode ends
            with ``max_agent_calls``; None: no limit.
        max_agent_messages: Agent actions (a message to the user or a tool-call message)
            before the episode ends with ``max_steps``; None = no such cap. The cap applies
            when the agent would act once more, so a user who ends the conversation right
            after the last allowed action still ends it normally.
    """

    max_steps: int = 300
    max_errors: int = 10
    max_empty_replies: int = 3
    max_turns: int | None = None
    reply_after_last_turn: bool = True
    max_agent_calls_per_turn: int | None = None
    max_agent_messages: int | None = None


@dataclass(frozen=True)
class Episode:
    """Everything one simulation needs, built fresh for each (task, trial).

    ``history`` is a trajectory that already happened: the episode starts from it (no
    greeting, not counted as steps). With ``predict_at`` the episode is *static*
    (teacher-forced, e.g. turn-level evaluation): for each index ``i`` the agent is asked once
    for its next message given ``history[:i]``; the replies are recorded as the simulation's
    messages (``turn = i``), nothing is executed, the user is never asked, and the episode
    ends with ``static``.
    """

    task_id: str
    trial: int
    seed: int
    environment: Environment
    agent: Agent
    user: UserSimulator
    limits: Limits = Limits()
    greeting: str | None = "Hello, how can I help you?"
    solo: bool = False
    user_stop_tokens: tuple[str, ...] = USER_STOP_TOKENS
    """A user message containing one of these ends the episode with ``user_stop``."""
    history: tuple[Message, ...] = ()
    predict_at: tuple[int, ...] = ()


class _Run:
    """Mutable bookkeeping of one running episode (private to :func:`run_episode`)."""

    def __init__(self, episode: Episode) -> None:
        self.ep = episode
        self.messages: list[Message] = []
        self.steps = 0
        self.tool_calls = 0
        self.tool_errors = 0
        self.agent_messages = 0
        self.extra_agent_usage = Usage.zero()
        self.info: dict[str, object] = {}
        self.turns = 0
        self.failed_retries = {"assistant": 0, "user": 0, "tool": 0}
        """Retries of model calls that finally failed, by the role that made them."""

    def failed(self, role: str, exc: ModelError) -> None:
        self.failed_retries[role] += exc.retries

    def add(self, message: Message) -> None:
        self.messages.append(message.model_copy(update={"turn": len(self.messages)}))

    async def user_turn(self) -> TerminationReason | None:
        try:
            reply = await self.ep.user.respond(list(self.messages))
        except ModelError as exc:
            self.failed("user", exc)
            raise
        self.add(reply)
        self.steps += 1
        if any(token in reply.content for token in self.ep.user_stop_tokens):
            return TerminationReason.USER_STOP
        return None

    async def agent_reply(self) -> AssistantMessage | None:
        for _ in range(self.ep.limits.max_empty_replies):
            try:
                reply = await self.ep.agent.respond(list(self.messages))
            except ModelError as exc:
                self.failed("assistant", exc)
                raise
            if reply.content.strip() or reply.tool_calls:
                return reply
            if reply.usage is not None:
                self.extra_agent_usage = self.extra_agent_usage + reply.usage
        return None

    async def agent_turns(self) -> TerminationReason | None:
        """Let the agent act until it addresses the user; return a termination or None."""
        cap = self.ep.limits.max_agent_calls_per_turn
        calls = 0
        while True:
            if self.steps >= self.ep.limits.max_steps:
                return TerminationReason.MAX_STEPS
            if cap is not None and calls >= cap:
                return TerminationReason.MAX_AGENT_CALLS
            calls += 1
            messages_cap = self.ep.limits.max_agent_messages
            if messages_cap is not None and self.agent_messages >= messages_cap:
                self.info["limit"] = "max_agent_messages"
                return TerminationReason.MAX_STEPS
            reply = await self.agent_reply()
            if reply is None:
                return TerminationReason.INVALID_AGENT_MESSAGE
            self.add(reply)
            self.steps += 1
            self.agent_messages += 1
            if reply.tool_calls:
                for call in reply.tool_calls:
                    try:
                        result = await self.ep.environment.tools.execute(
                            call, turn=len(self.messages)
                        )
                    except ModelError as exc:  # a tool-simulator model failed
                        self.failed("tool", exc)
                        raise
                    self.add(result)
                    self.tool_calls += 1
                    self.tool_errors += int(result.error)
                self.steps += 1
                if agent_stopped(reply.content):
                    return TerminationReason.AGENT_STOP
                if self.tool_errors >= self.ep.limits.max_errors:
                    return TerminationReason.TOO_MANY_ERRORS
                continue
            if agent_stopped(reply.content):
                return TerminationReason.AGENT_STOP
            if self.ep.solo:
                self.info["solo_ended_without_stop_token"] = True
                return TerminationReason.AGENT_STOP
            return None

    async def predict(self) -> TerminationReason:
        """Static episode: one reply per prefix ``history[:i]``, recorded with ``turn = i``."""
        history = self.ep.history
        for i in self.ep.predict_at:
            if not 0 <= i <= len(history):
                raise ValueError(f"predict_at index {i} outside the history (0..{len(history)})")
            reply = await self.ep.agent.respond(list(history[:i]))
            self.messages.append(reply.model_copy(update={"turn": i}))
            self.steps += 1
            self.agent_messages += 1
        return TerminationReason.STATIC

    async def run(self) -> TerminationReason:
        if self.ep.predict_at:
            return await self.predict()
        if self.ep.history:
            for message in self.ep.history:
                self.add(message)
        elif self.ep.greeting is not None:
            self.add(AssistantMessage(content=self.ep.greeting))
        while True:
            if self.steps >= self.ep.limits.max_steps:
                return TerminationReason.MAX_STEPS
            ended = await self.user_turn()
            if ended is not None:
                return ended
            ended = await self.agent_turns()
            if ended is not None:
                return ended
            self.turns += 1
            limit = self.ep.limits.max_turns
            if limit is not None and self.turns >= limit:
                if self.ep.limits.reply_after_last_turn:
                    if self.steps >= self.ep.limits.max_steps:
                        return TerminationReason.MAX_STEPS
                    ended = await self.user_turn()
                    if ended is not None:
                        return ended
                return TerminationReason.MAX_TURNS


def _retried(retries: int) -> Usage:
    """The usage of calls that failed: no answer, no tokens, their retries."""
    return Usage.zero().model_copy(update={"retries": retries}) if retries else Usage.zero()


async def run_episode(episode: Episode) -> Simulation:
    """Run one episode to its end and return the recorded simulation.

    Tool calls in a message that also says ``###STOP###`` are executed before the episode ends.
    Bad tool arguments come back to the agent as tool errors and are counted. A model failure
    that survives its retries ends the episode with ``infrastructure_error`` (recorded, re-run on
    resume; the failed call's retries count in its role's usage; a request rejected for its content also sets ``info["content_rejected"]``, and the
    runner records the unit as rejected). A :class:`FatalProviderError` (the provider refuses
    every call) propagates: the runner stops the run. Any other exception is a bug and
    propagates.
    """
    run = _Run(episode)
    started = time.perf_counter()
    error: str | None = None
    try:
        reason = await run.run()
    except FatalProviderError:
        raise
    except InfrastructureError as exc:
        reason = TerminationReason.INFRASTRUCTURE_ERROR
        error = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, ContentRejectedError):
            run.info["content_rejected"] = True
    agent_usage = run.extra_agent_usage + _retried(run.failed_retries["assistant"])
    user_usage = _retried(run.failed_retries["user"])
    tool_usage = _retried(run.failed_retries["tool"])
    for m in run.messages:
        usage = getattr(m, "usage", None)
        if usage is None:
            continue
        if m.role == "assistant":
            agent_usage = agent_usage + usage
        elif m.role == "user":
            user_usage = user_usage + usage
        elif m.role == "tool":
            tool_usage = tool_usage + usage
    return Simulation(
        task_id=episode.task_id,
        trial=episode.trial,
        seed=episode.seed,
        messages=run.messages,
        termination=reason,
        error=error,
        steps=run.steps,
        tool_calls=run.tool_calls,
        tool_errors=run.tool_errors,
        agent_usage=agent_usage,
        user_usage=user_usage,
        tool_usage=tool_usage,
        duration_s=round(time.perf_counter() - started, 6),
        final_state=episode.environment.snapshot(),
        info=dict(run.info),
    )
