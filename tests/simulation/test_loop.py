"""The episode loop: routing, stop handling, limits, error counting, infrastructure errors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lifebench.errors import ModelError
from lifebench.messages import AssistantMessage, Message, ToolCall, Usage, UserMessage
from lifebench.simulation import (
    Episode,
    Limits,
    NoopAgent,
    ScriptedUser,
    TerminationReason,
    run_episode,
)
from lifebench.tools import ToolError, ToolSet, tool, tools_of


class _Counter:
    def __init__(self) -> None:
        self.value = 0

    @tool(kind="write", description="Add n to the counter.")
    def add(self, n: int) -> dict[str, int]:
        if n < 0:
            raise ToolError("n must be positive")
        self.value += n
        return {"value": self.value}


class _Env:
    def __init__(self) -> None:
        self.counter = _Counter()
        self._tools = ToolSet(tools_of(self.counter))

    @property
    def tools(self) -> ToolSet:
        return self._tools

    def snapshot(self) -> dict[str, Any]:
        return {"value": self.counter.value}


class _ListAgent:
    """Replays a fixed list of assistant messages, then repeats the last one."""

    def __init__(self, replies: list[AssistantMessage]) -> None:
        self.replies = replies
        self.seen: list[int] = []

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        self.seen.append(len(trajectory))
        return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]


def _call(n: Any, cid: str = "c") -> ToolCall:
    return ToolCall(id=cid, name="add", arguments=f'{{"n": {n}}}')


def _episode(agent: Any, user: Any = None, **kw: Any) -> Episode:
    return Episode(
        task_id="t",
        trial=0,
        seed=1,
        environment=_Env(),
        agent=agent,
        user=user or ScriptedUser(["please add"]),
        **kw,
    )


async def test_tool_calls_then_user_stop() -> None:
    agent = _ListAgent(
        [
            AssistantMessage(tool_calls=[_call(2, "a"), _call(3, "b")]),
            AssistantMessage(content="Done, 5. Anything else?"),
        ]
    )
    sim = await run_episode(_episode(agent))
    assert sim.termination is TerminationReason.USER_STOP
    assert sim.final_state == {"value": 5}
    assert [m.role for m in sim.messages] == [
        "assistant",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
    ]
    assert [m.turn for m in sim.messages] == list(range(7))
    assert sim.tool_calls == 2 and sim.tool_errors == 0
    # user(1) agent(1) tools(1) agent(1) user(1); the greeting is not a step
    assert sim.steps == 5


async def test_calls_next_to_stop_are_executed_first() -> None:
    agent = _ListAgent([AssistantMessage(content="ok ###STOP###", tool_calls=[_call(4)])])
    sim = await run_episode(_episode(agent))
    assert sim.termination is TerminationReason.AGENT_STOP
    assert sim.final_state == {"value": 4}
    assert sim.messages[-1].role == "tool"


async def test_bad_arguments_are_tool_errors_and_counted() -> None:
    agent = _ListAgent([AssistantMessage(tool_calls=[_call('"x"'), ToolCall(id="u", name="nope")])])
    sim = await run_episode(_episode(agent, limits=Limits(max_errors=4)))
    assert sim.termination is TerminationReason.TOO_MANY_ERRORS
    assert sim.tool_errors == 4
    tool_msgs = [m for m in sim.messages if m.role == "tool"]
    assert all(m.error for m in tool_msgs)
    assert tool_msgs[0].error_kind == "bad_arguments"
    assert tool_msgs[1].error_kind == "unknown_tool"


async def test_empty_replies_end_as_invalid_message() -> None:
    agent = _ListAgent([AssistantMessage(content="  ", usage=Usage(prompt_tokens=7))])
    sim = await run_episode(_episode(agent))
    assert sim.termination is TerminationReason.INVALID_AGENT_MESSAGE
    assert len(agent.seen) == 3
    assert sim.agent_usage.prompt_tokens == 21


async def test_max_steps() -> None:
    agent = _ListAgent([AssistantMessage(tool_calls=[_call(1)])])
    sim = await run_episode(_episode(agent, limits=Limits(max_steps=7)))
    assert sim.termination is TerminationReason.MAX_STEPS
    assert sim.steps <= 8


async def test_noop_agent_stops() -> None:
    sim = await run_episode(_episode(NoopAgent()))
    assert sim.termination is TerminationReason.AGENT_STOP
    assert sim.final_state == {"value": 0}


async def test_infrastructure_error_is_recorded_not_raised() -> None:
    class Broken:
        async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
            raise ModelError("provider unavailable after 6 attempts")

    sim = await run_episode(_episode(NoopAgent(), user=Broken()))
    assert sim.termination is TerminationReason.INFRASTRUCTURE_ERROR
    assert sim.error is not None and "provider unavailable" in sim.error


async def test_solo_mode_text_ends_episode() -> None:
    agent = _ListAgent(
        [AssistantMessage(tool_calls=[_call(1)]), AssistantMessage(content="all done")]
    )
    sim = await run_episode(_episode(agent, solo=True))
    assert sim.termination is TerminationReason.AGENT_STOP
    assert sim.info.get("solo_ended_without_stop_token") is True


async def test_usage_is_summed_per_role() -> None:
    class User:
        def __init__(self) -> None:
            self.n = 0

        async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
            self.n += 1
            text = "hi" if self.n == 1 else "###STOP###"
            return UserMessage(
                content=text, usage=Usage(prompt_tokens=10, completion_tokens=2, cost=0.5)
            )

    agent = _ListAgent(
        [AssistantMessage(content="hello", usage=Usage(prompt_tokens=3, completion_tokens=1))]
    )
    sim = await run_episode(_episode(agent, user=User()))
    assert sim.user_usage.prompt_tokens == 20 and sim.user_usage.cost == 1.0
    assert sim.agent_usage.completion_tokens == 1 and sim.agent_usage.calls == 1
