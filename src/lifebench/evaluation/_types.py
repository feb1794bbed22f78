"""Records of grading one simulation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from lifebench.messages import Usage
from lifebench.simulation._types import Simulation


class CriterionVerdict(BaseModel):
    """Whether one criterion (a required order, a rubric) holds, and why."""

    id: str = Field(description="Stable id of the criterion within the task.")
    description: str = Field(description="What the criterion requires.")
    met: bool = Field(description="True when the criterion holds.")
    evidence: str = Field("", description="Why: the matching record, the judge's justification.")


class BasisResult(BaseModel):
    """The outcome of one evaluator (one reward basis) on one simulation."""

    basis: str = Field(description="Name of the evaluator, e.g. 'state' or 'rubric'.")
    reward: float = Field(description="1.0 when every criterion holds, else 0.0.")
    score: float = Field(description="Fraction of criteria met (dense signal).")
    criteria: list[CriterionVerdict] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage.zero, description="Judge usage, if any.")
    note: str = Field("", description="Why the basis was decided without checking criteria.")
    info: dict[str, Any] = Field(default_factory=dict)
    gradable: bool = Field(
        True,
        description="False when the task has no criterion this basis can check: the result is "
        "not a score (counted as ungradable and excluded from the metrics, never a pass).",
    )
    unchecked: list[str] = Field(
        default_factory=list,
        description="What the task asks that this basis cannot check (its coverage gaps).",
    )
    undecided: bool = Field(
        False,
        description="The basis cannot decide this task: every criterion it checked holds, but "
        "something the task states is unchecked (then also ungradable; in a reward of several "
        "bases, the other bases decide). Dumped only when true (records stay as they were).",
    )

    @model_serializer(mode="wrap")
    def _undecided_only_when_true(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict) and not self.undecided:
            data.pop("undecided", None)
        return data


class Evaluation(BaseModel):
    """All bases computed for a simulation, and the reward that counts."""

    reward: float = Field(description="The reward used by the metrics.")
    basis: str = Field(description="Which basis (or combination) produced ``reward``.")
    by_basis: dict[str, BasisResult] = Field(default_factory=dict)
    error: str | None = Field(None, description="Set when grading failed (reported, not a 0).")
    gradable: bool = Field(
        True,
        description="False when a basis of the reward could not grade the task (reward 0, "
        "counted as ungradable, excluded from the metrics).",
    )

    @property
    def success(self) -> bool:
        """Success means a reward within 1e-6 of 1."""
        return abs(self.reward - 1.0) < 1e-6


@runtime_checkable
class Evaluator(Protocol):
    """Grades one simulation of one task on one basis."""

    @property
    def basis(self) -> str:
        """Name of the basis this evaluator computes."""
        ...

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Return the basis result; raise InfrastructureError when a judge cannot answer."""
        ...


def combine(results: Mapping[str, BasisResult], bases: list[str]) -> Evaluation:
    """Reward = product of the rewards of ``bases`` (all must pass); other bases kept for display.

    A basis that cannot decide the task (``undecided``) leaves it to the other bases; when
    every basis is undecided they all count. If any counted basis is ungradable, so is the
    evaluation (reward 0, excluded from metrics).
    """
    counted = [b for b in bases if not results[b].undecided] or list(bases)
    reward = 1.0
    for b in counted:
        reward *= results[b].reward
    gradable = all(results[b].gradable for b in counted)
    return Evaluation(
        reward=reward if gradable else 0.0,
        basis="+".join(bases),
        by_basis=dict(results),
        gradable=gradable,
    )
