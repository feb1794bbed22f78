"""ScriptedModel: replay, recording, exhaustion."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lifebench.errors import ModelError
from lifebench.messages import AssistantMessage, Message, ToolCall, Usage, UserMessage
from lifebench.models import ChatModel, GenerateConfig, ScriptedModel

HELLO = [UserMessage(content="hello")]


async def test_replays_in_order_and_records_inputs() -> None:
    def by_function(messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None) -> str:
        return f"saw {len(messages)} messages and {len(tools or [])} tools"

    call = ToolCall(id="c1", name="search", arguments='{"q": "x"}')
    model = ScriptedModel(["first", AssistantMessage(tool_calls=[call]), by_function])
    tools = [{"type": "function", "function": {"name": "search"}}]
    config = GenerateConfig(seed=9)

    first = await model.generate(HELLO)
    second = await model.generate(HELLO, tools=tools, config=config)
    third = await model.generate([*HELLO, first, *HELLO], tools=tools)

    assert isinstance(model, ChatModel)
    assert first.content == "first" and first.usage == Usage()
    assert second.tool_calls == [call] and second.usage == Usage()
    assert third.content == "saw 3 messages and 1 tools"
    assert [len(c.messages) for c in model.calls] == [1, 1, 3]
    assert model.calls[1].tools == tools and model.calls[1].config == config
    assert model.calls[0].tools is None and model.calls[0].config is None
    assert model.remaining == 0 and model.stats.calls == 3


async def test_async_function_and_explicit_usage_kept() -> None:
    async def later(messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None) -> str:
        return "async"

    usage = Usage(prompt_tokens=5, completion_tokens=2, cost=0.1)
    model = ScriptedModel([later, AssistantMessage(content="x", usage=usage)])
    assert (await model.generate(HELLO)).content == "async"
    assert (await model.generate(HELLO)).usage == usage


async def test_exhaustion_raises_clear_model_error() -> None:
    model = ScriptedModel(["only"], name="agent-script")
    await model.generate(HELLO)
    with pytest.raises(ModelError, match=r"'agent-script': script exhausted: call #2 but only 1"):
        await model.generate(HELLO)
    assert model.stats.failures == 1 and len(model.calls) == 2


async def test_repeat_last() -> None:
    model = ScriptedModel(["a", "b"], repeat_last=True)
    outputs = [(await model.generate(HELLO)).content for _ in range(4)]
    assert outputs == ["a", "b", "b", "b"]
    with pytest.raises(ValueError, match="non-empty"):
        ScriptedModel([], repeat_last=True)


async def test_bad_function_output_is_a_type_error() -> None:
    def bad(messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None) -> Any:
        return 42

    model = ScriptedModel([bad])
    with pytest.raises(TypeError, match="returned int"):
        await model.generate(HELLO)
