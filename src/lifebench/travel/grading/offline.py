"""An offline stand-in for the judge (basis ``judge_offline``): NOT a real judgement.

It lets ``lifebench run --suite travel`` and the whole scoring pipeline (ratings → tool
penalty → subset score → report) run with no model. The ratings come from a few deterministic
features of the trajectory — did the agent use tools, how many failed, did it give a final
answer, how many questions did it ask — and say nothing about whether the answer is right.
Every result and the report carry ``judge_kind: "offline"`` and a note saying so.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from lifebench.evaluation import BasisResult
from lifebench.messages import Message, Usage
from lifebench.simulation import Simulation
from lifebench.travel.grading.judge import judge_result, task_fields
from lifebench.travel.grading.scoring import dimensions_of, score_instance, tool_error_rate
from lifebench.travel.grading.unsolved import final_answer

GRADER_VERSION = 1
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

JUDGE_KIND_OFFLINE = "offline"
OFFLINE_NOTE = "offline heuristic ratings from trajectory features: not a real judgement"
MAX_ANSWER_CHARS = 1500


def questions_asked(messages: Sequence[Message]) -> int:
    """Agent texts the user answered (each agent turn that handed over to the user)."""
    count = 0
    for before, after in itertools.pairwise(messages):
        if before.role == "assistant" and before.content.strip() and after.role == "user":
            count += 1
    return max(count - 1, 0)  # the last hand-over is the final answer


def offline_ratings(
    messages: Sequence[Message], subset: str, tool_calls: int, tool_errors: int
) -> dict[str, int | None]:
    """Deterministic 1–5 ratings per dimension (see the module docstring)."""
    answer = (final_answer(messages) or "").strip()
    rate = tool_error_rate(tool_calls, tool_errors)
    if tool_calls == 0:
        planning = 2
    elif rate == 0:
        planning = 5
    elif rate <= 0.25:
        planning = 4
    else:
        planning = 3
    if not answer:
        extraction, presentation = 1, 1
    else:
        extraction = 4 if tool_calls > 0 else 3
        presentation = 4 if len(answer) <= MAX_ANSWER_CHARS else 3
    ratings: dict[str, int | None] = {
        "reasoning_planning": planning,
        "summarization_extraction": extraction,
        "presentation": presentation,
    }
    if "user_interaction" in dimensions_of(subset):
        asked = questions_asked(messages)
        ratings["user_interaction"] = 4 if asked <= 1 else 3 if asked <= 3 else 2
    return ratings


class OfflineJudge:
    """The offline stand-in evaluator (no model, deterministic, clearly labelled)."""

    @property
    def basis(self) -> str:
        """``judge_offline``."""
        return "judge_offline"

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Rate the trajectory as a task of its own subset."""
        return await self.grade(task, simulation, task_fields(task)["subset"] or "single")

    async def grade(self, task: Any, simulation: Simulation, subset: str) -> BasisResult:
        """Rate from trajectory features; no meta-judge (w_meta = 1)."""
        ratings = offline_ratings(
            simulation.messages, subset, simulation.tool_calls, simulation.tool_errors
        )
        score = score_instance(ratings, simulation.tool_calls, simulation.tool_errors, None)
        result = judge_result(
            self.basis,
            score,
            None,
            subset=subset,
            usage=Usage.zero(),
            info={"judge_kind": JUDGE_KIND_OFFLINE, "meta_judge": False},
        )
        return result.model_copy(update={"note": OFFLINE_NOTE})
