"""Extra gradings of stored trajectories: the judge's own variance (``lifebench eval
--rejudge K``).

Each trajectory is graded K times: the ordinary grading (through the model cache, as every
``lifebench eval``), then K - 1 extra gradings by the same evaluators built on models whose
cache is :class:`RecordOnlyCache` — never read, so every extra grading is a fresh call to the
judge, but recorded in the run's model cache like every call (the first answer stored for a
request wins, so the ordinary grading's answers are never replaced) — each given its own
seed (:func:`~lifebench.evaluation._rejudge.replicate_seed`, passed as the simulation's seed,
which the judges forward to their model). The extra gradings are recorded inside the stored
evaluation (:mod:`lifebench.evaluation._rejudge`); they never change the reward. A re-run of
the same command keeps the extra gradings already stored for a trajectory whose ordinary
grading did not change, and only makes the missing ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lifebench.evaluation import Evaluation, Evaluator
from lifebench.evaluation._rejudge import (
    REJUDGE_KEY,
    replicate_count,
    replicate_seed,
    strip_replicates,
    with_replicates,
)
from lifebench.messages import AssistantMessage
from lifebench.models import ModelCache
from lifebench.runner._experiment import evaluate
from lifebench.simulation import Simulation


class RecordOnlyCache(ModelCache):
    """A model cache that records answers but never answers from them: the extra gradings'
    calls all reach the judge, and their answers are kept beside every other call."""

    async def get(self, key: str) -> AssistantMessage | None:
        """Always a miss."""
        return None


def _stored(evaluation: Evaluation) -> list[tuple[int, Evaluation]]:
    """The extra gradings held by ``evaluation`` as (seed, per-basis evaluation) pairs."""
    count = replicate_count(evaluation)
    out: list[tuple[int, Evaluation]] = []
    for i in range(count):
        by_basis = {}
        error = None
        seed = 0
        for name, result in evaluation.by_basis.items():
            entries = result.info.get(REJUDGE_KEY) or []
            if i >= len(entries):
                continue
            entry = entries[i]
            seed = int(entry.get("seed", 0))
            error = error or entry.get("error")
            by_basis[name] = strip_replicates(result).model_copy(
                update={
                    "reward": float(entry.get("reward", 0.0)),
                    "score": float(entry.get("score", 0.0)),
                    "gradable": bool(entry.get("gradable", True)),
                    "usage": result.usage.model_validate(entry.get("usage") or {}),
                    "criteria": [],
                }
            )
        out.append(
            (seed, Evaluation(reward=0.0, basis=evaluation.basis, by_basis=by_basis, error=error))
        )
    return out


def _same_grading(new: Evaluation, old: Evaluation | None) -> bool:
    """Whether the ordinary grading is unchanged (so the stored extra gradings still
    replicate it): same reward definition and the same result on every basis."""
    if old is None or old.basis != new.basis or old.by_basis.keys() != new.by_basis.keys():
        return False
    return all(
        strip_replicates(old.by_basis[name]) == strip_replicates(result)
        for name, result in new.by_basis.items()
    )


@dataclass(frozen=True)
class Rejudge:
    """Grades a trajectory ``gradings - 1`` more times with ``evaluators`` (built on models
    without the cache)."""

    gradings: int
    evaluators: Mapping[str, Evaluator]
    bases: Sequence[str]

    def __post_init__(self) -> None:
        if self.gradings < 1:
            raise ValueError(f"gradings must be at least 1, got {self.gradings}")

    async def extend(
        self, task: Any, simulation: Simulation, new: Evaluation, previous: Evaluation | None
    ) -> Evaluation:
        """``new`` (the ordinary grading just made) with its extra gradings: those
        ``previous`` already holds when the ordinary grading is unchanged, plus the missing
        ones. A failed extra grading is recorded with its error (it does not fail ``new``)."""
        if self.gradings == 1:
            return new
        kept = (
            _stored(previous)[: self.gradings - 1]
            if previous and _same_grading(new, previous)
            else []
        )
        replicates = list(kept)
        for r in range(len(kept) + 1, self.gradings):
            seed = replicate_seed(simulation.seed, r)
            copy = simulation.model_copy(update={"seed": seed})
            replicates.append((seed, await evaluate(task, copy, self.evaluators, self.bases)))
        return with_replicates(new, replicates)
