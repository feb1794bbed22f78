"""Per-unit outcomes and failure groups: which (task, trial) units failed, and why.

Everything here is derived from stored unit records (:class:`~lifebench.metrics.ResultRecord`)
and is deterministic: the same records always give the same rows in the same order.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lifebench.evaluation._types import Evaluation
from lifebench.messages import ToolResultMessage
from lifebench.metrics import ResultRecord, is_success
from lifebench.metrics._usage import judge_usage

Outcome = Literal["pass", "fail", "infra_error", "grading_error", "ungradable", "pending"]
OUTCOMES: tuple[Outcome, ...] = (
    "pass",
    "fail",
    "infra_error",
    "grading_error",
    "ungradable",
    "pending",
)
OUTCOME_MARKS: Mapping[str, str] = {
    "pass": "✓",
    "fail": "✗",
    "infra_error": "E",
    "grading_error": "G",
    "ungradable": "U",
    "pending": "·",
}
"""One character per outcome, for rows of trials."""
FailureKind = Literal["infrastructure", "grading", "ungradable"]
_KIND_ORDER: Mapping[str, int] = {"infrastructure": 0, "grading": 1, "ungradable": 2}
FIRST_LINE_CHARS = 200
NO_EVALUATION = "no evaluation stored for a completed simulation"

# Long hexadecimal runs and UUIDs (request ids, hashes) vary between otherwise equal messages.
_VOLATILE = re.compile(
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b(?=[0-9a-f]*\d)[0-9a-f]{16,}\b",
    re.IGNORECASE,
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


def first_line(text: str | None, limit: int = FIRST_LINE_CHARS) -> str:
    """The first non-blank line of ``text``, stripped and cut to ``limit`` characters."""
    for line in (text or "").splitlines():
        line = " ".join(line.split())
        if line:
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""


def failure_key(message: str | None) -> str:
    """What failures are grouped by: the first line with request ids and hashes masked."""
    return _VOLATILE.sub("…", first_line(message)) or "(no message)"


class FailedCriterion(_Frozen):
    """One criterion that did not hold, on one basis of one evaluation."""

    basis: str = Field(description="Evaluation basis (e.g. 'state', 'rubric').")
    id: str = Field(description="Criterion id within the task.")
    description: str = Field(description="First line of what the criterion requires.")
    evidence: str = Field(description="First line of why it failed.")

    def line(self) -> str:
        """``basis/id: evidence`` (or the description when there is no evidence)."""
        return f"{self.basis}/{self.id}: {self.evidence or self.description}"


class UnitSummary(_Frozen):
    """What happened to one (task, trial) unit, in one line's worth of fields."""

    task_id: str
    trial: int
    status: str = Field(description="Store status: done, infra_error or pending.")
    outcome: Outcome = Field(
        description="pass (reward 1), fail, infra_error, grading_error, ungradable (done, no "
        "evaluation) or pending."
    )
    reward: float | None = Field(None, description="Reward of a usable evaluation.")
    termination: str | None = Field(None, description="Why the episode ended.")
    turns: int | None = Field(None, description="User + assistant messages.")
    tool_calls: int | None = None
    tool_errors: int | None = None
    cost: float | None = Field(
        None, description="Agent + user + tool + judge cost (USD); None when a price is unknown."
    )
    failed: list[FailedCriterion] = Field(
        default_factory=list, description="Criteria that did not hold (every basis)."
    )
    notes: list[str] = Field(
        default_factory=list, description="Bases decided without checking criteria, and why."
    )
    error: str | None = Field(None, description="First line of the unit's error, if any.")
    attempts: int = 0


def _failed_criteria(evaluation: Evaluation) -> tuple[list[FailedCriterion], list[str]]:
    failed: list[FailedCriterion] = []
    notes: list[str] = []
    for name in sorted(evaluation.by_basis):
        result = evaluation.by_basis[name]
        for verdict in result.criteria:
            if not verdict.met:
                failed.append(
                    FailedCriterion(
                        basis=name,
                        id=verdict.id,
                        description=first_line(verdict.description),
                        evidence=first_line(verdict.evidence),
                    )
                )
        if result.note and not result.criteria:
            notes.append(f"{name}: {first_line(result.note)}")
    return failed, notes


def unit_summary(record: ResultRecord) -> UnitSummary:
    """Classify one stored unit and collect its evidence."""
    sim, ev = record.simulation, record.evaluation
    error: str | None = getattr(record, "error", None)
    failed: list[FailedCriterion] = []
    notes: list[str] = []
    reward: float | None = None
    outcome: Outcome
    if record.status == "infra_error":
        outcome = "infra_error"
        error = error or (sim.error if sim is not None else None) or "infrastructure error"
    elif record.status != "done" or sim is None:
        outcome = "pending"
    elif ev is None:
        outcome, error = "ungradable", NO_EVALUATION
    else:
        failed, notes = _failed_criteria(ev)
        if ev.error is not None:
            outcome, error = "grading_error", ev.error
        else:
            outcome = "pass" if is_success(ev.reward) else "fail"
            reward, error = ev.reward, None
    cost = None
    if sim is not None:
        spent = sim.agent_usage + sim.user_usage + sim.tool_usage + judge_usage(ev)
        cost = None if spent.unpriced else spent.cost
    return UnitSummary(
        task_id=record.task_id,
        trial=record.trial,
        status=str(record.status),
        outcome=outcome,
        reward=reward,
        termination=None if sim is None else sim.termination.value,
        turns=None if sim is None else sim.turns,
        tool_calls=None if sim is None else sim.tool_calls,
        tool_errors=None if sim is None else sim.tool_errors,
        cost=cost,
        failed=failed,
        notes=notes,
        error=first_line(error) or None,
        attempts=record.attempts,
    )


def unit_summaries(records: Iterable[ResultRecord]) -> list[UnitSummary]:
    """Outcomes of ``records``, ordered by (task id, trial)."""
    return [unit_summary(r) for r in sorted(records, key=lambda r: (r.task_id, r.trial))]


class FailureGroup(_Frozen):
    """Units that failed the same way: same kind, same message (first line)."""

    kind: FailureKind = Field(
        description="infrastructure (the unit could not run), grading (its evaluation failed) "
        "or ungradable (completed without an evaluation)."
    )
    message: str = Field(description="First line of the message, request ids masked.")
    count: int = Field(description="Units in the group.")
    tasks: int = Field(description="Distinct tasks among them.")
    example: str = Field(description="One unit of the group, as 'task_id#trial'.")


_KIND_OF: Mapping[str, FailureKind] = {
    "infra_error": "infrastructure",
    "grading_error": "grading",
    "ungradable": "ungradable",
}


def failure_groups(outcomes: Sequence[UnitSummary]) -> list[FailureGroup]:
    """Group infrastructure errors, grading errors and ungradable units by message.

    Ordered by kind, then by count (largest first), then by message; the example is the
    first unit of the group in (task, trial) order.
    """
    members: dict[tuple[FailureKind, str], list[UnitSummary]] = defaultdict(list)
    for o in sorted(outcomes, key=lambda o: (o.task_id, o.trial)):
        kind = _KIND_OF.get(o.outcome)
        if kind is not None:
            members[(kind, failure_key(o.error))].append(o)
    groups = [
        FailureGroup(
            kind=kind,
            message=message,
            count=len(units),
            tasks=len({u.task_id for u in units}),
            example=f"{units[0].task_id}#{units[0].trial}",
        )
        for (kind, message), units in members.items()
    ]
    return sorted(groups, key=lambda g: (_KIND_ORDER[g.kind], -g.count, g.message))


def tool_error_kinds(records: Iterable[ResultRecord]) -> dict[str, int]:
    """Tool results that were errors, by ``error_kind`` ('unspecified' when none), over
    completed simulations."""
    counts: Counter[str] = Counter()
    for record in records:
        sim = record.simulation
        if record.status != "done" or sim is None:
            continue
        for message in sim.messages:
            if isinstance(message, ToolResultMessage) and message.error:
                counts[message.error_kind or "unspecified"] += 1
    return dict(sorted(counts.items()))
