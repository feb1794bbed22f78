"""The per-test watchdog: a test that hangs fails, and the tests after it still run.

The suite's configuration (``[tool.pytest.ini_options]`` of pyproject.toml) sets pytest-timeout's
``timeout`` and ``timeout_method = "signal"``, with the timer of ``tests/hang_watchdog.py``.
These tests run a small suite in a subprocess with the same timer and a one-second limit: each
hang below waits forever (an event nobody sets, a queue nobody fills — the shape of a run
waiting on dead workers), so its outcome does not depend on how fast the machine is, only on
the watchdog firing at all.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HANGING = """
import asyncio
import threading

from hypothesis import given, settings, strategies as st


def test_sync_hang():
    threading.Event().wait()


async def test_async_hang():
    await asyncio.Queue().get()


@settings(database=None, deadline=None)
@given(st.integers())
def test_hypothesis_example_hang(n):
    # Hypothesis re-runs an example that failed: pytest's own Failed would hang it again
    threading.Event().wait()


def test_after_the_hangs():
    assert True
"""

SWALLOWING = """
import threading


def test_swallows_every_interrupt():
    while True:
        try:
            threading.Event().wait()
        except BaseException:
            pass


def test_after_the_hang():
    assert True
"""


def _run(tmp_path: Path, suite: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_hanging.py").write_text(suite, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(
        "from hang_watchdog import pytest_timeout_set_timer\n", encoding="utf-8"
    )
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
        "timeout = 1\ntimeout_method = signal\n",
        encoding="utf-8",
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "tests") + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "-rf", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize("workers", ["0", "1"], ids=["one-process", "xdist"])
def test_a_hanging_test_fails_and_the_suite_goes_on(tmp_path: Path, workers: str) -> None:
    done = _run(tmp_path, HANGING, "-n", workers)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "3 failed, 1 passed" in done.stdout, done.stdout
    for name in ("test_sync_hang", "test_async_hang", "test_hypothesis_example_hang"):
        assert f"FAILED test_hanging.py::{name}" in done.stdout, done.stdout
    assert "Hung: Timeout (>1.0s) from pytest-timeout" in done.stdout, done.stdout


def test_a_test_that_swallows_the_interrupts_ends_its_worker(tmp_path: Path) -> None:
    """The fourth alarm ends the process (stacks, exit 1): xdist replaces the worker."""
    done = _run(tmp_path, SWALLOWING, "-n", "1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 1 passed" in done.stdout, done.stdout
    assert "FAILED test_hanging.py::test_swallows_every_interrupt" in done.stdout, done.stdout
    assert "crashed" in done.stdout, done.stdout


def test_the_suite_has_the_watchdog(pytestconfig: pytest.Config) -> None:
    """Generous (never reached by a test that works, on a loaded machine) and by signal (the
    test fails, the process lives: no xdist worker lost, no mutmut run ended)."""
    assert float(pytestconfig.getini("timeout")) == 600
    assert pytestconfig.getini("timeout_method") == "signal"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(dep.startswith("pytest-timeout") for dep in project["optional-dependencies"]["dev"])


def test_the_real_server_tests_have_a_longer_watchdog() -> None:
    """One real-server test makes several requests of up to an hour each on a loaded CPU."""
    from real_server import test_real_server as real

    marks = real.pytestmark if isinstance(real.pytestmark, list) else [real.pytestmark]
    limits = [m.args[0] for m in marks if m.name == "timeout"]
    assert limits and limits[0] > real.TIMEOUT_S > 600
