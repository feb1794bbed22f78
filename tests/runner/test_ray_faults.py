"""Ray faults: a silent cluster address fails fast with a clear message; nothing started for a
run outlives a killed driver (the reaper), and a driver that ends normally kills nothing."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lifebench.runner._errors import RunStopped
from lifebench.runner._ray import check_reachable

DRIVER = """
import subprocess, sys, time
from lifebench.runner._reaper import Reaper
reaper = Reaper()
reaper.start()
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
grandchild_starter = subprocess.Popen(
    [sys.executable, "-c",
     "import subprocess, sys, time; "
     "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)']); "
     "print(p.pid, flush=True); time.sleep(300)"],
    stdout=subprocess.PIPE, text=True)
grandchild = grandchild_starter.stdout.readline().strip()
time.sleep(2)  # the reaper has looked at least once since (as at any kill of a real run)
print(child.pid, grandchild_starter.pid, grandchild, flush=True)
if sys.argv[1] == "done":
    reaper.done()
    print("done", flush=True)
time.sleep(300)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_gone(pids: list[int], watchdog_s: float = 30.0) -> list[int]:
    deadline = time.monotonic() + watchdog_s  # a watchdog, not a duration asserted
    while time.monotonic() < deadline:
        left = [p for p in pids if _running(p)]
        if not left:
            return []
        time.sleep(0.2)
    return [p for p in pids if _running(p)]


def test_an_address_that_refuses_stops_the_run_with_the_address_named() -> None:
    port = _free_port()  # nothing listens there now
    with pytest.raises(RunStopped) as info:
        check_reachable(f"ray://127.0.0.1:{port}")
    assert f"--ray-address ray://127.0.0.1:{port}" in str(info.value)
    assert "refused" in str(info.value).lower()


def test_a_silent_address_is_given_up_after_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float] = []

    def silent(address: tuple[str, int], timeout: float) -> socket.socket:
        seen.append(timeout)
        raise TimeoutError

    monkeypatch.setattr(socket, "create_connection", silent)
    with pytest.raises(RunStopped, match=r"no answer within 10 s"):
        check_reachable("10.255.255.1:6379")
    assert seen == [10.0]


@pytest.mark.parametrize("address", ["auto", "local", "head-without-port"])
def test_addresses_without_a_port_are_left_to_ray(address: str) -> None:
    check_reachable(address)  # no connection attempted, nothing raised


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the reaper needs /proc")
@pytest.mark.parametrize("ending", ["killed", "done"])
def test_nothing_outlives_a_killed_driver(ending: str) -> None:
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER, ending],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert driver.stdout is not None
    pids = [int(p) for p in driver.stdout.readline().split()]
    assert len(pids) == 3 and all(_running(p) for p in pids)
    try:
        if ending == "done":
            assert driver.stdout.readline().strip() == "done"
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
        left = _wait_gone(pids, watchdog_s=30.0 if ending == "killed" else 3.0)
        if ending == "killed":
            assert left == [], "a process outlived its killed driver"
        else:
            assert left == pids, "a driver that ended normally has nothing killed"
    finally:
        for pid in pids:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
        driver.stdout.close()
