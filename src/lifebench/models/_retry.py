"""Bounded exponential backoff with full jitter, and ``Retry-After`` parsing."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from pydantic import BaseModel, ConfigDict, Field

RETRYABLE_STATUS = frozenset({408, 409, 429})
"""4xx statuses worth retrying; every 5xx is retryable as well."""


def is_retryable_status(status: int) -> bool:
    """True for statuses that signal a transient failure (408, 409, 429 and every 5xx)."""
    return status in RETRYABLE_STATUS or 500 <= status <= 599


class RetryPolicy(BaseModel):
    """How often, and how patiently, a failed model call is retried."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    max_attempts: int = Field(
        6, ge=1, le=100, description="Attempts in total, the first one included (1 means no retry)."
    )
    base_delay_s: float = Field(
        1.0, ge=0, le=3600, description="Backoff cap before the first retry, in seconds."
    )
    max_delay_s: float = Field(
        60.0,
        ge=0,
        le=3600,
        description="Upper bound of any wait, including one asked for by Retry-After.",
    )
    multiplier: float = Field(
        2.0, ge=1, le=10, description="Growth factor of the backoff cap per retry."
    )

    def backoff(self, retry: int, rng: random.Random) -> float:
        """Full-jitter delay before retry number ``retry`` (1-based).

        Args:
            retry: How many retries have been made so far, this one included.
            rng: Source of the jitter.

        Returns:
            A delay drawn uniformly from ``[0, min(max_delay, base * multiplier**(retry-1))]``.
        """
        cap = min(self.max_delay_s, self.base_delay_s * self.multiplier ** max(retry - 1, 0))
        return rng.uniform(0.0, cap)

    def delay(self, retry: int, rng: random.Random, retry_after: float | None) -> float:
        """The wait before retry number ``retry``: the server's wish if given, else backoff.

        Args:
            retry: How many retries have been made so far, this one included.
            rng: Source of the jitter.
            retry_after: Seconds asked for by the server (``Retry-After``), if any.

        Returns:
            Seconds to wait, never more than ``max_delay_s``.
        """
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay_s)
        return self.backoff(retry, rng)


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait according to a ``Retry-After`` header value.

    Args:
        value: The header value: a number of seconds or an HTTP date.
        now: The current time (for tests); defaults to the wall clock.

    Returns:
        A non-negative number of seconds, or ``None`` when the value is absent or unreadable.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return max(seconds, 0.0) if seconds == seconds else None  # NaN is unreadable
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now if now is not None else datetime.now(UTC)
    return max((when - current).total_seconds(), 0.0)


def parse_retry_after_ms(value: str | None) -> float | None:
    """Seconds to wait according to a ``retry-after-ms`` header value (milliseconds)."""
    if value is None:
        return None
    try:
        ms = float(value.strip())
    except ValueError:
        return None
    return max(ms, 0.0) / 1000.0 if ms == ms else None
