"""A fate-sharing reaper: no process started for a run outlives its driver by seconds.

A local Ray instance started for a run (``--backend ray`` without an address) runs processes
that Ray does not end promptly when the driver is killed: its agents wait up to a minute to
report the raylet's death to a GCS that is gone. :func:`start_reaper` starts a small process
that watches the driver through a pipe and remembers the driver's descendants (pid and start
time) every :data:`POLL_S` seconds; when the pipe closes without the driver saying ``done``
(the driver died: SIGKILL, OOM), it kills every remembered descendant still running with the
same start time, then exits. A driver that finishes normally says ``done`` first.

Run as ``python -I -S .../_reaper.py DRIVER_PID`` (stdin: the pipe; the standard library
only, so it starts in milliseconds); it says ``ready`` on stdout once it watches. Linux only
(``/proc``); elsewhere it does nothing.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

POLL_S = 0.5
"""How often the reaper refreshes the driver's descendants."""
READY_S = 10.0
"""How long the driver waits for the reaper to say it watches."""


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, start time) of ``pid``, None when it is gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    if fields[0] == "Z":
        return None
    return int(fields[1]), fields[19]


def descendants(root: int) -> dict[int, str]:
    """Every descendant of ``root``: pid → start time."""
    children: dict[int, list[tuple[int, str]]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    for name in entries:
        if name.isdigit():
            found = _stat(int(name))
            if found is not None:
                children.setdefault(found[0], []).append((int(name), found[1]))
    out: dict[int, str] = {}
    todo = [root]
    while todo:
        for pid, started in children.get(todo.pop(), []):
            if pid not in out:
                out[pid] = started
                todo.append(pid)
    return out


def reap(known: dict[int, str]) -> list[int]:
    """SIGKILL each of ``known`` still running with the same start time; the pids killed."""
    killed = []
    for pid, started in known.items():
        found = _stat(pid)
        if found is not None and found[1] == started:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except OSError:
                pass
    return killed


def watch(driver: int, pipe: int) -> None:
    """Remember the driver's descendants until ``pipe`` closes; reap them unless told
    ``done``."""
    me = os.getpid()
    known = descendants(driver)
    known.pop(me, None)
    os.write(1, b"ready\n")
    said = b""
    while True:
        ready, _, _ = select.select([pipe], [], [], POLL_S)
        if ready:
            chunk = os.read(pipe, 64)
            if not chunk:
                break
            said += chunk
            continue
        found = descendants(driver)
        found.pop(me, None)
        known.update(found)
    if b"done" not in said:
        reap(known)


class Reaper:
    """The driver's side: start with :meth:`start`, end with :meth:`done`."""

    def __init__(self) -> None:
        self._write: int | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the reaper process (nothing where ``/proc`` is missing)."""
        if not Path("/proc/self/stat").exists():
            return
        read, write = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", __file__, str(os.getpid())],
                stdin=read,
                stdout=subprocess.PIPE,
                start_new_session=True,  # Ctrl-C of the driver's terminal does not reach it
            )
        except OSError:
            os.close(write)
            return
        finally:
            os.close(read)
        self._write = write
        assert self._process.stdout is not None
        ready, _, _ = select.select([self._process.stdout], [], [], READY_S)
        if ready:
            self._process.stdout.readline()

    def done(self) -> None:
        """The driver ends normally: the reaper exits without killing anything."""
        if self._write is None:
            return
        with contextlib.suppress(OSError):
            os.write(self._write, b"done")
        os.close(self._write)
        self._write = None
        if self._process is not None:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._process = None


def main() -> None:
    """Entry point: ``python -m lifebench.runner._reaper DRIVER_PID``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch(int(sys.argv[1]), sys.stdin.fileno())


if __name__ == "__main__":
    main()
