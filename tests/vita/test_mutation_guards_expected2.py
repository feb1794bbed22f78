"""Reading expected states (vita/grading/expected.py), second part: the readings ``classify``
leaves to the rubrics and the initial database, pinned by the requirement each record becomes
(kind, target, note), in English and Chinese where a rubric decides."""

from __future__ import annotations

from typing import Any

import pytest
from _vita_builders import delivery_task, order

from lifebench.vita.grading.expected import required_orders

DELIVERY = frozenset({"delivery"})


def _read(expected: list[dict[str, Any]], rubrics: list[str]) -> list[tuple[str, str, str]]:
    task = delivery_task(expected=expected, rubrics=rubrics)
    return [(r.kind, r.target, r.note) for r in required_orders(task, DELIVERY)]


@pytest.mark.parametrize("rubric", ["Cancel order O1", "取消订单O1"], ids=["en", "zh"])
def test_a_cancellation_only_the_rubrics_ask_becomes_a_requirement(rubric: str) -> None:
    new = order("T1", "S1", [("P1", 1, "Mild Spicy")])
    assert _read([new], [rubric]) == [
        ("new", "", ""),
        ("existing", "O1", "the rubrics cancel O1"),
    ]
