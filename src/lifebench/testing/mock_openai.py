"""A loopback mock of an OpenAI-compatible chat-completions server, for tests and benchmarks.

Example::

    async with MockOpenAIServer(faults=["429", "500"]) as server:
        model = OpenAICompatibleModel(name="m", model="mock", base_url=server.base_url,
                                      api_key="k")
        await model.generate([UserMessage(content="hi")])
        assert server.count == 3

As a process of its own (a benchmark's endpoint must not share the harness's CPU and GIL)::

    python -m lifebench.testing --latency 0.2 [--responder MODULE:FUNCTION]   # prints its port

It answers like a provider set up in a given way (``api_key``, ``models``,
``max_body_bytes``, ``blocked_words``, ``usage=False``, ``refuse=True``) or with scripted and
seeded faults, and keeps counters (``GET /v1/_stats``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import random
import signal
import socket
import sys
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
        raw: The body bytes exactly as received.
    """

    body: dict[str, Any]
    headers: dict[str, str]
    fault: str | None
    received_at: float = field(default=0.0)
    raw: bytes = field(default=b"", repr=False)


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


def _error_body(
    status: int,
    message: str,
    *,
    kind: str | None = None,
    code: str | None = None,
    param: str | None = None,
) -> dict[str, Any]:
    if kind is None:
        kind = "rate_limit_error" if status == 429 else "invalid_request_error"
    return {
        "error": {"message": message, "type": kind, "param": param, "code": code or str(status)}
    }


def masked_key(key: str) -> str:
    """A key shown as OpenAI shows it in a 401: the first 3 and last 4 characters."""
    return f"{key[:3]}...{key[-4:]}" if len(key) > 8 else "***"


MODEL_NOT_FOUND = "The model `{model}` does not exist or you do not have access to it."
CONTENT_FILTERED = (
    "The response was filtered due to the prompt triggering the content management policy. "
    "Please modify your prompt and retry."
)
CONTEXT_TOO_LONG = (
    "This model's maximum context length is 8192 tokens. However, your messages resulted in "
    "{tokens} tokens. Please reduce the length of the messages."
)
BAD_PARAMETER = "Unrecognized request argument supplied: {param}"
QUOTA_EXCEEDED = "You exceeded your current quota, please check your plan and billing details."
TOO_LARGE_HTML = (
    "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n"
    "<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)

SCRIPTED_FAULTS: tuple[str, ...] = (
    "429",
    "500",
    "timeout",
    "garbage",
    "disconnect",
    "401",
    "403",
    "404",
    "413",
    "quota",
    "content_filter",
    "context_length",
    "bad_param",
    "no_usage",
    "echo",
)
"""Named faults (any other HTTP status code given as digits is answered as is)."""


class MockOpenAIServer:
    """An OpenAI-compatible server on 127.0.0.1 (ephemeral port), with fault injection.

    Use it as an async context manager. Faults come from ``faults`` in order (``None`` entries
    answer normally) and, once those are used up, at random with probability
    ``failure_rate`` from ``fault_kinds`` (seeded, so runs are reproducible).

    Fault names: ``"429"`` (with a ``Retry-After`` header), ``"500"``, ``"timeout"`` (sleeps
    ``hang_s`` before answering), ``"garbage"`` (200 with a non-JSON body), ``"disconnect"``
    (closes the connection), ``"401"`` (echoes the bearer token in the error message, as some
    providers do, to test scrubbing), ``"403"``, ``"404"`` (unknown model), ``"413"`` (an
    nginx HTML page), ``"quota"`` (429 ``insufficient_quota``), ``"content_filter"`` (400
    ``content_filter``), ``"context_length"`` (400 ``context_length_exceeded``),
    ``"bad_param"`` (400 naming a request parameter), ``"no_usage"`` (a normal answer without
    ``usage``), ``"echo"`` (a 500 whose message echoes every request header and the request
    body, as some proxies do, to test scrubbing), or any other status code such as ``"400"`` or ``"503"``.

    Besides scripted faults the server can behave like a real provider that is set up in a
    certain way: ``api_key`` (any other bearer token is answered 401, naming the masked key as
    OpenAI does), ``models`` (any other model is answered 404), ``max_body_bytes`` (a larger
    body is answered 413), ``blocked_words`` (a request containing one is answered 400
    ``content_filter``), ``usage=False`` (answers carry no ``usage``) and ``refuse=True``
    (the port is reserved but nothing listens: every connection is refused).

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
        api_key: The only bearer token accepted (``None``: any).
        models: The only model ids served (``None``: any).
        max_body_bytes: Largest request body accepted (``None``: no limit).
        blocked_words: Words that make a request fail the content filter.
        usage: Whether answers report token usage.
        refuse: Reserve a port but do not listen on it (connection refused).
        keep_requests: Keep every request in :attr:`requests` (a benchmark turns this off;
            the counters are kept either way).
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
        api_key: str | None = None,
        models: Sequence[str] | None = None,
        max_body_bytes: int | None = None,
        blocked_words: Sequence[str] = (),
        usage: bool = True,
        refuse: bool = False,
        keep_requests: bool = True,
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
        self.api_key = api_key
        self.models = None if models is None else frozenset(models)
        self.max_body_bytes = max_body_bytes
        self.blocked_words = tuple(blocked_words)
        self.usage = usage
        self.refuse = refuse
        self.keep_requests = keep_requests
        self.requests: list[ReceivedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._count = 0
        self._first_at: float | None = None
        self._last_at: float | None = None
        self._faults_injected: list[str] = []
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
        return self._count

    @property
    def faults_injected(self) -> list[str]:
        """The faults injected so far, in arrival order (provider behaviours included:
        ``"401"`` for a wrong key, ``"404"`` for an unknown model, ``"413"``,
        ``"content_filter"``)."""
        return list(self._faults_injected)

    def stats(self) -> dict[str, Any]:
        """Counters of the server, the wall-clock times (``time.time()``) of the first and the
        last request, and the CPU time of its process (meaningful when the server runs in a
        process of its own: :func:`serve`)."""
        return {
            "count": self._count,
            "max_in_flight": self.max_in_flight,
            "faults": len(self._faults_injected),
            "cpu_s": round(time.process_time(), 4),
            "first_at": self._first_at,
            "last_at": self._last_at,
        }

    def add_faults(self, faults: Sequence[str | None]) -> None:
        """Queue more scripted faults."""
        self._faults.extend(faults)

    def reset(self) -> None:
        """Forget the requests received, the counters and the in-flight maximum."""
        self.requests.clear()
        self._count = 0
        self._first_at = self._last_at = None
        self._faults_injected.clear()
        self.max_in_flight = self.in_flight

    async def start(self, port: int = 0) -> None:
        """Bind the port (``0``: an ephemeral one) and start serving."""
        if self._runner is not None or self._port is not None:
            raise RuntimeError("the mock server is already running")
        if self.refuse:
            self._port = port or _free_port(self.host)
            return
        app = web.Application(client_max_size=1 << 30)
        app.router.add_post("/v1/chat/completions", self._handle)
        app.router.add_get("/v1/_stats", self._stats)
        runner = web.AppRunner(
            app, handler_cancellation=True, shutdown_timeout=0.5, access_log=None
        )
        await runner.setup()
        site = web.TCPSite(runner, self.host, port, backlog=1024)
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

    def _behaviour(self, request: web.Request, raw: bytes, body: dict[str, Any]) -> str | None:
        """The fault a provider set up like this server answers with, if any."""
        if self.api_key is not None:
            token = request.headers.get("Authorization", "").removeprefix("Bearer ")
            if token != self.api_key:
                return "wrong_key"
        if self.max_body_bytes is not None and len(raw) > self.max_body_bytes:
            return "413"
        if self.models is not None and body.get("model") not in self.models:
            return "404"
        if self.blocked_words:
            text = raw.decode(errors="replace")
            if any(word in text for word in self.blocked_words):
                return "content_filter"
        return None

    async def _stats(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(self.stats())

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
            fault = self._behaviour(request, raw, body) or self._next_fault()
            self._count += 1
            self._last_at = time.time()
            if self._first_at is None:
                self._first_at = self._last_at
            if fault is not None:
                self._faults_injected.append("401" if fault == "wrong_key" else fault)
            if self.keep_requests:
                self.requests.append(
                    ReceivedRequest(body, dict(request.headers), fault, time.monotonic(), raw)
                )
            if self.latency_s > 0:
                await asyncio.sleep(self.latency_s)
            if fault is not None and fault != "no_usage":
                return await self._fault(request, body, fault)
            return await self._answer(body, usage=self.usage and fault != "no_usage")
        finally:
            self.in_flight -= 1

    async def _answer(self, body: dict[str, Any], *, usage: bool = True) -> web.StreamResponse:
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
        if not usage:
            result = {k: v for k, v in result.items() if k != "usage"}
        return web.Response(
            body=json.dumps(result, ensure_ascii=False).encode(), content_type="application/json"
        )

    async def _fault(
        self, request: web.Request, body: dict[str, Any], fault: str
    ) -> web.StreamResponse:
        if fault == "timeout":
            await asyncio.sleep(self.hang_s)
            return await self._answer(body, usage=self.usage)
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
        if fault == "echo":
            echoed = f"headers {dict(request.headers)} body {json.dumps(body)}"
            return web.json_response(_error_body(500, f"upstream failed: {echoed}"), status=500)
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if fault == "401":
            return web.json_response(
                _error_body(401, f"Incorrect API key provided: {token}", code="invalid_api_key"),
                status=401,
            )
        if fault == "wrong_key":
            message = (
                f"Incorrect API key provided: {masked_key(token)}. You can find your API key at "
                "https://platform.openai.com/account/api-keys."
            )
            return web.json_response(_error_body(401, message, code="invalid_api_key"), status=401)
        if fault == "403":
            return web.json_response(
                _error_body(
                    403, "Project does not have access to this model", code="permission_denied"
                ),
                status=403,
            )
        if fault == "404":
            message = MODEL_NOT_FOUND.format(model=body.get("model"))
            return web.json_response(_error_body(404, message, code="model_not_found"), status=404)
        if fault == "413":
            return web.Response(status=413, text=TOO_LARGE_HTML, content_type="text/html")
        if fault == "quota":
            return web.json_response(
                _error_body(
                    429, QUOTA_EXCEEDED, kind="insufficient_quota", code="insufficient_quota"
                ),
                status=429,
            )
        if fault == "content_filter":
            return web.json_response(
                _error_body(400, CONTENT_FILTERED, kind="", code="content_filter"), status=400
            )
        if fault == "context_length":
            tokens = len(json.dumps(body)) // 2
            return web.json_response(
                _error_body(
                    400, CONTEXT_TOO_LONG.format(tokens=tokens), code="context_length_exceeded"
                ),
                status=400,
            )
        if fault == "bad_param":
            return web.json_response(
                _error_body(400, BAD_PARAMETER.format(param="seed"), param="seed"), status=400
            )
        if fault.isdigit():
            status = int(fault)
            return web.json_response(_error_body(status, f"injected HTTP {status}"), status=status)
        raise ValueError(f"unknown fault {fault!r}")


def _free_port(host: str) -> int:
    """A port nothing listens on (bound, then released at once)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


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


def serve(server: MockOpenAIServer, *, port: int = 0) -> dict[str, Any]:
    """Run ``server`` in the foreground of this process (its own process: a benchmark's mock
    endpoint must not share the harness's CPU and GIL).

    Prints the bound port as the first line of stdout once listening, serves until stdin
    reaches end-of-file or the process gets SIGTERM / SIGINT, then prints :meth:`stats` as one
    JSON line and returns it. ``GET /v1/_stats`` answers the same counters while serving.
    """

    async def run() -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)

        def wait_for_eof() -> None:
            sys.stdin.read()
            loop.call_soon_threadsafe(stop.set)

        await server.start(port)
        print(server.port, flush=True)
        threading.Thread(target=wait_for_eof, name="mock-openai-stdin", daemon=True).start()
        await stop.wait()
        stats = server.stats()
        await server.stop()
        return stats

    stats = asyncio.run(run())
    print(json.dumps(stats), flush=True)
    return stats


def _load_responder(spec: str) -> Responder:
    module_name, _, attr = spec.partition(":")
    if not attr:
        raise SystemExit(f"--responder must be MODULE:FUNCTION, got {spec!r}")
    responder: Responder = getattr(importlib.import_module(module_name), attr)
    return responder


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lifebench.testing``: the mock server as a process of its own."""
    parser = argparse.ArgumentParser(
        prog="python -m lifebench.testing",
        description="A loopback OpenAI-compatible mock server (prints its port, then serves "
        "until stdin closes or SIGTERM).",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per answer")
    parser.add_argument("--fault", action="append", default=[], help="scripted fault, in order")
    parser.add_argument("--failure-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--api-key", help="the only bearer token accepted")
    parser.add_argument("--model", action="append", help="a model id served (default: any)")
    parser.add_argument("--max-body-bytes", type=int)
    parser.add_argument("--blocked-word", action="append", default=[])
    parser.add_argument("--no-usage", action="store_true", help="answers carry no usage")
    parser.add_argument("--refuse", action="store_true", help="reserve a port, do not listen")
    parser.add_argument("--responder", help="MODULE:FUNCTION building normal answers")
    args = parser.parse_args(argv)
    server = MockOpenAIServer(
        responder=_load_responder(args.responder) if args.responder else None,
        latency_s=args.latency,
        faults=args.fault,
        failure_rate=args.failure_rate,
        seed=args.seed,
        host=args.host,
        api_key=args.api_key,
        models=args.model,
        max_body_bytes=args.max_body_bytes,
        blocked_words=args.blocked_word,
        usage=not args.no_usage,
        refuse=args.refuse,
        keep_requests=False,
    )
    serve(server, port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
