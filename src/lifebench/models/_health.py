"""The health of one endpoint, shared by every call to it in a run: one retry budget, not one
per unit.

Two rules decide who may send a request:

* **First contact.** Until a model has answered once at this endpoint, one of its calls at a
  time talks to it; the others wait. A wrong key, an unknown model or a dead endpoint is
  therefore found by one request (or a few retries of one), not by every unit in flight, and
  the waiting calls get the same :class:`~lifebench.errors.FatalProviderError` at once; so do
  later calls of that model (the provider refuses every one of them).
* **Circuit breaker.** ``trip_after`` failed requests in a row (429, 5xx, timeouts, broken
  connections — across all calls) open the breaker: from then on one call at a time probes
  the endpoint, waiting between probes at least the breaker's backoff (``base × multiplier^k``,
  capped, or longer when the server sent ``Retry-After``); the other calls wait for the probe
  instead of each spending its own retries. A probe that gets an answer closes the breaker. When
  ``probe_budget`` probes in a row have failed, the endpoint is declared down: every waiting and
  later call raises :class:`~lifebench.errors.FatalProviderError` with the last error, and the
  run stops (finished units are saved; re-running resumes).

A connection that cannot be made (refused, host not found) before the endpoint has ever
answered counts as well: after ``unreachable_after`` such attempts the endpoint is declared
unreachable (fatal), within seconds.

Nothing here sleeps or reads a clock: waits between attempts are the calling model's retry
sleeps (so the progress line counts each retry once), and waiting calls wake when the call
holding the probe finishes. All state is per instance (one per endpoint per run).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from lifebench.errors import FatalProviderError

BREAKER = ""
"""The slot key of the breaker's probe (model slots are keyed by model id)."""


@dataclass(frozen=True)
class HealthPolicy:
    """When the endpoint's breaker opens and how long it waits between probes."""

    trip_after: int = 5
    """Failed requests in a row (any call) that open the breaker."""
    unreachable_after: int = 3
    """Failed connections in a row, before any answer, after which the endpoint is fatal."""
    probe_budget: int = 6
    """Failed probes in a row after which the endpoint is declared down (fatal)."""
    base_delay_s: float = 1.0
    multiplier: float = 2.0
    max_delay_s: float = 60.0

    def probe_delay(self, failed_probes: int) -> float:
        """The least wait before the next probe (``failed_probes`` have failed so far)."""
        return min(self.max_delay_s, self.base_delay_s * self.multiplier**failed_probes)


def _copy(error: FatalProviderError) -> FatalProviderError:
    """A fresh exception per raising call (one object raised by many tasks would pile up
    their tracebacks)."""
    return FatalProviderError(str(error), status=error.status)


class EndpointHealth:
    """The shared state of one endpoint (see the module docstring).

    Args:
        display: The endpoint as shown in messages (no credentials).
        policy: Thresholds and the breaker's backoff.
    """

    def __init__(self, display: str, policy: HealthPolicy | None = None) -> None:
        self.display = display
        self.policy = policy or HealthPolicy()
        self._answered: set[str] = set()
        self._holders: dict[str, object] = {}
        self._released: dict[str, asyncio.Future[FatalProviderError | None]] = {}
        self._failures = 0
        self._unreachable = 0
        self._ever_answered = False
        self._open = False
        self._failed_probes = 0
        self._dead: FatalProviderError | None = None
        self._refused: dict[str, FatalProviderError] = {}
        self.trips = 0
        """How often the breaker opened (for tests and stats)."""

    # -- what callers ask -------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        """True while the breaker is open (calls go one at a time)."""
        return self._open

    @property
    def dead(self) -> FatalProviderError | None:
        """The error the endpoint was declared down with, if it was."""
        return self._dead

    def answered(self, model: str) -> bool:
        """Whether ``model`` has answered a request at this endpoint."""
        return model in self._answered

    def retry_delay(self, delay: float) -> float:
        """The wait before a call's next attempt: its own backoff, but at least the breaker's
        while it is open."""
        if self._open:
            return max(delay, self.policy.probe_delay(self._failed_probes))
        return delay

    def _slot(self, model: str) -> str | None:
        if self._open:
            return BREAKER
        return None if model in self._answered else model

    async def admit(self, model: str, call: object) -> str | None:
        """Wait until ``call`` may send a request for ``model``.

        Returns:
            The slot the request holds: :data:`BREAKER` for the breaker's probe, the model id
            for a first contact, ``None`` when requests flow freely.

        Raises:
            FatalProviderError: The endpoint is down, or the call holding the probe this call
                waited for found that the provider refuses every call.
        """
        while True:
            if self._dead is not None:
                raise _copy(self._dead)
            refused = self._refused.get(model)
            if refused is not None:
                raise _copy(refused)
            slot = self._slot(model)
            if slot is None:
                return None
            holder = self._holders.get(slot)
            if holder is None or holder is call:
                self._holders[slot] = call
                return slot
            released = self._released.get(slot)
            if released is None or released.done():
                released = asyncio.get_running_loop().create_future()
                self._released[slot] = released
            error = await asyncio.shield(released)
            if error is not None:
                raise _copy(error)

    def refuse(self, model: str, call: object, error: FatalProviderError) -> None:
        """The provider refuses every call of ``model`` (``error``): the calls waiting for
        ``call`` and every later call of that model raise it without sending anything."""
        self._refused[model] = error
        self.leave(call, error)

    def leave(self, call: object, error: FatalProviderError | None = None) -> None:
        """``call`` is over: release what it holds (``error``: tell the waiters it was fatal)."""
        for slot in [s for s, holder in self._holders.items() if holder is call]:
            self._release(slot, error)

    def _release(self, slot: str, error: FatalProviderError | None = None) -> None:
        self._holders.pop(slot, None)
        released = self._released.pop(slot, None)
        if released is not None and not released.done():
            released.set_result(error)

    # -- what happened ------------------------------------------------------------------------

    def on_answer(self, model: str, *, success: bool) -> None:
        """The endpoint answered (``success``: with a usable completion for ``model``)."""
        self._ever_answered = True
        self._failures = self._unreachable = self._failed_probes = 0
        if success and model not in self._answered:
            self._answered.add(model)
            self._release(model)
        if self._open:
            self._open = False
            self._release(BREAKER)

    def on_failure(
        self, detail: str, *, connect: bool, probe: bool = False
    ) -> FatalProviderError | None:
        """A request failed without a usable answer.

        Args:
            detail: What happened (the last error named when the endpoint is declared down).
            connect: No connection could be made (refused, name not resolved).
            probe: The request was the breaker's probe (it held :data:`BREAKER`); failures
                of requests already in flight when the breaker opened are not probes.

        Returns:
            The fatal error when this failure declared the endpoint unreachable or down.
        """
        if self._dead is not None:
            return self._dead
        self._failures += 1
        if connect and not self._ever_answered:
            self._unreachable += 1
            if self._unreachable >= self.policy.unreachable_after:
                return self._declare_dead(
                    f"cannot reach {self.display}: {detail} "
                    f"({self._unreachable} attempts, no answer yet)"
                )
        if probe and self._open:
            self._failed_probes += 1
            if self._failed_probes >= self.policy.probe_budget:
                return self._declare_dead(
                    f"{self.display} is down: {self._failures} requests in a row failed, the "
                    f"last {self._failed_probes} one at a time with growing waits; last error: "
                    f"{detail}"
                )
        elif not self._open and self._failures >= self.policy.trip_after:
            self._open = True
            self.trips += 1
        return None

    def _declare_dead(self, message: str) -> FatalProviderError:
        self._dead = FatalProviderError(message)
        for slot in list(self._released):
            self._release(slot, self._dead)
        self._holders.clear()
        return self._dead
