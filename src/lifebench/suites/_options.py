"""The options of one run, persisted in the run store and hashed to guard resumes."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from lifebench._util.hashing import stable_hash
from lifebench._util.text import Language

AgentKind = Literal["llm", "solo", "oracle", "noop"]
UserKind = Literal["llm", "dummy", "scripted"]
EvaluatorKind = Literal["state", "rubric", "both"]
JudgeVariantKind = Literal["sliding", "full", "sliding-norubric", "full-norubric"]
DedupKind = Literal["exact", "paraphrase", "overall"]
TaskSetKind = Literal["auto", "generated", "demo"]

# Options that change how fast a run goes but not what it computes; excluded from the hash.
_OPERATIONAL = frozenset({"concurrency", "out", "models_file", "cache", "quiet"})


class RunOptions(BaseModel):
    """Everything that defines a run. Same options + same seed + scripted models → same results."""

    model_config = ConfigDict(frozen=True)

    suite: str = Field("vita", description="Suite name (vita).")
    domain: str = Field("delivery", description="Domain within the suite.")
    tasks_file: str | None = Field(None, description="Task file; None = the bundled tasks.")
    task_set: TaskSetKind = Field(
        "auto",
        description="Bundled set used without a task file: generated (100 certified tasks per "
        "domain), demo (a few hand-written ones), or auto (generated where shipped, else demo).",
    )
    task_ids: tuple[str, ...] = Field((), description="Only these task ids (empty = all).")
    num_tasks: int | None = Field(None, description="Only the first N tasks (after task_ids).")
    trials: int = Field(1, ge=1, description="Trials per task (k of pass^k).")
    agent: AgentKind = Field("oracle", description="Agent implementation.")
    user: UserKind = Field("scripted", description="User simulator implementation.")
    evaluator: EvaluatorKind = Field("state", description="Reward basis.")
    agent_model: str | None = Field(None, description="Model spec for the agent.")
    user_model: str | None = Field(None, description="Model spec for the user simulator.")
    judge_model: str | None = Field(None, description="Model spec for the judge.")
    judge_variant: JudgeVariantKind = Field(
        "sliding", description="Judge: sliding windows or full trajectory, with or without rubrics."
    )
    window: int = Field(10, ge=1, description="Messages per judge window.")
    overlap: int = Field(2, ge=0, description="Messages shared by consecutive judge windows.")
    rubric_dedup: DedupKind = Field(
        "paraphrase", description="How state and overall rubrics are de-duplicated."
    )
    language: Language = Field("en", description="Prompt and tool-description language.")
    max_steps: int = Field(300, ge=1, description="Step limit per episode.")
    max_errors: int = Field(10, ge=1, description="Tool-error limit per episode.")
    seed: int = Field(300, description="Run seed; per-unit seeds derive from it.")
    temperature: float | None = Field(0.0, description="Sampling temperature of every role.")
    concurrency: int = Field(8, ge=1, description="Units run at once (not hashed).")
    out: str | None = Field(None, description="Run directory (not hashed).")
    models_file: str | None = Field(None, description="Models config file (not hashed).")
    cache: bool = Field(True, description="Use the on-disk model-call cache (not hashed).")
    quiet: bool = Field(False, description="No progress display (not hashed).")

    @model_validator(mode="after")
    def _models_for_roles(self) -> RunOptions:
        if self.agent in ("llm", "solo") and not self.agent_model:
            raise ValueError(f"agent '{self.agent}' needs --agent-model")
        if self.user in ("llm", "dummy") and not self.user_model:
            raise ValueError(f"user '{self.user}' needs --user-model")
        if self.evaluator in ("rubric", "both") and not self.judge_model:
            raise ValueError(f"evaluator '{self.evaluator}' needs --judge-model")
        if self.overlap >= self.window:
            raise ValueError(
                f"overlap ({self.overlap}) must be smaller than window ({self.window})"
            )
        return self

    def semantic_dict(self) -> dict[str, Any]:
        """The options that determine results (hashed for resume checks)."""
        return {k: v for k, v in self.model_dump(mode="json").items() if k not in _OPERATIONAL}

    def config_hash(self) -> str:
        """sha256 of :meth:`semantic_dict`."""
        return stable_hash(self.semantic_dict())
