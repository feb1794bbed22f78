"""The ReAct, function-calling and gold agents; history conversion; the agent prompt."""

from __future__ import annotations

from lifebench.flow.agents.convert import canonical_name, react_text, to_messages
from lifebench.flow.agents.gold import GoldAgent
from lifebench.flow.agents.native import render_for_native
from lifebench.flow.agents.prompts import agent_prompt
from lifebench.flow.agents.react import ReActAgent, render_for_react
from lifebench.flow.tasks import FlowMessage
from lifebench.messages import AssistantMessage, ToolCall, ToolResultMessage, Usage, UserMessage
from lifebench.models import ScriptedModel

_HISTORY = (
    FlowMessage(role="user", content="Book flight CA1234 please."),
    FlowMessage(
        role="assistant",
        content="Thought: last_node=SK000, intent=Book a flight, current_node=SK001.\n"
        'Action: checkAvailability\nAction Input: {"plan_code": "CA1234"}',
    ),
    FlowMessage(role="function", name="checkAvailability", content='{"is_air": "true"}'),
    FlowMessage(role="assistant", content="Response: It is available. Your ID number?"),
    FlowMessage(role="user", content="ID 123, Ann Lee."),
)


def test_history_conversion() -> None:
    msgs = to_messages(_HISTORY)
    assert [m.role for m in msgs] == ["user", "assistant", "tool", "assistant", "user"]
    call = msgs[1]
    assert isinstance(call, AssistantMessage) and call.content == ""
    assert call.tool_calls[0].name == "checkAvailability"
    assert call.reasoning and "SK001" in call.reasoning
    assert isinstance(msgs[2], ToolResultMessage) and msgs[2].tool_call_id == call.tool_calls[0].id
    reply = msgs[3]
    assert (
        isinstance(reply, AssistantMessage) and reply.content == "It is available. Your ID number?"
    )
    assert react_text(call) == _HISTORY[1].content  # the ReAct agent sees it as written


def test_react_text_is_rebuilt_when_unknown() -> None:
    msg = AssistantMessage(
        reasoning="t", tool_calls=[ToolCall(id="1", name="pay", arguments='{"a": 1}')]
    )
    assert react_text(msg) == 'Thought: t\nAction: pay\nAction Input: {"a": 1}'
    assert react_text(AssistantMessage(content="Hi")) == "Response: Hi"


def test_react_view_shows_results_as_observations() -> None:
    view = render_for_react(to_messages(_HISTORY))
    assert [m.role for m in view] == ["user", "assistant", "user", "assistant", "user"]
    assert view[2].content == 'Observation (checkAvailability): {"is_air": "true"}'


def test_native_view_drops_thoughts_and_orphan_results() -> None:
    msgs = to_messages(_HISTORY)
    orphan = ToolResultMessage(tool_call_id="zzz", name="x", content="{}")
    view = render_for_native([*msgs, orphan])
    assert all(getattr(m, "reasoning", None) is None for m in view)
    assert view[2].role == "tool"
    assert view[-1].role == "user" and view[-1].content.startswith("Observation (x)")


def test_canonical_tool_names() -> None:
    assert canonical_name("reserveflight", ["reserveFlight", "x"]) == "reserveFlight"
    assert canonical_name("pay", ["Pay", "PAY"]) == "pay"  # ambiguous: unchanged
    assert canonical_name("unknown", ["pay"]) == "unknown"


async def test_react_agent_call() -> None:
    model = ScriptedModel(
        [
            AssistantMessage(
                content='Thought: ok\nAction: reserveflight\nAction Input: {"plan_code": "CA1234"}',
                usage=Usage(prompt_tokens=100, completion_tokens=20),
            )
        ]
    )
    agent = ReActAgent(model, "SYSTEM", tool_names=["reserveFlight"])
    reply = await agent.respond(to_messages(_HISTORY))
    assert reply.content == "" and reply.reasoning == "ok"
    assert reply.tool_calls[0].name == "reserveFlight"
    assert reply.tool_calls[0].arguments == '{"plan_code": "CA1234"}'
    assert reply.raw and reply.raw["format_errors"] == 0 and not reply.raw["format_error"]
    assert reply.usage and reply.usage.prompt_tokens == 100
    sent = model.calls[0]
    assert sent.tools is None  # ReAct: no function schema
    assert sent.messages[0].content == "SYSTEM" and len(sent.messages) == 6


async def test_react_agent_reasks_unusable_replies_and_counts_them() -> None:
    model = ScriptedModel(
        [
            AssistantMessage(content="Thought: hmm", usage=Usage(prompt_tokens=10)),
            AssistantMessage(
                content="Thought: ok\nResponse: Hello!", usage=Usage(prompt_tokens=12)
            ),
        ]
    )
    reply = await ReActAgent(model, "S", format_retries=2).respond([UserMessage(content="hi")])
    assert reply.content == "Hello!" and reply.raw and reply.raw["format_errors"] == 1
    assert reply.usage and reply.usage.prompt_tokens == 22 and reply.usage.calls == 2
    reask = model.calls[1].messages
    assert reask[-2].content == "Thought: hmm" and "could not be used" in reask[-1].content


async def test_react_agent_gives_up_with_a_counted_format_error() -> None:
    model = ScriptedModel(["", "Thought: still thinking"], repeat_last=True)
    reply = await ReActAgent(model, "S", format_retries=1).respond([UserMessage(content="hi")])
    assert reply.content == "" and not reply.tool_calls
    assert reply.raw and reply.raw["format_error"] and reply.raw["format_errors"] == 2
    assert len(model.calls) == 2


async def test_react_agent_passes_malformed_arguments_on() -> None:
    model = ScriptedModel(["Thought: t\nAction: pay\nAction Input: bill=B1"])
    reply = await ReActAgent(model, "S", format_retries=0).respond([UserMessage(content="hi")])
    assert reply.tool_calls[0].arguments == "bill=B1"  # the tool layer turns it into an error
    assert "Action Input is not a JSON object" in reply.raw["notes"]  # type: ignore[index]


async def test_gold_agent_replays_in_order() -> None:
    agent = GoldAgent([m.content for m in _HISTORY if m.role == "assistant"] + ["Response: Done."])
    msgs = to_messages(_HISTORY)
    first = await agent.respond(msgs[:1])
    assert first.tool_calls[0].name == "checkAvailability"
    nxt = await agent.respond(msgs)
    assert nxt.content == "Done."
    spent = await agent.respond([*msgs, nxt])
    assert "Goodbye" in spent.content


def test_agent_prompt_carries_the_rules() -> None:
    chart = agent_prompt(
        background="Role: flight desk.",
        knowledge="KNOWLEDGE BLOCK",
        now="2035-01-01 10:00:00 Monday",
        knowledge_format="flowchart",
    )
    for must in (
        "Role: flight desk.",
        "KNOWLEDGE BLOCK",
        "2035-01-01 10:00:00 Monday",
        "one API per reply",
        "Action Input:",
        "last_node=",
        "current_node=",
        '" OR "',
        '" AND "',
        "apologise",
        "Never make values up",
        "flowchart node ids",
        "Subgoal, Subtask, Step or Process",
    ):
        assert must in chart, must
    text = agent_prompt(background="", knowledge="K", now="", knowledge_format="text")
    assert "node ids" not in text and "step" in text
    native = agent_prompt(
        background="", knowledge="K", now="", knowledge_format="none", mode="function-calling"
    )
    assert "Action Input:" not in native and "function-calling" in native
    zh = agent_prompt(background="", knowledge="K", now="", knowledge_format="code", language="zh")
    assert "要求" in zh and "Action Input" in zh
