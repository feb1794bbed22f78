#!/usr/bin/env python3
"""The floor under the harness's own cost: what the libraries it must use cost alone.

Issue 19 asks for at most 0.3 ms of harness CPU per model request (after start-up) and at most
0.2 s from the CLI's start to its first request. This script measures, on this machine and in
one sitting, how much of that the chosen libraries take by themselves, so that the harness's
figures can be read against a floor instead of against zero:

* **HTTP floor.** The real CLI runs N units against the mock endpoint of ``bench_e2e.py`` (its
  own process, latency 0, the same command line, every request recorded). Then the exact
  request bodies the CLI sent (read back from its run store) are sent again by a bare
  ``aiohttp`` client in a fresh process — one ``ClientSession``, the same concurrency, each
  response read and parsed with ``json.loads`` and nothing else: no prompts, tools, grading,
  store, cache or recording. Printed: the CLI's CPU per request (all of it, and without its
  start-up), the bare client's CPU per request, and their ratio.
* **Import floor.** The CPU of a fresh interpreter that only imports ``aiohttp``,
  ``pydantic``, ``typer`` and all three (the libraries a run needs before its first request),
  beside the CLI's CPU up to its first request.

Figures only: nothing here asserts a timing. The machine is shared: the load is printed before
and after, and only ratios within one sitting compare.

    python benchmarks/bench_floor.py                 # N 1,000, concurrency 64, 3 repeats
    python benchmarks/bench_floor.py --n 300 --repeat 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_e2e import (
    Cell,
    CpuSampler,
    MockProcess,
    cli_args,
    cli_command,
    cli_env,
    load_average,
    warm_byte_code,
)

IMPORTS = ("aiohttp", "pydantic", "typer", "aiohttp, pydantic, typer")
WARM_UP = 20


def recorded_bodies(out: Path) -> list[bytes]:
    """Every request body the run sent, as sent (rebuilt from the run store's recipes)."""
    from lifebench.runner._transcript import read_transcript

    conn = sqlite3.connect(out / "run.sqlite")
    try:
        units = conn.execute("SELECT task_id, trial FROM units ORDER BY task_id, trial").fetchall()
        bodies: list[bytes] = []
        for task_id, trial in units:
            for stored in read_transcript(conn, str(task_id), int(trial)).calls:
                if not stored.call.cached and stored.request:
                    bodies.append(stored.request.encode())
        return bodies
    finally:
        conn.close()


def run_cli(n: int, concurrency: int, mock: MockProcess, out: Path) -> dict[str, float]:
    """The CLI on ``n`` units: its CPU, its CPU before the first request, the requests."""
    before = mock.stats()
    command = [*cli_command(), *cli_args(Cell(0.0, concurrency, n), mock.base_url, out)]
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=cli_env()
    )
    sampler = CpuSampler(proc.pid)
    _, status, usage = os.wait4(proc.pid, 0)
    sampler.stop()
    if os.waitstatus_to_exitcode(status) != 0:
        stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        raise RuntimeError(f"lifebench failed: {stderr[-2000:]}")
    after = mock.stats()
    requests = int(after["count"]) - int(before["count"])
    first_at = float(after["first_at"])
    cpu = usage.ru_utime + usage.ru_stime
    startup = sampler.at(first_at)
    return {
        "requests": requests,
        "cpu_s": cpu,
        "startup_cpu_s": startup if startup is not None else float("nan"),
    }


def replay(bodies_file: Path, url: str, concurrency: int) -> dict[str, float]:
    """Child process: send every body once with a bare aiohttp client; print its CPU."""
    import aiohttp

    bodies = [bytes.fromhex(line) for line in bodies_file.read_text().split()]

    async def main() -> dict[str, float]:
        limit = asyncio.Semaphore(concurrency)
        headers = {"Content-Type": "application/json", "Authorization": "Bearer bench"}
        connector = aiohttp.TCPConnector(limit=concurrency)
        async with aiohttp.ClientSession(connector=connector) as session:

            async def send(body: bytes) -> None:
                async with limit, session.post(url, data=body, headers=headers) as response:
                    json.loads(await response.read())

            await asyncio.gather(*(send(b) for b in bodies[:WARM_UP]))
            start = resource.getrusage(resource.RUSAGE_SELF)
            began = time.perf_counter()
            await asyncio.gather(*(send(b) for b in bodies))
            wall = time.perf_counter() - began
            end = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime)
        return {"requests": len(bodies), "cpu_s": cpu, "wall_s": wall}

    return asyncio.run(main())


def bare_client(bodies: list[bytes], url: str, concurrency: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".hex", delete=False) as f:
        f.write("\n".join(b.hex() for b in bodies))
        path = Path(f.name)
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--replay", str(path), "--url", url,
             "--concurrency", str(concurrency)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    finally:
        path.unlink()
    result: dict[str, float] = json.loads(done.stdout)
    return result


def import_cpu(modules: str) -> float:
    """CPU (user + system) of a fresh interpreter that imports ``modules`` and exits."""
    proc = subprocess.Popen(
        [sys.executable, "-c", f"import {modules}"], env=cli_env(), stdout=subprocess.DEVNULL
    )
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--n", type=int, default=1000, help="units (100 bundled generated tasks × trials)"
    )
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3, help="sittings; the median is shown")
    parser.add_argument("--replay", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.replay is not None:
        print(json.dumps(replay(args.replay, args.url, args.concurrency)))
        return 0

    print(f"load average before: {load_average()} · {os.cpu_count()} CPUs")
    warm_byte_code(cli_command())
    rows: list[dict[str, float]] = []
    for _ in range(args.repeat):
        mock = MockProcess(0.0)
        try:
            with tempfile.TemporaryDirectory(prefix="lifebench-floor-") as tmp:
                out = Path(tmp) / "run"
                cli = run_cli(args.n, args.concurrency, mock, out)
                bodies = recorded_bodies(out)
            bare = bare_client(bodies, mock.base_url + "/chat/completions", args.concurrency)
        finally:
            mock.stop()
        requests = cli["requests"]
        rows.append(
            {
                "requests": requests,
                "bodies": len(bodies),
                "body_kb": sum(map(len, bodies)) / max(len(bodies), 1) / 1024,
                "cli_ms": cli["cpu_s"] / requests * 1000,
                "cli_run_ms": (cli["cpu_s"] - cli["startup_cpu_s"]) / requests * 1000,
                "bare_ms": bare["cpu_s"] / bare["requests"] * 1000,
                "startup_s": cli["startup_cpu_s"],
            }
        )
        rows[-1]["ratio"] = rows[-1]["cli_run_ms"] / rows[-1]["bare_ms"]

    print(f"\nHTTP floor: latency 0, concurrency {args.concurrency}, N {args.n}")
    print(
        f"{'#':>2} {'req':>6} {'body KB':>7} {'cli ms/req':>10} {'-start':>7} {'bare ms/req':>11} {'ratio':>6}"
    )
    for i, r in enumerate(rows, 1):
        print(
            f"{i:>2} {r['requests']:>6.0f} {r['body_kb']:>7.1f} {r['cli_ms']:>10.3f} "
            f"{r['cli_run_ms']:>7.3f} {r['bare_ms']:>11.3f} {r['ratio']:>6.2f}"
        )
    median = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(
        f"median: CLI {median['cli_run_ms']:.3f} ms/request after start-up, bare aiohttp "
        f"{median['bare_ms']:.3f} ms/request (×{median['ratio']:.2f})"
    )

    print("\nimport floor (a fresh interpreter importing only these; median of the repeats)")
    for modules in ("os", *IMPORTS):
        cpu = statistics.median(import_cpu(modules) for _ in range(args.repeat))
        print(f"  import {modules:<26} {cpu:.3f} s CPU")
    print(f"  CLI up to its first request  {median['startup_s']:.3f} s CPU")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
