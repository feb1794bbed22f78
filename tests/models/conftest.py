"""Fixtures of the model-layer tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from lifebench.models import OpenAICompatibleModel, RetryPolicy
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import echo_responder

SECRET_KEY = "sk-lifebench-TEST-SECRET-0123456789abcdef"


class RecordingSleep:
    """An ``asyncio.sleep`` stand-in that records the delays and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


MakeModel = Callable[..., OpenAICompatibleModel]


def hold_until_in_flight(server: MockOpenAIServer, n: int, limit_s: float = 10.0) -> None:
    """Make the server hold every answer until ``n`` requests have been in flight together.

    Tests of concurrency then do not depend on timing: the overlap they look for happens
    because the server waits for it, not because a fixed latency was long enough (if it never
    happens, answers resume after ``limit_s`` and the test's assertion fails).
    """

    reached = asyncio.Event()

    async def respond(body: dict[str, Any]) -> dict[str, Any]:
        if server.max_in_flight >= n:
            reached.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reached.wait(), limit_s)
        return echo_responder(body)

    server.responder = respond


@pytest.fixture
def api_key() -> str:
    return SECRET_KEY


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
async def make_model(sleep: RecordingSleep) -> AsyncIterator[MakeModel]:
    """Builds models against a mock server (fast retries, short timeout), closed at teardown."""
    models: list[OpenAICompatibleModel] = []

    def make(server: MockOpenAIServer, **kwargs: Any) -> OpenAICompatibleModel:
        kwargs.setdefault("name", "test-model")
        kwargs.setdefault("model", "mock-model")
        kwargs.setdefault("api_key", SECRET_KEY)
        kwargs.setdefault("sleep", sleep)
        kwargs.setdefault("timeout_s", 2.0)
        kwargs.setdefault("retry", RetryPolicy(max_attempts=6, base_delay_s=0.01, max_delay_s=1.0))
        model = OpenAICompatibleModel(base_url=server.base_url, **kwargs)
        models.append(model)
        return model

    yield make
    for model in models:
        await model.aclose()
