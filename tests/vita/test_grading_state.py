"""The delivery state grader, pinned by near-miss orders: right except for one thing.

Every rule of ``vita/grading/state.py`` changes a reward here: a near miss that is wrong in
exactly one respect must score 0 (and only the criterion about that respect fails).
"""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest
from _vita_builders import (
    HOME,
    OFFICE,
    WANT_LINES,
    delivery_task,
    failed,
    final_state,
    grade,
    order,
    right_order,
    simulation,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.simulation import TerminationReason
from lifebench.vita.grading.state import (
    ADDRESS_TOLERANCE_M,
    TIME_TOLERANCE_MIN,
    OrderMatcher,
    delivery_state_evaluator,
    same_address,
)
from lifebench.vita.timefmt import format_time, parse_time

T1 = "order[0]:T1"
O1 = "order[1]:O1"


def test_the_right_final_state_scores_1() -> None:
    task = delivery_task()
    result = grade(task, final_state(task, right_order()))
    assert result.reward == 1.0 and result.score == 1.0 and result.gradable
    assert [c.id for c in result.criteria] == [
        T1,
        O1,
        "no_unrequested_cancellations",
        "no_unrequested_changes",
        "no_extra_orders",
    ]
    assert "matched created order OTSYN1-001" in result.criteria[0].evidence


def _near(**changes: Any) -> dict[str, Any]:
    """The right order with ``changes``; a new arrival moves the dispatch with it (the tools
    store arrival = dispatch + shipping)."""
    made = right_order()
    made.update(changes)
    arrival = parse_time(changes.get("delivery_time"))
    if arrival is not None and "dispatch_time" not in changes:
        made["dispatch_time"] = format_time(arrival - timedelta(minutes=made["shipping_time"]))
    return made


NEAR_MISSES: dict[str, dict[str, Any]] = {
    "status (left unpaid)": _near(status="unpaid"),
    "status (cancelled)": _near(status="cancelled"),
    "store": _near(store_id="S2"),
    "order type": _near(order_type="instore"),
    "quantity": _near(
        products=order("x", "S1", [("P1", 2, "Mild Spicy"), *WANT_LINES[1:]])["products"]
    ),
    "product": _near(products=order("x", "S1", [("P3", 1, ""), *WANT_LINES[1:]])["products"]),
    "missing line": _near(products=order("x", "S1", WANT_LINES[:2])["products"]),
    "attribute": _near(
        products=order("x", "S1", [("P1", 1, "Extra Spicy"), *WANT_LINES[1:]])["products"]
    ),
    "attribute swapped between two lines of one product": _near(
        products=order("x", "S1", [WANT_LINES[0], ("P2", 2, "Iced")])["products"]
    ),
    "note omitted": _near(note=""),
    "note negated": _near(note="green onions"),
    "note with a qualifier more": _near(note="No green onions, extra chili"),
    "address": _near(location=dict(OFFICE)),
    "delivery time": _near(delivery_time="2025-06-01 13:00:00"),
    "no delivery time": _near(delivery_time=""),
}


@pytest.mark.parametrize("what", list(NEAR_MISSES))
def test_a_new_order_wrong_in_one_respect_scores_0(what: str) -> None:
    task = delivery_task()
    made = NEAR_MISSES[what]
    result = grade(task, final_state(task, made))
    assert result.reward == 0.0
    assert T1 in failed(result)
    if made["status"] != "cancelled" and made["order_type"] == "delivery":
        # a live near miss is also an extra order
        assert failed(result) == [T1, "no_extra_orders"]


def test_evidence_names_the_first_mismatch() -> None:
    task = delivery_task()
    reasons = {
        "store": "store S2 ≠ S1",
        "status (left unpaid)": "status unpaid does not satisfy paid",
        "note negated": "note 'green onions' does not ask 'No green onions'",
        "address": "m away",
        "delivery time": "not within 30 min",
        "attribute": "with the expected attribute",
        "quantity": "products",
    }
    for what, words in reasons.items():
        result = grade(task, final_state(task, NEAR_MISSES[what]))
        assert words in result.criteria[0].evidence, (what, result.criteria[0].evidence)


def test_two_lines_of_one_product_with_different_attributes_match_in_any_split() -> None:
    task = delivery_task()
    for lines in (
        [("P2", 1, "Room Temperature"), ("P1", 1, "Mild Spicy"), ("P2", 1, "Iced")],
        [("P1", 1, "mild  spicy"), ("P2", 1, "ICED"), ("P2", 1, "room temperature")],
    ):
        made = _near(products=order("x", "S1", lines)["products"])
        assert grade(task, final_state(task, made)).reward == 1.0, lines


def test_one_line_of_two_counts_as_two_units() -> None:
    want = [("P1", 2, "Mild Spicy")]
    task = delivery_task(expected=[order("T1", "S1", want, location=HOME)], orders={})
    split = order("OT1", "S1", [("P1", 1, "Mild Spicy"), ("P1", 1, "Mild Spicy")], location=HOME)
    assert grade(task, {"orders": {"OT1": split}}).reward == 1.0
    mixed = order("OT1", "S1", [("P1", 1, "Mild Spicy"), ("P1", 1, "Extra Spicy")], location=HOME)
    assert grade(task, {"orders": {"OT1": mixed}}).reward == 0.0


def test_expected_attribute_given_as_a_list_is_checked() -> None:
    want = order("T1", "S1", [("P1", 1, "")], location=HOME)
    want["products"][0]["attributes"] = ["Mild Spicy"]
    task = delivery_task(expected=[want], orders={})
    right = order("OT1", "S1", [("P1", 1, "Mild Spicy")], location=HOME)
    wrong = order("OT1", "S1", [("P1", 1, "Extra Spicy")], location=HOME)
    assert grade(task, {"orders": {"OT1": right}}).reward == 1.0
    assert grade(task, {"orders": {"OT1": wrong}}).reward == 0.0


def test_translated_attribute_wording_is_mapped_onto_the_offered_option() -> None:
    # "Regular Spicy" is not offered; its meaning is "Normal Spicy" (official task 10714001).
    task = delivery_task(
        expected=[order("T1", "S1", [("P1", 1, "mild spicy!")], location=HOME)], orders={}
    )
    right = order("OT1", "S1", [("P1", 1, "Mild Spicy")], location=HOME)
    wrong = order("OT1", "S1", [("P1", 1, "Extra Spicy")], location=HOME)
    assert grade(task, {"orders": {"OT1": right}}).reward == 1.0
    assert grade(task, {"orders": {"OT1": wrong}}).reward == 0.0


def test_an_attribute_no_option_means_is_not_checked_but_reported() -> None:
    task = delivery_task(
        expected=[order("T1", "S1", [("P1", 1, "Tomato Sauce")], location=HOME)], orders={}
    )
    any_choice = order("OT1", "S1", [("P1", 1, "Extra Spicy")], location=HOME)
    result = grade(task, {"orders": {"OT1": any_choice}})
    # every checked criterion holds, but the attribute is not checked: the basis cannot decide
    assert result.reward == 0.0 and not result.gradable and result.undecided
    assert result.note.startswith("cannot decide")
    assert any(
        u.startswith("attribute: 'Tomato Sauce'") and "no offered option" in u
        for u in result.unchecked
    )
    # a checked criterion that fails decides the task (reward 0, gradable)
    wrong_store = order("OT1", "S2", [("P4", 1, "Extra Spicy")], location=HOME)
    decided = grade(task, {"orders": {"OT1": wrong_store}})
    assert decided.gradable and not decided.undecided and decided.reward == 0.0


def test_free_text_attribute_of_a_product_without_options_is_compared_by_meaning() -> None:
    task = delivery_task(
        expected=[order("T1", "S1", [("P3", 1, "No vinegar")], location=HOME)], orders={}
    )
    same = order("OT1", "S1", [("P3", 1, "no  vinegar.")], location=HOME)
    negated = order("OT1", "S1", [("P3", 1, "vinegar")], location=HOME)
    assert grade(task, {"orders": {"OT1": same}}).reward == 1.0
    assert grade(task, {"orders": {"OT1": negated}}).reward == 0.0


def test_note_is_compared_by_meaning_not_spelling() -> None:
    task = delivery_task()
    made = _near(note="no green onion please.")
    assert grade(task, final_state(task, made)).reward == 1.0


def test_identical_address_text_passes_even_with_far_coordinates() -> None:
    far = {**HOME, "longitude": 121.0}  # 96 km away, same text (the data's coordinates drift)
    assert same_address(far, HOME) == (True, "")
    task = delivery_task()
    assert grade(task, final_state(task, _near(location=far))).reward == 1.0
    moved = {**far, "address": "Somewhere else entirely"}
    assert grade(task, final_state(task, _near(location=moved))).reward == 0.0


def test_address_within_tolerance_passes_and_beyond_fails() -> None:
    near = {"address": "Elm Road 8, Hangzhou", "longitude": 120.002, "latitude": 30.0}  # ~193 m
    far = {"address": "Elm Road 8, Hangzhou", "longitude": 120.004, "latitude": 30.0}  # ~385 m
    assert same_address(near, HOME)[0]
    ok, where = same_address(far, HOME)
    assert not ok and "m away" in where
    assert ADDRESS_TOLERANCE_M == 300.0


def test_address_without_coordinates_falls_back_to_the_geocoder_match() -> None:
    want = {"address": "Room 5, 8 Elm Road, Lakeside District, Hangzhou"}
    assert same_address({"address": "8 Elm Road Room 5, Hangzhou"}, want) == (True, "")
    assert same_address({"address": "12 Oak Lane, Hangzhou"}, want) == (False, "")
    # the geocoder's threshold is inclusive: 4 of 5 distinctive words (80 %) is a match
    five = {"address": "Alpha Bravo Delta Gamma Omega"}
    assert same_address({"address": "Alpha Bravo Delta Gamma Zulux"}, five) == (True, "")
    assert same_address({"address": "Alpha Bravo Delta Kilos Zulux"}, five)[0] is False


def test_an_order_without_location_fails_a_located_requirement() -> None:
    task = delivery_task()
    result = grade(task, final_state(task, _near(location=None)))
    assert result.criteria[0].evidence.startswith(
        "OTSYN1-001: address '' ≠ 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"
    )


@pytest.mark.parametrize(
    ("delivered", "ok"),
    [("2025-06-01 12:30:00", True), ("2025-06-01 12:31:00", False), ("2025-06-01 11:30:00", True)],
)
def test_delivery_time_tolerance_is_30_minutes(delivered: str, ok: bool) -> None:
    assert TIME_TOLERANCE_MIN == 30.0
    task = delivery_task()
    result = grade(task, final_state(task, _near(delivery_time=delivered)))
    assert (result.reward == 1.0) is ok


def test_an_unreachable_early_time_means_as_soon_as_possible() -> None:
    # Expected delivery at the clock (11:00) with 50 minutes of shipping: 11:50 is on time.
    want = order("T1", "S1", [("P3", 1, "")], location=HOME, delivery_time="2025-06-01 11:00:00")
    task = delivery_task(expected=[want], orders={})
    made = order("OT1", "S1", [("P3", 1, "")], location=HOME, delivery_time="2025-06-01 11:50:00")
    made["shipping_time"] = 50.0
    assert grade(task, {"orders": {"OT1": made}}).reward == 1.0
    made["delivery_time"] = "2025-06-01 12:21:00"
    assert grade(task, {"orders": {"OT1": made}}).reward == 0.0
    made.update(delivery_time="2025-06-01 11:00:00", shipping_time=None)  # no shipping: the clock
    assert grade(task, {"orders": {"OT1": made}}).reward == 1.0


def test_a_past_dispatch_time_means_now_without_shipping() -> None:
    want = order("T1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 10:00:00")
    task = delivery_task(expected=[want], orders={})
    made = order("OT1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 11:00:00")
    made["shipping_time"] = 50.0
    assert grade(task, {"orders": {"OT1": made}}).reward == 1.0


def test_a_blank_expected_time_means_as_soon_as_possible() -> None:
    want = order("T1", "S1", [("P3", 1, "")], location=HOME, delivery_time="  ", dispatch_time="")
    task = delivery_task(expected=[want], orders={})
    now = order("OT1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 11:20:00")
    assert grade(task, {"orders": {"OT1": now}}).reward == 1.0
    later = order("OT1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 18:00:00")
    assert "not within 30 min of 2025-06-01 11:00:00" in failed_evidence(
        grade(task, {"orders": {"OT1": later}})
    )


def test_an_arrival_that_is_not_dispatch_plus_shipping_fails() -> None:
    task = delivery_task()
    made = {**right_order(), "delivery_time": "2025-06-01 12:20:00"}  # 11:30 + 35 min ≠ 12:20
    result = grade(task, final_state(task, made))
    assert result.reward == 0.0
    assert "is not dispatch_time 2025-06-01 11:30:00 plus 35 min of shipping" in failed_evidence(
        result
    )


def failed_evidence(result: Any) -> str:
    return " ".join(c.evidence for c in result.criteria if not c.met)


def test_time_tolerance_boundary_in_seconds() -> None:
    task = delivery_task()
    on_edge = grade(task, final_state(task, _near(delivery_time="2025-06-01 12:30:00")))
    past_edge = grade(task, final_state(task, _near(delivery_time="2025-06-01 12:30:30")))
    assert on_edge.reward == 1.0 and past_edge.reward == 0.0


def test_dispatch_time_is_checked_when_no_delivery_time_is_given() -> None:
    want = order("T1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 18:00:00")
    task = delivery_task(expected=[want], orders={})
    made = order("OT1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 18:20:00")
    assert grade(task, {"orders": {"OT1": made}}).reward == 1.0
    made["dispatch_time"] = "2025-06-01 11:00:00"
    assert grade(task, {"orders": {"OT1": made}}).reward == 0.0


# ---- pre-existing orders -------------------------------------------------------------------


def test_the_existing_order_must_end_in_the_expected_status() -> None:
    task = delivery_task()
    result = grade(task, final_state(task, right_order(), cancel=()))
    assert failed(result) == [O1]
    assert "final status paid, expected cancelled" in result.criteria[1].evidence


def test_a_required_note_change_on_an_existing_order_is_checked() -> None:
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME)}
    want = {**copy.deepcopy(initial["O1"]), "note": "Extra spicy please"}
    task = delivery_task(expected=[want], orders=initial)
    for note, ok in (("extra spicy, please", True), ("", False), ("No extra spicy please", False)):
        changed = {**copy.deepcopy(initial["O1"]), "note": note}
        assert (grade(task, {"orders": {"O1": changed}}).reward == 1.0) is ok, note


def test_an_unrequested_note_change_on_an_existing_order_fails() -> None:
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME, status="unpaid")}
    want = {**copy.deepcopy(initial["O1"]), "status": "paid"}
    task = delivery_task(expected=[want], orders=initial)
    paid = {**copy.deepcopy(initial["O1"]), "status": "paid"}
    assert grade(task, {"orders": {"O1": paid}}).reward == 1.0
    assert grade(task, {"orders": {"O1": {**paid, "note": "leave at the door"}}}).reward == 0.0


def test_a_vanished_existing_order_fails() -> None:
    task = delivery_task()
    final = final_state(task, right_order())
    del final["orders"]["O1"]
    result = grade(task, final, complete=False)
    assert failed(result) == [O1, "no_unrequested_changes"]
    assert result.criteria[1].evidence == "order vanished"


def test_cancelling_an_order_the_task_does_not_mention_is_unrequested() -> None:
    task = delivery_task()
    result = grade(task, final_state(task, right_order(), cancel=("O1", "O2")))
    assert failed(result) == ["no_unrequested_cancellations"]
    assert result.criteria[2].evidence == "O2"


def test_an_extra_live_order_fails_and_a_cancelled_extra_does_not() -> None:
    task = delivery_task()
    extra = order("OTSYN1-002", "S2", [("P5", 1, "")], location=HOME)
    result = grade(task, final_state(task, right_order(), extra))
    assert failed(result) == ["no_extra_orders"] and result.criteria[4].evidence == "OTSYN1-002"
    extra["status"] = "cancelled"
    assert grade(task, final_state(task, right_order(), extra)).reward == 1.0


def test_the_cancellation_filed_under_a_new_id_is_the_pre_existing_orders() -> None:
    # Official task 30711008: the expected state files the cancellation of O01 as "T02".
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME, status="unpaid")}
    cancelled = {**copy.deepcopy(initial["O1"]), "order_id": "T2", "status": "cancelled"}
    task = delivery_task(expected=[cancelled], orders=initial)
    result = grade(task, {"orders": {"O1": {**initial["O1"], "status": "cancelled"}}})
    assert result.reward == 1.0  # and cancelling O1 is not an unrequested cancellation
    assert grade(task, {"orders": copy.deepcopy(initial)}).reward == 0.0


def test_an_order_replaced_under_its_own_id_needs_the_cancellation_and_the_new_order() -> None:
    # Official task 80716002: the expected record keeps the id of the order it replaces.
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME, status="unpaid")}
    replacement = order("O1", "S1", [("P1", 1, "Mild Spicy")], location=HOME)
    task = delivery_task(expected=[replacement], orders=initial)
    new = order("OT1", "S1", [("P1", 1, "Mild Spicy")], location=HOME)
    old_cancelled = {**initial["O1"], "status": "cancelled"}
    assert grade(task, {"orders": {"O1": old_cancelled, "OT1": new}}).reward == 1.0
    kept = grade(task, {"orders": {"O1": dict(initial["O1"]), "OT1": new}})
    assert kept.reward == 0.0 and "still unpaid" in kept.criteria[0].evidence
    assert grade(task, {"orders": {"O1": old_cancelled}}).reward == 0.0


def test_nested_orders_are_required_too() -> None:
    outer = order("T1", "S1", [("P3", 1, "")], location=HOME)
    inner = order("T2", "S2", [("P5", 1, "")], location=HOME)
    outer["products"].append(inner)
    task = delivery_task(expected=[outer], orders={})
    both = {
        "A": order("A", "S1", [("P3", 1, "")], location=HOME),
        "B": order("B", "S2", [("P5", 1, "")], location=HOME),
    }
    result = grade(task, {"orders": both})
    assert result.reward == 1.0 and [c.id for c in result.criteria][:2] == [
        "order[0]:T1",
        "order[1]:T2",
    ]
    assert grade(task, {"orders": {"A": both["A"]}}).reward == 0.0


def test_an_order_filed_under_a_store_that_does_not_sell_it_is_graded_at_the_seller() -> None:
    want = order("T1", "S1", [("P5", 1, "")], location=HOME)  # P5 is sold by S2 only
    task = delivery_task(expected=[want], orders={})
    at_seller = order("OT1", "S2", [("P5", 1, "")], location=HOME)
    result = grade(task, {"orders": {"OT1": at_seller}})
    assert result.reward == 1.0 and "re-attributed from S1" in result.criteria[0].description


# ---- matching, guards, coverage ----------------------------------------------------------


def _timed(oid: str, attr: str, at: str, **kw: Any) -> dict[str, Any]:
    return order(oid, "S1", [("P2", 1, attr)], location=HOME, delivery_time=at, **kw)


def test_requirements_and_orders_are_matched_one_to_one_at_best() -> None:
    # Greedy first-fit would give T1 (12:00 ± 30 min) the 12:10 order that only T2
    # (12:20 ± 30 min) can also take, leaving T2 the 11:45 order it cannot.
    want = [
        _timed("T1", "Iced", "2025-06-01 12:00:00"),
        _timed("T2", "Iced", "2025-06-01 12:20:00"),
    ]
    task = delivery_task(expected=want, orders={})
    made = {
        "A": _timed("A", "Iced", "2025-06-01 12:10:00"),
        "B": _timed("B", "Iced", "2025-06-01 11:45:00"),
    }
    assert grade(task, {"orders": made}).reward == 1.0
    assert grade(task, {"orders": {"A": made["A"]}}).reward == 0.0


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(4)))
def test_the_reward_does_not_depend_on_the_order_of_creation(perm: list[int]) -> None:
    want = [
        _timed("T1", "Iced", "2025-06-01 12:00:00"),
        _timed("T2", "Iced", "2025-06-01 12:20:00"),
        order("T3", "S1", [("P1", 1, "Mild Spicy")], location=HOME),
    ]
    task = delivery_task(expected=want, orders={})
    made = [
        _timed("A", "Iced", "2025-06-01 12:10:00"),
        _timed("B", "Iced", "2025-06-01 11:45:00"),
        order("C", "S1", [("P1", 1, "Mild Spicy")], location=HOME),
        order("D", "S1", [("P1", 1, "Extra Spicy")], location=HOME, status="cancelled"),
    ]
    shuffled = {m["order_id"]: m for m in (made[i] for i in perm)}
    assert grade(task, {"orders": shuffled}).reward == 1.0
    without_a = {k: v for k, v in shuffled.items() if k != "A"}
    assert grade(task, {"orders": without_a}).reward == 0.0


def test_a_line_that_asks_no_attribute_takes_none() -> None:
    want = [order("T1", "S1", [("P2", 1, "")], location=HOME)]
    task = delivery_task(expected=want, orders={})
    plain = order("A", "S1", [("P2", 1, "")], location=HOME)
    assert grade(task, {"orders": {"A": plain}}).reward == 1.0
    chosen = order("A", "S1", [("P2", 1, "Iced")], location=HOME)
    assert "0 of 1 with the expected attribute" in failed_evidence(
        grade(task, {"orders": {"A": chosen}})
    )


def test_a_task_with_nothing_to_check_is_ungradable_never_a_pass() -> None:
    instore_only = order("T1", "SHOP", [("X", 1, "")], order_type="instore")
    task = delivery_task(expected=[instore_only], orders={})
    result = grade(task, {"orders": {}})
    assert not result.gradable and result.reward == 0.0 and result.score == 0.0
    assert "ungradable" in result.note


def test_an_abnormal_ending_scores_0_without_checking() -> None:
    task = delivery_task()
    sim = simulation(final_state(task, right_order()), TerminationReason.MAX_STEPS)
    result = delivery_state_evaluator().grade(task, sim)
    assert result.reward == 0.0 and result.score == 0.0 and result.gradable
    assert result.criteria == [] and result.note == "episode ended with max_steps"


def test_score_is_the_share_of_criteria_met() -> None:
    task = delivery_task()
    result = grade(task, final_state(task, _near(status="unpaid"), cancel=()))
    assert result.score == pytest.approx(2 / 5)  # T1, O1 and no_extra_orders fail


def test_a_delivery_time_only_in_the_rubrics_is_checked_on_the_order() -> None:
    want = order("T1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="")
    rubric = "The delivery time should be around 2025-06-01 12:00:00"
    task = delivery_task(expected=[want], orders={}, rubrics=[rubric])
    on_time = order(
        "OT1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 11:20:00"
    )
    on_time["delivery_time"] = "2025-06-01 12:10:00"
    result = grade(task, {"orders": {"OT1": on_time}})
    assert result.reward == 1.0 and result.unchecked == []
    late = {**on_time, "delivery_time": "2025-06-01 12:40:00"}
    assert "not in [2025-06-01 11:30:00, 2025-06-01 12:30:00]" in " ".join(
        c.evidence for c in grade(task, {"orders": {"OT1": late}}).criteria
    )


def test_a_note_only_in_the_rubrics_is_checked_or_reported_as_unchecked() -> None:
    want = order("T1", "S1", [("P3", 1, "")], location=HOME)
    task = delivery_task(expected=[want], orders={}, rubrics=["The order should note no cutlery"])
    noted = order("OT1", "S1", [("P3", 1, "")], location=HOME, note="No cutlery, please")
    assert grade(task, {"orders": {"OT1": noted}}).reward == 1.0
    bare = order("OT1", "S1", [("P3", 1, "")], location=HOME)
    assert grade(task, {"orders": {"OT1": bare}}).reward == 0.0
    vague = delivery_task(
        expected=[want], orders={}, rubrics=["The order should include a note for the rider"]
    )
    result = grade(vague, {"orders": {"OT1": noted}})
    assert any(u.startswith("note: ") for u in result.unchecked) and result.undecided
    noted_record = order("T1", "S1", [("P3", 1, "")], location=HOME, note="No cutlery")
    task = delivery_task(
        expected=[noted_record], orders={}, rubrics=["The order should include a note"]
    )
    assert grade(task, {"orders": {}}).unchecked == []


def test_matcher_checks_type_before_store() -> None:
    task = delivery_task()
    req = delivery_state_evaluator().required(task)[0]
    wrong = _near(order_type="instore", store_id="S2")
    assert OrderMatcher(task).mismatch(req, wrong) == "type instore ≠ delivery"


# ---- exact texts: evidence and descriptions ------------------------------------------------


def test_exact_evidence_of_each_mismatch() -> None:
    task = delivery_task()
    cases = {
        "store": "OTSYN1-001: store S2 ≠ S1",
        "order type": "no order of this type was created",
        "status (left unpaid)": "OTSYN1-001: status unpaid does not satisfy paid",
        "quantity": "OTSYN1-001: products {'P1': 2, 'P2': 2} ≠ {'P1': 1, 'P2': 2}",
        "attribute": "OTSYN1-001: P1: 0 of 1 with the expected attribute",
        "note negated": "OTSYN1-001: note 'green onions' does not ask 'No green onions'",
        "note omitted": "OTSYN1-001: note '' does not ask 'No green onions'",
        "address": (
            "OTSYN1-001: address 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou' ≠ "
            "'Room 5, 8 Elm Road, Lakeside District, Hangzhou' (4815 m away)"
        ),
        "delivery time": (
            "OTSYN1-001: delivery_time 2025-06-01 13:00:00 not within 30 min of 2025-06-01 12:00:00"
        ),
        "no delivery time": (
            "OTSYN1-001: delivery_time (none) not within 30 min of 2025-06-01 12:00:00"
        ),
    }
    for what, evidence in cases.items():
        result = grade(task, final_state(task, NEAR_MISSES[what]))
        assert result.criteria[0].evidence == evidence, what


def test_exact_descriptions_and_guard_texts() -> None:
    task = delivery_task()
    result = grade(task, final_state(task, right_order(), cancel=("O1", "O2")))
    texts = [(c.id, c.met, c.description, c.evidence) for c in result.criteria]
    assert texts == [
        (
            "order[0]:T1",
            True,
            "new delivery order T1 at S1: P1×1, P2×1, P2×1; status paid (paid)",
            "matched created order OTSYN1-001",
        ),
        (
            "order[1]:O1",
            True,
            "existing delivery order O1 at S1: P3×1; status cancelled (cancelled)",
            "status cancelled",
        ),
        (
            "no_unrequested_cancellations",
            False,
            "Pre-existing orders the task does not mention are not cancelled",
            "O2",
        ),
        (
            "no_unrequested_changes",
            True,
            "No other field of a pre-existing order changed than the task asks (note, address, "
            "times, status, lines, …)",
            "none changed",
        ),
        (
            "no_extra_orders",
            True,
            "No live order beyond those the task requires was created",
            "none",
        ),
    ]
    assert result.note == ""
    clean = grade(task, final_state(task, right_order()))
    assert clean.criteria[2].evidence == "none cancelled"
    two = grade(task, final_state(task, right_order(), right_order("OT9"), right_order("OT8")))
    assert two.criteria[4].evidence == "OT8, OT9"
    both = grade(task, final_state(task, right_order(), cancel=("O1", "O2", "O1")))
    assert both.criteria[2].evidence == "O2"


def test_exact_descriptions_of_other_kinds() -> None:
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME, status="unpaid")}
    cancel_other_id = {**copy.deepcopy(initial["O1"]), "order_id": "T2", "status": "cancelled"}
    task = delivery_task(expected=[cancel_other_id], orders=initial)
    (criterion, *_) = grade(task, {"orders": initial}).criteria
    assert criterion.description == (
        "existing (as O1) delivery order T2 at S1: P3×1; status cancelled (cancelled) "
        "[the cancellation of pre-existing order O1 (same store and lines)]"
    )
    assert criterion.evidence == "final status unpaid, expected cancelled"
    replacement = order("O1", "S1", [("P1", 1, "")], location=HOME)
    task = delivery_task(expected=[replacement], orders=initial)
    (criterion, *_) = grade(task, {"orders": initial}).criteria
    assert (
        criterion.description == "replacing O1: delivery order O1 at S1: P1×1; status paid (paid)"
    )
    assert criterion.evidence == "no order of this type was created"
    moved = order("T3", "S1", [("P5", 1, "")], location=HOME)  # P5 is sold by S2 only
    task = delivery_task(expected=[moved], orders={})
    (criterion, *_) = grade(task, {"orders": {}}).criteria
    assert criterion.description == (
        "new delivery order T3 at S2: P5×1; status paid (paid) "
        "[re-attributed from S1 (which does not sell its products)]"
    )
    empty = order("T4", "S1", [], location=HOME)
    task = delivery_task(expected=[empty], orders={})
    assert (
        grade(task, {"orders": {}})
        .criteria[0]
        .description.endswith("T4 at S1: (no products); status paid (paid)")
    )


def test_a_replacement_of_an_already_cancelled_order_needs_only_the_new_order() -> None:
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME, status="cancelled")}
    replacement = order("O1", "S1", [("P1", 1, "Mild Spicy")], location=HOME)
    task = delivery_task(expected=[replacement], orders=initial)
    new = order("OT1", "S1", [("P1", 1, "Mild Spicy")], location=HOME)
    assert grade(task, {"orders": {**initial, "OT1": new}}).reward == 1.0


def test_an_order_cancelled_before_the_episode_is_not_an_unrequested_cancellation() -> None:
    initial = {"O9": order("O9", "S2", [("P5", 1, "")], location=HOME, status="cancelled")}
    want = order("T1", "S1", [("P3", 1, "")], location=HOME)
    task = delivery_task(expected=[want], orders=initial)
    made = order("OT1", "S1", [("P3", 1, "")], location=HOME)
    assert grade(task, {"orders": {**initial, "OT1": made}}).reward == 1.0


def test_an_unchecked_ask_about_a_line_without_an_id() -> None:
    want = order("T1", "S1", [("P3", 1, "")], location=HOME)
    want["products"].append({"price": 3, "quantity": 1})
    task = delivery_task(expected=[want], orders={})
    result = grade(task, {"orders": {}})
    assert result.unchecked == ["products: order T1: 1 product line(s) without an id"]
    unmatched = order("T1", "S1", [("P2", 1, "Lukewarm")], location=HOME)
    result = grade(delivery_task(expected=[unmatched], orders={}), {"orders": {}})
    assert result.unchecked == [
        "attribute: 'Lukewarm' of P2 in order T1: no offered option has that meaning "
        "(offered: Iced; Room Temperature)"
    ]


def test_a_stated_time_is_checked_beside_the_record_time() -> None:
    rubric = "The delivery should arrive before 12:30"
    want = order("T1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 12:00:00")
    task = delivery_task(expected=[want], orders={}, rubrics=[rubric])
    made = order("OT1", "S1", [("P3", 1, "")], location=HOME, dispatch_time="2025-06-01 12:00:00")
    made["delivery_time"] = "2025-06-01 12:29:00"
    assert grade(task, {"orders": {"OT1": made}}).reward == 1.0
    # within the record's 30 minutes, but after the stated 12:30
    late = {**made, "dispatch_time": "2025-06-01 12:05:00", "delivery_time": "2025-06-01 12:34:00"}
    assert grade(task, {"orders": {"OT1": late}}).reward == 0.0
    assert grade(task, {"orders": {}}).unchecked == []


def test_an_ungradable_result_still_lists_what_it_could_not_check() -> None:
    instore_only = order("T1", "SHOP", [("X", 1, "")], order_type="instore")
    rubric = "The delivery time should be before 12:30"
    task = delivery_task(expected=[instore_only], orders={}, rubrics=[rubric])
    result = grade(task, {"orders": {}})
    assert not result.gradable and not result.undecided
    assert result.note == "ungradable: no required record this grader can check"
    assert result.unchecked == [
        "time: 'The delivery time should be before 12:30' states delivery time before "
        "[…, 2025-06-01 12:30:00], but no single required record could be found it is about"
    ]


def test_a_final_line_without_quantity_counts_as_no_unit() -> None:
    want = order("T1", "S1", [("P3", 1, "")], location=HOME)
    task = delivery_task(expected=[want], orders={})
    made = order("OT1", "S1", [("P3", 1, "")], location=HOME)
    del made["products"][0]["quantity"]
    assert grade(task, {"orders": {"OT1": made}}).reward == 0.0
    made["products"][0]["quantity"] = "many"
    assert grade(task, {"orders": {"OT1": made}}).reward == 0.0


def test_options_are_looked_up_in_the_order_store() -> None:
    # P4 (S2) offers the same options as P1 (S1); reuse the id P1 at S2 with other options.
    task = delivery_task(expected=[order("T1", "S2", [("P1", 1, "Hot")], location=HOME)], orders={})
    raw = task.model_dump()
    raw["environment"]["stores"]["S2"]["products"].append(
        {
            **raw["environment"]["stores"]["S1"]["products"][0],
            "store_id": "S2",
            "attributes": ["Hot", "Cold"],
        }
    )
    task = type(task).model_validate(raw)
    right = order("OT1", "S2", [("P1", 1, "Hot")], location=HOME)
    wrong = order("OT1", "S2", [("P1", 1, "Cold")], location=HOME)
    assert grade(task, {"orders": {"OT1": right}}).reward == 1.0
    assert grade(task, {"orders": {"OT1": wrong}}).reward == 0.0


def test_more_exact_texts() -> None:
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME)}
    want = {**copy.deepcopy(initial["O1"]), "note": "Ring twice"}
    task = delivery_task(expected=[want], orders=initial)
    noted = {**copy.deepcopy(initial["O1"]), "note": "Knock"}
    result = grade(task, {"orders": {"O1": noted}})
    assert result.criteria[0].evidence == "note 'Knock' does not ask 'Ring twice'"
    # two identical requirements, one order: the second is told why
    twice = [
        order("T1", "S1", [("P3", 1, "")], location=HOME),
        order("T2", "S1", [("P3", 1, "")], location=HOME),
    ]
    task = delivery_task(expected=twice, orders={})
    made = order("OT1", "S1", [("P3", 1, "")], location=HOME)
    result = grade(task, {"orders": {"OT1": made}})
    assert [c.evidence for c in result.criteria[:2]] == [
        "matched created order OT1",
        "OT1: taken by another requirement",
    ]
    # several unrequested cancellations are all named
    three = {
        "O1": order("O1", "S1", [("P3", 1, "")], location=HOME),
        "O2": order("O2", "S2", [("P5", 1, "")], location=HOME),
        "O3": order("O3", "S2", [("P5", 2, "")], location=HOME),
    }
    task = delivery_task(
        expected=[{**copy.deepcopy(three["O1"]), "status": "cancelled"}], orders=three
    )
    final = copy.deepcopy(three)
    for oid in final:
        final[oid]["status"] = "cancelled"
    assert grade(task, {"orders": final}).criteria[1].evidence == "O2, O3"


def test_the_address_tolerance_is_inclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    from lifebench.vita.grading import state

    monkeypatch.setattr(state, "_metres", lambda a, b: 300.0)
    assert same_address({"address": "x"}, {"address": "y"}) == (True, " (300 m away)")
    monkeypatch.setattr(state, "_metres", lambda a, b: 300.5)
    assert same_address({"address": "x"}, {"address": "y"}) == (False, " (300 m away)")


@pytest.mark.parametrize("shipping", [None, "n/a"])
def test_an_order_without_a_readable_shipping_time_ships_instantly(shipping: object) -> None:
    # Expected at the clock; without shipping the earliest delivery is the clock itself.
    want = order("T1", "S1", [("P3", 1, "")], location=HOME, delivery_time="2025-06-01 11:00:00")
    task = delivery_task(expected=[want], orders={})
    made = order("OT1", "S1", [("P3", 1, "")], location=HOME, delivery_time="2025-06-01 11:30:00")
    made["shipping_time"] = shipping
    assert grade(task, {"orders": {"OT1": made}}).reward == 1.0
    made["delivery_time"] = "2025-06-01 11:30:30"
    assert grade(task, {"orders": {"OT1": made}}).reward == 0.0


def test_an_abnormal_ending_keeps_the_unchecked_asks() -> None:
    want = order("T1", "S1", [("P2", 1, "Lukewarm")], location=HOME)
    task = delivery_task(expected=[want], orders={})
    sim = simulation({"orders": {}}, TerminationReason.TOO_MANY_ERRORS)
    result = delivery_state_evaluator().grade(task, sim)
    assert result.unchecked and result.unchecked[0].startswith("attribute: 'Lukewarm'")
    assert result.reward == 0.0 and result.gradable and not result.undecided


def test_records_of_other_types_do_not_stop_the_reading() -> None:
    instore = order("I1", "SHOP", [("X", 1, "")], order_type="instore")
    want = order("T1", "S1", [("P3", 1, "")], location=HOME)
    task = delivery_task(expected=[instore, want], orders={})
    assert [r.order_id for r in delivery_state_evaluator().required(task)] == ["T1"]


def test_a_task_without_criteria_has_no_requirements() -> None:
    task = delivery_task()
    bare = type(task).model_validate({**task.model_dump(), "evaluation_criteria": None})
    result = grade(bare, {"orders": {}})
    assert not result.gradable and delivery_state_evaluator().required(bare) == []


def test_an_omitted_note_change_names_the_empty_note() -> None:
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME, note="Knock")}
    want = {**copy.deepcopy(initial["O1"]), "note": "Ring twice"}
    task = delivery_task(expected=[want], orders=initial)
    blank = {**copy.deepcopy(initial["O1"]), "note": None}
    assert grade(task, {"orders": {"O1": blank}}).criteria[0].evidence == (
        "note '' does not ask 'Ring twice'"
    )
