"""Retries of model calls that finally failed count in the failing role's usage (so the run's
retry figures include them), and a provider that refuses every call stops the episode."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lifebench.errors import ContentRejectedError, FatalProviderError, ModelError
from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from lifebench.simulation import Episode, ScriptedUser, TerminationReason, run_episode
from lifebench.tools import ToolSet


class _Env:
    def __init__(self, tools: Any = None) -> None:
        self._tools = tools or ToolSet([])

    @property
    def tools(self) -> Any:
        return self._tools

    def snapshot(self) -> dict[str, Any]:
        return {}


class _Failing:
    """Answers ``answers`` times, then raises ``error``."""

    def __init__(self, error: Exception, answers: int = 0) -> None:
        self.error = error
        self.answers = answers

    async def respond(self, trajectory: Sequence[Message]) -> Any:
        if self.answers:
            self.answers -= 1
            return AssistantMessage(content="ok")
        raise self.error


class _Caller:
    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        return AssistantMessage(tool_calls=[ToolCall(id="c", name="sim", arguments="{}")])


class _SimulatedTools:
    """A toolset whose tool simulator model failed after its retries."""

    async def execute(self, call: ToolCall, turn: int = 0) -> ToolResultMessage:
        raise ModelError("tool simulator gave up after 4 attempts", retries=3)


def _episode(agent: Any, user: Any = None, env: Any = None) -> Episode:
    return Episode(
        task_id="t",
        trial=0,
        seed=1,
        environment=env or _Env(),
        agent=agent,
        user=user or ScriptedUser(["hello"]),
    )


async def test_agent_call_retries_are_counted_when_it_fails() -> None:
    agent = _Failing(ModelError("gave up after 6 attempts: HTTP 503", retries=5))
    sim = await run_episode(_episode(agent))
    assert sim.termination is TerminationReason.INFRASTRUCTURE_ERROR
    assert sim.agent_usage.retries == 5 and sim.agent_usage.calls == 0
    assert sim.user_usage.retries == 0 and sim.tool_usage.retries == 0


async def test_user_call_retries_are_counted_when_it_fails() -> None:
    user = _Failing(ModelError("gave up", retries=2), answers=0)
    sim = await run_episode(_episode(_Failing(ModelError("unused")), user=user))
    assert sim.user_usage.retries == 2 and sim.agent_usage.retries == 0


async def test_tool_simulator_retries_are_counted_when_it_fails() -> None:
    sim = await run_episode(_episode(_Caller(), env=_Env(_SimulatedTools())))
    assert sim.termination is TerminationReason.INFRASTRUCTURE_ERROR
    assert sim.tool_usage.retries == 3 and sim.agent_usage.retries == 0


async def test_rejected_request_keeps_its_retries_and_flag() -> None:
    agent = _Failing(ContentRejectedError("HTTP 413", status=413, retries=1))
    sim = await run_episode(_episode(agent))
    assert sim.info["content_rejected"] is True and sim.agent_usage.retries == 1


async def test_fatal_provider_error_propagates() -> None:
    with pytest.raises(FatalProviderError, match="bad key"):
        await run_episode(_episode(_Failing(FatalProviderError("bad key", status=401))))


async def test_user_message_is_kept_before_the_failure() -> None:
    agent = _Failing(ModelError("x", retries=1))
    sim = await run_episode(_episode(agent, user=ScriptedUser(["hi"])))
    assert [m.role for m in sim.messages] == ["assistant", "user"]
    assert isinstance(sim.messages[1], UserMessage)
