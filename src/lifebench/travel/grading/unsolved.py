"""The unsolvable subset's rule: did the agent answer ``[Unsolved]``?

Rules (``--unsolved-rule``):

* ``first`` (official): the *first* assistant message after the user's query has text that
  contains ``[Unsolved]`` (extra text around the tag still counts). An agent that first calls a
  tool — empty text — scores 0 even if it says ``[Unsolved]`` later, although its prompt allows
  stopping "at any step" (spec §8.1.1).
* ``final``: the tag appears anywhere in the final answer (the last assistant message with
  text).
* ``exact``: the final answer, stripped, is exactly ``[Unsolved]`` (what the prompt demands).

The tag match is case-sensitive, as in the official checker. All three verdicts are stored in
every result, so a report can show the gap between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, get_args

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.messages import Message
from lifebench.simulation import Simulation

GRADER_VERSION = 1
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

UNSOLVED_TAG = "[Unsolved]"
UnsolvedRule = Literal["first", "final", "exact"]
UNSOLVED_RULES: tuple[UnsolvedRule, ...] = get_args(UnsolvedRule)


def _after_query(messages: Sequence[Message]) -> list[Message]:
    """The messages from the first user message on (a greeting, if any, is not an answer)."""
    for i, m in enumerate(messages):
        if m.role == "user":
            return list(messages[i:])
    return list(messages)


def first_reply(messages: Sequence[Message]) -> str | None:
    """Text of the first assistant message after the query ("" for a pure tool call)."""
    for m in _after_query(messages):
        if m.role == "assistant":
            return m.content
    return None


def final_answer(messages: Sequence[Message]) -> str | None:
    """Text of the last assistant message that has any."""
    for m in reversed(_after_query(messages)):
        if m.role == "assistant" and m.content.strip():
            return m.content
    return None


def unsolved_verdicts(messages: Sequence[Message]) -> dict[str, bool]:
    """The verdict of every rule."""
    first = first_reply(messages) or ""
    final = final_answer(messages) or ""
    return {
        "first": UNSOLVED_TAG in first,
        "final": UNSOLVED_TAG in final,
        "exact": final.strip() == UNSOLVED_TAG,
    }


class UnsolvedEvaluator:
    """Basis ``unsolved``: 1 when the chosen rule finds the tag, else 0 (no model involved)."""

    def __init__(self, rule: UnsolvedRule = "first") -> None:
        if rule not in UNSOLVED_RULES:
            raise ValueError(f"unknown unsolved rule {rule!r}; choose from {UNSOLVED_RULES}")
        self.rule = rule

    @property
    def basis(self) -> str:
        """``unsolved``."""
        return "unsolved"

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Apply the rule to the trajectory."""
        return await self.grade(task, simulation, str(getattr(task, "subset", "unsolvable")))

    async def grade(self, task: Any, simulation: Simulation, subset: str) -> BasisResult:
        """Apply the rule (whatever the subset: on solvable rows it measures false refusals)."""
        verdicts = unsolved_verdicts(simulation.messages)
        met = verdicts[self.rule]
        first = first_reply(simulation.messages)
        final = final_answer(simulation.messages)
        return BasisResult(
            basis=self.basis,
            reward=1.0 if met else 0.0,
            score=1.0 if met else 0.0,
            criteria=[
                CriterionVerdict(
                    id="unsolved",
                    description=f"The agent answers {UNSOLVED_TAG} (rule: {self.rule})",
                    met=met,
                    evidence=(first if self.rule == "first" else final) or "(no reply)",
                )
            ],
            info={
                "subset": subset,
                "rule": self.rule,
                "by_rule": verdicts,
                "first_reply": first,
                "final_answer": final,
                "tool_calls": simulation.tool_calls,
                "tool_errors": simulation.tool_errors,
            },
        )
