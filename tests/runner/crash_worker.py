"""Subprocess of test_run_crash.py: runs many units until it is SIGKILLed.

Usage: python crash_worker.py RUN_DIR N_UNITS
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from runner_fakes import CONFIG, CONFIG_HASH, evaluation, simulation

from lifebench.runner import RunStore, UnitOutcome, WorkUnit, run_units


def crash_units(n: int) -> tuple[dict[str, str], list[WorkUnit]]:
    """``n`` units over n/2 tasks, two trials each."""
    tasks = {f"task{i:04d}": f"h{i}" for i in range(n // 2)}
    return tasks, [WorkUnit(t, trial, trial) for t in sorted(tasks) for trial in (0, 1)]


async def execute(unit: WorkUnit) -> UnitOutcome:
    """A slow-ish unit with a large trajectory, so kills often land during a write."""
    await asyncio.sleep(0.01)
    return UnitOutcome(simulation=simulation(unit, messages=200), evaluation=evaluation(1.0))


async def main(run_dir: Path, n: int) -> None:
    tasks, work = crash_units(n)
    with RunStore.open(run_dir, CONFIG, CONFIG_HASH, tasks) as store:
        await run_units(work, execute, store, concurrency=8)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
