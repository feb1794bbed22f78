"""The session environment: replayed gold returns, validation, offline and LLM answers."""

from __future__ import annotations

import json

from lifebench.flow.kb import ParamSpec, ToolDef
from lifebench.flow.simulators.answerer import offline_answer
from lifebench.flow.simulators.environment import FlowEnvironment, SessionTools, ToolSimulator
from lifebench.flow.tasks import GoldCall
from lifebench.messages import AssistantMessage, ToolCall, Usage
from lifebench.models import ScriptedModel

_SEARCH = ToolDef(
    name="searchHotel",
    description="Find hotels.",
    inputs={
        "city": ParamSpec(type="string", description="City", required=True),
        "rooms": ParamSpec(type="integer", description="Rooms", required=False),
    },
    outputs={
        "is_find": ParamSpec(type="string", description="Enumeration type, [found, not found]"),
        "hotel": ParamSpec(
            type="object",
            description="The hotel",
            properties={
                "name": ParamSpec(
                    type="string", description='Name, such as "Sunny Resort, Blue Inn"'
                ),
                "stars": ParamSpec(type="integer", description="Stars"),
            },
        ),
        "tags": ParamSpec(type="list", description="Tags", items=ParamSpec(type="string")),
    },
)
_GOLD = (
    GoldCall(name="searchHotel", arguments={"city": "Orlando"}, output='{"first": 1}'),
    GoldCall(name="searchHotel", arguments={"city": "Orlando"}, output='{"second": 2}'),
)


def _call(args: object, name: str = "searchHotel", cid: str = "c") -> ToolCall:
    text = args if isinstance(args, str) else json.dumps(args)
    return ToolCall(id=cid, name=name, arguments=text)


async def test_matching_calls_replay_recorded_outputs_in_order() -> None:
    tools = SessionTools([_SEARCH], _GOLD, "2035-01-01")
    first = await tools.execute(_call({"city": "orlando, "}))
    second = await tools.execute(_call({"city": "Orlando", "rooms": 2}))
    third = await tools.execute(_call({"city": "Orlando"}))
    assert [first.content, second.content, third.content] == [
        '{"first": 1}',
        '{"second": 2}',
        '{"first": 1}',
    ]
    assert tools.counts["replayed"] == 3 and first.usage is None


async def test_other_calls_get_a_deterministic_offline_answer() -> None:
    tools = SessionTools([_SEARCH], _GOLD, "")
    a = await tools.execute(_call({"city": "Miami"}))
    b = await SessionTools([_SEARCH], _GOLD, "").execute(_call({"city": "Miami"}))
    assert not a.error and a.content == b.content
    value = json.loads(a.content)
    assert value["is_find"] == "found" and value["hotel"]["name"] == "Sunny Resort"
    assert isinstance(value["hotel"]["stars"], int) and isinstance(value["tags"], list)
    assert _SEARCH.validate_output(value) == []
    assert tools.counts["offline"] == 1


async def test_bad_calls_are_tool_errors() -> None:
    tools = SessionTools([_SEARCH], _GOLD, "")
    unknown = await tools.execute(_call({}, name="nope"))
    not_json = await tools.execute(_call("city=Miami"))
    invalid = await tools.execute(_call({"city": "Miami", "rooms": "two"}))
    missing = await tools.execute(_call({"rooms": 2}))
    assert unknown.error and unknown.error_kind == "unknown_tool"
    assert not_json.error and not_json.error_kind == "bad_arguments"
    assert invalid.error and "rooms" in invalid.content
    assert missing.error and "city" in missing.content
    assert tools.counts["errors"] == 4


async def test_a_gold_call_is_replayed_even_when_its_arguments_break_the_schema() -> None:
    gold = (GoldCall(name="searchHotel", arguments={"city": "Orlando", "rooms": "2"}, output="{}"),)
    tools = SessionTools([_SEARCH], gold, "")
    result = await tools.execute(_call({"city": "Orlando", "rooms": "2"}))
    assert not result.error and tools.counts["replayed"] == 1


async def test_llm_simulator_usage_rides_on_the_result() -> None:
    model = ScriptedModel(
        [
            AssistantMessage(
                content="not json at all", usage=Usage(prompt_tokens=30, completion_tokens=3)
            ),
            AssistantMessage(
                content='{"is_find": "found", "hotel": {"name": "Blue Inn", "stars": 4}, "tags": ["pool"]}',
                usage=Usage(prompt_tokens=40, completion_tokens=9),
            ),
        ]
    )
    tools = SessionTools([_SEARCH], _GOLD, "2035-01-01", ToolSimulator(model))
    result = await tools.execute(_call({"city": "Miami"}))
    assert json.loads(result.content)["hotel"]["name"] == "Blue Inn"
    assert result.usage is not None and result.usage.prompt_tokens == 70 and result.usage.calls == 2
    prompt = model.calls[0].messages[-1].content
    assert "searchHotel" in prompt and "2035-01-01" in prompt and '{"first": 1}' in prompt
    assert tools.counts["simulated"] == 1


async def test_llm_output_is_checked_against_the_output_schema() -> None:
    bad = '{"is_find": "found", "hotel": {"stars": "four"}}'
    model = ScriptedModel([bad, bad, bad])
    tools = SessionTools([_SEARCH], (), "", ToolSimulator(model))
    result = await tools.execute(_call({"city": "Miami"}))
    assert not result.error and tools.counts["fallbacks"] == 1  # offline answer instead
    assert "stars" in model.calls[1].messages[-1].content
    assert result.usage is not None and result.usage.calls == 3


async def test_snapshot_and_same_named_definitions() -> None:
    other = ToolDef(
        name="searchHotel",
        inputs={"area": ParamSpec(type="string", description="Area", required=True)},
        outputs={"ok": ParamSpec(type="string", description="ok")},
    )
    tools = SessionTools([_SEARCH, other], (), "")
    result = await tools.execute(_call({"area": "north"}))
    assert not result.error and json.loads(result.content) == {
        "ok": json.loads(result.content)["ok"]
    }
    env = FlowEnvironment(tools)
    assert env.snapshot() == {
        "answers": {"replayed": 0, "simulated": 0, "offline": 1, "fallbacks": 0, "errors": 0},
        "calls": 1,
    }
    assert tools.names == ["searchHotel"]


def test_offline_answer_examples_enums_and_numbers() -> None:
    tool = ToolDef(
        name="t",
        outputs={
            "price": ParamSpec(type="integer", description='Price, such as "350 yuan"'),
            "flag": ParamSpec(type="boolean", description="Flag"),
            "free": ParamSpec(type="string", description="Anything"),
        },
    )
    value = json.loads(offline_answer(tool, {"x": 1}))
    assert value["price"] == 350 and value["flag"] is True and value["free"].startswith("free-")
    assert offline_answer(tool, {"x": 1}) == offline_answer(tool, {"x": 1})
    assert offline_answer(tool, {"x": 1}) != offline_answer(tool, {"x": 2})
