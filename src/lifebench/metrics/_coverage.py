"""Coverage of each evaluation basis: what it checked per task, and what it could not check."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.metrics._types import BasisCoverage


def coverage_by_basis(graded: Sequence[tuple[str, Evaluation]]) -> dict[str, BasisCoverage]:
    """Per basis, over tasks: ungradable and undecided tasks, mean criteria checked, tasks with
    unchecked asks (gradable or undecided), and checks per field class.

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
        unchecked = {
            t: list(r.unchecked)
            for t, r in sorted(results.items())
            if r.unchecked and (r.gradable or r.undecided)
        }
        decidable = [r for r in results.values() if r.gradable or r.undecided]
        by_field: dict[str, dict[str, int]] = {}
        for r in results.values():
            for field, counts in (r.info.get("coverage") or {}).items():
                into = by_field.setdefault(str(field), {"checked": 0, "unchecked": 0})
                for outcome in ("checked", "unchecked"):
                    into[outcome] += int(counts.get(outcome, 0))
        out[name] = BasisCoverage(
            tasks=len(results),
            ungradable_tasks=len(results) - len(gradable),
            mean_criteria=(
                sum(len(r.criteria) for r in gradable.values()) / len(gradable)
                if gradable
                else None
            ),
            tasks_with_unchecked=len(unchecked),
            share_with_unchecked=len(unchecked) / len(decidable) if decidable else None,
            unchecked=unchecked,
            undecided_tasks=sum(r.undecided for r in results.values()),
            by_field=dict(sorted(by_field.items())),
        )
    return out
