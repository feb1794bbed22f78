"""--workers: what the writer costs per unit, against what a unit costs, and wall times.

The design under test (src/lifebench/runner/_workers.py): worker processes execute units and
send them back packed; the parent alone writes the run store. It scales while the parent's
work per unit (unpickle + one SQLite transaction) stays small next to a unit's own CPU:
N workers can keep up to about unit_cpu / writer_cpu of them busy.

    python benchmarks/bench_workers.py                 # 300 offline units, workers 1 and 2
    python benchmarks/bench_workers.py --units 3 --workers 1 2 4

Figures on a shared 2-core machine vary by ±30 % from run to run; compare within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
import resource
import tempfile
import time
from pathlib import Path

from lifebench.runner import Progress, RunStore
from lifebench.runner._experiment import ExecutionPlan, build_experiment, run_experiment
from lifebench.runner._units import PackedOutcome
from lifebench.suites import make_run_options


def _options(out: Path, trials: int):  # type: ignore[no-untyped-def]
    return make_run_options(
        {"task_set": "generated", "trials": trials, "out": str(out), "quiet": True}
    )


def unit_and_writer_cpu(trials: int) -> tuple[float, float, int]:
    """CPU seconds per unit executed in-process, and per unit written by the writer."""
    with tempfile.TemporaryDirectory() as tmp:
        exp = build_experiment(_options(Path(tmp) / "run", trials))
        started = time.process_time()
        packed = [PackedOutcome.of(u, asyncio.run(exp.execute_unit(u))) for u in exp.units]
        unit_cpu = (time.process_time() - started) / len(packed)
        wire = [pickle.dumps(p) for p in packed]
        store = RunStore.open(
            Path(tmp) / "store",
            {"bench": True},
            "h",
            {i: t.content_hash() for i, t in exp.tasks.items()},
        )
        store.pending_units(exp.units)
        started = time.process_time()
        for blob in wire:
            store.record_packed(pickle.loads(blob))
        writer_cpu = (time.process_time() - started) / len(wire)
        store.close()
    return unit_cpu, writer_cpu, len(wire)


def wall(workers: int, trials: int) -> tuple[float, float, float, int]:
    """Wall seconds, parent CPU and children CPU of one run with ``workers``."""
    before_self = resource.getrusage(resource.RUSAGE_SELF)
    before_kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        _, summary = asyncio.run(
            run_experiment(
                _options(Path(tmp) / "run", trials),
                progress=Progress(quiet=True),
                plan=ExecutionPlan(workers=workers),
            )
        )
        seconds = time.perf_counter() - started
    after_self = resource.getrusage(resource.RUSAGE_SELF)
    after_kids = resource.getrusage(resource.RUSAGE_CHILDREN)

    def cpu(a: resource.struct_rusage, b: resource.struct_rusage) -> float:
        return (b.ru_utime - a.ru_utime) + (b.ru_stime - a.ru_stime)

    return seconds, cpu(before_self, after_self), cpu(before_kids, after_kids), summary.done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=3, help="trials of the 100 generated tasks")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    unit_cpu, writer_cpu, n = unit_and_writer_cpu(args.units)
    print(f"{n} offline units (generated delivery tasks × {args.units} trials)")
    print(f"  unit CPU (execute + grade + pack), in-process: {1000 * unit_cpu:7.2f} ms/unit")
    print(f"  writer CPU (unpickle + one SQLite commit):     {1000 * writer_cpu:7.2f} ms/unit")
    print(f"  → the writer keeps up with about {unit_cpu / writer_cpu:.0f} busy workers")
    print(f"  load average now: {Path('/proc/loadavg').read_text().split()[0]}")
    for workers in args.workers:
        seconds, parent, kids, done = wall(workers, args.units)
        print(
            f"  --workers {workers}: {seconds:6.2f} s wall, {done / seconds:6.1f} units/s, "
            f"parent CPU {1000 * parent / done:6.2f} ms/unit, workers CPU "
            f"{1000 * kids / done:6.2f} ms/unit"
        )


if __name__ == "__main__":
    main()
