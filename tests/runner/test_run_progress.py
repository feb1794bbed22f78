"""Progress: quiet, plain (non-TTY) and rich (TTY) modes, and the retry counter."""

from __future__ import annotations

import io

from rich.console import Console

from lifebench.runner import Progress, RetryObserver


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_quiet_prints_nothing() -> None:
    buffer = io.StringIO()
    progress = Progress(quiet=True, console=Console(file=buffer))
    progress.start(total=3)
    progress.unit_started()
    progress.unit_finished(failed=False)
    progress.stop()
    assert buffer.getvalue() == ""
    assert progress.counts.finished == 1


def test_plain_mode_when_not_a_terminal() -> None:
    buffer = io.StringIO()
    clock = FakeClock()
    console = Console(file=buffer, force_terminal=False, width=200)
    progress = Progress(console=console, plain_interval_s=10, clock=clock, description="run")
    progress.start(total=4, already_done=1)
    progress.unit_started()
    clock.now = 5
    progress.unit_finished(failed=False)  # within the interval: no line
    progress.unit_started()
    clock.now = 20
    progress.retrying(+1)
    progress.unit_finished(failed=True)  # interval passed: a line
    progress.unit_started()
    clock.now = 25
    progress.unit_finished(failed=False)  # all done: a line
    progress.stop()  # nothing changed since: no extra line
    lines = buffer.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("[run] 1/4 done (1 from before) | running 0")
    assert "ETA -:--:--" in lines[0]
    assert "3/4 done" in lines[1]
    assert "failed 1" in lines[1]
    assert "retrying 1 (1 retries)" in lines[1]
    assert "ETA 0:00:10" in lines[1]  # 20 s for 2 units, 1 left
    assert "4/4 done" in lines[2]


def test_rich_mode_on_a_terminal() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=160)
    with Progress(console=console) as progress:
        progress.start(total=2)
        progress.unit_started()
        progress.retrying(+1)
        progress.unit_finished(failed=False)
    output = buffer.getvalue()
    assert "retrying 1" in output
    assert "1/2" in output


def test_retry_counter_never_negative_and_is_an_observer() -> None:
    progress = Progress(quiet=True)
    assert isinstance(progress, RetryObserver)
    progress.retrying(-1)
    progress.retrying(+2)
    progress.retrying(-1)
    assert (progress.counts.retrying, progress.counts.retries_total) == (1, 2)
