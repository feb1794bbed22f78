"""Deterministic client timeouts for fault tests.

A real timeout races the client's deadline against the server's answer, so under CPU load a
normal answer can time out too and add a retry that no test planned. Here the timeout is
injected instead: the HTTP transport under the OpenAI SDK raises ``httpx.ReadTimeout`` for the
requests a seeded plan picks (they never reach the server), which takes exactly the path of a
real timeout (the SDK's ``APITimeoutError``, the model's "request timed out" retry) while the
client's own deadline is set far beyond anything the mock server needs.

Counts are deterministic even under concurrency: the i-th attempt gets the i-th decision.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

import pytest

from lifebench.models import _openai

try:  # the HTTP library under the installed OpenAI SDK (newer releases ship a renamed fork)
    import httpx2 as httpx
except ImportError:  # pragma: no cover - older SDKs
    import httpx  # type: ignore[no-redef]

GENEROUS_TIMEOUT_S = 60.0
"""A client deadline no answer of the loopback mock server comes near, even under load."""


class TimeoutPlan:
    """Which attempts time out: scripted decisions first, then at random with ``rate``."""

    def __init__(self, script: Sequence[bool] = (), *, rate: float = 0.0, seed: int = 0) -> None:
        self._script = deque(script)
        self._rate = rate
        self._rng = random.Random(seed)
        self.decisions = 0
        self.injected = 0

    def next(self) -> bool:
        """Whether the next attempt times out."""
        self.decisions += 1
        if self._script:
            timeout = self._script.popleft()
        else:
            timeout = self._rate > 0 and self._rng.random() < self._rate
        self.injected += timeout
        return timeout


class _Transport(httpx.AsyncBaseTransport):
    def __init__(self, plan: TimeoutPlan) -> None:
        self._plan = plan
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._plan.next():
            raise httpx.ReadTimeout("injected timeout", request=request)
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


def inject_timeouts(monkeypatch: pytest.MonkeyPatch, plan: TimeoutPlan) -> TimeoutPlan:
    """Make every OpenAICompatibleModel built from now on (in this test) follow ``plan``."""
    real = _openai.AsyncOpenAI

    def client(**kwargs: Any) -> Any:
        http = httpx.AsyncClient(transport=_Transport(plan), timeout=kwargs.get("timeout"))
        return real(**kwargs, http_client=http)

    monkeypatch.setattr(_openai, "AsyncOpenAI", client)
    return plan
