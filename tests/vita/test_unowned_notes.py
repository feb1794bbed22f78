"""A note the rubrics ask that no grader of the task takes is unchecked in every domain.

Notes are attributed by the delivery grader, or by the in-store grader in a task without
delivery orders, each only with a live requirement of its own. Without one — an in-store task
whose requirements are appointments only, a delivery task whose only requirement is a
cancellation, an OTA-only task, a cross task with bookings only — the rubric must be reported
unchecked (the state basis cannot decide), never passed silently. Synthetic tasks, en and zh."""

from __future__ import annotations

import copy

import pytest
from _synthetic import delivery_env, grade_state, oracle_state
from _synthetic import task as synthetic_task
from _vita_builders import simulation
from test_mutation_guards_instore import _grade as grade_instore
from test_mutation_guards_instore import _task as instore_task
from test_mutation_guards_instore2 import TIMED

from lifebench.vita.grading.cross import cross_state_evaluator
from lifebench.vita.grading.state import unowned_notes

NOTES = {"en": "Add a note to the reservation: window seat", "zh": "预约备注：靠窗座位"}
PLAIN = {"en": "Reserve the gym for two", "zh": "为两人预约健身房"}


def _reserved(task):  # type: ignore[no-untyped-def]
    return {**copy.deepcopy(task.environment["reservations"]), "G_NEW": {**TIMED}}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_appointment_only_task_reports_a_note_rubric_unchecked(lang: str) -> None:
    task = instore_task([TIMED], rubrics=(NOTES[lang],))
    result = grade_instore(task, reservations=_reserved(task))
    assert result.undecided and not result.gradable and result.reward != 1.0
    assert result.unchecked == [
        f"note: '{NOTES[lang]}' asks a note, but no record of the task takes one: the state "
        "basis cannot check it"
    ]
    assert result.info["coverage"]["note"] == {"unchecked": 1}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_without_a_note_rubric_the_same_task_is_solved(lang: str) -> None:
    task = instore_task([TIMED], rubrics=(PLAIN[lang],))
    result = grade_instore(task, reservations=_reserved(task))
    assert result.reward == 1.0 and result.unchecked == []
    assert unowned_notes(task) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cross_reports_an_unowned_note_once(lang: str) -> None:
    task = instore_task([TIMED], rubrics=(NOTES[lang],))
    final = {
        "orders": copy.deepcopy(task.environment["orders"]),
        "books": {},
        "reservations": _reserved(task),
    }
    result = cross_state_evaluator().grade(task, simulation(final))
    assert result.unchecked.count(result.unchecked[0]) == 1
    assert [u for u in result.unchecked if u.startswith("note:")] == [
        f"note: '{NOTES[lang]}' asks a note, but no record of the task takes one: the state "
        "basis cannot check it"
    ]
    assert result.info["coverage"]["note"]["unchecked"] == 1
    assert result.reward != 1.0


DELIVERY_NOTES = {"en": "The order's note: no cilantro", "zh": "订单备注：不要香菜"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_delivery_task_whose_only_requirement_is_a_cancellation_reports_a_note(
    lang: str,
) -> None:
    env = delivery_env(lang)  # type: ignore[arg-type]
    cancelled = [{**copy.deepcopy(env["orders"]["O1"]), "status": "cancelled"}]
    t = synthetic_task(env, cancelled, [DELIVERY_NOTES[lang]])
    result = grade_state(t, "delivery", oracle_state(t, "delivery"))
    assert result.undecided and result.reward != 1.0
    assert [u for u in result.unchecked if u.startswith("note:")] == [
        f"note: '{DELIVERY_NOTES[lang]}' asks a note, but no record of the task takes one: the "
        "state basis cannot check it"
    ]
    # the same task without the note rubric is solved by the oracle
    plain = synthetic_task(env, cancelled)
    assert grade_state(plain, "delivery", oracle_state(plain, "delivery")).reward == 1.0


def test_cross_counts_every_unowned_note_in_its_coverage() -> None:
    rubrics = (NOTES["en"], NOTES["zh"])
    task = instore_task([TIMED], rubrics=rubrics)
    final = {
        "orders": copy.deepcopy(task.environment["orders"]),
        "books": {},
        "reservations": _reserved(task),
    }
    result = cross_state_evaluator().grade(task, simulation(final))
    assert len([u for u in result.unchecked if u.startswith("note:")]) == 2
    assert result.info["coverage"]["note"]["unchecked"] == 2
