"""The writer lease lives in run.sqlite, and the writer holds an OS lock on the run directory:
deleting files cannot defeat them (a second writer is refused, the first stops when its files
are deleted or replaced), a dead holder never blocks, a lease taken over stops the old
writer."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from runner_fakes import CONFIG, CONFIG_HASH, TASKS, simulation, units

from lifebench.runner import RunStore
from lifebench.runner._errors import StoreError, StoreInUseError
from lifebench.runner._lease import boot_id, pid_start


def open_store(path: Path) -> RunStore:
    return RunStore.open(path, CONFIG, CONFIG_HASH, TASKS)


def die(store: RunStore) -> None:
    """What SIGKILL leaves: the lease row stays, the connection and the OS lock are gone."""
    import os

    store._lease = None
    store._heartbeat.stop()  # type: ignore[union-attr]
    store._conn.close()
    os.close(store._lock_fd)  # type: ignore[arg-type]
    store._lock_fd = None


def set_lease(path: Path, **fields: object) -> None:
    conn = sqlite3.connect(path / "run.sqlite")
    with conn:
        sets = ", ".join(f"{k} = ?" for k in fields)
        conn.execute(f"UPDATE writer_lease SET {sets}", tuple(fields.values()))
    conn.close()


def test_second_writer_refused_even_when_every_other_file_is_deleted(tmp_path: Path) -> None:
    first = open_store(tmp_path)
    try:
        for extra in tmp_path.iterdir():  # no run.lock to delete any more; WAL files go too
            if extra.name not in ("run.sqlite", "run.sqlite-wal", "run.sqlite-shm"):
                extra.unlink()
        (tmp_path / "run.lock").unlink(missing_ok=True)
        with pytest.raises(StoreInUseError, match=r"in use by another lifebench process \(pid"):
            open_store(tmp_path)
        with pytest.raises(StoreInUseError):
            RunStore.read(tmp_path, write=True)
        RunStore.read(tmp_path).close()  # readers are never refused
    finally:
        first.close()
    open_store(tmp_path).close()  # released on close


def test_lease_of_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    die(open_store(tmp_path))  # a holder that died without releasing (SIGKILL)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    set_lease(tmp_path, pid=int(dead.stdout), pid_start="1")
    with open_store(tmp_path) as again:
        assert any("no longer running" in n for n in again.notes)


def test_reused_pid_with_another_start_time_is_not_the_holder(tmp_path: Path) -> None:
    die(open_store(tmp_path))
    import os

    mine = pid_start(os.getpid())
    if not mine:
        pytest.skip("process start times are not available here")
    set_lease(tmp_path, pid_start=str(int(mine) + 12345))  # our pid, another process's start
    with open_store(tmp_path) as again:
        assert any("took over" in n for n in again.notes)


@pytest.mark.parametrize(("age_s", "taken"), [(10_000.0, True), (0.0, False)])
def test_lease_from_another_machine_expires_with_its_heartbeat(
    tmp_path: Path, age_s: float, taken: bool
) -> None:
    import time

    die(open_store(tmp_path))
    set_lease(
        tmp_path,
        host=f"not-{socket.gethostname()}",
        boot_id=f"other-{boot_id()}",
        heartbeat_at=time.time() - age_s,
    )
    if taken:
        open_store(tmp_path).close()
    else:
        with pytest.raises(StoreInUseError, match="on host not-"):
            open_store(tmp_path)


def test_a_writer_whose_lease_was_taken_over_stops_writing(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    work = units()
    store.pending_units(work)
    set_lease(tmp_path, token="someone-else", host="elsewhere", pid=1)
    with pytest.raises(StoreInUseError, match="taken over"):
        store.record(work[0], simulation(work[0]))
    store._lease = None
    store.close()


def test_lease_row_deleted_by_hand_is_taken_back(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    work = units()
    store.pending_units(work)
    conn = sqlite3.connect(tmp_path / "run.sqlite")
    with conn:
        conn.execute("DELETE FROM writer_lease")
    conn.close()
    store.record(work[0], simulation(work[0]))
    with pytest.raises(StoreInUseError):  # the row is back: a second writer is still refused
        open_store(tmp_path)
    store.close()


def test_a_lease_released_normally_leaves_no_note(tmp_path: Path) -> None:
    with open_store(tmp_path) as first:
        assert first.notes == []
    with open_store(tmp_path) as again:  # the same command resumed: nothing to report
        assert again.notes == []


@pytest.mark.parametrize("victim", ["run.sqlite", "run.sqlite-wal", "both"])
def test_deleting_the_store_files_during_a_run_loses_no_unit(tmp_path: Path, victim: str) -> None:
    first = open_store(tmp_path)
    work = units()
    first.pending_units(work)
    first.record(work[0], simulation(work[0]))
    names = ["run.sqlite", "run.sqlite-wal"] if victim == "both" else [victim]
    for name in names:
        (tmp_path / name).unlink()
    # a second run refuses while the first is alive (the OS lock is on the directory) ...
    with pytest.raises(StoreInUseError, match="in use by another lifebench process"):
        open_store(tmp_path)
    # ... and the first notices at its next write and stops (exit 4), never writing in vain
    with pytest.raises(StoreError, match="deleted or replaced"):
        first.record(work[1], simulation(work[1]))
    first.close()


def test_a_store_file_replaced_by_another_is_noticed(tmp_path: Path) -> None:
    first = open_store(tmp_path)
    work = units()
    first.pending_units(work)
    replacement = tmp_path / "copy.sqlite"
    replacement.write_bytes((tmp_path / "run.sqlite").read_bytes())
    replacement.replace(tmp_path / "run.sqlite")
    with pytest.raises(StoreError, match="deleted or replaced"):
        first.record(work[0], simulation(work[0]))
    first.close()
