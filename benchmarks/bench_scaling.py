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
flight at the mock, and the load average. The machine is shared: compare ratios within one
run (``--repeat`` takes the median run of each configuration), and read the load.

    python benchmarks/bench_scaling.py                       # N 1,000, c 64: 1, 2, 4 workers, Ray 2
    python benchmarks/bench_scaling.py --n 300 --workers 1 2 --no-ray
    python benchmarks/bench_scaling.py --latency 0.2 --n 1000 --concurrency 256
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
    warm_byte_code(cli)
    print(
        f"{'configuration':<18} {'wall s':>7} {'span s':>7} {'units/s':>8} {'span u/s':>8} "
        f"{'× wall':>6} {'× span':>6} {'cpu s':>7} {'cores':>5} {'inflt':>5} {'done':>5}  "
        "load after"
    )
    base: Result | None = None
    for label, flags in configs:
        cell = Cell(args.latency, args.concurrency, args.n, flags)
        try:
            runs = [run_cell(cell, None, cli) for _ in range(max(1, args.repeat))]
        except RuntimeError as exc:  # e.g. a local Ray instance that did not start in time
            reason = str(exc).strip().splitlines()[-1]
            print(f"{label:<18} failed: {reason}  (load {load_average()})", flush=True)
            continue
        r = median_result(runs)
        base = base or r
        span = max(r.requests_span_s, 1e-9)
        print(
            f"{label:<18} {r.cli_wall_s:>7.2f} {r.requests_span_s:>7.2f} "
            f"{r.units_done / r.cli_wall_s:>8.1f} {r.units_done / span:>8.1f} "
            f"{base.cli_wall_s / r.cli_wall_s:>6.2f} "
            f"{max(base.requests_span_s, 1e-9) / span:>6.2f} {r.cli_cpu_s:>7.2f} "
            f"{r.cli_cpu_s / r.cli_wall_s:>5.2f} "
            f"{r.server_max_in_flight:>5} {r.units_done:>5}  {load_average()}",
            flush=True,
        )
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
