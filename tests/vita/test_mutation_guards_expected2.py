"""Reading expected states (vita/grading/expected.py), second part: the readings ``classify``
leaves to the rubrics and the initial database, pinned by the requirement each record becomes
(kind, target, note), in English and Chinese where a rubric decides."""

from __future__ import annotations

from typing import Any

import pytest
from _vita_builders import delivery_task, order

from lifebench.vita.grading.expected import classify, required_orders

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


def _o1(**kw: Any) -> dict[str, Any]:
    lines = kw.pop("lines", [("P3", 1, "")])
    return order(kw.pop("oid", "O1"), kw.pop("store", "S1"), lines, **kw)


EDIT = {"en": "Modify the note of order O1 to: no onions", "zh": "将订单O1的备注修改为：no onions"}
EDITED = "an edit of pre-existing order O1 (same store and lines; the rubrics name it)"
NOTED = "note as the rubrics word it"
BY_CONTENT = "the cancellation of pre-existing order O1 (same store and lines)"


def test_a_record_of_another_order_type_is_never_the_pre_existing_order_of_its_id() -> None:
    other = _o1(order_type="instore")
    task = delivery_task(expected=[other], rubrics=["r"])
    assert [(r.kind, r.target, r.note) for r in classify(task, [other])] == [("new", "", "")]
    # and an unknown id of another type is no edit of an order with its store and lines
    task = delivery_task(expected=[other], rubrics=[EDIT["en"]])
    got = [(r.kind, r.target) for r in classify(task, [_o1(oid="T9", order_type="instore")])]
    assert got == [("new", "")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_edit_by_content_needs_the_order_free_live_and_unclaimed(lang: str) -> None:
    # the order's own record is about it: a second record with its content is a new order
    got = _read([_o1(), _o1(oid="T9", note="no onions")], [EDIT[lang]])
    assert got == [("existing", "O1", NOTED), ("new", "", "")]
    # two unknown ids with its content: the first is the edit, the second a new order
    got = _read([_o1(oid="T8", note="no onions"), _o1(oid="T9", note="x")], [EDIT[lang]])
    assert got == [("existing", "O1", f"{EDITED}; {NOTED}"), ("new", "", "")]
    # an order cancelled before the task is not edited
    task = delivery_task(
        expected=[_o1(oid="T9", note="no onions")],
        orders={"O1": _o1(status="cancelled")},
        rubrics=[EDIT[lang]],
    )
    assert [(r.kind, r.target) for r in required_orders(task, DELIVERY)] == [("new", "")]
    # a cancelled record with its content is its cancellation, not an edit
    got = _read([_o1(oid="T9", status="cancelled")], [EDIT[lang]])
    assert got == [("existing", "O1", f"{BY_CONTENT}; {NOTED}")]


@pytest.mark.parametrize(
    "again", ["Order the dumplings of order O1 again", "按订单O1再来一份"], ids=["en", "zh"]
)
def test_no_edit_is_read_when_another_rubric_orders_the_same_again(again: str) -> None:
    got = _read([_o1(oid="T9", note="no onions")], [EDIT["en"], again])
    assert got == [("new", "", "")]


def test_the_latest_expectation_of_one_pre_existing_order_wins() -> None:
    task = delivery_task(expected=[_o1(), _o1(status="cancelled")], rubrics=["r"])
    reqs = required_orders(task, DELIVERY)
    assert [(r.kind, r.target, r.status) for r in reqs] == [("existing", "O1", "cancelled")]
    task = delivery_task(expected=[_o1(status="cancelled"), _o1()], rubrics=["r"])
    reqs = required_orders(task, DELIVERY)
    assert [(r.kind, r.target, r.status) for r in reqs] == [("existing", "O1", "paid")]


def test_one_pre_existing_order_is_cancelled_by_content_once() -> None:
    first = order("X1", "S2", [("P5", 1, "")], status="cancelled")
    second = order("X2", "S2", [("P5", 1, "")], status="cancelled")
    got = _read([first, second], ["r"])
    assert got == [
        ("existing", "O2", "the cancellation of pre-existing order O2 (same store and lines)"),
        ("new", "", ""),
    ]
    # an order cancelled under its own id is taken: a record with its content is another order
    own = _o1(lines=[("P6", 1, "")], status="cancelled")
    got = _read([own, _o1(oid="X1", status="cancelled")], ["r"])
    assert got == [
        (
            "existing",
            "O1",
            "the cancellation of pre-existing order O1 (lines as written not compared)",
        ),
        ("new", "", ""),
    ]


@pytest.mark.parametrize(
    "rubric",
    [
        "Order O1 should remain unchanged",
        "Order the dumplings of order O1 again",
        "Modify the note of order O1 to: no onions",
        "Pay for order O1",
        "订单O1保持不变",
        "按订单O1再来一份",
        "将订单O1的备注修改为：no onions",
        "支付订单O1",
    ],
    ids=[
        "keep-en",
        "reorder-en",
        "note-en",
        "pay-en",
        "keep-zh",
        "reorder-zh",
        "note-zh",
        "pay-zh",
    ],
)
def test_every_kind_of_rubric_that_keeps_an_order_keeps_its_id(rubric: str) -> None:
    kept = "pre-existing order O1 (the rubrics keep it; its lines as written differ)"
    got = _read([_o1(lines=[("P3", 2, "")], note="no onions")], [rubric])
    assert got[0][:2] == ("existing", "O1") and got[0][2].startswith(kept)
    # at another store it is another order (here re-attributed to the store that sells it)
    got = _read([_o1(store="S2", lines=[("P3", 2, "")], note="no onions")], [rubric])
    assert got == [("new", "", "re-attributed from S2 (which does not sell its products)")]


def test_an_order_the_rubrics_cancel_and_keep_is_replaced_by_other_lines() -> None:
    got = _read(
        [_o1(lines=[("P3", 2, "")])], ["Cancel order O1", "Order O1 should remain unchanged"]
    )
    assert got == [("replaced", "O1", "")]


@pytest.mark.parametrize(
    "rubric",
    ["Modify the note of order O2 to: no onions", "将订单O2的备注修改为：no onions"],
    ids=["en", "zh"],
)
def test_a_record_under_a_pre_existing_id_is_never_an_edit_of_another_order(rubric: str) -> None:
    # O1's id with O2's store and lines: O1 replaced, not O2 edited
    got = _read([_o1(store="S2", lines=[("P5", 1, "")], note="no onions")], [rubric])
    assert got == [("replaced", "O1", "")]


def test_a_record_passed_over_for_edits_does_not_end_the_search() -> None:
    got = _read([order("O2", "S2", [("P5", 1, "")]), _o1(oid="T9", note="no onions")], [EDIT["en"]])
    assert got == [("existing", "O2", ""), ("existing", "O1", f"{EDITED}; {NOTED}")]


def test_only_a_cancellation_under_an_unknown_id_claims_the_live_order_with_its_content() -> None:
    reuse = _o1(lines=[("P6", 1, "")])
    # O2's id cancelled, with O1's content: the cancellation of O2; O1's id is still O1's
    cancel_o2 = order("O2", "S1", [("P3", 1, "")], status="cancelled")
    assert _read([cancel_o2, reuse], ["r"]) == [
        (
            "existing",
            "O2",
            "the cancellation of pre-existing order O2 (lines as written not compared)",
        ),
        ("replaced", "O1", ""),
    ]
    # a live record under O2's id with O1's content claims nothing either
    assert _read([order("O2", "S1", [("P3", 1, "")]), reuse], ["r"]) == [
        ("replaced", "O2", ""),
        ("replaced", "O1", ""),
    ]
    # an order cancelled before the task is claimed by no cancellation
    task = delivery_task(
        expected=[order("X1", "S1", [("P3", 1, "")], status="cancelled"), reuse],
        orders={"O1": _o1(status="cancelled")},
        rubrics=["r"],
    )
    got = [(r.kind, r.target) for r in required_orders(task, DELIVERY)]
    assert got == [("new", ""), ("replaced", "O1")]


@pytest.mark.parametrize("rubric", ["Cancel order O2.", "取消订单O2"], ids=["en", "zh"])
def test_a_rubric_cancellation_belongs_to_the_grader_of_the_order_type(rubric: str) -> None:
    visit = order("T5", "S1", [("P1", 1, "")], order_type="instore")
    task = delivery_task(expected=[visit, order("T1", "S1", [("P1", 1, "")])], rubrics=[rubric])
    assert [(r.kind, r.target) for r in required_orders(task, frozenset({"instore"}))] == [
        ("new", "")
    ]
    got = [(r.kind, r.target) for r in required_orders(task, DELIVERY)]
    assert got == [("new", ""), ("existing", "O2")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_note_an_edited_order_must_end_with_is_the_rubrics_wording(lang: str) -> None:
    task = delivery_task(expected=[_o1(oid="T9", note="hold the onions")], rubrics=[EDIT[lang]])
    (req,) = required_orders(task, DELIVERY)
    assert (req.kind, req.target, req.record["note"]) == ("existing", "O1", "no onions")
    # and for the order's own record too
    task = delivery_task(expected=[_o1(note="")], rubrics=[EDIT[lang]])
    (req,) = required_orders(task, DELIVERY)
    assert req.record["note"] == "no onions"


@pytest.mark.parametrize(
    "rubric", ["Order O1 should remain unchanged", "订单O1保持不变"], ids=["en", "zh"]
)
def test_records_after_a_kept_order_are_read_and_a_reused_id_is_graded_at_its_seller(
    rubric: str,
) -> None:
    kept = _o1(lines=[("P3", 2, "")])
    got = _read([kept, order("T1", "S1", [("P1", 1, "")])], [rubric])
    assert [g[:2] for g in got] == [("existing", "O1"), ("new", "")]
    task = delivery_task(expected=[_o1(store="S2", lines=[("P3", 2, "")])], rubrics=[rubric])
    (req,) = required_orders(task, DELIVERY)
    assert (req.kind, req.store_id) == ("new", "S1")
