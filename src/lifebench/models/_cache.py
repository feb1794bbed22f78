"""Content-addressed on-disk cache of model calls (SQLite, WAL mode, one table).

Reads are one primary-key lookup on the event loop's thread (WAL readers never wait for the
writer). Writes are batched: answers wait in memory (where reads see them) and are written in
one transaction, in a worker thread, once ``flush_every`` have gathered or ``flush_interval_s``
has passed, and at :meth:`ModelCache.close`. A killed process loses at most that many cache
entries — never a result (the run store is separate) and never a call's correctness (a missing
entry is a miss). A file that cannot be opened disables the cache for the instance, with one
warning: the cache only saves calls, it never makes one fail.
"""

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

from lifebench.messages import AssistantMessage, Usage
from lifebench.models._limits import endpoint_key
from lifebench.models._secrets import redact_url
from lifebench.models._types import GenerateConfig
from lifebench.models._wire import CACHE_SCHEMA_VERSION, cache_key_of_parts

_log = logging.getLogger(__name__)

__all__ = ["CACHE_SCHEMA_VERSION", "ModelCache", "cache_endpoint", "cache_key"]

_CREATE = """
CREATE TABLE IF NOT EXISTS model_calls (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""


def cache_endpoint(base_url: str) -> str:
    """The endpoint as it enters cache keys: normalised, without user info or query string
    (they may carry credentials, which never reach the cache)."""
    return endpoint_key(redact_url(base_url.strip()))


def cache_key(
    *,
    base_url: str,
    model: str,
    messages: Sequence[dict[str, Any]],
    tools: Sequence[dict[str, Any]] | None,
    config: GenerateConfig,
) -> str:
    """The sha256 of everything that determines a model call (hashed piece by piece, see
    :mod:`lifebench.models._wire`; the model computes the same key from memoised pieces).

    Args:
        base_url: The endpoint (normalised, credentials removed: :func:`cache_endpoint`).
        model: The provider's model id.
        messages: The messages exactly as sent (OpenAI dicts).
        tools: The tool schemas sent, if any.
        config: The effective generation config, seed included.

    Returns:
        A 64-character hex digest.
    """
    return cache_key_of_parts(
        endpoint=cache_endpoint(base_url),
        model=model,
        messages=messages,
        tools=tools,
        config=config,
    )


class ModelCache:
    """Answers of earlier model calls, keyed by :func:`cache_key`.

    Safe under concurrent asyncio use and across processes (WAL journal, busy timeout). The
    connections open on first use.

    Args:
        path: The SQLite file; its parent directory is created when needed.
        busy_timeout_s: How long a write waits for another process's write lock.
        flush_every: Answers gathered before they are written in one transaction.
        flush_interval_s: Seconds after which gathered answers are written anyway.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_s: float = 30.0,
        flush_every: int = 64,
        flush_interval_s: float = 2.0,
    ) -> None:
        self.path = Path(path)
        self._busy_timeout_ms = int(busy_timeout_s * 1000)
        self._flush_every = max(1, flush_every)
        self._flush_interval_s = flush_interval_s
        self._lock = threading.Lock()
        self._reader: sqlite3.Connection | None = None
        self._writer: sqlite3.Connection | None = None
        self._broken = False
        self._pending: dict[str, tuple[str, str, float]] = {}
        self._write_task: asyncio.Future[None] | None = None
        self._last_flush = time.monotonic()

    on_conflict = "IGNORE"
    """What a write does to an answer already stored under the same key: keep it (IGNORE),
    or REPLACE it (a subclass that asks again on purpose)."""

    def __repr__(self) -> str:
        return f"ModelCache(path={str(self.path)!r})"

    def _connect(self, busy_timeout_ms: int) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            self.path,
            check_same_thread=False,
            isolation_level=None,
            timeout=busy_timeout_ms / 1000,
        )
        # Switching to WAL and creating the table need a brief exclusive lock; when another
        # connection is initialising the same file at that instant SQLite can answer
        # "database is locked" without waiting, so retry for a bounded time.
        deadline = time.monotonic() + self._busy_timeout_ms / 1000
        while True:
            try:
                conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute(_CREATE)
                return conn
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    conn.close()
                    raise
                time.sleep(0.01)
            except sqlite3.Error:
                conn.close()
                raise

    def _reading(self) -> sqlite3.Connection | None:
        if self._reader is None and not self._broken:
            try:
                self._reader = self._connect(min(self._busy_timeout_ms, 2000))
            except sqlite3.Error as exc:
                self._broken = True
                self._pending.clear()
                _log.warning("model cache %s unusable (%s); running without it", self.path, exc)
        return self._reader

    def _write(self, batch: dict[str, tuple[str, str, float]]) -> None:
        """Write ``batch`` in one transaction (any thread; serialised by the lock)."""
        with self._lock:
            if self._writer is None:
                self._writer = self._connect(self._busy_timeout_ms)
            conn = self._writer
            conn.execute("BEGIN")
            try:
                conn.executemany(
                    f"INSERT OR {self.on_conflict} INTO model_calls "
                    "(key, model, response, created_at) VALUES (?, ?, ?, ?)",
                    [(key, *value) for key, value in batch.items()],
                )
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _lookup(self, key: str) -> str | None:
        waiting = self._pending.get(key)
        if waiting is not None:
            return waiting[1]
        conn = self._reading()
        if conn is None:
            return None
        try:
            row = conn.execute("SELECT response FROM model_calls WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            _log.warning("model cache %s unreadable (%s); treating as a miss", self.path, exc)
            return None
        return None if row is None else str(row[0])

    async def get(self, key: str) -> AssistantMessage | None:
        """The cached answer of ``key``, marked ``usage.cached=True`` with cost 0, or ``None``.

        An unreadable stored value, or a cache file that cannot be read, counts as a miss
        (with a warning).
        """
        stored = self._lookup(key)
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
                    usage_missing=usage.usage_missing,
                )
            }
        )

    async def put(self, key: str, model: str, message: AssistantMessage) -> None:
        """Store ``message`` as the answer of ``key`` (the first stored answer wins).

        Args:
            key: The :func:`cache_key` of the call.
            model: The model id (kept for inspection only).
            message: The answer to store.

        The answer is written with the next batch; a write that fails is logged and skipped.
        """
        if self._broken or self._reading() is None:
            return
        if key not in self._pending:
            self._pending[key] = (model, message.model_dump_json(), time.time())
        due = time.monotonic() - self._last_flush >= self._flush_interval_s
        if (len(self._pending) >= self._flush_every or due) and self._idle():
            await self._start_write()

    def _idle(self) -> bool:
        task = self._write_task
        return task is None or task.done() or task.get_loop() is not asyncio.get_running_loop()

    async def _start_write(self) -> None:
        task = asyncio.ensure_future(self._write_batch(dict(self._pending)))
        self._write_task = task
        await asyncio.shield(task)

    async def _write_batch(self, batch: dict[str, tuple[str, str, float]]) -> None:
        try:
            await asyncio.to_thread(self._write, batch)
        except sqlite3.Error as exc:
            _log.warning("could not write to model cache %s (%s)", self.path, exc)
        finally:
            self._last_flush = time.monotonic()
            for key in batch:
                self._pending.pop(key, None)

    async def flush(self) -> None:
        """Write every answer gathered so far (after the write under way, if any)."""
        while self._pending:
            if self._idle():
                await self._start_write()
            else:
                assert self._write_task is not None
                await asyncio.shield(self._write_task)

    def _flush_now(self) -> None:
        if not self._pending:
            return
        batch = dict(self._pending)
        try:
            self._write(batch)
        except sqlite3.Error as exc:
            _log.warning("could not write to model cache %s (%s)", self.path, exc)
        for key in batch:
            self._pending.pop(key, None)

    def __len__(self) -> int:
        self._flush_now()
        conn = self._reading()
        if conn is None:
            return 0
        row = conn.execute("SELECT COUNT(*) FROM model_calls").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Write what is still gathered and close the connections (they reopen on next use)."""
        self._flush_now()
        with self._lock:
            for conn in (self._reader, self._writer):
                if conn is not None:
                    conn.close()
            self._reader = self._writer = None

    def __enter__(self) -> ModelCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
