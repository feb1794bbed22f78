"""A state evaluator's task reading, computed once per task of a run instead of once per unit.

:meth:`OrderStateEvaluator.prepare <lifebench.vita.grading.state.OrderStateEvaluator.prepare>`
reads a task's expected records and rubric constraints (attribution, coverage, what cannot be
checked); it depends on the task alone, yet it ran for every trial of the task (about 1.4 ms a
unit). So does :meth:`~lifebench.vita.grading.state.OrderStateEvaluator.matcher` (the known
places and reference locations of the task; the matchers only read what they computed).
:func:`memoise_prepare` wraps both around the call — the grading modules are unchanged: the
evaluator instance gets a ``prepare`` that remembers each task's answer and hands every caller
its own copy of the containers (graders append to the lists and counters they receive), and a
``matcher`` that hands out the task's one matcher.

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


class TaskMemo:
    """``compute(task)`` of one evaluator, computed once per task object (the least recently
    used of more than ``size`` tasks dropped first)."""

    def __init__(self, compute: Callable[[Any], Any], size: int = MEMO_SIZE) -> None:
        self._compute = compute
        self._size = max(1, size)
        self._entries: OrderedDict[int, tuple[object, Any]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __call__(self, task: Any) -> Any:
        entry = self._entries.get(id(task))
        if entry is not None and entry[0] is task:
            self._entries.move_to_end(id(task))
        else:
            entry = (task, self._compute(task))
            self._entries.pop(id(task), None)
            while len(self._entries) >= self._size:
                self._entries.popitem(last=False)
            self._entries[id(task)] = entry
        return entry[1]


class PrepareMemo(TaskMemo):
    """``prepare(task)`` of one evaluator, computed once per task object; every call gets its
    own copy of the containers."""

    def __call__(self, task: Any) -> Prepared:
        return copy_prepared(super().__call__(task))


def memoise_prepare(evaluator: Any) -> Any:
    """``evaluator`` with its ``prepare`` and ``matcher`` (and those of each per-domain part
    of a cross evaluator) remembered per task; other evaluators are returned as they are."""
    if isinstance(evaluator, OrderStateEvaluator):
        if not isinstance(evaluator.__dict__.get("prepare"), PrepareMemo):
            # instance attributes: the class's grade() calls self.prepare and self.matcher
            evaluator.__dict__["prepare"] = PrepareMemo(evaluator.prepare)
            evaluator.__dict__["matcher"] = TaskMemo(evaluator.matcher)
        return evaluator
    parts = getattr(evaluator, "_parts", None)  # CrossStateEvaluator: one evaluator per domain
    if isinstance(parts, dict):
        for part in parts.values():
            memoise_prepare(part)
    return evaluator
