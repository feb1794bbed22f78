"""A rubric that states a time, day or party size only about a kind of record the task's grader
does not read is unchecked, never passed silently.

Each domain's grader reads the constraints of its own kinds of records (delivery orders,
appointments, bookings). "Deliver the food by 18:30" in an OTA-only task, "a table for 4 at
19:00" in a delivery task or "check in on June 9" in an in-store task were neither checked nor
reported (reward 1, nothing unchecked). A rubric from which the grader reads something of its
own stays its own (the other clauses are context), and the cross grader reads every kind.
Synthetic tasks, en and zh."""

from __future__ import annotations

import copy
from datetime import datetime

import pytest
from _synthetic import ROOMS, delivery_env, grade_state, oracle_state, ota_env, ota_order
from _synthetic import task as synthetic_task
from _vita_builders import simulation
from test_mutation_guards_instore import _grade as grade_instore
from test_mutation_guards_instore import _task as instore_task
from test_mutation_guards_instore2 import TIMED

from lifebench.vita.grading.constraints import parse_rubric
from lifebench.vita.grading.cross import cross_state_evaluator
from lifebench.vita.grading.state import foreign_stated

TAIL = "this task's grader does not read: the state basis cannot check it"


def _ota_task(rubric: str):  # type: ignore[no-untyped-def]
    env = ota_env("en")
    return synthetic_task(env, [ota_order("ON", "hotel", "H1", ROOMS[0], "paid")], [rubric])


OTA_FOREIGN = [
    (
        "Deliver the food by 18:30 tomorrow",
        "time: 'Deliver the food by 18:30 tomorrow' states delivery time before "
        "[2025-06-05 00:00:00, 2025-06-05 18:30:00], about records of a kind (delivery) " + TAIL,
    ),
    (
        "明天18:30前送达",
        "time: '明天18:30前送达' states delivery time before "
        "[2025-06-05 00:00:00, 2025-06-05 18:30:00], about records of a kind (delivery) " + TAIL,
    ),
    (
        "Reserve a table for 4 people",
        "party_size: 'Reserve a table for 4 people' states party size 4, about records of a "
        "kind (appointment) " + TAIL,
    ),
    (
        "预订4人的餐位",
        "party_size: '预订4人的餐位' states party size 4, about records of a kind (appointment) "
        + TAIL,
    ),
    (
        "The restaurant reservation should be at 19:00 on June 5",
        "time: 'The restaurant reservation should be at 19:00 on June 5' states appointment "
        "time around [2025-06-05 18:30:00, 2025-06-05 19:30:00], about records of a kind "
        "(appointment) " + TAIL,
    ),
]


@pytest.mark.parametrize(("rubric", "line"), OTA_FOREIGN)
def test_an_ota_task_reports_a_rubric_about_other_kinds_unchecked(rubric: str, line: str) -> None:
    t = _ota_task(rubric)
    result = grade_state(t, "ota", oracle_state(t, "ota"))
    assert result.undecided and not result.gradable and result.reward != 1.0
    assert result.unchecked == [line]
    field = line.split(":", 1)[0]
    assert result.info["coverage"][field] == {"unchecked": 1}


@pytest.mark.parametrize("rubric", ["Book the hotel room", "预订酒店房间"])
def test_the_same_ota_task_without_it_is_solved(rubric: str) -> None:
    t = _ota_task(rubric)
    result = grade_state(t, "ota", oracle_state(t, "ota"))
    assert result.reward == 1.0 and result.unchecked == []


TABLE = {
    "en": "Reserve a table for 4 people at 19:00",
    "zh": "预订4人19:00的餐位",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_delivery_task_reports_an_appointment_rubric_unchecked(lang: str) -> None:
    env = delivery_env(lang)  # type: ignore[arg-type]
    cancelled = [{**copy.deepcopy(env["orders"]["O1"]), "status": "cancelled"}]
    t = synthetic_task(env, cancelled, [TABLE[lang]])
    result = grade_state(t, "delivery", oracle_state(t, "delivery"))
    assert result.undecided and result.reward != 1.0
    assert result.unchecked == [
        f"time: '{TABLE[lang]}' states appointment time around [2025-06-04 18:30:00, "
        "2025-06-04 19:30:00]; party size 4, about records of a kind (appointment) " + TAIL
    ]
    assert result.info["coverage"]["time"]["unchecked"] == 1
    plain = synthetic_task(env, cancelled)
    assert grade_state(plain, "delivery", oracle_state(plain, "delivery")).reward == 1.0


def _reserved(task):  # type: ignore[no-untyped-def]
    return {**copy.deepcopy(task.environment["reservations"]), "G_NEW": {**TIMED}}


INSTORE_FOREIGN = {
    "Deliver it by 18:30": "delivery",
    "18:30前送达": "delivery",
    "Check in on 2025-05-20": "booking",
    "Check-in at the hotel on 2025-05-20": "booking",
    "2025年5月20日入住酒店": "booking",
}


@pytest.mark.parametrize(("rubric", "kind"), INSTORE_FOREIGN.items())
def test_an_instore_task_reports_a_delivery_or_booking_rubric_unchecked(
    rubric: str, kind: str
) -> None:
    task = instore_task([TIMED], rubrics=(rubric,))
    result = grade_instore(task, reservations=_reserved(task))
    assert result.undecided and result.reward != 1.0
    assert len(result.unchecked) == 1
    assert result.unchecked[0].startswith(("time: ", "date: "))
    assert result.unchecked[0].endswith(f"about records of a kind ({kind}) " + TAIL)
    assert f"'{rubric}'" in result.unchecked[0]


@pytest.mark.parametrize(
    "rubric",
    [
        # the official in-store files state such context beside the appointment's own time
        "Departing at 8:00 AM on 2025-05-17, so the reservation time should be 2025-05-17 09:00:00",
        "2025年5月17日8点出发，所以预约时间应为2025-05-17 09:00:00",
        "Reserve the gym for two",
    ],
)
def test_a_rubric_the_grader_reads_something_of_its_own_from_stays_its_own(rubric: str) -> None:
    task = instore_task([TIMED], rubrics=(rubric,))
    result = grade_instore(task, reservations=_reserved(task))
    assert result.reward == 1.0 and result.unchecked == []
    assert foreign_stated(task, frozenset({"appointment"})) == []


@pytest.mark.parametrize("rubric", ["Deliver it by 18:30", "18:30前送达"])
def test_the_cross_grader_reads_every_kind_and_adds_no_foreign_line(rubric: str) -> None:
    task = instore_task([TIMED], rubrics=(rubric,))
    final = {
        "orders": copy.deepcopy(task.environment["orders"]),
        "books": {},
        "reservations": _reserved(task),
    }
    result = cross_state_evaluator().grade(task, simulation(final))
    # the delivery part reads it: no delivery order to hold it, so it says so itself
    assert [u for u in result.unchecked if rubric in u] == [
        u for u in result.unchecked if "no single required record" in u
    ]
    assert len([u for u in result.unchecked if rubric in u]) == 1
    assert not any(TAIL in u for u in result.unchecked)
    assert result.reward != 1.0
    everything = frozenset({"delivery", "appointment", "booking"})
    assert foreign_stated(task, everything) == []


def test_cross_counts_each_foreign_line_under_its_field_class() -> None:
    # a cross grader whose parts read only bookings: the delivery and appointment rubrics are
    # foreign to it, counted under their own field classes
    evaluator = cross_state_evaluator()
    for name in ("delivery", "instore"):
        evaluator._parts.pop(name)
    t = _ota_task("Reserve a table for 4 people")
    t2 = t.model_copy(
        update={
            "evaluation_criteria": t.evaluation_criteria.model_copy(  # type: ignore[union-attr]
                update={"overall_rubrics": ["Reserve a table for 4 people", "明天18:30前送达"]}
            )
        }
    )
    result = evaluator.grade(t2, simulation(oracle_state(t2, "ota")))
    assert len([u for u in result.unchecked if TAIL in u]) == 2
    assert result.info["coverage"]["party_size"]["unchecked"] == 1
    assert result.info["coverage"]["time"]["unchecked"] == 1


CLOCK = datetime.fromisoformat("2025-06-04 11:00:00")


@pytest.mark.parametrize(
    "rubric",
    [
        "Check in on June 9",
        "Checking in on June 9",
        "Check-in on June 9",
        "check in on 2025-06-09",
        "6月9日入住",
    ],
)
def test_a_check_in_day_is_read_in_english_as_in_chinese(rubric: str) -> None:
    (stated,) = parse_rubric(rubric, CLOCK, frozenset({"booking"}))
    assert (stated.field, stated.target, stated.relation) == ("date", "booking", "on")
    assert str(stated.window) == "[2025-06-09 00:00:00, 2025-06-09 23:59:59]"


@pytest.mark.parametrize(
    "rubric",
    [
        "Check whether the hotel has rooms on June 9",
        "Checking the hotel's rooms on June 9",
        "检查酒店6月9日是否有房",
    ],
)
def test_a_check_of_something_is_still_a_condition_not_an_ask(rubric: str) -> None:
    assert parse_rubric(rubric, CLOCK, frozenset({"booking"})) == []


def test_a_department_is_not_a_departure() -> None:
    assert parse_rubric("The department party is on June 9", CLOCK, frozenset({"booking"})) == []
    (stated,) = parse_rubric("Departing on June 9", CLOCK, frozenset({"booking"}))
    assert stated.target == "booking"


def _ota_with(*rubrics: str):  # type: ignore[no-untyped-def]
    env = ota_env("en")
    return synthetic_task(env, [ota_order("ON", "hotel", "H1", ROOMS[0], "paid")], list(rubrics))


def test_a_note_the_grader_reads_does_not_make_a_foreign_rubric_its_own() -> None:
    # a note is parsed whatever the grader reads: it is no constraint of the booking's own
    rubric = "Add a note: quiet room; deliver the food by 18:30 tomorrow"
    lines = foreign_stated(_ota_with(rubric), frozenset({"booking"}))
    assert lines == [
        f"time: '{rubric}' states delivery time before [2025-06-05 00:00:00, "
        "2025-06-05 18:30:00], about records of a kind (delivery) " + TAIL
    ]


def test_every_rubric_is_read_after_one_of_the_graders_own() -> None:
    t = _ota_with("The hotel check-in date should be June 5", "Deliver the food by 18:30 tomorrow")
    lines = foreign_stated(t, frozenset({"booking"}))
    assert [line.split("'")[1] for line in lines] == ["Deliver the food by 18:30 tomorrow"]
    result = grade_state(t, "ota", oracle_state(t, "ota"))
    assert result.undecided and len(result.unchecked) == 1


def test_a_rubric_about_two_other_kinds_names_both() -> None:
    rubric = "Deliver the food by 18:30 tomorrow; reserve a table for 4 people"
    (line,) = foreign_stated(_ota_with(rubric), frozenset({"booking"}))
    assert line.endswith("about records of a kind (appointment, delivery) " + TAIL)
    assert "delivery time before" in line and "party size 4" in line
