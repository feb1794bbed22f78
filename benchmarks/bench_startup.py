#!/usr/bin/env python3
"""Start-up of the command line: from the CLI's start to the first model request.

The mock endpoint of ``bench_e2e.py`` runs in its own process (latency 0); the real CLI runs
one unit against it (``lifebench run --task-set generated --num-tasks 1 --agent llm --user llm
--evaluator rubric`` with every role on the mock, the same command line as ``bench_e2e.py``).
Printed per repeat:

- ``first req``: wall time from the CLI process's start to the mock receiving its first request;
- ``st cpu``: the CLI's CPU time (user + system) at that moment (``/proc/PID/stat``, 10 ms
  resolution, Linux only);
- ``wall`` / ``cpu``: the whole one-unit run (start-up, the unit, grading, the report, exit);
- ``--help``: wall and CPU of ``lifebench run --help`` (typer's options built, nothing run);
- ``import``: wall and CPU of ``python -c 'import lifebench.cli'`` (this environment's; ``nan``
  with ``--cli``).

``--importtime`` runs the one-unit command once more under ``python -X importtime`` and prints
the modules with the largest cumulative import time whose parent is not itself in the list
(top-level entries: what each lazy import costs), plus the total. Figures only: this script
never asserts a timing.

Usage::

    python benchmarks/bench_startup.py                   # 3 repeats
    python benchmarks/bench_startup.py --repeat 5 --importtime
    python benchmarks/bench_startup.py --cli 'env PYTHONPATH=/work/main/src python -m lifebench.cli'
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_e2e import Cell, CpuSampler, MockProcess, cli_args, cli_command, cli_env


def _cli(cli: str) -> list[str]:
    return shlex.split(cli) if cli else cli_command()


def _timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU (children's user + system) of one command."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=cli_env()
    )
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def one_run(
    cli: list[str], prefix: list[str] | None = None
) -> tuple[float, float | None, float, float, str]:
    """(first request wall s, start-up CPU s, whole wall s, whole CPU s, stderr)."""
    cell = Cell(latency_s=0.0, concurrency=1, n=1)
    mock = MockProcess(0.0)
    try:
        with tempfile.TemporaryDirectory(prefix="lifebench-startup-") as tmp:
            command = [*(prefix or []), *cli, *cli_args(cell, mock.base_url, Path(tmp) / "run")]
            started_at = time.time()
            started = time.perf_counter()
            proc = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=cli_env()
            )
            sampler = CpuSampler(proc.pid)
            assert proc.stderr is not None
            stderr = proc.stderr.read().decode(errors="replace")
            _, status, usage = os.wait4(proc.pid, 0)
            sampler.stop()
            wall = time.perf_counter() - started
            code = os.waitstatus_to_exitcode(status)
            if code != 0:
                raise RuntimeError(f"lifebench exited {code}: {stderr[-2000:]}")
    finally:
        final = mock.stop()
    first_at = float(final["first_at"])
    return (
        first_at - started_at,
        sampler.at(first_at),
        wall,
        usage.ru_utime + usage.ru_stime,
        stderr,
    )


_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def importtime_top(stderr: str, top: int) -> list[tuple[int, int, str]]:
    """(cumulative µs, self µs, module) of the imports at the outermost level, largest first."""
    rows: list[tuple[int, int, int, str]] = []
    for line in stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match:
            rows.append((int(match[2]), int(match[1]), len(match[3]), match[4]))
    outer = [(cum, own, name) for cum, own, depth, name in rows if depth == 1]
    return sorted(outer, reverse=True)[:top]


def _fmt(value: float | None) -> str:
    return f"{value:7.3f}" if value is not None else "      -"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cli", default="", help="the command line to measure (default: ours)")
    parser.add_argument("--importtime", action="store_true", help="print the import-time top list")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    cli = _cli(args.cli)
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} · {os.cpu_count()} CPUs"
    )
    print(
        f"{'#':>2} {'first req':>9} {'st cpu':>7} {'wall':>7} {'cpu':>7} {'help w':>7} {'help c':>7} {'imp w':>7} {'imp c':>7}"
    )
    firsts: list[float] = []
    cpus: list[float] = []
    python = sys.executable  # (the import column is this environment's: left out with --cli)
    for index in range(args.repeat):
        first, st_cpu, wall, cpu, _ = one_run(cli)
        help_wall, help_cpu = _timed([*cli, "run", "--help"])
        imp_wall, imp_cpu = (
            _timed([python, "-c", "import lifebench.cli"]) if not args.cli else (math.nan, math.nan)
        )
        firsts.append(first)
        if st_cpu is not None:
            cpus.append(st_cpu)
        print(
            f"{index + 1:>2} {first:9.3f} {_fmt(st_cpu)} {wall:7.3f} {cpu:7.3f} "
            f"{help_wall:7.3f} {help_cpu:7.3f} {imp_wall:7.3f} {imp_cpu:7.3f}"
        )
    if firsts:
        print(f"median first request {statistics.median(firsts):.3f} s wall", end="")
        print(f", {statistics.median(cpus):.3f} s CPU" if cpus else "")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.importtime:
        if cli == cli_command():
            prefix = [
                sys.executable,
                "-X",
                "importtime",
                "-c",
                "from lifebench.cli import main; main()",
            ]
            _, _, _, _, stderr = one_run([], prefix=prefix)
        else:
            _, _, _, _, stderr = one_run(cli, prefix=["env", "PYTHONPROFILEIMPORTTIME=1"])
        rows = importtime_top(stderr, args.top)
        total = sum(cum for cum, _, _ in importtime_top(stderr, 10**6))
        print(
            f"import time of the one-unit run: {total / 1e6:.3f} s (top-level imports, cumulative)"
        )
        for cum, own, name in rows:
            print(f"  {cum / 1e3:8.1f} ms  (self {own / 1e3:6.1f})  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
