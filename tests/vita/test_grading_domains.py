"""The shared record rules in the in-store, OTA and cross graders (one rule for every domain)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from _vita_builders import HOME, order, simulation
from test_instore_grading import _order, _reservation, call, grade, make_task
from test_ota_grading import ROOM, UID, Replay, expected, failed, task_with
from test_ota_grading import grade as ota_grade
from test_ota_tools import make_environment_dict, room

from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.grading.cross import cross_state_evaluator
from lifebench.vita.grading.instore import instore_required_orders, instore_state_evaluator
from lifebench.vita.grading.ota import OTAStateEvaluator, ota_required_orders, ota_state_evaluator
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


def test_an_instore_purchase_beyond_the_stock_is_no_data_error() -> None:
    """The in-store tools never refuse for stock (as officially), so the oracle reaches it."""
    too_many = _order("X1", "S_REST", [("P_SET", 300, 4)], "paid")  # stock 3
    issues = lint_task(make_task([too_many]))
    assert not [i for i in issues if "exceeds its stock" in i.message]
    assert not [i for i in issues if "cannot be reached" in i.message]


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
    assert ota_state_evaluator().describe(req) == (
        "replacing O_HOTEL: new hotel order O_HOTEL at H1: H1_K_0614@2025-06-14×1; status paid"
    )
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


def test_lint_flags_an_ota_booking_beyond_the_stock_as_unreachable() -> None:
    """The OTA tools refuse a booking beyond the stock (as officially): a data error."""
    too_many = expected("hotel", "N1", "H1", ROOM, "paid", quantity=50)
    issues = lint_task(task_with([too_many]))
    stock = [i for i in issues if "exceeds its stock" in i.message]
    assert (
        stock and stock[0].severity == "error" and stock[0].field.endswith("products[0].quantity")
    )
    assert [i for i in issues if "cannot be reached" in i.message]


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


# ---- in-store rules pinned one by one --------------------------------------------------------

from test_instore_grading import _book, _shop  # noqa: E402

from lifebench.vita.grading.instore import (  # noqa: E402
    appointment_kind,
    required_appointments,
)


def _reserve(when: str, count: int = 1, shop: str = "S_GYM"):  # type: ignore[no-untyped-def]
    async def step(env: InStoreEnvironment) -> None:
        await call(
            env, "instore_reservation", user_id="U1", shop_id=shop, time=when, customer_count=count
        )

    return step


@pytest.mark.parametrize(
    ("when", "ok"),
    [("2025-05-17 09:30:00", True), ("2025-05-17 09:30:30", False), ("2025-05-17 08:30:00", True)],
)
def test_appointment_time_tolerance_is_30_minutes_inclusive(when: str, ok: bool) -> None:
    task = make_task([_reservation("G1T7", "S_GYM", "2025-05-17 09:00:00", 1, "paid")])
    assert (grade(task, _reserve(when))[0] == 1.0) is ok


def test_an_existing_appointment_within_tolerance_and_exact_evidence() -> None:
    task = make_task([_reservation("R_OLD", "S_SPA", "2025-05-17 09:00:00", 2, "paid")])

    async def move(env: InStoreEnvironment) -> None:
        await call(
            env, "instore_modify_reservation", reservation_id="R_OLD", time="2025-05-17 09:30:00"
        )

    async def move_more(env: InStoreEnvironment) -> None:
        await call(
            env, "instore_modify_reservation", reservation_id="R_OLD", time="2025-05-17 09:30:30"
        )

    reward, verdicts = grade(task, move)
    assert reward == 1.0 and verdicts["reservation[0]:R_OLD"] == (True, "status unconsumed")
    reward, verdicts = grade(task, move_more)
    assert verdicts["reservation[0]:R_OLD"] == (
        False,
        "time 2025-05-17 09:30:30, expected 2025-05-17 09:00:00",
    )


def test_a_cancelled_existing_appointment_is_not_checked_for_time() -> None:
    # The expected record of the cancelled reservation carries another time (data noise).
    task = make_task([_reservation("R_OLD", "S_SPA", "2025-05-17 15:00:00", 5, "cancelled")])

    async def cancel(env: InStoreEnvironment) -> None:
        await call(env, "instore_cancel_reservation", reservation_id="R_OLD")

    reward, verdicts = grade(task, cancel)
    assert reward == 1.0 and verdicts["reservation[0]:R_OLD"] == (True, "status cancelled")
    reward, verdicts = grade(task)
    assert verdicts["reservation[0]:R_OLD"] == (
        False,
        "final status unconsumed, expected cancelled",
    )


def test_a_vanished_existing_appointment() -> None:
    task = make_task([_reservation("R_OLD", "S_SPA", "2025-05-17 09:00:00", 2, "paid")])
    final = {"orders": {}, "books": {}, "reservations": {}}
    result = instore_state_evaluator().grade(task, simulation(final))
    (criterion,) = [c for c in result.criteria if c.id == "reservation[0]:R_OLD"]
    assert (criterion.met, criterion.evidence) == (False, "record vanished")
    assert criterion.description == (
        "existing reservation R_OLD at S_SPA: 2025-05-17 09:00:00, 2 people; status paid (paid)"
    )


def test_appointment_descriptions_and_guard_texts() -> None:
    task = make_task(
        [
            _book("G1B", "S_REST", "2025-05-17 18:30:00", 4, 50, "paid"),
            _reservation("G1R", "S_GYM", "2024-01-01 10:00:00", 1, "unpaid"),
        ]
    )

    async def extra(env: InStoreEnvironment) -> None:
        await call(
            env, "instore_reservation", user_id="U1", shop_id="S_GYM", time="2025-05-18 10:00:00"
        )
        await call(env, "instore_cancel_reservation", reservation_id="R_KEEP")

    result = instore_state_evaluator().grade(task, simulation(_final(task, extra)))
    texts = {c.id: (c.met, c.description, c.evidence) for c in result.criteria}
    assert texts["book[0]:G1B"] == (
        False,
        "new table booking G1B at S_REST: 2025-05-17 18:30:00, 4 people; status paid (paid)",
        "RSG1-001: a reservation, expected a book",
    )
    assert texts["reservation[1]:G1R"] == (
        True,
        "new reservation G1R at S_GYM: 2024-01-01 10:00:00 (not checked), 1 people; "
        "status unpaid (unpaid)",
        "matched reservation RSG1-001",
    )
    assert texts["no_unrequested_appointment_changes"] == (
        False,
        "Pre-existing bookings/reservations the task does not mention are neither cancelled "
        "nor changed",
        "R_KEEP: status",
    )
    assert texts["no_extra_appointments"] == (
        True,
        "No live booking/reservation beyond those the task requires was made",
        "none",
    )
    nothing = instore_state_evaluator().grade(task, simulation(_final(task)))
    texts = {c.id: (c.met, c.evidence) for c in nothing.criteria}
    assert texts["book[0]:G1B"] == (False, "no booking or reservation was made")
    assert texts["no_unrequested_appointment_changes"] == (True, "none changed")


def _final(task: VitaTask, *steps: Any) -> dict[str, Any]:
    import asyncio

    env = InStoreEnvironment(task)

    async def run() -> None:
        for step in steps:
            await step(env)

    asyncio.run(run())
    return env.snapshot()


def test_appointment_mismatch_evidence() -> None:
    task = make_task([_reservation("G1T7", "S_GYM", "2025-05-17 09:00:00", 2, "paid")])
    cases = {
        "two people at the spa": (
            _reserve("2025-05-17 09:00:00", 2, "S_SPA"),
            "shop S_SPA ≠ S_GYM",
        ),
        "one person": (_reserve("2025-05-17 09:00:00", 1), "customer_count 1 ≠ 2"),
        "late": (
            _reserve("2025-05-17 11:00:00", 2),
            "time 2025-05-17 11:00:00 not within 30 min of 2025-05-17 09:00:00",
        ),
    }
    for what, (step, evidence) in cases.items():
        _, verdicts = grade(task, step)
        assert verdicts["reservation[0]:G1T7"] == (False, f"RSG1-001: {evidence}"), what
    cancelled = make_task([_reservation("G1T7", "S_GYM", "2025-05-17 09:00:00", 2, "cancelled")])
    _reward, verdicts = grade(cancelled, _reserve("2025-05-17 09:00:00", 2))
    assert verdicts["reservation[0]:G1T7"] == (
        False,
        "RSG1-001: status unconsumed does not satisfy cancelled",
    )


def test_the_closest_appointment_wins_even_at_zero_distance() -> None:
    task = make_task([_reservation("G1T7", "S_GYM", "2025-05-17 09:00:00", 1, "paid")])

    async def two(env: InStoreEnvironment) -> None:
        for when in ("2025-05-17 09:20:00", "2025-05-17 09:00:00"):
            await call(env, "instore_reservation", user_id="U1", shop_id="S_GYM", time=when)

    reward, verdicts = grade(task, two)
    assert verdicts["reservation[0]:G1T7"] == (True, "matched reservation RSG1-002")
    assert reward == 0.0 and not verdicts["no_extra_appointments"][0]


def test_an_unrequested_party_size_change_is_a_change() -> None:
    task = make_task([_order("X1", "S_CAFE", [("P_TEA", 30, 1)], "paid")])

    async def buy_and_grow(env: InStoreEnvironment) -> None:
        made = await call(
            env, "create_instore_product_order", user_id="U1", shop_id="S_CAFE", product_id="P_TEA"
        )
        await call(env, "pay_instore_order", order_id=made["order_id"])
        await call(
            env,
            "instore_modify_reservation",
            reservation_id="R_KEEP",
            time="2025-05-18 09:00:00",
            customer_count=4,
        )

    reward, verdicts = grade(task, buy_and_grow)
    assert reward == 0.0 and verdicts["no_unrequested_appointment_changes"] == (
        False,
        "R_KEEP: customer_count",
    )


@pytest.mark.parametrize(
    ("record", "flags", "kind"),
    [
        (
            _reservation("R", "S_X", "2025-05-17 09:00:00", 1, "paid"),
            {"enable_reservation": True, "enable_book": True},
            "reservation",
        ),
        (_reservation("R", "S_X", "2025-05-17 09:00:00", 1, "paid"), {"enable_book": True}, "book"),
        (
            _book("B", "S_X", "2025-05-17 09:00:00", 1, 0, "paid"),
            {"enable_reservation": True},
            "reservation",
        ),
        (_book("B", "S_X", "2025-05-17 09:00:00", 1, 0, "paid"), {}, "book"),
        (_book("B", "NOWHERE", "2025-05-17 09:00:00", 1, 0, "paid"), {}, "book"),
        ({"order_id": "O", "reservation_id": "R", "shop_id": "S_X"}, {"enable_book": True}, None),
    ],
)
def test_appointment_kind(record: dict[str, Any], flags: dict[str, Any], kind: str | None) -> None:
    task = make_task([])
    raw = task.model_dump()
    raw["environment"]["shops"]["S_X"] = _shop("S_X", [("P_X", 1, 1)], **flags)
    assert appointment_kind(VitaTask.model_validate(raw), record) == kind


def test_appointments_are_read_latest_last_and_by_either_time_key() -> None:
    first = _book("G1B", "S_REST", "2025-05-17 18:00:00", 2, 50, "paid")
    other = _reservation("G1R", "S_GYM", "2025-05-17 09:00:00", 1, "paid")
    later = {**first, "book_time": "2025-05-17 19:00:00"}
    reqs = required_appointments(make_task([first, other, later]))
    assert [(a.record_id, a.when.hour if a.when else None) for a in reqs] == [
        ("G1R", 9),
        ("G1B", 19),
    ]
    at_clock = _reservation("G1C", "S_GYM", "2025-05-16 10:00:00", 1, "paid")  # = the task clock
    (appt,) = required_appointments(make_task([at_clock]))
    assert appt.when is not None
    # a booking filed with reservation_time is read by either key
    swapped = {k: v for k, v in first.items() if k != "book_time"} | {
        "reservation_time": "2025-05-17 18:00:00"
    }

    async def book(env: InStoreEnvironment) -> None:
        made = await call(
            env,
            "instore_book",
            user_id="U1",
            shop_id="S_REST",
            time="2025-05-17 18:00:00",
            customer_count=2,
        )
        await call(env, "pay_instore_book", book_id=made["book_id"])

    assert grade(make_task([swapped]), book)[0] == 1.0


def test_existing_orders_are_never_split_and_later_records_are_read() -> None:
    two_lines = _order("O_OLD", "S_SPA", [("P_A", 100, 1)], "cancelled")
    new_multi = _order("X1", "S_SPA", [("P_A", 100, 1), ("P_B", 50, 1)], "paid")
    reqs = instore_required_orders(make_task([two_lines, new_multi]))
    assert [(r.kind, r.order_id, r.product_lines()[0][0]) for r in reqs] == [
        ("existing", "O_OLD", "P_A"),
        ("new", "X1", "P_A"),
        ("new", "X1", "P_B"),
    ]
    initial_two = make_task([]).environment["orders"]["O_OLD"]
    assert len(initial_two["products"]) == 1


def test_a_task_without_a_shops_table_grades_appointments_as_written() -> None:
    task = make_task([_reservation("G1T7", "S_GYM", "2025-05-17 09:00:00", 1, "paid")])
    raw = task.model_dump()
    del raw["environment"]["shops"]
    bare = VitaTask.model_validate(raw)
    (appt,) = required_appointments(bare)
    assert appt.kind == "reservation"


# ---- OTA rules pinned one by one ----------------------------------------------------------------

from test_ota_grading import SEAT_16  # noqa: E402

from lifebench.vita.grading.ota import Line, order_lines, same_lines  # noqa: E402


def test_ota_lines_skip_entries_without_an_id_and_default_quantity() -> None:
    record = {
        "products": [
            {"price": 1},
            "not a line",
            {"seat_id": "S1", "date": "2025-06-16"},
            {"room_id": "R1", "quantity": "two", "date": " 2025-06-12 "},
        ]
    }
    assert order_lines(record) == [Line("S1", "2025-06-16", 1), Line("R1", "2025-06-12", 1)]
    assert str(Line("R1", "", 2)) == "R1@?×2"


def test_a_date_change_needs_one_line_each_same_quantity_and_dates() -> None:
    env = make_environment_dict()
    before = env["orders"]["O_TRAIN"]

    def classify_with(products: list[dict[str, Any]]) -> str:
        moved = {**copy.deepcopy(before), "products": products}
        (req,) = ota_required_orders(task_with([moved], env))
        return req.change

    one = {**SEAT_16, "quantity": 1}
    assert classify_with([one]) == "modified"
    assert classify_with([{**SEAT_16, "quantity": 2}]) == "new"  # replaced, not a date change
    assert classify_with([one, {**one, "product_id": "T1_2C_0617", "date": "2025-06-17"}]) == "new"
    assert classify_with([{k: v for k, v in one.items() if k != "date"}]) == "new"


def test_an_ota_record_with_a_reused_product_id_on_another_date_is_not_unchanged() -> None:
    env = _hotel_env()
    moved = copy.deepcopy(env["orders"]["O_HOTEL"])
    moved["products"] = [{**moved["products"][0], "date": "2025-06-14"}]  # same room id, new date
    (req,) = ota_required_orders(task_with([moved], env))
    assert (req.kind, req.change) == ("replaced", "new")


def test_ota_latest_expectation_wins_and_indices_are_contiguous() -> None:
    env = make_environment_dict()
    kept = env["orders"]["O_HOTEL"]
    cancelled = {**copy.deepcopy(kept), "status": "cancelled"}
    new = expected("hotel", "NEW1", "H1", ROOM, "paid")
    reqs = ota_required_orders(task_with([kept, new, cancelled], env))
    assert [(r.index, r.order_id, r.status) for r in reqs] == [
        (0, "NEW1", "paid"),
        (1, "O_HOTEL", "cancelled"),
    ]


def test_ota_exact_texts() -> None:
    env = make_environment_dict()
    cancelled = {**copy.deepcopy(env["orders"]["O_HOTEL"]), "status": "cancelled"}
    new = expected("hotel", "NEW1", "H1", ROOM, "paid")
    task = task_with([cancelled, new], env)
    result = ota_grade(task, Replay([]))
    texts = {c.id: (c.met, c.description, c.evidence) for c in result.criteria}
    assert texts["order[0]:O_HOTEL"] == (
        False,
        "existing hotel order O_HOTEL at H1: H1_K_0612@2025-06-12×1; status cancelled",
        "final status paid, expected cancelled",
    )
    assert texts["order[1]:NEW1"] == (
        False,
        "new hotel order NEW1 at H1: H1_K_0612@2025-06-12×1; status paid",
        "no order of this type was created",
    )
    assert texts["no_unrequested_changes"] == (
        True,
        "No other field of a pre-existing order changed than the task asks (note, address, "
        "times, status, lines, …)",
        "none changed",
    )
    book_twin = ("create_hotel_order", {"hotel_id": "H1", "room_id": "H1_T_0612", "user_id": UID})
    book_other = ("create_hotel_order", {"hotel_id": "H2", "room_id": "H2_K_0612", "user_id": UID})
    result = ota_grade(task, Replay([book_twin, book_other]))
    assert failed(result)["order[1]:NEW1"] == (
        "OOG1-001: lines H1_T_0612@2025-06-12×1 ≠ H1_K_0612@2025-06-12×1; OOG1-002: hotel H2 ≠ H1"
    )
    result = ota_grade(
        task,
        Replay(
            [("create_hotel_order", {"hotel_id": "H1", "room_id": "H1_K_0612", "user_id": UID})]
        ),
    )
    assert failed(result)["order[1]:NEW1"] == "OOG1-001: status unpaid does not satisfy paid"
    assert OTAStateEvaluator.mismatch(ota_required_orders(task)[1], {"order_type": "train"}) == (
        "type train ≠ hotel"
    )
    vanished = ota_state_evaluator().grade(task, simulation({"orders": {}}))
    assert failed(vanished)["order[0]:O_HOTEL"] == "order vanished"
    unchanged = ota_state_evaluator().grade(task, simulation({"orders": dict(env["orders"])}))
    assert {c.id: c.evidence for c in unchanged.criteria}[
        "no_unrequested_changes"
    ] == "none changed"


def test_ota_unrequested_changes_list_every_changed_order() -> None:
    env = make_environment_dict()
    task = task_with([expected("hotel", "NEW1", "H1", ROOM, "unpaid")], env)
    final = copy.deepcopy(env["orders"])
    for oid in ("O_TRAIN", "O_TRAIN_UNPAID"):
        final[oid]["products"] = [{**SEAT_16, "quantity": 1}]
    final["NEW"] = expected("hotel", "NEW", "H1", ROOM, "unpaid")
    result = ota_state_evaluator().grade(task, simulation({"orders": final}))
    assert failed(result) == {
        "no_unrequested_changes": "O_TRAIN: products; O_TRAIN_UNPAID: products"
    }
    assert same_lines(order_lines(final["NEW"]), order_lines(final["NEW"]))


# ---- cross -------------------------------------------------------------------------------------


def test_cross_prefixes_criteria_and_unchecked_asks_and_scores_abnormal_endings_0() -> None:
    from lifebench.simulation import TerminationReason

    cancel = {**_order("O_OLD", "S_SPA", [("P_A", 100, 1)], "cancelled")}
    vague = _reservation("G1T7", "S_GYM", "2024-01-01 10:00:00", 1, "paid")
    task = _cross_task([cancel, vague])
    orders = copy.deepcopy(task.environment["orders"])
    orders["O_OLD"]["status"] = "cancelled"
    result = cross_state_evaluator().grade(task, simulation({"orders": orders}))
    ids = [c.id for c in result.criteria]
    assert ids[:4] == [
        "delivery:no_unrequested_cancellations",
        "delivery:no_unrequested_changes",
        "delivery:no_extra_orders",
        "instore:order[0]:O_OLD",
    ]
    assert "ota:no_unrequested_changes" in ids
    assert result.unchecked == [
        "time: time of G1T7: '2024-01-01 10:00:00' cannot be read or lies before the task clock"
    ]
    assert not result.undecided and result.gradable and result.reward == 0.0  # G1T7 not made
    aborted = cross_state_evaluator().grade(
        task, simulation({"orders": orders}, TerminationReason.TOO_MANY_ERRORS)
    )
    assert (aborted.reward, aborted.score, aborted.criteria, aborted.gradable) == (
        0.0,
        0.0,
        [],
        True,
    )
    assert (
        aborted.note == "episode ended with too_many_errors"
        and aborted.unchecked == result.unchecked
    )


# ---- more pinned rules ---------------------------------------------------------------------------


def test_an_unchanged_ota_order_keeps_its_initial_dates_even_if_the_record_has_none() -> None:
    env = make_environment_dict()
    kept = copy.deepcopy(env["orders"]["O_TRAIN"])
    kept["products"] = [{k: v for k, v in kept["products"][0].items() if k != "date"}]
    task = task_with([kept], env)
    (req,) = ota_required_orders(task)
    assert req.change == "unchanged"
    move = ("modify_train_order", {"order_id": "O_TRAIN", "user_id": UID, "new_date": "2025-06-16"})
    result = ota_grade(task, Replay([move]))
    assert failed(result)["order[0]:O_TRAIN"] == (
        "lines changed: T1_2C_0616@2025-06-16×1, expected T1_2C_0615@2025-06-15×1"
    )
    kept_result = ota_grade(task, Replay([]))
    assert {c.id: c.evidence for c in kept_result.criteria}["order[0]:O_TRAIN"] == (
        "status paid; lines T1_2C_0615@2025-06-15×1"
    )


def test_ota_modified_description_and_multi_line_texts() -> None:
    env = make_environment_dict()
    moved = copy.deepcopy(env["orders"]["O_TRAIN"])
    moved["products"] = [{**SEAT_16, "quantity": 1}]
    (req,) = ota_required_orders(task_with([moved], env))
    assert ota_state_evaluator().describe(req) == (
        "date-changed existing train order O_TRAIN at T1: T1_2C_0616@2025-06-16×1; status paid"
    )
    from lifebench.vita.grading.ota import _fmt

    assert _fmt([Line("A", "", 1), Line("B", "2025-01-01", 2)]) == "A@?×1, B@2025-01-01×2"
    assert _fmt([]) == "(no lines)"


def test_an_existing_multi_line_instore_order_is_one_requirement() -> None:
    task = make_task([])
    raw = task.model_dump()
    raw["environment"]["orders"]["O_TWO"] = _order(
        "O_TWO", "S_SPA", [("P_A", 100, 1), ("P_B", 50, 1)], "paid"
    )
    cancel_two = _order("O_TWO", "S_SPA", [("P_A", 100, 1), ("P_B", 50, 1)], "cancelled")
    raw["evaluation_criteria"]["expected_states"][0]["required_orders"] = [cancel_two]
    (req,) = instore_required_orders(VitaTask.model_validate(raw))
    assert req.existing and len(req.product_lines()) == 2


def test_appointments_without_an_id_are_distinct_requirements() -> None:
    a = {**_reservation("", "S_GYM", "2025-05-17 09:00:00", 1, "paid")}
    b = {**_reservation("", "S_GYM", "2025-05-17 11:00:00", 1, "paid")}
    assert len(required_appointments(make_task([a, b]))) == 2


def test_an_unreadable_final_appointment_time_does_not_match() -> None:
    task = make_task([_reservation("G1T7", "S_GYM", "2025-05-17 09:00:00", 1, "paid")])
    final = _final(task, _reserve("2025-05-17 09:00:00"))
    final["reservations"]["RSG1-001"]["reservation_time"] = "soon"
    result = instore_state_evaluator().grade(task, simulation(final))
    texts = {c.id: c.evidence for c in result.criteria}
    assert texts["reservation[0]:G1T7"] == (
        "RSG1-001: time soon not within 30 min of 2025-05-17 09:00:00"
    )


def test_a_pre_existing_booking_filed_with_reservation_time_is_not_moved() -> None:
    task = make_task([_order("X1", "S_CAFE", [("P_TEA", 30, 1)], "unpaid")])
    raw = task.model_dump()
    old = _book("B_OLD", "S_REST", "2025-05-18 19:00:00", 2, 0, "paid")
    del old["book_time"]
    old["reservation_time"] = "2025-05-18 19:00:00"
    raw["environment"]["books"] = {"B_OLD": old}
    task = VitaTask.model_validate(raw)

    async def buy(env: InStoreEnvironment) -> None:
        await call(
            env, "create_instore_product_order", user_id="U1", shop_id="S_CAFE", product_id="P_TEA"
        )

    reward, verdicts = grade(task, buy)
    assert reward == 1.0, verdicts


def test_instore_unchecked_asks_of_orders_and_appointments_and_abnormal_score() -> None:
    from lifebench.simulation import TerminationReason

    bare = _order("X1", "S_CAFE", [("P_TEA", 30, 1)], "paid")
    bare["products"].append({"price": 3, "quantity": 1})
    vague = _reservation("G1T7", "S_GYM", "2024-01-01 10:00:00", 1, "paid")
    task = make_task([bare, vague])
    result = instore_state_evaluator().grade(task, simulation(_final(task)))
    assert result.unchecked == [
        "products: order X1: 1 product line(s) without an id",
        "time: time of G1T7: '2024-01-01 10:00:00' cannot be read or lies before the task clock",
    ]
    aborted = instore_state_evaluator().grade(
        task, simulation(_final(task), TerminationReason.MAX_STEPS)
    )
    assert (aborted.reward, aborted.score, aborted.unchecked) == (0.0, 0.0, result.unchecked)


def test_instore_guards_name_every_offender() -> None:
    task = make_task([_order("X1", "S_CAFE", [("P_TEA", 30, 1)], "unpaid")])

    async def noisy(env: InStoreEnvironment) -> None:
        await call(
            env, "create_instore_product_order", user_id="U1", shop_id="S_CAFE", product_id="P_TEA"
        )
        await call(env, "instore_cancel_reservation", reservation_id="R_OLD")
        await call(env, "instore_cancel_reservation", reservation_id="R_KEEP")
        for when in ("2025-05-18 10:00:00", "2025-05-19 10:00:00"):
            await call(env, "instore_reservation", user_id="U1", shop_id="S_GYM", time=when)

    _, verdicts = grade(task, noisy)
    assert verdicts["no_unrequested_appointment_changes"] == (
        False,
        "R_KEEP: status; R_OLD: status",
    )
    assert verdicts["no_extra_appointments"] == (False, "RSG1-001, RSG1-002")


def test_the_exact_appointment_wins_over_one_half_a_minute_off() -> None:
    task = make_task([_reservation("G1T7", "S_GYM", "2025-05-17 09:00:00", 1, "paid")])

    async def two(env: InStoreEnvironment) -> None:
        for when in ("2025-05-17 09:00:30", "2025-05-17 09:00:00"):
            await call(env, "instore_reservation", user_id="U1", shop_id="S_GYM", time=when)

    _, verdicts = grade(task, two)
    assert verdicts["reservation[0]:G1T7"] == (True, "matched reservation RSG1-002")


def test_new_appointment_evidence_lists_every_candidate() -> None:
    task = make_task([_reservation("G1T7", "S_GYM", "2025-05-17 09:00:00", 2, "paid")])

    async def two(env: InStoreEnvironment) -> None:
        for shop in ("S_SPA", "S_GYM"):
            await call(
                env, "instore_reservation", user_id="U1", shop_id=shop, time="2025-05-17 09:00:00"
            )

    _, verdicts = grade(task, two)
    assert verdicts["reservation[0]:G1T7"] == (
        False,
        "RSG1-001: shop S_SPA ≠ S_GYM; RSG1-002: customer_count 1 ≠ 2",
    )


def test_cross_guards_of_a_domain_without_requirements_and_the_async_entry() -> None:
    import asyncio

    env = make_environment_dict()
    hotel = {**copy.deepcopy(env["orders"]["O_HOTEL"]), "status": "cancelled"}
    task = _cross_task([hotel])
    raw = task.model_dump()
    raw["environment"] |= {k: v for k, v in env.items() if k in ("hotels", "orders")}
    task = VitaTask.model_validate(raw)
    final = copy.deepcopy(task.environment["orders"])
    final["O_HOTEL"]["status"] = "cancelled"
    state = {
        "orders": final,
        "books": copy.deepcopy(task.environment.get("books") or {}),
        "reservations": {
            **copy.deepcopy(task.environment.get("reservations") or {}),
            "RS9": _reservation("RS9", "S_GYM", "2025-05-18 10:00:00", 1, "unconsumed"),
        },
    }
    result = asyncio.run(cross_state_evaluator().evaluate(task, simulation(state)))
    assert result.reward == 0.0
    assert [c.id for c in result.criteria if not c.met] == ["instore:no_extra_appointments"]


def test_an_ungradable_cross_task_keeps_its_unchecked_asks() -> None:
    task = _cross_task([])
    raw = task.model_dump()
    raw["evaluation_criteria"]["overall_rubrics"] = ["The delivery time should be before 12:30"]
    result = cross_state_evaluator().grade(VitaTask.model_validate(raw), simulation({"orders": {}}))
    assert not result.gradable and not result.undecided
    assert len(result.unchecked) == 1
    assert result.unchecked[0].startswith("time: 'The delivery time should be before 12:30'")


def test_a_date_change_to_the_wrong_date_exact_evidence() -> None:
    env = make_environment_dict()
    moved = copy.deepcopy(env["orders"]["O_TRAIN"])
    moved["products"] = [{**SEAT_16, "quantity": 1}]
    task = task_with([moved], env)
    wrong = (
        "modify_train_order",
        {"order_id": "O_TRAIN", "user_id": UID, "new_date": "2025-06-17"},
    )
    assert failed(ota_grade(task, Replay([wrong])))["order[0]:O_TRAIN"] == (
        "lines not moved to the expected date: T1_2C_0617@2025-06-17×1, "
        "expected T1_2C_0616@2025-06-16×1"
    )
