#!/usr/bin/env python3
"""Cores that add up: units per second with ``--workers 1, 2, 4`` and the Ray backend.

At latency 0 the mock endpoint answers at once, so the harness's own CPU is the bottleneck and
more worker processes can only help by using more cores. Every configuration runs the same
command line as ``bench_e2e.py`` (the real CLI; the mock endpoint in its own process; the
bundled generated delivery tasks; 9 requests per unit) with ``--workers W`` and, for Ray,
``--backend ray --workers W`` on a local Ray instance that the CLI starts (its start-up is
part of the wall time, so Ray is also shown from the first request on: ``span``).

Printed per configuration: wall time of the CLI (spawn to exit), the span from the first to
the last request at the mock, units per second over each, the speed-up over ``--workers 1``
(over the wall and over the span), the CPU of the CLI and its children, the most requests in
flight at the mock, the mock's own CPU (``mock s``: the mock shares the box's cores with the
harness, so at latency 0 it bounds the speed-up), the speed-up the CPU figures allow at most
on this box (``ceil ×``: see :func:`ceiling`), and the load average. The machine is shared:
compare ratios within one run (``--repeat`` runs the configurations in turn that many times and
shows the median run of each), and read the load.

    python benchmarks/bench_scaling.py                       # N 1,000, c 64: 1, 2, 4 workers, Ray 2
    python benchmarks/bench_scaling.py --n 300 --workers 1 2 --no-ray
    python benchmarks/bench_scaling.py --latency 0.2 --n 1000 --concurrency 256
    python benchmarks/bench_scaling.py --no-ray --repeat 3 \\
        --against "env PYTHONPATH=/tmp/main/src python -c 'from lifebench.cli import main; main()'"
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_e2e import (
    Cell,
    Result,
    cli_command,
    load_average,
    median_result,
    run_cell,
    warm_byte_code,
)


def autogroup() -> bool:
    """Whether Linux's autogroup scheduling is on (CPU shared fairly between sessions first,
    then between the processes of a session)."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def workers_of(label: str) -> int:
    """The processes a configuration executes units in (its ``--workers``)."""
    return int(label.split()[-1]) if label.startswith("--workers") else int(label.split()[1])


def ceiling(base: Result, r: Result, workers: int) -> float:
    """The most ``r`` could be faster than ``base`` (one worker) on this box, from CPU alone:
    ``base`` needs at least its CPU time (one process on one core), ``r`` at least its CPU
    plus the mock's spread over the box's cores, and its CPU spread over its processes."""
    cores = os.cpu_count() or 1
    best = max((r.cli_cpu_s + r.server_cpu_s) / cores, r.cli_cpu_s / workers)
    return base.cli_cpu_s / max(best, 1e-9)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--latency", type=float, default=0.0, help="mock latency, seconds")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--n", type=int, default=1000, help="units: 100 or a multiple")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--ray-workers", type=int, nargs="+", default=[2])
    parser.add_argument("--no-ray", action="store_true", help="leave out the Ray backend")
    parser.add_argument("--repeat", type=int, default=1, help="runs per configuration (median)")
    parser.add_argument(
        "--cli",
        help="the command to measure instead of this environment's lifebench (e.g. another "
        "checkout: \"env PYTHONPATH=/tmp/old/src python -c 'from lifebench.cli import main; "
        "main()'\")",
    )
    parser.add_argument(
        "--against",
        help="a second command run alternately with the first (e.g. the main branch's "
        "checkout, as for --cli): one table each, measured in one sitting",
    )
    args = parser.parse_args()

    configs: list[tuple[str, tuple[str, ...]]] = [
        (f"--workers {w}", ("--workers", str(w))) for w in args.workers
    ]
    if not args.no_ray:
        if importlib.util.find_spec("ray") is None:
            print("Ray is not installed (pip install -e '.[ray]'): the Ray rows are left out")
        else:
            configs += [
                (f"ray, {w} actors", ("--backend", "ray", "--workers", str(w)))
                for w in args.ray_workers
            ]
    print(
        f"latency {args.latency:g} s, concurrency {args.concurrency}, N {args.n}, "
        f"{os.cpu_count()} CPUs, load average before: {load_average()}"
    )
    if autogroup():
        print(
            "note: the kernel's autogroup scheduling is on (/proc/sys/kernel/sched_autogroup_"
            "enabled): this session's processes share one CPU share against the other busy "
            "sessions, so on a busy box more worker processes get no more CPU (see 'cores')"
        )
    cli = shlex.split(args.cli) if args.cli else cli_command()
    clis = [("", cli)] + ([("against: ", shlex.split(args.against))] if args.against else [])
    for _, command in clis:
        warm_byte_code(command)
    print(
        f"{'configuration':<27} {'wall s':>7} {'span s':>7} {'units/s':>8} {'span u/s':>8} "
        f"{'× wall':>6} {'× span':>6} {'cpu s':>7} {'cores':>5} {'mock s':>6} {'ceil ×':>6} "
        f"{'inflt':>5} {'done':>5}  wall / cpu of each run"
    )
    # Repeats alternate between the configurations (1, 2, 4, 1, 2, 4, ...; each CLI in turn),
    # so that a change in the box's load during the sitting touches every configuration alike.
    runs: dict[str, list[Result]] = {}
    failed: dict[str, str] = {}
    for _ in range(max(1, args.repeat)):
        for label, flags in configs:
            for prefix, command in clis:
                name = prefix + label
                if name in failed:
                    continue
                cell = Cell(args.latency, args.concurrency, args.n, flags)
                try:
                    runs.setdefault(name, []).append(run_cell(cell, None, command))
                except RuntimeError as exc:  # e.g. a local Ray instance that did not start
                    failed[name] = str(exc).strip().splitlines()[-1]
    for prefix, _ in clis:
        base: Result | None = None  # each CLI's first configuration (--workers 1)
        for label, _ in configs:
            name = prefix + label
            if name in failed:
                print(f"{name:<27} failed: {failed[name]}", flush=True)
                continue
            r = median_result(runs[name])
            base = base or r
            span = max(r.requests_span_s, 1e-9)
            print(
                f"{name:<27} {r.cli_wall_s:>7.2f} {r.requests_span_s:>7.2f} "
                f"{r.units_done / r.cli_wall_s:>8.1f} {r.units_done / span:>8.1f} "
                f"{base.cli_wall_s / r.cli_wall_s:>6.2f} "
                f"{max(base.requests_span_s, 1e-9) / span:>6.2f} {r.cli_cpu_s:>7.2f} "
                f"{r.cli_cpu_s / r.cli_wall_s:>5.2f} "
                f"{r.server_cpu_s:>6.2f} {ceiling(base, r, workers_of(label)):>6.2f} "
                f"{r.server_max_in_flight:>5} {r.units_done:>5}  "
                f"{' '.join(f'{x.cli_wall_s:.1f}/{x.cli_cpu_s:.1f}' for x in runs[name])}",
                flush=True,
            )
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
