"""The generic turn limits of the loop: agent turns, agent calls per turn, the user's reply after
the last turn, and per-episode user stop tokens (TravelBench's caps; VitaBench sets none)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from lifebench.messages import AssistantMessage, Message, ToolCall, UserMessage
from lifebench.simulation import Episode, Limits, ScriptedUser, TerminationReason, run_episode
from lifebench.tools import ToolSet, tool


class _Env:
    class _Tools:
        @tool(kind="read", description="Ping.")
        def ping(self) -> str:
            return "pong"

    def __init__(self) -> None:
        from lifebench.tools import tools_of

        self.tools = ToolSet(tools_of(self._Tools()))

    def snapshot(self) -> dict[str, Any]:
        return {}


class _Agent:
    """Calls ``ping`` ``calls_per_turn - 1`` times, then answers (or never answers)."""

    def __init__(self, calls_per_turn: int | None) -> None:
        self.calls_per_turn = calls_per_turn
        self.model_calls = 0

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        self.model_calls += 1
        last_user = max(i for i, m in enumerate(trajectory) if m.role == "user")
        made = sum(1 for m in trajectory[last_user:] if m.role == "assistant")
        if self.calls_per_turn is None or made < self.calls_per_turn - 1:
            return AssistantMessage(
                tool_calls=[ToolCall(id=f"c{self.model_calls}", name="ping", arguments="{}")]
            )
        return AssistantMessage(content=f"answer {self.model_calls}")


class _User:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.asked = 0

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        self.asked += 1
        return UserMessage(content=self.lines[min(self.asked - 1, len(self.lines) - 1)])


def _run(agent: Any, user: Any, limits: Limits, **kw: Any) -> Any:
    episode = Episode(
        task_id="t",
        trial=0,
        seed=1,
        environment=_Env(),
        agent=agent,
        user=user,
        limits=limits,
        greeting=None,
        **kw,
    )
    return asyncio.run(run_episode(episode))


def test_single_turn_ends_after_the_agents_answer_without_asking_the_user_again() -> None:
    user = _User(["query", "should never be said"])
    sim = _run(_Agent(3), user, Limits(max_turns=1, reply_after_last_turn=False))
    assert sim.termination is TerminationReason.MAX_TURNS
    assert user.asked == 1
    assert [m.role for m in sim.messages] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    assert sim.termination.is_normal


def test_multi_turn_cap_counts_agent_turns_and_keeps_the_last_user_reply() -> None:
    user = _User(["q", "a1", "a2", "a3", "a4"])
    sim = _run(_Agent(1), user, Limits(max_turns=3, reply_after_last_turn=True))
    assert sim.termination is TerminationReason.MAX_TURNS
    texts = [m.content for m in sim.messages]
    assert texts == ["q", "answer 1", "a1", "answer 2", "a2", "answer 3", "a3"]
    assert user.asked == 4


def test_a_user_who_finishes_at_the_last_turn_ends_with_user_stop() -> None:
    """The official harness overwrote user_ended with max_turns_reached here."""
    user = _User(["q", "more", "[Finish Conversation]"])
    sim = _run(
        _Agent(1),
        user,
        Limits(max_turns=2, reply_after_last_turn=True),
        user_stop_tokens=("[Finish Conversation]",),
    )
    assert sim.termination is TerminationReason.USER_STOP
    assert sim.messages[-1].content == "[Finish Conversation]"


def test_episode_stop_tokens_replace_the_default_ones() -> None:
    user = _User(["q", "###STOP###", "x"])
    sim = _run(
        _Agent(1),
        user,
        Limits(max_turns=2, reply_after_last_turn=False),
        user_stop_tokens=("[Finish Conversation]",),
    )
    assert sim.termination is TerminationReason.MAX_TURNS  # ###STOP### is just text here
    default = _run(_Agent(1), _User(["q", "###STOP###"]), Limits(max_turns=5))
    assert default.termination is TerminationReason.USER_STOP


def test_agent_call_cap_per_turn() -> None:
    agent = _Agent(None)  # never answers
    sim = _run(agent, _User(["q"]), Limits(max_agent_calls_per_turn=4, max_errors=99))
    assert sim.termination is TerminationReason.MAX_AGENT_CALLS
    assert agent.model_calls == 4 and sim.tool_calls == 4
    assert not sim.termination.is_normal
    # Exactly at the cap: the 4th call answers, so the turn ends normally.
    ok = _run(
        _Agent(4),
        _User(["q"]),
        Limits(max_agent_calls_per_turn=4, max_turns=1, reply_after_last_turn=False),
    )
    assert ok.termination is TerminationReason.MAX_TURNS


def test_cap_is_per_turn_not_per_episode() -> None:
    agent = _Agent(3)
    sim = _run(
        agent,
        _User(["q", "again", "again"]),
        Limits(max_agent_calls_per_turn=3, max_turns=3, max_errors=99),
    )
    assert sim.termination is TerminationReason.MAX_TURNS
    assert agent.model_calls == 9


def test_no_limits_keep_the_old_behaviour() -> None:
    sim = _run(_Agent(1), ScriptedUser(["q", "q2"]), Limits())
    assert sim.termination is TerminationReason.USER_STOP
    assert [m.content for m in sim.messages][-1] == "###STOP###"
