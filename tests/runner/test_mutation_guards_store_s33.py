"""Mutation guards for ``runner/_store.py`` (issue 21, session 33), pinned by their effect: the
functions every store test runs (opening, resuming, registering units, closing), whose mutants
the earlier sessions had not run."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS

from lifebench.runner import STORE_FILENAME, RunStore, _lease, _store
from lifebench.runner._errors import StoreInUseError


class _Once:
    """A stop event that lets a heartbeat loop run exactly one beat, then stops it."""

    def __init__(self) -> None:
        self.waits = 0

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1
        return self.waits > 1

    def set(self) -> None:
        self.waits = 2


class _SteppedHeartbeat(_lease.Heartbeat):
    """The writer's heartbeat, beating only when the test says (no thread, no clock)."""

    def start(self) -> None:  # the test beats by hand
        pass

    def beat(self) -> None:
        self._stop = _Once()  # type: ignore[assignment]
        self._loop()


def test_a_writers_heartbeat_refreshes_its_own_lease_row_in_its_own_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # From another machine a lease is judged by its heartbeat alone: a writer whose beats went
    # to another file, or to no row, would be taken over while it still writes.
    made: list[_SteppedHeartbeat] = []

    def heartbeat(path: Path, token: str) -> _SteppedHeartbeat:
        made.append(_SteppedHeartbeat(path, token))
        return made[-1]

    monkeypatch.setattr(_store, "Heartbeat", heartbeat)
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as store:
        (beat,) = made
        other = sqlite3.connect(tmp_path / STORE_FILENAME, isolation_level=None)
        try:
            other.execute("UPDATE writer_lease SET heartbeat_at = 1.0")
            beat.beat()
            (heartbeat_at,) = other.execute("SELECT heartbeat_at FROM writer_lease").fetchone()
        finally:
            other.close()
        assert heartbeat_at > 1.0
        assert store.path == tmp_path / STORE_FILENAME


def test_a_holder_that_cannot_be_read_for_an_os_reason_still_gets_the_in_use_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The directory is locked by another writer; who it is is only a courtesy: an I/O error
    # while reading its lease must not replace the message that says what to do.
    RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS).close()

    def unreadable(conn: sqlite3.Connection) -> _lease.Holder | None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(_store, "read_holder", unreadable)
    fd = _lease.lock_directory(tmp_path)
    assert fd is not None
    try:
        with pytest.raises(StoreInUseError) as info:
            RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    finally:
        os.close(fd)
    assert str(info.value) == (
        f"{tmp_path} is in use by another lifebench process; wait for it to finish or use "
        "another run directory"
    )


def test_a_store_whose_directory_lock_was_closed_behind_its_back_still_closes(
    tmp_path: Path,
) -> None:
    # A library that closes descriptors it did not open (a daemonising helper, a test harness)
    # leaves the store a dead lock descriptor: closing the store must still release its lease
    # and end without an error.
    store = RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS)
    assert store._lock_fd is not None
    os.close(store._lock_fd)
    store.close()
    conn = sqlite3.connect(tmp_path / STORE_FILENAME)
    try:
        assert conn.execute("SELECT count(*) FROM writer_lease").fetchone() == (0,)
    finally:
        conn.close()
    with RunStore.open(tmp_path, CONFIG, CONFIG_HASH, TASKS) as again:
        assert again.notes == []
