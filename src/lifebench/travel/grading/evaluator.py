"""The one travel evaluator (basis ``travel``): the right method for each task's subset.

A run's subset may come from each task (``--subset auto``: file name or rows), so the reward
basis cannot be chosen from the options alone. The ``travel`` basis therefore dispatches per
task: single- and multi-turn trajectories go to the judge (the LLM judge, or the offline
stand-in), unsolvable ones to the ``[Unsolved]`` rule. The inner method is stored in
``info["method"]`` (``judge`` / ``judge_offline`` / ``unsolved``); the reward is F / 100 for a
judged trajectory and 0 / 1 for an unsolvable one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from lifebench.evaluation import BasisResult
from lifebench.simulation import Simulation

GRADER_VERSION = 1
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

BASIS = "travel"


class SubsetGrader(Protocol):
    """An inner method: grades a trajectory of a known subset."""

    @property
    def basis(self) -> str:
        """Name of the method."""
        ...

    async def grade(self, task: Any, simulation: Simulation, subset: str) -> BasisResult:
        """Grade one trajectory as a task of ``subset``."""
        ...


class TravelEvaluator:
    """Dispatches each task to the judge or the unsolved rule by its effective subset."""

    def __init__(
        self,
        judge: SubsetGrader,
        unsolved: SubsetGrader,
        subset_of: Callable[[Any], str],
    ) -> None:
        self.judge = judge
        self.unsolved = unsolved
        self._subset_of = subset_of

    @property
    def basis(self) -> str:
        """``travel``."""
        return BASIS

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Grade with the judge (single / multi) or the rule (unsolvable)."""
        subset = self._subset_of(task)
        method = self.unsolved if subset == "unsolvable" else self.judge
        result = await method.grade(task, simulation, subset)
        return result.model_copy(
            update={"basis": BASIS, "info": {**result.info, "method": method.basis}}
        )
