"""A loopback mock of an OpenAI-compatible chat-completions server, for tests and benchmarks.

Example::

    async with MockOpenAIServer(faults=["429", "500"]) as server:
        model = OpenAICompatibleModel(name="m", model="mock", base_url=server.base_url,
                                      api_key="k")
        await model.generate([UserMessage(content="hi")])
        assert server.count == 3

Requires ``aiohttp`` (a dev dependency).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import random
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, TypeAlias

from aiohttp import web

Responder: TypeAlias = Callable[[dict[str, Any]], dict[str, Any] | Awaitable[dict[str, Any]]]
"""Turns a request body into a chat-completion response body."""

RANDOM_FAULTS: tuple[str, ...] = ("429", "500", "timeout", "garbage", "disconnect")
"""The faults drawn from when failures are injected at random."""

GARBAGE_BODY = '<html><body>502 Bad Gateway</body></html>{"choices": ['
"""The body of a ``garbage`` fault: status 200, content type JSON, not JSON."""

MAX_HANG_S = 30.0
"""Upper bound of a ``timeout`` fault's sleep, so the server never hangs forever."""


@dataclass(frozen=True)
class ReceivedRequest:
    """One request the mock server received.

    Attributes:
        body: The JSON body (``{"_unparsed": text}`` when it was not JSON).
        headers: The request headers.
        fault: The fault injected into the answer, or ``None`` for a normal answer.
        received_at: ``time.monotonic()`` when the request arrived.
    """

    body: dict[str, Any]
    headers: dict[str, str]
    fault: str | None
    received_at: float = field(default=0.0)


def tool_call(
    name: str, arguments: dict[str, Any] | str, call_id: str | None = None
) -> dict[str, Any]:
    """One tool call in the OpenAI wire format.

    Args:
        name: Tool name.
        arguments: Arguments, as an object (serialised to JSON) or a raw string.
        call_id: The call id (``call_<name>`` by default).

    Returns:
        The tool-call dict, for :func:`completion_response`.
    """
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {
        "id": call_id or f"call_{name}",
        "type": "function",
        "function": {"name": name, "arguments": text},
    }


def completion_response(
    content: str | None = "",
    *,
    tool_calls: Sequence[dict[str, Any]] = (),
    reasoning: str | None = None,
    model: str = "mock-model",
    prompt_tokens: int = 10,
    completion_tokens: int = 5,
    finish_reason: str | None = None,
) -> dict[str, Any]:
    """A chat-completion response body.

    Args:
        content: The assistant text (``None`` is sent as JSON null).
        tool_calls: Tool calls (see :func:`tool_call`).
        reasoning: Sent as ``reasoning_content`` when given.
        model: The model name reported.
        prompt_tokens: Reported prompt tokens.
        completion_tokens: Reported completion tokens.
        finish_reason: Defaults to ``tool_calls`` or ``stop``.

    Returns:
        The response body.
    """
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = list(tool_calls)
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    return {
        "id": "chatcmpl-mock",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop"),
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def echo_responder(body: dict[str, Any]) -> dict[str, Any]:
    """The default responder: replies ``echo: <last user message>`` (first 200 characters)."""
    messages = body.get("messages") or []
    last = next(
        (
            m.get("content")
            for m in reversed(messages)
            if isinstance(m, dict) and m.get("role") == "user"
        ),
        "",
    )
    text = str(last or "")[:200]
    words = sum(len(str(m.get("content") or "").split()) for m in messages if isinstance(m, dict))
    return completion_response(
        f"echo: {text}",
        model=str(body.get("model") or "mock-model"),
        prompt_tokens=words,
        completion_tokens=len(text.split()) + 1,
    )


def _error_body(status: int, message: str) -> dict[str, Any]:
    kind = "rate_limit_error" if status == 429 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "code": str(status)}}


class MockOpenAIServer:
    """An OpenAI-compatible server on 127.0.0.1 (ephemeral port), with fault injection.

    Use it as an async context manager. Faults come from ``faults`` in order (``None`` entries
    answer normally) and, once those are used up, at random with probability
    ``failure_rate`` from ``fault_kinds`` (seeded, so runs are reproducible).

    Fault names: ``"429"`` (with a ``Retry-After`` header), ``"500"``, ``"timeout"`` (sleeps
    ``hang_s`` before answering), ``"garbage"`` (200 with a non-JSON body), ``"disconnect"``
    (closes the connection), ``"401"`` (echoes the bearer token in the error message, as some
    providers do, to test scrubbing), or any other status code such as ``"400"`` or ``"503"``.

    Args:
        responder: Builds the response body of a normal answer (default :func:`echo_responder`).
        latency_s: Seconds every request waits before being answered.
        faults: Faults injected into the first requests, in order.
        failure_rate: Probability of a random fault once ``faults`` is used up.
        fault_kinds: Faults drawn from at random.
        seed: Seed of the random faults.
        retry_after_s: Value of the ``Retry-After`` header of ``429`` faults (``None``: no header).
        hang_s: How long a ``timeout`` fault sleeps (capped at :data:`MAX_HANG_S`).
        host: Interface to bind.
    """

    def __init__(
        self,
        *,
        responder: Responder | None = None,
        latency_s: float = 0.0,
        faults: Sequence[str | None] = (),
        failure_rate: float = 0.0,
        fault_kinds: Sequence[str] = RANDOM_FAULTS,
        seed: int = 0,
        retry_after_s: float | None = 1.0,
        hang_s: float = 2.0,
        host: str = "127.0.0.1",
    ) -> None:
        if not 0.0 <= failure_rate <= 1.0:
            raise ValueError("failure_rate must be between 0 and 1")
        if failure_rate > 0 and not fault_kinds:
            raise ValueError("fault_kinds is empty")
        self.responder: Responder = responder or echo_responder
        self.latency_s = latency_s
        self.failure_rate = failure_rate
        self.fault_kinds = tuple(fault_kinds)
        self.retry_after_s = retry_after_s
        self.hang_s = min(max(hang_s, 0.0), MAX_HANG_S)
        self.host = host
        self.requests: list[ReceivedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._faults: deque[str | None] = deque(faults)
        self._rng = random.Random(seed)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    @property
    def port(self) -> int:
        """The bound port (only while running)."""
        if self._port is None:
            raise RuntimeError("the mock server is not running")
        return self._port

    @property
    def base_url(self) -> str:
        """The OpenAI base URL of the server, ending in ``/v1``."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def count(self) -> int:
        """Number of chat-completion requests received."""
        return len(self.requests)

    @property
    def faults_injected(self) -> list[str]:
        """The faults injected so far, in arrival order."""
        return [r.fault for r in self.requests if r.fault is not None]

    def add_faults(self, faults: Sequence[str | None]) -> None:
        """Queue more scripted faults."""
        self._faults.extend(faults)

    def reset(self) -> None:
        """Forget the requests received and the in-flight maximum."""
        self.requests.clear()
        self.max_in_flight = self.in_flight

    async def start(self) -> None:
        """Bind the port and start serving."""
        if self._runner is not None:
            raise RuntimeError("the mock server is already running")
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._handle)
        runner = web.AppRunner(
            app, handler_cancellation=True, shutdown_timeout=0.5, access_log=None
        )
        await runner.setup()
        site = web.TCPSite(runner, self.host, 0)
        await site.start()
        self._runner = runner
        self._port = _bound_port(runner)

    async def stop(self) -> None:
        """Stop serving and release the port."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        self._port = None

    async def __aenter__(self) -> MockOpenAIServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    def _next_fault(self) -> str | None:
        if self._faults:
            return self._faults.popleft()
        if self.failure_rate > 0 and self._rng.random() < self.failure_rate:
            return self._rng.choice(self.fault_kinds)
        return None

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            raw = await request.read()
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = None
            body = (
                parsed if isinstance(parsed, dict) else {"_unparsed": raw.decode(errors="replace")}
            )
            fault = self._next_fault()
            self.requests.append(
                ReceivedRequest(body, dict(request.headers), fault, time.monotonic())
            )
            if self.latency_s > 0:
                await asyncio.sleep(self.latency_s)
            if fault is not None:
                return await self._fault(request, body, fault)
            return await self._answer(body)
        finally:
            self.in_flight -= 1

    async def _answer(self, body: dict[str, Any]) -> web.StreamResponse:
        if not isinstance(body.get("messages"), list) or not body.get("model"):
            return web.json_response(
                _error_body(400, "'model' and 'messages' are required"), status=400
            )
        try:
            result = self.responder(body)
            if inspect.isawaitable(result):
                result = await result
        except Exception as exc:  # a broken responder is reported, not raised into aiohttp
            return web.json_response(
                _error_body(500, f"responder failed: {type(exc).__name__}: {exc}"), status=500
            )
        return web.json_response(result)

    async def _fault(
        self, request: web.Request, body: dict[str, Any], fault: str
    ) -> web.StreamResponse:
        if fault == "timeout":
            await asyncio.sleep(self.hang_s)
            return await self._answer(body)
        if fault == "garbage":
            return web.Response(status=200, text=GARBAGE_BODY, content_type="application/json")
        if fault == "disconnect":
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=200)
        if fault == "429":
            headers = {}
            if self.retry_after_s is not None:
                headers["Retry-After"] = f"{self.retry_after_s:g}"
            return web.json_response(
                _error_body(429, "Rate limit reached (mock)"), status=429, headers=headers
            )
        if fault == "401":
            token = request.headers.get("Authorization", "").removeprefix("Bearer ")
            return web.json_response(
                _error_body(401, f"Incorrect API key provided: {token}"), status=401
            )
        if fault.isdigit():
            status = int(fault)
            return web.json_response(_error_body(status, f"injected HTTP {status}"), status=status)
        raise ValueError(f"unknown fault {fault!r}")


def _bound_port(runner: web.AppRunner) -> int:
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    raise RuntimeError("the mock server did not report its port")


class MockServerThread:
    """Runs a :class:`MockOpenAIServer` on its own event loop in a daemon thread.

    For synchronous tests and benchmarks::

        with MockServerThread(MockOpenAIServer(latency_s=0.01)) as server:
            run_benchmark(base_url=server.base_url)

    Args:
        server: The server to run.
        start_timeout_s: How long to wait for the server to start or stop.
    """

    def __init__(self, server: MockOpenAIServer, *, start_timeout_s: float = 10.0) -> None:
        self.server = server
        self._timeout = start_timeout_s
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            await self.server.start()
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            raise
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await self.server.stop()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported to the starting thread
            if self._error is None:
                self._error = exc

    def start(self) -> MockOpenAIServer:
        """Start the thread and wait until the server is listening."""
        if self._thread is not None:
            raise RuntimeError("already started")
        self._thread = threading.Thread(target=self._run, name="mock-openai", daemon=True)
        self._thread.start()
        if not self._ready.wait(self._timeout):
            raise TimeoutError("the mock server did not start in time")
        if self._error is not None:
            raise RuntimeError("the mock server failed to start") from self._error
        return self.server

    def stop(self) -> None:
        """Stop the server and join the thread (bounded by the start timeout)."""
        loop, stop, thread = self._loop, self._stop, self._thread
        if loop is not None and stop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stop.set)
        if thread is not None:
            thread.join(self._timeout)
        self._thread = None

    def __enter__(self) -> MockOpenAIServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
