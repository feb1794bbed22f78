"""A state evaluator's task reading, computed once per task of a run instead of once per unit.

:meth:`OrderStateEvaluator.prepare <lifebench.vita.grading.state.OrderStateEvaluator.prepare>`
reads a task's expected records and rubric constraints (attribution, coverage, what cannot be
checked); it depends on the task alone, yet it ran for every trial of the task (about 1.4 ms a
unit). :func:`memoise_prepare` wraps it around the call — the grading module is unchanged: the
evaluator instance gets a ``prepare`` that remembers each task's answer and hands every caller
its own copy of the containers (graders append to the lists and counters they receive).

The memo belongs to one evaluator instance (one run's, built by the suite), is keyed by the
task object's identity while holding the task (an identity is never reused while its entry
lives), and is bounded; nothing is kept at module level.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import Any

from lifebench.vita.grading.state import Coverage, OrderStateEvaluator
from lifebench.vita.grading.stated import Attribution

Prepared = tuple[list[Any], list[str], Coverage, Attribution]

MEMO_SIZE = 4096
"""Tasks remembered per evaluator (least recently used dropped first)."""


def copy_prepared(prepared: Prepared) -> Prepared:
    """Fresh containers around the same (frozen) requirements and constraints."""
    reqs, unchecked, coverage, attribution = prepared
    return (
        list(reqs),
        list(unchecked),
        {field: Counter(counts) for field, counts in coverage.items()},
        Attribution(
            by_key={key: list(stated) for key, stated in attribution.by_key.items()},
            unattributed=list(attribution.unattributed),
        ),
    )


class PrepareMemo:
    """``prepare(task)`` of one evaluator, computed once per task object."""

    def __init__(self, prepare: Callable[[Any], Prepared], size: int = MEMO_SIZE) -> None:
        self._prepare = prepare
        self._size = max(1, size)
        self._entries: OrderedDict[int, tuple[object, Prepared]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __call__(self, task: Any) -> Prepared:
        entry = self._entries.get(id(task))
        if entry is not None and entry[0] is task:
            self._entries.move_to_end(id(task))
        else:
            entry = (task, self._prepare(task))
            self._entries.pop(id(task), None)
            while len(self._entries) >= self._size:
                self._entries.popitem(last=False)
            self._entries[id(task)] = entry
        return copy_prepared(entry[1])


def memoise_prepare(evaluator: Any) -> Any:
    """``evaluator`` with its ``prepare`` (and that of each per-domain part of a cross
    evaluator) remembered per task; other evaluators are returned as they are."""
    if isinstance(evaluator, OrderStateEvaluator):
        if not isinstance(evaluator.__dict__.get("prepare"), PrepareMemo):
            # an instance attribute: the class's grade() calls self.prepare
            evaluator.__dict__["prepare"] = PrepareMemo(evaluator.prepare)
        return evaluator
    parts = getattr(evaluator, "_parts", None)  # CrossStateEvaluator: one evaluator per domain
    if isinstance(parts, dict):
        for part in parts.values():
            memoise_prepare(part)
    return evaluator
