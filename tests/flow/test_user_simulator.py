"""The LLM user simulator: what it sees each turn, and its system prompt."""

from __future__ import annotations

from lifebench.flow.simulators.prompts import user_prompt, user_turn_prompt
from lifebench.flow.simulators.user import FlowUser
from lifebench.messages import AssistantMessage, ToolCall, ToolResultMessage, Usage, UserMessage
from lifebench.models import GenerateConfig, ScriptedModel


async def test_user_sees_the_conversation_without_tools_or_thoughts() -> None:
    model = ScriptedModel(
        [AssistantMessage(content=" User: B-77 please ", usage=Usage(prompt_tokens=4))]
    )
    user = FlowUser(model, "SYSTEM", GenerateConfig(temperature=0.0, seed=3))
    trajectory = [
        UserMessage(content="Hi"),
        AssistantMessage(content="", reasoning="THOUGHT", tool_calls=[ToolCall(id="1", name="x")]),
        ToolResultMessage(tool_call_id="1", name="x", content="SECRET RESULT"),
        AssistantMessage(content="Which bill?", reasoning="THOUGHT"),
    ]
    reply = await user.respond(trajectory)
    assert (
        reply.content == "B-77 please"
        and reply.usage is not None
        and reply.usage.prompt_tokens == 4
    )
    sent = model.calls[0]
    assert [m.role for m in sent.messages] == ["system", "user"] and user.system_prompt == "SYSTEM"
    assert sent.messages[1].content == (
        "Conversation so far:\nUser: Hi\nAssistant: Which bill?\n\nWrite the user's next message."
    )
    assert sent.config is not None and sent.config.seed == 3


async def test_first_turn_and_chinese() -> None:
    model = ScriptedModel(["用户：你好"])
    reply = await FlowUser(model, "S", language="zh").respond([])
    assert reply.content == "你好"
    assert "尚无对话" in model.calls[0].messages[1].content
    assert user_turn_prompt([(True, "你好"), (False, "请讲")], "zh") == (
        "目前的对话：\n用户: 你好\n助手: 请讲\n\n请写出用户的下一条消息。"
    )


def test_user_system_prompt() -> None:
    text = user_prompt("Pay bill B-77.", "A busy nurse.", "2035-01-01 09:00", "en")
    for must in (
        "Pay bill B-77.",
        "About you: A busy nurse.",
        "Current time: 2035-01-01 09:00",
        "###STOP###",
        "twice in a row",
        "one piece of information",
        "never placeholders",
    ):
        assert must in text, must
    assert "About you" not in user_prompt("Task.", " ", "", "en")
    assert "Current time: -" in user_prompt("Task.", "", "", "en")
    zh = user_prompt("缴费", "护士", "2035", "zh")
    assert "缴费" in zh and "你的人设：护士" in zh and "###STOP###" in zh
