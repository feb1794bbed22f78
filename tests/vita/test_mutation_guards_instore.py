"""In-store state grading (vita/grading/instore.py): bookings and reservations, pinned by the
requirement each record becomes."""

from __future__ import annotations

from lifebench.vita.grading.instore import _record_kind


def test_a_record_is_an_appointment_by_its_id_key_and_an_order_never_is() -> None:
    assert _record_kind({"reservation_id": "R1"}) == "reservation"
    assert _record_kind({"book_id": "B1"}) == "book"
    assert _record_kind({"order_id": "O1", "book_id": "B1"}) is None
    assert _record_kind({"shop_id": "S1"}) is None
