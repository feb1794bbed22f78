"""What a task asks that its expected state cannot check (the state basis's coverage gaps).

The state grader compares records; a task can ask more than its records hold. Found here:

* a delivery time of day or deadline stated in the rubrics while an order the grader checks carries
  no ``delivery_time`` / ``dispatch_time`` (task 10711001: "around 12:00" only in the rubrics);
* a note stated in the rubrics while no record the grader checks carries one.

Each finding is one line of :attr:`~lifebench.evaluation.BasisResult.unchecked`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lifebench.vita.task import VitaTask

_TIME = re.compile(
    r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}\s?[点時时]|"
    r"within\s+(?:half\s+an|an|\d+)\s+(?:hour|minute)|分钟内|小时内|半小时",
    re.IGNORECASE,
)
_DELIVERY = re.compile(r"deliver|arriv|送达|配送|送到|外卖", re.IGNORECASE)
_NOTE = re.compile(r"\bnotes?\b|\bremarks?\b|备注", re.IGNORECASE)


def rubrics(task: VitaTask) -> list[str]:
    """Every rubric of the task (state rubrics, then overall), without duplicates."""
    criteria = task.evaluation_criteria
    if criteria is None:
        return []
    out: list[str] = []
    for state in criteria.expected_states:
        out += state.state_rubrics
    out += criteria.overall_rubrics
    return list(dict.fromkeys(r for r in out if r.strip()))


def _quote(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def rubric_only_time(task: VitaTask, untimed: Iterable[str]) -> list[str]:
    """An unchecked-ask line when rubrics state a time and orders in ``untimed`` carry none."""
    orders = sorted(set(untimed))
    if not orders:
        return []
    said = next((r for r in rubrics(task) if _TIME.search(r) and _DELIVERY.search(r)), None)
    if said is None:
        return []
    return [
        f"delivery time of order(s) {', '.join(orders)}: stated only in the rubrics "
        f"('{_quote(said)}'), the expected record has none"
    ]


def rubric_only_note(task: VitaTask, any_note: bool) -> list[str]:
    """An unchecked-ask line when rubrics ask for a note and no checked record has one."""
    if any_note:
        return []
    said = next((r for r in rubrics(task) if _NOTE.search(r)), None)
    if said is None:
        return []
    return [f"a note: stated only in the rubrics ('{_quote(said)}'), no expected record has one"]
