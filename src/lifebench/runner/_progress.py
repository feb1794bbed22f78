"""Live progress of a run: done / running / retrying / failed / rejected units and an ETA.

On a terminal this is a ``rich`` progress bar. When the console is not a terminal (CI logs, a
pipe) it prints one plain line at start, at most every ``plain_interval_s`` seconds as units
finish, and at the end. ``quiet=True`` prints nothing; counters are still kept.

The model layer reports retries through :class:`RetryObserver`: call ``retrying(+1)`` when a
call starts waiting to retry and ``retrying(-1)`` when that retried attempt ends (whatever its
result). :class:`Progress` implements it, so "stuck" runs show that they are retrying.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # rich's progress bar is imported when one is shown (on a terminal)
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


@runtime_checkable
class RetryObserver(Protocol):
    """Told when model calls start (``+1``) and stop (``-1``) retrying."""

    def retrying(self, delta: int) -> None:
        """Adjust the number of calls currently retrying by ``delta``."""
        ...


@dataclass(frozen=True)
class ProgressCounts:
    """A snapshot of the counters of a :class:`Progress`."""

    total: int
    skipped: int
    finished: int
    running: int
    retrying: int
    failed: int
    retries_total: int
    rejected: int = 0

    @property
    def completed(self) -> int:
        """Units no longer to run: skipped (already done) plus finished this session."""
        return self.skipped + self.finished


def _clock_text(seconds: float) -> str:
    s = max(0, round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def eta_text(elapsed_s: float | None, finished: int, remaining: float | None) -> str:
    """``ETA h:mm:ss`` from this session's throughput; ``ETA -:--:--`` before it is known."""
    if not elapsed_s or not finished or remaining is None:
        return "ETA -:--:--"
    return "ETA " + _clock_text(elapsed_s / finished * remaining)


def _rich_progress(console: Console) -> RichProgress:
    """The progress bar shown on a terminal."""
    from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, Task, TextColumn
    from rich.progress import Progress as RichProgress
    from rich.text import Text

    class _EtaColumn(ProgressColumn):
        """ETA from units finished in this session only (resumed units would skew rich's)."""

        def render(self, task: Task) -> Text:
            finished = int(task.fields.get("finished", 0))
            eta = eta_text(task.elapsed, finished, task.remaining)
            return Text(eta, style="progress.remaining")

    return RichProgress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("running {task.fields[running]}"),
        TextColumn("[yellow]retrying {task.fields[retrying]}[/] ({task.fields[retries]})"),
        TextColumn("[red]failed {task.fields[failed]}"),
        TextColumn("[magenta]rejected {task.fields[rejected]}"),
        _EtaColumn(),
        console=console,
        transient=False,
    )


class Progress:
    """Progress display of a batch of units; safe to call from the event loop and threads."""

    def __init__(
        self,
        *,
        quiet: bool = False,
        console: Console | None = None,
        description: str = "lifebench",
        plain_interval_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Configure the display; nothing is shown until :meth:`start`."""
        self._quiet = quiet
        self._console = console
        self._description = description
        self._plain_interval_s = plain_interval_s
        self._clock = clock
        self._lock = threading.Lock()
        self._total = self._skipped = self._finished = 0
        self._running = self._retrying = self._failed = self._retries_total = 0
        self._rejected = 0
        self._rich: RichProgress | None = None
        self._task_id: TaskID | None = None
        self._started_at: float | None = None
        self._last_plain: float | None = None
        self._last_plain_counts: ProgressCounts | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self, total: int, already_done: int = 0) -> None:
        """Begin showing a batch of ``total`` units, ``already_done`` of them from a prior run."""
        with self._lock:
            self._total, self._skipped = total, already_done
            self._finished = self._running = self._failed = self._rejected = 0
            self._started_at = self._clock()
        if self._quiet:
            return
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=True)
        console = self._console
        if console.is_terminal and not console.is_dumb_terminal:
            self._rich = _rich_progress(console)
            self._rich.start()
            self._task_id = self._rich.add_task(
                self._description, total=total, completed=already_done, **self._fields()
            )
        else:
            self._print_plain(force=True)

    def stop(self) -> None:
        """Stop the display, printing the final state (idempotent)."""
        if self._rich is not None:
            self._refresh()
            self._rich.stop()
            self._rich = None
        elif not self._quiet and self._started_at is not None:
            self._print_plain(force=True)
        self._started_at = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ------------------------------------------------------------------ events

    def unit_started(self) -> None:
        """A unit began executing."""
        with self._lock:
            self._running += 1
        self._refresh()

    def unit_finished(self, *, failed: bool = False, rejected: bool = False) -> None:
        """A unit finished; ``failed`` for an infrastructure error, ``rejected`` for a request
        the provider refused for its content."""
        with self._lock:
            self._running = max(0, self._running - 1)
            self._finished += 1
            self._failed += int(failed)
            self._rejected += int(rejected)
        self._refresh()
        self._print_plain(force=False)

    def unit_cancelled(self) -> None:
        """A running unit was cancelled (it stays pending)."""
        with self._lock:
            self._running = max(0, self._running - 1)
        self._refresh()

    def retrying(self, delta: int) -> None:
        """:class:`RetryObserver` hook: ``+1`` when a call starts retrying, ``-1`` when done."""
        with self._lock:
            self._retrying = max(0, self._retrying + delta)
            if delta > 0:
                self._retries_total += delta
        self._refresh()

    # ------------------------------------------------------------------ reading

    @property
    def counts(self) -> ProgressCounts:
        """Current counters."""
        with self._lock:
            return ProgressCounts(
                total=self._total,
                skipped=self._skipped,
                finished=self._finished,
                running=self._running,
                retrying=self._retrying,
                failed=self._failed,
                retries_total=self._retries_total,
                rejected=self._rejected,
            )

    # ------------------------------------------------------------------ rendering

    def _fields(self) -> dict[str, Any]:
        c = self.counts
        return {
            "running": c.running,
            "retrying": c.retrying,
            "retries": c.retries_total,
            "failed": c.failed,
            "rejected": c.rejected,
            "finished": c.finished,
        }

    def _refresh(self) -> None:
        if self._rich is not None and self._task_id is not None:
            self._rich.update(self._task_id, completed=self.counts.completed, **self._fields())

    def _print_plain(self, *, force: bool) -> None:
        if self._quiet or self._rich is not None or self._console is None:
            return
        if self._started_at is None:
            return
        now = self._clock()
        counts = self.counts
        due = (
            self._last_plain is None
            or now - self._last_plain >= self._plain_interval_s
            or counts.completed >= counts.total
        )
        if not (force or due) or counts == self._last_plain_counts:
            return
        self._last_plain, self._last_plain_counts = now, counts
        self._console.print(self._plain_line(counts, now), markup=False, highlight=False)

    def _plain_line(self, c: ProgressCounts, now: float) -> str:
        elapsed = 0.0 if self._started_at is None else now - self._started_at
        skipped = f" ({c.skipped} from before)" if c.skipped else ""
        return (
            f"[{self._description}] {c.completed}/{c.total} done{skipped} | "
            f"running {c.running} | retrying {c.retrying} ({c.retries_total} retries) | "
            f"failed {c.failed} | rejected {c.rejected} | elapsed {_clock_text(elapsed)} | "
            f"{eta_text(elapsed, c.finished, c.total - c.completed)}"
        )
