"""Survivors of mutation testing in ``rl/_types.py``, pinned by their effect: an episode's
outcome (status, reward, the error that explains a missing reward, every component copied from
the simulation and the evaluation) and the reading of a policy's OpenAI-format message.

Only ``graded`` carries a reward; every other status has None and says why.
"""

from __future__ import annotations

from typing import Any

import pytest

from lifebench.errors import InputError
from lifebench.evaluation import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, ToolCall, Usage
from lifebench.rl import Outcome, assistant_message
from lifebench.simulation import Simulation, TerminationReason


def simulation(**changes: Any) -> Simulation:
    base: dict[str, Any] = {
        "task_id": "t-7",
        "trial": 2,
        "seed": 4242,
        "termination": TerminationReason.AGENT_STOP,
        "steps": 9,
        "tool_calls": 4,
        "tool_errors": 1,
    }
    return Simulation(**{**base, **changes})


def basis(name: str, reward: float, *, gradable: bool = True, note: str = "") -> BasisResult:
    return BasisResult(basis=name, reward=reward, score=reward, gradable=gradable, note=note)


def test_a_graded_episode_carries_the_reward_and_every_component() -> None:
    state, rubric = basis("state", 1.0), basis("rubric", 0.5)
    evaluation = Evaluation(
        reward=0.5, basis="state*rubric", by_basis={"state": state, "rubric": rubric}
    )
    outcome = Outcome.of(simulation(), evaluation, ("state", "rubric"))
    assert outcome == Outcome(
        task_id="t-7",
        trial=2,
        seed=4242,
        termination=TerminationReason.AGENT_STOP,
        status="graded",
        reward=0.5,
        reward_bases=["state", "rubric"],
        bases={"state": state, "rubric": rubric},
        steps=9,
        tool_calls=4,
        tool_errors=1,
        error=None,
    )


def test_a_failed_grading_has_no_reward_and_says_why() -> None:
    evaluation = Evaluation(
        reward=0.0, basis="state", by_basis={"state": basis("state", 0.0)}, error="judge timed out"
    )
    outcome = Outcome.of(simulation(), evaluation, ["state"])
    assert (outcome.status, outcome.reward, outcome.error) == (
        "grading_failed",
        None,
        "judge timed out",
    )
    assert outcome.bases == {"state": basis("state", 0.0)}


def test_an_ungradable_task_names_each_reward_basis_that_could_not_check_it() -> None:
    by_basis = {
        "state": basis("state", 0.0, gradable=False, note="no final state to compare"),
        "rubric": basis("rubric", 0.0, gradable=False),
        "extra": basis("extra", 0.0, gradable=False, note="not a reward basis"),
        "action": basis("action", 1.0),
    }
    evaluation = Evaluation(
        reward=0.0, basis="state*rubric*action", by_basis=by_basis, gradable=False
    )
    outcome = Outcome.of(simulation(), evaluation, ["state", "rubric", "action"])
    assert outcome.status == "ungradable"
    assert outcome.reward is None
    assert outcome.error == "state: no final state to compare; rubric: nothing it can check"
    assert outcome.bases == by_basis


def test_an_episode_without_evaluation_is_an_infrastructure_error_or_a_refusal() -> None:
    broken = Outcome.of(
        simulation(termination=TerminationReason.INFRASTRUCTURE_ERROR, error="connection reset"),
        None,
        ["state"],
    )
    assert (broken.status, broken.reward, broken.error) == (
        "infrastructure_error",
        None,
        "connection reset",
    )
    assert broken.bases == {}
    assert broken.reward_bases == ["state"]
    silent = Outcome.of(simulation(termination=TerminationReason.INFRASTRUCTURE_ERROR), None, [])
    assert (silent.status, silent.error) == ("infrastructure_error", "infrastructure error")
    refused = Outcome.of(simulation(info={"content_rejected": True}), None, ["state"])
    assert (refused.status, refused.reward, refused.error) == ("rejected", None, "rejected")
    not_refused = Outcome.of(simulation(info={"content_rejected": False}), None, ["state"])
    assert not_refused.status == "infrastructure_error"


# ----------------------------------------------------------------- a policy's message


def test_an_assistant_message_is_taken_as_it_is() -> None:
    message = AssistantMessage(content="hi")
    assert assistant_message(message) is message


def test_an_openai_message_becomes_an_assistant_message() -> None:
    got = assistant_message(
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "add", "arguments": '{"n": 1}'},
                },
                {"type": "function", "function": {"name": "add", "arguments": {"n": 2}}},
            ],
            "reasoning_content": "because",
            "usage": {"prompt_tokens": 11, "completion_tokens": 3},
        }
    )
    assert got.content == "ab"
    assert got.tool_calls == [
        ToolCall(id="c1", name="add", arguments='{"n": 1}'),
        ToolCall(id="call_1", name="add", arguments='{"n": 2}'),
    ]
    assert got.reasoning == "because"
    assert got.usage == Usage(prompt_tokens=11, completion_tokens=3)


def test_a_whole_response_gives_its_first_choice() -> None:
    response = {
        "choices": [
            {"message": {"role": "assistant", "content": "first", "reasoning": "r"}},
            {"message": {"role": "assistant", "content": "second"}},
        ]
    }
    got = assistant_message(response)
    assert (got.content, got.reasoning, got.tool_calls) == ("first", "r", [])
    assert assistant_message({"choices": [{"message": None}]}).content == ""
    # a list of choices that are not objects is not a response: the mapping itself is read
    assert assistant_message({"choices": ["x"], "content": "own"}).content == "own"
    assert assistant_message({"choices": [], "content": "own"}).content == "own"


def test_the_role_defaults_to_assistant_and_any_other_is_refused() -> None:
    assert assistant_message({"content": "no role"}).content == "no role"
    with pytest.raises(InputError, match="not a 'user' message"):
        assistant_message({"role": "user", "content": "x"})


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("just text", "an action is an assistant message, not str"),
        (["a"], "an action is an assistant message, not list"),
        ({"tool_calls": {"name": "x"}}, "tool_calls of an action must be a list"),
        (
            {"content": 3},
            "the action is not a usable assistant message: message content has type int",
        ),
        (
            {"tool_calls": ["x"]},
            "the action is not a usable assistant message: tool call #0 is not an object",
        ),
    ],
    ids=["text", "list", "calls-object", "content-int", "call-not-object"],
)
def test_what_is_not_an_assistant_message_is_refused_with_its_reason(
    value: Any, message: str
) -> None:
    with pytest.raises(InputError) as caught:
        assistant_message(value)
    assert str(caught.value) == message
    if message.startswith("the action"):  # the provider-format error stays out of the trace
        assert caught.value.__suppress_context__


def test_reasoning_and_usage_are_read_only_when_well_formed() -> None:
    got = assistant_message(
        {"content": "x", "tool_calls": None, "reasoning_content": 5, "usage": "many"}
    )
    assert (got.tool_calls, got.reasoning, got.usage) == ([], None, None)
    assert (
        assistant_message({"content": "x", "reasoning_content": "rc", "reasoning": "r"}).reasoning
        == "rc"
    )
    half = assistant_message(
        {"content": "x", "usage": {"prompt_tokens": "7", "completion_tokens": 2}}
    )
    assert half.usage == Usage(prompt_tokens=0, completion_tokens=2)
    other = assistant_message(
        {"content": "x", "usage": {"prompt_tokens": 7, "completion_tokens": None}}
    )
    assert other.usage == Usage(prompt_tokens=7, completion_tokens=0)
