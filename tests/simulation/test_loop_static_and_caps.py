"""Loop hooks used by FlowBench: static (teacher-forced) episodes, a given history, and the
cap on agent actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lifebench.messages import AssistantMessage, Message, ToolCall, Usage, UserMessage
from lifebench.simulation import Episode, Limits, ScriptedUser, TerminationReason, run_episode
from lifebench.tools import ToolSet, tool, tools_of


class _Box:
    def __init__(self) -> None:
        self.calls = 0

    @tool(kind="write", description="Count a call.")
    def hit(self) -> dict[str, int]:
        self.calls += 1
        return {"calls": self.calls}


class _Env:
    def __init__(self) -> None:
        self.box = _Box()
        self._tools = ToolSet(tools_of(self.box))

    @property
    def tools(self) -> ToolSet:
        return self._tools

    def snapshot(self) -> dict[str, Any]:
        return {"calls": self.box.calls}


class _EchoAgent:
    """Says how many messages it saw; calls the tool when told to."""

    def __init__(self, call: bool = False) -> None:
        self.seen: list[int] = []
        self.call = call

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        self.seen.append(len(trajectory))
        calls = [ToolCall(id=f"c{len(self.seen)}", name="hit")] if self.call else []
        return AssistantMessage(
            content=f"saw {len(trajectory)}", tool_calls=calls, usage=Usage(prompt_tokens=5)
        )


_HISTORY: tuple[Message, ...] = (
    UserMessage(content="a"),
    AssistantMessage(content="b"),
    UserMessage(content="c"),
    AssistantMessage(content="d"),
    UserMessage(content="e"),
)


def _episode(agent: Any, **kw: Any) -> Episode:
    return Episode(
        task_id="t",
        trial=0,
        seed=1,
        environment=_Env(),
        agent=agent,
        user=ScriptedUser(["go", "again", "more"]),
        **kw,
    )


async def test_static_episode_asks_once_per_prefix_and_executes_nothing() -> None:
    agent = _EchoAgent(call=True)
    sim = await run_episode(_episode(agent, history=_HISTORY, predict_at=(1, 3, 5)))
    assert agent.seen == [1, 3, 5]
    assert sim.termination is TerminationReason.STATIC and sim.termination.is_normal
    assert [m.turn for m in sim.messages] == [1, 3, 5]
    assert [m.content for m in sim.messages] == ["saw 1", "saw 3", "saw 5"]
    assert sim.final_state == {"calls": 0} and sim.tool_calls == 0  # predictions, not actions
    assert sim.agent_usage.prompt_tokens == 15


async def test_static_index_outside_history_is_an_error() -> None:
    with pytest.raises(ValueError, match="outside the history"):
        await run_episode(_episode(_EchoAgent(), history=_HISTORY, predict_at=(6,)))


async def test_history_seeds_the_loop_without_greeting() -> None:
    agent = _EchoAgent()
    sim = await run_episode(_episode(agent, history=_HISTORY[:2]))
    assert [m.content for m in sim.messages[:3]] == ["a", "b", "go"]
    assert agent.seen[0] == 3


async def test_agent_action_cap_ends_with_max_steps() -> None:
    agent = _EchoAgent(call=True)  # never addresses the user without calling
    sim = await run_episode(_episode(agent, limits=Limits(max_agent_messages=4)))
    assert sim.termination is TerminationReason.MAX_STEPS
    assert sim.info["limit"] == "max_agent_messages"
    assert len(agent.seen) == 4
    assert sum(1 for m in sim.messages if m.role == "assistant" and m.turn > 0) == 4


async def test_user_may_end_normally_right_after_the_last_allowed_action() -> None:
    class _Replier:
        async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
            return AssistantMessage(content="ok")

    def one_reply(lines: list[str]) -> Episode:
        return Episode(
            task_id="t",
            trial=0,
            seed=1,
            environment=_Env(),
            agent=_Replier(),
            user=ScriptedUser(lines),
            limits=Limits(max_agent_messages=1),
            greeting=None,
        )

    sim = await run_episode(one_reply(["go"]))
    assert sim.termination is TerminationReason.USER_STOP
    capped = await run_episode(one_reply(["go", "more"]))
    assert capped.termination is TerminationReason.MAX_STEPS
