"""The in-store state grader: orders (split, re-attributed), bookings, reservations, guards."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from lifebench.simulation import (
    Episode,
    NoopAgent,
    ScriptedUser,
    Simulation,
    TerminationReason,
    run_episode,
)
from lifebench.vita.agents.oracle import OracleAgent, oracle_plan
from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.grading.instore import (
    appointment_kind,
    instore_required_orders,
    instore_state_evaluator,
    required_appointments,
)
from lifebench.vita.task import VitaTask

TIME = "2025-05-16 10:00:00"
U = "U1"


def _shop(sid: str, products: list[tuple[str, float, int]], **flags: Any) -> dict[str, Any]:
    return {
        "shop_id": sid,
        "shop_name": f"Shop {sid}",
        "score": 4.7,
        "location": {"address": f"{sid} Road, Hangzhou", "longitude": 120.17, "latitude": 30.27},
        "tags": [],
        "enable_book": False,
        "book_price": 0,
        "enable_reservation": False,
        "products": [
            {
                "product_id": pid,
                "name": pid,
                "shop_id": sid,
                "price": price,
                "quantity": stock,
                "tags": [],
            }
            for pid, price, stock in products
        ],
        **flags,
    }


def _order(oid: str, shop: str, lines: list[tuple[str, float, int]], status: str) -> dict[str, Any]:
    return {
        "order_id": oid,
        "order_type": "instore",
        "user_id": U,
        "store_id": shop,
        "note": "",
        "location": None,
        "dispatch_time": "",
        "shipping_time": None,
        "delivery_time": "",
        "total_price": sum(p * q for _, p, q in lines),
        "create_time": "2025-05-10 09:00:00",
        "update_time": "2025-05-10 09:00:00",
        "status": status,
        "products": [{"product_id": pid, "price": p, "quantity": q} for pid, p, q in lines],
    }


def _reservation(rid: str, shop: str, when: str, count: int, status: str) -> dict[str, Any]:
    return {
        "reservation_id": rid,
        "shop_id": shop,
        "reservation_time": when,
        "update_time": "2025-05-10 09:00:00",
        "customer_id": U,
        "customer_count": count,
        "status": status,
    }


def _book(bid: str, shop: str, when: str, count: int, fee: float, status: str) -> dict[str, Any]:
    return {
        "book_id": bid,
        "shop_id": shop,
        "book_time": when,
        "update_time": "2025-05-16 10:05:00",
        "customer_id": U,
        "customer_count": count,
        "book_price": fee,
        "status": status,
    }


def make_task(required: list[dict[str, Any]] | None = None) -> VitaTask:
    """Pre-existing: two orders, two reservations. Expected: see ``EXPECTED``."""
    environment = {
        "time": TIME,
        "user_id": U,
        "shops": {
            "S_SPA": _shop(
                "S_SPA", [("P_A", 100, 5), ("P_B", 50, 5), ("P_C", 80, 5)], enable_reservation=True
            ),
            "S_REST": _shop("S_REST", [("P_SET", 300, 3)], enable_book=True, book_price=50),
            "S_CAFE": _shop("S_CAFE", [("P_TEA", 30, 9)], enable_book=True),
            "S_GYM": _shop("S_GYM", [("P_GYM", 60, 9)], enable_reservation=True),
        },
        "orders": {
            "O_OLD": _order("O_OLD", "S_SPA", [("P_A", 100, 1)], "paid"),
            "O_KEEP": _order("O_KEEP", "S_CAFE", [("P_TEA", 30, 1)], "paid"),
        },
        "reservations": {
            "R_OLD": _reservation("R_OLD", "S_SPA", "2025-05-17 09:00:00", 2, "unconsumed"),
            "R_KEEP": _reservation("R_KEEP", "S_GYM", "2025-05-18 09:00:00", 1, "unconsumed"),
        },
        "books": {},
    }
    if required is None:
        required = EXPECTED
    criteria = {
        "expected_states": [{"required_orders": required, "state_rubrics": ["r"]}],
        "overall_rubrics": ["r"],
    }
    return VitaTask.model_validate(
        {
            "id": "G1",
            "domain": "instore",
            "environment": environment,
            "evaluation_criteria": criteria,
            "instructions": "test",
        }
    )


EXPECTED: list[dict[str, Any]] = [
    # a new two-product order (the tool takes one product: graded per line)
    _order("G1T001", "S_SPA", [("P_A", 100, 1), ("P_B", 50, 2)], "paid"),
    # the pre-existing order is cancelled
    {**_order("O_OLD", "S_SPA", [("P_A", 100, 1)], "cancelled"), "update_time": TIME},
    # a table booking with a fee, paid
    _book("G1T002", "S_REST", "2025-05-17 18:30:00", 4, 50, "paid"),
    # a "reservation" at a shop that only takes bookings: graded as a (free) booking
    _reservation("G1T003", "S_CAFE", "2025-05-17 12:00:00", 2, "paid"),
    # the pre-existing reservation is moved and grows to three people
    _reservation("R_OLD", "S_SPA", "2025-05-17 19:00:00", 3, "paid"),
]

Step = Callable[[InStoreEnvironment], Awaitable[None]]


async def call(env: InStoreEnvironment, name: str, **args: Any) -> dict[str, Any]:
    out = await env.tools.run(name, args)
    assert not out.error, out.content
    result: dict[str, Any] = json.loads(out.content)
    return result


async def honest(env: InStoreEnvironment, *, skip: str = "") -> None:
    """What a good agent does (``skip`` leaves one step out)."""
    for pid, qty in (("P_A", 1), ("P_B", 2)):
        if skip == pid:
            continue
        order = await call(
            env,
            "create_instore_product_order",
            user_id=U,
            shop_id="S_SPA",
            product_id=pid,
            quantity=qty,
        )
        await call(env, "pay_instore_order", order_id=order["order_id"])
    if skip != "cancel":
        await call(env, "instore_cancel_order", order_id="O_OLD")
    book = await call(
        env,
        "instore_book",
        user_id=U,
        shop_id="S_REST",
        time="2025-05-17 18:30:00",
        customer_count=4,
    )
    if skip != "pay_book":
        await call(env, "pay_instore_book", book_id=book["book_id"])
    await call(
        env,
        "instore_book",
        user_id=U,
        shop_id="S_CAFE",
        time="2025-05-17 12:00:00",
        customer_count=2,
    )
    if skip != "modify":
        await call(
            env,
            "instore_modify_reservation",
            reservation_id="R_OLD",
            time="2025-05-17 19:00:00",
            customer_count=3,
        )


def grade(
    task: VitaTask, *steps: Step, termination: TerminationReason = TerminationReason.AGENT_STOP
) -> tuple[float, dict[str, tuple[bool, str]]]:
    env = InStoreEnvironment(task)

    async def run() -> None:
        for step in steps:
            await step(env)

    asyncio.run(run())
    sim = Simulation(
        task_id=task.id, trial=0, seed=0, termination=termination, final_state=env.snapshot()
    )
    result = instore_state_evaluator().grade(task, sim)
    return result.reward, {v.id: (v.met, v.evidence) for v in result.criteria}


def failed(verdicts: dict[str, tuple[bool, str]]) -> dict[str, str]:
    return {k: why for k, (met, why) in verdicts.items() if not met}


# ---- requirements ------------------------------------------------------------------------------


def test_requirements_are_normalised() -> None:
    task = make_task()
    orders = instore_required_orders(task)
    assert [(r.existing, r.record["store_id"], r.product_lines()) for r in orders] == [
        (False, "S_SPA", [("P_A", 1, "")]),
        (False, "S_SPA", [("P_B", 2, "")]),
        (True, "S_SPA", [("P_A", 1, "")]),
    ]
    assert [r.index for r in orders] == [0, 1, 2]
    appts = required_appointments(task)
    assert [(a.kind, a.existing, a.shop_id, a.customer_count) for a in appts] == [
        ("book", False, "S_REST", 4),
        ("book", False, "S_CAFE", 2),  # filed as a reservation; the shop only takes bookings
        ("reservation", True, "S_SPA", 3),
    ]
    assert appointment_kind(task, EXPECTED[0]) is None


def test_store_is_attributed_to_the_shop_selling_the_products() -> None:
    wrong = _order("G1T009", "S_REST", [("P_GYM", 60, 1)], "paid")  # P_GYM is sold by S_GYM
    (req,) = instore_required_orders(make_task([wrong]))
    assert req.record["store_id"] == "S_GYM"


def test_latest_state_wins_for_a_repeated_appointment_id() -> None:
    first = _reservation("G1T005", "S_GYM", "2025-05-17 09:00:00", 1, "paid")
    later = {**first, "reservation_time": "2025-05-17 17:00:00"}
    task = make_task([first, later])
    (appt,) = required_appointments(task)
    assert appt.when is not None and appt.when.hour == 17


# ---- verdicts ----------------------------------------------------------------------------------


def test_the_honest_path_passes() -> None:
    reward, verdicts = grade(make_task(), honest)
    assert reward == 1.0, failed(verdicts)
    assert set(verdicts) == {
        "order[0]:G1T001",
        "order[1]:G1T001",
        "order[2]:O_OLD",
        "no_unrequested_cancellations",
        "no_unrequested_changes",
        "no_extra_orders",
        "book[0]:G1T002",
        "book[1]:G1T003",
        "reservation[2]:R_OLD",
        "no_unrequested_appointment_changes",
        "no_extra_appointments",
    }
    assert "matched book BKG1-001" in verdicts["book[0]:G1T002"][1]


def test_the_oracle_and_noop() -> None:
    task = make_task()

    async def run(agent: Any) -> float:
        env = InStoreEnvironment(task)
        sim = await run_episode(
            Episode(
                task_id=task.id,
                trial=0,
                seed=0,
                environment=env,
                agent=agent,
                user=ScriptedUser(["hi"]),
            )
        )
        return instore_state_evaluator().grade(task, sim).reward

    assert asyncio.run(run(OracleAgent(task, domain="instore"))) == 1.0
    assert asyncio.run(run(OracleAgent(task, domain="instore", distractor=True))) == 0.0
    assert asyncio.run(run(NoopAgent())) == 0.0
    names = [c.name for c in oracle_plan(task, domain="instore")]
    assert names.count("create_instore_product_order") == 2
    assert "instore_modify_reservation" in names and "pay_instore_book" in names


@pytest.mark.parametrize(
    ("skip", "criteria"),
    [
        ("P_B", {"order[1]:G1T001"}),
        ("cancel", {"order[2]:O_OLD"}),
        # the unpaid booking matches nothing, so it is also an extra live booking
        ("pay_book", {"book[0]:G1T002", "no_extra_appointments"}),
        ("modify", {"reservation[2]:R_OLD"}),
    ],
)
def test_each_missing_step_fails_its_criterion(skip: str, criteria: set[str]) -> None:
    async def step(env: InStoreEnvironment) -> None:
        await honest(env, skip=skip)

    reward, verdicts = grade(make_task(), step)
    assert reward == 0.0 and set(failed(verdicts)) == criteria


def test_a_single_order_with_both_products_cannot_exist_so_lines_are_graded() -> None:
    # Buying P_A twice instead of P_B: the P_B line is unmet and the extra order is reported.
    async def wrong(env: InStoreEnvironment) -> None:
        await honest(env, skip="P_B")
        order = await call(
            env,
            "create_instore_product_order",
            user_id=U,
            shop_id="S_SPA",
            product_id="P_C",
            quantity=2,
        )
        await call(env, "pay_instore_order", order_id=order["order_id"])

    _, verdicts = grade(make_task(), wrong)
    assert set(failed(verdicts)) == {"order[1]:G1T001", "no_extra_orders"}
    assert "products" in failed(verdicts)["order[1]:G1T001"]


@pytest.mark.parametrize(
    ("time", "count", "ok"),
    [
        ("2025-05-17 18:30:00", 4, True),
        ("2025-05-17 18:55:00", 4, True),  # within 30 minutes
        ("2025-05-17 19:15:00", 4, False),
        ("2025-05-18 18:30:00", 4, False),
        ("2025-05-17 18:30:00", 3, False),
    ],
)
def test_booking_time_tolerance_and_count(time: str, count: int, ok: bool) -> None:
    async def step(env: InStoreEnvironment) -> None:
        await honest(env, skip="pay_book")
        book = next(b for b in env.db.books.values() if b.shop_id == "S_REST")
        await call(env, "instore_cancel_book", book_id=book.book_id)
        new = await call(
            env, "instore_book", user_id=U, shop_id="S_REST", time=time, customer_count=count
        )
        await call(env, "pay_instore_book", book_id=new["book_id"])

    reward, verdicts = grade(make_task(), step)
    assert (reward == 1.0) is ok, failed(verdicts)


def test_extra_live_bookings_and_orders_fail_cancelled_ones_do_not() -> None:
    async def extra(env: InStoreEnvironment) -> None:
        await honest(env)
        await call(
            env, "instore_reservation", user_id=U, shop_id="S_GYM", time="2025-05-17 08:00:00"
        )

    reward, verdicts = grade(make_task(), extra)
    assert reward == 0.0 and set(failed(verdicts)) == {"no_extra_appointments"}

    async def undone(env: InStoreEnvironment) -> None:
        await honest(env)
        r = await call(
            env, "instore_reservation", user_id=U, shop_id="S_GYM", time="2025-05-17 08:00:00"
        )
        await call(env, "instore_cancel_reservation", reservation_id=r["reservation_id"])
        o = await call(
            env, "create_instore_product_order", user_id=U, shop_id="S_GYM", product_id="P_GYM"
        )
        await call(env, "instore_cancel_order", order_id=o["order_id"])

    assert grade(make_task(), undone)[0] == 1.0


@pytest.mark.parametrize("action", ["cancel", "modify", "cancel_order"])
def test_unrequested_changes_fail(action: str) -> None:
    async def step(env: InStoreEnvironment) -> None:
        await honest(env)
        if action == "cancel":
            await call(env, "instore_cancel_reservation", reservation_id="R_KEEP")
        elif action == "modify":
            await call(
                env,
                "instore_modify_reservation",
                reservation_id="R_KEEP",
                time="2025-05-18 10:00:00",
            )
        else:
            await call(env, "instore_cancel_order", order_id="O_KEEP")

    reward, verdicts = grade(make_task(), step)
    expected = (
        "no_unrequested_cancellations"
        if action == "cancel_order"
        else ("no_unrequested_appointment_changes")
    )
    assert reward == 0.0 and set(failed(verdicts)) == {expected}


def test_wrong_shop_and_wrong_kind_fail() -> None:
    async def elsewhere(env: InStoreEnvironment) -> None:
        await honest(env, skip="pay_book")
        book = next(b for b in env.db.books.values() if b.shop_id == "S_REST")
        await call(env, "instore_cancel_book", book_id=book.book_id)
        await call(
            env,
            "instore_book",
            user_id=U,
            shop_id="S_CAFE",
            time="2025-05-17 18:30:00",
            customer_count=4,
        )

    _, verdicts = grade(make_task(), elsewhere)
    assert "shop S_CAFE ≠ S_REST" in failed(verdicts)["book[0]:G1T002"]
    wanted = _reservation("G1T004", "S_GYM", "2025-05-17 09:00:00", 1, "unconsumed")

    async def booked(env: InStoreEnvironment) -> None:
        await call(env, "instore_book", user_id=U, shop_id="S_CAFE", time="2025-05-17 09:00:00")

    _, verdicts = grade(make_task([wanted]), booked)
    assert "expected a reservation" in failed(verdicts)["reservation[0]:G1T004"]


def test_an_expected_time_before_the_clock_is_not_checked() -> None:
    past = _book("G1T006", "S_CAFE", "2025-5-2 18:00:00", 2, 0, "paid")
    task = make_task([past])
    (appt,) = required_appointments(task)
    assert appt.when is None

    async def step(env: InStoreEnvironment) -> None:
        await call(
            env,
            "instore_book",
            user_id=U,
            shop_id="S_CAFE",
            time="2025-05-20 18:00:00",
            customer_count=2,
        )

    reward, verdicts = grade(task, step)
    # every criterion holds, but the time is not checked: the basis cannot decide (never 1)
    assert reward == 0.0 and not failed(verdicts)
    env = InStoreEnvironment(task)
    sim = Simulation(
        task_id="G1",
        trial=0,
        seed=0,
        termination=TerminationReason.AGENT_STOP,
        final_state=env.snapshot(),
    )
    descriptions = [v.description for v in instore_state_evaluator().grade(task, sim).criteria]
    assert any("(not checked)" in d for d in descriptions)


def test_abnormal_endings_score_zero() -> None:
    result = instore_state_evaluator().grade(
        make_task(),
        Simulation(task_id="G1", trial=0, seed=0, termination=TerminationReason.MAX_STEPS),
    )
    assert result.reward == 0.0 and "max_steps" in result.note


def test_grading_never_mutates_the_task() -> None:
    task = make_task()
    before = copy.deepcopy(task.model_dump(mode="json"))
    grade(task, honest)
    oracle_plan(task, domain="instore", distractor=True)
    assert task.model_dump(mode="json") == before


def test_each_requirement_takes_the_closest_appointment() -> None:
    wanted = [
        _reservation("G1T007", "S_GYM", "2025-05-17 09:00:00", 1, "paid"),
        _reservation("G1T008", "S_GYM", "2025-05-17 09:40:00", 1, "paid"),
    ]

    async def step(env: InStoreEnvironment) -> None:
        for time in ("2025-05-17 09:30:00", "2025-05-17 09:00:00"):
            await call(env, "instore_reservation", user_id=U, shop_id="S_GYM", time=time)

    reward, verdicts = grade(make_task(wanted), step)
    assert reward == 1.0, failed(verdicts)
    assert verdicts["reservation[0]:G1T007"][1] == "matched reservation RSG1-002"
