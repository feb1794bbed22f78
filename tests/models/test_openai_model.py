"""OpenAICompatibleModel against the loopback mock server."""

from __future__ import annotations

import asyncio
import logging
import traceback
from typing import Any

import pytest

from lifebench.errors import ModelError
from lifebench.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from lifebench.models import (
    ChatModel,
    EndpointLimits,
    GenerateConfig,
    Price,
    RetryPolicy,
)
from lifebench.testing import MockOpenAIServer, completion_response, tool_call
from timeout_injection import GENEROUS_TIMEOUT_S, TimeoutPlan, inject_timeouts

from .conftest import MakeModel, RecordingSleep, hold_until_in_flight

HELLO: list[Message] = [SystemMessage(content="Be brief."), UserMessage(content="hello there")]


async def test_text_reply(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        model = make_model(server, price=Price(input_per_mtok=2.0, output_per_mtok=8.0))
        answer = await model.generate(HELLO)

    assert isinstance(model, ChatModel)
    assert answer.content == "echo: hello there"
    assert answer.tool_calls == []
    assert answer.reasoning is None
    assert answer.usage is not None
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (4, 3)
    assert answer.usage.cost == pytest.approx((4 * 2.0 + 3 * 8.0) / 1e6)
    assert answer.usage.retries == 0 and not answer.usage.cached
    assert answer.raw == {"finish_reason": "stop", "model": "mock-model"}
    assert model.stats.calls == 1 and model.stats.api_calls == 1
    assert model.stats.cost == pytest.approx(answer.usage.cost)
    sent = server.requests[0].body["messages"]
    assert sent == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hello there"},
    ]


async def test_tool_call_reply_parsed(make_model: MakeModel) -> None:
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]

    def responder(body: dict[str, Any]) -> dict[str, Any]:
        return completion_response(
            None,
            tool_calls=[
                tool_call("get_weather", {"city": "Paris"}, "call_1"),
                tool_call("get_time", "{bad json", "call_2"),
            ],
        )

    async with MockOpenAIServer(responder=responder) as server:
        model = make_model(server)
        answer = await model.generate(HELLO, tools=tools)

    assert answer.content == ""
    assert answer.tool_calls == [
        ToolCall(id="call_1", name="get_weather", arguments='{"city": "Paris"}'),
        ToolCall(id="call_2", name="get_time", arguments="{bad json"),
    ]
    assert answer.raw is not None and answer.raw["finish_reason"] == "tool_calls"
    assert server.requests[0].body["tools"] == tools


async def test_no_tools_key_when_no_tools(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        await make_model(server).generate(HELLO, tools=[])
    assert "tools" not in server.requests[0].body


async def test_reasoning_read_and_passed_back(make_model: MakeModel) -> None:
    def responder(body: dict[str, Any]) -> dict[str, Any]:
        return completion_response("", reasoning="let me think", tool_calls=[tool_call("f", {})])

    async with MockOpenAIServer(responder=responder) as server:
        model = make_model(server)
        first = await model.generate(HELLO)
        history = [
            *HELLO,
            first,
            ToolResultMessage(tool_call_id="call_f", name="f", content="done"),
        ]
        await model.generate(history)

    assert first.reasoning == "let me think"
    sent = server.requests[1].body["messages"]
    assert sent[2] == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "call_f", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ],
        "reasoning_content": "let me think",
    }
    assert sent[3] == {"role": "tool", "tool_call_id": "call_f", "content": "done"}


async def test_plain_assistant_message_sent_without_reasoning(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        await make_model(server).generate([*HELLO, AssistantMessage(content="hi"), *HELLO[1:]])
    assert server.requests[0].body["messages"][2] == {"role": "assistant", "content": "hi"}


async def test_config_forwarded_and_unset_options_omitted(make_model: MakeModel) -> None:
    defaults = GenerateConfig(temperature=0.0, max_tokens=64)
    async with MockOpenAIServer() as server:
        model = make_model(server, defaults=defaults)
        await model.generate(
            HELLO, config=GenerateConfig(seed=42, temperature=0.7, extra_body={"top_k": 5})
        )
        await model.generate(HELLO)

    first, second = (r.body for r in server.requests)
    assert first["seed"] == 42
    assert first["temperature"] == 0.7
    assert first["max_tokens"] == 64
    assert first["top_k"] == 5
    assert first["model"] == "mock-model"
    for absent in ("top_p", "reasoning_effort"):
        assert absent not in first
    assert second["temperature"] == 0.0 and "seed" not in second and "top_k" not in second


async def test_reasoning_effort_and_top_p_forwarded(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        await make_model(server).generate(
            HELLO, config=GenerateConfig(reasoning_effort="high", top_p=0.9)
        )
    body = server.requests[0].body
    assert body["reasoning_effort"] == "high" and body["top_p"] == 0.9


async def test_bearer_key_sent(make_model: MakeModel, api_key: str) -> None:
    async with MockOpenAIServer() as server:
        await make_model(server).generate(HELLO)
    assert server.requests[0].headers["Authorization"] == f"Bearer {api_key}"


async def test_429_retry_after_honoured(make_model: MakeModel, sleep: RecordingSleep) -> None:
    async with MockOpenAIServer(faults=["429"], retry_after_s=2.5) as server:
        model = make_model(server, retry=RetryPolicy(max_delay_s=60.0))
        answer = await model.generate(HELLO)

    assert sleep.delays == [2.5]
    assert answer.usage is not None and answer.usage.retries == 1
    assert model.stats.retries == 1 and model.stats.api_calls == 2 and model.stats.failures == 0
    assert server.count == 2


async def test_retry_after_capped_by_max_delay(
    make_model: MakeModel, sleep: RecordingSleep
) -> None:
    async with MockOpenAIServer(faults=["429"], retry_after_s=3600) as server:
        await make_model(server, retry=RetryPolicy(max_delay_s=5.0)).generate(HELLO)
    assert sleep.delays == [5.0]


async def test_429_without_retry_after_uses_backoff(
    make_model: MakeModel, sleep: RecordingSleep
) -> None:
    policy = RetryPolicy(base_delay_s=0.5, max_delay_s=10.0)
    async with MockOpenAIServer(faults=["429", "429"], retry_after_s=None) as server:
        await make_model(server, retry=policy).generate(HELLO)
    assert len(sleep.delays) == 2
    assert 0.0 <= sleep.delays[0] <= 0.5 and 0.0 <= sleep.delays[1] <= 1.0


@pytest.mark.parametrize("fault", ["500", "503", "408", "garbage", "disconnect"])
async def test_transient_faults_retried_and_counted(
    make_model: MakeModel, sleep: RecordingSleep, fault: str
) -> None:
    async with MockOpenAIServer(faults=[fault, fault]) as server:
        model = make_model(server)
        answer = await model.generate(HELLO)

    assert answer.content == "echo: hello there"
    assert answer.usage is not None and answer.usage.retries == 2
    assert model.stats.retries == 2 and model.stats.api_calls == 3 and model.stats.failures == 0
    assert len(sleep.delays) == 2
    assert server.count == 3 and server.faults_injected == [fault, fault]


async def test_timeouts_are_retried_and_counted(
    make_model: MakeModel,
    sleep: RecordingSleep,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    plan = inject_timeouts(monkeypatch, TimeoutPlan([True, True]))
    async with MockOpenAIServer() as server:
        model = make_model(server, timeout_s=GENEROUS_TIMEOUT_S)
        answer = await model.generate(HELLO)

    assert answer.content == "echo: hello there"
    assert answer.usage is not None and answer.usage.retries == 2
    assert model.stats.retries == 2 and model.stats.api_calls == 3 and model.stats.failures == 0
    assert (plan.injected, len(sleep.delays)) == (2, 2)
    assert server.count == 1  # the timed-out attempts never reached the server
    assert caplog.text.count("request timed out after 60s") == 2


async def test_timeouts_exhaust_the_retries_like_any_transient_fault(
    make_model: MakeModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    inject_timeouts(monkeypatch, TimeoutPlan([True] * 3))
    async with MockOpenAIServer() as server:
        model = make_model(
            server,
            timeout_s=GENEROUS_TIMEOUT_S,
            retry=RetryPolicy(max_attempts=3, base_delay_s=0.01),
        )
        with pytest.raises(ModelError, match=r"gave up after 3 attempts: request timed out"):
            await model.generate(HELLO)
    assert server.count == 0 and model.stats.failures == 1


async def test_a_hanging_server_times_out_for_real(make_model: MakeModel) -> None:
    # The mock's "timeout" fault hangs far longer than the client waits, so that attempt times
    # out for sure; the retry is answered at once. Only lower bounds are asserted: under load a
    # normal answer could time out too.
    async with MockOpenAIServer(faults=["timeout"], hang_s=30.0) as server:
        model = make_model(server, timeout_s=0.5)
        answer = await model.generate(HELLO)
    assert answer.content == "echo: hello there"
    assert answer.usage is not None and answer.usage.retries >= 1
    assert server.faults_injected == ["timeout"] and server.count >= 2


async def test_exhausted_retries_raise_model_error(
    make_model: MakeModel, sleep: RecordingSleep
) -> None:
    async with MockOpenAIServer(faults=["500"] * 5) as server:
        model = make_model(server, retry=RetryPolicy(max_attempts=3, base_delay_s=0.01))
        with pytest.raises(ModelError, match=r"gave up after 3 attempts: HTTP 500"):
            await model.generate(HELLO)

    assert server.count == 3
    assert len(sleep.delays) == 2
    assert model.stats.retries == 2 and model.stats.failures == 1 and model.stats.calls == 0


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
async def test_client_errors_not_retried(
    make_model: MakeModel, sleep: RecordingSleep, status: int
) -> None:
    async with MockOpenAIServer(faults=[str(status)]) as server:
        model = make_model(server)
        with pytest.raises(ModelError, match=f"HTTP {status}"):
            await model.generate(HELLO)

    assert server.count == 1
    assert sleep.delays == []
    assert model.stats.retries == 0 and model.stats.failures == 1


async def test_api_key_never_leaks(
    make_model: MakeModel, api_key: str, caplog: pytest.LogCaptureFixture
) -> None:
    def leaky(body: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError(f"upstream rejected key {api_key}")

    caplog.set_level(logging.DEBUG)
    async with MockOpenAIServer(faults=["401"]) as server:
        model = make_model(server, name=f"agent-{api_key}")
        with pytest.raises(ModelError) as info:
            await model.generate(HELLO)
        server.responder = leaky  # a retried 500 whose message contains the key
        other = make_model(server, name=f"user-{api_key}")  # (the first is refused for good)
        with pytest.raises(ModelError) as info2:
            await other.generate(HELLO)

    assert "Incorrect API key provided" in str(info.value)
    for error in (info.value, info2.value):
        assert api_key not in str(error)
        assert api_key not in "".join(traceback.format_exception(error))
        assert error.__cause__ is None
    assert "upstream rejected key ***" in str(info2.value)
    assert api_key not in repr(model) and api_key not in model.name
    assert api_key not in repr(other) and api_key not in other.name
    assert api_key not in caplog.text
    assert "retrying" in caplog.text


async def test_concurrency_limit_respected(make_model: MakeModel) -> None:
    limits = EndpointLimits()
    async with MockOpenAIServer() as server:
        limiter = limits.limiter(server.base_url, 3)
        # two models on the same endpoint share the limit (and the endpoint's health)
        health = limits.health(server.base_url)
        first = make_model(server, limiter=limiter, health=health)
        second = make_model(server, limiter=limits.limiter(server.base_url + "/", 3), health=health)
        await first.generate(HELLO)  # first contact goes alone; then the limit is what counts
        server.reset()
        hold_until_in_flight(server, 3)
        answers = await asyncio.gather(
            *(m.generate(HELLO) for m in [first, second] * 12),
        )

    assert len(answers) == 24 and server.count == 24
    assert server.max_in_flight == 3


async def test_without_limiter_requests_overlap(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        model = make_model(server)
        await model.generate(HELLO)  # first contact goes alone
        server.reset()
        hold_until_in_flight(server, 4)
        await asyncio.gather(*(model.generate(HELLO) for _ in range(8)))
    assert server.max_in_flight > 3


async def test_random_failures_all_complete(
    make_model: MakeModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ~30% server faults and ~15% client timeouts, both seeded; no real deadline is involved,
    # so every retry is one of the injected faults, whatever the CPU load.
    plan = inject_timeouts(monkeypatch, TimeoutPlan(rate=0.15, seed=99))
    kinds = ("429", "500", "garbage", "disconnect")
    async with MockOpenAIServer(failure_rate=0.3, fault_kinds=kinds, seed=1234) as server:
        model = make_model(
            server,
            timeout_s=GENEROUS_TIMEOUT_S,
            retry=RetryPolicy(max_attempts=10, base_delay_s=0.001, max_delay_s=0.01),
            limiter=EndpointLimits().limiter(server.base_url, 16),
        )
        answers = await asyncio.gather(
            *(model.generate([UserMessage(content=f"q{i}")]) for i in range(50))
        )

    assert [a.content for a in answers] == [f"echo: q{i}" for i in range(50)]
    injected = server.faults_injected
    assert len(injected) >= 10 and plan.injected >= 5
    assert set(injected) == set(kinds)
    faults = len(injected) + plan.injected
    assert model.stats.retries == faults
    assert sum(a.usage.retries for a in answers if a.usage) == faults
    assert model.stats.api_calls == plan.decisions == server.count + plan.injected
    assert server.count == 50 + len(injected)
    assert model.stats.calls == 50 and model.stats.failures == 0


async def test_aclose_and_context_manager(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server, make_model(server) as model:
        answer = await model.generate(HELLO)
    assert answer.content.startswith("echo:")
    assert model.closed
