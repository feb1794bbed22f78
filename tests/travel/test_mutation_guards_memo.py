"""Survivors of mutation testing in ``travel/sandbox/memo.py``, pinned by their effect.

Opening the memo retries while another process holds the database locked (a second worker
creating the table or switching it to WAL at the same moment), promptly and only until the busy
timeout has passed; any other error is raised at once; a connection that gave up is closed. The
busy timeout is handed to SQLite in milliseconds, the connection commits every statement
(another connection sees an answer at once) and may be used from the worker threads the async
methods run in.

The lock is simulated by a connection whose first statements raise SQLite's own "database is
locked" error, and the clock is a counter the test advances: nothing depends on timing.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from lifebench.messages import Usage
from lifebench.travel.sandbox import memo as memo_module
from lifebench.travel.sandbox.memo import MEMO_FILENAME, MemoEntry, SimulationMemo

USAGE = Usage(prompt_tokens=5, completion_tokens=7, cost=0.25)


class FlakyConnection:
    """A real connection whose first ``failures`` statements raise ``error``."""

    def __init__(self, real: sqlite3.Connection, failures: int, error: str) -> None:
        self.real = real
        self.failures = failures
        self.error = error
        self.attempts: list[str] = []
        self.closed = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self.attempts.append(sql)
        if self.failures > 0:
            self.failures -= 1
            raise sqlite3.OperationalError(self.error)
        return self.real.execute(sql, *args)

    def close(self) -> None:
        self.closed = True
        self.real.close()


class Clock:
    """``time.monotonic`` and ``time.sleep`` for the memo module: sleeping advances the clock."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def time(self) -> float:
        return 1.7e9


def flaky(
    monkeypatch: pytest.MonkeyPatch, failures: int, error: str = "database is locked"
) -> tuple[list[FlakyConnection], list[dict[str, Any]], Clock]:
    made: list[FlakyConnection] = []
    calls: list[dict[str, Any]] = []
    connect = sqlite3.connect

    def fake_connect(path: Any, **kwargs: Any) -> FlakyConnection:
        calls.append({"path": path, **kwargs})
        conn = FlakyConnection(connect(path, **kwargs), failures, error)
        made.append(conn)
        return conn

    clock = Clock()
    monkeypatch.setattr(memo_module.sqlite3, "connect", fake_connect)
    monkeypatch.setattr(memo_module, "time", clock)
    return made, calls, clock


def test_opening_retries_while_the_database_is_locked_then_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, calls, clock = flaky(monkeypatch, failures=3)
    memo = SimulationMemo(tmp_path / "run", busy_timeout_s=2.5)
    stored = asyncio.run(memo.put("web_search", "K", "P", "T", "answer", "sim", USAGE))
    assert stored == MemoEntry("answer", "sim", USAGE)
    assert asyncio.run(memo.get("web_search", "K")) == stored
    assert len(memo) == 1
    # one connection, three refused attempts, then the setup ran to its end
    assert len(made) == 1 and not made[0].closed
    assert clock.sleeps and all(0 < s <= 0.05 for s in clock.sleeps)
    assert len(clock.sleeps) == 3
    assert calls[0]["timeout"] == 2.5
    assert calls[0]["isolation_level"] is None
    assert calls[0]["check_same_thread"] is False
    memo.close()


def test_opening_gives_up_after_the_busy_timeout_and_closes_the_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, _, clock = flaky(monkeypatch, failures=10**6)
    memo = SimulationMemo(tmp_path, busy_timeout_s=0.5)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        len(memo)
    assert len(made) == 1 and made[0].closed
    # it kept trying for the whole busy timeout, and not much longer
    waited = sum(clock.sleeps)
    assert 0.5 <= waited <= 0.6


@pytest.mark.parametrize("error", ["disk I/O error", "no such table: simulated"])
def test_an_error_other_than_a_lock_is_raised_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: str
) -> None:
    made, _, clock = flaky(monkeypatch, failures=1, error=error)
    memo = SimulationMemo(tmp_path)
    with pytest.raises(sqlite3.OperationalError, match=error):
        len(memo)
    assert clock.sleeps == []
    assert len(made) == 1 and made[0].closed and len(made[0].attempts) == 1


def test_the_busy_timeout_is_given_to_sqlite_in_milliseconds(tmp_path: Path) -> None:
    memo = SimulationMemo(tmp_path / "a" / "b", busy_timeout_s=2.5)
    assert len(memo) == 0  # the folders are made
    conn = memo._connection()
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 2500
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert SimulationMemo(tmp_path).path == tmp_path / MEMO_FILENAME
    default = SimulationMemo(tmp_path / "c")
    assert default._connection().execute("PRAGMA busy_timeout").fetchone()[0] == 30000
    memo.close()
    default.close()


def test_an_answer_is_visible_to_another_connection_at_once(tmp_path: Path) -> None:
    writer, reader = SimulationMemo(tmp_path), SimulationMemo(tmp_path)
    asyncio.run(writer.put("web_search", "K", "P", "T", "first", "sim", USAGE))
    # no commit, no close: the writer's connection commits every statement
    got = asyncio.run(reader.get("web_search", "K"))
    assert got == MemoEntry("first", "sim", USAGE)
    with sqlite3.connect(tmp_path / MEMO_FILENAME, timeout=0) as plain:
        assert plain.execute("SELECT COUNT(*) FROM simulated").fetchone()[0] == 1
        # the writer holds no open transaction: another writer is not blocked
        plain.execute(
            "INSERT INTO simulated VALUES ('map_search_places', 'K', 'P', 'T', 'r', 'm', ?, 0)",
            (USAGE.model_dump_json(),),
        )
    assert len(writer) == 2
    writer.close()
    reader.close()


def test_one_memo_serves_several_threads(tmp_path: Path) -> None:
    memo = SimulationMemo(tmp_path)
    assert len(memo) == 0  # opened in this thread
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            memo._put_sync("web_search", f"K{i}", "P", "T", f"r{i}", "sim", USAGE)
        except BaseException as exc:  # pragma: no cover - the failure is asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(memo) == 4
    memo.close()


def test_closing_forgets_the_connection_and_use_reopens_it(tmp_path: Path) -> None:
    memo = SimulationMemo(tmp_path)
    asyncio.run(memo.put("web_search", "K", "P", "T", "first", "sim", USAGE))
    memo.close()
    memo.close()  # closing twice is harmless
    assert asyncio.run(memo.get("web_search", "K")) == MemoEntry("first", "sim", USAGE)
    assert asyncio.run(memo.get("web_search", "other")) is None
    assert asyncio.run(memo.get("map_search_places", "K")) is None
    memo.close()


def test_a_try_at_the_deadline_itself_is_not_the_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the memo gives up only once the busy timeout has *passed*: a lock still held exactly at
    # the deadline is tried again
    made, _, clock = flaky(monkeypatch, failures=0)
    start = clock.now
    deadline = start + 1.0
    real_execute = FlakyConnection.execute

    def execute(self: FlakyConnection, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("PRAGMA busy_timeout") and clock.now <= deadline:
            raise sqlite3.OperationalError("database is locked")
        return real_execute(self, sql, *args)

    def sleep(seconds: float) -> None:
        clock.sleeps.append(seconds)
        clock.now = deadline if clock.now < deadline else clock.now + seconds

    monkeypatch.setattr(FlakyConnection, "execute", execute)
    monkeypatch.setattr(clock, "sleep", sleep)
    memo = SimulationMemo(tmp_path, busy_timeout_s=1.0)
    assert len(memo) == 0
    assert len(clock.sleeps) == 2 and not made[0].closed
    memo.close()
