"""Mutation guards for FlowBench's session scoring (``flow/evaluation/session.py``): the
numbers a judge's answer may give, the session as the official loop records it, and the
unusable replies counted over a session."""

from __future__ import annotations

import re
from typing import Any

import pytest

from lifebench.flow.evaluation.session import (
    _int,
    check_completion,
    format_errors,
    official_turns,
)
from lifebench.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage


@pytest.mark.parametrize(
    ("value", "number"),
    [(3, 3), (2.0, 2), (" 4 ", 4), ("07", 7)],
    ids=["int", "whole-float", "padded-text", "leading-zero"],
)
def test_a_judges_count_may_be_written_as_any_whole_number(value: Any, number: int) -> None:
    assert _int(value, "n") == number


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "n must be an integer"),
        (2.5, "n must be an integer, got 2.5"),
        ("3.0", "n must be an integer, got '3.0'"),
        ("-1", "n must be an integer, got '-1'"),
        (None, "n must be an integer, got None"),
    ],
    ids=["bool", "fraction", "float-text", "negative-text", "none"],
)
def test_anything_else_is_refused_by_name(value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        _int(value, "n")


def test_an_empty_list_is_no_answer() -> None:
    with pytest.raises(ValueError, match=r"^expected a JSON object$"):
        check_completion([])
    with pytest.raises(ValueError, match=r"^missing success$"):
        check_completion([{"total_goals": 1}, {"success": True}])


def test_the_official_loop_records_user_agent_and_api_turns() -> None:
    messages = [
        UserMessage(content="pay my bill"),
        AssistantMessage(
            content="",
            reasoning="look it up",
            tool_calls=[ToolCall(id="1", name="payBill", arguments='{"id": 1}')],
        ),
        ToolResultMessage(tool_call_id="1", name="payBill", content='{"ok": true}'),
        AssistantMessage(content="Paid."),
    ]
    assert official_turns(messages) == [
        ("user", "pay my bill"),
        ("assistant", 'Thought: look it up\nAction: payBill\nAction Input: {"id": 1}'),
        ("function", '{"ok": true}'),
        ("assistant", "Thought:Response: Paid."),
    ]


def test_unusable_replies_are_summed_over_the_agents_messages() -> None:
    messages = [
        AssistantMessage(content="a", raw={"format_errors": 2}),
        UserMessage(content="u"),
        AssistantMessage(content="b"),
        AssistantMessage(content="c", raw={"format_errors": "1"}),
    ]
    assert format_errors(messages) == 3
    assert format_errors([]) == 0
