"""Synthetic worlds of our own for the closed-world grading tests, in English and Chinese.

One world per domain — delivery (two stores), in-store (a spa taking reservations, a
restaurant taking bookings), OTA (a hotel and a train on several days) — and a cross world
holding all three. Each has pre-existing records the tasks do not mention, so that every
unrequested change has something to change. Nothing here comes from the shared samples.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.agents.oracle import oracle_plan
from lifebench.vita.agents.plan import PlannedCall, find_key
from lifebench.vita.agents.replay import drive
from lifebench.vita.domains.registry import domain_spec, resolve
from lifebench.vita.task import VitaTask

Lang = Literal["en", "zh"]
CLOCK = "2025-06-04 11:00:00"  # a Wednesday
USER = "U1"
HOME = {
    "address": "Room 5, 8 Elm Road, Lakeside District, Hangzhou",
    "longitude": 120.0,
    "latitude": 30.0,
}
FAR = {
    "address": "Tower B, 99 Harbour Avenue, Riverside District, Hangzhou",
    "longitude": 120.08,
    "latitude": 30.0,
}

NOODLES = {"en": "Beef noodles", "zh": "牛肉面"}
TEA = {"en": "Lemon tea", "zh": "柠檬茶"}
MILD = {"en": "Mild Spicy", "zh": "微辣"}
HOT = {"en": "Extra Spicy", "zh": "特辣"}
ICED = {"en": "Iced", "zh": "去冰"}
WARM = {"en": "Warm", "zh": "常温"}


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


def _store(sid: str, name: str, lon: float, products: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "store_id": sid,
        "name": name,
        "score": 4.6,
        "location": {
            "address": f"{sid} Market Street, Hangzhou",
            "longitude": lon,
            "latitude": 30.0,
        },
        "tags": [],
        "products": products,
    }


def delivery_order(
    oid: str,
    store: str,
    lines: Sequence[tuple[str, int, str]],
    *,
    status: str = "paid",
    note: str = "",
    dispatch: str = "",
    delivery: str = "",
    location: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A delivery order record (pre-existing or expected)."""
    return {
        "order_id": oid,
        "order_type": "delivery",
        "user_id": USER,
        "store_id": store,
        "note": note,
        "location": dict(location or HOME),
        "dispatch_time": dispatch,
        "shipping_time": None,
        "delivery_time": delivery,
        "total_price": 10.0,
        "create_time": "2025-06-04 09:00:00",
        "update_time": "2025-06-04 09:00:00",
        "status": status,
        "products": [
            {"product_id": pid, "price": 10.0, "quantity": q, "attributes": a}
            for pid, q, a in lines
        ],
    }


def delivery_env(lang: Lang) -> dict[str, Any]:
    """Stores S1 (noodles with spice options, tea with ice options) and S2 (noodles, dumplings);
    pre-existing: O1 paid at S1, O2 unpaid at S2, O3 paid at S2 with a note."""
    return {
        "time": CLOCK,
        "user_id": USER,
        "location": [HOME, FAR],
        "weather": [],
        "user_historical_behaviors": {},
        "stores": {
            "S1": _store(
                "S1",
                "Lanzhou Noodle House" if lang == "en" else "兰州面馆",
                120.01,
                [
                    _product("P1", "S1", NOODLES[lang], 20, [MILD[lang], HOT[lang]]),
                    _product("P2", "S1", TEA[lang], 8, [ICED[lang], WARM[lang]]),
                ],
            ),
            "S2": _store(
                "S2",
                "Dumpling King" if lang == "en" else "饺子大王",
                120.02,
                [
                    _product("P3", "S2", NOODLES[lang], 22, []),
                    _product("P4", "S2", "Dumplings" if lang == "en" else "饺子", 15, []),
                ],
            ),
        },
        "orders": {
            "O1": delivery_order("O1", "S1", [("P1", 1, "")]),
            "O2": delivery_order("O2", "S2", [("P4", 2, "")], status="unpaid"),
            "O3": delivery_order(
                "O3", "S2", [("P3", 1, "")], note="No cilantro" if lang == "en" else "不要香菜"
            ),
        },
    }


def _shop(
    sid: str, name: str, products: list[tuple[str, str, float]], **flags: Any
) -> dict[str, Any]:
    return {
        "shop_id": sid,
        "shop_name": name,
        "score": 4.7,
        "location": {"address": f"{sid} Road, Hangzhou", "longitude": 120.17, "latitude": 30.27},
        "tags": [],
        "enable_book": False,
        "book_price": 0,
        "enable_reservation": False,
        "products": [
            {
                "product_id": pid,
                "name": pname,
                "shop_id": sid,
                "price": price,
                "quantity": 9,
                "tags": [],
            }
            for pid, pname, price in products
        ],
        **flags,
    }


def reservation(
    rid: str, shop: str, when: str, count: int, status: str = "unconsumed"
) -> dict[str, Any]:
    """A reservation record."""
    return {
        "reservation_id": rid,
        "shop_id": shop,
        "reservation_time": when,
        "update_time": "2025-06-04 09:00:00",
        "customer_id": USER,
        "customer_count": count,
        "status": status,
    }


def booking(bid: str, shop: str, when: str, count: int, status: str = "unpaid") -> dict[str, Any]:
    """A table booking record (the restaurant charges no fee)."""
    return {
        "book_id": bid,
        "shop_id": shop,
        "book_time": when,
        "update_time": "2025-06-04 09:00:00",
        "customer_id": USER,
        "customer_count": count,
        "book_price": 0,
        "status": status,
    }


def instore_env(lang: Lang) -> dict[str, Any]:
    """A spa and a gym (reservations) and a restaurant (bookings); pre-existing: a paid spa
    voucher and two gym reservations (R_KEEP, R_MOVE)."""
    spa = "Lotus Spa" if lang == "en" else "莲花水疗"
    rest = "Golden Hotpot" if lang == "en" else "金鼎火锅"
    return {
        "time": CLOCK,
        "user_id": USER,
        "location": [HOME],
        "weather": [],
        "user_historical_behaviors": {},
        "shops": {
            "SP": _shop(
                "SP",
                spa,
                [("V1", "Massage voucher" if lang == "en" else "按摩券", 100)],
                enable_reservation=True,
            ),
            "RS": _shop(
                "RS",
                rest,
                [("M1", "Hotpot set" if lang == "en" else "火锅套餐", 200)],
                enable_book=True,
            ),
            "GY": _shop(
                "GY",
                "Iron Gym" if lang == "en" else "钢铁健身房",
                [("G1", "Day pass" if lang == "en" else "日卡", 50)],
                enable_reservation=True,
            ),
        },
        "orders": {
            "IO1": {
                "order_id": "IO1",
                "order_type": "instore",
                "user_id": USER,
                "store_id": "SP",
                "note": "",
                "location": None,
                "dispatch_time": "",
                "shipping_time": None,
                "delivery_time": "",
                "total_price": 100,
                "create_time": "2025-06-01 09:00:00",
                "update_time": "2025-06-01 09:00:00",
                "status": "paid",
                "products": [{"product_id": "V1", "price": 100, "quantity": 1}],
            }
        },
        "reservations": {
            "R_KEEP": reservation("R_KEEP", "GY", "2025-06-06 10:00:00", 1),
            "R_MOVE": reservation("R_MOVE", "GY", "2025-06-07 10:00:00", 2),
        },
        "books": {},
    }


def _room(pid: str, kind: str, day: str, price: float) -> dict[str, Any]:
    return {"product_id": pid, "price": price, "quantity": 5, "date": day, "room_type": kind}


def _seat(pid: str, day: str, price: float) -> dict[str, Any]:
    return {
        "product_id": pid,
        "price": price,
        "quantity": 5,
        "date": day,
        "seat_type": "Second class",
    }


def ota_order(
    oid: str, otype: str, store: str, product: Mapping[str, Any], status: str, qty: int = 1
) -> dict[str, Any]:
    """A booking record with one dated line."""
    return {
        "order_id": oid,
        "order_type": otype,
        "user_id": USER,
        "store_id": store,
        "total_price": float(product["price"]) * qty,
        "create_time": "2025-06-01 09:00:00",
        "update_time": "2025-06-01 09:00:00",
        "status": status,
        "products": [{**product, "quantity": qty}],
    }


ROOMS = [_room(f"H1_K_06{d:02d}", "King Room", f"2025-06-{d:02d}", 500 + d) for d in (5, 6, 7)]
SEATS = [_seat(f"T1_2C_06{d:02d}", f"2025-06-{d:02d}", 140 + d) for d in (5, 6, 7, 8)]


def ota_env(lang: Lang) -> dict[str, Any]:
    """A hotel with king rooms on 5–7 June and a train with seats on 5–8 June; pre-existing: a
    paid train seat on the 5th and a paid room on the 6th."""
    place = {"address": "1 Lake Road, Hangzhou", "longitude": 120.15, "latitude": 30.25}
    return {
        "time": CLOCK,
        "user_id": USER,
        "location": [HOME],
        "weather": [],
        "user_historical_behaviors": {},
        "hotels": {
            "H1": {
                "hotel_id": "H1",
                "hotel_name": "West Lake Hotel" if lang == "en" else "西湖酒店",
                "score": 4.8,
                "star_rating": 5,
                "location": place,
                "tags": [],
                "products": copy.deepcopy(ROOMS),
            }
        },
        "trains": {
            "T1": {
                "train_id": "T1",
                "train_number": "G7301",
                "departure_city": "Hangzhou",
                "arrival_city": "Shanghai",
                "departure_station_location": place,
                "arrival_station_location": FAR,
                "departure_time": "08:00",
                "arrival_time": "09:00",
                "products": copy.deepcopy(SEATS),
            }
        },
        "orders": {
            "OT": ota_order("OT", "train", "T1", SEATS[0], "paid"),
            "OH": ota_order("OH", "hotel", "H1", ROOMS[1], "paid"),
        },
    }


def cross_env(lang: Lang) -> dict[str, Any]:
    """The three worlds in one (one orders table)."""
    env = delivery_env(lang)
    for other in (instore_env(lang), ota_env(lang)):
        for key, value in other.items():
            if key == "orders":
                env["orders"].update(value)
            elif key not in env:
                env[key] = value
    return env


def task(
    env: Mapping[str, Any],
    required: Sequence[Mapping[str, Any]],
    rubrics: Sequence[str] = (),
    *,
    task_id: str = "SYN",
    instructions: str = "x",
) -> VitaTask:
    """A task over ``env`` expecting ``required`` (one state), with ``rubrics``."""
    return VitaTask.model_validate(
        {
            "id": task_id,
            "environment": copy.deepcopy(dict(env)),
            "instructions": instructions,
            "evaluation_criteria": {
                "expected_states": [
                    {
                        "required_orders": [dict(r) for r in required],
                        "state_rubrics": list(rubrics) or ["r"],
                    }
                ],
                "overall_rubrics": list(rubrics) or ["r"],
            },
        }
    )


def run_plan(
    task_: VitaTask, domain: str, plan: Sequence[PlannedCall]
) -> tuple[dict[str, Any], int]:
    """The final state after ``plan`` runs through the tools, and the number of refused calls."""
    environment = resolve(domain_spec(domain).environment)(task_, language="en")
    results: list[str] = []
    errors = 0
    for step in plan:
        filled = None
        if step.fill:
            filled = next(
                (v for text in reversed(results) if (v := find_key(text, step.fill))), None
            )
        outcome = drive(environment.tools.run(step.name, step.arguments(filled)))
        if outcome.error:
            errors += 1
        else:
            results.append(outcome.content)
    snapshot: dict[str, Any] = environment.snapshot()
    return snapshot, errors


def oracle_state(task_: VitaTask, domain: str) -> dict[str, Any]:
    """The final state the oracle's plan reaches (asserting no call is refused)."""
    state, errors = run_plan(task_, domain, oracle_plan(task_, domain=domain))
    assert errors == 0, task_.id
    return state


def grade_state(task_: VitaTask, domain: str, state: Mapping[str, Any]) -> Any:
    """The domain's state result for a final state."""
    sim = Simulation(
        task_id=task_.id,
        trial=0,
        seed=0,
        termination=TerminationReason.AGENT_STOP,
        final_state=dict(state),
    )
    return resolve(domain_spec(domain).evaluator)().grade(task_, sim)
