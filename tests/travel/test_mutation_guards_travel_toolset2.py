"""TravelBench's tools bound to an episode (issue 21): what a call with bad arguments, a valid
call and a sandbox failure give the agent, and what they add to the episode's counters (the
tool-call and validation-error numbers of the report)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

import pytest

from lifebench.errors import InfrastructureError
from lifebench.messages import Usage
from lifebench.tools import ToolKind
from lifebench.travel.environment import TravelEnvironment
from lifebench.travel.sandbox.backend import Answer, Sandbox, SandboxConfig
from lifebench.travel.tools.specs import TOOLS
from lifebench.travel.tools.toolset import TravelTool, decode_arguments
from lifebench.travel.tools.validation import Problem

TIME = "2025-10-24 10:00"
TOOL = "map_search_places"
VALID = {"query": "咖啡", "center": "30.25,120.16"}


class _Fixed(Sandbox):
    """A sandbox that answers every call with one answer, or raises one error."""

    def __init__(self, answer: Answer | None = None, error: Exception | None = None) -> None:
        super().__init__(SandboxConfig())
        self.fixed, self.error = answer, error
        self.asked: list[tuple[str, dict[str, Any], str, str]] = []

    async def answer(self, tool: str, args: Mapping[str, Any], time: str, language: Any) -> Answer:
        self.asked.append((tool, dict(args), time, language))
        if self.error is not None:
            raise self.error
        assert self.fixed is not None
        return self.fixed


def _env(sandbox: Sandbox, language: Any = "en") -> TravelEnvironment:
    return TravelEnvironment(sandbox, TIME, language)


def _run(env: TravelEnvironment, arguments: Any, tool: str = TOOL) -> Any:
    return asyncio.run(env.tools[tool].run(arguments))


def test_the_ten_tools_in_official_order_read_only_and_named() -> None:
    env = _env(Sandbox(SandboxConfig()))
    tools = list(env.tools)
    assert [t.name for t in tools] == [spec.name for spec in TOOLS]
    assert len(tools) == 10
    for tool, spec in zip(tools, TOOLS, strict=True):
        assert isinstance(tool, TravelTool)
        assert tool.tb is spec and tool.env is env
        assert tool.spec.kind is ToolKind.READ
        assert tool.spec.name == spec.name
        assert tool.spec.description == spec.description


def test_arguments_as_a_mapping_are_taken_as_they_are() -> None:
    args = {"query": "咖啡", "limit": 3}
    decoded = decode_arguments(args)
    assert decoded == args and decoded is not args


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_argument_text_is_an_empty_object(text: str) -> None:
    assert decode_arguments(text) == {}


def test_the_json_error_says_where_and_what_in_both_languages() -> None:
    problem = decode_arguments('{"query": }')
    assert isinstance(problem, Problem)
    assert problem.message.en == "arguments are not valid JSON (Expecting value at position 10)"
    assert problem.message.zh == "参数不是合法的 JSON（位置 10：Expecting value）"
    assert not problem.crash
    listed = decode_arguments(" [1] ")
    assert isinstance(listed, Problem)
    assert listed.message.en == "arguments must be a JSON object, got list"
    assert listed.message.zh == "参数必须是 JSON 对象，实际为 list"
    number = decode_arguments("3")
    assert isinstance(number, Problem) and number.message.en.endswith("got int")


def test_a_valid_call_is_answered_by_the_sandbox_and_counted_by_its_source() -> None:
    usage = Usage(prompt_tokens=5, completion_tokens=2)
    sandbox = _Fixed(Answer("RESULT", "simulated", usage))
    env = _env(sandbox, "zh")
    outcome = _run(env, json.dumps(VALID, ensure_ascii=False))
    assert (outcome.content, outcome.error, outcome.error_kind, outcome.usage) == (
        "RESULT",
        False,
        None,
        usage,
    )
    assert sandbox.asked == [(TOOL, VALID, TIME, "zh")]
    assert env.counters["calls"] == 1 and env.counters["simulated_calls"] == 1
    assert env.counters["validation_errors"] == 0
    assert env.sources == ["simulated"]


def test_a_call_the_rules_reject_is_an_error_in_the_rows_language_and_is_counted() -> None:
    sandbox = _Fixed(Answer("never", "cache"))
    for language, limit_word in (("en", "limit"), ("zh", "limit")):
        env = _env(sandbox, language)
        outcome = _run(env, {"query": "咖啡", "limit": "ten"})
        assert outcome.error and outcome.error_kind == "bad_arguments"
        message = json.loads(outcome.content)["error"]
        assert limit_word in message
        assert env.counters["calls"] == 1 and env.counters["validation_errors"] == 1
        assert env.sources == ["invalid"]
    en = json.loads(_run(_env(sandbox, "en"), {"query": "咖啡", "limit": "ten"}).content)
    zh = json.loads(_run(_env(sandbox, "zh"), {"query": "咖啡", "limit": "ten"}).content)
    assert en != zh
    assert sandbox.asked == []


def test_arguments_that_are_no_object_are_counted_as_validation_errors() -> None:
    sandbox = _Fixed(Answer("never", "cache"))
    env = _env(sandbox, "zh")
    outcome = _run(env, "[1, 2]")
    assert outcome.error and outcome.error_kind == "bad_arguments"
    assert json.loads(outcome.content) == {"error": "参数必须是 JSON 对象，实际为 list"}
    assert env.counters["calls"] == 1 and env.counters["validation_errors"] == 1
    assert env.sources == ["invalid"] and sandbox.asked == []


def test_a_sandbox_bug_is_an_internal_tool_error_not_counted_as_an_answer() -> None:
    env = _env(_Fixed(error=KeyError("boom")))
    outcome = _run(env, VALID)
    assert outcome.error and outcome.error_kind == "internal"
    assert outcome.content == "Internal error in tool map_search_places: KeyError: 'boom'"
    assert env.counters["calls"] == 0 and env.sources == []


def test_an_infrastructure_failure_of_the_simulator_ends_the_episode() -> None:
    env = _env(_Fixed(error=InfrastructureError("simulator down")))
    with pytest.raises(InfrastructureError, match="simulator down"):
        _run(env, VALID)
