"""Small synthetic VitaBench tasks and final states for grading tests (no shared data needed)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from lifebench.evaluation import BasisResult
from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.grading.state import delivery_state_evaluator
from lifebench.vita.task import VitaTask

NOW = "2025-06-01 11:00:00"
USER = "U1"
HOME = {
    "address": "Room 5, 8 Elm Road, Lakeside District, Hangzhou",
    "longitude": 120.0,
    "latitude": 30.0,
}
OFFICE = {
    "address": "Tower B, 99 Harbour Avenue, Riverside District, Hangzhou",
    "longitude": 120.05,
    "latitude": 30.0,
}


def _product(pid: str, store: str, name: str, price: float, attrs: list[str]) -> dict[str, Any]:
    return {
        "product_id": pid,
        "name": name,
        "store_id": store,
        "store_name": f"Store {store}",
        "price": price,
        "tags": [],
        "attributes": attrs,
    }


def _store(sid: str, lon: float, products: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "store_id": sid,
        "name": f"Store {sid}",
        "score": 4.5,
        "location": {
            "address": f"{sid} Market Street, Hangzhou",
            "longitude": lon,
            "latitude": 30.0,
        },
        "tags": [],
        "products": products,
    }


def order(
    oid: str,
    store: str,
    lines: list[tuple[str, int, str]],
    *,
    status: str = "paid",
    note: str = "",
    location: Mapping[str, Any] | None = None,
    delivery_time: str = "",
    dispatch_time: str = NOW,
    order_type: str = "delivery",
) -> dict[str, Any]:
    """An order record (expected or final) with (product, quantity, attribute) lines,
    dispatched at the task clock unless told otherwise."""
    return {
        "order_id": oid,
        "order_type": order_type,
        "user_id": USER,
        "store_id": store,
        "note": note,
        "location": dict(location) if location is not None else None,
        "dispatch_time": dispatch_time,
        "shipping_time": None,
        "delivery_time": delivery_time,
        "total_price": 10.0 * sum(q for _, q, _ in lines),
        "create_time": NOW,
        "update_time": NOW,
        "status": status,
        "products": [
            {"product_id": pid, "price": 10.0, "quantity": qty, "attributes": attr}
            for pid, qty, attr in lines
        ],
    }


#: The lines the expected new order asks for: one noodle bowl mild, two teas (one iced, one at
#: room temperature — the same product with two different attributes).
WANT_LINES = [("P1", 1, "Mild Spicy"), ("P2", 1, "Iced"), ("P2", 1, "Room Temperature")]


def delivery_task(
    *,
    expected: list[dict[str, Any]] | None = None,
    orders: dict[str, dict[str, Any]] | None = None,
    rubrics: list[str] | None = None,
) -> VitaTask:
    """A delivery task: stores S1 (noodles, tea, dumplings, spring rolls) and S2 (noodles,
    fried rice, two teas), a
    pre-existing paid order O1 at S1 and an unrelated paid order O2 at S2. By default the task
    asks for the new order T1 (:data:`WANT_LINES`, note, home, delivery 12:00) and the
    cancellation of O1."""
    stores = {
        "S1": _store(
            "S1",
            120.01,
            [
                _product("P1", "S1", "Beef noodles", 20, ["Mild Spicy", "Extra Spicy"]),
                _product("P2", "S1", "Tea", 8, ["Iced", "Room Temperature"]),
                _product("P3", "S1", "Dumplings", 15, []),
                _product("P6", "S1", "Spring rolls", 9, []),
            ],
        ),
        "S2": _store(
            "S2",
            120.02,
            [
                _product("P4", "S2", "Beef noodles", 22, ["Mild Spicy", "Extra Spicy"]),
                _product("P5", "S2", "Fried rice", 18, []),
                _product("P7", "S2", "Green tea", 7, ["Iced", "Hot"]),
                _product("P8", "S2", "Lemon tea", 7, []),
            ],
        ),
    }
    initial = (
        orders
        if orders is not None
        else {
            "O1": order("O1", "S1", [("P3", 1, "")], location=HOME),
            "O2": order("O2", "S2", [("P5", 1, "")], location=HOME),
        }
    )
    if expected is None:
        expected = [
            order(
                "T1",
                "S1",
                WANT_LINES,
                note="No green onions",
                location=HOME,
                delivery_time="2025-06-01 12:00:00",
            ),
            {**copy.deepcopy(initial.get("O1") or {}), "status": "cancelled"},
        ]
    raw = {
        "id": "SYN1",
        "domain": "delivery",
        "instructions": "Order noodles and two teas; cancel the dumplings.",
        "environment": {
            "time": NOW,
            "user_id": USER,
            "location": [HOME, OFFICE],
            "stores": stores,
            "orders": initial,
            "weather": [],
            "user_historical_behaviors": {},
        },
        "evaluation_criteria": {
            "expected_states": [
                {
                    "required_orders": expected,
                    "optional_orders": [],
                    "state_rubrics": rubrics or ["r"],
                }
            ],
            "overall_rubrics": rubrics or ["r"],
        },
    }
    return VitaTask.model_validate(raw)


def right_order(oid: str = "OTSYN1-001") -> dict[str, Any]:
    """The created order that satisfies T1 exactly (as the tools store it)."""
    made = order(
        oid,
        "S1",
        WANT_LINES,
        note="No green onions",
        location=HOME,
        delivery_time="2025-06-01 12:05:00",
        dispatch_time="2025-06-01 11:30:00",
    )
    made["shipping_time"] = 35.0
    return made


def final_state(
    task: VitaTask, *changed: dict[str, Any], cancel: tuple[str, ...] = ("O1",)
) -> dict[str, Any]:
    """The initial orders (with ``cancel`` cancelled) plus the ``changed`` / created orders."""
    orders = copy.deepcopy(task.environment.get("orders") or {})
    for oid in cancel:
        orders[oid]["status"] = "cancelled"
    for record in changed:
        orders[record["order_id"]] = record
    return {"orders": orders}


def simulation(
    final: dict[str, Any], termination: TerminationReason = TerminationReason.AGENT_STOP
) -> Simulation:
    """A finished episode whose final state is ``final``."""
    return Simulation(task_id="SYN1", trial=0, seed=0, termination=termination, final_state=final)


def grade(task: VitaTask, final: dict[str, Any], *, complete: bool = True) -> BasisResult:
    """The delivery state evaluator's result. ``final`` lists the orders the episode touched
    or made; with ``complete`` every other pre-existing order is added as it was (an episode's
    snapshot always holds them)."""
    if complete:
        orders = copy.deepcopy(task.environment.get("orders") or {})
        orders.update(final.get("orders") or {})
        final = {**final, "orders": orders}
    return delivery_state_evaluator().grade(task, simulation(final))


def failed(result: BasisResult) -> list[str]:
    """Ids of the unmet criteria."""
    return [c.id for c in result.criteria if not c.met]
