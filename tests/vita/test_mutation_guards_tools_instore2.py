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
