"""Deterministic client timeouts for fault tests.

A real timeout races the client's deadline against the server's answer, so under CPU load a
normal answer can time out too and add a retry that no test planned. Here the timeout is
injected instead: an aiohttp client middleware under the model's HTTP transport
(``lifebench.models._http``) raises aiohttp's own ``ServerTimeoutError`` for the requests a
seeded plan picks (they never reach the server), which takes exactly the path of a real
timeout (the transport's ``TransportError("timeout")``, the model's "request timed out"
retry) while the client's own deadline is set far beyond anything the mock server needs.

Counts are deterministic even under concurrency: the i-th attempt gets the i-th decision.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
import pytest

from lifebench.models import _http

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


def _middleware(
    plan: TimeoutPlan,
) -> Callable[[aiohttp.ClientRequest, Any], Awaitable[aiohttp.ClientResponse]]:
    async def inject(
        request: aiohttp.ClientRequest,
        handler: Callable[[aiohttp.ClientRequest], Awaitable[aiohttp.ClientResponse]],
    ) -> aiohttp.ClientResponse:
        if plan.next():
            raise aiohttp.ServerTimeoutError("injected timeout")
        return await handler(request)

    return inject


def inject_timeouts(monkeypatch: pytest.MonkeyPatch, plan: TimeoutPlan) -> TimeoutPlan:
    """Make every OpenAICompatibleModel built from now on (in this test) follow ``plan``."""
    real = _http.open_transport

    def transport(
        base_url: str, api_key: str, timeout_s: float, *, middlewares: Sequence[Any] = ()
    ) -> _http.Transport:
        return real(base_url, api_key, timeout_s, middlewares=(*middlewares, _middleware(plan)))

    monkeypatch.setattr(_http, "open_transport", transport)
    return plan
