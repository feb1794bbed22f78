"""The endpoint's shared health: first contact one call at a time, the circuit breaker, and
when an endpoint is declared unreachable or down. No clock, no sleep: only event order."""

from __future__ import annotations

import asyncio

import pytest

from lifebench.errors import FatalProviderError
from lifebench.models._health import BREAKER, EndpointHealth, HealthPolicy


def _health(**policy: int) -> EndpointHealth:
    return EndpointHealth("http://h/v1", HealthPolicy(**policy))  # type: ignore[arg-type]


async def _admitted(health: EndpointHealth, model: str, call: object) -> bool:
    """Whether ``call`` is admitted without waiting."""
    task = asyncio.ensure_future(health.admit(model, call))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    if task.done():
        task.result()
        return True
    task.cancel()
    return False


async def test_first_contact_goes_alone_until_the_model_answers() -> None:
    health = _health()
    first, second = object(), object()
    assert await _admitted(health, "m", first)
    assert not await _admitted(health, "m", second)
    assert await _admitted(health, "other-model", second)  # each model proves itself
    waiting = asyncio.ensure_future(health.admit("m", second))
    await asyncio.sleep(0)
    health.on_answer("m", success=True)
    await waiting  # released by the answer
    assert await _admitted(health, "m", object())  # now everyone flows
    assert health.answered("m") and not health.answered("never")


async def test_a_failed_first_contact_keeps_the_slot_until_its_call_ends() -> None:
    health = _health()
    first, second = object(), object()
    await health.admit("m", first)
    assert health.on_failure("HTTP 500", connect=False) is None
    assert not await _admitted(health, "m", second)  # the first call retries alone
    assert await _admitted(health, "m", first)
    waiting = asyncio.ensure_future(health.admit("m", second))
    await asyncio.sleep(0)
    health.leave(first)  # gave up: the next call takes over
    await waiting


async def test_fatal_first_contact_is_raised_by_the_waiting_calls_too() -> None:
    health = _health()
    first = object()
    await health.admit("m", first)
    waiters = [asyncio.ensure_future(health.admit("m", object())) for _ in range(3)]
    await asyncio.sleep(0)
    health.leave(first, FatalProviderError("HTTP 401: bad key", status=401))
    results = await asyncio.gather(*waiters, return_exceptions=True)
    assert all(isinstance(r, FatalProviderError) and "bad key" in str(r) for r in results)
    assert all(isinstance(r, FatalProviderError) and r.status == 401 for r in results)
    assert await _admitted(health, "m", object())  # a later call may try again


async def test_unreachable_after_three_connection_failures_without_an_answer() -> None:
    health = _health(unreachable_after=3)
    assert health.on_failure("connection refused", connect=True) is None
    assert health.on_failure("connection refused", connect=True) is None
    waiter_holder = object()
    await health.admit("m", waiter_holder)
    waiting = asyncio.ensure_future(health.admit("m", object()))
    await asyncio.sleep(0)
    dead = health.on_failure("connection refused", connect=True)
    assert dead is not None and "cannot reach http://h/v1: connection refused (3 attempts" in str(
        dead
    )
    with pytest.raises(FatalProviderError, match="cannot reach"):
        await waiting
    with pytest.raises(FatalProviderError, match="cannot reach"):
        await health.admit("m", object())


async def test_connection_failures_after_an_answer_are_not_unreachable() -> None:
    health = _health(unreachable_after=3, trip_after=100)
    health.on_answer("m", success=True)
    for _ in range(10):
        assert health.on_failure("connection refused", connect=True) is None
    assert health.dead is None


async def test_breaker_opens_after_failures_in_a_row_and_closes_on_an_answer() -> None:
    health = _health(trip_after=5)
    health.on_answer("m", success=True)
    for _ in range(4):
        health.on_failure("HTTP 503", connect=False)
    health.on_answer("m", success=True)  # an answer breaks the streak
    for _ in range(4):
        health.on_failure("HTTP 503", connect=False)
    assert not health.is_open
    health.on_failure("HTTP 503", connect=False)
    assert health.is_open and health.trips == 1
    prober, other = object(), object()
    assert await _admitted(health, "m", prober)  # one probe at a time
    assert not await _admitted(health, "m", other)
    waiting = asyncio.ensure_future(health.admit("m", other))
    await asyncio.sleep(0)
    health.on_answer("m", success=True)
    await waiting
    assert not health.is_open


async def test_breaker_waits_at_least_its_backoff_between_probes() -> None:
    health = _health(trip_after=1)
    policy = health.policy
    health.on_answer("m", success=True)
    assert health.retry_delay(0.1) == 0.1  # closed: the call's own backoff
    health.on_failure("HTTP 503", connect=False)
    assert health.retry_delay(0.1) == policy.probe_delay(0) == 1.0
    health.on_failure("HTTP 503", connect=False)  # not a probe: the wait stays
    assert health.retry_delay(0.1) == 1.0
    health.on_failure("HTTP 503", connect=False, probe=True)  # a failed probe doubles it
    assert health.retry_delay(0.1) == 2.0
    assert health.retry_delay(30.0) == 30.0  # a longer Retry-After wins


async def test_down_after_the_probe_budget() -> None:
    health = _health(trip_after=2, probe_budget=3)
    health.on_answer("m", success=True)
    health.on_failure("HTTP 503", connect=False)
    health.on_failure("HTTP 503", connect=False)
    assert health.is_open
    prober = object()
    assert await health.admit("m", prober) == BREAKER
    waiting = asyncio.ensure_future(health.admit("m", object()))
    for _ in range(5):  # requests that were in flight when it opened are not probes
        assert health.on_failure("HTTP 503", connect=False) is None
    assert health.on_failure("HTTP 503", connect=False, probe=True) is None
    assert health.on_failure("HTTP 503", connect=False, probe=True) is None
    dead = health.on_failure("HTTP 503: injected", connect=False, probe=True)
    assert dead is not None
    assert "http://h/v1 is down: 10 requests in a row failed, the last 3 one at a time" in str(dead)
    assert str(dead).endswith("last error: HTTP 503: injected")
    with pytest.raises(FatalProviderError, match="is down"):
        await waiting


async def test_a_refused_model_stays_refused_other_models_not() -> None:
    health = _health()
    call = object()
    await health.admit("m", call)
    health.refuse("m", call, FatalProviderError("HTTP 404: no such model", status=404))
    with pytest.raises(FatalProviderError, match="no such model"):
        await health.admit("m", object())
    assert await _admitted(health, "other", object())
