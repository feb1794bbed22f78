"""The VitaBench tools accept what the official tools accept when the meaning is plain (integral
floats, null optionals, unpadded dates and times) and never answer for another festival, place
or city than the one asked for."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lifebench.vita.domains._calendar import FESTIVAL_YEARS, festival_table, find_festival
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.task import VitaTask

TIME = "2025-06-21 11:20:00"
HOME = "Room 502, Building 3, Evergreen Garden, No. 8 Lakeside Road, Xihu District, Hangzhou"
OFFICE = "Tower B, Jinzheng Haiyue International, 99 Wensan Road, Xihu District, Hangzhou"
STATION = "Hangzhou East Railway Station, Shangcheng District, Hangzhou"
NOODLES = "Lanzhou Noodle House, 12 Wensan Road, Xihu District, Hangzhou"
NOODLES_2 = "Lanzhou Noodle House, 300 Tianmushan Road, Xihu District, Hangzhou"


def loc(address: str, lon: float, lat: float) -> dict[str, Any]:
    return {"address": address, "longitude": lon, "latitude": lat}


def weather(city: str, day: str = "2025-06-21") -> dict[str, Any]:
    return {"city": city, "category": "sunny", "datetime": day, "temperature": [20, 28]}


def product(pid: str, store: str, price: float, attributes: list[str]) -> dict[str, Any]:
    return {
        "product_id": pid,
        "name": pid,
        "store_id": store,
        "store_name": "Lanzhou Noodle House",
        "price": price,
        "attributes": attributes,
        "tags": [],
    }


def delivery_env(**extra: Any) -> DeliveryEnvironment:
    environment: dict[str, Any] = {
        "time": TIME,
        "user_id": "U1",
        "weather": [weather("Suzhou City"), weather("Hangzhou City"), weather("Guiyang City")],
        "location": [
            loc(HOME, 120.100, 30.280),
            loc(OFFICE, 120.120, 30.285),
            loc(STATION, 120.212, 30.291),
            loc(NOODLES_2, 120.090, 30.270),
        ],
        "stores": {
            "S1": {
                "store_id": "S1",
                "name": "Lanzhou Noodle House",
                "score": 4.5,
                "location": loc(NOODLES, 120.118, 30.284),
                "tags": ["noodles"],
                "products": [
                    product("P1", "S1", 18.0, ["Mild Spicy", "Extra Spicy"]),
                    product("P2", "S1", 4.0, []),
                ],
            }
        },
        **extra,
    }
    return DeliveryEnvironment(VitaTask(id="LEN", domain="delivery", environment=environment))


async def call(env: Any, name: str, **arguments: Any) -> tuple[bool, Any]:
    outcome = await env.tools.run(name, json.dumps(arguments))
    return outcome.error, (outcome.content if outcome.error else json.loads(outcome.content))


def order_args(**overrides: Any) -> dict[str, Any]:
    args = {
        "user_id": "U1",
        "store_id": "S1",
        "product_ids": ["P1", "P2"],
        "product_cnts": [2, 1],
        "address": HOME,
        "dispatch_time": "2025-06-21 11:30:00",
        "attributes": ["Mild Spicy", ""],
    }
    return {**args, **overrides}


# ---- integral floats and nulls in the domains -----------------------------------------------


async def test_delivery_order_with_float_counts_and_null_note() -> None:
    error, order = await call(
        delivery_env(), "create_delivery_order", **order_args(product_cnts=[2.0, 1.0], note=None)
    )
    assert not error, order
    assert [p["quantity"] for p in order["products"]] == [2, 1]
    assert order["note"] == "" and order["total_price"] == 40.0


async def test_delivery_order_with_a_fractional_count_is_refused() -> None:
    error, content = await call(
        delivery_env(), "create_delivery_order", **order_args(product_cnts=[1.5, 1])
    )
    assert error and "product_cnts" in content


async def test_null_attributes_mean_none_chosen() -> None:
    arguments = order_args(product_ids=["P2"], product_cnts=[1.0], attributes=None)
    error, order = await call(delivery_env(), "create_delivery_order", **arguments)
    assert not error, order
    assert order["products"][0]["attributes"] == ""


async def test_null_status_searches_the_default_status() -> None:
    env = delivery_env()
    await call(env, "create_delivery_order", **order_args())
    error, rows = await call(env, "search_delivery_orders", user_id="U1", status=None)
    assert not error and [r["status"] for r in rows] == ["unpaid"]


# ---- unpadded dates and times ---------------------------------------------------------------


@pytest.mark.parametrize(
    "dispatch",
    ["2025-6-21 11:30:00", "2025-06-21 11:30:0", "2025-6-21\u00a011:30:00", "2025-06-21  11:30:00"],
)
async def test_unpadded_dispatch_time_is_accepted_and_stored_canonically(dispatch: str) -> None:
    error, order = await call(
        delivery_env(), "create_delivery_order", **order_args(dispatch_time=dispatch)
    )
    assert not error, order
    assert order["dispatch_time"] == "2025-06-21 11:30:00"


@pytest.mark.parametrize("dispatch", ["2025-06-21 11:30", "2025-06-21T11:30:00", "2025-06-21"])
async def test_what_the_official_tool_refuses_stays_refused(dispatch: str) -> None:
    error, content = await call(
        delivery_env(), "create_delivery_order", **order_args(dispatch_time=dispatch)
    )
    assert error and "YYYY-MM-DD HH:MM:SS" in content


async def test_unpadded_dates_in_weather_and_holiday_tools() -> None:
    env = delivery_env()
    error, out = await call(
        env, "weather", address="Hangzhou", date_start="2025-6-21", date_end="2025-6-21"
    )
    assert not error and [d["date"] for d in out["days"]] == ["2025-06-21"]
    error, out = await call(env, "get_date_holiday_info", date="2025-10-1")
    assert not error and out["date"] == "2025-10-01" and out["is_holiday"]


def instore_env() -> InStoreEnvironment:
    shop = {
        "shop_id": "SH1",
        "shop_name": "Harbour Grill",
        "score": 4.6,
        "location": loc(NOODLES, 120.118, 30.284),
        "enable_book": True,
        "book_price": 0,
        "enable_reservation": True,
        "products": [
            {"product_id": "V1", "name": "Set", "shop_id": "SH1", "price": 99, "quantity": 5}
        ],
    }
    environment = {"time": TIME, "user_id": "U1", "shops": {"SH1": shop}}
    return InStoreEnvironment(VitaTask(id="LEN", domain="instore", environment=environment))


async def test_instore_quantity_count_and_time_are_lenient() -> None:
    env = instore_env()
    error, order = await call(
        env,
        "create_instore_product_order",
        user_id="U1",
        shop_id="SH1",
        product_id="V1",
        quantity=2.0,
    )
    assert not error and order["products"][0]["quantity"] == 2
    error, book = await call(
        env,
        "instore_book",
        user_id="U1",
        shop_id="SH1",
        time="2025-6-22 9:05:00",
        customer_count=3.0,
    )
    assert not error, book
    assert (book["book_time"], book["customer_count"]) == ("2025-06-22 09:05:00", 3)
    error, content = await call(
        env, "instore_book", user_id="U1", shop_id="SH1", time=TIME, customer_count=2.5
    )
    assert error and "customer_count" in content


async def test_ota_dated_booking_with_unpadded_date_and_float_quantity() -> None:
    attraction = {
        "attraction_id": "A1",
        "attraction_name": "West Lake Boat Tour",
        "location": loc(STATION, 120.212, 30.291),
        "description": "Boat tour",
        "score": 4.7,
        "opening_hours": "08:00-18:00",
        "ticket_price": 55,
        "products": [
            {
                "product_id": "T1",
                "price": 55,
                "quantity": 4,
                "date": "2025-06-23",
                "ticket_type": "Adult",
            }
        ],
    }
    environment = {"time": TIME, "user_id": "U1", "attractions": {"A1": attraction}}
    env = OTAEnvironment(VitaTask(id="LEN", domain="ota", environment=environment))
    error, order = await call(
        env,
        "create_attraction_order",
        attraction_id="A1",
        ticket_id="T1",
        user_id="U1",
        date="2025-6-23",
        quantity=2.0,
    )
    assert not error, order
    assert order["products"][0]["date"] == "2025-06-23" and order["products"][0]["quantity"] == 2


# ---- festivals --------------------------------------------------------------------------------

# Every name the official get_holiday_date table knows (English and Chinese), with the date it
# gives; ours agree except the official table's 2025 Lantern Festival (02-15, lunar 1/15 is
# 02-12; see docs/compat.md).
OFFICIAL_FESTIVALS = {
    "2025": {
        ("New Year's Day", "元旦节"): "2025-01-01",
        ("Start of Autumn", "立秋"): "2025-08-07",
        ("Women's Day", "妇女节"): "2025-03-08",
        ("Laba Festival", "腊八节"): "2025-01-07",
        ("Dragon Head Festival", "龙头节"): "2025-03-01",
        ("Party Founding Day", "建党节"): "2025-07-01",
        ("Qingming Festival", "清明节"): "2025-04-04",
        ("Double Ninth Festival", "重阳节"): "2025-10-29",
        ("Dragon Boat Festival", "端午节"): "2025-05-31",
        ("Mother's Day", "母亲节"): "2025-05-11",
        ("Lantern Festival", "元宵节"): "2025-02-12",
        ("Labor Day", "劳动节"): "2025-05-01",
        ("Qixi Festival", "七夕节"): "2025-08-29",
        ("Winter Solstice", "冬至"): "2025-12-21",
        ("Christmas Day", "圣诞节"): "2025-12-25",
        ("National Day", "国庆节"): "2025-10-01",
        ("Mid-Autumn Festival", "中秋节"): "2025-10-06",
    },
    "2024": {
        ("Double Ninth Festival", "重阳节"): "2024-10-11",
        ("Qixi Festival", "七夕节"): "2024-08-10",
        ("Valentine's Day", "情人节"): "2024-02-14",
        ("Qingming Festival", "清明节"): "2024-04-04",
        ("Dragon Boat Festival", "端午节"): "2024-06-10",
        ("Lantern Festival", "元宵节"): "2024-02-24",
        ("Mid-Autumn Festival", "中秋节"): "2024-09-17",
    },
    "2023": {
        ("National Day", "国庆节"): "2023-10-01",
        ("Dragon Boat Festival", "端午节"): "2023-06-22",
        ("Mid-Autumn Festival", "中秋节"): "2023-09-29",
        ("Qingming Festival", "清明节"): "2023-04-05",
        ("Double Ninth Festival", "重阳节"): "2023-10-23",
        ("Father's Day", "父亲节"): "2023-06-18",
    },
}


@pytest.mark.parametrize(
    ("year", "names", "day"),
    [(y, n, d) for y, table in OFFICIAL_FESTIVALS.items() for n, d in table.items()],
    ids=lambda v: v if isinstance(v, str) else v[0],
)
async def test_every_official_festival_is_known_in_both_languages(
    year: str, names: tuple[str, str], day: str
) -> None:
    env = delivery_env()
    for name in names:
        error, out = await call(env, "get_holiday_date", year=year, holiday_name=name)
        assert not error, out
        assert out["date"] == day and out["holiday"] == names[0]


@pytest.mark.parametrize(
    "name", ["Easter", "New Year's Eve", "White Valentine's Day", "Dragon Festival", "Diwali"]
)
async def test_a_name_matching_no_festival_is_not_found(name: str) -> None:
    error, content = await call(delivery_env(), "get_holiday_date", year="2025", holiday_name=name)
    assert error and "not found" in content and "Known holidays" in content


async def test_unknown_festival_lists_close_names() -> None:
    error, content = await call(
        delivery_env(), "get_holiday_date", year="2025", holiday_name="Dragon Festival"
    )
    assert error and "Closest names: Dragon Boat Festival, Dragon Head Festival" in content


def test_no_festival_name_designates_another_festival() -> None:
    """Each name of the table (and each official name) designates its own festival only."""
    for fest in festival_table():
        for label in (fest.en, fest.zh, *fest.aliases):
            assert find_festival(label) is fest, label
    assert find_festival("Laba Festival") is not find_festival("Qingming Festival")


async def test_a_festival_missing_from_a_calendar_year() -> None:
    error, content = await call(
        delivery_env(), "get_holiday_date", year="2023", holiday_name="Laba"
    )
    assert error and "does not fall in calendar year 2023" in content and "2024-01-18" in content
    laba = find_festival("腊八节")
    assert laba is not None and [laba.occurs_in(y) for y in FESTIVAL_YEARS] == [
        False,
        True,
        True,
        True,
    ]


# ---- weather: the city asked for, or none -----------------------------------------------------


@pytest.mark.parametrize(
    ("place", "city"),
    [
        ("Suzhou", "Suzhou City"),
        ("suzhou city", "Suzhou City"),
        (HOME, "Hangzhou City"),
        ("162 Beijing Road, Yunyan District, Guiyang", "Guiyang City"),  # a street, not a city
    ],
)
async def test_weather_answers_for_the_city_named(place: str, city: str) -> None:
    error, out = await call(
        delivery_env(), "weather", address=place, date_start="2025-06-21", date_end="2025-06-21"
    )
    assert not error, out
    assert out["city"] == city


async def test_weather_for_an_unknown_city_is_not_found_with_candidates() -> None:
    error, content = await call(
        delivery_env(), "weather", address="Huzhou", date_start="2025-06-21", date_end="2025-06-21"
    )
    assert error and "not found for 'Huzhou'" in content and "Suzhou City" in content


async def test_weather_for_two_cities_at_once_is_ambiguous() -> None:
    error, content = await call(
        delivery_env(),
        "weather",
        address="from Suzhou to Hangzhou",
        date_start="2025-06-21",
        date_end="2025-06-21",
    )
    assert error and "several cities" in content


# ---- geocoding: the place asked for, or none --------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (HOME, HOME),
        ("Evergreen Garden, No. 8 Lakeside Road", HOME),  # shortened
        ("Jinzheng Haiyue International", OFFICE),  # the name only
        (OFFICE + ", 12th Floor", OFFICE),  # extended
        ("lanzhou noodle house, 12 wensan road", NOODLES),  # the store
    ],
)
async def test_geocoding_resolves_shortened_and_extended_forms(query: str, expected: str) -> None:
    error, out = await call(delivery_env(), "address_to_longitude_latitude", address=query)
    assert not error, out
    assert out["matched_address"] == expected


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ("Room 503, Building 3, Evergreen Garden, No. 8 Lakeside Road", "other room number"),
        ("3rd Floor", "no name"),
        ("Building 3", "no name"),
        ("Xihu District, Hangzhou", "a district is no place"),
        ("Wensan Road, Xihu District, Hangzhou", "a street is not a house on it"),
        ("Kiosk 4 near Hangzhou East Railway Station, Shangcheng District", "only near it"),
        ("Kiosk near Hangzhou East Railway Station, Shangcheng District, Hangzhou", "near it"),
        ("Huzhou Grand Hotel, Wuxing District, Huzhou", "another city"),
    ],
)
async def test_geocoding_never_answers_another_place(query: str, why: str) -> None:
    error, content = await call(delivery_env(), "address_to_longitude_latitude", address=query)
    assert error and "not found" in content.lower(), why


async def test_geocoding_not_found_names_the_closest_known_addresses() -> None:
    query = "Room 503, Building 3, Evergreen Garden, No. 8 Lakeside Road"
    error, content = await call(delivery_env(), "address_to_longitude_latitude", address=query)
    assert error and f"Closest known addresses: '{HOME}'" in content


async def test_geocoding_a_name_shared_by_two_places_is_ambiguous() -> None:
    error, content = await call(
        delivery_env(), "address_to_longitude_latitude", address="Lanzhou Noodle House"
    )
    assert error and "ambiguous" in content and NOODLES in content and NOODLES_2 in content


async def test_an_order_to_an_unresolvable_address_is_refused() -> None:
    error, content = await call(
        delivery_env(), "create_delivery_order", **order_args(address="Xihu District, Hangzhou")
    )
    assert error and "Address not found" in content
