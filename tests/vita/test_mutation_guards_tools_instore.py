"""The in-store tools (vita/domains/instore.py) pinned by the exact refusal the agent reads when
it gives one kind of record's id to another kind's tool: both kinds named, and the right tools."""

from __future__ import annotations

import json

import pytest
from test_instore_tools import make_environment_dict, make_task

from lifebench.vita.domains.instore import InStoreEnvironment


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        (
            "pay_instore_order",
            {"order_id": "B_OLD"},
            "'B_OLD' is a table booking, not an in-store order; use pay_instore_book / "
            "instore_cancel_book.",
        ),
        (
            "pay_instore_order",
            {"order_id": "R_OLD"},
            "'R_OLD' is a reservation, not an in-store order; use instore_modify_reservation / "
            "instore_cancel_reservation.",
        ),
        (
            "pay_instore_book",
            {"book_id": "O_OLD"},
            "'O_OLD' is an in-store order, not a table booking; use pay_instore_order / "
            "instore_cancel_order.",
        ),
    ],
    ids=["booking-as-order", "reservation-as-order", "order-as-booking"],
)
async def test_another_kinds_id_is_refused_naming_both_kinds(
    tool: str, arguments: dict[str, str], message: str
) -> None:
    env = InStoreEnvironment(make_task())
    outcome = await env.tools.run(tool, arguments)
    assert (outcome.error, outcome.error_kind, outcome.content) == (True, "precondition", message)


async def test_a_consumed_booking_cannot_be_cancelled_and_a_cancel_answers_exactly() -> None:
    data = make_environment_dict()
    data["books"]["B_OLD"]["status"] = "consumed"
    env = InStoreEnvironment(make_task(data))
    refused = await env.tools.run("instore_cancel_book", {"book_id": "B_OLD"})
    assert (refused.error, refused.error_kind, refused.content) == (
        True,
        "precondition",
        "Booking 'B_OLD' is consumed and cannot be cancelled.",
    )
    assert env.db.books["B_OLD"].status == "consumed"
    env = InStoreEnvironment(make_task())
    cancelled = await env.tools.run("instore_cancel_book", {"book_id": "B_OLD"})
    assert json.loads(cancelled.content) == {
        "message": "Booking B_OLD is cancelled.",
        "book": {
            "book_id": "B_OLD",
            "shop_id": "S_REST",
            "book_time": "2025-05-17 18:00:00",
            "update_time": "2025-05-16 10:00:00",
            "customer_id": "U1",
            "customer_count": 2,
            "book_price": 50.0,
            "status": "cancelled",
        },
    }


async def test_a_reservation_change_refused_or_answered_exactly() -> None:
    env = InStoreEnvironment(make_task())
    run = env.tools.run
    done = await run(
        "instore_modify_reservation", {"reservation_id": "R_DONE", "time": "2025-05-18 09:00:00"}
    )
    assert (done.error, done.content) == (
        True,
        "Reservation 'R_DONE' is consumed and cannot be modified.",
    )
    bad = await run(
        "instore_modify_reservation", {"reservation_id": "R_OLD", "time": "2025-05-18 09:00"}
    )
    assert (bad.error, bad.content) == (
        True,
        "time must be in 'YYYY-MM-DD HH:MM:SS' format, got '2025-05-18 09:00'.",
    )
    moved = await run(
        "instore_modify_reservation", {"reservation_id": "R_OLD", "time": "2025-05-18 09:00:00"}
    )
    assert json.loads(moved.content) == {
        "message": "Reservation R_OLD is modified.",
        "reservation": {
            "reservation_id": "R_OLD",
            "shop_id": "S_SPA",
            "reservation_time": "2025-05-18 09:00:00",
            "update_time": "2025-05-16 10:00:00",
            "customer_id": "U1",
            "customer_count": 2,
            "status": "unconsumed",
        },
    }
