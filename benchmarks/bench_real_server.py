#!/usr/bin/env python3
"""lifebench against a real OpenAI-compatible server: units per second, requests in flight,
and the harness's share of the run's time.

The server is llama.cpp's (``llama-cpp-python[server]``) serving SmolLM2-135M-Instruct on
loopback (:mod:`lifebench.testing.llama_server`; install it as CONTRIBUTING.md, "The
real-server tests", says). Between lifebench and the server sits a counting pass-through
proxy in this process (aiohttp; it forwards bytes unchanged) that records when each request
arrives and when its answer leaves. The real CLI runs VitaBench units (the bundled generated
delivery tasks) with the agent, the user simulator and the rubric judge on the server::

    lifebench run --task-set generated --num-tasks N --agent llm --user llm --evaluator both
        --models FILE --agent-model agent --user-model user --judge-model judge
        --max-steps S --concurrency C

Printed: the CLI's wall time and CPU (user + system, ``wait4``), units per second, requests
(by status), the mean and largest number of requests in flight at the server, the time the
server had at least one request (``busy``), and the harness's share of the wall time — the
part in which no request was at the server (start-up, building episodes, tools, grading, the
store, the report) — plus the CLI's CPU per request. llama.cpp's server answers one request
at a time, so requests beyond the first wait at the server: in flight > 1 means lifebench
keeps the server saturated.

    python benchmarks/bench_real_server.py                  # 4 units, concurrency 4
    python benchmarks/bench_real_server.py --units 8 --concurrency 8 --max-steps 6

The machine is shared: the load average is printed before and after; absolute times on a
busy box are several times those on an idle one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lifebench.testing.llama_server import (
    MODEL_ALIAS,
    LlamaServer,
    find_model,
    unavailable_reason,
)

AGENT_TOOL = "delivery_store_search_recommand"
"""The tool the agent is made to call (``tool_choice``): llama.cpp's function-calling chat
format shows the model the tools only when a request names a ``tool_choice``."""


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


@dataclass
class Counts:
    """What the proxy saw."""

    events: list[tuple[float, int]] = field(default_factory=list)
    """(time, +1 arrival / -1 answer)."""
    statuses: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, when: float, delta: int) -> None:
        with self.lock:
            self.events.append((when, delta))

    def figures(self, start: float, end: float) -> tuple[int, float, int, float]:
        """Requests, mean in flight over [start, end], most in flight, busy seconds."""
        events = sorted(self.events)
        level, peak, area, busy = 0, 0, 0.0, 0.0
        last = start
        for when, delta in events:
            area += level * (when - last)
            if level:
                busy += when - last
            last = when
            level += delta
            peak = max(peak, level)
        requests = sum(1 for _, delta in events if delta > 0)
        return requests, area / max(end - start, 1e-9), peak, busy


class Proxy:
    """A pass-through HTTP proxy on a loopback port, in a thread with its own event loop."""

    def __init__(self, upstream: str, counts: Counts) -> None:
        self.upstream, self.counts = upstream.rstrip("/"), counts
        self.port = 0
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def __enter__(self) -> Proxy:
        self._thread.start()
        self._ready.wait(30)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    async def _main(self) -> None:
        from aiohttp import ClientSession, ClientTimeout, web

        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        session = ClientSession(timeout=ClientTimeout(total=None))

        async def forward(request: web.Request) -> web.Response:
            body = await request.read()
            self.counts.add(time.time(), +1)
            try:
                async with session.request(
                    request.method,
                    self.upstream + request.path_qs,
                    data=body,
                    headers={"Content-Type": request.headers.get("Content-Type", "")},
                ) as answer:
                    payload = await answer.read()
                    status = answer.status
                    kind = answer.headers.get("Content-Type", "application/json")
            finally:
                self.counts.add(time.time(), -1)
            with self.counts.lock:
                self.counts.statuses[status] = self.counts.statuses.get(status, 0) + 1
            return web.Response(body=payload, status=status, content_type=kind.split(";")[0])

        app = web.Application(client_max_size=64 << 20)
        app.router.add_route("*", "/{tail:.*}", forward)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = int(server.sockets[0].getsockname()[1])
        self._ready.set()
        await self._stop.wait()
        await runner.cleanup()
        await session.close()


def models_file(path: Path, base_url: str, max_tokens: int) -> Path:
    def entry(tokens: int, **extra: Any) -> dict[str, Any]:
        spec: dict[str, Any] = {
            "model": MODEL_ALIAS,
            "base_url": base_url,
            "api_key_env": None,
            "timeout_s": 3600.0,
            "max_tokens": tokens,
            "retry": {"max_attempts": 2},
        }
        if extra:
            spec["extra_body"] = extra
        return spec

    choice = {"type": "function", "function": {"name": AGENT_TOOL}}
    models = {
        "agent": entry(max_tokens, tool_choice=choice),
        "user": entry(max_tokens),
        "judge": entry(max_tokens * 3),
    }
    path.write_text(json.dumps({"models": models}))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--units", type=int, default=4, help="generated delivery tasks")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--max-steps", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, default=32)
    parser.add_argument("--threads", type=int, help="llama.cpp generation threads")
    args = parser.parse_args()
    reason = unavailable_reason()
    model = find_model()
    if reason is not None or model is None:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    print(f"load average before: {load_average()} · {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="lifebench-real-") as tmp:
        tmpdir = Path(tmp)
        log = tmpdir / "server.log"
        loading = time.perf_counter()
        with LlamaServer(model, threads=args.threads, log=log) as server:
            print(f"server up in {time.perf_counter() - loading:.1f} s ({server.base_url})")
            counts = Counts()
            with Proxy(f"http://127.0.0.1:{server.port}", counts) as proxy:
                url = f"http://127.0.0.1:{proxy.port}/v1"
                command = [
                    str(Path(sys.executable).with_name("lifebench")),
                    "run", "--task-set", "generated", "--num-tasks", str(args.units),
                    "--agent", "llm", "--user", "llm", "--evaluator", "both",
                    "--models", str(models_file(tmpdir / "models.json", url, args.max_tokens)),
                    "--agent-model", "agent", "--user-model", "user", "--judge-model", "judge",
                    "--max-steps", str(args.max_steps), "--concurrency", str(args.concurrency),
                    "--out", str(tmpdir / "run"), "--quiet",
                ]  # fmt: skip
                started_at = time.time()
                proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                _, status, usage = os.wait4(proc.pid, 0)
                ended_at = time.time()
                output = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                crashed = server.crashed()
        code = os.waitstatus_to_exitcode(status)
        if crashed:
            print(f"the server died: {crashed}", file=sys.stderr)
            return 1
        if code not in (0, 1):  # 1: graded, some units failed the task
            print(f"lifebench exited {code}:\n{output[-3000:]}", file=sys.stderr)
            return 1
    wall = ended_at - started_at
    requests, mean_inflight, peak, busy = counts.figures(started_at, ended_at)
    cpu = usage.ru_utime + usage.ru_stime
    print(output.strip().splitlines()[0] if output.strip() else "")
    print(
        f"units {args.units}, concurrency {args.concurrency}, max steps {args.max_steps}, "
        f"max_tokens {args.max_tokens}"
    )
    print(f"  wall {wall:.1f} s · {args.units / wall:.3f} units/s · {requests / wall:.3f} req/s")
    print(
        f"  requests {requests} (HTTP statuses {dict(sorted(counts.statuses.items()))}) · "
        f"in flight mean {mean_inflight:.2f}, max {peak}"
    )
    print(
        f"  server busy {busy:.1f} s ({100 * busy / wall:.1f} % of the wall time); "
        f"harness alone {wall - busy:.1f} s ({100 * (wall - busy) / wall:.1f} %)"
    )
    print(f"  CLI CPU {cpu:.2f} s ({1000 * cpu / max(requests, 1):.1f} ms per request)")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
