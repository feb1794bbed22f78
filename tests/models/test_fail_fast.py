"""OpenAICompatibleModel against a mock endpoint that fails in the usual ways: what is raised,
how many requests it took, and what is counted."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
import pytest

from lifebench.errors import ContentRejectedError, FatalProviderError, ModelError
from lifebench.messages import UserMessage
from lifebench.models import EndpointLimits, ModelFactory, RetryPolicy, _http
from lifebench.models._health import EndpointHealth, HealthPolicy
from lifebench.testing import MockOpenAIServer, completion_response

from .conftest import SECRET_KEY, MakeModel, RecordingSleep, hold_until_in_flight

HELLO = [UserMessage(content="hello there")]


async def _all(model: Any, n: int) -> list[Any]:
    return await asyncio.gather(*(model.generate(HELLO) for _ in range(n)), return_exceptions=True)


async def test_wrong_key_is_fatal_with_the_providers_message_after_one_request(
    make_model: MakeModel, caplog: pytest.LogCaptureFixture
) -> None:
    async with MockOpenAIServer(api_key="sk-the-right-key-000000") as server:
        model = make_model(server)
        results = await _all(model, 20)
    assert server.count == 1  # the first contact goes alone; the 19 others never send
    assert all(isinstance(r, FatalProviderError) for r in results)
    first = next(r for r in results if isinstance(r, FatalProviderError) and r.status == 401)
    assert "is refused by the provider: HTTP 401: Incorrect API key provided: sk-...cdef" in str(
        first
    )
    assert all(SECRET_KEY not in str(r) for r in results)
    assert SECRET_KEY not in caplog.text
    assert model.stats.retries == 0 and model.stats.api_calls == 1


@pytest.mark.parametrize(
    ("fault", "error", "text"),
    [
        ("404", FatalProviderError, "HTTP 404: The model `mock-model` does not exist"),
        ("403", FatalProviderError, "HTTP 403: Project does not have access"),
        ("quota", FatalProviderError, "HTTP 429: You exceeded your current quota"),
        ("bad_param", FatalProviderError, "HTTP 400: Unrecognized request argument supplied: seed"),
        ("413", ContentRejectedError, "HTTP 413: 413 Request Entity Too Large"),
        ("content_filter", ContentRejectedError, "HTTP 400: The response was filtered"),
        ("context_length", ContentRejectedError, "HTTP 400: This model's maximum context length"),
    ],
)
async def test_errors_retrying_cannot_fix_are_not_retried(
    make_model: MakeModel, sleep: RecordingSleep, fault: str, error: type[Exception], text: str
) -> None:
    async with MockOpenAIServer(faults=[fault]) as server:
        model = make_model(server)
        with pytest.raises(error) as info:
            await model.generate(HELLO)
    assert text in str(info.value)
    assert type(info.value) is error
    assert server.count == 1 and sleep.delays == []
    assert model.stats.failures == 1 and model.stats.retries == 0


async def test_an_unexplained_400_is_fatal_only_before_the_first_answer(
    make_model: MakeModel,
) -> None:
    async with MockOpenAIServer(faults=["400", None, "400"]) as server:
        refused = make_model(server)
        with pytest.raises(FatalProviderError, match="HTTP 400: injected HTTP 400"):
            await refused.generate(HELLO)
        answered = make_model(server)
        await answered.generate(HELLO)
        with pytest.raises(ContentRejectedError, match="HTTP 400: injected HTTP 400"):
            await answered.generate(HELLO)
        count = server.count
        with pytest.raises(FatalProviderError, match="HTTP 400"):  # refused for good
            await refused.generate(HELLO)
    assert count == server.count == 3


async def test_a_content_filtered_answer_is_rejected(make_model: MakeModel) -> None:
    def filtered(body: dict[str, Any]) -> dict[str, Any]:
        return completion_response(None, finish_reason="content_filter")

    def partly(body: dict[str, Any]) -> dict[str, Any]:
        return completion_response("Here is half an", finish_reason="content_filter")

    async with MockOpenAIServer(responder=filtered) as server:
        model = make_model(server)
        with pytest.raises(ContentRejectedError, match="stopped by a content filter"):
            await model.generate(HELLO)
        server.responder = partly  # something was said: that is an answer
        answer = await model.generate(HELLO)
    assert answer.content == "Here is half an"
    assert answer.raw is not None and answer.raw["finish_reason"] == "content_filter"


def _count_attempts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []

    async def count(
        request: aiohttp.ClientRequest,
        handler: Callable[[aiohttp.ClientRequest], Awaitable[aiohttp.ClientResponse]],
    ) -> aiohttp.ClientResponse:
        seen.append(str(request.url))
        return await handler(request)

    real = _http.open_transport

    def transport(
        base_url: str, api_key: str, timeout_s: float, *, middlewares: Sequence[Any] = ()
    ) -> _http.Transport:
        return real(base_url, api_key, timeout_s, middlewares=(*middlewares, count))

    monkeypatch.setattr(_http, "open_transport", transport)
    return seen


async def test_a_dead_endpoint_is_unreachable_after_three_attempts_in_all(
    make_model: MakeModel, monkeypatch: pytest.MonkeyPatch, sleep: RecordingSleep
) -> None:
    attempts = _count_attempts(monkeypatch)
    async with MockOpenAIServer(refuse=True) as server:
        model = make_model(server)
        results = await _all(model, 20)
    assert len(attempts) == 3 and server.count == 0
    assert all(isinstance(r, FatalProviderError) for r in results)
    assert "cannot reach http://127.0.0.1:" in str(results[0])
    assert "connection refused (3 attempts, no answer yet)" in str(results[0])
    assert len(sleep.delays) == 2  # the retries of the one call that tried
    assert model.stats.retries == 2 and model.stats.failures == 20


async def test_an_endpoint_that_goes_down_shares_one_budget(
    make_model: MakeModel, sleep: RecordingSleep
) -> None:
    server = MockOpenAIServer(faults=[None], failure_rate=1.0, fault_kinds=("503",))
    async with server:
        model = make_model(server)
        await model.generate(HELLO)  # it answered once
        hold_until_in_flight(server, 20)
        results = await _all(model, 20)
    assert all(isinstance(r, FatalProviderError) for r in results)
    assert "is down: " in str(results[0]) and "last error: HTTP 503" in str(results[0])
    # 20 requests in flight failed together (the calls that failed before the breaker opened
    # may each have retried once more: at most 4), then 6 probes one at a time: not 20 × 6
    assert 1 + 20 + 6 <= server.count <= 1 + 20 + 4 + 6
    assert model.health.trips == 1
    # waits between probes are at least the breaker's backoff (1, 2, 4, 8 s capped at 1 s
    # by the test's retry policy)
    assert max(sleep.delays) <= 1.0


async def test_breaker_closes_when_the_endpoint_recovers(
    make_model: MakeModel, sleep: RecordingSleep
) -> None:
    server = MockOpenAIServer(faults=[None, *["500"] * 8])
    async with server:
        model = make_model(server, retry=RetryPolicy(max_attempts=10, base_delay_s=0.01))
        await model.generate(HELLO)
        answers = await asyncio.gather(*(model.generate(HELLO) for _ in range(4)))
    assert [a.content for a in answers] == ["echo: hello there"] * 4
    assert model.health.trips == 1 and not model.health.is_open
    retried = sum(a.usage.retries for a in answers if a.usage)
    assert retried == model.stats.retries == 8  # every failed request was retried once
    assert server.count == 1 + 8 + 4


async def test_retries_of_a_call_that_finally_failed_are_on_its_error(
    make_model: MakeModel,
) -> None:
    async with MockOpenAIServer(faults=["500"] * 3) as server:
        model = make_model(server, retry=RetryPolicy(max_attempts=3, base_delay_s=0.01))
        with pytest.raises(ModelError, match="gave up after 3 attempts") as info:
            await model.generate(HELLO)
    assert info.value.retries == 2 and type(info.value) is ModelError
    assert server.count == 3


async def test_answer_without_usage_is_flagged_not_free(make_model: MakeModel) -> None:
    async with MockOpenAIServer(usage=False) as server:
        model = make_model(server)
        answer = await model.generate(HELLO)
        server.usage = True
        counted = await model.generate([UserMessage(content="again")])
    assert answer.usage is not None and answer.usage.usage_missing == 1
    assert (answer.usage.prompt_tokens, answer.usage.cost) == (0, 0.0)
    assert counted.usage is not None and counted.usage.usage_missing == 0
    assert model.stats.usage_missing == 1


async def test_zero_tokens_reported_are_not_missing_usage(make_model: MakeModel) -> None:
    def zero(body: dict[str, Any]) -> dict[str, Any]:
        return completion_response("ok", prompt_tokens=0, completion_tokens=0)

    async with MockOpenAIServer(responder=zero) as server:
        answer = await make_model(server).generate(HELLO)
    assert answer.usage is not None and answer.usage.usage_missing == 0


async def test_credentials_in_the_url_never_show(
    caplog: pytest.LogCaptureFixture, sleep: RecordingSleep
) -> None:
    caplog.set_level(logging.DEBUG)
    password, query_key = "pw-SECRET-12345", "qk-SECRET-67890"
    async with MockOpenAIServer(faults=["500", "404"]) as server:
        url = (
            server.base_url.replace("http://", f"http://user:{password}@") + f"?api-key={query_key}"
        )
        factory = ModelFactory(environ={"OPENAI_API_KEY": SECRET_KEY}, sleep=sleep)
        model = factory.resolve(f"gpt-x@{url}")
        with pytest.raises(FatalProviderError) as info:
            await model.generate(HELLO)
        await factory.aclose()
    texts = [str(info.value), caplog.text, repr(model), model.name]
    for text in texts:
        assert password not in text and query_key not in text and SECRET_KEY not in text
    assert "http://***@127.0.0.1:" in str(info.value)
    sent = server.requests[0].headers["Authorization"]
    assert sent.startswith("Basic ")  # user info is sent as basic auth, as before


async def test_query_of_the_base_url_is_sent() -> None:
    async with MockOpenAIServer() as server:
        factory = ModelFactory(environ={})
        await factory.resolve(f"m@{server.base_url}?api-version=2024-06-01").generate(HELLO)
        await factory.aclose()
        assert server.count == 1


async def test_model_at_url_follows_the_runs_concurrency(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        factory = ModelFactory(environ={})
        model = factory.resolve(f"m@{server.base_url}")
        await model.generate(HELLO)
        server.reset()
        hold_until_in_flight(server, 40)
        await asyncio.gather(*(model.generate(HELLO) for _ in range(40)))
        await factory.aclose()
    assert server.max_in_flight == 40  # not capped at 16


async def test_max_concurrency_of_the_models_file_still_limits() -> None:
    limits = EndpointLimits()
    async with MockOpenAIServer() as server:
        assert limits.limit_of(server.base_url) is None
        limiter = limits.optional_limiter(server.base_url, 3)
        assert limits.limit_of(server.base_url) == 3
        assert limits.optional_limiter(server.base_url, None) is limiter
        assert limits.optional_limiter("http://other/v1", None) is not limiter


async def test_a_fatal_answer_to_the_breakers_probe_reaches_the_waiting_calls(
    make_model: MakeModel,
) -> None:
    entered, release = asyncio.Event(), asyncio.Event()

    async def held_sleep(delay: float) -> None:  # call A waits here until released
        entered.set()
        await release.wait()

    server = MockOpenAIServer(faults=[None, "503"], failure_rate=1.0, fault_kinds=("401",))
    async with server:
        health = EndpointHealth("mock", HealthPolicy(trip_after=1))
        model = make_model(server, health=health, sleep=held_sleep)
        await model.generate(HELLO)
        call_a = asyncio.ensure_future(model.generate(HELLO))  # 503: the breaker opens
        await entered.wait()
        assert health.is_open
        # B probes (401: fatal); C, D, E wait for the probe and get its answer without sending
        others = await _all(model, 4)
        release.set()
        results = [*others, *(await asyncio.gather(call_a, return_exceptions=True))]
        count = server.count
    assert all(isinstance(r, FatalProviderError) for r in results), results
    assert count == 1 + 1 + 1  # answer, A's 503, B's probe (A's retry is refused unsent)
