"""TravelBench grading: the judge, the meta-judge, the tool penalty, the unsolved rule, the report.

The suite calls three functions: :func:`build_evaluators` (one ``travel`` basis that sends each
task to the judge or the unsolved rule by its subset), :func:`reward_bases` and
:func:`report_metrics`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lifebench.errors import InputError
from lifebench.evaluation import Evaluator
from lifebench.metrics import ResultRecord
from lifebench.suites import RunOptions
from lifebench.suites._registry import ModelResolver, required_model
from lifebench.travel.grading.evaluator import BASIS, TravelEvaluator


def build_evaluators(options: RunOptions, models: ModelResolver) -> dict[str, Evaluator]:
    """The ``travel`` evaluator: the LLM judge (``--evaluator judge``) or the offline stand-in,
    plus the unsolved rule for unsolvable tasks."""
    from lifebench.travel.grading.judge import TravelJudge
    from lifebench.travel.grading.offline import OfflineJudge
    from lifebench.travel.grading.unsolved import UnsolvedEvaluator
    from lifebench.travel.options import TravelOptions
    from lifebench.travel.task import effective_subset
    from lifebench.travel.tools import tool_schemas

    travel = options.options_for(TravelOptions)
    judge: TravelJudge | OfflineJudge
    if options.evaluator == "judge":
        if not options.judge_model:
            raise InputError("--evaluator judge needs --judge-model", field="--judge-model")
        judge = TravelJudge(
            required_model(models, options.judge_model, "judge"),
            tool_schemas={lang: tool_schemas(lang) for lang in ("zh", "en")},
            meta_judge=travel.meta_judge,
            judge_context=travel.judge_context,
            max_reasks=travel.judge_reasks,
        )
    else:
        judge = OfflineJudge()
    evaluator = TravelEvaluator(
        judge,
        UnsolvedEvaluator(travel.unsolved_rule),
        lambda task: effective_subset(task, options),
    )
    return {BASIS: evaluator}


def reward_bases(options: RunOptions) -> list[str]:
    """Always the one ``travel`` basis."""
    return [BASIS]


def report_metrics(records: Sequence[ResultRecord], config: Mapping[str, Any]) -> dict[str, Any]:
    """TravelBench's numbers (see :mod:`lifebench.travel.grading.report`)."""
    from lifebench.travel.grading.report import report_metrics as compute

    return compute(records, config)


__all__ = ["BASIS", "build_evaluators", "report_metrics", "reward_bases"]
