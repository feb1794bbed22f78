"""Synthetic run directories for the reporting, viewer and browser tests.

Every kind of unit a report must explain — pass, fail with a failed criterion, infrastructure
error, grading error, ungradable, pending — plus text that tries to be markup (``<script>``,
``<img onerror>``, rich ``[markup]``, a terminal escape) in every place a model, user, tool or
judge can put text. Deterministic: the same call builds the same store content.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lifebench.evaluation._types import BasisResult, CriterionVerdict, Evaluation
from lifebench.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from lifebench.runner import RunStore, WorkUnit
from lifebench.simulation._types import Simulation, TerminationReason

XSS_SCRIPT = '<script>window.__xss = "script"</script>'
XSS_IMG = "<img src=x onerror=\"window.__xss='img'\">"
HOSTILE = f"{XSS_SCRIPT} {XSS_IMG} [bold red]markup[/] \x1b[2J"
HOSTILE_TASK = 'task-<img src=x onerror="window.__xss=1">'
INFRA_ERROR = "Error code: 401 - invalid api key (request 4f9a1b2c3d4e5f60a1b2c3d4)"
GRADING_ERROR = "evaluation failed: rubric: the judge answered no JSON after 2 re-asks"
UNGRADED_TASK = "t-ungraded"
TRIALS = 2


def config(model: str, domain: str = "delivery") -> dict[str, Any]:
    """A run configuration like the runner stores one."""
    return {
        "suite": "vita",
        "domain": domain,
        "agent": "llm",
        "agent_model": model,
        "user": "scripted",
        "user_model": None,
        "evaluator": "state",
        "judge_model": None,
        "bases": ["state"],
        "trials": TRIALS,
        "seed": 0,
    }


TASK_IDS = ["t-fail", "t-grade", "t-infra", "t-pass", UNGRADED_TASK, HOSTILE_TASK]


def _task_json(task_id: str) -> str:
    env = {"time": "2026-04-17 12:00:00", "orders": {"O1": {"status": "unpaid", "note": ""}}}
    return json.dumps({"id": task_id, "environment": env, "instructions": "order lunch"})


def _messages(task_id: str, trial: int) -> list[Message]:
    hostile = task_id == HOSTILE_TASK
    text = HOSTILE if hostile else "I want lunch."
    args = '{"order_id": "O1"' if hostile else '{"order_id": "O1"}'  # malformed when hostile
    result = HOSTILE if hostile else '{"status": "paid"}'
    return [
        UserMessage(turn=0, content=text, usage=Usage(prompt_tokens=20, completion_tokens=5)),
        AssistantMessage(
            turn=1,
            content="Paying your order." if not hostile else f"Sure: {HOSTILE}",
            tool_calls=[ToolCall(id=f"c{trial}", name="pay_order", arguments=args)],
            usage=Usage(prompt_tokens=100, completion_tokens=10, cost=0.01),
        ),
        ToolResultMessage(
            turn=2,
            tool_call_id=f"c{trial}",
            name="pay_order",
            content=result,
            error=hostile,
            error_kind="bad_arguments" if hostile else None,
        ),
        AssistantMessage(
            turn=3, content="Done.", usage=Usage(prompt_tokens=120, completion_tokens=3)
        ),
    ]


def simulation(task_id: str, trial: int, seed: int, paid: bool | None = None) -> Simulation:
    """A completed simulation of ``task_id``#``trial`` (``paid``: whether the agent paid the
    order; by default it did, except in ``t-fail``#1 and the hostile task)."""
    hostile = task_id == HOSTILE_TASK
    if paid is None:
        paid = not (hostile or (task_id == "t-fail" and trial == 1))
    status = "paid" if paid else "unpaid"
    return Simulation(
        task_id=task_id,
        trial=trial,
        seed=seed,
        messages=_messages(task_id, trial),
        termination=TerminationReason.MAX_STEPS if hostile else TerminationReason.USER_STOP,
        steps=4,
        tool_calls=1,
        tool_errors=1 if hostile else 0,
        agent_usage=Usage(prompt_tokens=220, completion_tokens=13, cost=0.01, calls=2),
        user_usage=Usage(prompt_tokens=20, completion_tokens=5, cost=0.002),
        final_state={"orders": {"O1": {"status": status, "note": ""}}},
    )


def evaluation(task_id: str, trial: int, sim: Simulation) -> Evaluation:
    """State basis (the reward) and a judge basis shown beside it, with a window log."""
    paid = sim.final_state["orders"]["O1"]["status"] == "paid"
    hostile = task_id == HOSTILE_TASK
    state = BasisResult(
        basis="state",
        reward=1.0 if paid else 0.0,
        score=1.0 if paid else 0.5,
        criteria=[
            CriterionVerdict(
                id="order[0]:O1",
                description=f"existing order O1 is paid{' ' + HOSTILE if hostile else ''}",
                met=paid,
                evidence="status paid"
                if paid
                else f"final status unpaid, expected paid{HOSTILE if hostile else ''}",
            ),
            CriterionVerdict(
                id="no_extra_orders", description="No extra order", met=True, evidence="none"
            ),
        ],
    )
    rubric = BasisResult(
        basis="rubric",
        reward=1.0 if paid else 0.0,
        score=1.0 if paid else 0.0,
        criteria=[
            CriterionVerdict(
                id="rubric_0",
                description="The agent pays the order",
                met=paid,
                evidence=HOSTILE if hostile else "the payment call succeeded",
            )
        ],
        usage=Usage(prompt_tokens=300, completion_tokens=30, cost=0.003, calls=2),
        info={
            "variant": "sliding",
            "windows": [
                {"window": 1, "messages": [0, 2], "attempts": 1},
                {"window": 2, "messages": [1, 3], "attempts": 1},
            ],
        },
    )
    if task_id == "t-grade" and trial == 0:
        return Evaluation(reward=0.0, basis="state", by_basis={"state": state}, error=GRADING_ERROR)
    return Evaluation(
        reward=state.reward, basis="state", by_basis={"state": state, "rubric": rubric}
    )


def _units() -> list[WorkUnit]:
    return [
        WorkUnit(task_id, trial, 1000 * i + trial)
        for i, task_id in enumerate(TASK_IDS)
        for trial in range(TRIALS)
    ]


def _open(run_dir: Path, model: str, domain: str) -> RunStore:
    return RunStore.open(
        run_dir,
        config(model, domain),
        f"hash-{model}-{domain}",
        {t: f"h-{t}" for t in TASK_IDS},
        {t: _task_json(t) for t in TASK_IDS},
    )


def record_unit(run_dir: Path, task_id: str, trial: int, *, model: str, domain: str) -> None:
    """Record one more (passing, graded) unit in an existing run (as a running run would)."""
    unit = next(u for u in _units() if (u.task_id, u.trial) == (task_id, trial))
    store = _open(run_dir, model, domain)
    try:
        sim = simulation(task_id, trial, unit.seed)
        store.record(unit, sim, evaluation(task_id, trial, sim))
    finally:
        store.close()


def build_run(
    run_dir: Path, *, model: str = "model-a@http://127.0.0.1:9/v1", domain: str = "delivery"
) -> Path:
    """A run with one unit of every kind; ``t-ungraded``#1 stays pending."""
    store = _open(run_dir, model, domain)
    try:
        units = store.pending_units(_units())
        for unit in units:
            if (unit.task_id, unit.trial) == (UNGRADED_TASK, 1):
                continue  # pending
            sim = simulation(unit.task_id, unit.trial, unit.seed)
            if unit.task_id == "t-infra" and unit.trial == 1:
                failed = sim.model_copy(
                    update={
                        "termination": TerminationReason.INFRASTRUCTURE_ERROR,
                        "error": INFRA_ERROR,
                    }
                )
                store.record(unit, failed, None, INFRA_ERROR)
            elif unit.task_id == UNGRADED_TASK:
                store.record(unit, sim, None)
            else:
                store.record(unit, sim, evaluation(unit.task_id, unit.trial, sim))
    finally:
        store.close()
    return run_dir


def build_mixed_run(
    run_dir: Path, *, model: str, domain: str = "delivery", skill: int = 3, trials: int = 4
) -> Path:
    """Eight tasks whose trials succeed or not by a fixed pattern (higher ``skill``, more
    successes): Pass@k rises and Pass^k falls with k, as with a real model."""
    tasks = [f"m-{i}" for i in range(8)]
    store = RunStore.open(
        run_dir,
        {**config(model, domain), "trials": trials},
        f"mixed-{model}-{domain}-{skill}",
        {t: f"h-{t}" for t in tasks},
        {t: _task_json(t) for t in tasks},
    )
    try:
        units = [WorkUnit(t, k, 100 * i + k) for i, t in enumerate(tasks) for k in range(trials)]
        for unit in store.pending_units(units):
            i = tasks.index(unit.task_id)
            paid = (i * 5 + unit.trial * 3) % 8 < skill + (i % 3)
            sim = simulation(unit.task_id, unit.trial, unit.seed, paid=paid)
            store.record(unit, sim, evaluation(unit.task_id, unit.trial, sim))
    finally:
        store.close()
    return run_dir


def build_large_run(
    run_dir: Path,
    *,
    tasks: int = 47,
    trials: int = 11,
    model: str = "model-l@http://127.0.0.1:9/v1",
) -> Path:
    """``tasks`` × ``trials`` graded units (517 by default) of tasks whose own fields group
    them: ``subset`` (single/multi), ``missing_tool`` (every fifth task) and a Chinese
    ``类别`` (外卖/到店); a unit passes unless (task + trial) is a multiple of 3."""
    ids = [f"L{i}" for i in range(1, tasks + 1)]

    def task_json(i: int, task_id: str) -> str:
        env = {"orders": {"O1": {"status": "unpaid", "note": ""}}}
        fields = {
            "subset": "multi" if i % 2 else "single",
            "missing_tool": i % 5 == 0,
            "类别": "外卖" if i % 3 == 0 else "到店",
        }
        return json.dumps({"id": task_id, **fields, "environment": env}, ensure_ascii=False)

    store = RunStore.open(
        run_dir,
        {**config(model), "trials": trials},
        f"large-{model}-{tasks}-{trials}",
        {t: f"h-{t}" for t in ids},
        {t: task_json(i, t) for i, t in enumerate(ids, 1)},
    )
    try:
        units = [WorkUnit(t, k, 100 * i + k) for i, t in enumerate(ids, 1) for k in range(trials)]
        for unit in store.pending_units(units):
            i = ids.index(unit.task_id) + 1
            sim = simulation(unit.task_id, unit.trial, unit.seed, paid=(i + unit.trial) % 3 != 0)
            store.record(unit, sim, evaluation(unit.task_id, unit.trial, sim))
    finally:
        store.close()
    return run_dir
