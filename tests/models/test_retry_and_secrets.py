"""Backoff, Retry-After parsing, status classification and credential scrubbing."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from lifebench.models import RetryPolicy, parse_retry_after
from lifebench.models._limits import EndpointLimits
from lifebench.models._retry import is_retryable_status, parse_retry_after_ms
from lifebench.models._secrets import redact_url, scrub, truncate


def test_defaults() -> None:
    policy = RetryPolicy()
    assert (policy.max_attempts, policy.base_delay_s, policy.max_delay_s, policy.multiplier) == (
        6,
        1.0,
        60.0,
        2.0,
    )


def test_full_jitter_backoff_bounds() -> None:
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=10.0)
    rng = random.Random(0)
    for retry, cap in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 10.0), (30, 10.0)]:
        delays = [policy.backoff(retry, rng) for _ in range(200)]
        assert all(0.0 <= d <= cap for d in delays)
        assert max(delays) > cap * 0.8  # jitter spans the whole range
        assert len(set(delays)) > 100


def test_delay_prefers_retry_after_capped() -> None:
    policy = RetryPolicy(max_delay_s=30.0)
    rng = random.Random(0)
    assert policy.delay(1, rng, 7.0) == 7.0
    assert policy.delay(1, rng, 100.0) == 30.0
    assert policy.delay(1, rng, -3.0) == 0.0


def test_parse_retry_after() -> None:
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("5") == 5.0
    assert parse_retry_after(" 1.5 ") == 1.5
    assert (
        parse_retry_after(format_datetime(now + timedelta(seconds=20), usegmt=True), now=now)
        == 20.0
    )
    assert parse_retry_after("Wed, 01 Jan 2025 11:00:00 GMT", now=now) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after("") is None
    assert parse_retry_after(None) is None
    assert parse_retry_after("nan") is None
    assert parse_retry_after_ms("2500") == 2.5
    assert parse_retry_after_ms("x") is None


@pytest.mark.parametrize(
    ("status", "retryable"),
    [
        (408, True),
        (409, True),
        (429, True),
        (500, True),
        (503, True),
        (599, True),
        (400, False),
        (401, False),
        (403, False),
        (404, False),
        (422, False),
    ],
)
def test_retryable_statuses(status: int, retryable: bool) -> None:
    assert is_retryable_status(status) is retryable


def test_scrub_and_redact() -> None:
    assert scrub("key sk-1 and sk-1 again", ["sk-1", ""]) == "key *** and *** again"
    assert scrub("EMPTY stays", ["EMPTY"]) == "EMPTY stays"
    assert redact_url("https://u:p@host:8443/v1?api_key=s#f") == "https://***@host:8443/v1"
    assert redact_url("http://localhost:8000/v1") == "http://localhost:8000/v1"
    assert truncate("x" * 10, 4) == "xxxx... [6 more chars]"


def test_endpoint_limits_share_and_validate() -> None:
    limits = EndpointLimits(default_limit=4)
    first = limits.limiter("http://H/v1/")
    assert limits.limiter("http://h/v1") is first
    assert limits.limiter("http://h/v1", 9) is first and limits.limit_of("http://h/v1") == 4
    assert limits.limiter("http://other/v1") is not first
    with pytest.raises(ValueError):
        limits.limiter("http://x", 0)
