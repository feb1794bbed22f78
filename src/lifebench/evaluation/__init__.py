"""Evaluation: per-basis results, the evaluator protocol and reward combination."""

from lifebench.evaluation._judge import (
    JudgeAnswer,
    JudgeError,
    ShapeError,
    ask_json,
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
    "BasisResult",
    "CriterionVerdict",
    "Evaluation",
    "Evaluator",
    "JudgeAnswer",
    "JudgeError",
    "ShapeError",
    "ask_json",
    "combine",
    "parse_json",
    "render_transcript",
    "sliding_windows",
]
