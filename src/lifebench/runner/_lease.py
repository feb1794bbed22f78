"""The writer lease of a run store: one row inside ``run.sqlite`` itself.

Why a row and not a lock file: a lock file can be deleted (and then two runs write the same
directory), and an ``flock`` only excludes processes of one machine. The lease lives in the
database it protects, is taken in a ``BEGIN IMMEDIATE`` transaction (atomic across processes),
and every write of the store checks, in its own transaction, that it still holds it.

A lease whose holder is gone never blocks: on the holder's machine (same host name and boot)
the holder is alive only while its pid runs with the same start time (pid reuse is detected);
from another machine, only while its heartbeat (refreshed every ``HEARTBEAT_S`` seconds by a
thread of the holder) is younger than ``LEASE_TTL_S``.

Deleting ``run.sqlite`` (or its ``-wal``) during a run cannot start a second writer from
scratch: the writer also holds an OS lock (``flock``) on the run directory itself, which no
file deletion releases, so a second process on the same machine refuses; and the writer checks
before every write that the files it opened are still the ones at their paths (device and
inode), stopping with a clear error when one was deleted or replaced.
"""

from __future__ import annotations

import fcntl
import os
import socket
import sqlite3
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

LEASE_TTL_S = 120.0
"""A lease held from another machine expires this long after its last heartbeat."""
HEARTBEAT_S = 15.0
"""How often the holder refreshes its heartbeat."""

_COLUMNS = "token, pid, host, boot_id, pid_start, command, acquired_at, heartbeat_at"


def _read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def boot_id() -> str:
    """An id of the current boot of this machine ('' where the OS does not tell)."""
    return _read_text("/proc/sys/kernel/random/boot_id")


def pid_start(pid: int) -> str:
    """When process ``pid`` started, in clock ticks since boot ('' if unknown or not running)."""
    stat = _read_text(f"/proc/{pid}/stat")
    if not stat or ")" not in stat:
        return ""
    fields = stat.rsplit(")", 1)[1].split()
    return fields[19] if len(fields) > 19 else ""  # field 22 of stat, counted after the name


def pid_running(pid: int) -> bool:
    """True when a process with this pid exists on this machine."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True


@dataclass(frozen=True)
class Holder:
    """Who holds (or held) a lease."""

    token: str
    pid: int
    host: str
    boot_id: str
    pid_start: str
    command: str
    acquired_at: str
    heartbeat_at: float

    def describe(self) -> str:
        """``pid 123 on host h (lifebench run, since 2024-…)``."""
        return f"pid {self.pid} on host {self.host} ({self.command}, since {self.acquired_at})"


def holder_alive(holder: Holder, *, now: float, ttl_s: float = LEASE_TTL_S) -> bool:
    """Whether the holder of a lease may still be writing (see the module docstring)."""
    same_boot = holder.boot_id == boot_id() and bool(holder.boot_id)
    if holder.host == socket.gethostname() and (same_boot or not holder.boot_id):
        if not pid_running(holder.pid):
            return False
        started = pid_start(holder.pid)
        return not (holder.pid_start and started and started != holder.pid_start)
    return now - holder.heartbeat_at < ttl_s


def read_holder(conn: sqlite3.Connection) -> Holder | None:
    """The lease row, if any."""
    row = conn.execute(f"SELECT {_COLUMNS} FROM writer_lease WHERE id = 1").fetchone()
    if row is None:
        return None
    return Holder(*row)


def this_holder(command: str, *, clock: Callable[[], float] = time.time) -> Holder:
    """A new lease for the current process."""
    pid = os.getpid()
    return Holder(
        token=uuid.uuid4().hex,
        pid=pid,
        host=socket.gethostname(),
        boot_id=boot_id(),
        pid_start=pid_start(pid),
        command=command,
        acquired_at=datetime.now(UTC).isoformat(timespec="seconds"),
        heartbeat_at=clock(),
    )


def write_holder(conn: sqlite3.Connection, holder: Holder) -> None:
    """Replace the lease row by ``holder`` (inside the caller's transaction)."""
    conn.execute(
        f"INSERT OR REPLACE INTO writer_lease (id, {_COLUMNS}) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            holder.token,
            holder.pid,
            holder.host,
            holder.boot_id,
            holder.pid_start,
            holder.command,
            holder.acquired_at,
            holder.heartbeat_at,
        ),
    )


class Heartbeat:
    """A daemon thread that refreshes the lease's heartbeat until :meth:`stop`."""

    def __init__(self, path: Path, token: str, interval_s: float = HEARTBEAT_S) -> None:
        self._path, self._token, self._interval = path, token, interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="lifebench-lease", daemon=True)

    def start(self) -> None:
        """Start beating."""
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                conn = sqlite3.connect(self._path, timeout=5, isolation_level=None)
                try:
                    conn.execute(
                        "UPDATE writer_lease SET heartbeat_at = ? WHERE token = ?",
                        (time.time(), self._token),
                    )
                finally:
                    conn.close()
            except sqlite3.Error as exc:  # the next write of the store reports real problems
                print(f"lifebench: lease heartbeat failed: {exc}", file=sys.stderr)

    def stop(self) -> None:
        """Stop beating (idempotent)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)


def lock_directory(directory: Path) -> int | None:
    """Take an exclusive OS lock on ``directory`` (held until the returned descriptor is
    closed, or the process ends); None when another process holds it."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError:  # a file system without flock: the lease row alone protects
        return fd
    return fd


FileId = tuple[int, int] | None
"""A file's device and inode (None: no file)."""


def file_id(path: Path) -> FileId:
    """The device and inode of ``path`` (None when it does not exist)."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return (stat.st_dev, stat.st_ino)
