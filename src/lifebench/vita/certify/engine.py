"""Certification of task files: is each task solvable, and does its grader discriminate?

For every task: the oracle (its plan replayed through the ordinary tool path), the agent that
does nothing, every near miss and every variation generated from the task (:mod:`.generate`)
each run one episode in the domain's environment, graded by the domain's ``state`` evaluator.
A near miss that scores 1 is a **false accept** (a wrong final state the grader took for the
right one); a valid variation that does not is a **false reject**.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from lifebench._util.text import Language
from lifebench.evaluation import BasisResult
from lifebench.simulation import Agent, Episode, NoopAgent, ScriptedUser, run_episode
from lifebench.vita.agents.oracle import PlanAgent, oracle_plan
from lifebench.vita.certify.generate import near_misses, variations
from lifebench.vita.certify.perturb import PlanContext
from lifebench.vita.domains.registry import domain_spec, resolve
from lifebench.vita.grading.constraints import FIELD_CLASSES
from lifebench.vita.lint import lint_task
from lifebench.vita.task import VitaTask

Outcome = Literal["accepted", "rejected", "undecided"]


class Trial(BaseModel):
    """One generated plan (a near miss or a variation) and what the grader made of it."""

    field: str = Field(description="The field class it changes (store, time, unrequested, …).")
    kind: str = Field(description="How it changes it (quantity, stated_window, cancelled, …).")
    target: str = Field(description="The call or record it changes.")
    outcome: Outcome = Field(
        description="accepted (reward 1), rejected (decided 0) or undecided (the state basis "
        "cannot decide)."
    )
    tool_errors: int = Field(0, description="Tool errors beyond the oracle's (a refused call).")


class TaskCertificate(BaseModel):
    """What certification found for one task."""

    id: str
    solvable: bool = Field(description="The oracle's plan reaches reward 1.")
    discriminating: bool = Field(description="Doing nothing scores 0 and no near miss is accepted.")
    gradable: bool = Field(True, description="The state grader has a criterion to check.")
    undecided: bool = Field(
        False, description="The state grader cannot decide the oracle's run (unchecked asks)."
    )
    noop: Literal["accepted", "rejected"] = Field(
        description="accepted when doing nothing scores 1."
    )
    data_errors: list[str] = Field(
        default_factory=list, description="Lint errors: why an oracle may not solve the task."
    )
    near_misses: list[Trial] = Field(
        default_factory=list, description="Generated from the task; each must be rejected."
    )
    variations: list[Trial] = Field(
        default_factory=list, description="Correct but unusual; each must be accepted."
    )
    oracle_evidence: list[str] = Field(
        default_factory=list, description="Unmet criteria of the oracle's run (when unsolved)."
    )
    unchecked: list[str] = Field(
        default_factory=list, description="What the task asks that the state grader cannot check."
    )

    @property
    def false_accepts(self) -> list[Trial]:
        """Near misses accepted on a solvable task."""
        return [t for t in self.near_misses if t.outcome == "accepted"] if self.solvable else []

    @property
    def false_rejects(self) -> list[Trial]:
        """Valid variations (no refused call) not accepted on a solvable task."""
        if not self.solvable:
            return []
        return [t for t in self.variations if t.outcome != "accepted" and not t.tool_errors]


class FieldCounts(BaseModel):
    """Outcomes of the near misses of one field class over a file."""

    generated: int = 0
    rejected: int = 0
    accepted: int = Field(0, description="False accepts (on solvable tasks).")
    undecided: int = 0
    tool_stopped: int = Field(0, description="Near misses a tool refused (not the grader).")
    tasks: int = Field(0, description="Tasks with at least one near miss of this class.")


class VariationCounts(BaseModel):
    """Outcomes of one kind of variation over a file."""

    generated: int = 0
    accepted: int = 0
    false_rejects: int = Field(0, description="Valid variations not accepted (solvable tasks).")
    tool_stopped: int = 0


class CertifySummary(BaseModel):
    """Counts over a task file."""

    tasks: int
    solvable: int
    discriminating: int
    ungradable: int
    undecided: int = Field(0, description="Tasks the state grader cannot decide.")
    with_data_errors: int
    unsolved_without_data_error: list[str] = Field(
        default_factory=list,
        description="Tasks the oracle does not solve although lint flags no data error.",
    )
    noop_accepted: list[str] = Field(default_factory=list)
    false_accepts: dict[str, int] = Field(
        default_factory=dict, description="Per field class: near misses accepted."
    )
    false_rejects: dict[str, int] = Field(
        default_factory=dict, description="Per variation kind: valid variations not accepted."
    )
    by_field: dict[str, FieldCounts] = Field(default_factory=dict)
    variations: dict[str, VariationCounts] = Field(default_factory=dict)


class CertifyReport(BaseModel):
    """``lifebench tasks certify --json``."""

    domain: str
    language: str
    tasks: list[TaskCertificate]
    summary: CertifySummary


async def replay(
    task: VitaTask, domain: str, language: Language, agent: Agent
) -> tuple[BasisResult, int]:
    """The state result of ``agent`` serving ``task`` (the user states the instructions once)
    and how many of its tool calls failed."""
    spec = domain_spec(domain)
    environment = resolve(spec.environment)(task, language=language)
    episode = Episode(
        task_id=task.id,
        trial=0,
        seed=0,
        environment=environment,
        agent=agent,
        user=ScriptedUser([task.instructions]),
    )
    simulation = await run_episode(episode)
    errors = sum(1 for m in simulation.messages if m.role == "tool" and getattr(m, "error", False))
    result: BasisResult = await resolve(spec.evaluator)().evaluate(task, simulation)
    return result, errors


def _passes(result: BasisResult) -> bool:
    return result.gradable and result.reward == 1.0


def _outcome(result: BasisResult) -> Outcome:
    if _passes(result):
        return "accepted"
    return "undecided" if result.undecided else "rejected"


async def certify_task(task: VitaTask, domain: str, language: Language) -> TaskCertificate:
    """Run the oracle, noop, every near miss and every variation of ``task``."""
    plan = oracle_plan(task, domain=domain)
    oracle, oracle_errors = await replay(task, domain, language, PlanAgent(plan, language=language))
    noop, _ = await replay(task, domain, language, NoopAgent())
    ctx = PlanContext(task, plan, language)
    trials: dict[bool, list[Trial]] = {False: [], True: []}
    for candidate in [*near_misses(ctx), *variations(ctx)]:
        agent = PlanAgent(candidate.plan, language=language)
        result, errors = await replay(task, domain, language, agent)
        trials[candidate.must_pass].append(
            Trial(
                field=candidate.field,
                kind=candidate.kind,
                target=candidate.target,
                outcome=_outcome(result),
                tool_errors=max(0, errors - oracle_errors),
            )
        )
    solvable = _passes(oracle)
    return TaskCertificate(
        id=task.id,
        solvable=solvable,
        discriminating=solvable
        and not _passes(noop)
        and not any(t.outcome == "accepted" for t in trials[False]),
        gradable=oracle.gradable or oracle.undecided,
        undecided=oracle.undecided,
        noop="accepted" if _passes(noop) else "rejected",
        data_errors=[f"{i.field}: {i.message}" for i in lint_task(task) if i.severity == "error"],
        near_misses=trials[False],
        variations=trials[True],
        oracle_evidence=[]
        if solvable
        else [f"{c.id}: {c.evidence}" for c in oracle.criteria if not c.met] or [oracle.note],
        unchecked=list(oracle.unchecked),
    )


def summarise(certificates: Sequence[TaskCertificate]) -> CertifySummary:
    """Counts of a file's certificates (false accepts and rejects count on solvable tasks)."""
    by_field: dict[str, FieldCounts] = {f: FieldCounts() for f in FIELD_CLASSES}
    kinds: dict[str, VariationCounts] = {}
    for cert in certificates:
        seen: set[str] = set()
        for t in cert.near_misses:
            counts = by_field.setdefault(t.field, FieldCounts())
            counts.generated += 1
            if t.field not in seen:
                counts.tasks += 1
                seen.add(t.field)
            if t.tool_errors:
                counts.tool_stopped += 1
            if t.outcome == "accepted" and cert.solvable:
                counts.accepted += 1
            elif t.outcome == "rejected":
                counts.rejected += 1
            elif t.outcome == "undecided":
                counts.undecided += 1
        for t in cert.variations:
            v = kinds.setdefault(t.kind, VariationCounts())
            v.generated += 1
            if t.tool_errors:
                v.tool_stopped += 1
            if t.outcome == "accepted":
                v.accepted += 1
            elif cert.solvable and not t.tool_errors:
                v.false_rejects += 1
    return CertifySummary(
        tasks=len(certificates),
        solvable=sum(c.solvable for c in certificates),
        discriminating=sum(c.discriminating for c in certificates),
        ungradable=sum(not c.gradable for c in certificates),
        undecided=sum(c.undecided for c in certificates),
        with_data_errors=sum(bool(c.data_errors) for c in certificates),
        unsolved_without_data_error=[
            c.id for c in certificates if not c.solvable and not c.data_errors
        ],
        noop_accepted=[c.id for c in certificates if c.noop == "accepted"],
        false_accepts={f: c.accepted for f, c in by_field.items()},
        false_rejects={k: v.false_rejects for k, v in sorted(kinds.items())},
        by_field=by_field,
        variations=dict(sorted(kinds.items())),
    )


async def certify_tasks(
    tasks: Iterable[VitaTask], domain: str, language: Language
) -> CertifyReport:
    """Certify every task of a file (in order)."""
    certificates = [await certify_task(task, domain, language) for task in tasks]
    return CertifyReport(
        domain=domain,
        language=language,
        tasks=certificates,
        summary=summarise(certificates),
    )
