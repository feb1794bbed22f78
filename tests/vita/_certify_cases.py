"""Synthetic tasks for the mutation guards of vita/certify/generate.py and perturb.py (en and
zh), and what a generated near miss or variation changes in the oracle's plan, as short lines of
text."""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Sequence
from typing import Any

from _synthetic import (
    FAR,
    HOME,
    ICED,
    MILD,
    ROOMS,
    SEATS,
    Lang,
    _room,
    _seat,
    booking,
    delivery_env,
    delivery_order,
    instore_env,
    ota_env,
    ota_order,
    reservation,
    task,
)
from _vita_builders import delivery_task
from test_closed_world import SCENARIOS
from test_instore_grading import make_task as instore_task

from lifebench.vita.agents.plan import PlannedCall
from lifebench.vita.task import VitaTask


def _value(value: Any) -> str:
    return "-" if value is _ABSENT else repr(value)


_ABSENT = object()


def show(call: PlannedCall) -> str:
    """``name(arg=value, ...)``, with ``<field`` when an id is filled in from a result."""
    args = ", ".join(f"{k}={v!r}" for k, v in call.args.items())
    return f"{call.name}({args})" + (f"<{call.fill}" if call.fill else "")


def changes(oracle: Sequence[PlannedCall], plan: Sequence[PlannedCall]) -> list[str]:
    """Every difference: ``@i name: arg old -> new`` for a call changed in place (same name),
    ``-i name`` for a call left out, ``+i call`` for a call put in at position ``i``."""
    out: list[str] = []
    before, after = [show(c) for c in oracle], [show(c) for c in plan]
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and a1 - a0 == b1 - b0:
            pairs = list(zip(oracle[a0:a1], plan[b0:b1], strict=True))
            if all(x.name == y.name and x.fill == y.fill for x, y in pairs):
                for k, (x, y) in enumerate(pairs):
                    keys = [*x.args, *(k2 for k2 in y.args if k2 not in x.args)]
                    diff = [
                        f"{key} {_value(x.args.get(key, _ABSENT))} -> "
                        f"{_value(y.args.get(key, _ABSENT))}"
                        for key in keys
                        if x.args.get(key, _ABSENT) != y.args.get(key, _ABSENT)
                    ]
                    out.append(f"@{a0 + k} {x.name}: " + "; ".join(diff))
                continue
        out += [f"-{a0 + k} {oracle[a0 + k].name}" for k in range(a1 - a0)]
        out += [f"+{b0 + k} {after[b0 + k]}" for k in range(b1 - b0)]
    return out


# ---- tasks beyond the closed-world scenarios ---------------------------------------------------


def delivery_changes(lang: Lang) -> VitaTask:
    """O3's note changed (a note change of a pre-existing order), O2 paid; O1 not mentioned."""
    env = delivery_env(lang)
    note = "No peanuts" if lang == "en" else "不要花生"
    o3 = {**env["orders"]["O3"], "note": note}
    o2 = {**env["orders"]["O2"], "status": "paid"}
    return task(env, [o3, o2], task_id=f"SYN-DC-{lang}")


def delivery_asap(lang: Lang) -> VitaTask:
    """A noodle order whose stated window (before 11:20 today, 20 minutes from the clock) no
    arrival can meet; O1 is consumed (not cancellable), O3 is gone."""
    env = delivery_env(lang)
    env["orders"]["O1"]["status"] = "consumed"
    del env["orders"]["O3"]
    noodles = delivery_order("T1", "S1", [("P1", 1, "")], status="paid")
    rubric = (
        "The noodle order should be delivered before 11:20 today"
        if lang == "en"
        else "牛肉面订单应在今天11点20分前送达"
    )
    return task(env, [noodles], [rubric], task_id=f"SYN-DA-{lang}")


def instore_edges(lang: Lang) -> VitaTask:
    """A table booked; not mentioned: a booking, a cancelled and a consumed reservation, one
    without a time and one whose party size is not a number."""
    env = instore_env(lang)
    env["books"] = {"B_KEEP": booking("B_KEEP", "RS", "2025-06-06 12:00:00", 2)}
    reservations = env["reservations"]
    reservations["R_GONE"] = reservation("R_GONE", "GY", "2025-06-06 11:00:00", 1, "cancelled")
    reservations["R_USED"] = reservation("R_USED", "GY", "2025-06-03 11:00:00", 1, "consumed")
    reservations["R_KEEP"]["reservation_time"] = ""
    reservations["R_MOVE"]["customer_count"] = "2"
    table = booking("N2", "RS", "2025-06-06 19:00:00", 4)
    return task(env, [table], task_id=f"SYN-IE-{lang}")


def instore_changes(lang: Lang) -> VitaTask:
    """Only changes, no new record: the voucher IO1 cancelled and R_MOVE moved a day; R_KEEP is
    not mentioned (the only unmentioned record is a reservation)."""
    env = instore_env(lang)
    cancelled = {**env["orders"]["IO1"], "status": "cancelled"}
    moved = reservation("R_MOVE", "GY", "2025-06-08 10:00:00", 2)
    return task(env, [cancelled, moved], task_id=f"SYN-IC-{lang}")


def ota_more(lang: Lang) -> VitaTask:
    """Two hotels and two trains: a room at H1 on the 7th and two seats on T1 on the 6th; the
    train seat OT and the room OH are not mentioned."""
    env = ota_env(lang)
    h2 = copy.deepcopy(env["hotels"]["H1"])
    h2["hotel_id"] = "H2"
    h2["hotel_name"] = "Lakeview Inn" if lang == "en" else "湖景客栈"
    h2["products"] = [
        _room(f"H2_K_06{d:02d}", "King Room", f"2025-06-{d:02d}", 300 + d) for d in (5, 6, 7)
    ]
    env["hotels"]["H2"] = h2
    t2 = copy.deepcopy(env["trains"]["T1"])
    t2["train_id"] = "T2"
    t2["train_number"] = "G7305"
    t2["products"] = [_seat(f"T2_2C_06{d:02d}", f"2025-06-{d:02d}", 120 + d) for d in (5, 6, 7)]
    env["trains"]["T2"] = t2
    room = ota_order("N1", "hotel", "H1", ROOMS[2], "paid")
    seats = ota_order("N2", "train", "T1", SEATS[1], "paid", qty=2)
    return task(env, [room, seats], task_id=f"SYN-OM-{lang}")


def delivery_odd(lang: Lang) -> VitaTask:
    """Tea (one ice option only) and noodles with a free-text wish (no options offered), a note,
    to the user's home; the user also knows a place 0.6 km away (within three times the address
    tolerance), one 1 km away and one 7.7 km away."""
    env = delivery_env(lang)
    env["stores"]["S1"]["products"][0]["attributes"] = []
    env["stores"]["S1"]["products"][1]["attributes"] = [ICED[lang]]
    near = {**HOME, "address": "3 Pine Lane, Lakeside District, Hangzhou", "longitude": 120.006}
    mid = {**HOME, "address": "7 Birch Street, Lakeside District, Hangzhou", "longitude": 120.0105}
    env["location"] = [HOME, near, mid, FAR]
    wish = "Less salt" if lang == "en" else "少盐"
    lines = [("P2", 1, ICED[lang]), ("P1", 1, wish)]
    # a note in Latin letters in both languages: negated in the task's language
    order = delivery_order("T1", "S1", lines, status="paid", note="Leave it at the door")
    return task(env, [order], task_id=f"SYN-DO-{lang}")


def ota_cheaper(lang: Lang) -> VitaTask:
    """Seats cheaper by the day: OT (paid, the 5th) moved to the 7th, and one seat bought on the
    8th (one left in stock); OH is not mentioned."""
    env = ota_env(lang)
    prices = {5: 145, 6: 130, 7: 120, 8: 110}
    for seat in env["trains"]["T1"]["products"]:
        seat["price"] = prices[int(seat["date"][-2:])]
    env["trains"]["T1"]["products"][3]["quantity"] = 1
    env["orders"]["OT"]["total_price"] = 145.0
    env["orders"]["OT"]["products"][0]["price"] = 145
    moved = ota_order("OT", "train", "T1", {**SEATS[2], "price": 120}, "paid")
    moved["total_price"] = 145.0
    seat = ota_order("N1", "train", "T1", {**SEATS[3], "price": 110}, "paid")
    return task(env, [moved, seat], task_id=f"SYN-OC-{lang}")


def delivery_day(lang: Lang) -> VitaTask:
    """One unpaid noodle order whose day only the rubrics state (Friday, no clock time): the
    plan is that one call."""
    env = delivery_env(lang)
    # S2 lists its dumplings before its noodles: the other store's noodles are found by name
    env["stores"]["S2"]["products"].reverse()
    noodles = delivery_order("T1", "S1", [("P1", 1, MILD[lang])], status="unpaid")
    rubric = "The noodles should be delivered on Friday" if lang == "en" else "牛肉面应在周五送达"
    return task(env, [noodles], [rubric], task_id=f"SYN-DD-{lang}")


def delivery_edges(lang: Lang) -> VitaTask:
    """Three orders today: noodles before 11:31 (the earliest arrival: 31 minutes from the clock),
    to a home whose recorded point lies 3 km off (the tools place the address, not the record);
    tea after 14:00 (a window without an end); dumplings around 12:18 (a window opening exactly
    when a dispatch ten minutes early would leave at the clock)."""
    env = delivery_env(lang)
    drifted = {**HOME, "longitude": 120.03}
    noodles = delivery_order("T1", "S1", [("P1", 1, MILD[lang])], location=drifted)
    tea = delivery_order("T2", "S1", [("P2", 1, ICED[lang])])
    dumplings = delivery_order("T3", "S2", [("P4", 1, "")])
    rubrics = {
        "en": [
            "The noodle order should be delivered before 11:31 today",
            "The tea order should be delivered after 14:00",
            "The dumpling order should be delivered around 12:18 today",
        ],
        "zh": [
            "牛肉面订单应在今天11点31分前送达",
            "柠檬茶订单应在14点以后送达",
            "饺子订单应在今天12点18分左右送达",
        ],
    }[lang]
    return task(env, [noodles, tea, dumplings], rubrics, task_id=f"SYN-DE-{lang}")


def ota_flights(lang: Lang) -> VitaTask:
    """A flight with economy seats on 5–8 June: the seat OF1 (the 5th) moved to the 7th, one
    seat bought on the 8th; not
    mentioned: OF2 (a paid seat on the 6th), OX (a cancelled train seat) and the ota world's OT
    and OH."""
    env = ota_env(lang)
    seats = [
        {
            "product_id": f"F1_Y_06{d:02d}",
            "price": 600 + d,
            "quantity": 5,
            "date": f"2025-06-{d:02d}",
            "seat_type": "Economy" if lang == "en" else "经济舱",
        }
        for d in (5, 6, 7, 8)
    ]
    env["flights"] = {
        "F1": {
            "flight_id": "F1",
            "flight_number": "MU5101",
            "departure_city": "Hangzhou",
            "arrival_city": "Beijing",
            "departure_time": "08:00",
            "arrival_time": "10:00",
            "products": seats,
        }
    }
    env["orders"]["OF1"] = ota_order("OF1", "flight", "F1", seats[0], "paid")
    env["orders"]["OF2"] = ota_order("OF2", "flight", "F1", seats[1], "paid")
    env["orders"]["OX"] = ota_order("OX", "train", "T1", SEATS[3], "cancelled")
    moved = ota_order("OF1", "flight", "F1", seats[2], "paid")
    bought = ota_order("N1", "flight", "F1", seats[3], "paid")
    return task(env, [moved, bought], task_id=f"SYN-OF-{lang}")


EXTRA: dict[str, tuple[Callable[[Lang], VitaTask], str]] = {
    "ota_flights": (ota_flights, "ota"),
    "delivery_day": (delivery_day, "delivery"),
    "delivery_edges": (delivery_edges, "delivery"),
    "delivery_odd": (delivery_odd, "delivery"),
    "ota_cheaper": (ota_cheaper, "ota"),
    "delivery_changes": (delivery_changes, "delivery"),
    "delivery_asap": (delivery_asap, "delivery"),
    "instore_edges": (instore_edges, "instore"),
    "instore_changes": (instore_changes, "instore"),
    "ota_more": (ota_more, "ota"),
}


def cases() -> dict[str, tuple[VitaTask, str, Lang]]:
    """Every task of the guards by name: (task, domain, language)."""
    out: dict[str, tuple[VitaTask, str, Lang]] = {}
    for lang in ("en", "zh"):
        for name, build in SCENARIOS.items():
            out[f"{name}-{lang}"] = (build(lang), name, lang)
        for name, (build_extra, domain) in EXTRA.items():
            out[f"{name}-{lang}"] = (build_extra(lang), domain, lang)
    out["builders-delivery"] = (delivery_task(), "delivery", "en")
    out["instore_task"] = (instore_task(), "instore", "en")
    return out
