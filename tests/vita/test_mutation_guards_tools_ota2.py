"""The OTA order tools (vita/domains/ota.py), second part: what a date change settles to the fen,
what it says when no seat of the line's type is left, and a hotel room for tonight.

Each test checks the tool's answer (or its refusal: error kind and exact message) and the
orders, stock and payments after the call. The tools answer in English whatever the task's
language; the tests run on an English world and on a Chinese one (Chinese seat and room names)
to show that the names are carried as given."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from test_ota_tools import make_environment_dict, room, seat

from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.task import VitaTask

# per language: the world's name for second-class seats and for the lake-view king room
NAMES: dict[str, dict[str, str]] = {
    "en": {
        "Second class": "Second class",
        "First class": "First class",
        "room": "Lake View King Room",
    },
    "zh": {"Second class": "二等座", "First class": "一等座", "room": "湖景大床房"},
}
LANGUAGES = pytest.mark.parametrize("language", ["en", "zh"])


def world(language: str) -> dict[str, Any]:
    """The shared OTA world, its seat and room names in ``language``."""
    data = make_environment_dict()
    names = NAMES[language]
    for train in data["trains"].values():
        for product in train["products"]:
            product["seat_type"] = names.get(product["seat_type"], product["seat_type"])
    for order in data["orders"].values():
        for line in order["products"]:
            if "seat_type" in line:
                line["seat_type"] = names.get(line["seat_type"], line["seat_type"])
            if line.get("room_type") == "Lake View King Room":
                line["room_type"] = names["room"]
    for product in data["hotels"]["H1"]["products"]:
        if product["room_type"] == "Lake View King Room":
            product["room_type"] = names["room"]
    return data


def environment(data: dict[str, Any], language: str) -> OTAEnvironment:
    return OTAEnvironment(VitaTask(id="T1", environment=data), language)  # type: ignore[arg-type]


def stock(env: OTAEnvironment) -> dict[str, int]:
    """Seats left per train product."""
    return {p.product_id: p.quantity for p in env.db.trains["T1"].products}


async def answer(env: OTAEnvironment, name: str, **arguments: Any) -> Any:
    outcome = await env.tools.run(name, arguments)
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


async def refusal(env: OTAEnvironment, name: str, **arguments: Any) -> tuple[Any, ...]:
    outcome = await env.tools.run(name, arguments)
    return outcome.error, outcome.error_kind, outcome.content


# ---- a date change settles what was paid to the fen ---------------------------------------------


def paid_to_the_tenth_of_a_fen(language: str) -> OTAEnvironment:
    """O_TRAIN (one second-class seat on 06-15) was paid 140.004: what the user paid, as the data
    says, with a third decimal; the seats of 06-16 cost 160.12, those of 06-17 cost 120."""
    data = world(language)
    data["orders"]["O_TRAIN"]["total_price"] = 140.004
    for product in data["trains"]["T1"]["products"]:
        if product["product_id"] == "T1_2C_0616":
            product["price"] = 160.12
    return environment(data, language)


@LANGUAGES
async def test_a_dearer_date_asks_for_the_difference_rounded_to_the_fen(language: str) -> None:
    env = paid_to_the_tenth_of_a_fen(language)
    before = stock(env)
    moved = await answer(
        env, "modify_train_order", order_id="O_TRAIN", user_id="U1", new_date="2025-06-16"
    )
    assert {k: v for k, v in moved.items() if k != "order"} == {
        "message": "Modification successful, need to pay additional amount: 20.12; pay it with "
        "pay_train_order.",
        "price_difference": 20.12,
        "amount_due": 20.12,
        "refund": 0.0,
    }
    order = env.db.orders["O_TRAIN"]
    assert (order.status, order.total_price) == ("unpaid", 160.12)
    assert [(p.product_id, p.date, p.quantity) for p in order.products] == [
        ("T1_2C_0616", "2025-06-16", 1)
    ]
    # nothing is refunded before the difference is paid: the payment on record stays
    assert env.paid_amount("O_TRAIN") == 140.004
    assert stock(env) == {
        **before,
        "T1_2C_0615": before["T1_2C_0615"] + 1,
        "T1_2C_0616": before["T1_2C_0616"] - 1,
    }
    paid = await answer(env, "pay_train_order", order_id="O_TRAIN")
    assert paid["amount_paid"] == 20.12
    assert env.paid_amount("O_TRAIN") == 160.12


@LANGUAGES
async def test_a_cheaper_date_refunds_and_reports_the_difference_rounded_to_the_fen(
    language: str,
) -> None:
    env = paid_to_the_tenth_of_a_fen(language)
    moved = await answer(
        env, "modify_train_order", order_id="O_TRAIN", user_id="U1", new_date="2025-06-17"
    )
    assert {k: v for k, v in moved.items() if k != "order"} == {
        "message": "Modification successful, price difference: -20, refunded 20.",
        "price_difference": -20.0,
        "amount_due": 0.0,
        "refund": 20.0,
    }
    order = env.db.orders["O_TRAIN"]
    assert (order.status, order.total_price) == ("paid", 120.0)
    assert env.paid_amount("O_TRAIN") == 120.0


# ---- no seat of the line's type on the new date -------------------------------------------------


@LANGUAGES
async def test_no_seats_on_the_new_date_lists_every_date_with_seats_of_that_type(
    language: str,
) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    second = NAMES[language]["Second class"]
    assert await refusal(
        env, "modify_train_order", order_id="O_TRAIN", user_id="U1", new_date="2025-06-19"
    ) == (
        True,
        "precondition",
        f"Train 'T1' has no '{second}' seats on 2025-06-19 (dates with '{second}' seats: "
        "2025-06-15, 2025-06-16, 2025-06-17, 2025-06-18).",
    )
    assert env.snapshot() == before


@LANGUAGES
async def test_a_line_without_seat_type_whose_product_left_the_catalog_has_no_seat_type(
    language: str,
) -> None:
    """The line names no seat type and its product is no longer sold: no seat type to keep, so
    no product of the train matches (the official tool, too, finds no seat of a missing type)."""
    data = world(language)
    gone = copy.deepcopy(data["orders"]["O_TRAIN"])
    gone["order_id"] = "O_GONE"
    del gone["products"][0]["seat_type"]
    gone["products"][0]["product_id"] = "T1_WITHDRAWN"
    data["orders"]["O_GONE"] = gone
    env = environment(data, language)
    before = env.snapshot()
    assert await refusal(
        env, "modify_train_order", order_id="O_GONE", user_id="U1", new_date="2025-06-16"
    ) == (
        True,
        "precondition",
        "Train 'T1' has no '' seats on 2025-06-16 (dates with '' seats: none).",
    )
    assert env.snapshot() == before


# ---- a hotel room for tonight ---------------------------------------------------------------


@LANGUAGES
async def test_a_room_for_today_is_not_in_the_past(language: str) -> None:
    """The task's clock says 2025-06-10 10:00: tonight's room can still be booked."""
    data = world(language)
    data["hotels"]["H1"]["products"].append(
        room("H1_K_0610", NAMES[language]["room"], "2025-06-10", 590, 1)
    )
    env = environment(data, language)
    order = await answer(
        env, "create_hotel_order", hotel_id="H1", room_id="H1_K_0610", user_id="U1"
    )
    assert (order["status"], order["store_id"], order["total_price"]) == ("unpaid", "H1", 590.0)
    assert [
        (p["product_id"], p["date"], p["quantity"], p["room_type"]) for p in order["products"]
    ] == [("H1_K_0610", "2025-06-10", 1, NAMES[language]["room"])]
    assert env.created_order_ids == (order["order_id"],)
    assert env.db.orders[order["order_id"]].status == "unpaid"
    tonight = [p for p in env.db.hotels["H1"].products if p.product_id == "H1_K_0610"]
    assert [p.quantity for p in tonight] == [0]


@LANGUAGES
async def test_a_room_for_yesterday_is_in_the_past(language: str) -> None:
    data = world(language)
    data["hotels"]["H1"]["products"].append(
        room("H1_K_0609B", NAMES[language]["room"], "2025-06-09", 590, 1)
    )
    env = environment(data, language)
    before = env.snapshot()
    assert await refusal(
        env, "create_hotel_order", hotel_id="H1", room_id="H1_K_0609B", user_id="U1"
    ) == (
        True,
        "precondition",
        "Room 'H1_K_0609B' is for 2025-06-09, which is in the past (today is 2025-06-10).",
    )
    assert env.snapshot() == before


# ---- a dated order refused before anything is booked -------------------------------------------

DATED = [
    ("create_attraction_order", {"attraction_id": "A1", "ticket_id": "A1_AD_0612"}),
    ("create_flight_order", {"flight_id": "F1", "seat_id": "F1_Y_0620"}),
    ("create_train_order", {"train_id": "T1", "seat_id": "T1_2C_0615"}),
]


@LANGUAGES
@pytest.mark.parametrize(("name", "product"), DATED, ids=[d[0] for d in DATED])
@pytest.mark.parametrize(
    ("date", "quantity", "message"),
    [
        ("2025-06-20", 0, "quantity must be a positive integer."),
        ("2025-06-20", -2, "quantity must be a positive integer."),
        ("20/06/2025", 1, "date must be a date in YYYY-MM-DD format."),
        ("2025-06-31", 1, "date must be a date in YYYY-MM-DD format."),
    ],
    ids=["zero", "negative", "day-first", "no-such-day"],
)
async def test_a_dated_order_is_refused_with_the_argument_named(
    language: str, name: str, product: dict[str, str], date: str, quantity: int, message: str
) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    arguments = {**product, "user_id": "U1", "date": date, "quantity": quantity}
    assert await refusal(env, name, **arguments) == (True, "precondition", message)
    assert env.snapshot() == before
    assert env.created_order_ids == ()


# ---- which product a dated order takes, and why it takes none -----------------------------------


def train_catalog(language: str) -> OTAEnvironment:
    """Train T1 also sells: one seat id on two dates, one without a date, one for a past day, and
    one id listed twice for 06-20 (2 seats at 100 first, then 5 at 110)."""
    data = world(language)
    second = NAMES[language]["Second class"]
    data["trains"]["T1"]["products"] += [
        seat("T1_MULTI", second, "2025-06-16", 150, 3),
        seat("T1_MULTI", second, "2025-06-15", 150, 3),
        seat("T1_UNDATED", second, "", 150, 3),
        seat("T1_PAST", second, "2025-06-01", 150, 3),
        seat("T1_TWICE", second, "2025-06-20", 100, 2),
        seat("T1_TWICE", second, "2025-06-20", 110, 5),
    ]
    return environment(data, language)


@LANGUAGES
@pytest.mark.parametrize(
    ("seat_id", "date", "quantity", "kind", "message"),
    [
        (
            "T1_NOPE",
            "2025-06-15",
            1,
            "not_found",
            "seat_id 'T1_NOPE' not found at train 'T1'; see get_ota_train_info for its products.",
        ),
        (
            "T1_MULTI",
            "2025-06-17",
            1,
            "precondition",
            "Train 'T1' does not offer seat_id 'T1_MULTI' on 2025-06-17 "
            "(offered on: 2025-06-15, 2025-06-16).",
        ),
        (
            "T1_UNDATED",
            "2025-06-17",
            1,
            "precondition",
            "Train 'T1' does not offer seat_id 'T1_UNDATED' on 2025-06-17 (offered on: none).",
        ),
        (
            "T1_PAST",
            "2025-06-01",
            1,
            "precondition",
            "date 2025-06-01 is in the past (today is 2025-06-10).",
        ),
        (
            "T1_TWICE",
            "2025-06-20",
            6,
            "precondition",
            "Insufficient inventory: seat_id 'T1_TWICE' has 2 left on 2025-06-20, 6 requested.",
        ),
    ],
    ids=["unknown", "other-dates", "no-dates", "past", "too-few"],
)
async def test_a_train_order_refused_for_its_seat_says_exactly_why(
    language: str, seat_id: str, date: str, quantity: int, kind: str, message: str
) -> None:
    env = train_catalog(language)
    before = env.snapshot()
    stock_before = [(p.product_id, p.date, p.quantity) for p in env.db.trains["T1"].products]
    arguments = {"train_id": "T1", "seat_id": seat_id, "user_id": "U1", "date": date}
    assert await refusal(env, "create_train_order", **arguments, quantity=quantity) == (
        True,
        kind,
        message,
    )
    assert env.snapshot() == before
    assert [(p.product_id, p.date, p.quantity) for p in env.db.trains["T1"].products] == (
        stock_before
    )


@LANGUAGES
@pytest.mark.parametrize(
    ("quantity", "price", "left"),
    [(2, 200.0, [0, 5]), (1, 100.0, [1, 5]), (3, 330.0, [2, 2])],
    ids=["exactly-the-first", "fewer-than-the-first", "more-than-the-first"],
)
async def test_a_train_order_takes_the_first_listing_that_has_enough_seats(
    language: str, quantity: int, price: float, left: list[int]
) -> None:
    env = train_catalog(language)
    order = await answer(
        env,
        "create_train_order",
        train_id="T1",
        seat_id="T1_TWICE",
        user_id="U1",
        date="2025-06-20",
        quantity=quantity,
    )
    assert (order["total_price"], order["status"]) == (price, "unpaid")
    assert [(p["product_id"], p["quantity"]) for p in order["products"]] == [("T1_TWICE", quantity)]
    assert [p.quantity for p in env.db.trains["T1"].products if p.product_id == "T1_TWICE"] == left
    assert env.created_order_ids == (order["order_id"],)


# ---- cancelling ---------------------------------------------------------------------------------


@LANGUAGES
async def test_a_cancellation_refunds_what_was_paid_rounded_to_the_fen(language: str) -> None:
    data = world(language)
    data["orders"]["O_TRAIN"]["total_price"] = 140.454
    env = environment(data, language)
    before = stock(env)
    cancelled = await answer(env, "cancel_train_order", order_id="O_TRAIN", user_id="U1")
    assert sorted(cancelled) == ["message", "order", "refund"]
    assert (cancelled["message"], cancelled["refund"]) == (
        "Cancellation successful, refund amount: 140.45.",
        140.45,
    )
    assert (cancelled["order"]["order_id"], cancelled["order"]["status"]) == (
        "O_TRAIN",
        "cancelled",
    )
    assert env.db.orders["O_TRAIN"].status == "cancelled"
    assert env.paid_amount("O_TRAIN") == 0.0
    assert stock(env) == {**before, "T1_2C_0615": before["T1_2C_0615"] + 1}


@LANGUAGES
async def test_a_used_ticket_cannot_be_cancelled(language: str) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    assert await refusal(env, "cancel_attraction_order", order_id="O_USED", user_id="U1") == (
        True,
        "precondition",
        "Order 'O_USED' has already been used (status consumed) and cannot be cancelled.",
    )
    assert env.snapshot() == before


# ---- stock goes back to the listing of the line's date; today is not past; paying --------------


@LANGUAGES
async def test_cancelling_gives_the_seats_back_to_the_listing_of_the_lines_date(
    language: str,
) -> None:
    env = train_catalog(language)
    order = await answer(
        env,
        "create_train_order",
        train_id="T1",
        seat_id="T1_MULTI",
        user_id="U1",
        date="2025-06-15",
        quantity=2,
    )

    def multi() -> list[tuple[str, int]]:
        return [
            (p.date, p.quantity) for p in env.db.trains["T1"].products if p.product_id == "T1_MULTI"
        ]

    assert multi() == [("2025-06-16", 3), ("2025-06-15", 1)]
    await answer(env, "cancel_train_order", order_id=order["order_id"], user_id="U1")
    assert multi() == [("2025-06-16", 3), ("2025-06-15", 3)]
    assert env.db.orders[order["order_id"]].status == "cancelled"


@LANGUAGES
async def test_a_seat_for_today_can_be_booked(language: str) -> None:
    data = world(language)
    data["trains"]["T1"]["products"].append(
        seat("T1_TODAY", NAMES[language]["Second class"], "2025-06-10", 130, 2)
    )
    env = environment(data, language)
    order = await answer(
        env,
        "create_train_order",
        train_id="T1",
        seat_id="T1_TODAY",
        user_id="U1",
        date="2025-06-10",
        quantity=1,
    )
    assert (order["total_price"], order["products"][0]["date"]) == (130.0, "2025-06-10")
    assert [p.quantity for p in env.db.trains["T1"].products if p.product_id == "T1_TODAY"] == [1]


@LANGUAGES
async def test_a_sold_out_listing_has_nothing_left(language: str) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    arguments = {"train_id": "T1", "seat_id": "T1_2C_0618", "user_id": "U1", "date": "2025-06-18"}
    assert await refusal(env, "create_train_order", **arguments, quantity=1) == (
        True,
        "precondition",
        "Insufficient inventory: seat_id 'T1_2C_0618' has 0 left on 2025-06-18, 1 requested.",
    )
    assert env.snapshot() == before


@LANGUAGES
@pytest.mark.parametrize(
    ("new_price", "due"),
    [(160.12, 20.12), (140.5, 0.5)],
    ids=["twenty", "under-one"],
)
async def test_paying_after_a_dearer_date_charges_the_difference_to_the_fen(
    language: str, new_price: float, due: float
) -> None:
    data = world(language)
    data["orders"]["O_TRAIN"]["total_price"] = 140.004
    for product in data["trains"]["T1"]["products"]:
        if product["product_id"] == "T1_2C_0616":
            product["price"] = new_price
    env = environment(data, language)
    moved = await answer(
        env, "modify_train_order", order_id="O_TRAIN", user_id="U1", new_date="2025-06-16"
    )
    assert moved["amount_due"] == due
    paid = await answer(env, "pay_train_order", order_id="O_TRAIN")
    assert sorted(paid) == ["amount_paid", "message", "order"]
    assert (paid["message"], paid["amount_paid"], paid["order"]["status"]) == (
        "Payment successful.",
        due,
        "paid",
    )
    assert env.db.orders["O_TRAIN"].status == "paid"
    assert env.paid_amount("O_TRAIN") == new_price
