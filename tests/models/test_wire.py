"""Request bodies spliced from memoised pieces, and cache keys hashed piece by piece."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from lifebench.messages import AssistantMessage, Message, SystemMessage, ToolCall, UserMessage
from lifebench.models import GenerateConfig, ModelCache, _wire, cache_key
from lifebench.models._convert import message_to_openai, request_options
from lifebench.testing import MockOpenAIServer

from .conftest import MakeModel

TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]


def _old_body(
    model: str, messages: list[Message], tools: Any, config: GenerateConfig
) -> dict[str, Any]:
    """The body as the SDK path built it: one dict."""
    params: dict[str, Any] = {
        "model": model,
        "messages": [message_to_openai(m) for m in messages],
    }
    if tools:
        params["tools"] = tools
    params.update(request_options(config))
    params.update(config.extra_body)
    return params


def test_spliced_body_is_the_same_json_as_one_dict() -> None:
    wire = _wire.WireCache()
    messages: list[Message] = [
        SystemMessage(content="Be brief. ünïcode ✓"),
        UserMessage(content='say "hi"\n'),
        AssistantMessage(
            content="", tool_calls=[ToolCall(id="c1", name="f", arguments="{}")], reasoning="r"
        ),
    ]
    config = GenerateConfig(temperature=0.0, seed=7, extra_body={"top_k": 5})
    options, _ = wire.config(config)
    tools_json, _ = wire.tools(TOOLS)
    body = _wire.build_body(
        _wire.dumps("m"), [wire.message(m)[0] for m in messages], tools_json, options
    )
    assert json.loads(body) == _old_body("m", messages, TOOLS, config)
    bare = _wire.build_body(_wire.dumps("m"), [], None, wire.config(GenerateConfig())[0])
    assert json.loads(bare) == {"model": "m", "messages": []}


def test_only_new_messages_are_serialised(monkeypatch: pytest.MonkeyPatch) -> None:
    encoded: list[str] = []
    real = _wire.message_to_openai

    def counting(message: Message) -> dict[str, Any]:
        encoded.append(message.role)
        return real(message)

    monkeypatch.setattr(_wire, "message_to_openai", counting)
    wire = _wire.WireCache()
    conversation: list[Message] = [SystemMessage(content="s"), UserMessage(content="u")]
    for _ in conversation:
        wire.message(_)
    assert len(encoded) == 2
    conversation.append(AssistantMessage(content="a"))
    for message in conversation:  # the next call: same objects plus one
        wire.message(message)
    assert len(encoded) == 3
    wire.message(UserMessage(content="u"))  # an equal but new object is encoded
    assert len(encoded) == 4


def test_tool_lists_and_configs_are_serialised_once_per_object() -> None:
    wire = _wire.WireCache()
    first = wire.tools(TOOLS)[0]
    assert wire.tools(TOOLS)[0] is first
    grown = [*TOOLS]
    before = wire.tools(grown)[0]
    grown.append({"type": "function", "function": {"name": "g"}})
    assert json.loads(wire.tools(grown)[0]) == grown and wire.tools(grown)[0] is not before
    again = wire.tools(list(TOOLS))[0]
    assert again == first and again is not first
    config = GenerateConfig(seed=1)
    assert wire.config(config)[0] is wire.config(config)[0]


def test_memo_is_bounded_and_never_confuses_objects() -> None:
    wire = _wire.WireCache(messages=8)
    messages = [UserMessage(content=str(i)) for i in range(50)]
    for m in messages:
        wire.message(m)
    assert len(wire._messages) == 8
    for m in messages:  # evicted or not, each object gets its own bytes
        assert json.loads(wire.message(m)[0]) == {"role": "user", "content": m.content}


def test_piecewise_key_is_sensitive_to_every_part_and_order() -> None:
    def key(**overrides: Any) -> str:
        parts: dict[str, Any] = {
            "base_url": "http://x/v1",
            "model": "m",
            "messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}],
            "tools": None,
            "config": GenerateConfig(seed=1),
        }
        parts.update(overrides)
        return cache_key(**parts)

    base = key()
    swapped = key(messages=[{"role": "user", "content": "b"}, {"role": "user", "content": "a"}])
    merged = key(messages=[{"role": "user", "content": "ab"}])
    assert len({base, swapped, merged, key(tools=[]), key(tools=TOOLS)}) == 4  # [] is no tools
    # credentials never enter the key: other credentials, the same key
    with_keys = key(base_url="http://user:SECRET@x/v1?api-key=SECRET2")
    assert with_keys == key(base_url="http://other:ANOTHER@x/v1?api-key=ANOTHER2")
    assert key(base_url="http://x/v1?api-key=SECRET2") == key(base_url="http://x/v1?api-key=Z")


async def test_the_model_stores_under_the_documented_key(
    make_model: MakeModel, tmp_path: Path
) -> None:
    messages: list[Message] = [SystemMessage(content="sys"), UserMessage(content="hello")]
    config = GenerateConfig(seed=3, temperature=0.5)
    with ModelCache(tmp_path / "c.sqlite") as cache:
        async with MockOpenAIServer() as server:
            model = make_model(server, cache=cache)
            await model.generate(messages, tools=TOOLS, config=config)
            expected = cache_key(
                base_url=server.base_url,
                model="mock-model",
                messages=[message_to_openai(m) for m in messages],
                tools=TOOLS,
                config=model.defaults.merged(config),
            )
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:
        keys = [k for (k,) in conn.execute("SELECT key FROM model_calls")]
    assert keys == [expected]


async def test_extra_body_may_override_any_field(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        model = make_model(server)
        await model.generate(
            [UserMessage(content="x")], config=GenerateConfig(extra_body={"model": "other"})
        )
    assert server.requests[0].body["model"] == "other"
