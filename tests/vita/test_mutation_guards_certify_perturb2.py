"""The choices certify's near-miss perturbations make (vita/certify/perturb.py), pinned on
synthetic tasks of our own (English and Chinese) that reach the rules the first guards' tasks
never reach: which other room, seat, date, product, shop or address a near miss takes; what
stock, what clock and what price decide it; and what extra record is added when the plan
creates nothing.

For every task: each perturbation's effect on the oracle's plan (or None), every near miss and
variation certify generates (field class, kind, target, the exact change), and certify's verdict
(every near miss rejected, every variation accepted, no tool error). The tasks:

* ``ota_rooms`` — rooms listed in an order that tests every filter of another-room/another-date
  in turn: a room without a date, one before the clock, the twin the task also books (never
  taken for the extra record), a suite with one room left on the booked day, a second king
  on the booked day, a twin on another day, a king with none left, a king today with one left;
  a second hotel for the provider near miss;
* ``ota_seats`` — seat ids shared by every date of a train (the tools take the date apart), a
  date change whose near miss must avoid the requested day, and unmentioned orders whose date
  change costs more (two first-class seats), the same (none due), something after nothing was
  paid (unpaid; a ticket paid with total 0) or whose seat the train no longer lists (no date
  change near miss);
* ``ota_cancel`` / ``instore_cancel`` — plans that create nothing: the extra record comes from
  the task's own tables (a bookable, unasked product with stock);
* ``instore_stock`` — stock decides quantity, product and shop near misses;
* ``instore_untimed`` — an appointment booked at the clock (no time stated) is not moved a day
  for another one at the same shop;
* ``delivery_two`` / ``delivery_alone`` / ``delivery_unknown`` — which address a wrong-address
  near miss and an extra order take (the expected record of the call, a store's place when
  the user knows one place only, the user's first place when the oracle's address is unknown).
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from typing import Any

import pytest
from _certify_cases import changes
from _synthetic import (
    FAR,
    HOME,
    HOT,
    MILD,
    SEATS,
    Lang,
    delivery_env,
    delivery_order,
    instore_env,
    ota_env,
    ota_order,
    reservation,
    task,
)

from lifebench.vita.agents.oracle import oracle_plan
from lifebench.vita.certify import PlanContext, certify_task, near_misses, perturb, variations
from lifebench.vita.task import VitaTask

# ---- OTA -----------------------------------------------------------------------------------------


def _room(pid: str, kind: str, day: str, qty: int, price: float = 500) -> dict[str, Any]:
    return {"product_id": pid, "price": price, "quantity": qty, "date": day, "room_type": kind}


def ota_rooms(lang: Lang) -> VitaTask:
    """A king (N1) and a twin (N2) at H1 on the 6th; not mentioned: OT and OH."""
    env = ota_env(lang)
    king, twin, suite = (
        ("King Room", "Twin Room", "Suite") if lang == "en" else ("大床房", "双床房", "套房")
    )
    rooms = [
        _room("H1_K_NODAY", king, "", 5),
        _room("H1_K_0603", king, "2025-06-03", 5),
        _room("H1_T_0606", twin, "2025-06-06", 5, 450),
        _room("H1_S_0606", suite, "2025-06-06", 1, 900),
        _room("H1_KB_0606", king, "2025-06-06", 5, 520),
        _room("H1_T_0607", twin, "2025-06-07", 5, 450),
        _room("H1_K_0608", king, "2025-06-08", 0),
        _room("H1_K_0604", king, "2025-06-04", 1),
        _room("H1_K_0606", king, "2025-06-06", 5),
        _room("H1_K_0607", king, "2025-06-07", 5),
    ]
    env["hotels"]["H1"]["products"] = rooms
    h2 = copy.deepcopy(env["hotels"]["H1"])
    h2.update(hotel_id="H2", hotel_name="Lakeview Inn" if lang == "en" else "湖景客栈")
    h2["products"] = [
        _room("H2_K_0605", king, "2025-06-05", 5, 300),
        _room("H2_K_0606", king, "2025-06-06", 5, 300),
    ]
    env["hotels"]["H2"] = h2
    env["orders"]["OH"]["products"][0]["room_type"] = king
    n1 = ota_order("N1", "hotel", "H1", rooms[8], "paid")
    n2 = ota_order("N2", "hotel", "H1", rooms[2], "paid")
    return task(env, [n1, n2], task_id=f"SYN-OR-{lang}")


def _seat(pid: str, kind: str, day: str, price: float, qty: int = 5) -> dict[str, Any]:
    return {"product_id": pid, "price": price, "quantity": qty, "date": day, "seat_type": kind}


def ota_seats(lang: Lang) -> VitaTask:
    """OT (a paid second-class seat on the 5th) moved to the 6th, one second-class seat bought
    on the 7th (two left); seat ids are the same on every date. Not mentioned: OU (unpaid,
    second class, the 5th: the tools move only paid orders), OP (two paid first-class seats on
    the 5th), OQ (a standing ticket paid with total 0), OK (a free child ticket: nothing due
    for another free one), OL (a first-class seat whose line states no quantity: one), OG (a
    seat the train no longer lists), OZ (a seat on a train the task does not list), OE (an
    order without lines), OH."""
    env = ota_env(lang)
    second, first, standing, child = (
        ("Second class", "First class", "Standing", "Child")
        if lang == "en"
        else ("二等座", "一等座", "无座", "儿童票")
    )
    seats = [
        _seat("T1_1C", first, "2025-06-05", 300),
        _seat("T1_2C", second, "2025-06-05", 145),
        _seat("T1_1C", first, "2025-06-06", 320, 1),
        _seat("T1_2C", second, "2025-06-06", 140),
        _seat("T1_1C", first, "2025-06-07", 310),
        _seat("T1_2C", second, "2025-06-07", 145, 2),
        _seat("T1_ST", standing, "2025-06-05", 1.0),
        _seat("T1_ST", standing, "2025-06-06", 1.0),
        _seat("T1_CH", child, "2025-06-05", 0),
        _seat("T1_CH", child, "2025-06-06", 0),
    ]
    env["trains"]["T1"]["products"] = seats
    orders = env["orders"]
    orders["OT"] = ota_order("OT", "train", "T1", seats[1], "paid")
    orders["OU"] = ota_order("OU", "train", "T1", seats[1], "unpaid")
    orders["OP"] = ota_order("OP", "train", "T1", seats[0], "paid", qty=2)
    orders["OQ"] = {**ota_order("OQ", "train", "T1", seats[6], "paid"), "total_price": 0}
    gone = _seat("T1_GONE", second, "2025-06-05", 99)
    orders["OG"] = ota_order("OG", "train", "T1", gone, "paid")
    orders["OZ"] = ota_order("OZ", "train", "T9", seats[1], "paid")
    orders["OK"] = {**ota_order("OK", "train", "T1", seats[8], "paid"), "total_price": 0}
    orders["OE"] = {**ota_order("OE", "train", "T1", seats[1], "paid"), "products": []}
    orders["OL"] = ota_order("OL", "train", "T1", seats[0], "paid")
    del orders["OL"]["products"][0]["quantity"]
    moved = {**ota_order("OT", "train", "T1", seats[3], "paid"), "total_price": 145.0}
    bought = ota_order("N1", "train", "T1", seats[5], "paid")
    return task(env, [moved, bought], task_id=f"SYN-OS-{lang}")


def ota_cancel(lang: Lang) -> VitaTask:
    """Only OT cancelled, in a world without hotels; the train lists a seat on the 3rd (before
    the clock), OT's own seat on the 5th, one on the 6th with one left, one on the 7th."""
    env = ota_env(lang)
    env["hotels"] = {}
    del env["orders"]["OH"]

    def seat(day: int, qty: int) -> dict[str, Any]:
        return {**SEATS[0], "product_id": f"T1_2C_06{day:02d}", "date": f"2025-06-{day:02d}"} | {
            "quantity": qty
        }

    env["trains"]["T1"]["products"] = [seat(3, 5), seat(5, 5), seat(6, 1), seat(7, 5)]
    cancelled = ota_order("OT", "train", "T1", SEATS[0], "cancelled")
    return task(env, [cancelled], task_id=f"SYN-OX-{lang}")


# ---- in-store -------------------------------------------------------------------------------------


def _stock(env: dict[str, Any], sid: str, items: list[tuple[str, str, int]]) -> None:
    env["shops"][sid]["products"] = [
        {"product_id": pid, "name": name, "shop_id": sid, "price": 100, "quantity": qty, "tags": []}
        for pid, name, qty in items
    ]


def instore_stock(lang: Lang) -> VitaTask:
    """At SQ one voucher (Q1, one left) and one herbal tea (Q3, two left); at SP two vouchers
    (V1). SP also lists a sold-out spa day, one with one left and one with five; SQ a foot bath
    with one left, the voucher with one left and with five. Not mentioned: IO1, R_KEEP,
    R_MOVE."""
    env = instore_env(lang)
    voucher, day, bath, tea = (
        ("Massage voucher", "Spa day", "Foot bath", "Herbal tea")
        if lang == "en"
        else ("按摩券", "水疗日", "足浴", "花草茶")
    )
    sq = copy.deepcopy(env["shops"]["SP"])
    sq.update(shop_id="SQ", shop_name="Quiet Spa" if lang == "en" else "静心水疗")
    env["shops"] = {"SP": env["shops"]["SP"], "SQ": sq, "RS": env["shops"]["RS"]}
    _stock(env, "SP", [("V1", voucher, 9), ("V0", day, 0), ("V2", day, 1), ("V3", day, 5)])
    _stock(env, "SQ", [("Q9", bath, 1), ("Q1", voucher, 1), ("Q2", voucher, 5), ("Q3", tea, 2)])

    def order(oid: str, shop: str, pid: str, qty: int) -> dict[str, Any]:
        line = {"product_id": pid, "price": 100, "quantity": qty}
        record = {**env["orders"]["IO1"], "order_id": oid, "store_id": shop}
        return {**record, "total_price": 100 * qty, "products": [line]}

    wanted = [order("N1", "SQ", "Q1", 1), order("N2", "SQ", "Q3", 1), order("N3", "SP", "V1", 2)]
    return task(env, wanted, task_id=f"SYN-IS-{lang}")


def instore_cancel(lang: Lang) -> VitaTask:
    """Only the voucher IO1 cancelled; the spa also lists a sold-out spa day and one with one
    left, and nothing else is in stock."""
    env = instore_env(lang)
    voucher, day = ("Massage voucher", "Spa day") if lang == "en" else ("按摩券", "水疗日")
    _stock(env, "SP", [("V1", voucher, 9), ("V0", day, 0), ("V2", day, 1)])
    for sid in ("RS", "GY"):
        for p in env["shops"][sid]["products"]:
            p["quantity"] = 0
    cancelled = {**env["orders"]["IO1"], "status": "cancelled"}
    return task(env, [cancelled], task_id=f"SYN-IX-{lang}")


def instore_untimed(lang: Lang) -> VitaTask:
    """Two gym reservations: N1 with no time (the oracle books it at the clock; the state basis
    cannot check it: undecided), then N2 on the 6th at 15:00 — the date near miss moves N2,
    never the untimed one at the same gym."""
    env = instore_env(lang)
    untimed = reservation("N1", "GY", "", 1)
    timed = reservation("N2", "GY", "2025-06-06 15:00:00", 2)
    return task(env, [untimed, timed], task_id=f"SYN-IU-{lang}")


# ---- delivery -------------------------------------------------------------------------------------


def delivery_two(lang: Lang) -> VitaTask:
    """Dumplings (a free-text wish) from S2 to the user's far place (FAR); at S1 mild noodles
    to FAR, and tea with no option chosen plus extra-spicy noodles to home. The user's places
    also hold one without an address text."""
    env = delivery_env(lang)
    # a place without an address text is no place to send an order to
    env["location"] = [HOME, {**HOME, "address": "", "longitude": 120.05}, FAR]
    # a free-text wish in Latin letters in both languages: negated in the task's language
    dumplings = delivery_order("T1", "S2", [("P4", 1, "Extra vinegar")], location=FAR)
    far = delivery_order("T3", "S1", [("P1", 1, MILD[lang])], location=FAR)
    home = delivery_order("T2", "S1", [("P2", 1, ""), ("P1", 1, HOT[lang])])
    return task(env, [dumplings, far, home], task_id=f"SYN-D2-{lang}")


def delivery_alone(lang: Lang) -> VitaTask:
    """The user knows only home; one noodle order there (a wrong address is a store's)."""
    env = delivery_env(lang)
    env["location"] = [HOME]
    order = delivery_order("T1", "S1", [("P1", 1, MILD[lang])])
    return task(env, [order], task_id=f"SYN-DL-{lang}")


def delivery_unknown(lang: Lang) -> VitaTask:
    """S2's noodles and dumplings with no address stated, then noodles to an address no tool
    knows (the oracle cannot place them: not solvable)."""
    env = delivery_env(lang)
    nowhere = {"address": "404 Nowhere Lane, Atlantis", "longitude": 121.5, "latitude": 31.2}
    # first, all of S2 with no address stated (no wrong address to pick for it, and nothing
    # else at S2 for an extra order; the state basis cannot check its address either)
    anywhere = {**delivery_order("T0", "S2", [("P3", 1, ""), ("P4", 1, "")]), "location": None}
    order = delivery_order("T1", "S1", [("P1", 1, MILD[lang])], location=nowhere)
    return task(env, [anywhere, order], task_id=f"SYN-DU-{lang}")


TASKS: dict[str, tuple[Callable[[Lang], VitaTask], str]] = {
    "ota_rooms": (ota_rooms, "ota"),
    "ota_seats": (ota_seats, "ota"),
    "ota_cancel": (ota_cancel, "ota"),
    "instore_stock": (instore_stock, "instore"),
    "instore_cancel": (instore_cancel, "instore"),
    "instore_untimed": (instore_untimed, "instore"),
    "delivery_two": (delivery_two, "delivery"),
    "delivery_alone": (delivery_alone, "delivery"),
    "delivery_unknown": (delivery_unknown, "delivery"),
}
#: Tasks the oracle cannot solve or the state basis cannot decide (certify's verdict on them is
#: not checked here).
UNCERTIFIED = {"delivery_unknown", "instore_untimed"}
CASES = {
    f"{name}-{lang}": (build(lang), domain, lang)
    for name, (build, domain) in TASKS.items()
    for lang in ("en", "zh")
}
#: The perturbations certify's generator applies call by call (vita/certify/generate.py).
KINDS = (
    "quantity",
    "attribute",
    "product",
    "store",
    "address",
    "note_omitted",
    "note_negated",
    "extra_order",
    "party_size",
    "date",
)

# fmt: off
#: name → (perturbation, its changes or None), in ``KINDS`` order.
PERTURBED: dict[str, list[tuple[str, list[str] | None]]] = {
    'ota_rooms-en': [
        ('quantity', None),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+4 create_hotel_order(hotel_id='H1', room_id='H1_S_0606', user_id='U1')"]),
        ('party_size', None),
        ('date', ["@0 create_hotel_order: room_id 'H1_K_0606' -> 'H1_K_0604'"]),
    ],
    'ota_rooms-zh': [
        ('quantity', None),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+4 create_hotel_order(hotel_id='H1', room_id='H1_S_0606', user_id='U1')"]),
        ('party_size', None),
        ('date', ["@0 create_hotel_order: room_id 'H1_K_0606' -> 'H1_K_0604'"]),
    ],
    'ota_seats-en': [
        ('quantity', ['@1 create_train_order: quantity 1 -> 2']),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+3 create_train_order(train_id='T1', seat_id='T1_1C', user_id='U1', date='2025-06-07', quantity=1)"]),
        ('party_size', None),
        ('date', ["@0 modify_train_order: new_date '2025-06-06' -> '2025-06-07'"]),
    ],
    'ota_seats-zh': [
        ('quantity', ['@1 create_train_order: quantity 1 -> 2']),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+3 create_train_order(train_id='T1', seat_id='T1_1C', user_id='U1', date='2025-06-07', quantity=1)"]),
        ('party_size', None),
        ('date', ["@0 modify_train_order: new_date '2025-06-06' -> '2025-06-07'"]),
    ],
    'ota_cancel-en': [
        ('quantity', None),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+1 create_train_order(train_id='T1', seat_id='T1_2C_0606', user_id='U1', date='2025-06-06', quantity=1)"]),
        ('party_size', None),
        ('date', None),
    ],
    'ota_cancel-zh': [
        ('quantity', None),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+1 create_train_order(train_id='T1', seat_id='T1_2C_0606', user_id='U1', date='2025-06-06', quantity=1)"]),
        ('party_size', None),
        ('date', None),
    ],
    'instore_stock-en': [
        ('quantity', ['@2 create_instore_product_order: quantity 1 -> 2']),
        ('attribute', None),
        ('product', ["@0 create_instore_product_order: product_id 'Q1' -> 'Q9'"]),
        ('store', ["@0 create_instore_product_order: shop_id 'SQ' -> 'SP'; product_id 'Q1' -> 'V1'"]),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+6 create_instore_product_order(user_id='U1', shop_id='SQ', product_id='Q9', quantity=1)"]),
        ('party_size', None),
        ('date', None),
    ],
    'instore_stock-zh': [
        ('quantity', ['@2 create_instore_product_order: quantity 1 -> 2']),
        ('attribute', None),
        ('product', ["@0 create_instore_product_order: product_id 'Q1' -> 'Q9'"]),
        ('store', ["@0 create_instore_product_order: shop_id 'SQ' -> 'SP'; product_id 'Q1' -> 'V1'"]),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+6 create_instore_product_order(user_id='U1', shop_id='SQ', product_id='Q9', quantity=1)"]),
        ('party_size', None),
        ('date', None),
    ],
    'instore_cancel-en': [
        ('quantity', None),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+1 create_instore_product_order(user_id='U1', shop_id='SP', product_id='V2', quantity=1)"]),
        ('party_size', None),
        ('date', None),
    ],
    'instore_cancel-zh': [
        ('quantity', None),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+1 create_instore_product_order(user_id='U1', shop_id='SP', product_id='V2', quantity=1)"]),
        ('party_size', None),
        ('date', None),
    ],
    'instore_untimed-en': [
        ('quantity', None),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+2 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-05 11:00:00', customer_count=1)"]),
        ('party_size', ['@0 instore_reservation: customer_count 1 -> 2']),
        ('date', ["@1 instore_reservation: time '2025-06-06 15:00:00' -> '2025-06-07 15:00:00'"]),
    ],
    'instore_untimed-zh': [
        ('quantity', None),
        ('attribute', None),
        ('product', None),
        ('store', None),
        ('address', None),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+2 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-05 11:00:00', customer_count=1)"]),
        ('party_size', ['@0 instore_reservation: customer_count 1 -> 2']),
        ('date', ["@1 instore_reservation: time '2025-06-06 15:00:00' -> '2025-06-07 15:00:00'"]),
    ],
    'delivery_two-en': [
        ('quantity', ['@0 create_delivery_order: product_cnts [1] -> [2]']),
        ('attribute', ["@0 create_delivery_order: attributes ['Extra vinegar'] -> ['No Extra vinegar']"]),
        ('product', ["@0 create_delivery_order: product_ids ['P4'] -> ['P3']; attributes ['Extra vinegar'] -> ['']"]),
        ('store', ["@2 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"]),
        ('address', ["@0 create_delivery_order: address 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+6 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('party_size', None),
        ('date', None),
    ],
    'delivery_two-zh': [
        ('quantity', ['@0 create_delivery_order: product_cnts [1] -> [2]']),
        ('attribute', ["@0 create_delivery_order: attributes ['Extra vinegar'] -> ['不Extra vinegar']"]),
        ('product', ["@0 create_delivery_order: product_ids ['P4'] -> ['P3']; attributes ['Extra vinegar'] -> ['']"]),
        ('store', ["@2 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"]),
        ('address', ["@0 create_delivery_order: address 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+6 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('party_size', None),
        ('date', None),
    ],
    'delivery_alone-en': [
        ('quantity', ['@0 create_delivery_order: product_cnts [1] -> [2]']),
        ('attribute', ["@0 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"]),
        ('product', ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['Mild Spicy'] -> ['']"]),
        ('store', ["@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"]),
        ('address', ["@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'S1 Market Street, Hangzhou'"]),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('party_size', None),
        ('date', None),
    ],
    'delivery_alone-zh': [
        ('quantity', ['@0 create_delivery_order: product_cnts [1] -> [2]']),
        ('attribute', ["@0 create_delivery_order: attributes ['微辣'] -> ['特辣']"]),
        ('product', ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['微辣'] -> ['']"]),
        ('store', ["@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"]),
        ('address', ["@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'S1 Market Street, Hangzhou'"]),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('party_size', None),
        ('date', None),
    ],
    'delivery_unknown-en': [
        ('quantity', ['@0 create_delivery_order: product_cnts [1, 1] -> [2, 1]']),
        ('attribute', ["@2 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"]),
        ('product', ["@2 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['Mild Spicy'] -> ['']"]),
        ('store', ["@0 create_delivery_order: store_id 'S2' -> 'S1'; product_ids ['P3', 'P4'] -> ['P1', 'P2']"]),
        ('address', ["@2 create_delivery_order: address '404 Nowhere Lane, Atlantis' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+4 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('party_size', None),
        ('date', None),
    ],
    'delivery_unknown-zh': [
        ('quantity', ['@0 create_delivery_order: product_cnts [1, 1] -> [2, 1]']),
        ('attribute', ["@2 create_delivery_order: attributes ['微辣'] -> ['特辣']"]),
        ('product', ["@2 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['微辣'] -> ['']"]),
        ('store', ["@0 create_delivery_order: store_id 'S2' -> 'S1'; product_ids ['P3', 'P4'] -> ['P1', 'P2']"]),
        ('address', ["@2 create_delivery_order: address '404 Nowhere Lane, Atlantis' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('note_omitted', None),
        ('note_negated', None),
        ('extra_order', ["+4 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('party_size', None),
        ('date', None),
    ],
}

#: name → every near miss, then every variation: (field, kind, target, must_pass, changes).
GENERATED: dict[str, list[tuple[str, str, str, bool, list[str]]]] = {
    'ota_rooms-en': [
        ('date', 'date', 'call 0 create_hotel_order', False, ["@0 create_hotel_order: room_id 'H1_K_0606' -> 'H1_K_0604'"]),
        ('date', 'date', 'call 2 create_hotel_order', False, ["@2 create_hotel_order: room_id 'H1_T_0606' -> 'H1_T_0607'"]),
        ('store', 'provider', 'call 0 create_hotel_order', False, ["@0 create_hotel_order: hotel_id 'H1' -> 'H2'; room_id 'H1_K_0606' -> 'H2_K_0606'"]),
        ('status', 'unpaid', 'call 1 pay_hotel_order', False, ['-1 pay_hotel_order']),
        ('store', 'provider', 'call 2 create_hotel_order', False, ["@2 create_hotel_order: hotel_id 'H1' -> 'H2'; room_id 'H1_T_0606' -> 'H2_K_0606'"]),
        ('status', 'unpaid', 'call 3 pay_hotel_order', False, ['-3 pay_hotel_order']),
        ('unrequested', 'cancelled', 'OT', False, ["+4 cancel_train_order(order_id='OT', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OT', False, ["+4 modify_train_order(order_id='OT', user_id='U1', new_date='2025-06-06')", "+5 pay_train_order(order_id='OT')"]),
        ('unrequested', 'cancelled', 'OH', False, ["+4 cancel_hotel_order(order_id='OH', user_id='U1')"]),
        ('unrequested', 'extra_record', 'new', False, ["+4 create_hotel_order(hotel_id='H1', room_id='H1_S_0606', user_id='U1')"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()', '+6 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_hotel_order', True, ["+0 create_hotel_order(hotel_id='H1', room_id='H1_K_0606', user_id='U1')", "+1 cancel_hotel_order(user_id='U1')<order_id"]),
        ('records', 'cancel_and_recreate', 'call 2 create_hotel_order', True, ["+3 cancel_hotel_order(user_id='U1')<order_id", "+4 create_hotel_order(hotel_id='H1', room_id='H1_T_0606', user_id='U1')"]),
    ],
    'ota_rooms-zh': [
        ('date', 'date', 'call 0 create_hotel_order', False, ["@0 create_hotel_order: room_id 'H1_K_0606' -> 'H1_K_0604'"]),
        ('date', 'date', 'call 2 create_hotel_order', False, ["@2 create_hotel_order: room_id 'H1_T_0606' -> 'H1_T_0607'"]),
        ('store', 'provider', 'call 0 create_hotel_order', False, ["@0 create_hotel_order: hotel_id 'H1' -> 'H2'; room_id 'H1_K_0606' -> 'H2_K_0606'"]),
        ('status', 'unpaid', 'call 1 pay_hotel_order', False, ['-1 pay_hotel_order']),
        ('store', 'provider', 'call 2 create_hotel_order', False, ["@2 create_hotel_order: hotel_id 'H1' -> 'H2'; room_id 'H1_T_0606' -> 'H2_K_0606'"]),
        ('status', 'unpaid', 'call 3 pay_hotel_order', False, ['-3 pay_hotel_order']),
        ('unrequested', 'cancelled', 'OT', False, ["+4 cancel_train_order(order_id='OT', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OT', False, ["+4 modify_train_order(order_id='OT', user_id='U1', new_date='2025-06-06')", "+5 pay_train_order(order_id='OT')"]),
        ('unrequested', 'cancelled', 'OH', False, ["+4 cancel_hotel_order(order_id='OH', user_id='U1')"]),
        ('unrequested', 'extra_record', 'new', False, ["+4 create_hotel_order(hotel_id='H1', room_id='H1_S_0606', user_id='U1')"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()', '+6 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_hotel_order', True, ["+0 create_hotel_order(hotel_id='H1', room_id='H1_K_0606', user_id='U1')", "+1 cancel_hotel_order(user_id='U1')<order_id"]),
        ('records', 'cancel_and_recreate', 'call 2 create_hotel_order', True, ["+3 cancel_hotel_order(user_id='U1')<order_id", "+4 create_hotel_order(hotel_id='H1', room_id='H1_T_0606', user_id='U1')"]),
    ],
    'ota_seats-en': [
        ('products', 'quantity', 'call 1 create_train_order', False, ['@1 create_train_order: quantity 1 -> 2']),
        ('date', 'date', 'call 0 modify_train_order', False, ["@0 modify_train_order: new_date '2025-06-06' -> '2025-06-07'"]),
        ('date', 'date', 'call 1 create_train_order', False, ["@1 create_train_order: date '2025-06-07' -> '2025-06-05'"]),
        ('status', 'unpaid', 'call 2 pay_train_order', False, ['-2 pay_train_order']),
        ('date', 'change_skipped', 'call 0 modify_train_order', False, ['-0 modify_train_order']),
        ('unrequested', 'cancelled', 'OH', False, ["+3 cancel_hotel_order(order_id='OH', user_id='U1')"]),
        ('unrequested', 'cancelled', 'OU', False, ["+3 cancel_train_order(order_id='OU', user_id='U1')"]),
        ('unrequested', 'paid', 'OU', False, ["+3 pay_train_order(order_id='OU')"]),
        ('unrequested', 'cancelled', 'OP', False, ["+3 cancel_train_order(order_id='OP', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OP', False, ["+3 modify_train_order(order_id='OP', user_id='U1', new_date='2025-06-07')", "+4 pay_train_order(order_id='OP')"]),
        ('unrequested', 'cancelled', 'OQ', False, ["+3 cancel_train_order(order_id='OQ', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OQ', False, ["+3 modify_train_order(order_id='OQ', user_id='U1', new_date='2025-06-06')", "+4 pay_train_order(order_id='OQ')"]),
        ('unrequested', 'cancelled', 'OG', False, ["+3 cancel_train_order(order_id='OG', user_id='U1')"]),
        ('unrequested', 'cancelled', 'OZ', False, ["+3 cancel_train_order(order_id='OZ', user_id='U1')"]),
        ('unrequested', 'cancelled', 'OK', False, ["+3 cancel_train_order(order_id='OK', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OK', False, ["+3 modify_train_order(order_id='OK', user_id='U1', new_date='2025-06-06')"]),
        ('unrequested', 'cancelled', 'OE', False, ["+3 cancel_train_order(order_id='OE', user_id='U1')"]),
        ('unrequested', 'cancelled', 'OL', False, ["+3 cancel_train_order(order_id='OL', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OL', False, ["+3 modify_train_order(order_id='OL', user_id='U1', new_date='2025-06-06')", "+4 pay_train_order(order_id='OL')"]),
        ('unrequested', 'extra_record', 'new', False, ["+3 create_train_order(train_id='T1', seat_id='T1_1C', user_id='U1', date='2025-06-07', quantity=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+2 get_user_all_orders()', '+5 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 1 create_train_order', True, ["+2 cancel_train_order(user_id='U1')<order_id", "+3 create_train_order(train_id='T1', seat_id='T1_2C', user_id='U1', date='2025-06-07', quantity=1)"]),
    ],
    'ota_seats-zh': [
        ('products', 'quantity', 'call 1 create_train_order', False, ['@1 create_train_order: quantity 1 -> 2']),
        ('date', 'date', 'call 0 modify_train_order', False, ["@0 modify_train_order: new_date '2025-06-06' -> '2025-06-07'"]),
        ('date', 'date', 'call 1 create_train_order', False, ["@1 create_train_order: date '2025-06-07' -> '2025-06-05'"]),
        ('status', 'unpaid', 'call 2 pay_train_order', False, ['-2 pay_train_order']),
        ('date', 'change_skipped', 'call 0 modify_train_order', False, ['-0 modify_train_order']),
        ('unrequested', 'cancelled', 'OH', False, ["+3 cancel_hotel_order(order_id='OH', user_id='U1')"]),
        ('unrequested', 'cancelled', 'OU', False, ["+3 cancel_train_order(order_id='OU', user_id='U1')"]),
        ('unrequested', 'paid', 'OU', False, ["+3 pay_train_order(order_id='OU')"]),
        ('unrequested', 'cancelled', 'OP', False, ["+3 cancel_train_order(order_id='OP', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OP', False, ["+3 modify_train_order(order_id='OP', user_id='U1', new_date='2025-06-07')", "+4 pay_train_order(order_id='OP')"]),
        ('unrequested', 'cancelled', 'OQ', False, ["+3 cancel_train_order(order_id='OQ', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OQ', False, ["+3 modify_train_order(order_id='OQ', user_id='U1', new_date='2025-06-06')", "+4 pay_train_order(order_id='OQ')"]),
        ('unrequested', 'cancelled', 'OG', False, ["+3 cancel_train_order(order_id='OG', user_id='U1')"]),
        ('unrequested', 'cancelled', 'OZ', False, ["+3 cancel_train_order(order_id='OZ', user_id='U1')"]),
        ('unrequested', 'cancelled', 'OK', False, ["+3 cancel_train_order(order_id='OK', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OK', False, ["+3 modify_train_order(order_id='OK', user_id='U1', new_date='2025-06-06')"]),
        ('unrequested', 'cancelled', 'OE', False, ["+3 cancel_train_order(order_id='OE', user_id='U1')"]),
        ('unrequested', 'cancelled', 'OL', False, ["+3 cancel_train_order(order_id='OL', user_id='U1')"]),
        ('unrequested', 'date_changed', 'OL', False, ["+3 modify_train_order(order_id='OL', user_id='U1', new_date='2025-06-06')", "+4 pay_train_order(order_id='OL')"]),
        ('unrequested', 'extra_record', 'new', False, ["+3 create_train_order(train_id='T1', seat_id='T1_1C', user_id='U1', date='2025-06-07', quantity=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+2 get_user_all_orders()', '+5 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 1 create_train_order', True, ["+2 cancel_train_order(user_id='U1')<order_id", "+3 create_train_order(train_id='T1', seat_id='T1_2C', user_id='U1', date='2025-06-07', quantity=1)"]),
    ],
    'ota_cancel-en': [
        ('status', 'change_skipped', 'call 0 cancel_train_order', False, ['-0 cancel_train_order']),
        ('unrequested', 'extra_record', 'new', False, ["+1 create_train_order(train_id='T1', seat_id='T1_2C_0606', user_id='U1', date='2025-06-06', quantity=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+2 get_user_all_orders()']),
    ],
    'ota_cancel-zh': [
        ('status', 'change_skipped', 'call 0 cancel_train_order', False, ['-0 cancel_train_order']),
        ('unrequested', 'extra_record', 'new', False, ["+1 create_train_order(train_id='T1', seat_id='T1_2C_0606', user_id='U1', date='2025-06-06', quantity=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+2 get_user_all_orders()']),
    ],
    'instore_stock-en': [
        ('products', 'quantity', 'call 2 create_instore_product_order', False, ['@2 create_instore_product_order: quantity 1 -> 2']),
        ('products', 'quantity', 'call 4 create_instore_product_order', False, ['@4 create_instore_product_order: quantity 2 -> 1']),
        ('products', 'product', 'call 0 create_instore_product_order', False, ["@0 create_instore_product_order: product_id 'Q1' -> 'Q9'"]),
        ('products', 'product', 'call 2 create_instore_product_order', False, ["@2 create_instore_product_order: product_id 'Q3' -> 'Q9'"]),
        ('products', 'product', 'call 4 create_instore_product_order', False, ["@4 create_instore_product_order: product_id 'V1' -> 'V3'"]),
        ('store', 'store', 'call 0 create_instore_product_order', False, ["@0 create_instore_product_order: shop_id 'SQ' -> 'SP'; product_id 'Q1' -> 'V1'"]),
        ('store', 'store', 'call 2 create_instore_product_order', False, ["@2 create_instore_product_order: shop_id 'SQ' -> 'SP'; product_id 'Q3' -> 'V2'"]),
        ('store', 'store', 'call 4 create_instore_product_order', False, ["@4 create_instore_product_order: shop_id 'SP' -> 'SQ'; product_id 'V1' -> 'Q2'"]),
        ('status', 'unpaid', 'call 1 pay_instore_order', False, ['-1 pay_instore_order']),
        ('status', 'unpaid', 'call 3 pay_instore_order', False, ['-3 pay_instore_order']),
        ('status', 'unpaid', 'call 5 pay_instore_order', False, ['-5 pay_instore_order']),
        ('unrequested', 'cancelled', 'IO1', False, ["+6 instore_cancel_order(order_id='IO1')"]),
        ('unrequested', 'cancelled', 'R_KEEP', False, ["+6 instore_cancel_reservation(reservation_id='R_KEEP')"]),
        ('unrequested', 'moved', 'R_KEEP', False, ["+6 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"]),
        ('unrequested', 'resized', 'R_KEEP', False, ["+6 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"]),
        ('unrequested', 'cancelled', 'R_MOVE', False, ["+6 instore_cancel_reservation(reservation_id='R_MOVE')"]),
        ('unrequested', 'moved', 'R_MOVE', False, ["+6 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-08 10:00:00', customer_count=2)"]),
        ('unrequested', 'resized', 'R_MOVE', False, ["+6 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-07 10:00:00', customer_count=3)"]),
        ('unrequested', 'extra_record', 'new', False, ["+6 create_instore_product_order(user_id='U1', shop_id='SQ', product_id='Q9', quantity=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()', '+6 get_user_all_orders()', '+9 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_instore_product_order', True, ["+0 create_instore_product_order(user_id='U1', shop_id='SQ', product_id='Q1', quantity=1)", '+1 instore_cancel_order()<order_id']),
        ('records', 'cancel_and_recreate', 'call 2 create_instore_product_order', True, ["+2 create_instore_product_order(user_id='U1', shop_id='SQ', product_id='Q3', quantity=1)", '+3 instore_cancel_order()<order_id']),
        ('records', 'cancel_and_recreate', 'call 4 create_instore_product_order', True, ['+5 instore_cancel_order()<order_id', "+6 create_instore_product_order(user_id='U1', shop_id='SP', product_id='V1', quantity=2)"]),
    ],
    'instore_stock-zh': [
        ('products', 'quantity', 'call 2 create_instore_product_order', False, ['@2 create_instore_product_order: quantity 1 -> 2']),
        ('products', 'quantity', 'call 4 create_instore_product_order', False, ['@4 create_instore_product_order: quantity 2 -> 1']),
        ('products', 'product', 'call 0 create_instore_product_order', False, ["@0 create_instore_product_order: product_id 'Q1' -> 'Q9'"]),
        ('products', 'product', 'call 2 create_instore_product_order', False, ["@2 create_instore_product_order: product_id 'Q3' -> 'Q9'"]),
        ('products', 'product', 'call 4 create_instore_product_order', False, ["@4 create_instore_product_order: product_id 'V1' -> 'V3'"]),
        ('store', 'store', 'call 0 create_instore_product_order', False, ["@0 create_instore_product_order: shop_id 'SQ' -> 'SP'; product_id 'Q1' -> 'V1'"]),
        ('store', 'store', 'call 2 create_instore_product_order', False, ["@2 create_instore_product_order: shop_id 'SQ' -> 'SP'; product_id 'Q3' -> 'V2'"]),
        ('store', 'store', 'call 4 create_instore_product_order', False, ["@4 create_instore_product_order: shop_id 'SP' -> 'SQ'; product_id 'V1' -> 'Q2'"]),
        ('status', 'unpaid', 'call 1 pay_instore_order', False, ['-1 pay_instore_order']),
        ('status', 'unpaid', 'call 3 pay_instore_order', False, ['-3 pay_instore_order']),
        ('status', 'unpaid', 'call 5 pay_instore_order', False, ['-5 pay_instore_order']),
        ('unrequested', 'cancelled', 'IO1', False, ["+6 instore_cancel_order(order_id='IO1')"]),
        ('unrequested', 'cancelled', 'R_KEEP', False, ["+6 instore_cancel_reservation(reservation_id='R_KEEP')"]),
        ('unrequested', 'moved', 'R_KEEP', False, ["+6 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"]),
        ('unrequested', 'resized', 'R_KEEP', False, ["+6 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"]),
        ('unrequested', 'cancelled', 'R_MOVE', False, ["+6 instore_cancel_reservation(reservation_id='R_MOVE')"]),
        ('unrequested', 'moved', 'R_MOVE', False, ["+6 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-08 10:00:00', customer_count=2)"]),
        ('unrequested', 'resized', 'R_MOVE', False, ["+6 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-07 10:00:00', customer_count=3)"]),
        ('unrequested', 'extra_record', 'new', False, ["+6 create_instore_product_order(user_id='U1', shop_id='SQ', product_id='Q9', quantity=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()', '+6 get_user_all_orders()', '+9 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_instore_product_order', True, ["+0 create_instore_product_order(user_id='U1', shop_id='SQ', product_id='Q1', quantity=1)", '+1 instore_cancel_order()<order_id']),
        ('records', 'cancel_and_recreate', 'call 2 create_instore_product_order', True, ["+2 create_instore_product_order(user_id='U1', shop_id='SQ', product_id='Q3', quantity=1)", '+3 instore_cancel_order()<order_id']),
        ('records', 'cancel_and_recreate', 'call 4 create_instore_product_order', True, ['+5 instore_cancel_order()<order_id', "+6 create_instore_product_order(user_id='U1', shop_id='SP', product_id='V1', quantity=2)"]),
    ],
    'instore_cancel-en': [
        ('status', 'change_skipped', 'call 0 instore_cancel_order', False, ['-0 instore_cancel_order']),
        ('unrequested', 'cancelled', 'R_KEEP', False, ["+1 instore_cancel_reservation(reservation_id='R_KEEP')"]),
        ('unrequested', 'moved', 'R_KEEP', False, ["+1 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"]),
        ('unrequested', 'resized', 'R_KEEP', False, ["+1 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"]),
        ('unrequested', 'cancelled', 'R_MOVE', False, ["+1 instore_cancel_reservation(reservation_id='R_MOVE')"]),
        ('unrequested', 'moved', 'R_MOVE', False, ["+1 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-08 10:00:00', customer_count=2)"]),
        ('unrequested', 'resized', 'R_MOVE', False, ["+1 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-07 10:00:00', customer_count=3)"]),
        ('unrequested', 'extra_record', 'new', False, ["+1 create_instore_product_order(user_id='U1', shop_id='SP', product_id='V2', quantity=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+2 get_user_all_orders()']),
    ],
    'instore_cancel-zh': [
        ('status', 'change_skipped', 'call 0 instore_cancel_order', False, ['-0 instore_cancel_order']),
        ('unrequested', 'cancelled', 'R_KEEP', False, ["+1 instore_cancel_reservation(reservation_id='R_KEEP')"]),
        ('unrequested', 'moved', 'R_KEEP', False, ["+1 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"]),
        ('unrequested', 'resized', 'R_KEEP', False, ["+1 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"]),
        ('unrequested', 'cancelled', 'R_MOVE', False, ["+1 instore_cancel_reservation(reservation_id='R_MOVE')"]),
        ('unrequested', 'moved', 'R_MOVE', False, ["+1 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-08 10:00:00', customer_count=2)"]),
        ('unrequested', 'resized', 'R_MOVE', False, ["+1 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-07 10:00:00', customer_count=3)"]),
        ('unrequested', 'extra_record', 'new', False, ["+1 create_instore_product_order(user_id='U1', shop_id='SP', product_id='V2', quantity=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+2 get_user_all_orders()']),
    ],
    'instore_untimed-en': [
        ('party_size', 'party_size', 'call 0 instore_reservation', False, ['@0 instore_reservation: customer_count 1 -> 2']),
        ('party_size', 'party_size', 'call 1 instore_reservation', False, ['@1 instore_reservation: customer_count 2 -> 3']),
        ('date', 'date', 'call 1 instore_reservation', False, ["@1 instore_reservation: time '2025-06-06 15:00:00' -> '2025-06-07 15:00:00'"]),
        ('time', 'time', 'call 0 instore_reservation', False, ["@0 instore_reservation: time '2025-06-04 11:00:00' -> '2025-06-04 14:00:00'"]),
        ('time', 'time', 'call 1 instore_reservation', False, ["@1 instore_reservation: time '2025-06-06 15:00:00' -> '2025-06-06 18:00:00'"]),
        ('unrequested', 'cancelled', 'IO1', False, ["+2 instore_cancel_order(order_id='IO1')"]),
        ('unrequested', 'cancelled', 'R_KEEP', False, ["+2 instore_cancel_reservation(reservation_id='R_KEEP')"]),
        ('unrequested', 'moved', 'R_KEEP', False, ["+2 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"]),
        ('unrequested', 'resized', 'R_KEEP', False, ["+2 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"]),
        ('unrequested', 'cancelled', 'R_MOVE', False, ["+2 instore_cancel_reservation(reservation_id='R_MOVE')"]),
        ('unrequested', 'moved', 'R_MOVE', False, ["+2 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-08 10:00:00', customer_count=2)"]),
        ('unrequested', 'resized', 'R_MOVE', False, ["+2 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-07 10:00:00', customer_count=3)"]),
        ('unrequested', 'extra_record', 'new', False, ["+2 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-05 11:00:00', customer_count=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+2 get_user_all_orders()', '+4 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 instore_reservation', True, ["+0 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-04 11:00:00', customer_count=1)", '+1 instore_cancel_reservation()<reservation_id']),
        ('time', 'edited_after_creation', 'call 0 instore_reservation', True, ['-0 instore_reservation', "+0 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-04 12:00:00', customer_count=1)", "+1 instore_modify_reservation(time='2025-06-04 11:00:00', customer_count=1)<reservation_id"]),
        ('records', 'cancel_and_recreate', 'call 1 instore_reservation', True, ['+2 instore_cancel_reservation()<reservation_id', "+3 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-06 15:00:00', customer_count=2)"]),
        ('time', 'edited_after_creation', 'call 1 instore_reservation', True, ['-1 instore_reservation', "+1 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-06 16:00:00', customer_count=2)", "+2 instore_modify_reservation(time='2025-06-06 15:00:00', customer_count=2)<reservation_id"]),
    ],
    'instore_untimed-zh': [
        ('party_size', 'party_size', 'call 0 instore_reservation', False, ['@0 instore_reservation: customer_count 1 -> 2']),
        ('party_size', 'party_size', 'call 1 instore_reservation', False, ['@1 instore_reservation: customer_count 2 -> 3']),
        ('date', 'date', 'call 1 instore_reservation', False, ["@1 instore_reservation: time '2025-06-06 15:00:00' -> '2025-06-07 15:00:00'"]),
        ('time', 'time', 'call 0 instore_reservation', False, ["@0 instore_reservation: time '2025-06-04 11:00:00' -> '2025-06-04 14:00:00'"]),
        ('time', 'time', 'call 1 instore_reservation', False, ["@1 instore_reservation: time '2025-06-06 15:00:00' -> '2025-06-06 18:00:00'"]),
        ('unrequested', 'cancelled', 'IO1', False, ["+2 instore_cancel_order(order_id='IO1')"]),
        ('unrequested', 'cancelled', 'R_KEEP', False, ["+2 instore_cancel_reservation(reservation_id='R_KEEP')"]),
        ('unrequested', 'moved', 'R_KEEP', False, ["+2 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"]),
        ('unrequested', 'resized', 'R_KEEP', False, ["+2 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"]),
        ('unrequested', 'cancelled', 'R_MOVE', False, ["+2 instore_cancel_reservation(reservation_id='R_MOVE')"]),
        ('unrequested', 'moved', 'R_MOVE', False, ["+2 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-08 10:00:00', customer_count=2)"]),
        ('unrequested', 'resized', 'R_MOVE', False, ["+2 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-07 10:00:00', customer_count=3)"]),
        ('unrequested', 'extra_record', 'new', False, ["+2 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-05 11:00:00', customer_count=1)"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+2 get_user_all_orders()', '+4 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 instore_reservation', True, ["+0 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-04 11:00:00', customer_count=1)", '+1 instore_cancel_reservation()<reservation_id']),
        ('time', 'edited_after_creation', 'call 0 instore_reservation', True, ['-0 instore_reservation', "+0 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-04 12:00:00', customer_count=1)", "+1 instore_modify_reservation(time='2025-06-04 11:00:00', customer_count=1)<reservation_id"]),
        ('records', 'cancel_and_recreate', 'call 1 instore_reservation', True, ['+2 instore_cancel_reservation()<reservation_id', "+3 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-06 15:00:00', customer_count=2)"]),
        ('time', 'edited_after_creation', 'call 1 instore_reservation', True, ['-1 instore_reservation', "+1 instore_reservation(user_id='U1', shop_id='GY', time='2025-06-06 16:00:00', customer_count=2)", "+2 instore_modify_reservation(time='2025-06-06 15:00:00', customer_count=2)<reservation_id"]),
    ],
    'delivery_two-en': [
        ('products', 'quantity', 'call 0 create_delivery_order', False, ['@0 create_delivery_order: product_cnts [1] -> [2]']),
        ('products', 'quantity', 'call 2 create_delivery_order', False, ['@2 create_delivery_order: product_cnts [1] -> [2]']),
        ('products', 'quantity', 'call 4 create_delivery_order', False, ['@4 create_delivery_order: product_cnts [1, 1] -> [2, 1]']),
        ('products', 'product', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: product_ids ['P4'] -> ['P3']; attributes ['Extra vinegar'] -> ['']"]),
        ('attribute', 'attribute', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: attributes ['Extra vinegar'] -> ['No Extra vinegar']"]),
        ('attribute', 'attribute', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"]),
        ('attribute', 'attribute', 'call 4 create_delivery_order', False, ["@4 create_delivery_order: attributes ['', 'Extra Spicy'] -> ['', 'Mild Spicy']"]),
        ('store', 'store', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"]),
        ('address', 'address', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: address 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('address', 'address', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: address 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('address', 'address', 'call 4 create_delivery_order', False, ["@4 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"]),
        ('time', 'time', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: note - -> 'Please deliver after 22:00'"]),
        ('status', 'unpaid', 'call 1 pay_delivery_order', False, ['-1 pay_delivery_order']),
        ('time', 'time', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: note - -> 'Please deliver after 22:00'"]),
        ('status', 'unpaid', 'call 3 pay_delivery_order', False, ['-3 pay_delivery_order']),
        ('time', 'time', 'call 4 create_delivery_order', False, ["@4 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 4 create_delivery_order', False, ["@4 create_delivery_order: note - -> 'Please deliver after 22:00'"]),
        ('status', 'unpaid', 'call 5 pay_delivery_order', False, ['-5 pay_delivery_order']),
        ('unrequested', 'cancelled', 'O1', False, ["+6 cancel_delivery_order(order_id='O1')"]),
        ('unrequested', 'note_changed', 'O1', False, ["+6 modify_delivery_order(order_id='O1', note='Please call me before delivering')"]),
        ('unrequested', 'cancelled', 'O2', False, ["+6 cancel_delivery_order(order_id='O2')"]),
        ('unrequested', 'paid', 'O2', False, ["+6 pay_delivery_order(order_id='O2')"]),
        ('unrequested', 'note_changed', 'O2', False, ["+6 modify_delivery_order(order_id='O2', note='Please call me before delivering')"]),
        ('unrequested', 'cancelled', 'O3', False, ["+6 cancel_delivery_order(order_id='O3')"]),
        ('unrequested', 'note_changed', 'O3', False, ["+6 modify_delivery_order(order_id='O3', note='Please call me before delivering')"]),
        ('unrequested', 'extra_record', 'new', False, ["+6 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()', '+6 get_user_all_orders()', '+9 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_delivery_order', True, ["+0 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P4'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['Extra vinegar'])", '+1 cancel_delivery_order()<order_id']),
        ('note', 'edited_after_creation', 'call 0 create_delivery_order', True, ['-0 create_delivery_order', "+0 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P4'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['Extra vinegar'], note='Please call me before delivering')", "+1 modify_delivery_order(note='')<order_id"]),
        ('records', 'cancel_and_recreate', 'call 2 create_delivery_order', True, ["+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['Mild Spicy'])", '+3 cancel_delivery_order()<order_id']),
        ('note', 'edited_after_creation', 'call 2 create_delivery_order', True, ['-2 create_delivery_order', "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['Mild Spicy'], note='Please call me before delivering')", "+3 modify_delivery_order(note='')<order_id"]),
        ('records', 'cancel_and_recreate', 'call 4 create_delivery_order', True, ['+5 cancel_delivery_order()<order_id', "+6 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2', 'P1'], product_cnts=[1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['', 'Extra Spicy'])"]),
        ('note', 'edited_after_creation', 'call 4 create_delivery_order', True, ['-4 create_delivery_order', "+4 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2', 'P1'], product_cnts=[1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['', 'Extra Spicy'], note='Please call me before delivering')", "+5 modify_delivery_order(note='')<order_id"]),
    ],
    'delivery_two-zh': [
        ('products', 'quantity', 'call 0 create_delivery_order', False, ['@0 create_delivery_order: product_cnts [1] -> [2]']),
        ('products', 'quantity', 'call 2 create_delivery_order', False, ['@2 create_delivery_order: product_cnts [1] -> [2]']),
        ('products', 'quantity', 'call 4 create_delivery_order', False, ['@4 create_delivery_order: product_cnts [1, 1] -> [2, 1]']),
        ('products', 'product', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: product_ids ['P4'] -> ['P3']; attributes ['Extra vinegar'] -> ['']"]),
        ('attribute', 'attribute', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: attributes ['Extra vinegar'] -> ['不Extra vinegar']"]),
        ('attribute', 'attribute', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: attributes ['微辣'] -> ['特辣']"]),
        ('attribute', 'attribute', 'call 4 create_delivery_order', False, ["@4 create_delivery_order: attributes ['', '特辣'] -> ['', '微辣']"]),
        ('store', 'store', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"]),
        ('address', 'address', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: address 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('address', 'address', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: address 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('address', 'address', 'call 4 create_delivery_order', False, ["@4 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"]),
        ('time', 'time', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: note - -> '请22点以后再送'"]),
        ('status', 'unpaid', 'call 1 pay_delivery_order', False, ['-1 pay_delivery_order']),
        ('time', 'time', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: note - -> '请22点以后再送'"]),
        ('status', 'unpaid', 'call 3 pay_delivery_order', False, ['-3 pay_delivery_order']),
        ('time', 'time', 'call 4 create_delivery_order', False, ["@4 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 4 create_delivery_order', False, ["@4 create_delivery_order: note - -> '请22点以后再送'"]),
        ('status', 'unpaid', 'call 5 pay_delivery_order', False, ['-5 pay_delivery_order']),
        ('unrequested', 'cancelled', 'O1', False, ["+6 cancel_delivery_order(order_id='O1')"]),
        ('unrequested', 'note_changed', 'O1', False, ["+6 modify_delivery_order(order_id='O1', note='送达前请先打电话')"]),
        ('unrequested', 'cancelled', 'O2', False, ["+6 cancel_delivery_order(order_id='O2')"]),
        ('unrequested', 'paid', 'O2', False, ["+6 pay_delivery_order(order_id='O2')"]),
        ('unrequested', 'note_changed', 'O2', False, ["+6 modify_delivery_order(order_id='O2', note='送达前请先打电话')"]),
        ('unrequested', 'cancelled', 'O3', False, ["+6 cancel_delivery_order(order_id='O3')"]),
        ('unrequested', 'note_changed', 'O3', False, ["+6 modify_delivery_order(order_id='O3', note='送达前请先打电话')"]),
        ('unrequested', 'extra_record', 'new', False, ["+6 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()', '+6 get_user_all_orders()', '+9 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_delivery_order', True, ["+0 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P4'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['Extra vinegar'])", '+1 cancel_delivery_order()<order_id']),
        ('note', 'edited_after_creation', 'call 0 create_delivery_order', True, ['-0 create_delivery_order', "+0 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P4'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['Extra vinegar'], note='送达前请先打电话')", "+1 modify_delivery_order(note='')<order_id"]),
        ('records', 'cancel_and_recreate', 'call 2 create_delivery_order', True, ["+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['微辣'])", '+3 cancel_delivery_order()<order_id']),
        ('note', 'edited_after_creation', 'call 2 create_delivery_order', True, ['-2 create_delivery_order', "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Tower B, 99 Harbour Avenue, Riverside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['微辣'], note='送达前请先打电话')", "+3 modify_delivery_order(note='')<order_id"]),
        ('records', 'cancel_and_recreate', 'call 4 create_delivery_order', True, ['+5 cancel_delivery_order()<order_id', "+6 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2', 'P1'], product_cnts=[1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['', '特辣'])"]),
        ('note', 'edited_after_creation', 'call 4 create_delivery_order', True, ['-4 create_delivery_order', "+4 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2', 'P1'], product_cnts=[1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['', '特辣'], note='送达前请先打电话')", "+5 modify_delivery_order(note='')<order_id"]),
    ],
    'delivery_alone-en': [
        ('products', 'quantity', 'call 0 create_delivery_order', False, ['@0 create_delivery_order: product_cnts [1] -> [2]']),
        ('products', 'product', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['Mild Spicy'] -> ['']"]),
        ('attribute', 'attribute', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"]),
        ('store', 'store', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"]),
        ('address', 'address', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'S1 Market Street, Hangzhou'"]),
        ('time', 'time', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: note - -> 'Please deliver after 22:00'"]),
        ('status', 'unpaid', 'call 1 pay_delivery_order', False, ['-1 pay_delivery_order']),
        ('unrequested', 'cancelled', 'O1', False, ["+2 cancel_delivery_order(order_id='O1')"]),
        ('unrequested', 'note_changed', 'O1', False, ["+2 modify_delivery_order(order_id='O1', note='Please call me before delivering')"]),
        ('unrequested', 'cancelled', 'O2', False, ["+2 cancel_delivery_order(order_id='O2')"]),
        ('unrequested', 'paid', 'O2', False, ["+2 pay_delivery_order(order_id='O2')"]),
        ('unrequested', 'note_changed', 'O2', False, ["+2 modify_delivery_order(order_id='O2', note='Please call me before delivering')"]),
        ('unrequested', 'cancelled', 'O3', False, ["+2 cancel_delivery_order(order_id='O3')"]),
        ('unrequested', 'note_changed', 'O3', False, ["+2 modify_delivery_order(order_id='O3', note='Please call me before delivering')"]),
        ('unrequested', 'extra_record', 'new', False, ["+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_delivery_order', True, ["+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['Mild Spicy'])", '+1 cancel_delivery_order()<order_id']),
        ('note', 'edited_after_creation', 'call 0 create_delivery_order', True, ['-0 create_delivery_order', "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['Mild Spicy'], note='Please call me before delivering')", "+1 modify_delivery_order(note='')<order_id"]),
    ],
    'delivery_alone-zh': [
        ('products', 'quantity', 'call 0 create_delivery_order', False, ['@0 create_delivery_order: product_cnts [1] -> [2]']),
        ('products', 'product', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['微辣'] -> ['']"]),
        ('attribute', 'attribute', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: attributes ['微辣'] -> ['特辣']"]),
        ('store', 'store', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"]),
        ('address', 'address', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'S1 Market Street, Hangzhou'"]),
        ('time', 'time', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: note - -> '请22点以后再送'"]),
        ('status', 'unpaid', 'call 1 pay_delivery_order', False, ['-1 pay_delivery_order']),
        ('unrequested', 'cancelled', 'O1', False, ["+2 cancel_delivery_order(order_id='O1')"]),
        ('unrequested', 'note_changed', 'O1', False, ["+2 modify_delivery_order(order_id='O1', note='送达前请先打电话')"]),
        ('unrequested', 'cancelled', 'O2', False, ["+2 cancel_delivery_order(order_id='O2')"]),
        ('unrequested', 'paid', 'O2', False, ["+2 pay_delivery_order(order_id='O2')"]),
        ('unrequested', 'note_changed', 'O2', False, ["+2 modify_delivery_order(order_id='O2', note='送达前请先打电话')"]),
        ('unrequested', 'cancelled', 'O3', False, ["+2 cancel_delivery_order(order_id='O3')"]),
        ('unrequested', 'note_changed', 'O3', False, ["+2 modify_delivery_order(order_id='O3', note='送达前请先打电话')"]),
        ('unrequested', 'extra_record', 'new', False, ["+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_delivery_order', True, ["+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['微辣'])", '+1 cancel_delivery_order()<order_id']),
        ('note', 'edited_after_creation', 'call 0 create_delivery_order', True, ['-0 create_delivery_order', "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['微辣'], note='送达前请先打电话')", "+1 modify_delivery_order(note='')<order_id"]),
    ],
    'delivery_unknown-en': [
        ('products', 'quantity', 'call 0 create_delivery_order', False, ['@0 create_delivery_order: product_cnts [1, 1] -> [2, 1]']),
        ('products', 'quantity', 'call 2 create_delivery_order', False, ['@2 create_delivery_order: product_cnts [1] -> [2]']),
        ('products', 'product', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['Mild Spicy'] -> ['']"]),
        ('attribute', 'attribute', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"]),
        ('store', 'store', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: store_id 'S2' -> 'S1'; product_ids ['P3', 'P4'] -> ['P1', 'P2']"]),
        ('store', 'store', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"]),
        ('address', 'address', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: address '404 Nowhere Lane, Atlantis' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('time', 'time', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: note - -> 'Please deliver after 22:00'"]),
        ('status', 'unpaid', 'call 1 pay_delivery_order', False, ['-1 pay_delivery_order']),
        ('time', 'time', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: note - -> 'Please deliver after 22:00'"]),
        ('status', 'unpaid', 'call 3 pay_delivery_order', False, ['-3 pay_delivery_order']),
        ('unrequested', 'cancelled', 'O1', False, ["+4 cancel_delivery_order(order_id='O1')"]),
        ('unrequested', 'note_changed', 'O1', False, ["+4 modify_delivery_order(order_id='O1', note='Please call me before delivering')"]),
        ('unrequested', 'cancelled', 'O2', False, ["+4 cancel_delivery_order(order_id='O2')"]),
        ('unrequested', 'paid', 'O2', False, ["+4 pay_delivery_order(order_id='O2')"]),
        ('unrequested', 'note_changed', 'O2', False, ["+4 modify_delivery_order(order_id='O2', note='Please call me before delivering')"]),
        ('unrequested', 'cancelled', 'O3', False, ["+4 cancel_delivery_order(order_id='O3')"]),
        ('unrequested', 'note_changed', 'O3', False, ["+4 modify_delivery_order(order_id='O3', note='Please call me before delivering')"]),
        ('unrequested', 'extra_record', 'new', False, ["+4 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()', '+6 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_delivery_order', True, ["+0 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3', 'P4'], product_cnts=[1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['', ''])", '+1 cancel_delivery_order()<order_id']),
        ('note', 'edited_after_creation', 'call 0 create_delivery_order', True, ['-0 create_delivery_order', "+0 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3', 'P4'], product_cnts=[1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['', ''], note='Please call me before delivering')", "+1 modify_delivery_order(note='')<order_id"]),
        ('records', 'cancel_and_recreate', 'call 2 create_delivery_order', True, ['+3 cancel_delivery_order()<order_id', "+4 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='404 Nowhere Lane, Atlantis', dispatch_time='2025-06-04 11:00:00', attributes=['Mild Spicy'])"]),
        ('note', 'edited_after_creation', 'call 2 create_delivery_order', True, ['-2 create_delivery_order', "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='404 Nowhere Lane, Atlantis', dispatch_time='2025-06-04 11:00:00', attributes=['Mild Spicy'], note='Please call me before delivering')", "+3 modify_delivery_order(note='')<order_id"]),
    ],
    'delivery_unknown-zh': [
        ('products', 'quantity', 'call 0 create_delivery_order', False, ['@0 create_delivery_order: product_cnts [1, 1] -> [2, 1]']),
        ('products', 'quantity', 'call 2 create_delivery_order', False, ['@2 create_delivery_order: product_cnts [1] -> [2]']),
        ('products', 'product', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['微辣'] -> ['']"]),
        ('attribute', 'attribute', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: attributes ['微辣'] -> ['特辣']"]),
        ('store', 'store', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: store_id 'S2' -> 'S1'; product_ids ['P3', 'P4'] -> ['P1', 'P2']"]),
        ('store', 'store', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"]),
        ('address', 'address', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: address '404 Nowhere Lane, Atlantis' -> 'Room 5, 8 Elm Road, Lakeside District, Hangzhou'"]),
        ('time', 'time', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 0 create_delivery_order', False, ["@0 create_delivery_order: note - -> '请22点以后再送'"]),
        ('status', 'unpaid', 'call 1 pay_delivery_order', False, ['-1 pay_delivery_order']),
        ('time', 'time', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-05 11:00:00'"]),
        ('note', 'unasked_note', 'call 2 create_delivery_order', False, ["@2 create_delivery_order: note - -> '请22点以后再送'"]),
        ('status', 'unpaid', 'call 3 pay_delivery_order', False, ['-3 pay_delivery_order']),
        ('unrequested', 'cancelled', 'O1', False, ["+4 cancel_delivery_order(order_id='O1')"]),
        ('unrequested', 'note_changed', 'O1', False, ["+4 modify_delivery_order(order_id='O1', note='送达前请先打电话')"]),
        ('unrequested', 'cancelled', 'O2', False, ["+4 cancel_delivery_order(order_id='O2')"]),
        ('unrequested', 'paid', 'O2', False, ["+4 pay_delivery_order(order_id='O2')"]),
        ('unrequested', 'note_changed', 'O2', False, ["+4 modify_delivery_order(order_id='O2', note='送达前请先打电话')"]),
        ('unrequested', 'cancelled', 'O3', False, ["+4 cancel_delivery_order(order_id='O3')"]),
        ('unrequested', 'note_changed', 'O3', False, ["+4 modify_delivery_order(order_id='O3', note='送达前请先打电话')"]),
        ('unrequested', 'extra_record', 'new', False, ["+4 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"]),
        ('reads', 'extra_reads', 'plan', True, ['+0 get_user_all_orders()', '+3 get_user_all_orders()', '+6 get_user_all_orders()']),
        ('records', 'cancel_and_recreate', 'call 0 create_delivery_order', True, ["+0 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3', 'P4'], product_cnts=[1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['', ''])", '+1 cancel_delivery_order()<order_id']),
        ('note', 'edited_after_creation', 'call 0 create_delivery_order', True, ['-0 create_delivery_order', "+0 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3', 'P4'], product_cnts=[1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=['', ''], note='送达前请先打电话')", "+1 modify_delivery_order(note='')<order_id"]),
        ('records', 'cancel_and_recreate', 'call 2 create_delivery_order', True, ['+3 cancel_delivery_order()<order_id', "+4 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='404 Nowhere Lane, Atlantis', dispatch_time='2025-06-04 11:00:00', attributes=['微辣'])"]),
        ('note', 'edited_after_creation', 'call 2 create_delivery_order', True, ['-2 create_delivery_order', "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='404 Nowhere Lane, Atlantis', dispatch_time='2025-06-04 11:00:00', attributes=['微辣'], note='送达前请先打电话')", "+3 modify_delivery_order(note='')<order_id"]),
    ],
}
# fmt: on


def test_every_task_is_in_both_tables() -> None:
    assert sorted(PERTURBED) == sorted(CASES) == sorted(GENERATED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_perturbation_of_each_task(name: str) -> None:
    task_, domain, lang = CASES[name]
    plan = oracle_plan(task_, domain=domain)
    got = []
    for kind in KINDS:
        out = getattr(perturb, kind)(PlanContext(task_, plan, lang))
        got.append((kind, None if out is None else changes(plan, out)))
    assert got == PERTURBED[name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_near_misses_and_variations_of_each_task(name: str) -> None:
    task_, domain, lang = CASES[name]
    plan = oracle_plan(task_, domain=domain)
    ctx = PlanContext(task_, plan, lang)
    got = [
        (c.field, c.kind, c.target, c.must_pass, changes(plan, c.plan))
        for c in [*near_misses(ctx), *variations(ctx)]
    ]
    assert got == GENERATED[name]


def test_a_task_without_criteria_wants_nothing() -> None:
    bare = task(delivery_env("en"), []).model_copy(update={"evaluation_criteria": None})
    ctx = PlanContext(bare, [])
    assert not ctx.wanted("P1")
    assert perturb.extra_order(ctx) is not None  # an unasked product of the task's tables


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", sorted(set(TASKS) - UNCERTIFIED))
def test_certify_rejects_every_near_miss_and_accepts_every_variation(name: str, lang: Lang) -> None:
    build, domain = TASKS[name]
    cert = asyncio.run(certify_task(build(lang), domain, lang))
    assert cert.solvable and cert.discriminating and cert.noop == "rejected"
    expected = GENERATED[f"{name}-{lang}"]
    assert len(cert.near_misses) == sum(not e[3] for e in expected)
    assert len(cert.variations) == sum(e[3] for e in expected)
    outcomes: Any = {t.outcome for t in cert.near_misses}
    assert outcomes == {"rejected"} and not cert.false_accepts and not cert.false_rejects
    assert {t.outcome for t in cert.variations} == {"accepted"}
    assert all(t.tool_errors == 0 for t in [*cert.near_misses, *cert.variations])


def test_an_unknown_address_sends_the_extra_order_to_the_first_known_place() -> None:
    task_, domain, lang = CASES["delivery_unknown-en"]
    plan = oracle_plan(task_, domain=domain)
    cert = asyncio.run(certify_task(task_, domain, lang))
    assert not cert.solvable
    extra = perturb.extra_order(PlanContext(task_, plan, lang))
    assert extra is not None and extra[-1].args["address"] == HOME["address"]
    # a user with no known place: the extra order keeps the oracle's address
    env = {**task_.environment, "location": []}
    homeless = task_.model_copy(update={"environment": env})
    extra = perturb.extra_order(PlanContext(homeless, plan, lang))
    assert extra is not None and extra[-1].args["address"] == "404 Nowhere Lane, Atlantis"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_extra_in_store_order_is_one_of_an_unasked_product_in_stock(lang: Lang) -> None:
    # the plan's first creation is two vouchers at SP: the extra order is one spa day with one
    # left (V2; V0 is sold out), never two
    task_, domain, _ = CASES[f"instore_stock-{lang}"]
    plan = oracle_plan(task_, domain=domain)
    first = plan[4:] + plan[:4]
    extra = perturb.extra_order(PlanContext(task_, first, lang))
    assert extra is not None and changes(first, extra) == [
        "+6 create_instore_product_order(user_id='U1', shop_id='SP', product_id='V2', quantity=1)"
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_product_its_provider_does_not_list(lang: Lang) -> None:
    # the oracle cannot solve such a task, but certify still generates its near misses: a
    # free-text attribute is negated (no options to pick from) and an unlisted in-store product
    # has no stock for one more
    env = delivery_env(lang)
    unlisted = task(env, [delivery_order("T1", "S1", [("P9", 1, "Large")])])
    plan = oracle_plan(unlisted, domain="delivery")
    wrong = perturb.attribute(PlanContext(unlisted, plan, lang))
    negated = "No Large" if lang == "en" else "不Large"
    assert wrong is not None
    assert changes(plan, wrong) == [
        f"@0 create_delivery_order: attributes ['Large'] -> ['{negated}']"
    ]
    shops = instore_env(lang)
    line = {"product_id": "V9", "price": 100, "quantity": 1}
    voucher = {**shops["orders"]["IO1"], "order_id": "N1", "products": [line]}
    unlisted = task(shops, [voucher])
    plan = oracle_plan(unlisted, domain="instore")
    assert plan[0].args["product_id"] == "V9"
    assert perturb.quantity(PlanContext(unlisted, plan, lang)) is None


def test_without_a_clock_every_dated_seat_is_bookable() -> None:
    # a task whose clock cannot be read has no past: the extra seat is the first one listed
    # (the 3rd), which the task's clock (the 4th) rules out otherwise
    task_, domain, lang = CASES["ota_cancel-en"]
    plan = oracle_plan(task_, domain=domain)
    noclock = task_.model_copy(update={"environment": {**task_.environment, "time": ""}})
    extra = perturb.extra_order(PlanContext(noclock, plan, lang))
    assert extra is not None and changes(plan, extra) == [
        "+1 create_train_order(train_id='T1', seat_id='T1_2C_0603', user_id='U1', "
        "date='2025-06-03', quantity=1)"
    ]
