"""State grading of cross-scenario tasks: every domain's grader over the one final world."""

from __future__ import annotations

from typing import Any

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.simulation import Simulation
from lifebench.vita.grading.instore import instore_state_evaluator
from lifebench.vita.grading.ota import ota_state_evaluator
from lifebench.vita.grading.state import (
    Coverage,
    OrderStateEvaluator,
    delivery_state_evaluator,
    result,
    tally,
    unowned_notes,
)
from lifebench.vita.task import VitaTask

GRADER_VERSION = 6
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""


class CrossStateEvaluator:
    """The ``state`` basis of cross-scenario tasks.

    Each domain's evaluator grades the records of its own types (delivery orders; in-store
    orders, bookings and reservations; hotel/attraction/flight/train orders), including its
    guards against extra or unrequested changes; criteria are prefixed with the domain. The
    reward is 1 only when every criterion of every domain holds. A domain without requirements
    contributes its guards; a task without a requirement in any domain is ungradable.
    """

    basis = "state"

    def __init__(self) -> None:
        self._parts: dict[str, OrderStateEvaluator] = {
            "delivery": delivery_state_evaluator(),
            "instore": instore_state_evaluator(),
            "ota": ota_state_evaluator(),
        }
        for part in self._parts.values():
            part.report_unowned_notes = False  # reported once below, not by every domain

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Grade ``simulation`` of ``task``."""
        return self.grade(task, simulation)

    def grade(self, task: VitaTask, simulation: Simulation) -> BasisResult:
        """Synchronous core of :meth:`evaluate`."""
        parts = {name: evaluator.grade(task, simulation) for name, evaluator in self._parts.items()}
        unowned = unowned_notes(task)
        unchecked = [u for part in parts.values() for u in part.unchecked] + unowned
        coverage: Coverage = {}
        if unowned:
            tally(coverage, "note", "unchecked", len(unowned))
        for part in parts.values():
            for field, counts in (part.info.get("coverage") or {}).items():
                for outcome, n in counts.items():
                    tally(coverage, field, outcome, n)
        active = {name for name, part in parts.items() if part.gradable or part.undecided}
        if not active:
            return result(self.basis, [], gradable=False, unchecked=unchecked, coverage=coverage)
        if not simulation.termination.is_normal:
            return BasisResult(
                basis=self.basis,
                reward=0.0,
                score=0.0,
                unchecked=unchecked,
                note=f"episode ended with {simulation.termination.value}",
            )
        criteria: list[CriterionVerdict] = []
        for name, part in parts.items():
            # A domain without requirements still guards its records (no extra orders, no
            # unrequested cancellations).
            verdicts = (
                part.criteria
                if name in active
                else self._parts[name].guard_criteria(task, simulation)
            )
            criteria += [c.model_copy(update={"id": f"{name}:{c.id}"}) for c in verdicts]
        return result(self.basis, criteria, gradable=True, unchecked=unchecked, coverage=coverage)


def cross_state_evaluator() -> CrossStateEvaluator:
    """The ``state`` evaluator of cross-scenario tasks."""
    return CrossStateEvaluator()
