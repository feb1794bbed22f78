"""Every case of the hostile-input corpus ends within 30 s (a watchdog, not a timing
assertion) with its exact exit code, one message naming its file and field, and no
traceback."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import ACCEPTED, Case, all_cases

from lifebench.cli import app

WATCHDOG_S = 30
CASES = all_cases()


class Hang(BaseException):
    """A case ran longer than the watchdog allows (a BaseException: no handler swallows it)."""


@contextmanager
def watchdog(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_case(case: Case, directory: Path) -> tuple[int, str]:
    args = case.build(directory)
    with watchdog(WATCHDOG_S):
        result = CliRunner().invoke(app, args, env={"COLUMNS": "400", "LIFEBENCH_DEBUG": ""})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{case.id}: raised {result.exception!r}") from result.exception
    return result.exit_code, result.output


def test_the_corpus_has_at_least_200_cases() -> None:
    assert len(CASES) >= 200
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_case(case: Case, tmp_path: Path) -> None:
    code, output = run_case(case, tmp_path)
    assert "Traceback" not in output and "internal error" not in output, output
    assert code == case.exit_code, f"{case.id}: exit {code}, expected {case.exit_code}\n{output}"
    if case.exit_code != 0:
        assert "error" in output.lower(), output
        if case.file:
            assert case.file in output, f"{case.id}: the message names no file\n{output}"
    for text in case.names:  # an accepted case: the finding that documents it
        assert text in output, f"{case.id}: the message does not name {text!r}\n{output}"


def test_every_accepted_case_is_in_the_corpus() -> None:
    ids = {c.id for c in CASES}
    assert set(ACCEPTED) <= ids, sorted(set(ACCEPTED) - ids)
