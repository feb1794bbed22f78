"""lint_tasks: non-fatal consistency checks, on the official data and on crafted tasks."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from lifebench.vita.lint import LintIssue, lint_task, lint_tasks
from lifebench.vita.loader import load_tasks
from lifebench.vita.task import VitaTask
from shared_data import shared_file

STATE0 = "evaluation_criteria.expected_states[0]"
ORDER0 = f"{STATE0}.required_orders[0]"


@pytest.fixture(scope="module")
def official_issues() -> list[LintIssue]:
    return lint_tasks(load_tasks(shared_file("vitabench", "delivery_tasks_en.json")))


def find(issues: list[LintIssue], task_id: str, field: str) -> LintIssue:
    matches = [i for i in issues if i.task_id == task_id and i.field == field]
    assert matches, f"no issue at {task_id} {field}; got: {[str(i) for i in issues]}"
    return matches[0]


def test_official_nested_order_is_recovered(official_issues: list[LintIssue]) -> None:
    issue = find(official_issues, "30711009", f"{ORDER0}.products[1]")
    assert issue.severity == "warning"
    assert "nested in the product list" in issue.message and "recovered" in issue.message
    assert "30711009O01" in issue.message


def test_official_product_not_in_its_store(official_issues: list[LintIssue]) -> None:
    issue = find(official_issues, "80715001", f"{ORDER0}.products[0].product_id")
    assert issue.severity == "error"
    assert "is not sold by store" in issue.message


def test_official_conflicting_order_ids(official_issues: list[LintIssue]) -> None:
    field = "evaluation_criteria.expected_states[0].required_orders[1].order_id"
    issue = find(official_issues, "90715002", field)
    assert issue.severity == "warning"
    assert "in the same state" in issue.message and "two distinct orders" in issue.message


def test_official_other_oddities(official_issues: list[LintIssue]) -> None:
    store_key = "environment.stores.S10884602254755805_S86671.store_id"
    assert find(official_issues, "20711002", store_key).severity == "warning"
    attribute = find(official_issues, "10714001", f"{ORDER0}.products[0].attributes")
    assert "'Regular Spicy' is not offered as written" in attribute.message
    assert "'Normal Spicy'" in attribute.message  # mapped onto the offered option
    # Exact duplicates between state_rubrics and overall_rubrics are the norm: never flagged.
    assert not [i for i in official_issues if "duplicates rubric" in i.message]
    # Exactly the tasks an oracle cannot solve: a product no store sells, an address the
    # geocoder cannot place (two options asked on one line are a combination the tool takes).
    errors = {i.task_id for i in official_issues if i.severity == "error"}
    assert errors == {"80715001", "C0715001"}
    assert not [i for i in official_issues if "cannot decide" in i.message]
    combination = [
        i for i in official_issues if i.task_id == "D0716001" and "combination" in i.message
    ]
    assert combination and combination[0].severity == "warning"
    address = [
        i for i in official_issues if i.task_id == "C0715001" and "Address not found" in i.message
    ]
    assert address and "cannot be reached" in address[0].message


# ---- crafted tasks (based on a bundled demo task) ---------------------------------------


def base_raw() -> dict[str, Any]:
    """The first bundled English demo task as raw JSON (one store-bought rice bowl, paid)."""
    text = resources.files("lifebench.vita.data").joinpath("delivery_en.json").read_text("utf-8")
    raw: dict[str, Any] = json.loads(text)[0]
    return raw


def lint_raw(raw: dict[str, Any]) -> list[LintIssue]:
    return lint_task(VitaTask.model_validate(raw))


def test_base_task_is_clean() -> None:
    assert lint_raw(base_raw()) == []


Mutation = Callable[[dict[str, Any]], None]


def _order(raw: dict[str, Any], state: int = 0, index: int = 0) -> dict[str, Any]:
    order: dict[str, Any] = raw["evaluation_criteria"]["expected_states"][state]["required_orders"][
        index
    ]
    return order


def _stores(raw: dict[str, Any]) -> dict[str, Any]:
    stores: dict[str, Any] = raw["environment"]["stores"]
    return stores


def m_unknown_store(raw: dict[str, Any]) -> None:
    _order(raw)["store_id"] = "NOPE"


def m_product_elsewhere(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["product_id"] = "LBD001_S2_P1"


def m_product_nowhere(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["product_id"] = "GHOST"


def m_product_without_id(raw: dict[str, Any]) -> None:
    del _order(raw)["products"][0]["product_id"]


def m_bad_quantity(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["quantity"] = 0


def m_conflict_same_state(raw: dict[str, Any]) -> None:
    other = copy.deepcopy(_order(raw))
    other["status"] = "unpaid"
    raw["evaluation_criteria"]["expected_states"][0]["required_orders"].append(other)


def m_conflict_across_states(raw: dict[str, Any]) -> None:
    state = copy.deepcopy(raw["evaluation_criteria"]["expected_states"][0])
    state["required_orders"][0]["note"] = "ring twice"
    raw["evaluation_criteria"]["expected_states"].append(state)


def m_duplicate_rubric(raw: dict[str, Any]) -> None:
    rubrics = raw["evaluation_criteria"]["expected_states"][0]["state_rubrics"]
    rubrics.append(rubrics[1])


def m_empty_state_rubrics(raw: dict[str, Any]) -> None:
    raw["evaluation_criteria"]["expected_states"][0]["state_rubrics"] = []


def m_blank_rubric(raw: dict[str, Any]) -> None:
    raw["evaluation_criteria"]["overall_rubrics"].append("  ")


def m_no_rubrics(raw: dict[str, Any]) -> None:
    raw["evaluation_criteria"]["expected_states"][0]["state_rubrics"] = []
    raw["evaluation_criteria"]["overall_rubrics"] = []


def m_no_criteria(raw: dict[str, Any]) -> None:
    raw["evaluation_criteria"] = None


def m_no_instructions(raw: dict[str, Any]) -> None:
    raw["instructions"] = " \n"


def m_price(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["price"] = 30


def m_total(raw: dict[str, Any]) -> None:
    _order(raw)["total_price"] = 99


def m_attribute(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["attributes"] = "Wild rice"


def m_attribute_list(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["attributes"] = ["Wild rice"]


def m_attribute_wording(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["attributes"] = "ＢＲＯＷＮ rice!"


def m_attribute_pair(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["attributes"] = ["White rice", "Brown rice"]


def m_nested_order(raw: dict[str, Any]) -> None:
    inner = copy.deepcopy(_order(raw))
    inner["order_id"] = "LBD001T09"
    _order(raw)["products"].append(inner)


def m_attribute_key(raw: dict[str, Any]) -> None:
    _order(raw)["products"][0]["attribute"] = _order(raw)["products"][0].pop("attributes")


def m_address(raw: dict[str, Any]) -> None:
    _order(raw)["location"]["address"] = "somewhere else"


def m_dispatch_past(raw: dict[str, Any]) -> None:
    _order(raw)["dispatch_time"] = "2025-04-12 09:00:00"


def m_dispatch_format(raw: dict[str, Any]) -> None:
    _order(raw)["dispatch_time"] = "noon"


def m_user(raw: dict[str, Any]) -> None:
    _order(raw)["user_id"] = "U0"


def m_store_key(raw: dict[str, Any]) -> None:
    _stores(raw)["LBD001_S1"]["store_id"] = "LBD001_SX"


def m_product_owner(raw: dict[str, Any]) -> None:
    _stores(raw)["LBD001_S2"]["products"][0]["store_id"] = "LBD001_S1"


def m_duplicate_product(raw: dict[str, Any]) -> None:
    _stores(raw)["LBD001_S2"]["products"][0]["product_id"] = "LBD001_S1_P2"


def m_preexisting(raw: dict[str, Any]) -> None:
    order = copy.deepcopy(_order(raw))
    order.update(order_id="X1", store_id="GONE")
    raw["environment"]["orders"]["X2"] = order


S1 = "environment.stores.LBD001_S1"
S2 = "environment.stores.LBD001_S2"


def test_a_pair_of_offered_options_on_one_line_is_no_data_error() -> None:
    """create_delivery_order takes a combination of offered options (the official tool takes
    any text): a pair written as a list is no error, at most a note on how it is graded."""
    raw = base_raw()
    m_attribute_pair(raw)
    issues = lint_raw(raw)
    found = [i for i in issues if i.field == f"{ORDER0}.products[0].attributes"]
    assert not found  # written exactly as the offered spellings: nothing to note
    assert not [i for i in issues if i.severity == "error"]
    # written otherwise, the note says how it is graded
    _order(raw)["products"][0]["attributes"] = ["White rice", "brown rices"]
    issues = lint_raw(raw)
    found = [i for i in issues if i.field == f"{ORDER0}.products[0].attributes"]
    assert [i.severity for i in found] == ["warning"] and "combination" in found[0].message
    assert not [i for i in issues if i.severity == "error"]


@pytest.mark.parametrize(
    ("mutate", "field", "severity", "words"),
    [
        (m_unknown_store, f"{ORDER0}.store_id", "error", "'NOPE' is not in environment.stores"),
        (
            m_product_elsewhere,
            f"{ORDER0}.products[0].product_id",
            "warning",
            "graded at 'LBD001_S2', the one store of the task that sells",
        ),
        (m_product_nowhere, f"{ORDER0}.products[0].product_id", "error", "no store of the task"),
        (m_product_without_id, f"{ORDER0}.products[0]", "error", "no product_id"),
        (m_bad_quantity, f"{ORDER0}.products[0].quantity", "error", "positive integer"),
        (
            m_conflict_same_state,
            f"{STATE0}.required_orders[1].order_id",
            "warning",
            "differs in: status",
        ),
        (
            m_conflict_across_states,
            "evaluation_criteria.expected_states[1].required_orders[0].order_id",
            "warning",
            "in an earlier state",
        ),
        (m_duplicate_rubric, f"{STATE0}.state_rubrics[6]", "warning", "duplicates rubric [1]"),
        (m_empty_state_rubrics, f"{STATE0}.state_rubrics", "warning", "no state rubrics"),
        (m_blank_rubric, "evaluation_criteria.overall_rubrics[6]", "warning", "empty rubric"),
        (m_no_rubrics, "evaluation_criteria.overall_rubrics", "error", "no rubrics at all"),
        (m_no_criteria, "evaluation_criteria", "error", "no evaluation criteria"),
        (m_no_instructions, "instructions", "error", "empty"),
        (m_price, f"{ORDER0}.products[0].price", "warning", "catalog price 32"),
        (m_total, f"{ORDER0}.total_price", "warning", "sum of price x quantity (32.00)"),
        (m_attribute, f"{ORDER0}.products[0].attributes", "warning", "cannot check it"),
        (m_attribute_list, f"{ORDER0}.products[0].attributes", "warning", "'Wild rice' is not"),
        (m_attribute_wording, f"{ORDER0}.products[0].attributes", "warning", "'Brown rice'"),
        (m_nested_order, f"{ORDER0}.products[1]", "warning", "recovered as a required order"),
        (m_attribute_key, f"{ORDER0}.products[0].attribute", "warning", "misspelled key"),
        (m_address, f"{ORDER0}.location.address", "warning", "not one of the addresses"),
        (m_dispatch_past, f"{ORDER0}.dispatch_time", "warning", "before the task time"),
        (m_dispatch_format, f"{ORDER0}.dispatch_time", "warning", "is not 'YYYY-MM-DD HH:MM:SS'"),
        (m_user, f"{ORDER0}.user_id", "warning", "differs from environment.user_id"),
        (m_store_key, f"{S1}.store_id", "warning", "filed under key 'LBD001_S1'"),
        (m_product_owner, f"{S2}.products[0].store_id", "warning", "is sold by 'LBD001_S2'"),
        (m_duplicate_product, f"{S2}.products[0].product_id", "warning", "also used at"),
        (m_preexisting, "environment.orders.X2.order_id", "warning", "filed under key 'X2'"),
        (m_preexisting, "environment.orders.X2.store_id", "warning", "'GONE' is not in"),
    ],
)
def test_lint_check(mutate: Mutation, field: str, severity: str, words: str) -> None:
    raw = base_raw()
    mutate(raw)
    issues = lint_raw(raw)
    issue = find(issues, raw["id"], field)
    assert issue.severity == severity
    assert words in issue.message


def test_duplicates_between_state_and_overall_rubrics_are_fine() -> None:
    raw = base_raw()
    criteria = raw["evaluation_criteria"]
    assert criteria["overall_rubrics"] == criteria["expected_states"][0]["state_rubrics"]
    assert lint_raw(raw) == []


def _static(issues: list[LintIssue]) -> list[LintIssue]:
    """Issues of the static checks (the oracle replay reports at ``expected_states``)."""
    return [i for i in issues if i.field != "evaluation_criteria.expected_states"]


def test_order_types_without_a_table_are_not_checked() -> None:
    raw = base_raw()
    order = _order(raw)
    order.update(order_type="hotel", store_id="H1", location=None)
    issues = lint_raw(raw)
    assert _static(issues) == []
    # ... but the oracle replay says the record cannot be reached
    (replayed,) = issues
    assert replayed.severity == "error" and "Hotel 'H1' not found" in replayed.message


def test_reservation_records_refer_to_shops_only_when_the_table_exists() -> None:
    raw = base_raw()
    reservation = {"reservation_id": "R1", "shop_id": "SHOP9", "status": "paid"}
    raw["evaluation_criteria"]["expected_states"][0]["required_orders"].append(reservation)
    assert _static(lint_raw(raw)) == []
    raw["environment"]["shops"] = {}
    (issue,) = _static(lint_raw(raw))
    assert issue.field == f"{STATE0}.required_orders[1].shop_id"


def test_issue_str_and_order() -> None:
    raw = base_raw()
    m_price(raw)
    m_no_instructions(raw)
    issues = lint_tasks([VitaTask.model_validate(raw)])
    assert [i.field for i in issues] == [
        "instructions",
        f"{ORDER0}.products[0].price",
        f"{ORDER0}.total_price",
    ]
    assert str(issues[0]) == "task LBD001_en, field instructions: error: instructions are empty"
