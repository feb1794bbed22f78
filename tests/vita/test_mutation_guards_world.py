"""The closed-world diff (vita/grading/world.py) pinned field by field.

Every rule of :func:`changed_fields` decides whether a change to a pre-existing record counts as
unrequested (state reward 0): these tests fail when one of them is deleted or changed.
"""

from __future__ import annotations

from typing import Any

import pytest

from lifebench.vita.grading.world import changed_fields, normalised


def _order(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "order_id": "O1",
        "order_type": "delivery",
        "user_id": "U1",
        "store_id": "S1",
        "location": {"address": "Room 5, 8 Elm Road", "longitude": 120.0, "latitude": 30.0},
        "dispatch_time": "",
        "delivery_time": "",
        "shipping_time": 0.5,
        "total_price": 24.0,
        "create_time": "2025-06-04 10:00:00",
        "update_time": "2025-06-04 10:00:00",
        "status": "paid",
        "note": "",
        "products": [
            {"product_id": "P1", "name": "Beef noodles", "price": 12.0, "quantity": 2},
        ],
    }
    base.update(changes)
    return base


@pytest.mark.parametrize(
    "field",
    ["update_time", "create_time", "total_price", "shipping_time", "order_id"],
)
def test_a_bookkeeping_or_derived_order_field_is_never_a_change(field: str) -> None:
    value = 99.0 if field in {"total_price", "shipping_time"} else "2025-06-04 11:30:00"
    assert changed_fields("orders", _order(), _order(**{field: value})) == []


def test_a_booking_fee_a_booking_id_and_a_reservation_id_are_never_a_change() -> None:
    book = {
        "book_id": "B1",
        "shop_id": "H1",
        "book_time": "2025-06-05 18:00:00",
        "customer_id": "U1",
        "customer_count": 2,
        "book_price": 0.0,
        "status": "paid",
    }
    assert changed_fields("books", book, {**book, "book_price": 50.0, "book_id": "B2"}) == []
    res = {
        "reservation_id": "R1",
        "shop_id": "H2",
        "reservation_time": "2025-06-05 15:00:00",
        "customer_id": "U1",
        "status": "paid",
    }
    assert changed_fields("reservations", res, {**res, "reservation_id": "R2"}) == []
    # but the compared fields of both are compared
    assert changed_fields("books", book, {**book, "customer_count": 3}) == ["customer_count"]
    assert changed_fields("reservations", res, {**res, "status": "cancelled"}) == ["status"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("status", "cancelled"),
        ("note", "no chilli"),
        ("dispatch_time", "2025-06-04 12:00:00"),
        ("delivery_time", "2025-06-04 12:30:00"),
        ("store_id", "S2"),
        ("user_id", "U2"),
    ],
)
def test_every_other_order_field_is_compared(field: str, value: str) -> None:
    assert changed_fields("orders", _order(), _order(**{field: value})) == [field]


def test_several_changes_are_listed_sorted() -> None:
    after = _order(status="cancelled", note="x", dispatch_time="2025-06-04 12:00:00")
    assert changed_fields("orders", _order(), after) == ["dispatch_time", "note", "status"]


def test_a_vanished_record_changed_in_every_field() -> None:
    assert changed_fields("orders", _order(), None) == ["(removed)"]


def test_the_address_is_compared_by_its_text_with_spaces_folded() -> None:
    moved = _order(location={"address": "Room 5, 8 Elm Road", "longitude": 121.0, "latitude": 31})
    assert changed_fields("orders", _order(), moved) == []
    spaced = _order(location={"address": "  Room 5,   8 Elm Road ", "longitude": 120.0})
    assert changed_fields("orders", _order(), spaced) == []
    other = _order(location={"address": "Tower B, 99 Harbour Avenue", "longitude": 120.0})
    assert changed_fields("orders", _order(), other) == ["location"]
    # an address that is no mapping has no text: it equals an empty address, not a real one
    assert changed_fields("orders", _order(), _order(location="Room 5")) == ["location"]


def test_null_and_empty_compare_equal_but_not_a_value() -> None:
    assert changed_fields("orders", _order(note=""), _order(note=None)) == []
    assert changed_fields("orders", _order(note=None), _order(note="x")) == ["note"]
    raw: dict[str, Any] = {"id": "T1", "seat": None}
    assert changed_fields("tickets", raw, {"id": "T1", "seat": ""}) == []
    assert changed_fields("tickets", raw, {"id": "T1", "seat": "12A"}) == ["seat"]


def test_lines_are_a_multiset_of_product_quantity_attribute_and_date() -> None:
    two = [{"product_id": "P1", "quantity": 1}, {"product_id": "P2", "quantity": 1}]
    swapped = [{"product_id": "P2", "quantity": 1}, {"product_id": "P1", "quantity": 1}]
    assert changed_fields("orders", _order(products=two), _order(products=swapped)) == []
    renamed = [{"product_id": "P1", "quantity": 1, "name": "X", "price": 1.0}, two[1]]
    assert changed_fields("orders", _order(products=two), _order(products=renamed)) == []
    for key, old, new in [
        ("product_id", "P1", "P3"),
        ("room_id", "R1", "R2"),
        ("ticket_id", "T1", "T2"),
        ("seat_id", "A1", "A2"),
        ("quantity", 1, 2),
        ("attributes", ["Iced"], ["Warm"]),
        ("attributes", "Iced", "Warm"),
        ("date", "2025-06-05", "2025-06-06"),
    ]:
        before = _order(products=[{"product_id": "P", key: old}])
        after = _order(products=[{"product_id": "P", key: new}])
        assert changed_fields("orders", before, after) == ["products"], key


def test_a_missing_quantity_is_one() -> None:
    one = _order(products=[{"product_id": "P1", "quantity": 1}])
    for missing in ({"product_id": "P1"}, {"product_id": "P1", "quantity": None}):
        assert changed_fields("orders", one, _order(products=[missing])) == []
    assert (
        changed_fields("orders", one, _order(products=[{"product_id": "P1", "quantity": ""}])) == []
    )
    two = _order(products=[{"product_id": "P1", "quantity": 2}])
    assert changed_fields("orders", two, _order(products=[{"product_id": "P1"}])) == ["products"]


def test_attribute_lists_are_read_in_order_and_empty_parts_dropped() -> None:
    listed = _order(products=[{"product_id": "P1", "attributes": ["Iced", "Large"]}])
    joined = _order(products=[{"product_id": "P1", "attributes": "Iced, Large"}])
    assert changed_fields("orders", listed, joined) == []
    none = _order(products=[{"product_id": "P1", "attributes": [], "date": None}])
    bare = _order(products=[{"product_id": "P1"}])
    assert changed_fields("orders", none, bare) == []
    # a line that is no mapping and lines that are no list are not read
    assert changed_fields("orders", _order(products=[]), _order(products=["P1"])) == []
    assert changed_fields("orders", _order(products=[]), _order(products="P1")) == []


def test_lines_are_read_as_written_not_through_the_data_model() -> None:
    before = _order(products=[{"product_id": "P1", "date": "2025-06-05"}])
    after = _order(products=[{"product_id": "P1", "date": "2025-06-06"}])
    assert changed_fields("orders", before, after) == ["products"]


def test_records_are_read_through_the_data_model_when_it_accepts_them() -> None:
    # the data model's defaults: a missing note equals an empty one
    order = _order()
    del order["note"]
    assert normalised("orders", order)["note"] == ""
    assert changed_fields("orders", order, _order(note="")) == []
    assert changed_fields("orders", order, _order(note="x")) == ["note"]
    book = {"book_id": "B1", "shop_id": "H1", "book_time": "2025-06-05 18:00:00", "status": "paid"}
    assert normalised("books", book)["customer_count"] == 1
    assert changed_fields("books", book, {**book, "customer_count": 1}) == []
    res = {"reservation_id": "R1", "shop_id": "H2", "book_time": "2025-06-05 15:00:00"}
    res["status"] = "paid"
    assert normalised("reservations", res)["reservation_time"] == "2025-06-05 15:00:00"
    # a record the model refuses is compared raw
    broken = {"order_id": "O1", "status": "nonsense"}
    assert normalised("orders", broken) == broken
    assert normalised("unknown", {"a": 1}) == {"a": 1}


def test_an_empty_address_equals_no_address() -> None:
    empty = _order(location={"address": "", "longitude": 120.0, "latitude": 30.0})
    assert changed_fields("orders", empty, _order(location=None)) == []
    assert changed_fields("orders", _order(location=None), empty) == []
    assert changed_fields("orders", _order(location={"address": None}), _order(location=7)) == []


def test_a_field_only_one_side_has_is_a_change() -> None:
    assert changed_fields("tickets", {"id": "T1"}, {"id": "T1", "seat": "12A"}) == ["seat"]
    assert changed_fields("tickets", {"id": "T1", "seat": "12A"}, {"id": "T1"}) == ["seat"]
