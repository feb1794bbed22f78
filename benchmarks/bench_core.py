#!/usr/bin/env python3
"""Core performance figures of lifebench (a script that prints numbers; not a test).

Figures (see benchmarks/README.md for what each one means):

1. scripted throughput: simulations/s and steps/s of full units (suite episode building,
   run_episode, state grading, RunStore commit) with scripted models, at concurrency 1 and 64;
2. mock-server latency efficiency: a run through the real HTTP client against a loopback mock
   OpenAI server that answers every request after 0.2 s, at concurrency 256;
3. peak RSS of the process;
4. time to load the task file;
5. environment set-up time per simulation.

Usage::

    python benchmarks/bench_core.py            # full run (about a minute)
    python benchmarks/bench_core.py --quick    # smoke run (a few seconds)
    python benchmarks/bench_core.py --json     # machine-readable output
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import platform
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from lifebench import __version__
from lifebench._util.text import Language
from lifebench.evaluation import combine
from lifebench.messages import AssistantMessage, Message, ToolCall
from lifebench.models import ModelConfig, ModelFactory, ModelsConfig, RetryPolicy, ScriptedModel
from lifebench.runner import STORE_FILENAME, Progress, RunStore, RunSummary
from lifebench.runner._experiment import build_experiment, run_experiment
from lifebench.simulation import run_episode
from lifebench.suites import RunOptions
from lifebench.testing.mock_openai import (
    MockOpenAIServer,
    MockServerThread,
    completion_response,
    tool_call,
)
from lifebench.vita import prompts
from lifebench.vita.agents.oracle import oracle_plan
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.loader import load_bundled_tasks, load_tasks
from lifebench.vita.task import VitaTask

REPO = Path(__file__).resolve().parents[1]
DEFAULT_TASKS = REPO.parent / "shared" / "data" / "vitabench" / "delivery_tasks_en.json"
"""The official 60-task delivery file, read in place (never copied into the repository)."""

LANGUAGE: Language = "en"
AGENT_MODEL = "bench-agent"
USER_MODEL = "bench-user"
STOP = "###STOP###"
MOCK_LATENCY_S = 0.2
MOCK_CONCURRENCY = 256


# --------------------------------------------------------------------------------------------
# Sizes
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sizes:
    """How much work each figure does."""

    scripted_units: int
    """Units of each scripted run, about (tasks × trials, trials = units / tasks rounded)."""
    scripted_repeats: int
    """Scripted runs per concurrency (interleaved c1, c64, c1, …; the best one is reported)."""
    mock_units: int
    """Units of the mock-server run (a multiple of 256 when the task count allows it)."""
    load_repeats: int
    """Loads of the task file (best reported)."""
    env_repeats: int
    """Environments built per task."""


FULL = Sizes(scripted_units=600, scripted_repeats=2, mock_units=512, load_repeats=5, env_repeats=5)
QUICK = Sizes(scripted_units=60, scripted_repeats=1, mock_units=256, load_repeats=2, env_repeats=1)


# --------------------------------------------------------------------------------------------
# The scripted conversation (figure 1)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What the scripted user asks for and the scripted agent does, for one task.

    Taken from the first order the task expects (via the oracle's plan), so the conversation
    is plausible and often graded as a success: search the store, read its catalog, create
    the order, pay it, then tell the user.
    """

    task_id: str
    request: str
    store_name: str
    store_id: str
    create_args: dict[str, Any]
    pay: bool


def make_plan(task: VitaTask) -> Plan:
    """The scripted conversation of ``task`` (every official delivery task creates an order)."""
    calls = oracle_plan(task)
    index = next((i for i, c in enumerate(calls) if c.name == "create_delivery_order"), None)
    stores: dict[str, Any] = task.environment.get("stores") or {}
    if index is None:  # no new order expected: order the first product of the first store
        store_id, store = next(iter(stores.items()))
        product = store["products"][0]
        places = task.environment.get("location") or [{"address": ""}]
        create_args: dict[str, Any] = {
            "user_id": str(task.environment.get("user_id", "")),
            "store_id": store_id,
            "product_ids": [product["product_id"]],
            "product_cnts": [1],
            "address": str(places[0].get("address", "")),
            "dispatch_time": str(task.environment.get("time", "")),
        }
        pay = True
    else:
        create_args = dict(calls[index].args)
        store_id = str(create_args["store_id"])
        store = stores.get(store_id) or {}
        following = calls[index + 1] if index + 1 < len(calls) else None
        pay = following is not None and following.name == "pay_delivery_order"
    first_product = str(create_args["product_ids"][0])
    product_name = next(
        (
            str(p.get("name"))
            for p in store.get("products") or []
            if p["product_id"] == first_product
        ),
        first_product,
    )
    store_name = str(store.get("name", store_id))
    request = (
        f"Hi, I'd like {product_name} from {store_name}, delivered to {create_args['address']}."
    )
    return Plan(task.id, request, store_name, store_id, create_args, pay)


class ScriptedConversation:
    """The scripts of the agent's and the user's :class:`ScriptedModel`.

    Both are stateless functions of the conversation (one model instance serves every
    concurrent unit): the user finds its task from its system prompt, the agent from the
    user's first line, and the agent's next action from the tool results seen so far.
    """

    def __init__(self, tasks: Sequence[VitaTask]) -> None:
        self.by_user_prompt: dict[str, Plan] = {}
        self.by_request: dict[str, Plan] = {}
        for task in tasks:
            plan = make_plan(task)
            if plan.request in self.by_request:  # keep requests unambiguous
                plan = Plan(
                    plan.task_id,
                    f"{plan.request} (ref {task.id})",
                    plan.store_name,
                    plan.store_id,
                    plan.create_args,
                    plan.pay,
                )
            key = prompts.user_prompt(task.user_scenario.user_profile, task.instructions, LANGUAGE)
            self.by_user_prompt[key] = plan
            self.by_request[plan.request] = plan

    def user(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None
    ) -> AssistantMessage:
        """The user's view is role-flipped: its own earlier lines are assistant messages."""
        if any(m.role == "assistant" for m in messages):
            return AssistantMessage(content=STOP)
        return AssistantMessage(content=self.by_user_prompt[messages[0].content].request)

    def agent(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None
    ) -> AssistantMessage:
        """search store → store info → create order → pay → tell the user."""
        request = next(m.content for m in messages if m.role == "user")
        plan = self.by_request[request]
        results = [m for m in messages if m.role == "tool"]
        stage = len(results)
        if stage == 0:
            return _call(stage, "delivery_store_search_recommand", {"keywords": [plan.store_name]})
        if stage == 1:
            hits = _json_list(results[-1].content)
            store_id = next(
                (str(s["store_id"]) for s in hits if s.get("name") == plan.store_name),
                plan.store_id,
            )
            return _call(stage, "get_delivery_store_info", {"store_id": store_id})
        if stage == 2:
            return _call(stage, "create_delivery_order", plan.create_args)
        order_id = _order_id(results[-1].content)
        if stage == 3 and plan.pay and order_id:
            return _call(stage, "pay_delivery_order", {"order_id": order_id})
        return AssistantMessage(
            content=f"Your order {order_id or ''} is placed. Is there anything else I can do?"
        )


def _call(stage: int, name: str, args: dict[str, Any]) -> AssistantMessage:
    arguments = json.dumps(args, ensure_ascii=False)
    return AssistantMessage(
        tool_calls=[ToolCall(id=f"call_{stage}", name=name, arguments=arguments)]
    )


def _json_list(content: str) -> list[dict[str, Any]]:
    """The objects of a JSON list result ([] for an error text or anything else)."""
    try:
        value = json.loads(content)
    except json.JSONDecodeError:
        return []
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _order_id(content: str) -> str | None:
    try:
        value = json.loads(content)
    except json.JSONDecodeError:
        return None
    if isinstance(value, dict):
        order = value.get("order", value)
        if isinstance(order, dict) and isinstance(order.get("order_id"), str):
            return str(order["order_id"])
    return None


# --------------------------------------------------------------------------------------------
# Running units through run_experiment and reading back what they did
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunTotals:
    """What the units of one run did, read back from its run store."""

    units: int
    done: int
    steps: int
    tool_calls: int
    tool_errors: int
    agent_calls: int
    user_calls: int
    max_calls_per_unit: int
    successes: int
    terminations: dict[str, int]


def read_totals(run_dir: Path) -> RunTotals:
    """Totals from ``run.sqlite`` (read with SQL so that no simulation is re-parsed)."""
    conn = sqlite3.connect(run_dir / STORE_FILENAME)
    try:
        rows = conn.execute(
            "SELECT status, json_extract(simulation_json, '$.steps'), "
            "json_extract(simulation_json, '$.tool_calls'), "
            "json_extract(simulation_json, '$.tool_errors'), "
            "json_extract(simulation_json, '$.agent_usage.calls'), "
            "json_extract(simulation_json, '$.user_usage.calls'), "
            "json_extract(simulation_json, '$.termination'), "
            "json_extract(evaluation_json, '$.reward') FROM units"
        ).fetchall()
    finally:
        conn.close()
    terminations: dict[str, int] = {}
    for row in rows:
        terminations[str(row[6])] = terminations.get(str(row[6]), 0) + 1
    return RunTotals(
        units=len(rows),
        done=sum(1 for r in rows if r[0] == "done"),
        steps=sum(int(r[1] or 0) for r in rows),
        tool_calls=sum(int(r[2] or 0) for r in rows),
        tool_errors=sum(int(r[3] or 0) for r in rows),
        agent_calls=sum(int(r[4] or 0) for r in rows),
        user_calls=sum(int(r[5] or 0) for r in rows),
        max_calls_per_unit=max((int(r[4] or 0) + int(r[5] or 0) for r in rows), default=0),
        successes=sum(1 for r in rows if r[7] is not None and abs(float(r[7]) - 1.0) < 1e-6),
        terminations=dict(sorted(terminations.items())),
    )


async def _run(options: RunOptions, models: ModelFactory) -> RunSummary:
    _, summary = await run_experiment(options, models=models, progress=Progress(quiet=True))
    return summary


def run_units(options: RunOptions, models: ModelFactory) -> tuple[RunSummary, RunTotals]:
    """One full run in a fresh event loop; the totals come from its store."""
    summary = asyncio.run(_run(options, models))
    assert options.out is not None
    return summary, read_totals(Path(options.out))


# --------------------------------------------------------------------------------------------
# Figure 1: scripted throughput
# --------------------------------------------------------------------------------------------


def _scripted_models(conversation: ScriptedConversation) -> ModelFactory:
    models = ModelFactory()
    models.register(
        AGENT_MODEL, ScriptedModel([conversation.agent], name=AGENT_MODEL, repeat_last=True)
    )
    models.register(
        USER_MODEL, ScriptedModel([conversation.user], name=USER_MODEL, repeat_last=True)
    )
    return models


def _scripted_options(
    tasks_file: str | None, trials: int, concurrency: int, out: Path
) -> RunOptions:
    return RunOptions(
        tasks_file=tasks_file,
        trials=trials,
        agent="llm",
        user="llm",
        agent_model=AGENT_MODEL,
        user_model=USER_MODEL,
        concurrency=concurrency,
        out=str(out),
        cache=False,
        quiet=True,
    )


@dataclass(frozen=True)
class ScriptedRun:
    concurrency: int
    units: int
    seconds: float
    sims_per_s: float
    steps_per_s: float
    agent_calls_per_s: float
    tool_calls_per_s: float
    steps_per_sim: float
    tool_errors: int
    successes: int
    terminations: dict[str, int]


def scripted_once(
    tasks_file: str | None, conversation: ScriptedConversation, trials: int, concurrency: int
) -> ScriptedRun:
    """Units = tasks × ``trials``, the LLM agent and LLM user both backed by ScriptedModels."""
    models = _scripted_models(conversation)
    with tempfile.TemporaryDirectory(prefix="lifebench-bench-") as tmp:
        options = _scripted_options(tasks_file, trials, concurrency, Path(tmp) / "run")
        gc.collect()
        summary, totals = run_units(options, models)
    if totals.done != totals.units:
        raise RuntimeError(f"scripted run: only {totals.done} of {totals.units} units done")
    seconds = summary.duration_s
    return ScriptedRun(
        concurrency=concurrency,
        units=totals.units,
        seconds=round(seconds, 3),
        sims_per_s=round(totals.units / seconds, 1),
        steps_per_s=round(totals.steps / seconds, 1),
        agent_calls_per_s=round(totals.agent_calls / seconds, 1),
        tool_calls_per_s=round(totals.tool_calls / seconds, 1),
        steps_per_sim=round(totals.steps / totals.units, 2),
        tool_errors=totals.tool_errors,
        successes=totals.successes,
        terminations=totals.terminations,
    )


async def _stage_times(
    tasks_file: str | None, conversation: ScriptedConversation, out: Path
) -> dict[str, list[float]]:
    """Run one unit per task stage by stage, as Experiment.execute_unit and run_units do."""
    options = _scripted_options(tasks_file, 1, 1, out)
    exp = build_experiment(options, models=_scripted_models(conversation))
    options = exp.options  # with the domain resolved
    store = RunStore.open(
        out,
        options.semantic_dict(),
        options.config_hash(),
        {i: t.content_hash() for i, t in exp.tasks.items()},
    )
    times: dict[str, list[float]] = {
        "build_episode": [],
        "run_episode": [],
        "evaluate": [],
        "store_record": [],
    }
    try:
        for unit in exp.units:
            task = exp.tasks[unit.task_id]
            t0 = time.perf_counter()
            episode = exp.suite.build_episode(task, unit.trial, unit.seed, options, exp.models)
            t1 = time.perf_counter()
            simulation = await run_episode(episode)
            t2 = time.perf_counter()
            results = {b: await ev.evaluate(task, simulation) for b, ev in exp.evaluators.items()}
            evaluation = combine(results, exp.bases)
            t3 = time.perf_counter()
            store.record(unit, simulation, evaluation)
            t4 = time.perf_counter()
            for key, seconds in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                times[key].append(seconds)
    finally:
        store.close()
    return times


def stage_breakdown(tasks_file: str | None, conversation: ScriptedConversation) -> dict[str, Any]:
    """Mean µs per unit of each stage of a scripted unit (one unit per task, sequential)."""
    with tempfile.TemporaryDirectory(prefix="lifebench-bench-") as tmp:
        times = asyncio.run(_stage_times(tasks_file, conversation, Path(tmp) / "run"))
    means = {k: statistics.fmean(v) * 1e6 for k, v in times.items()}
    total = sum(means.values())
    return {
        "units": len(times["build_episode"]),
        "mean_us": {k: round(v, 1) for k, v in means.items()},
        "share": {k: round(v / total, 3) for k, v in means.items()},
    }


def bench_scripted(
    tasks_file: str | None, tasks: Sequence[VitaTask], sizes: Sizes
) -> dict[str, Any]:
    conversation = ScriptedConversation(tasks)
    # Warm-up (untimed): first-use costs (imports, pydantic schema builds) out of the figures.
    scripted_once(tasks_file, conversation, 1, 8)
    trials = max(1, round(sizes.scripted_units / len(tasks)))
    best: dict[int, ScriptedRun] = {}
    for _ in range(sizes.scripted_repeats):
        for concurrency in (1, 64):
            run = scripted_once(tasks_file, conversation, trials, concurrency)
            if concurrency not in best or run.seconds < best[concurrency].seconds:
                best[concurrency] = run
    c1, c64 = best[1], best[64]
    return {
        "c1": asdict(c1),
        "c64": asdict(c64),
        "ratio_c64_over_c1": round(c64.sims_per_s / c1.sims_per_s, 3),
        "repeats": sizes.scripted_repeats,
        "stages": stage_breakdown(tasks_file, conversation),
    }


# --------------------------------------------------------------------------------------------
# Figure 2: latency efficiency against the mock server
# --------------------------------------------------------------------------------------------


def mock_responder(body: dict[str, Any]) -> dict[str, Any]:
    """Agent: one tool call, then a text answer. User: one line, then ###STOP###."""
    messages = body["messages"]
    if body.get("tools"):
        if messages[-1]["role"] == "tool":
            return completion_response("Here are your orders. Anything else?")
        return completion_response(None, tool_calls=[tool_call("get_user_all_orders", {})])
    said = sum(1 for m in messages if m["role"] == "assistant")
    return completion_response(STOP if said else "Can you check my orders?")


def mock_layout(n_tasks: int, units: int) -> tuple[int, int]:
    """(tasks, trials) giving ``units`` units exactly when possible (32 tasks × trials)."""
    for chosen in (32, 16, 8, 4, 2, 1):
        if chosen <= n_tasks and units % chosen == 0:
            return chosen, units // chosen
    return n_tasks, math.ceil(units / n_tasks)  # pragma: no cover - 1 always divides


def bench_mock(tasks_file: str | None, n_tasks: int, sizes: Sizes) -> dict[str, Any]:
    server = MockOpenAIServer(responder=mock_responder, latency_s=MOCK_LATENCY_S)
    num_tasks, trials = mock_layout(n_tasks, sizes.mock_units)
    with MockServerThread(server) as running:
        config = ModelConfig(
            model="mock",
            base_url=running.base_url,
            api_key_env=None,
            max_concurrency=2 * MOCK_CONCURRENCY,
            timeout_s=60.0,
            retry=RetryPolicy(max_attempts=3, base_delay_s=0.05, max_delay_s=0.5),
            cache=False,
        )
        models = ModelFactory(ModelsConfig(models={"mock": config}))
        with tempfile.TemporaryDirectory(prefix="lifebench-bench-") as tmp:
            options = RunOptions(
                tasks_file=tasks_file,
                num_tasks=num_tasks,
                trials=trials,
                agent="llm",
                user="llm",
                agent_model="mock",
                user_model="mock",
                concurrency=MOCK_CONCURRENCY,
                out=str(Path(tmp) / "run"),
                cache=False,
                quiet=True,
            )
            gc.collect()
            wall_started = time.perf_counter()
            cpu_started, main_cpu_started = time.process_time(), time.thread_time()
            summary, totals = run_units(options, models)
            main_cpu = time.thread_time() - main_cpu_started
            process_cpu = time.process_time() - cpu_started
            wall_total = time.perf_counter() - wall_started
        requests = running.count
        max_in_flight = running.max_in_flight
        stats = models.total_stats()
    if totals.done != totals.units or requests == 0:
        raise RuntimeError(
            f"mock run: {totals.done} of {totals.units} units done, {requests} requests, "
            f"endings {totals.terminations}"
        )
    wall = summary.duration_s
    sum_over_concurrency = requests * MOCK_LATENCY_S / MOCK_CONCURRENCY
    critical_path = totals.max_calls_per_unit * MOCK_LATENCY_S
    ideal = max(sum_over_concurrency, critical_path)
    waves = math.ceil(totals.units / MOCK_CONCURRENCY)
    return {
        "units": totals.units,
        "done": totals.done,
        "concurrency": MOCK_CONCURRENCY,
        "latency_s": MOCK_LATENCY_S,
        "requests": requests,
        "model_calls": stats.calls,
        "model_retries": stats.retries,
        "max_calls_per_unit": totals.max_calls_per_unit,
        "server_max_in_flight": max_in_flight,
        "wall_s": round(wall, 3),
        "wall_incl_setup_s": round(wall_total, 3),
        "ideal_sum_over_concurrency_s": round(sum_over_concurrency, 3),
        "critical_path_s": round(critical_path, 3),
        "ideal_s": round(ideal, 3),
        "efficiency": round(ideal / wall, 3),
        "wave_bound_s": round(waves * critical_path, 3),
        "overhead_per_request_ms": round(max(wall - ideal, 0.0) / requests * 1000, 3),
        "client_cpu_s": round(main_cpu, 3),
        "server_thread_cpu_s": round(process_cpu - main_cpu, 3),
        "terminations": totals.terminations,
    }


# --------------------------------------------------------------------------------------------
# Figures 4 and 5: loading tasks, building environments
# --------------------------------------------------------------------------------------------


def load(tasks_file: str | None) -> list[VitaTask]:
    if tasks_file is None:
        return load_bundled_tasks("delivery", LANGUAGE)
    return load_tasks(tasks_file)


def bench_load(tasks_file: str | None, repeats: int) -> dict[str, Any]:
    times = []
    count = 0
    for _ in range(repeats):
        started = time.perf_counter()
        count = len(load(tasks_file))
        times.append(time.perf_counter() - started)
    return {
        "tasks": count,
        "best_ms": round(min(times) * 1000, 2),
        "median_ms": round(statistics.median(times) * 1000, 2),
        "repeats": repeats,
    }


def bench_env(tasks: Sequence[VitaTask], repeats: int) -> dict[str, Any]:
    """DeliveryEnvironment(task), and (apart) the tool schemas every LLM-agent episode builds."""
    started = time.perf_counter()
    DeliveryEnvironment(tasks[0], language=LANGUAGE).tools.openai_schemas(LANGUAGE)
    first = time.perf_counter() - started  # first use in the process, kept out of the mean
    per_build: list[float] = []
    per_schemas: list[float] = []
    for _ in range(repeats):
        for task in tasks:
            started = time.perf_counter()
            env = DeliveryEnvironment(task, language=LANGUAGE)
            built = time.perf_counter()
            env.tools.openai_schemas(LANGUAGE)
            per_schemas.append(time.perf_counter() - built)
            per_build.append(built - started)
    return {
        "builds": len(per_build),
        "mean_us": round(statistics.fmean(per_build) * 1e6, 1),
        "median_us": round(statistics.median(per_build) * 1e6, 1),
        "max_us": round(max(per_build) * 1e6, 1),
        "tool_schemas_mean_us": round(statistics.fmean(per_schemas) * 1e6, 1),
        "first_use_us": round(first * 1e6, 1),
    }


def peak_rss_mb() -> float:
    """``ru_maxrss`` of this process in MB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def resolve_tasks_file(given: str | None) -> str | None:
    """The task file to use; ``None`` means the tasks bundled with the package."""
    if given:
        return given
    return str(DEFAULT_TASKS) if DEFAULT_TASKS.is_file() else None


def print_text(results: dict[str, Any]) -> None:
    meta = results["meta"]
    print(
        f"lifebench {meta['lifebench']} · Python {meta['python']} · {meta['cpus']} CPUs · "
        f"{'quick' if meta['quick'] else 'full'} run"
    )
    print(f"tasks: {meta['tasks_source']} ({meta['n_tasks']} tasks)")
    s = results["scripted"]
    print("\n1. scripted throughput (LLM agent + LLM user on ScriptedModels, state grading, store)")
    for key in ("c1", "c64"):
        r = s[key]
        print(
            f"   concurrency {r['concurrency']:>3}: {r['units']} sims in {r['seconds']:.2f} s → "
            f"{r['sims_per_s']:.1f} sims/s, {r['steps_per_s']:.0f} steps/s, "
            f"{r['agent_calls_per_s']:.0f} agent calls/s, {r['tool_calls_per_s']:.0f} tool calls/s"
        )
    c1 = s["c1"]
    print(
        f"   ratio c64/c1: {s['ratio_c64_over_c1']:.2f}  "
        f"({c1['steps_per_sim']} steps/sim, {c1['successes']}/{c1['units']} graded successes, "
        f"{c1['tool_errors']} tool errors, endings {c1['terminations']})"
    )
    st = s["stages"]
    parts = ", ".join(
        f"{k} {st['mean_us'][k]:.0f} µs ({st['share'][k]:.0%})" for k in st["mean_us"]
    )
    print(f"   per-unit stages (c1, {st['units']} units): {parts}")
    m = results["mock"]
    print(
        f"\n2. mock-server latency efficiency (latency {m['latency_s']} s, "
        f"concurrency {m['concurrency']}, real HTTP client, no cache)"
    )
    print(
        f"   {m['units']} units, {m['requests']} requests "
        f"(max {m['max_calls_per_unit']} sequential calls per unit, "
        f"server max in flight {m['server_max_in_flight']}, retries {m['model_retries']})"
    )
    print(
        f"   wall {m['wall_s']:.2f} s vs ideal {m['ideal_s']:.2f} s "
        f"[Σlatency/concurrency {m['ideal_sum_over_concurrency_s']:.2f} s, "
        f"critical path {m['critical_path_s']:.2f} s]"
    )
    print(
        f"   efficiency {m['efficiency']:.2f}  "
        f"(overhead ≈ {m['overhead_per_request_ms']:.2f} ms per request; endings "
        f"{m['terminations']})"
    )
    print(
        f"   CPU: client (main thread) {m['client_cpu_s']:.2f} s, "
        f"mock server thread {m['server_thread_cpu_s']:.2f} s (same process, shared GIL)"
    )
    print(
        f"\n3. peak RSS: {results['peak_rss_mb']:.1f} MB "
        f"(after loading: {results['rss_after_load_mb']:.1f} MB, "
        f"after the scripted runs: {results['rss_after_scripted_mb']:.1f} MB)"
    )
    ld = results["load"]
    print(
        f"\n4. load {ld['tasks']} tasks: best {ld['best_ms']:.1f} ms "
        f"(median {ld['median_ms']:.1f} ms of {ld['repeats']})"
    )
    e = results["env"]
    print(
        f"\n5. DeliveryEnvironment(task): mean {e['mean_us']:.0f} µs "
        f"(median {e['median_us']:.0f} µs, max {e['max_us']:.0f} µs, {e['builds']} builds); "
        f"+ ToolSet.openai_schemas {e['tool_schemas_mean_us']:.0f} µs per LLM-agent episode "
        f"(first use in the process, both: {e['first_use_us']:.0f} µs, not in the mean)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--tasks",
        help=f"delivery task file (default: {DEFAULT_TASKS} if present, else the bundled tasks)",
    )
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    tasks_file = resolve_tasks_file(args.tasks)
    tasks = load(tasks_file)

    results: dict[str, Any] = {
        "meta": {
            "lifebench": __version__,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "quick": args.quick,
            "tasks_source": tasks_file or "bundled (lifebench.vita.data/delivery_en.json)",
            "n_tasks": len(tasks),
            "sizes": asdict(sizes),
        }
    }
    results["rss_after_load_mb"] = peak_rss_mb()
    results["load"] = bench_load(tasks_file, sizes.load_repeats)
    results["env"] = bench_env(tasks, sizes.env_repeats)
    results["scripted"] = bench_scripted(tasks_file, tasks, sizes)
    results["rss_after_scripted_mb"] = peak_rss_mb()
    results["mock"] = bench_mock(tasks_file, len(tasks), sizes)
    results["peak_rss_mb"] = peak_rss_mb()
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_text(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
