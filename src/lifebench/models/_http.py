"""The HTTP layer of the OpenAI-compatible provider: one aiohttp session per model.

We measured the three candidates on this project's workload (a 20-tool agent request, 64 in
flight, loopback endpoint in another process): the client's own CPU per request was about
1.1 ms through the OpenAI SDK (``client.post`` with a prepared body), 0.7 ms through ``httpx``
and 0.15 ms through ``aiohttp``, so the provider speaks HTTP through ``aiohttp`` directly; the
request body is prepared bytes (:mod:`lifebench.models._wire`), the answer is returned as
bytes with the two headers the retry logic reads. ``aiohttp`` is imported when the first
request is sent, never at import time (the offline demo and ``--help`` do not load it).

Failures without an HTTP answer become one :class:`TransportError` whose ``kind`` says what
happened (``timeout``, ``connect``: nothing was sent — refused, DNS, TLS; ``disconnect``;
``protocol``). Tests inject faults under this layer with aiohttp client middlewares
(``open_transport(..., middlewares=...)``), so an injected timeout takes exactly the path of a
real one.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import unquote, urlsplit, urlunsplit

if TYPE_CHECKING:
    import aiohttp

TransportErrorKind = Literal["timeout", "connect", "disconnect", "protocol"]


class TransportError(Exception):
    """A request that got no HTTP answer.

    Attributes:
        kind: ``timeout`` (no answer in time), ``connect`` (the connection could not be made:
            refused, name not resolved, TLS handshake failed — nothing reached the server),
            ``disconnect`` (the connection broke), ``protocol`` (an unreadable answer).
        detail: A short description without credentials or URLs.
    """

    def __init__(self, kind: TransportErrorKind, detail: str) -> None:
        super().__init__(detail)
        self.kind: TransportErrorKind = kind
        self.detail = detail


@dataclass(frozen=True, slots=True)
class HttpAnswer:
    """An HTTP answer: status, body bytes and the headers the retry logic reads."""

    status: int
    body: bytes
    retry_after: str | None = None
    retry_after_ms: str | None = None

    def text(self) -> str:
        """The body as text (UTF-8, undecodable bytes replaced)."""
        return self.body.decode("utf-8", errors="replace")


class Transport(Protocol):
    """Sends prepared chat-completion request bodies to one endpoint."""

    async def post(self, body: bytes) -> HttpAnswer:
        """POST ``body`` (JSON bytes) to the endpoint's ``/chat/completions``.

        Raises:
            TransportError: No HTTP answer (timeout, connection refused, broken connection).
        """
        ...

    async def aclose(self) -> None:
        """Close the connections."""
        ...

    @property
    def closed(self) -> bool:
        """True after :meth:`aclose`."""
        ...


def completions_url(base_url: str) -> str:
    """``BASE_URL/chat/completions`` with the query of ``base_url`` kept and its user info
    removed (user info is sent as basic auth, see :func:`auth_header`)."""
    parts = urlsplit(base_url.strip())
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port is not None else host
    path = parts.path.rstrip("/") + "/chat/completions"
    return urlunsplit((parts.scheme, netloc, path, parts.query, ""))


def auth_header(base_url: str, api_key: str) -> str:
    """The ``Authorization`` header: ``Bearer KEY``, or HTTP basic auth when the URL carries
    user info (``http://user:password@host/v1``), as the OpenAI SDK's HTTP client did."""
    parts = urlsplit(base_url.strip())
    if parts.username is not None or parts.password is not None:
        pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
        return "Basic " + base64.b64encode(pair.encode()).decode("ascii")
    return f"Bearer {api_key}"


def _connect_detail(exc: BaseException) -> str:
    import socket
    import ssl

    cause = getattr(exc, "os_error", None) or exc.__cause__ or exc
    if isinstance(cause, socket.gaierror):
        return "the host name could not be resolved"
    if isinstance(cause, ConnectionRefusedError):
        return "connection refused"
    if isinstance(cause, ssl.SSLError):
        return f"TLS handshake failed ({type(cause).__name__})"
    if isinstance(cause, OSError) and cause.strerror:
        return f"cannot connect ({cause.strerror})"
    return f"cannot connect ({type(cause).__name__})"


def env_proxy(url: str) -> str | None:
    """The proxy the environment (``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY``,
    ``NO_PROXY``) names for ``url``, if any."""
    import urllib.request

    parts = urlsplit(url)
    proxies = urllib.request.getproxies()
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if not proxy or urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    return proxy


class AiohttpTransport:
    """A :class:`Transport` over one ``aiohttp.ClientSession``, created on first use in the
    running event loop (and again if the loop changed).

    Args:
        base_url: The OpenAI-compatible base URL (``…/v1``).
        api_key: Sent as ``Authorization: Bearer KEY`` (see :func:`auth_header`).
        timeout_s: Seconds one request may take, connection included.
        middlewares: aiohttp client middlewares (for fault injection in tests).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout_s: float,
        middlewares: Sequence[Any] = (),
    ) -> None:
        self._url = completions_url(base_url)
        self._headers = {
            "Authorization": auth_header(base_url, api_key),
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        self._timeout_s = timeout_s
        self._middlewares = tuple(middlewares)
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        """True after :meth:`aclose`."""
        return self._closed

    def _open(self) -> aiohttp.ClientSession:
        import aiohttp

        loop = asyncio.get_running_loop()
        if self._session is not None and self._loop is loop and not self._session.closed:
            return self._session
        self._loop = loop
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, ttl_dns_cache=300),
            headers=self._headers,
            timeout=aiohttp.ClientTimeout(total=self._timeout_s),
            # HTTP(S)_PROXY / NO_PROXY are honoured as the OpenAI SDK honoured them, but read
            # once here: aiohttp's trust_env re-reads them in a worker thread on every request.
            proxy=env_proxy(self._url),
            middlewares=self._middlewares,
        )
        return self._session

    async def post(self, body: bytes) -> HttpAnswer:
        """POST ``body`` to ``/chat/completions``; see :meth:`Transport.post`."""
        import aiohttp

        if self._closed:
            raise TransportError("protocol", "the model's HTTP client is closed")
        session = self._open()
        try:
            async with session.post(self._url, data=body, allow_redirects=False) as response:
                data = await response.read()
                headers: Mapping[str, str] = response.headers
                return HttpAnswer(
                    response.status,
                    data,
                    headers.get("retry-after"),
                    headers.get("retry-after-ms"),
                )
        except TimeoutError:  # aiohttp's ServerTimeoutError is one too
            raise TransportError("timeout", f"no answer within {self._timeout_s:g}s") from None
        except aiohttp.ClientConnectorError as exc:
            raise TransportError("connect", _connect_detail(exc)) from None
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError) as exc:
            raise TransportError("disconnect", f"connection lost ({type(exc).__name__})") from None
        except aiohttp.ClientPayloadError as exc:
            raise TransportError("disconnect", f"answer cut off ({type(exc).__name__})") from None
        except (aiohttp.ClientError, ValueError) as exc:
            raise TransportError("protocol", f"HTTP error ({type(exc).__name__})") from None

    async def aclose(self) -> None:
        """Close the session (a later :meth:`post` fails)."""
        self._closed = True
        session, self._session = self._session, None
        if session is not None and not session.closed:
            with contextlib.suppress(RuntimeError):  # its event loop is gone: nothing to close
                await session.close()


def open_transport(
    base_url: str, api_key: str, timeout_s: float, *, middlewares: Sequence[Any] = ()
) -> Transport:
    """The transport of a model (tests replace this function to inject faults underneath)."""
    return AiohttpTransport(base_url, api_key, timeout_s, middlewares)
