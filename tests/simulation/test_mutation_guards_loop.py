"""Mutation guards (issue 21) for the episode loop (``simulation/_loop.py``): what the record
says when an episode fails, static (teacher-forced) episodes at the edges of their history, the
driving protocol's refusals, and the recorded duration."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import pytest

from lifebench.errors import ModelError
from lifebench.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.simulation import (
    Episode,
    EpisodeProcess,
    Limits,
    ScriptedUser,
    TerminationReason,
    run_episode,
)
from lifebench.simulation._loop import UserTurn
from lifebench.tools import ToolSet


class _Env:
    def __init__(self) -> None:
        self.tools = ToolSet([])

    def snapshot(self) -> dict[str, Any]:
        return {"state": "final"}


class _Seer:
    """Replies with the number of messages it saw."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        self.seen.append(len(trajectory))
        return AssistantMessage(content=f"saw {len(trajectory)}")


class _Broken:
    async def respond(self, trajectory: Sequence[Message]) -> Any:
        raise ModelError("provider unavailable after 6 attempts", retries=5)


_HISTORY: tuple[Message, ...] = (
    UserMessage(content="a"),
    AssistantMessage(content="b"),
    UserMessage(content="c"),
)


def _episode(agent: Any = None, user: Any = None, **kw: Any) -> Episode:
    return Episode(
        task_id="t",
        trial=0,
        seed=1,
        environment=_Env(),
        agent=agent or _Seer(),
        user=user or ScriptedUser(["hello", "###STOP###"]),
        **kw,
    )


async def test_the_failure_is_recorded_with_the_errors_class_name() -> None:
    sim = await run_episode(_episode(user=_Broken()))
    assert sim.termination is TerminationReason.INFRASTRUCTURE_ERROR
    assert sim.error == "ModelError: provider unavailable after 6 attempts"
    assert sim.user_usage.retries == 5


async def test_a_failure_before_the_start_is_recorded() -> None:
    process = EpisodeProcess(_episode())
    process.fail(UserTurn([]), ModelError("down", retries=2))
    sim = process.simulation()
    assert process.done
    assert sim.termination is TerminationReason.INFRASTRUCTURE_ERROR
    assert sim.error == "ModelError: down" and sim.user_usage.retries == 2


@pytest.mark.parametrize(
    ("at", "seen"),
    [((0,), [0]), ((3,), [3]), ((0, 3), [0, 3])],
    ids=["empty-prefix", "whole-history", "both-edges"],
)
async def test_static_episode_accepts_both_edges_of_the_history(
    at: tuple[int, ...], seen: list[int]
) -> None:
    agent = _Seer()
    sim = await run_episode(_episode(agent, history=_HISTORY, predict_at=at))
    assert agent.seen == seen
    assert sim.termination is TerminationReason.STATIC
    assert [m.turn for m in sim.messages] == list(at)
    # one step per prediction
    assert sim.steps == len(at)


@pytest.mark.parametrize("at", [-1, 4], ids=["before", "after"])
async def test_static_index_outside_the_history_names_it(at: int) -> None:
    with pytest.raises(
        ValueError, match=rf"^predict_at index {at} outside the history \(0\.\.3\)$"
    ):
        await run_episode(_episode(history=_HISTORY, predict_at=(at,)))


async def test_static_steps_count_every_prediction() -> None:
    sim = await run_episode(_episode(history=_HISTORY, predict_at=(1, 2, 3)))
    assert sim.steps == 3


def test_the_driving_protocol_refuses_out_of_order_calls() -> None:
    process = EpisodeProcess(_episode())
    with pytest.raises(RuntimeError, match=r"^the episode is not waiting for an answer$"):
        process.send(UserMessage(content="too early"))
    with pytest.raises(RuntimeError, match=r"^the episode has not ended$"):
        process.simulation()
    need = process.start()
    assert isinstance(need, UserTurn)
    with pytest.raises(RuntimeError, match=r"^the episode has already started$"):
        process.start()
    process.fail(need, ModelError("gone"))
    with pytest.raises(RuntimeError, match=r"^the episode is not waiting for an answer$"):
        process.send(UserMessage(content="too late"))


async def test_the_duration_is_the_episodes_own_rounded_to_the_microsecond(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticks = [100.0, 200.0, 201.23456789]
    monkeypatch.setattr(time, "perf_counter", lambda: ticks.pop(0) if len(ticks) > 1 else ticks[0])
    process = EpisodeProcess(_episode())  # 100.0: built
    need = process.start()  # 200.0: the episode starts now
    assert need is not None
    process.fail(need, ModelError("gone"))
    assert process.simulation().duration_s == 1.234568  # 201.23456789


class _SimulatedTools:
    """A tool simulator: every result carries the usage of the model call behind it."""

    def __init__(self) -> None:
        self.turns: list[int] = []

    async def execute(self, call: ToolCall, turn: int = 0) -> ToolResultMessage:
        self.turns.append(turn)
        return ToolResultMessage(
            tool_call_id=call.id,
            name=call.name,
            content="ok",
            usage=Usage(prompt_tokens=7, completion_tokens=3, cost=0.25),
        )


class _SimulatedEnv(_Env):
    def __init__(self) -> None:
        self.tools = self.simulated = _SimulatedTools()  # type: ignore[assignment]


class _TwoCalls:
    def __init__(self) -> None:
        self.replies = [
            AssistantMessage(
                tool_calls=[ToolCall(id="a", name="x"), ToolCall(id="b", name="y")],
                usage=Usage(prompt_tokens=100, completion_tokens=10),
            ),
            AssistantMessage(content="done ###STOP###", usage=Usage(prompt_tokens=1)),
        ]

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        return self.replies.pop(0)


async def test_tool_results_usage_counts_as_the_tools_usage() -> None:
    env = _SimulatedEnv()
    episode = Episode(
        task_id="t",
        trial=0,
        seed=1,
        environment=env,
        agent=_TwoCalls(),
        user=ScriptedUser(["hi"]),
    )
    sim = await run_episode(episode)
    assert sim.termination is TerminationReason.AGENT_STOP
    assert sim.error is None  # a normal end records no error, not an empty one
    assert (sim.tool_usage.prompt_tokens, sim.tool_usage.completion_tokens) == (14, 6)
    assert (sim.tool_usage.cost, sim.tool_usage.calls) == (0.5, 2)
    assert (sim.agent_usage.prompt_tokens, sim.agent_usage.calls) == (101, 2)
    assert sim.user_usage.prompt_tokens == 0
    # each call is told its place in the trajectory: greeting 0, user 1, the agent's calls 2
    assert env.simulated.turns == [3, 4]
    assert [m.turn for m in sim.messages if m.role == "tool"] == [3, 4]


async def test_a_history_with_instructions_is_recorded() -> None:
    history = (SystemMessage(content="You are a clerk."), *_HISTORY[:2])
    sim = await run_episode(_episode(user=ScriptedUser(["###STOP###"]), history=history))
    assert sim.termination is TerminationReason.USER_STOP
    assert [m.role for m in sim.messages] == ["system", "user", "assistant", "user"]
    assert [m.turn for m in sim.messages] == [0, 1, 2, 3]


class _CountingUser:
    def __init__(self) -> None:
        self.asked = 0

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        self.asked += 1
        return UserMessage(content=f"question {self.asked}")


async def test_the_reply_after_the_last_turn_is_not_a_step_beyond_max_steps() -> None:
    user = _CountingUser()
    limits = Limits(max_steps=2, max_turns=1, reply_after_last_turn=True)
    sim = await run_episode(_episode(user=user, limits=limits))
    assert sim.termination is TerminationReason.MAX_STEPS
    assert sim.steps == 2 and user.asked == 1
    assert [m.role for m in sim.messages] == ["assistant", "user", "assistant"]
    # one step more and the user answers the last turn
    user = _CountingUser()
    roomy = Limits(max_steps=3, max_turns=1, reply_after_last_turn=True)
    sim = await run_episode(_episode(user=user, limits=roomy))
    assert sim.termination is TerminationReason.MAX_TURNS
    assert sim.steps == 3 and user.asked == 2


_FUSE = 40
"""Calls after which the fused roles below give up: far more than any limit these tests set,
so a loop that stopped counting steps ends with an infrastructure error instead of hanging."""


class _FusedToolCaller:
    """Calls the (simulated) tool on every turn; gives up after ``_FUSE`` calls."""

    def __init__(self) -> None:
        self.calls = 0

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        self.calls += 1
        if self.calls > _FUSE:
            raise ModelError("fuse: the episode did not stop")
        return AssistantMessage(tool_calls=[ToolCall(id=f"c{self.calls}", name="x")])


class _FusedTalker:
    """A user (or agent) who never stops talking; gives up after ``_FUSE`` calls."""

    def __init__(self) -> None:
        self.calls = 0

    async def respond(self, trajectory: Sequence[Message]) -> Any:
        self.calls += 1
        if self.calls > _FUSE:
            raise ModelError("fuse: the episode did not stop")
        if trajectory and trajectory[-1].role == "assistant":
            return UserMessage(content=f"more {self.calls}")
        return AssistantMessage(content=f"noted {self.calls}")


@pytest.mark.parametrize(
    ("max_steps", "steps", "rounds", "batches"),
    [(1, 1, 0, 0), (2, 2, 1, 0), (5, 5, 2, 2), (6, 6, 3, 2)],
)
async def test_tool_rounds_count_steps_up_to_max_steps(
    max_steps: int, steps: int, rounds: int, batches: int
) -> None:
    agent = _FusedToolCaller()
    episode = Episode(
        task_id="t",
        trial=0,
        seed=1,
        environment=_SimulatedEnv(),
        agent=agent,
        user=ScriptedUser(["go"]),
        limits=Limits(max_steps=max_steps, max_errors=1000),
    )
    sim = await run_episode(episode)
    assert sim.termination is TerminationReason.MAX_STEPS, sim.error
    # the user's message, then two per round (the agent's message, its tool results); a
    # tool-call message that reaches the limit ends the episode before its tools run (as the
    # official orchestrator, which checks the limit after every step)
    assert (sim.steps, agent.calls, sim.tool_calls) == (steps, rounds, batches)


@pytest.mark.parametrize("max_steps", [1, 2, 5, 6])
async def test_conversation_turns_count_steps_up_to_max_steps(max_steps: int) -> None:
    talker = _FusedTalker()
    sim = await run_episode(_episode(agent=talker, user=talker, limits=Limits(max_steps=max_steps)))
    assert sim.termination is TerminationReason.MAX_STEPS, sim.error
    assert sim.steps == max_steps and talker.calls == max_steps
