"""Evaluation: per-basis results, the evaluator protocol and reward combination."""

from lifebench.evaluation._judge import (
    GRADING_ERROR,
    JudgeAnswer,
    JudgeError,
    ShapeError,
    ask_json,
    failed_basis,
    parse_json,
    render_transcript,
)
from lifebench.evaluation._types import (
    BasisResult,
    CriterionVerdict,
    Evaluation,
    Evaluator,
    combine,
)
from lifebench.evaluation._windows import sliding_windows

__all__ = [
    "GRADING_ERROR",
    "BasisResult",
    "CriterionVerdict",
    "Evaluation",
    "Evaluator",
    "JudgeAnswer",
    "JudgeError",
    "ShapeError",
    "ask_json",
    "combine",
    "failed_basis",
    "parse_json",
    "render_transcript",
    "sliding_windows",
]
