"""The shared record rules in the in-store, OTA and cross graders (one rule for every domain)."""

from __future__ import annotations

import copy
from typing import Any

from _vita_builders import HOME, order, simulation
from test_instore_grading import _order, _reservation, call, grade, make_task
from test_ota_grading import ROOM, UID, Replay, expected, failed, task_with
from test_ota_grading import grade as ota_grade
from test_ota_tools import make_environment_dict, room

from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.grading.cross import cross_state_evaluator
from lifebench.vita.grading.instore import instore_required_orders, instore_state_evaluator
from lifebench.vita.grading.ota import ota_required_orders
from lifebench.vita.lint import lint_task
from lifebench.vita.task import VitaTask

# ---- in-store --------------------------------------------------------------------------------


def test_an_existing_reservation_keeps_the_time_the_task_keeps() -> None:
    # Only the party size changes; moving the time as well is wrong (found by certify).
    kept_time = _reservation("R_OLD", "S_SPA", "2025-05-17 09:00:00", 3, "paid")
    task = make_task([kept_time])

    async def grow(env: InStoreEnvironment) -> None:
        await call(
            env,
            "instore_modify_reservation",
            reservation_id="R_OLD",
            time="2025-05-17 09:00:00",
            customer_count=3,
        )

    async def grow_and_move(env: InStoreEnvironment) -> None:
        await call(
            env,
            "instore_modify_reservation",
            reservation_id="R_OLD",
            time="2025-05-17 12:00:00",
            customer_count=3,
        )

    async def move_only(env: InStoreEnvironment) -> None:
        await call(
            env, "instore_modify_reservation", reservation_id="R_OLD", time="2025-05-17 09:00:00"
        )

    assert grade(task, grow)[0] == 1.0
    reward, verdicts = grade(task, grow_and_move)
    assert reward == 0.0 and "expected 2025-05-17 09:00:00" in verdicts["reservation[0]:R_OLD"][1]
    reward, verdicts = grade(task, move_only)
    assert reward == 0.0 and "customer_count 2, expected 3" in verdicts["reservation[0]:R_OLD"][1]


def test_instore_cancellation_filed_under_a_new_id_is_the_pre_existing_orders() -> None:
    record = {**_order("X1", "S_SPA", [("P_A", 100, 1)], "cancelled")}
    task = make_task([record])
    (req,) = instore_required_orders(task)
    assert req.existing and req.target == "O_OLD"

    async def cancel(env: InStoreEnvironment) -> None:
        await call(env, "instore_cancel_order", order_id="O_OLD")

    reward, verdicts = grade(task, cancel)
    assert reward == 1.0 and verdicts["no_unrequested_cancellations"][0]


def test_instore_lines_are_attributed_each_to_the_shop_that_sells_it() -> None:
    # One expected order lists a spa product and a gym product under the café.
    record = _order("X1", "S_CAFE", [("P_A", 100, 1), ("P_GYM", 60, 1)], "paid")
    reqs = instore_required_orders(make_task([record]))
    assert [(r.store_id, r.product_lines()[0][0]) for r in reqs] == [
        ("S_SPA", "P_A"),
        ("S_GYM", "P_GYM"),
    ]
    assert all("re-attributed from S_CAFE" in r.note for r in reqs)


def test_an_instore_task_without_instore_records_is_ungradable() -> None:
    task = make_task([order("T1", "S1", [("P1", 1, "")], location=HOME)])  # a delivery record
    result = instore_state_evaluator().grade(task, simulation({"orders": {}}))
    assert not result.gradable and result.reward == 0.0


def test_an_unreadable_appointment_time_is_reported_as_unchecked() -> None:
    vague = _reservation("G1T7", "S_GYM", "2024-01-01 10:00:00", 1, "paid")  # before the clock
    task = make_task([vague])
    result = instore_state_evaluator().grade(task, simulation({"orders": {}}))
    assert any("G1T7" in u and "before the task clock" in u for u in result.unchecked)


def test_lint_flags_an_expected_purchase_beyond_the_stock() -> None:
    too_many = _order("X1", "S_REST", [("P_SET", 300, 4)], "paid")  # stock 3
    issues = lint_task(make_task([too_many]))
    stock = [i for i in issues if "exceeds its stock" in i.message]
    assert (
        stock and stock[0].severity == "error" and stock[0].field.endswith("products[0].quantity")
    )
    (replayed,) = [i for i in issues if "cannot be reached" in i.message]
    assert "only 3 left" in replayed.message


# ---- OTA -------------------------------------------------------------------------------------


def _hotel_env() -> dict[str, Any]:
    env = make_environment_dict()
    env["hotels"]["H1"]["products"].append(
        room("H1_K_0614", "Lake View King Room", "2025-06-14", 580, 2)
    )
    return env


def test_a_hotel_date_change_is_a_replacement_cancel_and_rebook() -> None:
    env = _hotel_env()
    moved = copy.deepcopy(env["orders"]["O_HOTEL"])
    moved["products"] = [{**moved["products"][0], "product_id": "H1_K_0614", "date": "2025-06-14"}]
    task = task_with([moved], env)
    (req,) = ota_required_orders(task)
    assert req.kind == "replaced" and req.target == "O_HOTEL" and req.change == "new"
    cancel = ("cancel_hotel_order", {"order_id": "O_HOTEL", "user_id": UID})
    book = ("create_hotel_order", {"hotel_id": "H1", "room_id": "H1_K_0614", "user_id": UID})
    pay = ("pay_hotel_order", {"order_id": "$last"})
    assert ota_grade(task, Replay([cancel, book, pay])).reward == 1.0
    kept = ota_grade(task, Replay([book, pay]))
    assert kept.reward == 0.0 and "still paid" in failed(kept)["order[0]:O_HOTEL"]


def test_an_ota_cancellation_filed_under_a_new_id_is_the_pre_existing_orders() -> None:
    env = make_environment_dict()
    record = {**copy.deepcopy(env["orders"]["O_HOTEL"]), "order_id": "X9", "status": "cancelled"}
    task = task_with([record], env)
    (req,) = ota_required_orders(task)
    assert req.existing and req.target == "O_HOTEL"
    cancel = ("cancel_hotel_order", {"order_id": "O_HOTEL", "user_id": UID})
    result = ota_grade(task, Replay([cancel]))
    assert result.reward == 1.0
    assert ota_grade(task, Replay([])).reward == 0.0


def test_an_ota_booking_filed_under_another_hotel_is_graded_at_the_seller() -> None:
    record = expected("hotel", "N1", "H2", ROOM, "paid")  # ROOM is an H1 room
    (req,) = ota_required_orders(task_with([record]))
    assert req.store_id == "H1" and "re-attributed from H2" in req.note


# ---- cross -----------------------------------------------------------------------------------


def _cross_task(required: list[dict[str, Any]]) -> VitaTask:
    env = make_task().environment | {"stores": {}, "location": [HOME]}
    return VitaTask(
        id="X1",
        environment=env,
        instructions="x",
        evaluation_criteria={
            "expected_states": [{"required_orders": required, "state_rubrics": ["r"]}],
            "overall_rubrics": ["r"],
        },
    )


def test_cross_is_ungradable_only_when_no_domain_has_a_requirement() -> None:
    nothing = _cross_task([])
    result = cross_state_evaluator().grade(nothing, simulation({"orders": {}}))
    assert not result.gradable and result.reward == 0.0
    cancel = {**_order("O_OLD", "S_SPA", [("P_A", 100, 1)], "cancelled")}
    task = _cross_task([cancel])
    orders = copy.deepcopy(task.environment["orders"])
    orders["O_OLD"]["status"] = "cancelled"
    result = cross_state_evaluator().grade(task, simulation({"orders": orders}))
    assert result.gradable and result.reward == 1.0
    # the OTA and delivery parts have no requirement, but their guards still count
    assert "ota:no_extra_orders" in [c.id for c in result.criteria]
    extra = order("OO9", "H1", [("H1_K_0612", 1, "")], order_type="hotel")
    orders["OO9"] = extra
    result = cross_state_evaluator().grade(task, simulation({"orders": orders}))
    assert result.reward == 0.0 and [c.id for c in result.criteria if not c.met] == [
        "ota:no_extra_orders"
    ]
