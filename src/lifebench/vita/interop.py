"""Importing a results file written by the official VitaBench harness into a run directory.

The official layout (one JSON file): ``{timestamp, info: {git_commit, num_trials, max_steps,
max_errors, user_info, agent_info, environment_info: {domain_name, …}, seed}, tasks: [task…],
simulations: [{id, task_id, trial, seed, termination_reason, agent_cost, user_cost, duration,
reward_info: {reward, nl_rubrics: [{nl_rubric, met, justification}], …}, messages: […],
states: {old_states: […], new_states: […]}}…]}``.

Imported trajectories keep their official verdict as the basis ``official`` and can then be
re-graded (``lifebench eval``), reported and viewed like any run. The official ``llm_args``
blocks are dropped on import: they can hold API headers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lifebench._util.hashing import stable_hash
from lifebench._util.inputs import MAX_TASK_FILE_BYTES, load_json
from lifebench.errors import InputError
from lifebench.evaluation import BasisResult, CriterionVerdict, Evaluation
from lifebench.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.runner import RunStore, WorkUnit
from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.loader import parse_tasks
from lifebench.vita.task import VitaTask

_TERMINATIONS = {t.value: t for t in TerminationReason}


def _usage(raw: Any, cost: Any = None) -> Usage | None:
    if not isinstance(raw, Mapping) and cost is None:
        return None
    raw = raw if isinstance(raw, Mapping) else {}
    return Usage(
        prompt_tokens=int(raw.get("prompt_tokens") or 0),
        completion_tokens=int(raw.get("completion_tokens") or 0),
        cost=float(cost or 0.0),
    )


def _message(raw: Mapping[str, Any]) -> Message | None:
    role = raw.get("role")
    content = raw.get("content") or ""
    if not isinstance(content, str):
        content = json.dumps(content, ensure_ascii=False)
    if role == "system":
        return SystemMessage(content=content)
    if role == "user":
        return UserMessage(content=content, usage=_usage(raw.get("usage"), raw.get("cost")))
    if role == "assistant":
        calls = []
        for i, call in enumerate(raw.get("tool_calls") or []):
            args = call.get("arguments", {})
            calls.append(
                ToolCall(
                    id=str(call.get("id") or f"call-{i}"),
                    name=str(call.get("name", "")),
                    arguments=args
                    if isinstance(args, str)
                    else json.dumps(args, ensure_ascii=False),
                )
            )
        return AssistantMessage(
            content=content, tool_calls=calls, usage=_usage(raw.get("usage"), raw.get("cost"))
        )
    if role == "tool":
        return ToolResultMessage(
            tool_call_id=str(raw.get("id", "")),
            name=str(raw.get("name") or ""),
            content=content,
            error=bool(raw.get("error", False)),
        )
    return None


def _messages(raw: list[Any]) -> list[Message]:
    out: list[Message] = []
    for item in raw:
        if isinstance(item, Mapping) and item.get("role") == "multi_tool":
            inner = item.get("tool_messages") or []
        else:
            inner = [item]
        for m in inner:
            msg = _message(m) if isinstance(m, Mapping) else None
            if msg is not None:
                out.append(msg.model_copy(update={"turn": len(out)}))
    return out


def _final_state(states: Any) -> dict[str, Any]:
    orders: dict[str, Any] = {}
    books: dict[str, Any] = {}
    reservations: dict[str, Any] = {}
    if isinstance(states, Mapping):
        for key in ("old_states", "new_states"):
            for record in states.get(key) or []:
                if not isinstance(record, Mapping):
                    continue
                if "order_id" in record:
                    orders[str(record["order_id"])] = dict(record)
                elif "book_id" in record:
                    books[str(record["book_id"])] = dict(record)
                elif "reservation_id" in record:
                    reservations[str(record["reservation_id"])] = dict(record)
    return {"orders": orders, "books": books, "reservations": reservations}


def _official_evaluation(reward_info: Any) -> Evaluation | None:
    if not isinstance(reward_info, Mapping) or reward_info.get("reward") is None:
        return None
    rubrics = reward_info.get("nl_rubrics") or []
    criteria = [
        CriterionVerdict(
            id=f"rubric_{i}",
            description=str(r.get("nl_rubric", "")),
            met=bool(r.get("met")),
            evidence=str(r.get("justification", "")),
        )
        for i, r in enumerate(rubrics)
        if isinstance(r, Mapping)
    ]
    reward = float(reward_info["reward"])
    score = sum(c.met for c in criteria) / len(criteria) if criteria else reward
    result = BasisResult(basis="official", reward=reward, score=score, criteria=criteria)
    return Evaluation(reward=reward, basis="official", by_basis={"official": result})


def _simulation(raw: Mapping[str, Any]) -> Simulation:
    messages = _messages(list(raw.get("messages") or []))
    reason = _TERMINATIONS.get(str(raw.get("termination_reason", "")).split(".")[-1].lower())
    agent = [m.usage for m in messages if m.role == "assistant" and m.usage is not None]
    user = [m.usage for m in messages if m.role == "user" and m.usage is not None]
    tool_msgs = [m for m in messages if m.role == "tool"]
    return Simulation(
        task_id=str(raw.get("task_id")),
        trial=int(raw.get("trial") or 0),
        seed=int(raw.get("seed") or 0),
        messages=messages,
        termination=reason or TerminationReason.AGENT_STOP,
        tool_calls=len(tool_msgs),
        tool_errors=sum(m.error for m in tool_msgs),
        agent_usage=sum(agent, Usage.zero()),
        user_usage=sum(user, Usage.zero()),
        duration_s=float(raw.get("duration") or 0.0),
        final_state=_final_state(raw.get("states")),
        info={"imported_id": raw.get("id"), "official_termination": raw.get("termination_reason")},
    )


def import_official_results(path: Path, run_dir: Path, domain: str | None = None) -> int:
    """Write the official results file ``path`` into the run store of ``run_dir``.

    Returns the number of simulations imported. Re-importing the same file is a no-op for the
    units already there.
    """
    data = load_json(path, what="results file", max_bytes=MAX_TASK_FILE_BYTES)
    if not isinstance(data, Mapping) or "simulations" not in data:
        raise InputError(
            "not an official VitaBench results file (no 'simulations')", file=str(path)
        )
    tasks: list[VitaTask] = parse_tasks(json.dumps(data.get("tasks") or []), source=str(path))
    by_id = {t.id: t for t in tasks}
    raw_info = data.get("info")
    info: Mapping[str, Any] = raw_info if isinstance(raw_info, Mapping) else {}
    env_info = info.get("environment_info") or {}
    agent_info = info.get("agent_info") or {}
    user_info = info.get("user_info") or {}
    config = {
        "suite": "vita",
        "domain": domain or str(env_info.get("domain_name") or "delivery"),
        "trials": int(info.get("num_trials") or 1),
        "seed": int(info.get("seed") or 300),
        "max_steps": int(info.get("max_steps") or 300),
        "agent_model": agent_info.get("llm"),
        "user_model": user_info.get("llm"),
        "imported_from": Path(path).name,
        "official_git_commit": info.get("git_commit"),
    }
    sims = [s for s in data["simulations"] if isinstance(s, Mapping)]
    unknown = sorted({str(s.get("task_id")) for s in sims} - by_id.keys())
    if unknown:
        raise InputError(
            f"simulations of tasks not in the file: {', '.join(unknown[:5])}", file=str(path)
        )
    store = RunStore.open(
        run_dir,
        config,
        stable_hash(config),
        {t.id: t.content_hash() for t in tasks},
        {t.id: t.model_dump_json() for t in tasks},
    )
    try:
        converted = [_simulation(s) for s in sims]
        units = [WorkUnit(task_id=c.task_id, trial=c.trial, seed=c.seed) for c in converted]
        pending = set(store.pending_units(units))
        count = 0
        for raw, sim, unit in zip(sims, converted, units, strict=True):
            if unit not in pending:
                continue
            store.record(unit, sim, _official_evaluation(raw.get("reward_info")), None, infra=False)
            count += 1
        return count
    finally:
        store.close()
