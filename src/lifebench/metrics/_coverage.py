"""Coverage of each evaluation basis: what it checked per task, and what it could not check."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.metrics._types import BasisCoverage


def coverage_by_basis(graded: Sequence[tuple[str, Evaluation]]) -> dict[str, BasisCoverage]:
    """Per basis, over tasks: ungradable tasks, mean criteria checked, tasks with unchecked asks.

    ``graded`` holds (task id, evaluation) of every completed evaluation that did not fail. A
    task's coverage on a basis comes from its evaluation with the most criteria (an episode
    that ended abnormally is decided without checking criteria).
    """
    best: dict[str, dict[str, BasisResult]] = defaultdict(dict)
    for task_id, evaluation in graded:
        for name, result in evaluation.by_basis.items():
            current = best[name].get(task_id)
            if current is None or len(result.criteria) > len(current.criteria):
                best[name][task_id] = result
    out: dict[str, BasisCoverage] = {}
    for name in sorted(best):
        results = best[name]
        gradable = {t: r for t, r in results.items() if r.gradable}
        unchecked = {t: list(r.unchecked) for t, r in sorted(gradable.items()) if r.unchecked}
        out[name] = BasisCoverage(
            tasks=len(results),
            ungradable_tasks=len(results) - len(gradable),
            mean_criteria=(
                sum(len(r.criteria) for r in gradable.values()) / len(gradable)
                if gradable
                else None
            ),
            tasks_with_unchecked=len(unchecked),
            share_with_unchecked=len(unchecked) / len(gradable) if gradable else None,
            unchecked=unchecked,
        )
    return out
