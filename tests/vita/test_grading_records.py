"""How expected records are read: attribute mapping, classification, nesting, re-attribution,
line matching (grading/options.py, expected.py, matching.py)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from _vita_builders import HOME, delivery_task, order
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.vita.grading.expected import (
    attributed_store,
    expected_records,
    graded_content,
    named_orders,
    required_orders,
    status_class,
    status_satisfies,
)
from lifebench.vita.grading.matching import lines_mismatch, max_matching
from lifebench.vita.grading.options import attribute_rule, chosen_key, offered_attributes
from lifebench.vita.grading.text import text_key
from lifebench.vita.loader import load_tasks
from lifebench.vita.task import VitaTask

DELIVERY = frozenset({"delivery"})

# ---- attribute mapping (expected wording from the official English files) -----------------


@pytest.mark.parametrize(
    ("expected", "offered", "option"),
    [
        ("Regular Spicy", ["Normal Spicy", "Mild Spicy"], "Normal Spicy"),
        ("Mild Spicy", ["Normal Spicy", "Mild Spicy"], "Mild Spicy"),
        ("50% Sugar Level", ["70% Sugar", "50% Sugar", "30% Sugar"], "50% Sugar"),
        ("Only with cilantro", ["Cilantro only", "No cilantro, no green onions"], "Cilantro only"),
        ("No ice", ["Standard Ice", "No Ice"], "No Ice"),
        ("More ginger", ["Normal Ginger", "Extra Ginger"], "Extra Ginger"),
        # the Chinese task says 番茄酱 / 椰蓉: the offered option, in other words
        ("Tomato Sauce", ["Ketchup", "Sweet Bean Sauce"], "Ketchup"),
        ("Coconut Shreds", ["Pork Floss", "Coconut"], "Coconut"),
        (
            "No cilantro, no green onions",
            ["Cilantro only", "No cilantro, no green onions"],
            "No cilantro, no green onions",
        ),
    ],
)
def test_expected_wording_maps_onto_the_option_with_its_meaning(
    expected: str, offered: list[str], option: str
) -> None:
    rule = attribute_rule(expected, offered)
    assert rule.how == "option" and rule.option == option and rule.checked
    assert rule.key == text_key(option)


@pytest.mark.parametrize(
    ("expected", "offered"),
    [
        ("Extra Spicy", ["Mild Spicy", "Normal Spicy"]),
        ("Ice", ["No Ice", "Hot"]),
        ("Unseparated soup and noodles", ["Soup and Noodles Separated"]),
    ],
)
def test_wording_no_option_means_is_unmatched_and_not_checked(
    expected: str, offered: list[str]
) -> None:
    rule = attribute_rule(expected, offered)
    assert rule.how == "unmatched" and rule.key is None and not rule.checked
    assert rule.offered == tuple(offered)


def test_several_offered_options_at_once_are_a_combination() -> None:
    rule = attribute_rule("Less ice, No extra sugar", ["Ice", "Less Ice", "No Added Sugar"])
    assert rule.how == "combination" and rule.checked
    assert set(rule.option.split(", ")) == {"Less Ice", "No Added Sugar"}


def test_free_text_and_nothing() -> None:
    free = attribute_rule("No fish mint", [])
    assert (
        free.how == "free"
        and free.option == "No fish mint"
        and free.key == text_key("no fish mint")
    )
    none = attribute_rule("  ", ["Hot"])
    assert none.how == "none" and not none.checked


def test_chosen_key_reads_strings_and_lists() -> None:
    assert chosen_key(["Less Ice", "No Added Sugar"]) == chosen_key("No added sugar, less ice")
    assert chosen_key(None) == () == chosen_key("")


def test_offered_attributes_prefer_the_named_store() -> None:
    task = delivery_task()
    assert offered_attributes(task, "S1", "P1") == ["Mild Spicy", "Extra Spicy"]
    assert offered_attributes(task, "S9", "P2") == ["Iced", "Room Temperature"]
    assert offered_attributes(task, "S1", "NOPE") == []


# ---- statuses ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actual", "expected", "ok"),
    [
        ("paid", "delivered", True),
        ("unpaid", "paid", False),
        ("paid", "unpaid", True),  # paying is not penalised
        ("cancelled", "unpaid", False),
        ("cancelled", "cancelled", True),
        ("paid", "cancelled", False),
        ("unconsumed", "paid", True),
    ],
)
def test_status_classes(actual: str, expected: str, ok: bool) -> None:
    assert status_satisfies(actual, expected) is ok
    assert status_class("in-progress") == "paid" and status_class(None) == "unpaid"


# ---- classification ------------------------------------------------------------------------


def test_records_are_classified_existing_replaced_or_new() -> None:
    initial = {
        "O1": order("O1", "S1", [("P3", 1, "")], location=HOME),
        "O2": order("O2", "S2", [("P5", 1, "")], location=HOME, status="unpaid"),
        "O3": order("O3", "S2", [("P5", 2, "")], location=HOME),
    }
    expected = [
        {**copy.deepcopy(initial["O1"]), "status": "cancelled"},  # existing, same id
        order("O2", "S1", [("P1", 1, "Mild Spicy")], location=HOME),  # replaced under its id
        {**copy.deepcopy(initial["O3"]), "order_id": "X9", "status": "cancelled"},  # by content
        order("N1", "S1", [("P2", 1, "Iced")], location=HOME),  # new
    ]
    reqs = required_orders(delivery_task(expected=expected, orders=initial), DELIVERY)
    assert [(r.kind, r.target) for r in reqs] == [
        ("existing", "O1"),
        ("replaced", "O2"),
        ("existing", "O3"),
        ("new", ""),
    ]
    assert [r.index for r in reqs] == [0, 1, 2, 3]
    assert named_orders(reqs) == {"O1", "O2", "O3"}
    assert "cancellation of pre-existing order O3" in reqs[2].note


def test_a_paid_record_with_the_content_of_a_past_order_is_a_new_order() -> None:
    # "The same as last time": only cancellations are identified by content.
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME)}
    again = order("N1", "S1", [("P3", 1, "")], location=HOME)
    (req,) = required_orders(delivery_task(expected=[again], orders=initial), DELIVERY)
    assert req.kind == "new"


def test_an_already_cancelled_order_is_not_identified_by_content() -> None:
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME, status="cancelled")}
    record = {**copy.deepcopy(initial["O1"]), "order_id": "X", "status": "cancelled"}
    (req,) = required_orders(delivery_task(expected=[record], orders=initial), DELIVERY)
    assert req.kind == "new"


def test_the_latest_expectation_of_an_existing_order_wins() -> None:
    initial = {"O1": order("O1", "S1", [("P3", 1, "")], location=HOME, status="unpaid")}
    paid = {**copy.deepcopy(initial["O1"]), "status": "paid"}
    cancelled = {**copy.deepcopy(initial["O1"]), "status": "cancelled"}
    (req,) = required_orders(delivery_task(expected=[paid, cancelled], orders=initial), DELIVERY)
    assert req.status == "cancelled" and req.index == 0


def test_identical_graded_content_counts_once() -> None:
    a = order("N1", "S1", [("P3", 1, "")], location=HOME)
    b = {**copy.deepcopy(a), "create_time": "2025-06-01 11:05:00", "total_price": 99}
    assert graded_content(a) == graded_content(b)
    assert len(required_orders(delivery_task(expected=[a, b], orders={}), DELIVERY)) == 1
    c = {**copy.deepcopy(a), "note": "ring twice"}
    assert len(required_orders(delivery_task(expected=[a, c], orders={}), DELIVERY)) == 2


def test_nested_orders_are_recovered_after_their_holder() -> None:
    outer = order("T1", "S1", [("P3", 1, "")], location=HOME)
    outer["products"].append(order("T2", "S2", [("P5", 1, "")], location=HOME))
    task = delivery_task(expected=[outer], orders={})
    reqs = required_orders(task, DELIVERY)
    assert [r.order_id for r in reqs] == ["T1", "T2"]
    assert [pid for pid, _, _ in reqs[0].product_lines()] == ["P3"]
    assert [r["order_id"] for r in expected_records(task)] == ["T1", "T2"]


def test_re_attribution_to_the_only_seller() -> None:
    task = delivery_task(expected=[], orders={})
    assert attributed_store(task, order("x", "S1", [("P5", 1, "")])) == (
        "S2",
        "re-attributed from S1 (which does not sell its products)",
    )
    assert attributed_store(task, order("x", "S1", [("P1", 1, "")])) == ("S1", "")
    # P1 (S1) and P5 (S2): no single store sells both, so it stays as written
    assert attributed_store(task, order("x", "S1", [("P1", 1, ""), ("P5", 1, "")])) == ("S1", "")


def test_attribute_key_misspelled_as_attribute_is_read() -> None:
    record = order("T1", "S1", [("P1", 1, "")], location=HOME)
    record["products"][0] = {"product_id": "P1", "quantity": 1, "attribute": "Mild Spicy"}
    (req,) = required_orders(delivery_task(expected=[record], orders={}), DELIVERY)
    assert req.product_lines() == [("P1", 1, "Mild Spicy")]


# ---- line and order matching ---------------------------------------------------------------


def test_lines_match_as_multisets_of_units() -> None:
    iced, warm = text_key("Iced"), text_key("Warm")
    want = [("P", 1, iced), ("P", 1, warm)]
    assert lines_mismatch(want, [("P", 1, warm), ("P", 1, iced)]) is None
    assert lines_mismatch(want, [("P", 2, iced)]) == "P: 0 of 1 with the expected attribute"
    assert lines_mismatch([("P", 2, None)], [("P", 1, iced), ("P", 1, warm)]) is None
    assert "products" in str(lines_mismatch([("P", 2, None)], [("P", 3, iced)]))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("ABC"), st.integers(1, 3), st.sampled_from(["x", "y"])),
        max_size=5,
    ),
    st.randoms(),
)
def test_splitting_merging_or_reordering_lines_never_changes_the_match(
    lines: list[tuple[str, int, str]], rnd: object
) -> None:
    want = [(p, q, text_key(a)) for p, q, a in lines]
    units = [(p, 1, text_key(a)) for p, q, a in lines for _ in range(q)]
    rnd.shuffle(units)  # type: ignore[attr-defined]
    assert lines_mismatch(want, units) is None
    if units:
        assert lines_mismatch(want, units[1:]) is not None


def test_max_matching_finds_the_perfect_assignment_greedy_misses() -> None:
    fits = {("any", "a"), ("any", "b"), ("a-only", "a")}
    assert max_matching(["any", "a-only"], ["a", "b"], lambda r, c: (r, c) in fits) == {0: 1, 1: 0}
    assert max_matching(["x"], [], lambda r, c: True) == {}


# ---- the official classes (shared samples) -------------------------------------------------


def _official(task_id: str, shared: Path) -> VitaTask:
    return next(t for t in load_tasks(shared) if t.id == task_id)


def test_official_cancellation_under_a_new_id(delivery_tasks_en: Path) -> None:
    reqs = required_orders(_official("30711008", delivery_tasks_en), DELIVERY)
    kinds = {(r.order_id, r.kind, r.target) for r in reqs}
    assert ("30711008T02", "existing", "30711008O01") in kinds  # the cancellation of O01
    assert ("30711008O01", "replaced", "30711008O01") in kinds  # O01's id reused for the soup


def test_official_replacement_under_the_same_id(delivery_tasks_en: Path) -> None:
    reqs = required_orders(_official("80716002", delivery_tasks_en), DELIVERY)
    first = next(r for r in reqs if r.order_id == "80716002T01")
    assert first.kind == "replaced" and first.target == "80716002T01"


def test_official_nested_orders(delivery_tasks_en: Path) -> None:
    reqs = required_orders(_official("B0714001", delivery_tasks_en), DELIVERY)
    assert "B0714001T01" in [r.order_id for r in reqs]  # was nested in T02's product list
    reqs = required_orders(_official("30711009", delivery_tasks_en), DELIVERY)
    assert {"30711009O01", "30711009T02", "30711009T03"} <= {r.order_id for r in reqs}


# ---- exact rules (each pinned by its effect) -----------------------------------------------


def test_attribute_rules_in_full() -> None:
    from lifebench.vita.grading.options import AttributeRule

    offered = ("Hot", "Iced", "hot")
    assert attribute_rule(" ", offered) == AttributeRule(" ", "none", None, "", offered)
    assert attribute_rule("ICED", offered) == AttributeRule(
        "ICED", "option", text_key("iced"), "Iced", offered
    )
    # equal keys are one option: the first spelling is the one to choose
    assert attribute_rule("hot", offered).option == "Hot"
    assert attribute_rule(" Warm ", ()) == AttributeRule(
        " Warm ", "free", text_key("warm"), "Warm", ()
    )
    assert attribute_rule("Hot, Iced", offered) == AttributeRule(
        "Hot, Iced", "combination", text_key("Hot, Iced"), "Hot, Iced", offered
    )
    assert attribute_rule("Warm", offered) == AttributeRule("Warm", "unmatched", None, "", offered)
    assert attribute_rule("Hot, Warm", offered).how == "unmatched"  # one clause is no option


def test_product_options_reads_the_official_string_form() -> None:
    from lifebench.vita.grading.options import product_options

    assert product_options({"attributes": "Hot, Iced"}) == ["Hot, Iced"]  # one option, as the tool
    assert product_options({"attributes": ""}) == []
    assert product_options({"attributes": None}) == []
    assert product_options({"attributes": ["A", 2]}) == ["A", "2"]
    assert product_options({}) == []


def test_line_attributes_only_for_delivery_lines() -> None:
    from lifebench.vita.grading.state import line_rules

    record = order("T1", "S1", [("P1", 1, "Mild Spicy")], location=HOME)
    task = delivery_task(expected=[record], orders={})
    (req,) = required_orders(task, DELIVERY)
    assert line_rules(task, req)[0][2].option == "Mild Spicy"
    instore = {**record, "order_type": "instore"}
    (req,) = required_orders(delivery_task(expected=[instore], orders={}), frozenset({"instore"}))
    assert line_rules(task, req)[0][2].how == "none"


def test_a_specific_attribute_is_checked_after_an_unchecked_one() -> None:
    iced, warm = text_key("Iced"), text_key("Warm")
    assert lines_mismatch([("P", 1, None), ("P", 1, iced)], [("P", 2, warm)]) == (
        "P: 0 of 1 with the expected attribute"
    )
    assert lines_mismatch([("P", 1, iced)], [("Q", 1, iced)]) == "products {'Q': 1} ≠ {'P': 1}"


def test_max_matching_keeps_the_earliest_requirement_when_it_cannot_augment() -> None:
    assert max_matching(["A", "B"], ["x"], lambda r, c: True) == {0: 0}
    assert max_matching(["A", "B"], ["x", "y"], lambda r, c: True) == {0: 0, 1: 1}


def test_max_matching_augments_through_a_chain() -> None:
    # R1 takes a, R2 takes b; R3 needs a: R1 moves to b, which moves R2 to c.
    edges = {"R1": {"a", "b"}, "R2": {"b", "c"}, "R3": {"a"}}
    found = max_matching(["R1", "R2", "R3"], ["a", "b", "c"], lambda r, c: c in edges[r])
    assert found == {0: 1, 1: 2, 2: 0}


def test_content_identification_never_takes_an_order_twice() -> None:
    twin = {
        "O1": order("O1", "S1", [("P3", 1, "")], location=HOME),
        "O3": order("O3", "S1", [("P3", 1, "")], location=HOME),
    }
    x1 = {**copy.deepcopy(twin["O1"]), "order_id": "X1", "status": "cancelled"}
    x2 = {**copy.deepcopy(twin["O1"]), "order_id": "X2", "status": "cancelled"}
    reqs = required_orders(delivery_task(expected=[x1, x2], orders=twin), DELIVERY)
    assert [(r.order_id, r.target) for r in reqs] == [("X1", "O1"), ("X2", "O3")]
    # an order already expected under its own id is not also someone else's cancellation
    keep = copy.deepcopy(twin["O1"])
    reqs = required_orders(delivery_task(expected=[keep, x1], orders={"O1": twin["O1"]}), DELIVERY)
    assert [(r.kind, r.target) for r in reqs] == [("existing", "O1"), ("new", "")]


def test_classification_with_an_unknown_store() -> None:
    record = order("T1", "S9", [("P5", 1, "")], location=HOME)  # no store S9; P5 is S2's
    (req,) = required_orders(delivery_task(expected=[record], orders={}), DELIVERY)
    assert (req.kind, req.store_id) == ("new", "S2")
    assert attributed_store(delivery_task(), order("x", "S1", [])) == ("S1", "")


def test_quantities_default_to_one() -> None:
    record = order("T1", "S1", [("P3", 1, "")], location=HOME)
    record["products"] = [
        {"product_id": "P3"},
        {"product_id": "P2", "quantity": "two"},
        {"product_id": "P1", "quantity": 3},
    ]
    (req,) = required_orders(delivery_task(expected=[record], orders={}), DELIVERY)
    assert req.product_lines() == [("P3", 1, ""), ("P2", 1, ""), ("P1", 3, "")]


def test_lines_without_an_id_are_neither_lines_nor_orders() -> None:
    record = order("T1", "S1", [("P3", 1, "")], location=HOME)
    record["products"].append({"price": 4, "quantity": 1})
    task = delivery_task(expected=[record], orders={})
    (req,) = required_orders(task, DELIVERY)
    assert req.product_lines() == [("P3", 1, "")]
    assert [r["order_id"] for r in expected_records(task)] == ["T1"]


def test_list_attributes_are_read_comma_joined() -> None:
    record = order("T1", "S1", [("P2", 1, "")], location=HOME)
    record["products"][0]["attributes"] = ["Less ice", "No sugar"]
    (req,) = required_orders(delivery_task(expected=[record], orders={}), DELIVERY)
    assert req.product_lines() == [("P2", 1, "Less ice, No sugar")]


@pytest.mark.parametrize(
    "change",
    [
        {"note": "x"},
        {"status": "unpaid"},
        {"store_id": "S2"},
        {"delivery_time": "2025-06-01 12:00:00"},
        {"dispatch_time": "2025-06-01 12:00:00"},
        {"location": {"address": "elsewhere"}},
        {"products": [{"product_id": "P3", "quantity": 2}]},
        {"products": [{"product_id": "P3", "quantity": 1, "attributes": "x"}]},
        {"products": [{"product_id": "P3", "quantity": 1, "date": "2025-06-02"}]},
    ],
)
def test_graded_content_tells_records_apart(change: dict[str, object]) -> None:
    base = order("T1", "S1", [("P3", 1, "")], location=HOME)
    base["products"] = [{"product_id": "P3", "quantity": 1}]
    assert graded_content(base) != graded_content({**base, **change})
    assert (
        len(
            required_orders(delivery_task(expected=[base, {**base, **change}], orders={}), DELIVERY)
        )
        == 2
    )
