"""The step protocol plays by run_episode's rules: for any script of model answers, an episode
driven through StepSession records exactly the simulation run_episode records with an LLM
agent (or user) answering from the same script, and the policy sees exactly the requests the
agent's (user's) model is sent. Limits, stop tokens, empty replies, tool errors, ReAct
re-asks, static episodes and failures included."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lifebench.errors import FatalProviderError, ModelError
from lifebench.evaluation import BasisResult, Evaluation, combine
from lifebench.flow.agents.react import ReActAgent
from lifebench.messages import AssistantMessage, Message, ToolCall, Usage, UserMessage
from lifebench.models import ScriptedModel
from lifebench.rl import EpisodeOver, StepSession, play
from lifebench.simulation import (
    AGENT_STOP,
    Episode,
    EpisodeProcess,
    Limits,
    LLMAgent,
    LLMUser,
    ScriptedUser,
    Simulation,
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


@dataclass
class _Options:
    language: str = "en"


class _Grader:
    """What a StepSession asks of its environment: grading (the counter reached 3)."""

    def __init__(self) -> None:
        self.bases = ["counter"]
        self.options = _Options()

    async def evaluate(self, task: Any, simulation: Simulation) -> Evaluation:
        met = simulation.final_state["value"] == 3
        result = BasisResult(basis="counter", reward=float(met), score=float(met))
        return combine({"counter": result}, self.bases)


def _call(n: Any, cid: str) -> ToolCall:
    return ToolCall(id=cid, name="add", arguments=f'{{"n": {n}}}')


ANSWERS = [
    AssistantMessage(content=""),
    AssistantMessage(content="  "),
    AssistantMessage(tool_calls=[_call(1, "a")]),
    AssistantMessage(tool_calls=[_call(-1, "b")]),
    AssistantMessage(tool_calls=[_call("x", "c"), _call(2, "d")]),
    AssistantMessage(tool_calls=[_call(1, "e")], content=f"bye {AGENT_STOP}"),
    AssistantMessage(content="Done. Anything else?"),
    AssistantMessage(content=f"Goodbye {AGENT_STOP}", usage=Usage(prompt_tokens=3)),
]

LIMITS = st.builds(
    Limits,
    max_steps=st.integers(1, 12),
    max_errors=st.integers(1, 4),
    max_empty_replies=st.integers(1, 3),
    max_turns=st.none() | st.integers(1, 3),
    reply_after_last_turn=st.booleans(),
    max_agent_calls_per_turn=st.none() | st.integers(1, 4),
    max_agent_messages=st.none() | st.integers(1, 6),
)
USER_LINES = st.lists(st.sampled_from(["add some", "more please", "ok ###STOP###"]), max_size=3)


def _episode(agent: Any, user: Any, limits: Limits, **kw: Any) -> Episode:
    return Episode(
        task_id="t",
        trial=0,
        seed=7,
        environment=_Env(),
        agent=agent,
        user=user,
        limits=limits,
        **kw,
    )


def _record(simulation: Simulation) -> dict[str, Any]:
    return simulation.model_dump(exclude={"duration_s"})


@given(
    script=st.lists(st.sampled_from(ANSWERS), min_size=1, max_size=10),
    limits=LIMITS,
    lines=USER_LINES,
    solo=st.booleans(),
)
async def test_any_script_gives_the_simulation_run_episode_gives(
    script: list[AssistantMessage], limits: Limits, lines: list[str], solo: bool
) -> None:
    model = ScriptedModel(script, repeat_last=True)
    agent = LLMAgent(model, "You add numbers.", _Env().tools.openai_schemas())
    expected = await run_episode(_episode(agent, ScriptedUser(lines), limits, solo=solo))

    policy_agent = LLMAgent(ScriptedModel([]), "You add numbers.", _Env().tools.openai_schemas())
    episode = _episode(policy_agent, ScriptedUser(lines), limits, solo=solo)
    policy = ScriptedModel(script, repeat_last=True)
    session = StepSession(_Grader(), None, EpisodeProcess(episode), policy_plays_user=False)  # type: ignore[arg-type]
    await session.start()
    await play(session, policy)
    assert session.simulation is not None
    assert _record(session.simulation) == _record(expected)
    assert [(c.messages, c.tools, c.config) for c in policy.calls] == [
        (c.messages, c.tools, c.config) for c in model.calls
    ]
    assert session.outcome is not None
    assert session.outcome.termination == expected.termination
    assert session.outcome.reward == (1.0 if expected.final_state["value"] == 3 else 0.0)


@given(
    user_script=st.lists(
        st.sampled_from(["I want 3", "more", f"thanks {AGENT_STOP}"]), min_size=1, max_size=4
    ),
    limits=LIMITS,
)
async def test_the_policy_plays_the_user_by_the_same_rules(
    user_script: list[str], limits: Limits
) -> None:
    agent_script = [
        AssistantMessage(tool_calls=[_call(1, "a")], usage=Usage()),
        AssistantMessage(content="ok", usage=Usage()),
    ]
    user_model = ScriptedModel(user_script, repeat_last=True)
    expected = await run_episode(
        _episode(
            LLMAgent(ScriptedModel(agent_script, repeat_last=True), "s", ()),
            LLMUser(user_model, "You want 3."),
            limits,
        )
    )
    episode = _episode(
        LLMAgent(ScriptedModel([]), "s", ()), LLMUser(ScriptedModel([]), "You want 3."), limits
    )
    session = StepSession(_Grader(), None, EpisodeProcess(episode), policy_plays_user=True)  # type: ignore[arg-type]
    await session.start()
    turns = {"assistant": 0, "user": 0}
    user_prompts = []
    while not session.done:
        role = session.role
        assert role is not None and session.request is not None
        if role == "user":
            user_prompts.append(list(session.request.messages))
            text = user_script[min(turns[role], len(user_script) - 1)]
            answer = AssistantMessage(content=text, usage=Usage())
        else:
            answer = agent_script[min(turns[role], len(agent_script) - 1)]
        turns[role] += 1
        await session.step(answer)
    assert session.simulation is not None
    assert _record(session.simulation) == _record(expected)
    assert user_prompts == [c.messages for c in user_model.calls]


async def test_a_react_agent_is_re_asked_through_the_protocol_as_in_a_run() -> None:
    script = [
        "Thought: hmm",  # unusable: re-asked
        'Thought: add\nAction: add\nAction Input: {"n": 3}',
        "Thought: done\nResponse: It is 3.",
    ]
    model = ScriptedModel(script, repeat_last=True)
    expected = await run_episode(
        _episode(ReActAgent(model, "ReAct", tool_names=["add"]), ScriptedUser(["add 3"]), Limits())
    )
    episode = _episode(
        ReActAgent(ScriptedModel([]), "ReAct", tool_names=["add"]),
        ScriptedUser(["add 3"]),
        Limits(),
    )
    session = StepSession(_Grader(), None, EpisodeProcess(episode), policy_plays_user=False)  # type: ignore[arg-type]
    observations = [await session.start()]
    for text in script:
        answer = {"role": "assistant", "content": text, "usage": {"prompt_tokens": 0}}
        observations.append(await session.step(answer))
    assert session.simulation is not None and session.done
    assert _record(session.simulation) == _record(expected)
    reask = observations[1]
    assert reask.role == "assistant" and reask.new_messages == []
    assert "could not be used" in reask.messages[-1]["content"]
    assert reask.tools == []
    assert session.outcome is not None and session.outcome.reward == 1.0


async def test_a_static_episode_asks_the_policy_once_per_prefix() -> None:
    history = (UserMessage(content="add 3"), AssistantMessage(content="Sure."))
    episode = _episode(
        LLMAgent(ScriptedModel([]), "s", ()),
        ScriptedUser([]),
        Limits(),
        greeting=None,
        history=history,
        predict_at=(1, 2),
    )
    session = StepSession(_Grader(), None, EpisodeProcess(episode), policy_plays_user=False)  # type: ignore[arg-type]
    first = await session.start()
    assert [m["content"] for m in first.messages[1:]] == ["add 3"]
    second = await session.step(AssistantMessage(content="p1"))
    assert [m["content"] for m in second.messages[1:]] == ["add 3", "Sure."]
    end = await session.step(AssistantMessage(content="p2"))
    assert end.done and session.simulation is not None
    assert [(m.content, m.turn) for m in session.simulation.messages] == [("p1", 1), ("p2", 2)]


async def test_a_policy_that_cannot_answer_ends_the_episode_ungraded() -> None:
    episode = _episode(LLMAgent(ScriptedModel([]), "s", ()), ScriptedUser(["hi"]), Limits())
    session = StepSession(_Grader(), None, EpisodeProcess(episode), policy_plays_user=False)  # type: ignore[arg-type]
    await session.start()
    end = await session.fail(ModelError("endpoint down", retries=4))
    assert end.done and end.reward is None
    assert end.outcome is not None
    assert (
        end.outcome.status == "infrastructure_error"
        and end.outcome.termination == "infrastructure_error"
    )
    assert "endpoint down" in (end.outcome.error or "")
    assert session.simulation is not None and session.simulation.agent_usage.retries == 4
    with pytest.raises(EpisodeOver):
        await session.step(AssistantMessage(content="late"))


class _FatalUser:
    async def respond(self, trajectory: Sequence[Message]) -> UserMessage:
        raise FatalProviderError("bad key")


async def test_a_provider_refusing_every_call_propagates_out_of_step() -> None:
    episode = _episode(LLMAgent(ScriptedModel([]), "s", ()), _FatalUser(), Limits(), greeting=None)
    session = StepSession(_Grader(), None, EpisodeProcess(episode), policy_plays_user=False)  # type: ignore[arg-type]
    with pytest.raises(FatalProviderError):
        await session.start()


async def test_an_action_that_is_not_an_assistant_message_is_refused_and_changes_nothing() -> None:
    from lifebench.errors import InputError

    episode = _episode(LLMAgent(ScriptedModel([]), "s", ()), ScriptedUser(["hi"]), Limits())
    session = StepSession(_Grader(), None, EpisodeProcess(episode), policy_plays_user=False)  # type: ignore[arg-type]
    await session.start()
    before = session.messages
    for bad in ({"role": "user", "content": "x"}, {"tool_calls": "x"}, ["x"], {"tool_calls": [3]}):
        with pytest.raises(InputError):
            await session.step(bad)  # type: ignore[arg-type]
    assert session.messages == before and not session.done
    end = await session.step({"choices": [{"message": {"content": f"ok {AGENT_STOP}"}}]})
    assert end.done and end.outcome is not None and end.outcome.termination == "agent_stop"
