"""In-store state grading (vita/grading/instore.py): bookings and reservations, pinned by the
requirement each record becomes and the verdict (met, evidence) each final record gets."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from _vita_builders import simulation
from test_instore_grading import U, _reservation, make_task

from lifebench.evaluation import BasisResult
from lifebench.vita.grading.constraints import Stated, Window
from lifebench.vita.grading.instore import (
    InStoreStateEvaluator,
    RequiredAppointment,
    _record_kind,
    appointment_stated_mismatch,
    instore_state_evaluator,
)
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import parse_time

EVENING = Window(parse_time("2025-06-01 18:00:00"), parse_time("2025-06-01 19:00:00"))


def _stated(field: str, *, window: Window | None = None, count: int | None = None) -> Stated:
    return Stated(
        field=field,  # type: ignore[arg-type]
        target="appointment",
        rubric=f"the {field} rubric",
        subject="",
        window=window,
        count=count,
    )


def test_a_record_is_an_appointment_by_its_id_key_and_an_order_never_is() -> None:
    assert _record_kind({"reservation_id": "R1"}) == "reservation"
    assert _record_kind({"book_id": "B1"}) == "book"
    assert _record_kind({"order_id": "O1", "book_id": "B1"}) is None
    assert _record_kind({"shop_id": "S1"}) is None


def test_a_stated_time_or_day_is_checked_on_the_kinds_own_time_field() -> None:
    time, day = _stated("time", window=EVENING), _stated("date", window=EVENING)
    assert appointment_stated_mismatch([time], "book", {"book_time": "2025-06-01 18:30:00"}) is None
    assert appointment_stated_mismatch([day], "book", {"book_time": "2025-06-01 20:00:00"}) == (
        "time 2025-06-01 20:00:00 not in [2025-06-01 18:00:00, 2025-06-01 19:00:00] "
        "('the date rubric')"
    )
    late = {"reservation_time": "2025-06-01 21:00:00", "book_time": "2025-06-01 18:30:00"}
    assert appointment_stated_mismatch([time], "reservation", late) == (
        "time 2025-06-01 21:00:00 not in [2025-06-01 18:00:00, 2025-06-01 19:00:00] "
        "('the time rubric')"
    )
    # a record of one kind written with the other kind's time field is read by it
    assert (
        appointment_stated_mismatch([time], "book", {"reservation_time": "2025-06-01 18:45:00"})
        is None
    )
    # no readable time: a mismatch, never a pass
    assert appointment_stated_mismatch([time], "book", {"book_time": "soon"}) == (
        "time soon not in [2025-06-01 18:00:00, 2025-06-01 19:00:00] ('the time rubric')"
    )
    # a time constraint without a window, or a window on another field, checks nothing
    early = {"book_time": "2025-06-01 08:00:00", "customer_count": 3}
    assert appointment_stated_mismatch([_stated("time")], "book", early) is None
    assert appointment_stated_mismatch([_stated("note", window=EVENING)], "book", early) is None


def test_a_stated_party_size_is_checked_on_the_customer_count() -> None:
    four = _stated("party_size", count=4)
    assert appointment_stated_mismatch([four], "book", {"customer_count": 4}) is None
    assert appointment_stated_mismatch([four], "book", {"customer_count": 3}) == (
        "customer_count 3 ≠ 4 ('the party_size rubric')"
    )
    assert appointment_stated_mismatch([_stated("time")], "book", {"customer_count": 3}) is None


def _req(existing: bool, stated: tuple[Stated, ...] = ()) -> RequiredAppointment:
    record = {"book_id": "B1", "shop_id": "S1", "status": "paid"}
    return RequiredAppointment(
        index=0, kind="book", record=record, existing=existing, when=None, stated=stated
    )


def _booking(**kw: Any) -> dict[str, Any]:
    return {
        "book_id": "B9",
        "shop_id": "S1",
        "book_time": "2025-06-01 18:30:00",
        "customer_id": "U1",
        "customer_count": 3,
        "status": "paid",
        **kw,
    }


def test_a_pre_existing_booking_must_meet_what_the_rubrics_state() -> None:
    ev = InStoreStateEvaluator()
    initial: dict[str, Any] = {"B1": ("book", _booking(book_id="B1"))}
    final: dict[str, Any] = {"book": {"B1": _booking(book_id="B1")}, "reservation": {}}
    assert ev._existing(_req(True, (_stated("time", window=EVENING),)), initial, final).met
    verdict = ev._existing(_req(True, (_stated("party_size", count=4),)), initial, final)
    assert (verdict.met, verdict.evidence) == (
        False,
        "customer_count 3 ≠ 4 ('the party_size rubric')",
    )


def test_a_new_booking_is_the_users_and_meets_what_the_rubrics_state() -> None:
    ev = InStoreStateEvaluator()

    def new(record: dict[str, Any], stated: tuple[Stated, ...] = (), **kw: Any) -> tuple[bool, str]:
        verdict = ev._new(_req(False, stated), [("book", "B9", record)], **kw)
        return verdict.met, verdict.evidence

    assert new(_booking(), user="U1") == (True, "matched book B9")
    assert new(_booking(customer_id=""), user="U1") == (True, "matched book B9")
    assert new(_booking(customer_id="U2"), user="U1") == (False, "B9: customer U2 ≠ U1")
    # without a user to compare, any customer
    assert new(_booking(customer_id="U2")) == (True, "matched book B9")
    assert new(_booking(), (_stated("party_size", count=4),), user="U1") == (
        False,
        "B9: customer_count 3 ≠ 4 ('the party_size rubric')",
    )
    late = _booking(book_time="2025-06-01 20:00:00")
    assert new(late, (_stated("time", window=EVENING),), user="U1") == (
        False,
        "B9: time 2025-06-01 20:00:00 not in [2025-06-01 18:00:00, 2025-06-01 19:00:00] "
        "('the time rubric')",
    )


# ---- through the evaluator ---------------------------------------------------------------------


def _task(
    required: list[dict[str, Any]], rubrics: tuple[str, ...] = ("r",), **env: Any
) -> VitaTask:
    raw = make_task(required).model_dump(mode="json", exclude_none=True)
    raw["evaluation_criteria"]["expected_states"][0]["state_rubrics"] = list(rubrics)
    raw["evaluation_criteria"]["overall_rubrics"] = list(rubrics)
    for key, value in env.items():
        if value is None:
            raw["environment"].pop(key, None)
        else:
            raw["environment"][key] = value
    return VitaTask.model_validate(raw)


def _grade(task: VitaTask, **tables: dict[str, Any]) -> BasisResult:
    final = {
        "orders": copy.deepcopy(task.environment["orders"]),
        "books": {},
        "reservations": copy.deepcopy(task.environment["reservations"]),
    }
    final.update(tables)
    return instore_state_evaluator().grade(task, simulation(final))


def _verdicts(result: BasisResult) -> dict[str, tuple[bool, str]]:
    return {c.id: (c.met, c.evidence) for c in result.criteria}


UNTIMED = {
    "reservation_id": "G_NEW",
    "shop_id": "S_GYM",
    "reservation_time": "soon",
    "customer_id": U,
    "status": "paid",
}
STATED = {
    "en": (
        "The gym reservation time should be 2025-05-17 09:00:00",
        "The gym reservation should be for 2 people",
    ),
    "zh": ("健身房预约时间应为2025-05-17 09:00:00", "预约人数应为2人"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_appointment_without_time_or_size_is_checked_only_by_what_the_rubrics_state(
    lang: str,
) -> None:
    result = _grade(_task([UNTIMED]))
    assert result.unchecked == [
        "time: time of G_NEW: 'soon' cannot be read or lies before the task clock",
        "party_size: G_NEW states no number of people",
    ]
    assert "time" not in result.info["coverage"] and "party_size" not in result.info["coverage"]
    result = _grade(_task([UNTIMED], STATED[lang]))
    assert result.unchecked == []
    assert result.info["coverage"]["time"] == {"checked": 2}
    assert result.info["coverage"]["party_size"] == {"checked": 2}


def test_a_readable_time_and_size_are_checked_and_a_cancellation_leaves_nothing_unchecked() -> None:
    timed = {**UNTIMED, "reservation_time": "2025-05-17 09:00:00", "customer_count": 2}
    result = _grade(_task([timed]))
    assert result.unchecked == []
    assert result.info["coverage"]["time"] == {"checked": 1}
    assert result.info["coverage"]["party_size"] == {"checked": 1}
    cancelled = {**UNTIMED, "reservation_id": "R_OLD", "shop_id": "S_SPA", "status": "cancelled"}
    assert _grade(_task([cancelled])).unchecked == []


def test_a_new_booking_must_be_the_task_users() -> None:
    want = _reservation("G_NEW", "S_GYM", "2025-05-17 09:00:00", 2, "paid")
    theirs = {**want, "reservation_id": "RS-1", "customer_id": "U2"}
    reservations = {**make_task().environment["reservations"], "RS-1": theirs}
    result = _grade(_task([want]), reservations=copy.deepcopy(reservations))
    assert _verdicts(result)["reservation[0]:G_NEW"] == (False, "RS-1: customer U2 ≠ U1")
    # a task without a user: any customer's booking
    result = _grade(_task([want], user_id=None), reservations=copy.deepcopy(reservations))
    assert _verdicts(result)["reservation[0]:G_NEW"] == (True, "matched reservation RS-1")


def test_changes_to_bookings_the_task_names_and_does_not_name() -> None:
    initial = make_task().environment["reservations"]
    # cancelled as asked, but moved too: only the status is the requirement's
    cancel = _reservation("R_OLD", "S_SPA", "2025-05-17 09:00:00", 2, "cancelled")
    moved = {**initial["R_OLD"], "status": "cancelled", "reservation_time": "2025-05-17 10:00:00"}
    result = _grade(_task([cancel]), reservations={**initial, "R_OLD": moved})
    assert _verdicts(result)["no_unrequested_appointment_changes"] == (
        False,
        "R_OLD: reservation_time",
    )
    # kept (consumed is as good as unconsumed): its status and time are the requirement's,
    # another shop is not
    keep = _reservation("R_OLD", "S_SPA", "2025-05-17 09:00:00", 2, "unconsumed")
    used = {**initial["R_OLD"], "status": "consumed", "shop_id": "S_GYM"}
    result = _grade(_task([keep]), reservations={**initial, "R_OLD": used})
    assert _verdicts(result)["no_unrequested_appointment_changes"] == (False, "R_OLD: shop_id")
    # a booking no requirement names: every changed field, listed
    other = {**initial["R_KEEP"], "customer_count": 3, "reservation_time": "2025-05-18 10:00:00"}
    result = _grade(_task([keep]), reservations={**initial, "R_KEEP": other})
    assert _verdicts(result)["no_unrequested_appointment_changes"] == (
        False,
        "R_KEEP: customer_count, reservation_time",
    )


def test_a_snapshot_without_a_table_hides_only_that_tables_changes() -> None:
    before = {"book_id": "B_OLD", "shop_id": "S_REST", "book_time": "2025-05-18 19:00:00"}
    keep = _reservation("R_OLD", "S_SPA", "2025-05-17 09:00:00", 2, "unconsumed")
    task = _task([keep], books={"B_OLD": {**before, "status": "paid", "customer_count": 2}})
    initial = task.environment["reservations"]
    other = {**initial["R_KEEP"], "customer_count": 3}
    final = {
        "orders": copy.deepcopy(task.environment["orders"]),
        "reservations": {**copy.deepcopy(initial), "R_KEEP": other},
    }
    result = instore_state_evaluator().grade(task, simulation(final))
    assert _verdicts(result)["no_unrequested_appointment_changes"] == (
        False,
        "R_KEEP: customer_count",
    )


@pytest.mark.parametrize(
    "rubric",
    ["The gym reservation should be on May 17", "健身房预约日期应为2025年5月17日"],
    ids=["en", "zh"],
)
def test_a_stated_day_makes_an_unreadable_appointment_time_checked(rubric: str) -> None:
    result = _grade(_task([UNTIMED], (rubric,)))
    assert result.unchecked == ["party_size: G_NEW states no number of people"]
    assert result.info["coverage"]["time"] == {"checked": 1}
    assert result.info["coverage"]["date"] == {"checked": 1}


def test_what_the_rubrics_state_reaches_the_second_appointment_too() -> None:
    book = {
        "book_id": "G_BK",
        "shop_id": "S_REST",
        "book_time": "2025-05-17 19:00:00",
        "customer_id": U,
        "customer_count": 2,
        "status": "paid",
    }
    gym = {**UNTIMED, "customer_count": 2}
    result = _grade(_task([book, gym], (STATED["en"][0],)))
    assert result.unchecked == []
    result = _grade(_task([book, gym]))
    assert result.unchecked == [
        "time: time of G_NEW: 'soon' cannot be read or lies before the task clock"
    ]
