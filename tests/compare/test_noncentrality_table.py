"""The noncentrality table: scipy's numbers at the default level and power, read without scipy,
and a noise floor (JSON and the printed table) identical to the one scipy computes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import records

from lifebench.metrics import _noncentrality as table
from lifebench.metrics._noise import (
    ALPHA,
    POWER,
    noise_floor,
    noncentrality,
    solve_noncentrality,
)
from lifebench.metrics._trials import scored_trials
from lifebench.reporting._noise import noise_table


def test_the_table_is_scipys_noncentrality_at_the_default_level_and_power() -> None:
    assert (table.ALPHA, table.POWER) == (ALPHA, POWER)
    assert len(table.NONCENTRALITY) == 1000
    for df, value in enumerate(table.NONCENTRALITY, start=1):
        assert value == pytest.approx(solve_noncentrality(df), rel=1e-12, abs=0), df


def test_the_table_answers_without_scipy_and_scipy_answers_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    assert noncentrality(1) == table.NONCENTRALITY[0]
    assert noncentrality(1000) == table.NONCENTRALITY[999]
    for call in (
        lambda: noncentrality(1001),
        lambda: noncentrality(10, power=0.9),
        lambda: noncentrality(10, alpha=0.01),
    ):
        with pytest.raises(ImportError):
            call()
    for solve in (noncentrality, solve_noncentrality):
        with pytest.raises(ValueError, match=r"^need df >= 1, got 0$"):
            solve(0)


def _render(floor: object) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(noise_table(floor))  # type: ignore[arg-type]
    return console.export_text()


def test_the_noise_floor_and_its_printed_table_are_those_scipy_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rewards = {
        f"T{i}": [float((i * 7 + t * 3) % 4 == 0) for t in range(2 + i % 3)] for i in range(12)
    }
    trials = scored_trials(records(rewards))
    fast = noise_floor(trials)
    monkeypatch.setattr(table, "NONCENTRALITY", ())  # every lookup falls through to scipy
    slow = noise_floor(trials)
    assert fast.mdd is not None and fast.trials_needed
    assert fast.model_dump() == slow.model_dump()
    assert _render(fast) == _render(slow)


def test_a_noise_floor_imports_no_scipy() -> None:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from compare_fakes import records\n"
        "from lifebench.metrics._noise import noise_floor\n"
        "from lifebench.metrics._trials import scored_trials\n"
        "floor = noise_floor(scored_trials(records({'A': [1.0, 0.0], 'B': [1.0, 1.0, 0.0]})))\n"
        "assert floor.mdd is not None, floor\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "[]"
