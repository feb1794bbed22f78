#!/usr/bin/env python3
"""What recording every model call costs: CPU per call and bytes per unit (a script that
prints figures; not a test).

The model layer is run in-process with an instant transport (no HTTP, no server: nothing
but the harness's own work), on the conversation of ``bench_e2e.py``: per unit, the user
simulator asks once, the agent (offered the 20 delivery tools) makes five tool calls and
ends, the rubric judge reads two windows — 9 calls whose requests grow with the
conversation (the user's persona and the tool results differ from unit to unit, as the tasks
of a run do). Each unit runs

* ``off``: as with ``--no-record-requests`` (no call log is open);
* ``on``: with a call log (recipes, blobs, compression, scrubbing), packed and committed
  with its unit to a real run store (``RunStore.record_packed``: blobs, calls, briefing);
  in ``off`` the unit is committed too, without calls;

alternately, ``--repeat`` times, and the median CPU (``time.process_time``) per call of each
mode is printed with their difference — the cost of recording a call — and the run store's
size per unit with and without recording.

Usage::

    python benchmarks/bench_recording.py               # 200 units × 5 repeats
    python benchmarks/bench_recording.py --units 50 --repeat 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lifebench.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolResultMessage,
    UserMessage,
)
from lifebench.models import CallLog, GenerateConfig, OpenAICompatibleModel, for_role, recording
from lifebench.models._http import HttpAnswer
from lifebench.models._record import grading, labelled
from lifebench.runner import RunStore, UnitOutcome, WorkUnit
from lifebench.runner._transcript import UnitRecorder
from lifebench.runner._units import PackedOutcome
from lifebench.simulation._types import Simulation, TerminationReason
from lifebench.vita.suite import VitaSuite

PLAN = (
    "get_user_historical_behaviors",
    "get_user_all_orders",
    "delivery_store_search_recommand",
    "delivery_product_search_recommand",
    "get_date_holiday_info",
)


def result(unit: int, step: int) -> str:
    """A tool result of the size the delivery tools return, different in every unit."""
    return json.dumps(
        {
            "stores": [
                {"id": f"S{unit}-{step}-{i}", "name": f"Noodle house {unit}.{i}", "score": 4.5}
                for i in range(8)
            ]
        }
    )


class InstantTransport:
    """Answers every request at once with a canned completion (what the mock would send)."""

    closed = False

    def __init__(self) -> None:
        self.requests = 0

    async def post(self, body: bytes) -> HttpAnswer:
        self.requests += 1
        data = json.loads(body)
        messages = data["messages"]
        if data.get("tools"):
            done = sum(1 for m in messages if m["role"] == "tool")
            if done < len(PLAN):
                message: dict[str, Any] = {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"call_{done}",
                            "type": "function",
                            "function": {"name": PLAN[done], "arguments": "{}"},
                        }
                    ],
                }
            else:
                message = {"role": "assistant", "content": "Done. ###STOP###"}
        elif "rubric" in messages[0]["content"]:
            message = {"role": "assistant", "content": "[]"}
        else:
            message = {"role": "assistant", "content": "A bowl of noodles, please."}
        answer = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": data["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 12},
        }
        return HttpAnswer(200, json.dumps(answer).encode())

    async def aclose(self) -> None:
        return None


async def unit(model: OpenAICompatibleModel, tools: tuple[dict[str, Any], ...], seed: int) -> None:
    """One unit's nine calls (the conversation of bench_e2e.py)."""
    agent, user, judge = (for_role(model, r) for r in ("agent", "user", "judge"))
    config = GenerateConfig(temperature=0.0, seed=seed)
    system = SystemMessage(content="You are a delivery assistant. " * 40)
    trajectory: list[Message] = [AssistantMessage(content="Hello, how can I help you?")]
    persona = f"You are customer {seed} and want noodles delivered home. " * 30
    said = await user.generate(
        [SystemMessage(content=persona), UserMessage(content="Hello")], config=config
    )
    trajectory.append(UserMessage(content=said.content))
    for step in range(len(PLAN) + 1):
        reply = await agent.generate([system, *trajectory], tools=tools, config=config)
        trajectory.append(reply)
        for call in reply.tool_calls:
            trajectory.append(
                ToolResultMessage(
                    tool_call_id=call.id, name=call.name, content=result(seed, len(trajectory))
                )
            )
        if not reply.tool_calls:
            break
        del step
    with grading("rubric"):
        for window in (1, 2):
            with labelled(f"window {window}/2"):
                text = "\n".join(m.content for m in trajectory)
                await judge.generate(
                    [SystemMessage(content="Judge the rubric. " * 50), UserMessage(content=text)],
                    config=config,
                )


def _simulation(task: str, trial: int, seed: int) -> Simulation:
    return Simulation(
        task_id=task, trial=trial, seed=seed, messages=[], termination=TerminationReason.AGENT_STOP
    )


async def measure(units: int, record: bool, store: RunStore, offset: int) -> tuple[float, int]:
    """CPU seconds per call and calls made, for ``units`` units."""
    model = OpenAICompatibleModel(
        name="mock",
        model="mock",
        base_url="http://x/v1",
        api_key="sk-bench-0123456789abcdef01234567",
    )
    transport = InstantTransport()
    model._transport = transport  # no HTTP: the harness's own work only
    tools = VitaSuite().tool_schemas(VitaSuite().environment(_empty_task(), "delivery", "en"), "en")
    recorder = UnitRecorder()
    start = time.process_time()
    for i in range(units):
        log: CallLog | None = recorder.log() if record else None
        with recording(log):
            await unit(model, tools, seed=offset + i)
        work = WorkUnit(f"t{offset + i}", 0, offset + i)
        calls = None if log is None else log.pack()
        outcome = UnitOutcome(_simulation(work.task_id, 0, work.seed), calls=calls)
        store.record_packed(PackedOutcome.of(work, outcome))  # (both modes commit the unit)
    spent = time.process_time() - start
    return spent / transport.requests, transport.requests


def _empty_task() -> Any:
    from lifebench.vita.suite import _empty_task as empty

    return empty("delivery")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    per_call: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        tasks = {f"t{i}": "h" for i in range(args.units * args.repeat * 2)}
        tasks.update({f"t{10**6 + i}": "h" for i in range(5)})
        with (
            RunStore.open(out / "on", {"bench": 1}, "h", tasks) as on,
            RunStore.open(out / "off", {"bench": 1}, "h", tasks) as off,
        ):
            asyncio.run(measure(5, True, on, 10**6))  # warm-up (imports, memos)
            offset = 0
            for _ in range(args.repeat):
                for record in (False, True):
                    cpu, calls = asyncio.run(
                        measure(args.units, record, on if record else off, offset)
                    )
                    per_call[record].append(cpu)
                    offset += args.units
        size_on = sum(f.stat().st_size for f in (out / "on").glob("run.sqlite*"))
        size_off = sum(f.stat().st_size for f in (out / "off").glob("run.sqlite*"))
        recorded_units = args.units * args.repeat + 5
    off_ms = statistics.median(per_call[False]) * 1000
    on_ms = statistics.median(per_call[True]) * 1000
    print(
        f"units per run {args.units}, runs per mode {args.repeat}, calls per unit {calls // args.units}"
    )
    for record, ms in ((False, off_ms), (True, on_ms)):
        runs = ", ".join(f"{x * 1000:.4f}" for x in per_call[record])
        name = "recording:    " if record else "not recording:"
        print(f"harness CPU per call, {name} {ms:.4f} ms  (runs: {runs})")
    print(
        f"recording costs {on_ms - off_ms:.4f} ms per call (log, blobs, compression, store write)"
    )
    print(
        f"run store per unit: {size_on / 1024 / recorded_units:.1f} KB recording, "
        f"{size_off / 1024 / (args.units * args.repeat):.1f} KB not (the units here hold an "
        "empty trajectory: the difference is what recording adds)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
