"""Which rubrics a task is judged on: state and overall rubrics, de-duplicated.

The official harness unites every expected state's ``state_rubrics`` with ``overall_rubrics``
and removes exact duplicates only. In the Chinese files the two lists are identical copies; in
the English files they were translated separately, so paraphrases survive and the same check is
judged twice (931 instead of 735 rubrics in the delivery file), which makes the all-or-nothing
reward stricter in English. The rule is switchable:

* ``exact`` — the official behaviour: union, exact duplicates removed;
* ``paraphrase`` (default) — all overall rubrics (exact duplicates removed), plus each state
  rubric that does not paraphrase one of them (normalised token-set similarity below
  :data:`PARAPHRASE_THRESHOLD`); on the English delivery sample this recovers the overall count
  to within one rubric;
* ``overall`` — the overall rubrics only.
"""

from __future__ import annotations

from typing import Literal

from rapidfuzz import fuzz

from lifebench.vita.task import VitaTask

DedupMode = Literal["exact", "paraphrase", "overall"]
DEDUP_MODES: tuple[DedupMode, ...] = ("exact", "paraphrase", "overall")
PARAPHRASE_THRESHOLD = 80.0


def _normalise(text: str) -> str:
    return " ".join("".join(ch.lower() if ch.isalnum() else " " for ch in text).split())


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(r for r in items if r.strip()))


def task_rubrics(task: VitaTask, mode: DedupMode = "paraphrase") -> list[str]:
    """The rubrics ``task`` is judged on, in file order, under de-duplication ``mode``."""
    if mode not in DEDUP_MODES:
        known = ", ".join(DEDUP_MODES)
        raise ValueError(f"unknown rubric de-duplication mode {mode!r} (known: {known})")
    criteria = task.evaluation_criteria
    if criteria is None:
        return []
    state = [r for s in criteria.expected_states for r in s.state_rubrics]
    overall = _unique(list(criteria.overall_rubrics))
    if mode == "overall":
        return overall
    if mode == "exact":
        return _unique(state + list(criteria.overall_rubrics))
    kept = list(overall)
    overall_normal = [_normalise(r) for r in overall]
    for rubric in _unique(state):
        if rubric in kept:
            continue
        n = _normalise(rubric)
        if any(fuzz.token_set_ratio(n, o) >= PARAPHRASE_THRESHOLD for o in overall_normal):
            continue
        kept.append(rubric)
    return kept
