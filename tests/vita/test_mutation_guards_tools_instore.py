"""The in-store tools (vita/domains/instore.py) pinned by the exact refusal the agent reads when
it gives one kind of record's id to another kind's tool: both kinds named, and the right tools."""

from __future__ import annotations

import pytest
from test_instore_tools import make_task

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
