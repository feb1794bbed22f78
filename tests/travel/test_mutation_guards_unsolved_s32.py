"""Mutation guards for lifebench.travel.grading.unsolved (issue 21): a trajectory without a user
message, a blank last reply after the tag, what a stored result records (criterion, evidence,
texts, tool counters, subset) and the subset of a task that names none."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from travel_fakes import Task, simulation

from lifebench.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from lifebench.travel.grading.unsolved import (
    UnsolvedEvaluator,
    final_answer,
    first_reply,
    unsolved_verdicts,
)

CALL = ToolCall(id="c", name="web_search", arguments='{"query": "reminder"}')
BAD = ToolCall(id="d", name="web_search", arguments="{}")


def _tool_then_tag(query: str, tag_text: str) -> list[Message]:
    """Query → a failing call → a working call → the tag (first reply: a pure tool call)."""
    return [
        UserMessage(content=query),
        AssistantMessage(content="", tool_calls=[BAD]),
        ToolResultMessage(tool_call_id="d", name="web_search", content="missing", error=True),
        AssistantMessage(content="", tool_calls=[CALL]),
        ToolResultMessage(tool_call_id="c", name="web_search", content="nothing found"),
        AssistantMessage(content=tag_text),
    ]


@pytest.mark.parametrize(
    "text", ["[Unsolved]", "[Unsolved] 无法设置闹钟。"], ids=["english", "chinese"]
)
def test_a_trajectory_without_a_user_message_is_read_whole(text: str) -> None:
    # an imported trajectory that lost its query: every message is after the (absent) query
    messages: list[Message] = [AssistantMessage(content=text)]
    assert first_reply(messages) == text and final_answer(messages) == text
    verdicts = unsolved_verdicts(messages)
    assert verdicts == {"first": True, "final": True, "exact": text == "[Unsolved]"}


@pytest.mark.parametrize("blank", ["   ", "\n\t"], ids=["spaces", "newline-tab"])
def test_a_blank_last_reply_is_not_the_final_answer(blank: str) -> None:
    messages: list[Message] = [
        UserMessage(content="Wake me up when it rains"),
        AssistantMessage(content="[Unsolved]"),
        UserMessage(content="ok?"),
        AssistantMessage(content=blank),
    ]
    assert final_answer(messages) == "[Unsolved]"
    assert unsolved_verdicts(messages) == {"first": True, "final": True, "exact": True}


async def test_the_stored_result_of_the_first_rule() -> None:
    messages = _tool_then_tag("下雨时提醒我", "[Unsolved] 没有提醒工具。")
    result = await UnsolvedEvaluator("first").evaluate(
        Task(subset="unsolvable"), simulation(messages)
    )
    assert (result.reward, result.score) == (0.0, 0.0)
    (criterion,) = result.criteria
    assert criterion.id == "unsolved" and criterion.met is False
    assert criterion.description == "The agent answers [Unsolved] (rule: first)"
    # the first reply is a pure tool call: nothing to show
    assert criterion.evidence == "(no reply)"
    info = result.info
    assert info["first_reply"] == "" and info["final_answer"] == "[Unsolved] 没有提醒工具。"
    assert (info["tool_calls"], info["tool_errors"]) == (2, 1)
    assert info["subset"] == "unsolvable" and info["rule"] == "first"


async def test_the_stored_result_of_the_final_rule() -> None:
    messages = _tool_then_tag("Remind me when it rains", "Sorry. [Unsolved]")
    result = await UnsolvedEvaluator("final").evaluate(Task(subset="single"), simulation(messages))
    assert (result.reward, result.score) == (1.0, 1.0)
    (criterion,) = result.criteria
    assert criterion.met is True
    assert criterion.description == "The agent answers [Unsolved] (rule: final)"
    assert criterion.evidence == "Sorry. [Unsolved]"
    # on a solvable row the rule measures a false refusal: the row's subset is kept
    assert result.info["subset"] == "single"
    assert result.info["by_rule"] == {"first": False, "final": True, "exact": False}


async def test_a_trajectory_without_any_reply() -> None:
    result = await UnsolvedEvaluator("exact").evaluate(
        Task(subset="unsolvable"), simulation([UserMessage(content="x")])
    )
    assert result.reward == 0.0 and result.score == 0.0
    assert result.criteria[0].evidence == "(no reply)"
    assert result.info["first_reply"] is None and result.info["final_answer"] is None
    assert (result.info["tool_calls"], result.info["tool_errors"]) == (0, 0)


@dataclass(frozen=True)
class _Bare:
    """A task object without a subset (a row of the unsolvable file read elsewhere)."""

    id: str = "u1"


async def test_a_task_without_a_subset_is_unsolvable() -> None:
    messages: list[Message] = [UserMessage(content="q"), AssistantMessage(content="[Unsolved]")]
    result = await UnsolvedEvaluator().evaluate(_Bare(), simulation(messages))
    assert result.info["subset"] == "unsolvable" and result.reward == 1.0
