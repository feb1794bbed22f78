"""The agent ↔ user ↔ environment loop for one episode.

The rules of an episode (limits, stop tokens, termination reasons, the order of user turns,
agent replies and tool calls) are written once, in :class:`EpisodeProcess`, as a generator of
*needs*: the agent's next message, the user's next message, one tool call's result. Whoever
drives the process answers them: :func:`run_episode` asks the episode's own agent, user and
tools; the step protocol (:mod:`lifebench.rl`) hands the agent's needs (and, optionally, the
user's) to an outside policy. Both therefore play by the same rules.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

from lifebench.environment import Environment
from lifebench.errors import (
    ContentRejectedError,
    FatalProviderError,
    InfrastructureError,
    ModelError,
)
from lifebench.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.simulation._protocols import Agent, UserSimulator
from lifebench.simulation._stop import USER_STOP_TOKENS, agent_stopped
from lifebench.simulation._types import Simulation, TerminationReason


@dataclass(frozen=True)
class Limits:
    """Per-episode limits.

    Attributes:
        max_steps: Steps before the episode ends with ``max_steps`` (a user message, an agent
            message and a batch of tool results are one step each). The limit is checked
            before each user and agent message and right after a tool-call message: a
            tool-call message that reaches the limit ends the episode before its calls run.
            A user or agent message that reaches it and ends the conversation ends the
            episode normally (``user_stop`` / ``agent_stop``; officially ``max_steps``).
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


@dataclass(frozen=True, slots=True)
class AgentTurn:
    """The rules need the agent's next message, given ``trajectory`` (a fresh list)."""

    trajectory: list[Message]


@dataclass(frozen=True, slots=True)
class UserTurn:
    """The rules need the user's next message, given ``trajectory`` (a fresh list)."""

    trajectory: list[Message]


@dataclass(frozen=True, slots=True)
class ToolRun:
    """The rules need the result of one tool call (``turn``: its place in the trajectory)."""

    call: ToolCall
    turn: int


Need = AgentTurn | UserTurn | ToolRun
"""What an episode waits for."""

Answer = AssistantMessage | UserMessage | ToolResultMessage
"""What answers a :data:`Need`: the agent's message, the user's, a tool result."""

_Rules = Generator[Need, Answer, TerminationReason]
_Part = Generator[Need, Answer, TerminationReason | None]

_ROLE_OF = {AgentTurn: "assistant", UserTurn: "user", ToolRun: "tool"}


class EpisodeProcess:
    """One episode under the rules: which need comes next, what the answers do, how it ended.

    Drive it with :meth:`start`, then :meth:`send` the answer to each need until it returns
    ``None``; :meth:`perform` answers a need in process (the episode's agent, user and
    tools), :meth:`advance` every need nobody outside claims. A need that cannot be answered
    (a model failing after its retries) ends the episode through :meth:`fail`.
    :meth:`simulation` is the record.
    """

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
        self.termination: TerminationReason | None = None
        self.error: str | None = None
        self._rules: _Rules | None = None
        self._started = time.perf_counter()

    # -- driving -----------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """True once the episode has ended (by the rules or by a failure)."""
        return self.termination is not None

    def start(self) -> Need | None:
        """Begin the episode: its first need, or None if it ended at once."""
        if self._rules is not None:
            raise RuntimeError("the episode has already started")
        self._started = time.perf_counter()
        self._rules = self.play()
        return self._resume(None)

    def send(self, answer: Answer) -> Need | None:
        """Answer the current need: the next need, or None once the episode has ended."""
        if self._rules is None or self.done:
            raise RuntimeError("the episode is not waiting for an answer")
        return self._resume(answer)

    def _resume(self, answer: Answer | None) -> Need | None:
        assert self._rules is not None
        try:
            return self._rules.send(answer) if answer is not None else next(self._rules)
        except StopIteration as stop:
            self.termination = stop.value
            return None

    async def perform(self, need: Need) -> Answer:
        """Answer ``need`` in process: the episode's agent, user or tools."""
        if isinstance(need, AgentTurn):
            return await self.ep.agent.respond(need.trajectory)
        if isinstance(need, UserTurn):
            return await self.ep.user.respond(need.trajectory)
        return await self.ep.environment.tools.execute(need.call, turn=need.turn)

    async def advance(
        self, need: Need | None, outside: Callable[[Need], bool] = lambda need: False
    ) -> Need | None:
        """Answer needs in process (:meth:`perform`), from ``need`` on, until one that
        ``outside`` claims — returned, for whoever answers it to :meth:`send` — or the end
        (None). A need that cannot be answered (an infrastructure error) ends the episode
        (:meth:`fail`); :class:`FatalProviderError` propagates."""
        while need is not None and not outside(need):
            try:
                answer = await self.perform(need)
            except FatalProviderError:
                raise
            except InfrastructureError as exc:
                self.fail(need, exc)
                return None
            need = self.send(answer)
        return need

    def fail(self, need: Need, exc: InfrastructureError) -> None:
        """End the episode with ``infrastructure_error``: ``need`` could not be answered.

        The failed model call's retries count in the usage of the role that made it; a request
        rejected for its content also sets ``info["content_rejected"]``.
        """
        if isinstance(exc, ModelError):
            self.failed_retries[_ROLE_OF[type(need)]] += exc.retries
        if isinstance(exc, ContentRejectedError):
            self.info["content_rejected"] = True
        self.error = f"{type(exc).__name__}: {exc}"
        self.termination = TerminationReason.INFRASTRUCTURE_ERROR
        if self._rules is not None:
            self._rules.close()

    # -- the rules ---------------------------------------------------------------------

    def add(self, message: Message) -> None:
        self.messages.append(message.model_copy(update={"turn": len(self.messages)}))

    def user_turn(self) -> _Part:
        reply = yield UserTurn(list(self.messages))
        self.add(reply)
        self.steps += 1
        if any(token in reply.content for token in self.ep.user_stop_tokens):
            return TerminationReason.USER_STOP
        return None

    def agent_reply(self) -> Generator[Need, Answer, AssistantMessage | None]:
        for _ in range(self.ep.limits.max_empty_replies):
            reply = yield AgentTurn(list(self.messages))
            assert isinstance(reply, AssistantMessage)
            if reply.content.strip() or reply.tool_calls:
                return reply
            if reply.usage is not None:
                self.extra_agent_usage = self.extra_agent_usage + reply.usage
        return None

    def agent_turns(self) -> _Part:
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
            reply = yield from self.agent_reply()
            if reply is None:
                return TerminationReason.INVALID_AGENT_MESSAGE
            self.add(reply)
            self.steps += 1
            self.agent_messages += 1
            if reply.tool_calls:
                if self.steps >= self.ep.limits.max_steps:
                    # The limit is checked after every step, so its tool batch never runs
                    # (as officially); a text reply at the limit still ends the episode normally.
                    return TerminationReason.MAX_STEPS
                for call in reply.tool_calls:
                    result = yield ToolRun(call, len(self.messages))
                    assert isinstance(result, ToolResultMessage)
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

    def predict(self) -> _Rules:
        """Static episode: one reply per prefix ``history[:i]``, recorded with ``turn = i``."""
        history = self.ep.history
        for i in self.ep.predict_at:
            if not 0 <= i <= len(history):
                raise ValueError(f"predict_at index {i} outside the history (0..{len(history)})")
            reply = yield AgentTurn(list(history[:i]))
            self.messages.append(reply.model_copy(update={"turn": i}))
            self.steps += 1
            self.agent_messages += 1
        return TerminationReason.STATIC

    def play(self) -> _Rules:
        """The whole episode, as a generator of needs that returns the termination."""
        if self.ep.predict_at:
            return (yield from self.predict())
        if self.ep.history:
            for message in self.ep.history:
                self.add(message)
        elif self.ep.greeting is not None:
            self.add(AssistantMessage(content=self.ep.greeting))
        while True:
            if self.steps >= self.ep.limits.max_steps:
                return TerminationReason.MAX_STEPS
            ended = yield from self.user_turn()
            if ended is not None:
                return ended
            ended = yield from self.agent_turns()
            if ended is not None:
                return ended
            self.turns += 1
            limit = self.ep.limits.max_turns
            if limit is not None and self.turns >= limit:
                if self.ep.limits.reply_after_last_turn:
                    if self.steps >= self.ep.limits.max_steps:
                        return TerminationReason.MAX_STEPS
                    ended = yield from self.user_turn()
                    if ended is not None:
                        return ended
                return TerminationReason.MAX_TURNS

    # -- the record --------------------------------------------------------------------

    def simulation(self) -> Simulation:
        """The record of the ended episode (usage summed per role, final state snapshot)."""
        if self.termination is None:
            raise RuntimeError("the episode has not ended")
        agent_usage = self.extra_agent_usage + _retried(self.failed_retries["assistant"])
        user_usage = _retried(self.failed_retries["user"])
        tool_usage = _retried(self.failed_retries["tool"])
        for m in self.messages:
            usage = getattr(m, "usage", None)
            if usage is None:
                continue
            if m.role == "assistant":
                agent_usage = agent_usage + usage
            elif m.role == "user":
                user_usage = user_usage + usage
            elif m.role == "tool":
                tool_usage = tool_usage + usage
        episode = self.ep
        return Simulation(
            task_id=episode.task_id,
            trial=episode.trial,
            seed=episode.seed,
            messages=self.messages,
            termination=self.termination,
            error=self.error,
            steps=self.steps,
            tool_calls=self.tool_calls,
            tool_errors=self.tool_errors,
            agent_usage=agent_usage,
            user_usage=user_usage,
            tool_usage=tool_usage,
            duration_s=round(time.perf_counter() - self._started, 6),
            final_state=episode.environment.snapshot(),
            info=dict(self.info),
        )


def _retried(retries: int) -> Usage:
    """The usage of calls that failed: no answer, no tokens, their retries."""
    return Usage.zero().model_copy(update={"retries": retries}) if retries else Usage.zero()


async def run_episode(episode: Episode) -> Simulation:
    """Run one episode to its end and return the recorded simulation.

    Tool calls in a message that also says ``###STOP###`` are executed before the episode ends
    (unless the message reaches the step limit: then none runs and it ends with ``max_steps``).
    Bad tool arguments come back to the agent as tool errors and are counted. A model failure
    that survives its retries ends the episode with ``infrastructure_error`` (recorded, re-run on
    resume; the failed call's retries count in its role's usage; a request rejected for its
    content also sets ``info["content_rejected"]``, and the runner records the unit as
    rejected). A :class:`FatalProviderError` (the provider refuses every call) propagates: the
    runner stops the run. Any other exception is a bug and propagates.
    """
    process = EpisodeProcess(episode)
    await process.advance(process.start())
    return process.simulation()
