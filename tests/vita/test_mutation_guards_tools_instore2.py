"""The in-store tools (vita/domains/instore.py), second part: what the two search tools return
(every field of a shop and a product, ranked by names and tags, at most 20), what they refuse,
and what cancelling a reservation answers and stores.

Each test checks the tool's exact answer (or its refusal: error kind and exact message) and the
database after the call, on the English world of test_instore_tools and on the same world with
Chinese names: the tools answer in English whatever the task's language, the names are carried
as written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_instore_tools import TIME, make_environment_dict, make_task

from lifebench.vita.domains.instore import InStoreEnvironment

LANGUAGES = pytest.mark.parametrize("language", ["en", "zh"])

# per language: shop and product names of the shared world, and the words of the tests' own
NAMES: dict[str, dict[str, str]] = {
    "en": {},
    "zh": {
        "Lakeside Tuina Studio": "湖畔推拿馆",
        "Full-Body Massage Voucher": "全身按摩代金券",
        "Hot Stone Massage Voucher": "热石按摩代金券",
        "Shu Jiu Xiang Hotpot": "蜀九香火锅",
        "Hotpot Set for Four": "火锅四人套餐",
        "Sunset Cafe": "日落咖啡",
        "QuickCut Express": "快剪",
        "Express Haircut": "快速理发",
        "Voucher": "代金券",
        "Relaxing": "放松",
    },
}
WORDS = {
    "en": {
        "yoga": "Yoga",
        "card": "Yoga Class Card",
        "quiet": "Quiet",
        "spa": "Spa",
        "decoy": "Spar Market",
        "gift": "Spar Gift Card",
        "hall": "Hot Yoga Hall",
        "studio": "Studio 9",
        "long": "Parking, Showers, Beginners welcome",
    },
    "zh": {
        "yoga": "瑜伽",
        "card": "瑜伽次卡",
        "quiet": "安静",
        "spa": "水疗",
        "decoy": "斯巴超市",
        "gift": "斯巴礼品卡",
        "hall": "热瑜伽馆",
        "studio": "九号工作室",
        "long": "停车, 淋浴, 欢迎初学者加入我们",
    },
}


def named(text: str, language: str) -> str:
    return NAMES[language].get(text, text)


def world(language: str) -> dict[str, Any]:
    """The shared in-store world, its shop, product and tag names in ``language``."""
    data = make_environment_dict()
    for shop in data["shops"].values():
        shop["shop_name"] = named(shop["shop_name"], language)
        shop["tags"] = [named(t, language) for t in shop["tags"]]
        for product in shop["products"]:
            product["name"] = named(product["name"], language)
            product["tags"] = [named(t, language) for t in product["tags"]]
    return data


def environment(data: dict[str, Any], language: str) -> InStoreEnvironment:
    return InStoreEnvironment(make_task(data), language)  # type: ignore[arg-type]


async def answer(env: InStoreEnvironment, name: str, **arguments: Any) -> Any:
    outcome = await env.tools.run(name, arguments)
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


async def refusal(env: InStoreEnvironment, name: str, **arguments: Any) -> tuple[Any, ...]:
    outcome = await env.tools.run(name, arguments)
    return outcome.error, outcome.error_kind, outcome.content


# ---- searching ----------------------------------------------------------------------------------


def shop(shop_id: str, name: str, tags: list[str], products: list[Any]) -> dict[str, Any]:
    return {
        "shop_id": shop_id,
        "shop_name": name,
        "score": 4.5,
        "location": {"address": "8 Hubin Road, Hangzhou", "longitude": 120.16, "latitude": 30.26},
        "tags": tags,
        "enable_book": False,
        "book_price": 0,
        "enable_reservation": True,
        "products": products,
    }


def product(product_id: str, name: str, tags: list[str]) -> dict[str, Any]:
    return {"product_id": product_id, "name": name, "price": 60, "quantity": 1, "tags": tags}


def studio(language: str, cards: int = 1) -> dict[str, Any]:
    """The world plus a yoga studio tagged (quiet, spa) selling ``cards`` class cards, each
    tagged (quiet, spa) too, priced 100, 101, …; and, listed first, a market whose name and
    product are spelt like "spa" but neither is tagged spa."""
    words = WORDS[language]
    data = world(language)
    decoy = shop("S_DECOY", words["decoy"], [], [product("P_GIFT", words["gift"], [])])
    data["shops"] = {"S_DECOY": decoy, **data["shops"]}
    data["shops"]["S_YOGA"] = {
        "shop_id": "S_YOGA",
        "shop_name": f"Lotus {words['yoga']}" if language == "en" else f"莲花{words['yoga']}",
        "score": 4.5,
        "location": {"address": "8 Hubin Road, Hangzhou", "longitude": 120.16, "latitude": 30.26},
        "tags": [words["quiet"], words["spa"]],
        "enable_book": False,
        "book_price": 0,
        "enable_reservation": True,
        "products": [
            {
                "product_id": f"P_CARD{n:02d}",
                "name": f"{words['card']} {n}",
                "price": 100 + n,
                "quantity": 3,
                "tags": [words["quiet"], words["spa"]],
            }
            for n in range(cards)
        ],
    }
    return data


@LANGUAGES
async def test_a_shop_is_found_by_its_last_tag_and_shown_whole_without_products(
    language: str,
) -> None:
    env = environment(studio(language), language)
    found = await answer(env, "instore_shop_search_recommend", keywords=[WORDS[language]["spa"]])
    assert found[0] == {
        "shop_id": "S_YOGA",
        "shop_name": env.db.shops["S_YOGA"].shop_name,
        "score": 4.5,
        "location": {"address": "8 Hubin Road, Hangzhou", "longitude": 120.16, "latitude": 30.26},
        "tags": [WORDS[language]["quiet"], WORDS[language]["spa"]],
        "enable_book": False,
        "book_price": 0.0,
        "enable_reservation": True,
    }
    assert sorted(s["shop_id"] for s in found) == sorted(env.db.shops)


@LANGUAGES
async def test_a_product_is_found_by_its_last_tag_and_shown_whole(language: str) -> None:
    env = environment(studio(language), language)
    found = await answer(env, "instore_product_search_recommend", keywords=[WORDS[language]["spa"]])
    assert found[0] == {
        "product_id": "P_CARD00",
        "name": f"{WORDS[language]['card']} 0",
        "shop_id": "S_YOGA",
        "shop_name": env.db.shops["S_YOGA"].shop_name,
        "price": 100.0,
        "stock": 3,
        "tags": [WORDS[language]["quiet"], WORDS[language]["spa"]],
    }


@LANGUAGES
async def test_the_searches_return_at_most_twenty(language: str) -> None:
    data = studio(language, cards=25)
    for n in range(25):
        data["shops"][f"S_MORE{n:02d}"] = {
            **data["shops"]["S_YOGA"],
            "shop_id": f"S_MORE{n:02d}",
            "products": [],
        }
    env = environment(data, language)
    words = [WORDS[language]["yoga"]]
    products = await answer(env, "instore_product_search_recommend", keywords=words)
    shops = await answer(env, "instore_shop_search_recommend", keywords=words)
    assert (len(products), len(shops)) == (20, 20)
    assert {p["shop_id"] for p in products} == {"S_YOGA"}
    assert {s["shop_id"] for s in shops} <= {"S_YOGA", *(f"S_MORE{n:02d}" for n in range(25))}


@LANGUAGES
@pytest.mark.parametrize(
    "tool", ["instore_shop_search_recommend", "instore_product_search_recommend"]
)
@pytest.mark.parametrize("keywords", [[], [" ", "\u3000"]], ids=["none", "blank"])
async def test_a_search_without_a_keyword_is_refused(
    language: str, tool: str, keywords: list[str]
) -> None:
    env = environment(world(language), language)
    assert await refusal(env, tool, keywords=keywords) == (
        True,
        "precondition",
        "keywords must contain at least one non-empty keyword.",
    )


@LANGUAGES
async def test_among_equal_matches_the_name_most_like_the_keywords_comes_first(
    language: str,
) -> None:
    """Both shops (and both products) contain the keyword; the one named exactly so wins,
    though it is listed second and its tags make its whole text less like the keyword."""
    words = WORDS[language]
    yoga, hall, long = words["yoga"], words["hall"], [words["quiet"], words["long"]]
    data = world(language)
    data["shops"]["S_HALL"] = shop("S_HALL", hall, [words["quiet"]], [])
    data["shops"]["S_PLAIN"] = shop("S_PLAIN", yoga, long, [])
    data["shops"]["S_STUDIO"] = shop(
        "S_STUDIO",
        words["studio"],
        [],
        [product("P_HALL", hall, [words["quiet"]]), product("P_PLAIN", yoga, long)],
    )
    env = environment(data, language)
    shops = await answer(env, "instore_shop_search_recommend", keywords=[yoga])
    assert [s["shop_id"] for s in shops[:2]] == ["S_PLAIN", "S_HALL"]
    products = await answer(env, "instore_product_search_recommend", keywords=[yoga])
    assert [p["product_id"] for p in products[:2]] == ["P_PLAIN", "P_HALL"]


# ---- cancelling a reservation -------------------------------------------------------------------


@LANGUAGES
async def test_cancelling_a_reservation_answers_and_stores_the_cancellation(language: str) -> None:
    env = environment(world(language), language)
    cancelled = {
        "reservation_id": "R_OLD",
        "shop_id": "S_SPA",
        "reservation_time": "2025-05-17 09:00:00",
        "update_time": TIME,
        "customer_id": "U1",
        "customer_count": 2,
        "status": "cancelled",
    }
    assert await answer(env, "instore_cancel_reservation", reservation_id="R_OLD") == {
        "message": "Reservation R_OLD is cancelled.",
        "reservation": cancelled,
    }
    assert env.db.reservations["R_OLD"].model_dump(mode="json") == cancelled
    assert env.snapshot()["reservations"]["R_OLD"] == cancelled
    assert await refusal(env, "instore_cancel_reservation", reservation_id="R_OLD") == (
        True,
        "precondition",
        "Reservation 'R_OLD' is cancelled and cannot be cancelled.",
    )


@LANGUAGES
async def test_a_used_reservation_cannot_be_cancelled(language: str) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    assert await refusal(env, "instore_cancel_reservation", reservation_id="R_DONE") == (
        True,
        "precondition",
        "Reservation 'R_DONE' is consumed and cannot be cancelled.",
    )
    assert env.snapshot() == before


# ---- making a reservation or a booking ----------------------------------------------------------

# (shop, tool) → the exact refusal: each shop takes only what it says it takes
NOT_ACCEPTED = [
    (
        "S_REST",
        "instore_reservation",
        "Shop 'S_REST' ({}) does not accept reservations; it accepts table bookings "
        "(instore_book).",
    ),
    ("S_NONE", "instore_reservation", "Shop 'S_NONE' ({}) does not accept reservations."),
    (
        "S_SPA",
        "instore_book",
        "Shop 'S_SPA' ({}) does not accept table bookings; it accepts reservations "
        "(instore_reservation).",
    ),
    ("S_NONE", "instore_book", "Shop 'S_NONE' ({}) does not accept table bookings."),
]


@LANGUAGES
@pytest.mark.parametrize(
    ("shop_id", "tool", "message"),
    NOT_ACCEPTED,
    ids=["booking-shop", "neither-shop", "reservation-shop", "neither-shop-book"],
)
async def test_a_shop_refuses_what_it_does_not_accept_and_names_what_it_does(
    language: str, shop_id: str, tool: str, message: str
) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    arguments = {"user_id": "U1", "shop_id": shop_id, "time": "2025-05-17 18:30:00"}
    assert await refusal(env, tool, **arguments) == (
        True,
        "precondition",
        message.format(env.db.shops[shop_id].shop_name),
    )
    assert env.snapshot() == before


@LANGUAGES
@pytest.mark.parametrize("tool", ["instore_reservation", "instore_book"])
@pytest.mark.parametrize(
    ("time", "message"),
    [
        (
            "2025-05-17 18:30",
            "time must be in 'YYYY-MM-DD HH:MM:SS' format, got '2025-05-17 18:30'.",
        ),
        (
            "2025-05-16 09:59:59",
            "time 2025-05-16 09:59:59 is earlier than the current time 2025-05-16 10:00:00.",
        ),
    ],
    ids=["no-seconds", "a-second-ago"],
)
async def test_a_visit_time_is_refused_naming_the_time_parameter(
    language: str, tool: str, time: str, message: str
) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    shop_id = "S_SPA" if tool == "instore_reservation" else "S_REST"
    arguments = {"user_id": "U1", "shop_id": shop_id, "time": time}
    assert await refusal(env, tool, **arguments) == (True, "precondition", message)
    assert env.snapshot() == before


@LANGUAGES
async def test_a_reservation_is_for_one_person_unless_told_and_stamped_with_the_clock(
    language: str,
) -> None:
    env = environment(world(language), language)
    made = await answer(
        env, "instore_reservation", user_id="U1", shop_id="S_SPA", time="2025-05-16 10:00:00"
    )
    stored = {
        "reservation_id": "RST1-001",
        "shop_id": "S_SPA",
        "reservation_time": "2025-05-16 10:00:00",
        "update_time": TIME,
        "customer_id": "U1",
        "customer_count": 1,
        "status": "unconsumed",
    }
    assert made == stored
    assert env.db.reservations["RST1-001"].model_dump(mode="json") == stored
    assert env.created_reservation_ids == ("RST1-001",)
    three = await answer(
        env,
        "instore_reservation",
        user_id="U1",
        shop_id="S_SPA",
        time="2025-05-17 9:05:00",
        customer_count=3,
    )
    assert three == {
        **stored,
        "reservation_id": "RST1-002",
        "reservation_time": "2025-05-17 09:05:00",
        "customer_count": 3,
    }
    assert env.created_reservation_ids == ("RST1-001", "RST1-002")


@LANGUAGES
@pytest.mark.parametrize(
    ("shop_id", "fee", "status"), [("S_REST", 50.0, "unpaid"), ("S_CAFE", 0.0, "paid")]
)
async def test_a_booking_is_for_one_guest_unless_told_and_charges_the_shops_fee(
    language: str, shop_id: str, fee: float, status: str
) -> None:
    env = environment(world(language), language)
    made = await answer(
        env, "instore_book", user_id="U1", shop_id=shop_id, time="2025-05-16 10:00:00"
    )
    stored = {
        "book_id": "BKT1-001",
        "shop_id": shop_id,
        "book_time": "2025-05-16 10:00:00",
        "update_time": TIME,
        "customer_id": "U1",
        "customer_count": 1,
        "book_price": fee,
        "status": status,
    }
    assert made == stored
    assert env.db.books["BKT1-001"].model_dump(mode="json") == stored
    assert env.created_book_ids == ("BKT1-001",)


# ---- product orders -----------------------------------------------------------------------------


def with_due_order(language: str) -> InStoreEnvironment:
    """The world plus O_DUE: the user's unpaid in-store order of one massage voucher, last
    changed a week ago, with its delivery-only fields filled (they are shown when filled)."""
    data = world(language)
    data["orders"]["O_DUE"] = {
        **data["orders"]["O_OLD"],
        "order_id": "O_DUE",
        "status": "unpaid",
        "create_time": "2025-05-09 09:00:00",
        "update_time": "2025-05-09 09:00:00",
        "dispatch_time": "2025-05-17 09:00:00",
        "delivery_time": "2025-05-17 09:30:00",
        "shipping_time": 30,
        "location": {"address": "Gate 2", "longitude": 120.1, "latitude": 30.2},
    }
    return environment(data, language)


def due_view(status: str) -> dict[str, Any]:
    return {
        "order_id": "O_DUE",
        "order_type": "instore",
        "user_id": "U1",
        "store_id": "S_SPA",
        "note": "",
        "location": {"address": "Gate 2", "longitude": 120.1, "latitude": 30.2},
        "dispatch_time": "2025-05-17 09:00:00",
        "shipping_time": 30.0,
        "delivery_time": "2025-05-17 09:30:00",
        "total_price": 158.0,
        "create_time": "2025-05-09 09:00:00",
        "update_time": TIME,
        "status": status,
        "products": [
            {
                "product_id": "P_MASSAGE",
                "name": None,
                "price": 158.0,
                "quantity": 1,
                "attributes": "",
            }
        ],
    }


@LANGUAGES
@pytest.mark.parametrize(
    ("product_id", "quantity", "total", "stock_after"),
    [("P_MASSAGE", 1, 158.0, 1), ("P_MASSAGE", 3, 474.0, 0), ("P_SOLD", 2, 396.0, 0)],
    ids=["within-stock", "beyond-stock", "sold-out"],
)
async def test_an_order_answers_exactly_takes_the_stock_there_is_and_cancelling_returns_it(
    language: str, product_id: str, quantity: int, total: float, stock_after: int
) -> None:
    env = environment(world(language), language)
    catalog = env.db.shops["S_SPA"].product(product_id)
    assert catalog is not None
    stock_before = catalog.quantity
    order = await answer(
        env,
        "create_instore_product_order",
        user_id="U1",
        shop_id="S_SPA",
        product_id=product_id,
        quantity=quantity,
    )
    view = {
        "order_id": "OIT1-001",
        "order_type": "instore",
        "user_id": "U1",
        "store_id": "S_SPA",
        "note": "",
        "total_price": total,
        "create_time": TIME,
        "update_time": TIME,
        "status": "unpaid",
        "products": [
            {
                "product_id": product_id,
                "name": catalog.name,
                "price": catalog.price,
                "quantity": quantity,
                "attributes": "",
            }
        ],
    }
    assert order == view
    assert catalog.quantity == stock_after
    assert env.created_order_ids == ("OIT1-001",)
    cancelled = await answer(env, "instore_cancel_order", order_id="OIT1-001")
    assert cancelled == {
        "message": "Order OIT1-001 is cancelled.",
        "order": {**view, "status": "cancelled"},
    }
    assert catalog.quantity == stock_before
    assert await refusal(env, "instore_cancel_order", order_id="OIT1-001") == (
        True,
        "precondition",
        "Order 'OIT1-001' is cancelled and cannot be cancelled.",
    )
    assert catalog.quantity == stock_before


@LANGUAGES
@pytest.mark.parametrize(
    ("price", "quantity", "total"),
    [(33.333, 3, 100.0), (12.25, 2, 24.5), (19.9, 3, 59.7)],
    ids=["third-decimal", "half-a-yuan", "float-noise"],
)
async def test_an_order_costs_price_times_quantity_rounded_to_the_fen(
    language: str, price: float, quantity: int, total: float
) -> None:
    data = world(language)
    data["shops"]["S_SPA"]["products"][0]["price"] = price
    env = environment(data, language)
    order = await answer(
        env,
        "create_instore_product_order",
        user_id="U1",
        shop_id="S_SPA",
        product_id="P_MASSAGE",
        quantity=quantity,
    )
    assert order["total_price"] == total
    assert env.db.orders["OIT1-001"].total_price == total


ORDER_REFUSED = [
    ({"user_id": "U2"}, "precondition", "User ID 'U2' does not match the current user."),
    ({"shop_id": "S_NOPE"}, "not_found", "Shop 'S_NOPE' not found."),
    (
        {"product_id": "P_SET"},
        "precondition",
        "Product 'P_SET' is sold by shop 'S_REST' ({}), not by shop 'S_SPA'.",
    ),
    ({"product_id": "P_NOPE"}, "not_found", "Product 'P_NOPE' not found in shop 'S_SPA'."),
    ({"quantity": 0}, "precondition", "quantity must be a positive integer."),
    ({"quantity": -2}, "precondition", "quantity must be a positive integer."),
]


@LANGUAGES
@pytest.mark.parametrize(
    ("change", "kind", "message"),
    ORDER_REFUSED,
    ids=[
        "other-user",
        "unknown-shop",
        "other-shops-product",
        "unknown-product",
        "zero",
        "negative",
    ],
)
async def test_an_order_refused_says_exactly_why_and_changes_nothing(
    language: str, change: dict[str, Any], kind: str, message: str
) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    stock_before = [(p.product_id, p.quantity) for s in env.db.shops.values() for p in s.products]
    arguments = {"user_id": "U1", "shop_id": "S_SPA", "product_id": "P_MASSAGE", **change}
    assert await refusal(env, "create_instore_product_order", **arguments) == (
        True,
        kind,
        message.format(env.db.shops["S_REST"].shop_name),
    )
    assert env.snapshot() == before
    assert [(p.product_id, p.quantity) for s in env.db.shops.values() for p in s.products] == (
        stock_before
    )


@LANGUAGES
async def test_ids_and_user_ids_are_read_as_the_data_writes_them(language: str) -> None:
    """Full-width letters and surrounding spaces are read as the plain id."""
    env = environment(world(language), language)
    order = await answer(
        env,
        "create_instore_product_order",
        user_id=" Ｕ1 ",
        shop_id="Ｓ_SPA ",
        product_id=" P_MASSAGE",
    )
    assert (order["store_id"], order["products"][0]["product_id"]) == ("S_SPA", "P_MASSAGE")
    assert (order["products"][0]["quantity"], order["total_price"]) == (1, 158.0)  # default 1
    paid = await answer(env, "pay_instore_order", order_id=" ＯIT1-001")
    assert paid["order"]["status"] == "paid"


@LANGUAGES
async def test_paying_an_order_answers_exactly_and_stamps_it(language: str) -> None:
    env = with_due_order(language)
    assert await answer(env, "pay_instore_order", order_id="O_DUE") == {
        "message": "Payment successful.",
        "order": due_view("paid"),
    }
    assert env.db.orders["O_DUE"].status == "paid"
    assert env.db.orders["O_DUE"].update_time == TIME
    assert await refusal(env, "pay_instore_order", order_id="O_DUE") == (
        True,
        "precondition",
        "Order 'O_DUE' is not in `unpaid` status (current status: paid).",
    )


@LANGUAGES
async def test_cancelling_an_earlier_order_leaves_the_stock_alone(language: str) -> None:
    env = with_due_order(language)
    assert await answer(env, "instore_cancel_order", order_id="O_DUE") == {
        "message": "Order O_DUE is cancelled.",
        "order": due_view("cancelled"),
    }
    assert env.db.orders["O_DUE"].update_time == TIME
    assert [p.quantity for p in env.db.shops["S_SPA"].products] == [2, 0]
    assert await refusal(env, "instore_cancel_order", order_id="O_USED") == (
        True,
        "precondition",
        "Order 'O_USED' is consumed and cannot be cancelled.",
    )


RECORD_REFUSED = [
    (
        "pay_instore_order",
        {"order_id": "O_DELIVERY"},
        "precondition",
        "Order 'O_DELIVERY' is a delivery order, not an in-store order.",
    ),
    (
        "instore_cancel_order",
        {"order_id": "O_OTHER"},
        "precondition",
        "Order 'O_OTHER' does not belong to the current user.",
    ),
    (
        "pay_instore_order",
        {"order_id": "O_NOPE"},
        "not_found",
        "In-store order 'O_NOPE' not found.",
    ),
    (
        "pay_instore_book",
        {"book_id": "B_OTHER"},
        "precondition",
        "Booking 'B_OTHER' does not belong to the current user.",
    ),
    ("instore_cancel_book", {"book_id": "B_NOPE"}, "not_found", "Booking 'B_NOPE' not found."),
    (
        "instore_cancel_reservation",
        {"reservation_id": "R_OTHER"},
        "precondition",
        "Reservation 'R_OTHER' does not belong to the current user.",
    ),
    (
        "instore_cancel_reservation",
        {"reservation_id": "R_NOPE"},
        "not_found",
        "Reservation 'R_NOPE' not found.",
    ),
    (
        "instore_reservation",
        {"user_id": "U1", "shop_id": "S_SPA", "time": "2025-05-17 09:00:00", "customer_count": 0},
        "precondition",
        "customer_count must be a positive integer.",
    ),
    (
        "instore_book",
        {"user_id": "U1", "shop_id": "S_REST", "time": "2025-05-17 09:00:00", "customer_count": -1},
        "precondition",
        "customer_count must be a positive integer.",
    ),
    (
        "instore_book",
        {"user_id": "U2", "shop_id": "S_REST", "time": "2025-05-17 09:00:00"},
        "precondition",
        "User ID 'U2' does not match the current user.",
    ),
    (
        "instore_reservation",
        {"user_id": "U1", "shop_id": "S_NOPE", "time": "2025-05-17 09:00:00"},
        "not_found",
        "Shop 'S_NOPE' not found.",
    ),
]


@LANGUAGES
@pytest.mark.parametrize(
    ("tool", "arguments", "kind", "message"),
    RECORD_REFUSED,
    ids=[f"{tool}-{i}" for i, (tool, *_) in enumerate(RECORD_REFUSED)],
)
async def test_a_record_tool_refused_says_exactly_why_and_changes_nothing(
    language: str, tool: str, arguments: dict[str, Any], kind: str, message: str
) -> None:
    env = environment(world(language), language)
    before = env.snapshot()
    assert await refusal(env, tool, **arguments) == (True, kind, message)
    assert env.snapshot() == before


@LANGUAGES
async def test_paying_a_booking_answers_exactly_and_stamps_it(language: str) -> None:
    env = environment(world(language), language)
    paid = {
        "book_id": "B_OLD",
        "shop_id": "S_REST",
        "book_time": "2025-05-17 18:00:00",
        "update_time": TIME,
        "customer_id": "U1",
        "customer_count": 2,
        "book_price": 50.0,
        "status": "paid",
    }
    assert await answer(env, "pay_instore_book", book_id="B_OLD") == {
        "message": "Payment successful.",
        "book": paid,
    }
    assert env.db.books["B_OLD"].model_dump(mode="json") == paid
    assert await refusal(env, "pay_instore_book", book_id="B_OLD") == (
        True,
        "precondition",
        "Booking 'B_OLD' is not in `unpaid` status (current status: paid).",
    )


@LANGUAGES
async def test_new_ids_skip_those_the_data_already_has_and_each_kind_counts_alone(
    language: str,
) -> None:
    data = world(language)
    data["orders"]["OIT1-001"] = {**data["orders"]["O_OLD"], "order_id": "OIT1-001"}
    data["books"]["BKT1-001"] = {**data["books"]["B_OLD"], "book_id": "BKT1-001"}
    env = InStoreEnvironment(make_task(data, task_id="T1"), language)  # type: ignore[arg-type]
    visit = {"user_id": "U1", "time": "2025-05-17 18:30:00"}
    order = await answer(
        env, "create_instore_product_order", user_id="U1", shop_id="S_SPA", product_id="P_MASSAGE"
    )
    book = await answer(env, "instore_book", shop_id="S_CAFE", **visit)
    reservation = await answer(env, "instore_reservation", shop_id="S_SPA", **visit)
    second = await answer(env, "instore_book", shop_id="S_CAFE", **visit)
    assert (order["order_id"], book["book_id"], reservation["reservation_id"]) == (
        "OIT1-002",
        "BKT1-002",
        "RST1-001",
    )
    assert second["book_id"] == "BKT1-003"
    assert env.snapshot() == {
        "time": TIME,
        "user_id": "U1",
        "orders": {k: o.model_dump(mode="json") for k, o in env.db.orders.items()},
        "books": {k: b.model_dump(mode="json") for k, b in env.db.books.items()},
        "reservations": {k: r.model_dump(mode="json") for k, r in env.db.reservations.items()},
        "created_order_ids": ["OIT1-002"],
        "created_book_ids": ["BKT1-002", "BKT1-003"],
        "created_reservation_ids": ["RST1-001"],
    }
    assert list(env.snapshot()["books"]) == ["B_OLD", "B_OTHER", "BKT1-001", "BKT1-002", "BKT1-003"]
    assert env.snapshot()["orders"]["OIT1-002"] == env.db.orders["OIT1-002"].model_dump(mode="json")
    assert env.snapshot()["reservations"]["RST1-001"]["status"] == "unconsumed"
    assert env.snapshot()["books"]["BKT1-003"]["status"] == "paid"


HOLIDAY = {
    "en": {
        "date": "2025-10-01",
        "weekday": "Wednesday",
        "is_holiday": True,
        "holidays": ["National Day"],
    },
    "zh": {"date": "2025-10-01", "weekday": "星期三", "is_holiday": True, "holidays": ["国庆节"]},
}


async def test_without_a_language_the_environment_answers_in_english() -> None:
    env = InStoreEnvironment(make_task())
    assert env.language == "en"
    assert await answer(env, "get_date_holiday_info", date="2025-10-01") == HOLIDAY["en"]


@LANGUAGES
async def test_the_environment_answers_in_the_language_it_is_given(language: str) -> None:
    env = environment(world(language), language)
    assert (env.language, env.task_id) == (language, "T1")
    assert await answer(env, "get_date_holiday_info", date="2025-10-01") == HOLIDAY[language]
    assert (env.created_order_ids, env.created_book_ids, env.created_reservation_ids) == (
        (),
        (),
        (),
    )


@LANGUAGES
async def test_an_earlier_order_of_a_shop_no_longer_listed_can_be_cancelled(language: str) -> None:
    data = world(language)
    data["orders"]["O_OLD"]["store_id"] = "S_GONE"
    env = environment(data, language)
    stock_before = [(p.product_id, p.quantity) for s in env.db.shops.values() for p in s.products]
    cancelled = await answer(env, "instore_cancel_order", order_id="O_OLD")
    assert (cancelled["message"], cancelled["order"]["store_id"]) == (
        "Order O_OLD is cancelled.",
        "S_GONE",
    )
    assert env.db.orders["O_OLD"].status == "cancelled"
    assert [(p.product_id, p.quantity) for s in env.db.shops.values() for p in s.products] == (
        stock_before
    )


@LANGUAGES
@pytest.mark.parametrize(("fee", "status"), [(0.5, "unpaid"), (1.0, "unpaid"), (0.0, "paid")])
async def test_any_booking_fee_leaves_the_booking_unpaid(
    language: str, fee: float, status: str
) -> None:
    data = world(language)
    data["shops"]["S_CAFE"]["book_price"] = fee
    env = environment(data, language)
    book = await answer(
        env, "instore_book", user_id="U1", shop_id="S_CAFE", time="2025-05-17 18:30:00"
    )
    assert (book["book_price"], book["status"]) == (fee, status)
    assert env.db.books[book["book_id"]].status == status
