"""Guards for the writer lease (runner/_lease): when a holder counts as alive — pid reuse told
apart by the process start time, the machine told apart by host and boot, the heartbeat's
expiry boundary — and the /proc readings those decisions rest on."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from lifebench.runner import _lease
from lifebench.runner._lease import Heartbeat, Holder, holder_alive, pid_running, pid_start

HOST = socket.gethostname()
BOOT = _lease.boot_id()


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout)


def _holder(**changes: object) -> Holder:
    fields: dict[str, object] = {
        "token": "t",
        "pid": os.getpid(),
        "host": HOST,
        "boot_id": BOOT,
        "pid_start": pid_start(os.getpid()),
        "command": "lifebench run",
        "acquired_at": "2026-01-01T00:00:00+00:00",
        "heartbeat_at": 1000.0,
    }
    fields.update(changes)
    return Holder(**fields)  # type: ignore[arg-type]


needs_proc = pytest.mark.skipif(
    not Path("/proc/sys/kernel/random/boot_id").is_file() or not Path("/proc/self/stat").is_file(),
    reason="/proc boot id and start times needed",
)


# ---- /proc readings ----------------------------------------------------------------------


@needs_proc
def test_pid_start_is_field_22_of_proc_stat() -> None:
    stat = Path(f"/proc/{os.getpid()}/stat").read_text()
    assert pid_start(os.getpid()) == stat.rsplit(")", 1)[1].split()[19]
    assert _lease.this_holder("x").pid_start == pid_start(os.getpid())
    assert Path("/proc/sys/kernel/random/boot_id").read_text().strip() == BOOT


def test_a_process_name_with_brackets_and_spaces_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    after = " ".join(str(n) for n in range(20))  # 20 fields after the name: index 19 is "19"
    monkeypatch.setattr(_lease, "_read_text", lambda _path: f"42 (a) b (c) d) {after}")
    assert pid_start(42) == "19"
    short = " ".join(str(n) for n in range(19))  # one field short: unknown, never an error
    monkeypatch.setattr(_lease, "_read_text", lambda _path: f"42 (x) {short}")
    assert pid_start(42) == ""
    for stat in ("", "42 no brackets 1 2 3"):
        monkeypatch.setattr(_lease, "_read_text", lambda _path, s=stat: s)
        assert pid_start(42) == ""


def test_an_unknown_pid_has_no_start_time() -> None:
    assert pid_start(_dead_pid()) == ""


def test_unreadable_text_reads_as_empty(tmp_path: Path) -> None:
    odd = tmp_path / "odd"
    odd.write_bytes("bööt-id\n".encode())  # not ASCII: no id rather than a guessed one
    assert _lease._read_text(str(odd)) == ""
    assert _lease._read_text(str(tmp_path / "missing")) == ""
    plain = tmp_path / "plain"
    plain.write_text(" abc \n", encoding="ascii")
    assert _lease._read_text(str(plain)) == "abc"


def test_pid_running(monkeypatch: pytest.MonkeyPatch) -> None:
    assert pid_running(os.getpid()) is True
    assert pid_running(1) is True  # init (or the container's first process) always runs
    assert pid_running(0) is False and pid_running(-5) is False
    assert pid_running(_dead_pid()) is False

    def refused(pid: int, sig: int) -> None:
        raise PermissionError(pid)

    monkeypatch.setattr(_lease.os, "kill", refused)
    assert pid_running(12345) is True  # exists, owned by someone else


# ---- holder_alive ------------------------------------------------------------------------


@needs_proc
def test_the_running_holder_on_this_machine_is_alive_whatever_its_heartbeat() -> None:
    assert holder_alive(_holder(), now=1e9) is True
    # start time unknown: the pid decides
    assert holder_alive(_holder(pid_start=""), now=1e9) is True


@needs_proc
def test_a_reused_pid_is_not_the_holder() -> None:
    other = str(int(pid_start(os.getpid())) + 7)
    assert holder_alive(_holder(pid_start=other), now=1000.0) is False


@needs_proc
def test_a_dead_holder_on_this_machine_is_gone_even_with_a_fresh_heartbeat() -> None:
    dead = _dead_pid()
    assert holder_alive(_holder(pid=dead), now=1000.0) is False
    # a boot id this OS does not tell: still this machine, the pid decides
    assert holder_alive(_holder(pid=dead, boot_id=""), now=1000.0) is False


@needs_proc
def test_another_boot_or_host_is_judged_by_its_heartbeat() -> None:
    # our own pid, but recorded in another boot of this host: that process is gone; only the
    # heartbeat can say it lives
    rebooted = _holder(boot_id=f"other-{BOOT}")
    assert holder_alive(rebooted, now=1000.0 + 10_000) is False
    assert holder_alive(rebooted, now=1000.0 + 1) is True
    # another host (no boot id): a pid dead here says nothing about it
    far = _holder(host=f"not-{HOST}", boot_id="", pid=_dead_pid())
    assert holder_alive(far, now=1001.0) is True
    assert holder_alive(far, now=1000.0 + 10_000) is False


def test_the_heartbeat_expires_exactly_at_the_ttl() -> None:
    far = _holder(host=f"not-{HOST}", boot_id="x")
    assert holder_alive(far, now=1000.0 + 119.5, ttl_s=120.0) is True
    assert holder_alive(far, now=1000.0 + 120.0, ttl_s=120.0) is False


# ---- the holder's own record and heartbeat -----------------------------------------------


def test_a_new_lease_is_stamped_in_utc() -> None:
    holder = _lease.this_holder("lifebench run", clock=lambda: 5.0)
    assert holder.acquired_at.endswith("+00:00") and holder.heartbeat_at == 5.0
    assert (holder.pid, holder.host, holder.command) == (os.getpid(), HOST, "lifebench run")


def test_the_heartbeat_thread_refreshes_the_row(tmp_path: Path) -> None:
    path = tmp_path / "lease.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "CREATE TABLE writer_lease (id INTEGER PRIMARY KEY, token, pid, host, boot_id, "
        "pid_start, command, acquired_at, heartbeat_at)"
    )
    _lease.write_holder(conn, _holder(token="tok", heartbeat_at=1.0))
    beat = Heartbeat(path, "tok", interval_s=0.01)
    beat.start()
    try:
        # a daemon thread (a run that dies is never kept alive by it), named in thread dumps
        (thread,) = [t for t in threading.enumerate() if t.name == "lifebench-lease"]
        assert thread.daemon
        deadline = time.monotonic() + 30  # a bound, not a timing assertion
        while time.monotonic() < deadline:
            (seen,) = conn.execute("SELECT heartbeat_at FROM writer_lease").fetchone()
            if seen > 1.0:
                break
            time.sleep(0.01)
    finally:
        beat.stop()
        beat.stop()  # idempotent
        conn.close()
    assert seen > 1.0


def test_only_a_directory_is_locked(tmp_path: Path) -> None:
    plain = tmp_path / "run.sqlite"
    plain.write_text("")
    with pytest.raises(NotADirectoryError):
        _lease.lock_directory(plain)
    fd = _lease.lock_directory(tmp_path)
    assert fd is not None
    try:
        assert _lease.lock_directory(tmp_path) is None  # held: a second lock is refused
    finally:
        os.close(fd)
    again = _lease.lock_directory(tmp_path)  # released with its descriptor
    assert again is not None
    os.close(again)


def test_a_failing_heartbeat_says_so_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "not-a-store.sqlite"
    sqlite3.connect(path).close()  # a database without the lease table
    beat = Heartbeat(path, "tok", interval_s=0.01)
    beat.start()
    seen = ""
    try:
        deadline = time.monotonic() + 30  # a bound, not a timing assertion
        while "heartbeat failed" not in seen and time.monotonic() < deadline:
            seen += capsys.readouterr().err
            time.sleep(0.01)
    finally:
        beat.stop()
    seen += capsys.readouterr().err
    first = seen.splitlines()[0]
    assert first == "lifebench: lease heartbeat failed: no such table: writer_lease"
