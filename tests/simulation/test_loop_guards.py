"""The episode's stop rules pinned by effect: never a step beyond --max-steps, whichever side
would take it, and a user stop token ends the episode wherever it stands in the message."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from test_loop import _episode, _ListAgent

from lifebench.errors import ModelError
from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.simulation import Limits, ScriptedUser, TerminationReason, run_episode


class _TalkativeUser:
    """Never stops talking; gives up after 40 messages, far more than any limit here, so a loop
    that stopped counting steps ends with an infrastructure error instead of hanging."""

    def __init__(self) -> None:
        self.said = 0

    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        self.said += 1
        if self.said > 40:
            raise ModelError("fuse: the episode did not stop")
        return UserMessage(content=f"and another thing ({len(trajectory)})")


@pytest.mark.parametrize("max_steps", [1, 2, 3, 4, 5])
async def test_never_a_step_beyond_max_steps(max_steps: int) -> None:
    agent = _ListAgent([AssistantMessage(content="Noted.")])
    sim = await run_episode(
        _episode(agent, user=_TalkativeUser(), limits=Limits(max_steps=max_steps))
    )
    assert sim.termination is TerminationReason.MAX_STEPS
    assert sim.steps == max_steps
    # the greeting, then one message per step
    assert [m.role for m in sim.messages] == ["assistant", *(["user", "assistant"] * 3)[:max_steps]]


@pytest.mark.parametrize(
    "line",
    ["###STOP###", "Thanks, that is all. ###STOP###", "###STOP### thanks!", "ok###STOP###ok"],
    ids=["alone", "at-the-end", "at-the-start", "inside"],
)
async def test_a_user_stop_token_anywhere_ends_the_episode(line: str) -> None:
    agent = _ListAgent([AssistantMessage(content="Done. Anything else?")])
    sim = await run_episode(_episode(agent, user=ScriptedUser(["please add", line, "more"])))
    assert sim.termination is TerminationReason.USER_STOP
    assert [m.role for m in sim.messages] == ["assistant", "user", "assistant", "user"]
    assert sim.messages[-1].content == line
