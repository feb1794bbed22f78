"""TravelBench's own run options (kept light: the CLI imports it to list and check them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from lifebench.suites._options import RoleChoices, SuiteOptions

if TYPE_CHECKING:
    from lifebench.suites._options import ModelRole, RunOptions

SubsetChoice = Literal["auto", "all", "single", "multi", "unsolvable"]
SandboxKind = Literal["auto", "offline", "cache", "simulate"]
UnsolvedRule = Literal["first", "final", "exact"]

_NONE: frozenset[Literal["agent", "user", "judge", "tool"]] = frozenset()


class TravelOptions(SuiteOptions):
    """Subset, sandbox backend, loop caps and the judge's calibration."""

    roles: ClassVar[RoleChoices] = RoleChoices(
        agents={"llm": frozenset({"agent"}), "scripted": _NONE, "noop": _NONE},
        users={"llm": frozenset({"user"}), "scripted": _NONE},
        evaluators={"judge": frozenset({"judge"}), "offline": _NONE},
        offline_agent="scripted",
        offline_user="scripted",
        model_agent="llm",
        model_user="llm",
        default_evaluator="offline",
        model_evaluator="judge",
        descriptions={
            "agent": "llm | scripted (offline: reads the context, calls a few tools, answers from "
            "their results) | noop",
            "user": "llm (multi-turn simulator with the row's profile and intent) | scripted "
            "(the query only; multi-turn: a fixed 'you decide' line, then finish)",
            "evaluator": "judge (LLM judge + meta-judge; the default with --judge-model) | "
            "offline (a deterministic stand-in, not a real judgement)",
        },
    )

    common_defaults: ClassVar[Mapping[str, Any]] = {
        # The official loop has no tool-error cap and allows 20 model calls in each of 10 turns
        # (each call with tools is two steps): neither common cap may cut it short.
        "max_errors": 10_000,
        "max_steps": 1_000,
    }

    subset: SubsetChoice = Field(
        "auto",
        description="Subset: auto (from each file's name or rows) | all (the three official "
        "files of a --tasks folder, or every row of a file, in one run: unit ids keyed by "
        "subset, the report gives the overall) | single | multi | unsolvable.",
    )
    sandbox: SandboxKind = Field(
        "auto",
        description="Tool backend: offline (deterministic world) | cache (official sandbox_cache "
        "only) | simulate (cache, then --tool-model on a miss, memoised) | auto (simulate with "
        "--tool-model, else offline).",
    )
    sandbox_cache: str | None = Field(
        None,
        description="An official sandbox_cache folder (<tool>_cache.json files); hits are served "
        "from it by every backend.",
    )
    normalize_keys: bool = Field(
        False,
        description="Look the cache up by value-normalised keys (3 = 3.0, spaces in 'lat,lng', "
        "explicit defaults) instead of the exact official key.",
    )
    sandbox_memo: str | None = Field(
        None,
        description="Folder of the memo of simulated answers (default: the run directory); share "
        "one between runs to give every model the same simulated results.",
    )
    simulator_examples: int = Field(
        8, ge=0, description="Cached calls shown to the tool simulator (BM25-nearest)."
    )
    max_agent_calls: int = Field(
        20, ge=1, description="Agent model calls per user turn (official: 20)."
    )
    max_turns: int = Field(
        10, ge=1, description="Agent turns in a multi-turn dialogue (official: 10)."
    )
    meta_judge: bool = Field(
        True,
        description="Calibrate each judge verdict with the meta-judge (w_meta = m/5); official: on.",
    )
    unsolved_rule: UnsolvedRule = Field(
        "first",
        description="Unsolvable scoring: first (official: the first assistant reply contains "
        "[Unsolved]) | final (the tag anywhere in the final answer) | exact (the final answer "
        "is exactly [Unsolved]).",
    )
    judge_context: bool = Field(
        False,
        description="Also show the judge the row's time, intent and (multi) user profile (the "
        "official judge sees only context, query, tools and history).",
    )
    judge_reasks: int = Field(2, ge=0, description="Re-asks when a judge reply cannot be parsed.")

    def backend(self, run: RunOptions) -> Literal["offline", "cache", "simulate"]:
        """The sandbox backend this run uses (``auto`` resolved against ``--tool-model``)."""
        if self.sandbox == "auto":
            return "simulate" if run.tool_model else "offline"
        return self.sandbox

    def required_models(self, run: RunOptions) -> frozenset[ModelRole]:
        """The simulate backend needs the tool-simulator model."""
        return frozenset({"tool"}) if self.backend(run) == "simulate" else frozenset()

    def check(self, run: RunOptions) -> None:
        """The cache backend needs a cache folder, and a given folder must exist."""
        from pathlib import Path

        if self.sandbox == "cache" and not self.sandbox_cache:
            raise ValueError("--sandbox cache needs --sandbox-cache FOLDER")
        if self.sandbox_cache and not Path(self.sandbox_cache).is_dir():
            raise ValueError(f"--sandbox-cache: no such folder: {self.sandbox_cache}")
