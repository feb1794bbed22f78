"""VitaBench's own run options (kept light: the CLI imports it to list and check them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field

from lifebench.suites._options import RoleChoices, SuiteOptions

if TYPE_CHECKING:
    from lifebench.suites._options import RunOptions

JudgeVariantKind = Literal["sliding", "full", "sliding-norubric", "full-norubric"]
DedupKind = Literal["exact", "paraphrase", "overall"]

_NONE: frozenset[Literal["agent", "user", "judge", "tool"]] = frozenset()


class VitaOptions(SuiteOptions):
    """The rubric judge's shape: variant, window, overlap and rubric de-duplication."""

    roles: ClassVar[RoleChoices] = RoleChoices(
        agents={
            "llm": frozenset({"agent"}),
            "solo": frozenset({"agent"}),
            "oracle": _NONE,
            "noop": _NONE,
        },
        users={"llm": frozenset({"user"}), "dummy": frozenset({"user"}), "scripted": _NONE},
        evaluators={
            "state": _NONE,
            "rubric": frozenset({"judge"}),
            "both": frozenset({"judge"}),
        },
        offline_agent="oracle",
        offline_user="scripted",
        model_agent="llm",
        model_user="llm",
        default_evaluator="state",
        model_evaluator="both",
        descriptions={
            "agent": "llm | solo (no user; all instructions up front) | oracle | noop",
            "user": "llm (persona simulator) | dummy (states everything at once) | scripted",
            "evaluator": "state | rubric | both (state AND rubric; the default with "
            "--judge-model, else state)",
        },
    )

    judge_variant: JudgeVariantKind = Field(
        "sliding",
        description="Judge: sliding | full | sliding-norubric | full-norubric.",
    )
    window: int = Field(10, ge=1, description="Messages per judge window.")
    overlap: int = Field(2, ge=0, description="Messages shared by consecutive judge windows.")
    rubric_dedup: DedupKind = Field(
        "paraphrase",
        description="Rubric de-duplication: paraphrase | exact (official) | overall.",
    )

    def check(self, run: RunOptions) -> None:
        """The judge window must advance: overlap < window."""
        if self.overlap >= self.window:
            raise ValueError(
                f"--overlap ({self.overlap}) must be smaller than --window ({self.window})"
            )
