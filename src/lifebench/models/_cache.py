"""Content-addressed on-disk cache of model calls (SQLite, WAL mode, one table)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from pydantic import ValidationError

from lifebench._util.hashing import stable_hash
from lifebench.messages import AssistantMessage, Usage
from lifebench.models._limits import endpoint_key
from lifebench.models._types import GenerateConfig

_log = logging.getLogger(__name__)

CACHE_SCHEMA_VERSION = 1
"""Part of every key; bump it when the key recipe or the stored value changes."""

_CREATE = """
CREATE TABLE IF NOT EXISTS model_calls (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""


def cache_key(
    *,
    base_url: str,
    model: str,
    messages: Sequence[dict[str, Any]],
    tools: Sequence[dict[str, Any]] | None,
    config: GenerateConfig,
) -> str:
    """The sha256 of the canonical JSON of everything that determines a model call.

    Args:
        base_url: The endpoint (normalised like the concurrency limits).
        model: The provider's model id.
        messages: The messages exactly as sent (OpenAI dicts).
        tools: The tool schemas sent, if any.
        config: The effective generation config, seed included.

    Returns:
        A 64-character hex digest.
    """
    return stable_hash(
        {
            "v": CACHE_SCHEMA_VERSION,
            "base_url": endpoint_key(base_url),
            "model": model,
            "messages": list(messages),
            "tools": list(tools) if tools else None,
            "config": config.model_dump(mode="json"),
        }
    )


class ModelCache:
    """Answers of earlier model calls, keyed by :func:`cache_key`.

    Safe under concurrent asyncio use (SQLite work runs in a worker thread under a lock)
    and across processes (WAL journal and a busy timeout). The connection opens on first use.

    Args:
        path: The SQLite file; its parent directory is created when needed.
        busy_timeout_s: How long to wait for another process's write lock.
    """

    def __init__(self, path: str | Path, *, busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self._busy_timeout_ms = int(busy_timeout_s * 1000)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def __repr__(self) -> str:
        return f"ModelCache(path={str(self.path)!r})"

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path,
                check_same_thread=False,
                isolation_level=None,
                timeout=self._busy_timeout_ms / 1000,
            )
            # Switching to WAL and creating the table need a brief exclusive lock; when another
            # connection is initialising the same file at that instant SQLite can answer
            # "database is locked" without waiting, so retry for a bounded time.
            deadline = time.monotonic() + self._busy_timeout_ms / 1000
            while True:
                try:
                    conn.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
                    conn.execute("PRAGMA journal_mode = WAL")
                    conn.execute("PRAGMA synchronous = NORMAL")
                    conn.execute(_CREATE)
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        conn.close()
                        raise
                    time.sleep(0.01)
            self._conn = conn
        return self._conn

    def _get_sync(self, key: str) -> str | None:
        with self._lock:
            row = (
                self._connection()
                .execute("SELECT response FROM model_calls WHERE key = ?", (key,))
                .fetchone()
            )
        return None if row is None else str(row[0])

    def _put_sync(self, key: str, model: str, response: str) -> None:
        with self._lock:
            self._connection().execute(
                "INSERT OR IGNORE INTO model_calls (key, model, response, created_at) "
                "VALUES (?, ?, ?, ?)",
                (key, model, response, time.time()),
            )

    async def get(self, key: str) -> AssistantMessage | None:
        """The cached answer of ``key``, marked ``usage.cached=True`` with cost 0, or ``None``.

        An unreadable stored value, or a cache file that cannot be read, counts as a miss
        (with a warning): the cache only saves calls, it never makes one fail.
        """
        try:
            stored = await asyncio.to_thread(self._get_sync, key)
        except sqlite3.Error as exc:
            _log.warning("model cache %s unreadable (%s); treating as a miss", self.path, exc)
            return None
        if stored is None:
            return None
        try:
            message = AssistantMessage.model_validate_json(stored)
        except ValidationError:
            _log.warning("ignoring unreadable model-cache entry %s", key[:12])
            return None
        usage = message.usage or Usage()
        return message.model_copy(
            update={
                "usage": Usage(
                    prompt_tokens=usage.prompt_tokens,
                    completion_tokens=usage.completion_tokens,
                    cost=0.0,
                    cached=True,
                    retries=0,
                )
            }
        )

    async def put(self, key: str, model: str, message: AssistantMessage) -> None:
        """Store ``message`` as the answer of ``key`` (the first stored answer wins).

        Args:
            key: The :func:`cache_key` of the call.
            model: The model id (kept for inspection only).
            message: The answer to store.

        A write that fails is logged and skipped.
        """
        try:
            await asyncio.to_thread(self._put_sync, key, model, message.model_dump_json())
        except sqlite3.Error as exc:
            _log.warning("could not write to model cache %s (%s)", self.path, exc)

    def __len__(self) -> int:
        with self._lock:
            row = self._connection().execute("SELECT COUNT(*) FROM model_calls").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the connection (it reopens on next use)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> ModelCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
