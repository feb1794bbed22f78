"""Replaying a plan against a task's environment without an episode (for ``tasks validate``).

The oracle's plan goes through the real tools (argument validation, preconditions, stock, the
geocoder) and the final state through the domain's state evaluator, synchronously: VitaBench
tools are plain functions, so their coroutines finish without suspending.
"""

from __future__ import annotations

from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from lifebench.evaluation import BasisResult
from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.agents.oracle import oracle_plan
from lifebench.vita.agents.plan import PlannedCall, find_key
from lifebench.vita.domains.registry import domain_spec, resolve
from lifebench.vita.grading.expected import PROVIDER_TABLES, expected_records
from lifebench.vita.task import VitaTask

T = TypeVar("T")

#: Which domain serves each order type (and each appointment kind).
_DOMAIN_OF_TYPE = {
    "delivery": "delivery",
    "instore": "instore",
    "hotel": "ota",
    "attraction": "ota",
    "flight": "ota",
    "train": "ota",
}


def drive(coro: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (RuntimeError if it does)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("the coroutine suspended; replay needs synchronous tools")


def task_domain(task: VitaTask) -> str:
    """The domain a task needs: the one owning its tables and expected records; ``cross``
    when it spans several (delivery when nothing tells)."""
    found: set[str] = set()
    for order_type, table in PROVIDER_TABLES.items():
        if task.environment.get(table):
            found.add(_DOMAIN_OF_TYPE[order_type])
    for record in expected_records(task):
        if record.get("order_type") in _DOMAIN_OF_TYPE:
            found.add(_DOMAIN_OF_TYPE[str(record["order_type"])])
        elif "book_id" in record or "reservation_id" in record:
            found.add("instore")
    if len(found) > 1:
        return "cross"
    return found.pop() if found else "delivery"


@dataclass(frozen=True)
class Replay:
    """What replaying a plan did: the failed calls and the state evaluator's verdict."""

    failures: tuple[tuple[int, str, str], ...]
    """(position, tool name, error message) of the calls the tools refused (a refused call that
    only completes an earlier refused one — paying the order not created — is left out)."""
    result: BasisResult


def replay(task: VitaTask, domain: str, plan: Sequence[PlannedCall]) -> Replay:
    """Run ``plan`` through a fresh environment of ``domain`` and grade the final state."""
    spec = domain_spec(domain)
    environment = resolve(spec.environment)(task, language="en")
    results: list[str] = []
    failures: list[tuple[int, str, str]] = []
    for i, step in enumerate(plan):
        filled = None
        if step.fill:
            filled = next(
                (v for text in reversed(results) if (v := find_key(text, step.fill))), None
            )
        outcome = drive(environment.tools.run(step.name, step.arguments(filled)))
        if outcome.error:
            if not (step.fill and failures):  # a refused creation explains its follow-ups
                failures.append((i, step.name, outcome.content))
        else:
            results.append(outcome.content)
    simulation = Simulation(
        task_id=task.id,
        trial=0,
        seed=0,
        termination=TerminationReason.AGENT_STOP,
        final_state=environment.snapshot(),
    )
    evaluator = resolve(spec.evaluator)()
    return Replay(tuple(failures), evaluator.grade(task, simulation))


def replay_oracle(task: VitaTask, domain: str | None = None) -> Replay:
    """Replay the oracle's plan of ``task`` (in its own domain unless one is given)."""
    chosen = domain or task_domain(task)
    return replay(task, chosen, oracle_plan(task, domain=chosen))


def oracle_problems(task: VitaTask, domain: str | None = None) -> list[str]:
    """Why the oracle cannot solve ``task``: refused calls, then unmet criteria ([] if it can)."""
    done = replay_oracle(task, domain)
    out = [f"the oracle's call {name} is refused: {message}" for _, name, message in done.failures]
    if done.result.undecided:
        out += [
            f"the state grader cannot decide the task: {line}" for line in done.result.unchecked
        ]
    elif not done.result.gradable:
        out.append("no required record the state grader can check (the task is ungradable)")
    elif done.result.reward != 1.0 and not out:
        out += [
            f"the oracle's final state fails {c.id}: {c.evidence}"
            for c in done.result.criteria
            if not c.met
        ]
    return out
