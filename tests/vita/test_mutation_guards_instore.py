"""In-store state grading (vita/grading/instore.py): bookings and reservations, pinned by the
requirement each record becomes and the verdict (met, evidence) each final record gets."""

from __future__ import annotations

from typing import Any

from lifebench.vita.grading.constraints import Stated, Window
from lifebench.vita.grading.instore import (
    InStoreStateEvaluator,
    RequiredAppointment,
    _record_kind,
    appointment_stated_mismatch,
)
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
