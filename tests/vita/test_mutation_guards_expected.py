"""Reading expected states into requirements (vita/grading/expected.py): every reading of a
record — existing, edited, cancelled by id or by content, kept, reused id, replaced, new,
re-attributed, cancelled by a rubric alone — with the note the criterion shows, in English and
Chinese."""

from __future__ import annotations

from typing import Any

import pytest
from _vita_builders import delivery_task, order

from lifebench.vita.grading.expected import (
    RequiredOrder,
    attributed_store,
    classify,
    graded_content,
    is_order_record,
    line_product,
    named_orders,
    product_key,
    product_lines_of,
    providers,
    required_orders,
    sellers,
    sells,
    status_class,
    status_satisfies,
)

DELIVERY = frozenset({"delivery"})


def _read(expected: list[dict[str, Any]], rubrics: list[str]) -> list[tuple[str, str, str]]:
    task = delivery_task(expected=expected, rubrics=rubrics)
    return [(r.kind, r.target, r.note) for r in required_orders(task, DELIVERY)]


def _o1(**kw: Any) -> dict[str, Any]:
    lines = kw.pop("lines", [("P3", 1, "")])
    return order(kw.pop("oid", "O1"), kw.pop("store", "S1"), lines, **kw)


def test_an_expected_record_with_a_pre_existing_id_and_content_is_that_order() -> None:
    assert _read([_o1(status="cancelled")], ["r"]) == [("existing", "O1", "")]


@pytest.mark.parametrize(
    "rubric",
    ["Modify the note of order O1 to: no onions", "将订单O1的备注修改为：no onions"],
    ids=["en", "zh"],
)
def test_an_unknown_id_with_the_content_of_an_order_whose_note_rubrics_edit(rubric: str) -> None:
    task = delivery_task(expected=[_o1(oid="T9", note="no onions")], rubrics=[rubric])
    (req,) = required_orders(task, DELIVERY)
    assert (req.kind, req.target) == ("existing", "O1")
    assert req.note == (
        "an edit of pre-existing order O1 (same store and lines; the rubrics name it); "
        "note as the rubrics word it"
    )
    assert req.record["note"] == "no onions"


def test_an_edit_is_not_read_when_rubrics_also_cancel_or_reorder_the_order() -> None:
    got = _read([_o1(oid="T9")], ["Modify the note of O1 to: x, then cancel O1"])
    assert got[0] == ("new", "", "")


def test_a_cancelled_record_under_a_pre_existing_id_is_its_cancellation() -> None:
    got = _read([_o1(lines=[("P6", 1, "")], status="cancelled")], ["r"])
    assert got == [
        (
            "existing",
            "O1",
            "the cancellation of pre-existing order O1 (lines as written not compared)",
        )
    ]


def test_a_cancelled_record_under_a_new_id_is_the_live_order_with_its_content() -> None:
    got = _read([order("X1", "S2", [("P5", 1, "")], status="cancelled")], ["r"])
    assert got == [
        ("existing", "O2", "the cancellation of pre-existing order O2 (same store and lines)")
    ]
    # not when the order with that content is already cancelled
    task = delivery_task(
        expected=[order("X1", "S2", [("P5", 1, "")], status="cancelled")],
        orders={"O2": order("O2", "S2", [("P5", 1, "")], status="cancelled")},
        rubrics=["r"],
    )
    assert [(r.kind, r.target) for r in required_orders(task, DELIVERY)] == [("new", "")]


@pytest.mark.parametrize(
    "rubric", ["Order O1 should remain unchanged", "订单O1保持不变"], ids=["en", "zh"]
)
def test_an_order_the_rubrics_keep_with_other_quantities_stays_that_order(rubric: str) -> None:
    got = _read([_o1(lines=[("P3", 2, "")])], [rubric])
    assert got == [
        (
            "existing",
            "O1",
            "pre-existing order O1 (the rubrics keep it; its lines as written differ)",
        )
    ]


def test_a_kept_order_id_with_other_products_is_a_new_order_reusing_the_id() -> None:
    got = _read([_o1(lines=[("P6", 1, "")])], ["Order the product from O1 again"])
    assert got == [("new", "", "a new order (the id O1 of a pre-existing order is reused)")]


def test_an_id_claimed_by_a_cancellation_by_content_is_reused_by_a_new_order() -> None:
    cancel = order("X1", "S1", [("P3", 1, "")], status="cancelled")
    reuse = _o1(lines=[("P6", 1, "")])
    got = _read([cancel, reuse], ["r"])
    assert got == [
        ("existing", "O1", "the cancellation of pre-existing order O1 (same store and lines)"),
        ("new", "", "a new order (the id O1 of a pre-existing order is reused)"),
    ]


def test_other_content_under_a_pre_existing_id_replaces_it() -> None:
    assert _read([_o1(lines=[("P6", 1, "")])], ["r"]) == [("replaced", "O1", "")]
    # an expected order of another type under that id is a new order
    other = _o1(lines=[("P6", 1, "")], order_type="instore")
    task = delivery_task(expected=[other], rubrics=["r"])
    assert [(r.kind, r.target) for r in classify(task, [other])] == [("new", "")]


def test_a_new_order_at_a_store_that_does_not_sell_it_is_re_attributed() -> None:
    record = order("T1", "S2", [("P1", 1, "")])
    task = delivery_task(expected=[record], rubrics=["r"])
    (req,) = required_orders(task, DELIVERY)
    assert (req.kind, req.store_id) == ("new", "S1")
    assert req.note == "re-attributed from S2 (which does not sell its products)"
    assert attributed_store(task, order("T1", "S1", [("P1", 1, "")])) == ("S1", "")
    # nobody sells it: stays as written
    assert attributed_store(task, order("T1", "S2", [("P9", 1, "")])) == ("S2", "")
    # noodles named P1 and P4 are sold by different stores: no single seller of both
    assert attributed_store(task, order("T1", "S9", [("P1", 1, ""), ("P4", 1, "")])) == ("S9", "")


@pytest.mark.parametrize("rubric", ["Cancel order O2.", "取消订单O2"], ids=["en", "zh"])
def test_a_cancellation_only_the_rubrics_ask_becomes_a_requirement(rubric: str) -> None:
    new = order("T1", "S1", [("P1", 1, "Mild Spicy")])
    task = delivery_task(expected=[new], rubrics=[rubric])
    reqs = required_orders(task, DELIVERY)
    assert [(r.kind, r.target, r.note, r.status) for r in reqs] == [
        ("new", "", "", "paid"),
        ("existing", "O2", "the rubrics cancel O2", "cancelled"),
    ]
    assert named_orders(reqs) == {"O2"}
    # not for another grader's order types, nor without any expected record
    assert len(required_orders(task, frozenset({"instore"}))) == 0
    assert [r.target for r in classify(task, [new], order_types=frozenset({"hotel"}))] == [""]
    assert classify(task, []) == []


def test_a_rubric_cancellation_of_an_order_already_cancelled_or_expressed_adds_nothing() -> None:
    new = order("T1", "S1", [("P1", 1, "Mild Spicy")])
    gone = order("O2", "S2", [("P5", 1, "")], status="cancelled")
    task = delivery_task(expected=[new], orders={"O2": gone}, rubrics=["Cancel order O2."])
    assert [r.target for r in required_orders(task, DELIVERY)] == [""]
    task = delivery_task(expected=[new, {**gone}], rubrics=["Cancel order O2."])
    assert [r.target for r in required_orders(task, DELIVERY)] == ["", "O2"]


# ---- helpers -----------------------------------------------------------------------------------


def test_status_classes_and_satisfaction() -> None:
    assert [status_class(s) for s in ("cancelled", "consumed", "unconsumed", "", None)] == [
        "cancelled",
        "paid",
        "paid",
        "unpaid",
        "unpaid",
    ]
    assert status_satisfies("paid", "unpaid") and not status_satisfies("cancelled", "unpaid")
    assert status_satisfies("delivered", "paid") and not status_satisfies("unpaid", "paid")
    assert not status_satisfies("paid", "cancelled")


def test_lines_products_and_order_records() -> None:
    assert line_product({"room_id": "R1", "product_id": ""}) == "R1"
    assert line_product({"seat_id": "A1"}) == "A1"
    assert line_product({"ticket_id": 7}) == "7"
    assert line_product({"name": "x"}) == ""
    assert is_order_record({"order_type": "delivery"})
    assert not is_order_record({"order_type": "delivery", "product_id": "P"})
    assert not is_order_record({"product_id": "P"}) and not is_order_record("x")
    record = {"products": [{"product_id": "P2", "quantity": "x"}, {"name": "n"}, "s", None]}
    assert product_lines_of(record) == [{"product_id": "P2", "quantity": "x"}]
    assert product_key(record) == [("P2", 1)]
    assert product_key({"products": None}) == []
    two = {"products": [{"product_id": "B", "quantity": 2}, {"product_id": "A", "quantity": 0}]}
    assert product_key(two) == [("A", 1), ("B", 2)]


def test_required_order_fields_and_lines() -> None:
    req = RequiredOrder(
        0,
        {
            "order_id": "T1",
            "store_id": "S1",
            "status": "paid",
            "products": [
                {"product_id": "P1", "quantity": 2, "attributes": ["Iced", "Large"]},
                {"product_id": "P2", "attribute": "Warm"},
                {"product_id": "P3", "attributes": None},
            ],
        },
    )
    assert (req.order_id, req.store_id, req.status, req.existing) == ("T1", "S1", "paid", False)
    assert req.product_lines() == [("P1", 2, "Iced, Large"), ("P2", 1, "Warm"), ("P3", 1, "")]
    assert RequiredOrder(1, {}, kind="existing").existing
    assert (RequiredOrder(1, {}).order_id, RequiredOrder(1, {}).status) == ("", "")


def test_sellers_and_providers() -> None:
    task = delivery_task(rubrics=["r"])
    assert set(providers(task, "delivery")) == {"S1", "S2"}
    assert providers(task, "spaceship") == {}
    assert providers(task, "instore") == {}
    assert sells(providers(task, "delivery")["S1"], "P1") and not sells(None, "P1")
    assert not sells(providers(task, "delivery")["S2"], "P1")
    assert sellers(task, "delivery", ["P1", "P2"]) == ["S1"]
    assert sellers(task, "delivery", []) == ["S1", "S2"]


def test_graded_content_reads_the_address_text_and_line_dates() -> None:
    a = order("T1", "S1", [("P1", 1, "")], location={"address": "A"})
    b = order("T1", "S1", [("P1", 1, "")], location={"address": "B"})
    assert graded_content(a) != graded_content(b)
    assert graded_content({**a, "location": "A"}) == graded_content({**a, "location": None})
    dated = {**a, "products": [{"product_id": "P1", "date": "2025-06-02"}]}
    assert graded_content(dated) != graded_content({**a, "products": [{"product_id": "P1"}]})
