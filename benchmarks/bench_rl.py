#!/usr/bin/env python3
"""The step protocol's own cost (a script that prints figures; not a test).

1. CPU per step: the bundled VitaBench tasks played through ``StepEnvironment`` by a policy that
   replays the oracle's replies (answers precomputed: the policy costs nothing), one episode at
   a time. Every step's CPU is split into the tools' own work (``EpisodeProcess.perform`` of a
   tool call), the grading at the end (the evaluators), and the rest — the harness: the rules,
   the user simulator, the agent's reading of the answer, building the observation. Printed for
   actions given as ``AssistantMessage`` objects and as OpenAI dicts (what the servers pass).
2. Memory: 1,000 episodes (the tasks × 10 trials) reset and played concurrently in one event
   loop, every one of them alive until all are done; the peak RSS of the process, before and
   after, and per episode.

Usage::

    python benchmarks/bench_rl.py            # all bundled delivery tasks, 1,000 concurrent
    python benchmarks/bench_rl.py --quick    # 20 tasks, 200 concurrent
    python benchmarks/bench_rl.py --json
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import sys
import time
from collections.abc import Sequence
from typing import Any

from lifebench.messages import AssistantMessage
from lifebench.models._convert import message_to_openai
from lifebench.rl import StepEnvironment
from lifebench.runner._experiment import build_experiment
from lifebench.simulation import EpisodeProcess, ToolRun, run_episode
from lifebench.suites import make_run_options


def rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (Linux: ru_maxrss is KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def oracle_replies(values: dict[str, Any]) -> dict[str, list[AssistantMessage]]:
    """The oracle's replies on every task (trial 0), by task id."""
    exp = build_experiment(make_run_options({**values, "agent": "oracle"}))
    out = {}
    for task_id, task in exp.tasks.items():
        seed = 0
        episode = exp.suite.build_episode(task, 0, seed, exp.options, exp.models)
        simulation = await run_episode(episode)
        out[task_id] = [
            AssistantMessage(content=m.content, tool_calls=m.tool_calls)
            for m in simulation.messages[1:]
            if isinstance(m, AssistantMessage)
        ]
    return out


class CpuSplit:
    """CPU time spent in tool calls and in grading, measured around those calls."""

    def __init__(self) -> None:
        self.tools = 0.0
        self.grading = 0.0

    def install(self, env: StepEnvironment) -> None:
        perform = EpisodeProcess.perform
        evaluate = env.evaluate
        split = self

        async def timed_perform(process: EpisodeProcess, need: Any) -> Any:
            if not isinstance(need, ToolRun):
                return await perform(process, need)
            start = time.process_time()
            try:
                return await perform(process, need)
            finally:
                split.tools += time.process_time() - start

        async def timed_evaluate(task: Any, simulation: Any) -> Any:
            start = time.process_time()
            try:
                return await evaluate(task, simulation)
            finally:
                split.grading += time.process_time() - start

        EpisodeProcess.perform = timed_perform  # type: ignore[method-assign]
        env.evaluate = timed_evaluate  # type: ignore[method-assign]


async def cpu_per_step(
    env: StepEnvironment, replies: dict[str, list[AssistantMessage]], dicts: bool, rounds: int
) -> dict[str, float]:
    split = CpuSplit()
    split.install(env)
    steps = episodes = 0
    rewards = []
    gc.collect()
    start = time.process_time()
    for trial in range(rounds):
        for task_id in env.task_ids:
            session = await env.reset(task_id, trial, seed=0)
            for answer in replies[task_id]:
                if session.done:
                    break
                await session.step(message_to_openai(answer) if dicts else answer)
                steps += 1
            episodes += 1
            assert session.outcome is not None
            rewards.append(session.outcome.reward)
    total = time.process_time() - start
    harness = total - split.tools - split.grading
    return {
        "episodes": episodes,
        "steps": steps,
        "mean_reward": sum(r or 0 for r in rewards) / len(rewards),
        "cpu_total_s": round(total, 3),
        "cpu_tools_s": round(split.tools, 3),
        "cpu_grading_s": round(split.grading, 3),
        "harness_ms_per_step": round(1000 * harness / steps, 4),
        "tools_ms_per_step": round(1000 * split.tools / steps, 4),
        "grading_ms_per_episode": round(1000 * split.grading / episodes, 4),
    }


async def concurrent(
    env: StepEnvironment, replies: dict[str, list[AssistantMessage]], n: int
) -> dict[str, float]:
    ids = env.task_ids
    gc.collect()
    before = rss_mb()
    sessions = [await env.reset(ids[i % len(ids)], i // len(ids)) for i in range(n)]
    after_reset = rss_mb()
    turn = 0
    started = time.perf_counter()

    async def advance(i: int) -> None:
        session = sessions[i]
        answers = replies[session.task_id]
        if not session.done and turn < len(answers):
            await session.step(answers[turn])

    while not all(s.done for s in sessions):
        await asyncio.gather(*(advance(i) for i in range(n)))
        turn += 1
    wall = time.perf_counter() - started
    peak = rss_mb()
    graded = sum(1 for s in sessions if s.outcome is not None and s.outcome.status == "graded")
    return {
        "episodes": n,
        "graded": graded,
        "rss_before_mb": round(before, 1),
        "rss_after_reset_mb": round(after_reset, 1),
        "rss_peak_mb": round(peak, 1),
        "mb_per_episode": round((peak - before) / n, 3),
        "play_wall_s": round(wall, 2),
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    values: dict[str, Any] = {"suite": "vita", "domain": "delivery"}
    if args.quick:
        values["num_tasks"] = 20
    replies = await oracle_replies(values)
    env = StepEnvironment.build(values)
    figures: dict[str, Any] = {}
    figures["cpu_objects"] = await cpu_per_step(env, replies, dicts=False, rounds=args.rounds)
    figures["cpu_openai_dicts"] = await cpu_per_step(env, replies, dicts=True, rounds=args.rounds)
    memory_env = StepEnvironment.build(values)
    figures["concurrent"] = await concurrent(memory_env, replies, args.concurrent)
    return figures


def show(figures: dict[str, Any]) -> None:
    for name in ("cpu_objects", "cpu_openai_dicts"):
        f = figures[name]
        print(
            f"{name}: {f['episodes']} episodes, {f['steps']} steps, mean reward "
            f"{f['mean_reward']:.3f}; harness {f['harness_ms_per_step']} ms/step, tools "
            f"{f['tools_ms_per_step']} ms/step, grading {f['grading_ms_per_episode']} ms/episode"
        )
    c = figures["concurrent"]
    print(
        f"concurrent: {c['episodes']} episodes at once ({c['graded']} graded): RSS "
        f"{c['rss_before_mb']} MiB before, {c['rss_after_reset_mb']} after resets, peak "
        f"{c['rss_peak_mb']} MiB ({c['mb_per_episode']} MiB/episode); played in "
        f"{c['play_wall_s']} s"
    )


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 tasks, 200 concurrent")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rounds", type=int, default=3, help="trials per task for CPU figures")
    parser.add_argument("--concurrent", type=int, default=None)
    args = parser.parse_args(argv)
    if args.concurrent is None:
        args.concurrent = 200 if args.quick else 1000
    return args


if __name__ == "__main__":
    arguments = parse(sys.argv[1:])
    result = asyncio.run(main(arguments))
    if arguments.json:
        print(json.dumps(result, indent=2))
    else:
        show(result)
