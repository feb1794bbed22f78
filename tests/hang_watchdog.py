"""The per-test watchdog's timer (pytest-timeout's ``signal`` method, made hard to swallow).

pytest-timeout (``timeout`` and ``timeout_method = "signal"`` in pyproject.toml) raises
pytest's ``Failed`` from its SIGALRM handler, once. Two things can swallow that and leave the
suite blocked:

* Hypothesis catches ``Failed`` as a failing example and runs the example again to shrink it:
  a hanging example then hangs again, with no alarm left (a property test of the worker
  backend did exactly that when a change made the run wait on dead workers);
* code under test that catches ``BaseException`` or waits again in its clean-up.

So this timer (the plugin's documented ``pytest_timeout_set_timer`` hook; its options,
markers, debugger detection and stack dumps stay the plugin's) raises :class:`Hung`, which is
neither an ``Exception`` nor ``Failed``, so Hypothesis lets it through; it fires again every
``min(timeout, 60)`` seconds while the test has not ended; and at the fourth firing it falls
back to the plugin's ``thread`` behaviour: the stacks, then ``os._exit(1)``. Under xdist the
worker is replaced and the suite goes on; in one process the run ends, failed.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

import pytest
from pytest_timeout import Settings, dump_stacks, is_debugging, timeout_timer

REPEAT_S = 60.0
"""Seconds between two alarms after the first, at most (a timeout below it repeats at its own
period)."""

LAST_RESORT = 4
"""The firing at which the process ends (stacks, then ``os._exit(1)``)."""


class Hung(BaseException):
    """Raised in a test that outlived its timeout.

    A ``BaseException`` and not pytest's ``Failed``: Hypothesis would take ``Failed`` (or any
    ``Exception``) for a failing example and run it again, and code under test that catches
    ``Exception`` would swallow it. pytest reports it as the test's failure.
    """


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Settings) -> bool | None:
    """Arm the repeating alarm for ``item`` (the ``signal`` method in the main thread; anything
    else is left to the plugin)."""
    if settings.method != "signal" or threading.current_thread() is not threading.main_thread():
        return None
    fired = 0

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal fired
        __tracebackhide__ = True
        if not settings.disable_debugger_detection and is_debugging():
            return
        fired += 1
        if fired >= LAST_RESORT:
            timeout_timer(item, settings)  # the stacks, then os._exit(1)
        terminal = item.config.get_terminal_writer()
        terminal.sep("+", title=f"Timeout (alarm {fired} of {LAST_RESORT - 1} before exit)")
        dump_stacks(terminal)
        terminal.sep("+", title="Timeout")
        raise Hung(f"Timeout (>{settings.timeout}s) from pytest-timeout: the test hung")

    def cancel() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)

    item.cancel_timeout = cancel  # type: ignore[attr-defined]  # the plugin's cancel calls it
    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, settings.timeout, min(settings.timeout, REPEAT_S))
    return True
