#!/usr/bin/env python3
"""End-to-end overhead of the harness: the real CLI against a mock endpoint in its own process.

For every cell (latency × concurrency × N) the script starts the loopback mock endpoint as a
separate process (this script with ``--serve``: ``lifebench.testing.mock_openai.serve``, one
aiohttp server that never stores requests), then runs the real command line::

    lifebench run --agent llm --user llm --evaluator rubric \
        --agent-model mock@URL --user-model mock@URL --judge-model mock@URL \
        --num-tasks … --trials … --concurrency C --out TMP --quiet

on the bundled generated delivery tasks (100 tasks; N = 1,000 is 100 tasks × 10 trials). The
mock plays a fixed conversation: the user asks once, the agent makes five tool calls and then
ends the conversation with ``###STOP###`` (6 agent requests), and the rubric judge reads the
13 messages in 2 windows (2 judge requests, each answering an unmet verdict for every rubric
it is sent: the grader accepts no partial answer): 9 requests per unit.

Printed per cell: the CLI's wall time (start-up and report included) and the run's own wall
time (the store's session opened → the last unit committed); the floor
ceil(N / concurrency) × requests per unit × latency and the efficiency floor / wall; the CPU
time of the CLI process (user + system, from ``wait4``) per request and per unit; the mock's
own CPU time; the requests by role; the CLI's peak RSS; the run store's size per unit
(``KB/unit``: run.sqlite and its WAL, the recorded requests and responses included).
``--extra=FLAG`` adds a flag to every run (``--extra=--no-record-requests`` measures the
harness without recording; ``--cli`` another checkout, to compare before and after).

Harness CPU per request is printed two ways. ``ms/req`` divides ALL the CLI's CPU (interpreter
start, imports, loading tasks, the requests, grading, the report, exit) by the requests.
``-start`` leaves out the start-up, i.e. the CPU spent before the mock saw the first request
(``st cpu``; sampled from ``/proc/PID/stat`` every 4 ms, 10 ms resolution, Linux only): it is
the cost of the requests themselves plus grading, store writes, the report and exit. Issue
12's acceptance ("per model request, the harness's own CPU, everything but waiting") is
judged on ``-start``, start-up being the separate "fast start" item; both are printed, and
with N = 1,000 the two converge (start-up spread over 9,000 requests). The marginal figure
printed for cells run at N and 10 × N (the CPU difference of the two runs) is a third,
independent estimate of the per-request cost without start-up.

Before the first cell the script runs the CLI once, unmeasured, on one unit, and the CLI runs
without ``PYTHONDONTWRITEBYTECODE``: modules load from cached byte-code, as after any first
run of an installed package (with that variable set, an editable install recompiles every
lifebench module at every start, about 0.1 s of CPU).

Usage::

    python benchmarks/bench_e2e.py                  # the full matrix (see --help for the cells)
    python benchmarks/bench_e2e.py --quick          # 200 ms and 0 ms at concurrency 64, N = 100
    python benchmarks/bench_e2e.py --latency 0.2 --concurrency 64 --n 100 --repeat 3
    python benchmarks/bench_e2e.py --latency 0 --concurrency 64 --n 100 --profile prof/
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

STOP = "###STOP###"
MODEL = "mock"
TASKS = 100
"""Bundled generated delivery tasks (N is tasks × trials)."""
AGENT_PLAN: tuple[tuple[str, dict[str, Any]], ...] = (
    ("get_user_historical_behaviors", {}),
    ("get_user_all_orders", {}),
    ("delivery_store_search_recommand", {"keywords": ["noodles"]}),
    ("delivery_product_search_recommand", {"keywords": ["rice"]}),
    ("get_date_holiday_info", {"date": "2025-01-01"}),
)
REQUESTS_PER_UNIT = 1 + len(AGENT_PLAN) + 1 + 2
SKIP_FLOOR_S = 300.0
"""Cells whose floor is longer than this are skipped unless --all is given."""


# --------------------------------------------------------------------------------------------
# The mock endpoint's conversation (runs in the server process)
# --------------------------------------------------------------------------------------------


def _completion(message: dict[str, Any], prompt_tokens: int) -> dict[str, Any]:
    return {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": 0,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
            }
        ],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 12, "total_tokens": 0},
    }


def judge_answer(messages: Sequence[dict[str, Any]]) -> str:
    """A rubric judge's complete answer: one verdict for every rubric the request lists (the
    JSON object between ``<current_rubrics>`` or ``<rubrics>`` tags of its last message), each
    unmet (the scripted agent orders nothing), so that the run grades like a real one."""
    prompt = str(messages[-1].get("content", "")) if messages else ""
    rubrics: dict[str, Any] = {}
    for tag in ("current_rubrics", "rubrics"):
        start, end = prompt.rfind(f"<{tag}>"), prompt.rfind(f"</{tag}>")
        if 0 <= start < end:
            rubrics = json.loads(prompt[start + len(tag) + 2 : end])
            break
    verdicts = [
        {
            "rubric_key": key,
            "rubric": str(item.get("rubric", "")) if isinstance(item, dict) else "",
            "justification": "[1] the assistant placed no order in this window.",
            "meetExpectation": False,
        }
        for key, item in rubrics.items()
    ]
    return json.dumps(verdicts, ensure_ascii=False)


def responder(body: dict[str, Any]) -> dict[str, Any]:
    """Agent: five tool calls, then a text ending the conversation. User: one request.
    Judge (its system prompt names the rubrics): a verdict for every rubric it was given
    (:func:`judge_answer`)."""
    messages = body["messages"]
    prompt_tokens = len(messages) * 100
    if body.get("tools"):
        done = sum(1 for m in messages if m.get("role") == "tool")
        if done < len(AGENT_PLAN):
            name, args = AGENT_PLAN[done]
            call = {
                "id": f"call_{done}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            return _completion(message, prompt_tokens)
        text = f"I found what you need and placed nothing yet. Goodbye! {STOP}"
        return _completion({"role": "assistant", "content": text}, prompt_tokens)
    system = str(messages[0].get("content", "")) if messages else ""
    if "rubric" in system:
        return _completion({"role": "assistant", "content": judge_answer(messages)}, prompt_tokens)
    text = "Hi, I'd like a bowl of noodles delivered to my home, please."
    return _completion({"role": "assistant", "content": text}, prompt_tokens)


def serve(latency_s: float) -> int:
    """The mock endpoint process (``--serve``)."""
    from lifebench.testing.mock_openai import MockOpenAIServer, serve

    serve(MockOpenAIServer(responder=responder, latency_s=latency_s, keep_requests=False))
    return 0


# --------------------------------------------------------------------------------------------
# One cell
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    latency_s: float
    concurrency: int
    n: int
    flags: tuple[str, ...] = ()
    """More ``lifebench run`` options (e.g. ``--workers 2``)."""

    @property
    def floor_s(self) -> float:
        return math.ceil(self.n / self.concurrency) * REQUESTS_PER_UNIT * self.latency_s


@dataclass(frozen=True)
class Result:
    latency_s: float
    concurrency: int
    n: int
    units_done: int
    requests: int
    requests_per_unit: float
    by_role: dict[str, int]
    floor_s: float
    cli_wall_s: float
    run_wall_s: float
    startup_s: float
    requests_span_s: float
    tail_s: float
    efficiency: float | None
    span_efficiency: float | None
    cli_cpu_s: float
    startup_cpu_s: float | None
    tail_cpu_s: float | None
    cpu_per_request_ms: float
    run_cpu_per_request_ms: float | None
    cpu_per_unit_ms: float
    server_cpu_s: float
    server_cpu_per_request_ms: float
    server_max_in_flight: int
    peak_rss_mb: float
    exit_code: int
    store_kb_per_unit: float = 0.0
    """run.sqlite (and its WAL) after the run, divided by the units: what a unit costs on disk
    (the recorded requests and responses included unless --no-record-requests)."""


class MockProcess:
    """The mock endpoint in a process of its own (this script with ``--serve``)."""

    def __init__(self, latency_s: float) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--latency", str(latency_s)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.strip().isdigit():
            self.proc.kill()
            raise RuntimeError(f"the mock server did not start: {line!r}")
        self.port = int(line)
        self.base_url = f"http://127.0.0.1:{self.port}/v1"

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.base_url + "/_stats", timeout=10) as response:
            data: dict[str, Any] = json.loads(response.read())
        return data

    def stop(self) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        final: dict[str, Any] = json.loads(self.proc.stdout.readline())
        self.proc.wait(timeout=30)
        return final


def cli_command() -> list[str]:
    """The installed ``lifebench`` script of this interpreter's environment."""
    script = Path(sys.executable).with_name("lifebench")
    if script.is_file():
        return [str(script)]
    found = shutil.which("lifebench")
    if found:
        return [found]
    return [sys.executable, "-c", "from lifebench.cli import main; main()"]


def cli_env() -> dict[str, str]:
    """The CLI's environment: this one without ``PYTHONDONTWRITEBYTECODE``, so that modules are
    loaded from cached byte-code as after any first run of an installed package (with the
    variable set, an editable install recompiles every lifebench module on every start:
    about 0.1 s of CPU that no user pays twice)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


class CpuSampler:
    """Samples a process's CPU time (``/proc/PID/stat``, user + system) every few
    milliseconds, so that the CPU spent before the first request (start-up) and after the last
    one (report, exit) can be told apart from the CPU of the requests. Linux only: elsewhere
    it records nothing and the split is not shown. Resolution: the kernel's clock tick
    (10 ms)."""

    def __init__(self, pid: int, interval_s: float = 0.004) -> None:
        self.samples: list[tuple[float, float]] = []
        self._path = Path(f"/proc/{pid}/stat")
        self._tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._interval = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _read(self) -> float | None:
        try:
            fields = self._path.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return (int(fields[11]) + int(fields[12])) / self._tick

    def _run(self) -> None:
        while not self._stop.is_set():
            cpu = self._read()
            if cpu is None:
                return
            self.samples.append((time.time(), cpu))
            self._stop.wait(self._interval)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def at(self, moment: float) -> float | None:
        """The CPU time of the last sample taken at or before ``moment``."""
        found = None
        for when, cpu in self.samples:
            if when > moment:
                break
            found = cpu
        return found


def warm_byte_code(cli: Sequence[str]) -> None:
    """One unmeasured one-unit run, so that every module a run imports has its byte-code
    cached (see :func:`cli_env`) before the measured runs."""
    mock = MockProcess(0.0)
    try:
        with tempfile.TemporaryDirectory(prefix="lifebench-e2e-") as tmp:
            command = [*cli, *cli_args(Cell(0.0, 1, 1), mock.base_url, Path(tmp) / "run")]
            subprocess.run(command, stdout=subprocess.DEVNULL, env=cli_env(), check=True)
    finally:
        mock.stop()


def cli_args(cell: Cell, base_url: str, out: Path) -> list[str]:
    spec = f"{MODEL}@{base_url}"
    return [
        "run",
        "--task-set",
        "generated",
        "--num-tasks",
        str(min(cell.n, TASKS)),
        "--trials",
        str(max(1, cell.n // TASKS)),
        "--agent",
        "llm",
        "--user",
        "llm",
        "--evaluator",
        "rubric",
        "--agent-model",
        spec,
        "--user-model",
        spec,
        "--judge-model",
        spec,
        "--concurrency",
        str(cell.concurrency),
        *cell.flags,
        "--out",
        str(out),
        "--quiet",
    ]


def _when(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def read_store(out: Path) -> tuple[int, Counter[str], float]:
    """Units done, answered requests by role, and the run's wall time (from the opening of
    the store's session to the last unit's commit)."""
    conn = sqlite3.connect(out / "run.sqlite")
    try:
        rows = conn.execute(
            "SELECT status, json_extract(simulation_json, '$.agent_usage.calls'), "
            "json_extract(simulation_json, '$.user_usage.calls'), "
            "json_extract(evaluation_json, '$.by_basis.rubric.usage.calls') FROM units"
        ).fetchall()
        (last,) = conn.execute("SELECT max(at) FROM attempts WHERE kind = 'attempt'").fetchone()
        (opened,) = conn.execute("SELECT max(opened_at) FROM sessions").fetchone()
    finally:
        conn.close()
    roles: Counter[str] = Counter()
    for _, agent, user, judge in rows:
        roles["agent"] += int(agent or 0)
        roles["user"] += int(user or 0)
        roles["judge"] += int(judge or 0)
    done = sum(1 for r in rows if r[0] == "done")
    wall = _when(last) - _when(opened) if last and opened else 0.0
    return done, roles, wall


def run_cell(
    cell: Cell,
    profile_dir: Path | None = None,
    cli: Sequence[str] = (),
    extra: Sequence[str] = (),
) -> Result:
    mock = MockProcess(cell.latency_s)
    try:
        before = mock.stats()
        with tempfile.TemporaryDirectory(prefix="lifebench-e2e-") as tmp:
            out = Path(tmp) / "run"
            command = [*(cli or cli_command()), *cli_args(cell, mock.base_url, out), *extra]
            if profile_dir is not None:
                profile_dir.mkdir(parents=True, exist_ok=True)
                name = f"L{cell.latency_s:g}-c{cell.concurrency}-n{cell.n}"
                command = [
                    "py-spy", "record", "--format", "raw", "--rate", "250", "--nonblocking",
                    "-o", str(profile_dir / f"{name}.txt"), "--", *command,
                ]  # fmt: skip
            started = time.perf_counter()
            started_at = time.time()
            proc = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=cli_env()
            )
            # (under py-spy the sampled process is py-spy itself: no split then)
            sampler = CpuSampler(proc.pid) if profile_dir is None else None
            _, status, usage = os.wait4(proc.pid, 0)
            if sampler is not None:
                sampler.stop()
            wall = time.perf_counter() - started
            ended_at = time.time()
            proc.returncode = os.waitstatus_to_exitcode(status)
            stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            if proc.returncode != 0:
                raise RuntimeError(f"lifebench exited {proc.returncode}: {stderr[-2000:]}")
            done, roles, run_wall = read_store(out)
            store_bytes = sum(
                f.stat().st_size for f in out.glob("run.sqlite*") if f.name != "run.sqlite-shm"
            )
        after = mock.stats()
    finally:
        final = mock.stop()
    requests = int(final["count"])
    first_at, last_at = float(final["first_at"]), float(final["last_at"])
    span = last_at - first_at
    cpu = usage.ru_utime + usage.ru_stime
    server_cpu = float(after["cpu_s"]) - float(before["cpu_s"])
    floor = cell.floor_s
    startup_cpu = sampler.at(first_at) if sampler is not None else None
    before_last = sampler.at(last_at) if sampler is not None else None
    tail_cpu = cpu - before_last if before_last is not None else None
    run_cpu = cpu - startup_cpu if startup_cpu is not None else None
    return Result(
        latency_s=cell.latency_s,
        concurrency=cell.concurrency,
        n=cell.n,
        units_done=done,
        requests=requests,
        requests_per_unit=round(requests / cell.n, 2),
        by_role=dict(roles),
        floor_s=round(floor, 3),
        cli_wall_s=round(wall, 3),
        run_wall_s=round(run_wall, 3),
        startup_s=round(first_at - started_at, 3),
        requests_span_s=round(span, 3),
        tail_s=round(ended_at - last_at, 3),
        efficiency=round(floor / wall, 3) if floor else None,
        span_efficiency=round(floor / (span + cell.latency_s), 3) if floor else None,
        cli_cpu_s=round(cpu, 3),
        startup_cpu_s=round(startup_cpu, 3) if startup_cpu is not None else None,
        tail_cpu_s=round(tail_cpu, 3) if tail_cpu is not None else None,
        cpu_per_request_ms=round(cpu / max(requests, 1) * 1000, 3),
        run_cpu_per_request_ms=(
            round(run_cpu / max(requests, 1) * 1000, 3) if run_cpu is not None else None
        ),
        cpu_per_unit_ms=round(cpu / cell.n * 1000, 2),
        server_cpu_s=round(server_cpu, 3),
        server_cpu_per_request_ms=round(server_cpu / max(requests, 1) * 1000, 3),
        server_max_in_flight=int(final["max_in_flight"]),
        peak_rss_mb=round(usage.ru_maxrss / 1024, 1),
        exit_code=proc.returncode,
        store_kb_per_unit=round(store_bytes / 1024 / max(done, 1), 2),
    )


def median_result(results: Sequence[Result]) -> Result:
    """The run with the median CLI wall time (its own figures, not a mix of runs)."""
    ordered = sorted(results, key=lambda r: r.cli_wall_s)
    return ordered[(len(ordered) - 1) // 2]


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def print_table(results: Sequence[Result]) -> None:
    header = (
        f"{'lat':>5} {'conc':>4} {'N':>5} {'req':>6} {'r/u':>4} {'floor':>6} {'wall':>6} "
        f"{'start':>5} {'span':>6} {'tail':>5} {'eff':>5} {'speff':>5} {'cpu s':>6} "
        f"{'st cpu':>6} {'ms/req':>6} {'-start':>6} {'ms/unit':>7} {'srv s':>5} "
        f"{'srv ms/req':>10} {'inflt':>5} "
        f"{'rss MB':>6} {'KB/unit':>7}  by role (a/u/j)"
    )
    print(header)
    for r in results:
        roles = (
            f"{r.by_role.get('agent', 0)}/{r.by_role.get('user', 0)}/{r.by_role.get('judge', 0)}"
        )
        print(
            f"{r.latency_s:>5g} {r.concurrency:>4} {r.n:>5} {r.requests:>6} "
            f"{r.requests_per_unit:>4g} {r.floor_s:>6.2f} {r.cli_wall_s:>6.2f} "
            f"{r.startup_s:>5.2f} {r.requests_span_s:>6.2f} {r.tail_s:>5.2f} "
            f"{_fmt(r.efficiency, '>5.2f')} {_fmt(r.span_efficiency, '>5.2f')} "
            f"{r.cli_cpu_s:>6.2f} {_fmt(r.startup_cpu_s, '>6.2f')} {r.cpu_per_request_ms:>6.3f} "
            f"{_fmt(r.run_cpu_per_request_ms, '>6.3f')} {r.cpu_per_unit_ms:>7.2f} "
            f"{r.server_cpu_s:>5.2f} {r.server_cpu_per_request_ms:>10.3f} "
            f"{r.server_max_in_flight:>5} {r.peak_rss_mb:>6.1f} {r.store_kb_per_unit:>7.1f}  "
            f"{roles}"
        )
    by_key = {(r.latency_s, r.concurrency, r.n): r for r in results}
    for (latency, concurrency, n), small in sorted(by_key.items()):
        big = by_key.get((latency, concurrency, n * 10))
        if big is None:
            continue
        marginal = (big.cli_cpu_s - small.cli_cpu_s) / (big.n - small.n) * 1000
        marginal_req = (big.cli_cpu_s - small.cli_cpu_s) / max(big.requests - small.requests, 1)
        print(
            f"per-unit CPU, latency {latency:g} s, concurrency {concurrency}: "
            f"N={n}: {small.cpu_per_unit_ms:.2f} ms, N={big.n}: {big.cpu_per_unit_ms:.2f} ms; "
            f"marginal {marginal:.2f} ms per unit, {marginal_req * 1000:.3f} ms per request "
            "(start-up excluded)"
        )


PHASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("start-up (imports, tasks, store open)", ("_find_and_load", "build_experiment")),
    ("end-of-run report", ("finish_report",)),
)
"""Phases of the run: a sample whose stack passes through one of these frames is counted there."""

SUBSYSTEMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("store: secret scrubbing", ("Scrubber.__call__",)),
    ("store: SQLite writes and the rest", ("_Recorder.finished", "RunStore.", "runner/_store.py")),
    ("model cache (lookup, write)", ("ModelCache.", "models/_cache.py")),
    ("call recording (recipes, blobs)", ("CallRecorder.", "models/_record.py")),
    ("request bodies (JSON pieces, cache keys)", ("models/_wire.py",)),
    ("response parsing and validation", ("parse_completion", "models/_convert.py")),
    (
        "HTTP client (aiohttp, our transport)",
        ("aiohttp/", "models/_http.py", "multidict/", "yarl/"),
    ),
    ("model layer (rest: retries, limits, health)", ("lifebench/models/", "RoleModel.generate")),
    ("product search ranking", ("vita/domains/_match.py",)),
    ("tools and the environment", ("ToolSet.", "lifebench/vita/domains/", "lifebench/tools/")),
    (
        "grading (judge prompts, verdicts, rules)",
        ("lifebench/vita/grading/", "lifebench/evaluation/", "evaluate (lifebench/runner/_exp"),
    ),
    ("packing outcomes", ("PackedOutcome.of",)),
    ("simulation loop and episodes (rest)", ("lifebench/simulation/", "build_episode")),
    ("scheduler, experiment (rest)", ("lifebench/runner/",)),
)
"""Subsystems by a frame of theirs: the frame nearest the sample's leaf that names one wins (so
the HTTP request of a judge counts as HTTP, not as grading)."""


def area_of(stack: str) -> str:
    """The phase or subsystem a py-spy stack (frames joined by ``;``, root first) counts in."""
    phase = next((a for a, keys in PHASES if any(k in stack for k in keys)), None)
    if phase is not None:
        return phase
    for frame in reversed(stack.split(";")):
        area = next((a for a, keys in SUBSYSTEMS if any(k in frame for k in keys)), None)
        if area is not None:
            return area
    if "concurrent/futures/thread.py" in stack:
        return "worker threads (executor: cache writes)"
    if "asyncio/" in stack or "selectors.py" in stack:
        return "asyncio itself (event loop, selectors, tasks)"
    return "other"


def area_shares(path: Path) -> list[tuple[str, float]]:
    """The share of a py-spy raw file's samples per area (:func:`area_of`); they sum to 1."""
    counts: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        counts[area_of(stack)] += int(count_text)
    total = sum(counts.values()) or 1
    return [(area, count / total) for area, count in counts.most_common()]


def summarise_profile(path: Path, top: int = 25) -> None:
    """Self and inclusive sample shares of a py-spy raw (collapsed stacks) file."""
    self_counts: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = stack.split(";")
        total += count
        self_counts[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count
    if not total:
        print(f"{path}: no samples")
        return
    print(f"\n{path.name}: {total} samples")
    print("  by area:")
    for area, share in area_shares(path):
        print(f"    {share:6.1%}  {area}")
    print("  self time:")
    for frame, count in self_counts.most_common(top):
        print(f"    {count / total:6.1%}  {frame}")
    print("  inclusive time:")
    for frame, count in inclusive.most_common(top):
        print(f"    {count / total:6.1%}  {frame}")


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        return "?"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--latency", type=float, action="append", help="seconds (repeatable)")
    parser.add_argument("--concurrency", type=int, action="append", help="(repeatable)")
    parser.add_argument("--n", type=int, action="append", help="units: 100 or a multiple (rep.)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per cell; the median is shown")
    parser.add_argument("--quick", action="store_true", help="200 ms and 0 ms, c 64, N 100")
    parser.add_argument("--all", action="store_true", help=f"no skip of floors > {SKIP_FLOOR_S}s")
    parser.add_argument("--profile", type=Path, help="record each CLI run with py-spy here")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        help="a flag added to every run (repeatable), e.g. --extra=--no-record-requests",
    )
    parser.add_argument(
        "--cli",
        help="the command to benchmark instead of this environment's lifebench (e.g. another "
        "checkout: 'env PYTHONPATH=/tmp/old/src python -m lifebench.cli')",
    )
    args = parser.parse_args(argv)
    if args.profile is not None and shutil.which("py-spy") is None:
        parser.error("--profile records with py-spy, which is not on PATH (pip install py-spy)")
    if args.serve:
        return serve(args.latency[0] if args.latency else 0.0)
    if args.quick:
        cells = [Cell(0.2, 64, 100), Cell(0.0, 64, 100)]
    else:
        cells = [
            Cell(latency, concurrency, n)
            for latency in args.latency or [0.0, 0.2]
            for concurrency in args.concurrency or [1, 64, 256]
            for n in args.n or [100, 1000]
        ]
    skipped = [c for c in cells if c.floor_s > SKIP_FLOOR_S and not args.all]
    cells = [c for c in cells if c not in skipped]
    print(
        f"load average before: {load_average()} · {os.cpu_count()} CPUs · "
        f"{REQUESTS_PER_UNIT} requests per unit",
        file=sys.stderr,
    )
    results: list[Result] = []
    cli = shlex.split(args.cli) if args.cli else ()
    if cells:
        warm_byte_code(cli or cli_command())
    for cell in cells:
        runs = [run_cell(cell, args.profile, cli, args.extra) for _ in range(max(1, args.repeat))]
        result = median_result(runs)
        results.append(result)
        print(
            f"  done: latency {cell.latency_s:g}, c {cell.concurrency}, N {cell.n}: "
            f"wall {[r.cli_wall_s for r in runs]}, load {load_average()}",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=2))
    else:
        print_table(results)
        for cell in skipped:
            print(
                f"skipped: latency {cell.latency_s:g}, c {cell.concurrency}, N {cell.n} "
                f"(floor {cell.floor_s:.0f} s; --all runs it)"
            )
    print(f"load average after: {load_average()}", file=sys.stderr)
    if args.profile:
        for path in sorted(args.profile.glob("*.txt")):
            summarise_profile(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
