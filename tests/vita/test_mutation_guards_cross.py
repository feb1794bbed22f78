"""Cross-scenario state grading (vita/grading/cross.py): the coverage counts every domain's
grader reports are summed into the one result, gradable or not."""

from __future__ import annotations

import copy

from test_grading_domains import _cross_task, _order, simulation

from lifebench.vita.grading.cross import cross_state_evaluator
from lifebench.vita.task import VitaTask


def test_an_ungradable_cross_task_reports_what_it_counted() -> None:
    raw = _cross_task([]).model_dump()
    raw["evaluation_criteria"]["overall_rubrics"] = ["The delivery time should be before 12:30"]
    result = cross_state_evaluator().grade(VitaTask.model_validate(raw), simulation({"orders": {}}))
    assert not result.gradable
    assert result.info["coverage"] == {"time": {"unchecked": 1}, "unrequested": {"checked": 4}}


def test_a_graded_cross_task_sums_every_domains_counts() -> None:
    cancel = _order("O_OLD", "S_SPA", [("P_A", 100, 1)], "cancelled")
    task = _cross_task([cancel])
    orders = copy.deepcopy(task.environment["orders"])
    orders["O_OLD"]["status"] = "cancelled"
    result = cross_state_evaluator().grade(task, simulation({"orders": orders}))
    assert result.reward == 1.0
    assert result.info["coverage"] == {
        "note": {"checked": 1},
        "status": {"checked": 1},
        "unrequested": {"checked": 4},
    }
