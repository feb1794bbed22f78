"""The memo of simulated answers: once the tool simulator has answered a call, the same call
(same cache key) gets the same answer for the rest of the run and in later runs that use the
same folder. SQLite in WAL mode; the first stored answer wins (also across processes)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from lifebench.messages import Usage

MEMO_FILENAME = "travel_sandbox_memo.sqlite"

_CREATE = """
CREATE TABLE IF NOT EXISTS simulated (
    tool TEXT NOT NULL,
    key TEXT NOT NULL,
    params TEXT NOT NULL,
    time TEXT NOT NULL,
    result TEXT NOT NULL,
    model TEXT NOT NULL,
    usage TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (tool, key)
)
"""


@dataclass(frozen=True)
class MemoEntry:
    """One memoised answer and the usage of the simulator call that produced it."""

    result: str
    model: str
    usage: Usage


class SimulationMemo:
    """Memoised simulator answers in ``<folder>/travel_sandbox_memo.sqlite``."""

    def __init__(self, folder: Path, *, busy_timeout_s: float = 30.0) -> None:
        self.path = folder / MEMO_FILENAME
        self._timeout = busy_timeout_s
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=self._timeout
            )
            deadline = time.monotonic() + self._timeout
            while True:
                try:
                    conn.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
                    conn.execute("PRAGMA journal_mode = WAL")
                    conn.execute(_CREATE)
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        conn.close()
                        raise
                    time.sleep(0.01)
            self._conn = conn
        return self._conn

    def _get_sync(self, tool: str, key: str) -> MemoEntry | None:
        with self._lock:
            row = (
                self._connection()
                .execute(
                    "SELECT result, model, usage FROM simulated WHERE tool = ? AND key = ?",
                    (tool, key),
                )
                .fetchone()
            )
        if row is None:
            return None
        return MemoEntry(str(row[0]), str(row[1]), Usage.model_validate_json(row[2]))

    def _put_sync(
        self, tool: str, key: str, params: str, when: str, result: str, model: str, usage: Usage
    ) -> MemoEntry:
        with self._lock:
            self._connection().execute(
                "INSERT OR IGNORE INTO simulated (tool, key, params, time, result, model, usage, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (tool, key, params, when, result, model, usage.model_dump_json(), time.time()),
            )
        stored = self._get_sync(tool, key)
        assert stored is not None
        return stored

    async def get(self, tool: str, key: str) -> MemoEntry | None:
        """The memoised answer of ``key``, if any."""
        return await asyncio.to_thread(self._get_sync, tool, key)

    async def put(
        self, tool: str, key: str, params: str, when: str, result: str, model: str, usage: Usage
    ) -> MemoEntry:
        """Store an answer; returns the stored one (an earlier answer wins)."""
        return await asyncio.to_thread(
            self._put_sync, tool, key, params, when, result, model, usage
        )

    def __len__(self) -> int:
        with self._lock:
            row = self._connection().execute("SELECT COUNT(*) FROM simulated").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the connection (it reopens on next use)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
