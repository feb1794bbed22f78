"""Per-endpoint state shared by every model that calls the same server in a run: the
concurrency limit and the endpoint's health (first contact, circuit breaker)."""

from __future__ import annotations

import asyncio
import logging
from types import TracebackType
from typing import Protocol

from lifebench.models._health import EndpointHealth, HealthPolicy
from lifebench.models._secrets import redact_url

_log = logging.getLogger(__name__)


class Limiter(Protocol):
    """An async context manager that bounds how many requests run at once (a semaphore)."""

    async def __aenter__(self) -> object:
        """Wait for a free slot."""
        ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        """Release the slot."""
        ...


def endpoint_key(base_url: str) -> str:
    """The identity of an endpoint: its base URL without trailing slashes, lower-cased."""
    return base_url.strip().rstrip("/").lower()


class NoLimit:
    """A limiter that never waits (the run's ``--concurrency`` bounds the requests)."""

    async def __aenter__(self) -> object:
        return None

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None


class EndpointLimits:
    """Registry of the shared state of each endpoint; create one per run and share it.

    The first registration of an endpoint fixes its limit; later registrations with a
    different limit reuse the existing semaphore (and log that they did). An endpoint
    registered without a limit has none of its own: requests in flight are then bounded by the
    units in flight (``--concurrency``), each of which waits for one model call at a time.

    Args:
        default_limit: Limit used when :meth:`limiter` is called without one.
    """

    def __init__(self, default_limit: int = 16) -> None:
        if default_limit < 1:
            raise ValueError("default_limit must be at least 1")
        self._default = default_limit
        self._limiters: dict[str, tuple[int, asyncio.Semaphore]] = {}
        self._health: dict[str, EndpointHealth] = {}

    def health(self, base_url: str, policy: HealthPolicy | None = None) -> EndpointHealth:
        """The health of ``base_url`` (created with ``policy`` on first use), shared by every
        model of that endpoint."""
        key = endpoint_key(base_url)
        existing = self._health.get(key)
        if existing is None:
            existing = self._health[key] = EndpointHealth(redact_url(base_url.strip()), policy)
        return existing

    def optional_limiter(self, base_url: str, limit: int | None) -> Limiter:
        """The shared semaphore of ``base_url`` when ``limit`` is given or one was registered
        before; a limiter that never waits otherwise."""
        if limit is None and self.limit_of(base_url) is None:
            return NoLimit()
        return self.limiter(base_url, limit)

    def limiter(self, base_url: str, limit: int | None = None) -> asyncio.Semaphore:
        """The semaphore of ``base_url``, created with ``limit`` slots on first use.

        Args:
            base_url: The endpoint (trailing slashes and case are ignored).
            limit: Concurrent requests allowed; the registry's default when ``None``.

        Returns:
            The semaphore shared by every caller of this endpoint.
        """
        wanted = self._default if limit is None else limit
        if wanted < 1:
            raise ValueError("limit must be at least 1")
        key = endpoint_key(base_url)
        existing = self._limiters.get(key)
        if existing is not None:
            if existing[0] != wanted:
                _log.info(
                    "endpoint already limited to %d concurrent requests; ignoring limit %d",
                    existing[0],
                    wanted,
                )
            return existing[1]
        semaphore = asyncio.Semaphore(wanted)
        self._limiters[key] = (wanted, semaphore)
        return semaphore

    def limit_of(self, base_url: str) -> int | None:
        """The limit registered for ``base_url``, or ``None`` if it has none yet."""
        existing = self._limiters.get(endpoint_key(base_url))
        return existing[0] if existing else None

    def __len__(self) -> int:
        return len(self._limiters)
