"""Mutation guards for the episode loop (simulation/_loop.py): ``advance`` hands back the first
need its ``outside`` claims, judged on that need, and answers nothing of it in process."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lifebench.messages import AssistantMessage, Message
from lifebench.simulation import Episode, EpisodeProcess, ScriptedUser
from lifebench.simulation._loop import AgentTurn, Need, UserTurn
from lifebench.tools import ToolSet


class _Env:
    def __init__(self) -> None:
        self.tools = ToolSet([])

    def snapshot(self) -> dict[str, Any]:
        return {}


class _CountingAgent:
    def __init__(self) -> None:
        self.asked = 0

    async def respond(self, trajectory: Sequence[Message]) -> AssistantMessage:
        self.asked += 1
        return AssistantMessage(content="Your table for two at 19:00 is booked. ###STOP###")


async def test_advance_stops_at_the_first_need_outside_claims() -> None:
    agent = _CountingAgent()
    process = EpisodeProcess(
        Episode(
            task_id="t",
            trial=0,
            seed=1,
            environment=_Env(),  # type: ignore[arg-type]
            agent=agent,
            user=ScriptedUser(["帮我订今晚七点两位。"]),
        )
    )
    seen: list[Need | None] = []

    def outside(need: Need) -> bool:
        seen.append(need)
        return isinstance(need, AgentTurn)

    need = await process.advance(process.start(), outside)
    # the user's turn was answered in process, the agent's turn is handed back unanswered
    assert isinstance(need, AgentTurn) and agent.asked == 0 and not process.done
    assert [type(n) for n in seen] == [UserTurn, AgentTurn]
    assert [m.content for m in need.trajectory][-1] == "帮我订今晚七点两位。"
