"""The rules of ``lifebench.tools.ToolSet`` pinned by their effect: duplicate names refused,
the tool graph's size and density (VitaBench §3.1), counts by kind, the unknown-tool error the
agent reads, and the tool result message built from an outcome."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lifebench._util.text import Text
from lifebench.messages import ToolCall, Usage
from lifebench.tools import ToolSet, tool, tools_of
from lifebench.tools._tool import ToolOutcome


class _Shop:
    @tool(kind="read", description="Find a store.")
    def find_store(self, name: str) -> dict[str, Any]:
        return {"store": name}

    @tool(kind="read", description="List a store's dishes.", depends_on=["find_store"])
    def list_dishes(self, store: str) -> list[str]:
        return [f"{store}-dish"]

    @tool(
        kind="write",
        description="Order a dish.",
        depends_on=["find_store", "list_dishes", "not_in_this_set"],
    )
    def order(self, dish: str) -> str:
        return f"ordered {dish}"

    @tool(kind="write", description="Pay an order.", depends_on=["order"])
    def pay(self, order_id: str) -> str:
        return f"paid {order_id}"


def _tools() -> ToolSet:
    return ToolSet(tools_of(_Shop()))


def test_duplicate_names_are_refused_naming_the_tool() -> None:
    tools = tools_of(_Shop())
    with pytest.raises(ValueError, match=r"^duplicate tool name: order$"):
        ToolSet([*tools, tools[2]])


def test_the_set_in_definition_order() -> None:
    tools = _tools()
    assert tools.names == ["find_store", "list_dishes", "order", "pay"]
    assert [t.name for t in tools] == tools.names
    assert len(tools) == 4
    assert "pay" in tools and "refund" not in tools
    assert tools["order"].name == "order"
    assert [s["function"]["name"] for s in tools.openai_schemas()] == tools.names


def test_counts_by_kind_list_every_kind_even_when_absent() -> None:
    assert _tools().count_by_kind() == {"read": 2, "write": 2, "general": 0}
    assert ToolSet([]).count_by_kind() == {"read": 0, "write": 0, "general": 0}


def test_edges_only_among_present_tools_sorted() -> None:
    assert _tools().edges() == [
        ("find_store", "list_dishes"),
        ("find_store", "order"),
        ("list_dishes", "order"),
        ("order", "pay"),
    ]


def test_graph_stats_density_is_edges_over_ordered_pairs() -> None:
    stats = _tools().graph_stats()
    assert (stats.nodes, stats.edges) == (4, 4)
    assert stats.density == pytest.approx(4 / 12)
    tools = tools_of(_Shop())
    two = ToolSet([tools[0], tools[1]]).graph_stats()
    assert (two.nodes, two.edges, two.density) == (2, 1, 0.5)
    one = ToolSet([tools[0]]).graph_stats()
    assert (one.nodes, one.edges, one.density) == (1, 0, 0.0)
    none = ToolSet([]).graph_stats()
    assert (none.nodes, none.edges, none.density) == (0, 0, 0.0)


async def test_an_unknown_tool_is_an_error_listing_the_available_ones() -> None:
    outcome = await _tools().run("refund", "{}")
    assert outcome.error is True
    assert outcome.error_kind == "unknown_tool"
    assert outcome.content == (
        "Tool 'refund' does not exist. Available tools: find_store, list_dishes, order, pay."
    )


async def test_execute_wraps_the_outcome_as_the_message_the_agent_sees() -> None:
    call = ToolCall(id="c7", name="order", arguments=json.dumps({"dish": "noodles"}))
    message = await _tools().execute(call, turn=5)
    assert message.tool_call_id == "c7"
    assert message.name == "order"
    assert message.content == "ordered noodles"
    assert message.error is False and message.error_kind is None
    assert message.turn == 5
    unknown = await _tools().execute(ToolCall(id="c8", name="refund"))
    assert unknown.error is True and unknown.error_kind == "unknown_tool"
    assert unknown.turn == 0
    assert unknown.name == "refund" and unknown.tool_call_id == "c8"


class _PricedTool:
    """A tool whose run had a model behind it (its usage travels into the message)."""

    name = "ask"

    async def run(self, arguments: Any) -> ToolOutcome:
        return ToolOutcome(
            content="answer", usage=Usage(prompt_tokens=3, completion_tokens=2, cost=0.5)
        )


async def test_execute_keeps_the_tool_usage() -> None:
    tools = ToolSet([_PricedTool()])  # type: ignore[list-item]
    message = await tools.execute(ToolCall(id="c1", name="ask"))
    assert message.usage is not None
    assert (message.usage.prompt_tokens, message.usage.completion_tokens) == (3, 2)
    assert message.usage.cost == 0.5


class _Bilingual:
    @tool(kind="read", description=Text("Find a store.", "查找门店。"))
    def find_store(self, name: str) -> str:
        return name


def test_schemas_in_the_language_asked_english_by_default() -> None:
    tools = ToolSet(tools_of(_Bilingual()))
    assert tools.openai_schemas("zh")[0]["function"]["description"] == "查找门店。"
    assert tools.openai_schemas()[0]["function"]["description"] == "Find a store."
