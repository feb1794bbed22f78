"""``lifebench export``: every simulation and evaluation of a run as JSON Lines.

The line types are pydantic models (documented in ``docs/run-format.md``; ``lifebench export
--schema`` prints their JSON Schema). Output is deterministic: the same store gives the same
bytes (no paths, no export time).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from lifebench.evaluation._types import Evaluation
from lifebench.reporting._load import RunData
from lifebench.reporting._outcomes import Outcome, unit_summary
from lifebench.runner._provenance import Provenance
from lifebench.runner._transcript import Briefing, FailedAttempt, Transcript
from lifebench.simulation._types import Simulation

EXPORT_FORMAT = "lifebench-export"
EXPORT_VERSION = 2
"""2: the run line's ``provenance``; ``briefing`` and ``call`` lines (``--calls``)."""


class _Line(BaseModel):
    model_config = ConfigDict(frozen=True)


class RunLine(_Line):
    """The first line: what the run was."""

    record: Literal["run"] = "run"
    format: Literal["lifebench-export"] = "lifebench-export"
    format_version: int = Field(EXPORT_VERSION, description="Version of this export format.")
    schema_version: int = Field(description="Version of the run store's table layout.")
    lifebench_version: str = Field(description="lifebench version that created the run.")
    created_at: str = Field(description="UTC ISO time the run was created.")
    config_hash: str = Field(description="Hash of the run configuration (resume identity).")
    config: dict[str, Any] = Field(description="The run configuration as stored.")
    provenance: Provenance | None = Field(
        None,
        description="The latest session's provenance: lifebench version and git commit, key "
        "package versions, task file and task hashes, grader versions, the model of every role "
        "(null: not recorded).",
    )
    units: int = Field(description="Number of unit lines that follow.")


class UnitLine(_Line):
    """One (task, trial) unit: its stored state, a one-line summary, the full records."""

    record: Literal["unit"] = "unit"
    task_id: str
    trial: int = Field(description="0-based trial index.")
    seed: int
    status: str = Field(description="pending, done or infra_error (store status).")
    attempts: int = Field(description="Recorded attempts of the unit.")
    error: str | None = Field(description="Error text of the latest attempt (infra errors).")
    created_at: str
    updated_at: str
    outcome: Outcome = Field(
        description="pass, fail, infra_error, grading_error, ungradable or pending."
    )
    reward: float | None = Field(description="Reward of a usable evaluation, else null.")
    simulation: Simulation | None = Field(description="The trajectory and how it ended.")
    evaluation: Evaluation | None = Field(description="Every basis with its criteria.")


class TaskLine(_Line):
    """A task as the run stored it (``--tasks``)."""

    record: Literal["task"] = "task"
    task_id: str
    content_hash: str
    task: Any = Field(description="The task's JSON as stored (null for runs that kept none).")


class AttemptLine(_Line):
    """One entry of the append-only attempt log (``--attempts``)."""

    record: Literal["attempt"] = "attempt"
    id: int
    kind: str = Field(description="attempt, cancelled or regrade.")
    task_id: str
    trial: int
    seed: int
    attempt: int
    status: str | None
    error: str | None
    model_retries: int
    reward: float | None
    duration_s: float
    at: str


class BriefingLine(_Line):
    """What a unit's agent and user simulator were told (``--calls``; after its unit line)."""

    record: Literal["briefing"] = "briefing"
    task_id: str
    trial: int
    briefing: Briefing = Field(
        description="System prompts (exact), the tool schemas offered, a scripted user's lines."
    )


class CallLine(_Line):
    """One model call of a unit (``--calls``; after its unit and briefing lines, in order)."""

    record: Literal["call"] = "call"
    task_id: str
    trial: int
    log_id: int = Field(description="Attempt-log entry the call belongs to.")
    source: str = Field(description="attempt (the run) or regrade (lifebench eval).")
    seq: int = Field(description="0-based order within its log entry.")
    role: str = Field(description="agent, user, judge, tool (or model: no role known).")
    basis: str | None = Field(description="The basis it graded (null: an episode call).")
    label: str | None = Field(description="Window, meta-judge or re-ask.")
    model: str = Field(description="Display name of the model.")
    model_id: str = Field(description="The provider's model id.")
    endpoint: str | None = Field(description="Endpoint without credentials.")
    cached: bool = Field(description="Answered from the model cache.")
    response_kind: str = Field(description="http (as received), cache or scripted.")
    cache_key: str | None
    usage: dict[str, Any] | None = Field(description="Tokens, cost, retries.")
    latency_s: float
    error: str | None = Field(description="Why the call failed, if it did.")
    attempts: list[FailedAttempt] = Field(description="Failed attempts (status, detail, body).")
    request: str = Field(description="The request body exactly as sent.")
    response: str | None = Field(description="The response body as received.")
    original_response: str | None = Field(
        description="For a cache hit: the response that filled the cache (when recorded)."
    )


ExportLine = Annotated[
    RunLine | UnitLine | TaskLine | AttemptLine | BriefingLine | CallLine,
    Field(discriminator="record"),
]


def export_schema() -> dict[str, Any]:
    """JSON Schema of one export line."""
    schema: dict[str, Any] = TypeAdapter(ExportLine).json_schema()
    return schema


def _transcript_lines(task_id: str, trial: int, transcript: Transcript) -> Iterator[_Line]:
    if transcript.briefing is not None:
        yield BriefingLine(task_id=task_id, trial=trial, briefing=transcript.briefing)
    for stored in transcript.calls:
        c = stored.call
        yield CallLine(
            task_id=task_id,
            trial=trial,
            log_id=stored.log_id,
            source=stored.source,
            seq=c.seq,
            role=c.role,
            basis=c.basis,
            label=c.label,
            model=c.model,
            model_id=c.model_id,
            endpoint=c.endpoint,
            cached=c.cached,
            response_kind=c.response_kind,
            cache_key=c.cache_key,
            usage=c.usage,
            latency_s=c.latency_s,
            error=c.error,
            attempts=list(stored.attempts),
            request=stored.request,
            response=stored.response,
            original_response=stored.original_response,
        )


def export_lines(
    run: RunData,
    *,
    tasks: bool = False,
    attempts: bool = False,
    transcripts: Callable[[str, int], Transcript] | None = None,
) -> Iterator[_Line]:
    """The lines of the export: run, [tasks], units (each followed, with ``transcripts``, by
    its briefing and call lines), [attempts] — each group in a stable order (task id, trial;
    call order; attempt log id)."""
    records = sorted(run.records, key=lambda r: (r.task_id, r.trial))
    meta = run.meta
    yield RunLine(
        schema_version=meta.schema_version,
        lifebench_version=meta.lifebench_version,
        created_at=meta.created_at,
        config_hash=meta.config_hash,
        config=meta.config,
        provenance=run.provenance,
        units=len(records),
    )
    if tasks:
        hashes = run.task_hashes
        for task_id in sorted(hashes):
            raw = run.task_data.get(task_id)
            yield TaskLine(
                task_id=task_id,
                content_hash=hashes[task_id],
                task=None if raw is None else json.loads(raw),
            )
    for r in records:
        summary = unit_summary(r)
        yield UnitLine(
            task_id=r.task_id,
            trial=r.trial,
            seed=r.seed,
            status=str(r.status),
            attempts=r.attempts,
            error=r.error,
            created_at=r.created_at,
            updated_at=r.updated_at,
            outcome=summary.outcome,
            reward=summary.reward,
            simulation=r.simulation,
            evaluation=r.evaluation,
        )
        if transcripts is not None:
            yield from _transcript_lines(r.task_id, r.trial, transcripts(r.task_id, r.trial))
    if attempts:
        for a in run.attempts:
            yield AttemptLine(
                id=a.id,
                kind=str(a.kind),
                task_id=a.task_id,
                trial=a.trial,
                seed=a.seed,
                attempt=a.attempt,
                status=None if a.status is None else str(a.status),
                error=a.error,
                model_retries=a.model_retries,
                reward=a.reward,
                duration_s=a.duration_s,
                at=a.at,
            )


def line_json(line: BaseModel) -> str:
    """One line of JSON (keys in model order, non-ASCII kept, no trailing newline)."""
    return line.model_dump_json()
