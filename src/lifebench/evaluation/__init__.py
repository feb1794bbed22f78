"""Evaluation: per-basis results, the evaluator protocol and reward combination."""

from lifebench.evaluation._types import (
    BasisResult,
    CriterionVerdict,
    Evaluation,
    Evaluator,
    combine,
)

__all__ = ["BasisResult", "CriterionVerdict", "Evaluation", "Evaluator", "combine"]
