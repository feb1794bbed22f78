"""The OTA environment's 38 tools: inventory, happy and error paths, stock, isolation, ids."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest

from lifebench.environment import Environment
from lifebench.errors import InputError
from lifebench.tools import ToolOutcome
from lifebench.vita.domains.ota import OTAEnvironment, in_city
from lifebench.vita.task import VitaTask

TIME = "2025-06-10 10:00:00"
HOME = "Room 801, Building 12, Jade Garden, 368 Zhangyang Road, Pudong New Area, Shanghai"
LAKE_HOTEL = "18 Beishan Street, Xihu District, Hangzhou, Zhejiang Province"

# name → parameters, exactly as in the official harness (spec §2.2 / §2.5)
OFFICIAL: dict[str, list[str]] = {
    "longitude_latitude_to_distance": ["longitude1", "latitude1", "longitude2", "latitude2"],
    "weather": ["address", "date_start", "date_end"],
    "address_to_longitude_latitude": ["address"],
    "get_date_holiday_info": ["date"],
    "get_holiday_date": ["year", "holiday_name"],
    "get_user_historical_behaviors": [],
    "get_user_all_orders": [],
    "get_nearby": ["longitude", "latitude", "range"],
    "get_ota_hotel_info": ["hotel_id"],
    "get_ota_attraction_info": ["attraction_id"],
    "get_ota_flight_info": ["flight_id"],
    "get_ota_train_info": ["train_id"],
    "hotel_search_recommand": ["city_name", "key_words"],
    "attractions_search_recommend": ["city_name", "key_words"],
    "flight_search_recommend": ["departure", "destination"],
    "train_ticket_search": ["departure", "destination", "date"],
    "create_hotel_order": ["hotel_id", "room_id", "user_id"],
    "create_attraction_order": ["attraction_id", "ticket_id", "user_id", "date", "quantity"],
    "create_flight_order": ["flight_id", "seat_id", "user_id", "date", "quantity"],
    "create_train_order": ["train_id", "seat_id", "user_id", "date", "quantity"],
    "pay_hotel_order": ["order_id"],
    "pay_attraction_order": ["order_id"],
    "pay_flight_order": ["order_id"],
    "pay_train_order": ["order_id"],
    "search_hotel_order": ["user_id", "date", "status"],
    "search_attraction_order": ["user_id", "date", "status"],
    "search_flight_order": ["user_id", "date", "status"],
    "search_train_order": ["user_id", "date", "status"],
    "get_hotel_order_detail": ["order_id"],
    "get_attraction_order_detail": ["order_id"],
    "get_flight_order_detail": ["order_id"],
    "get_train_order_detail": ["order_id"],
    "modify_flight_order": ["order_id", "user_id", "new_date"],
    "modify_train_order": ["order_id", "user_id", "new_date"],
    "cancel_hotel_order": ["order_id", "user_id"],
    "cancel_attraction_order": ["order_id", "user_id"],
    "cancel_flight_order": ["order_id", "user_id"],
    "cancel_train_order": ["order_id", "user_id"],
}
OPTIONAL = {
    "hotel_search_recommand": {"key_words"},
    **{f"search_{t}_order": {"date", "status"} for t in ("hotel", "attraction", "flight", "train")},
}
WRITE = {n for n in OFFICIAL if n.split("_")[0] in ("create", "pay", "modify", "cancel")}
GENERAL = {
    "longitude_latitude_to_distance",
    "weather",
    "address_to_longitude_latitude",
    "get_date_holiday_info",
    "get_holiday_date",
}


def loc(address: str, lon: float, lat: float) -> dict[str, Any]:
    return {"address": address, "longitude": lon, "latitude": lat}


def room(pid: str, room_type: str, date: str, price: float, qty: int) -> dict[str, Any]:
    return {
        "product_id": pid,
        "price": price,
        "quantity": qty,
        "date": date,
        "room_type": room_type,
    }


def seat(pid: str, seat_type: str, date: str, price: float, qty: int) -> dict[str, Any]:
    return {
        "product_id": pid,
        "price": price,
        "quantity": qty,
        "date": date,
        "seat_type": seat_type,
    }


def line(product: dict[str, Any], quantity: int = 1) -> dict[str, Any]:
    return {**{k: v for k, v in product.items() if k != "quantity"}, "quantity": quantity}


def booked(oid: str, otype: str, store: str, product: dict[str, Any], status: str, **kw: Any):
    qty = kw.pop("quantity", 1)
    return {
        "order_id": oid,
        "order_type": otype,
        "user_id": kw.pop("user_id", "U1"),
        "store_id": store,
        "note": "",
        "location": None,
        "dispatch_time": "",
        "shipping_time": None,
        "delivery_time": "",
        "total_price": product["price"] * qty,
        "create_time": "2025-06-01 09:00:00",
        "update_time": "2025-06-01 09:00:00",
        "status": status,
        "products": [line(product, qty)],
    }


def make_environment_dict() -> dict[str, Any]:
    """Two Hangzhou hotels and one in Suzhou, an attraction, flights, trains, six orders."""
    hz_king_12 = room("H1_K_0612", "Lake View King Room", "2025-06-12", 560, 2)
    hz_king_13 = room("H1_K_0613", "Lake View King Room", "2025-06-13", 600, 0)
    tr_2c_15 = seat("T1_2C_0615", "Second class", "2025-06-15", 140, 10)
    tr_2c_16 = seat("T1_2C_0616", "Second class", "2025-06-16", 160, 5)
    tr_2c_17 = seat("T1_2C_0617", "Second class", "2025-06-17", 120, 5)
    fl_y_20 = seat("F1_Y_0620", "Economy", "2025-06-20", 1000, 3)
    return {
        "time": TIME,
        "user_id": "U1",
        "weather": [
            {
                "city": "Hangzhou City",
                "category": "sunny",
                "datetime": "2025-06-12",
                "temperature": [22, 30],
                "humidity": 60,
            }
        ],
        "location": [loc(HOME, 121.526, 31.233)],
        "user_historical_behaviors": {"user id": "U1", "home address": HOME},
        "orders": {
            "O_TRAIN": booked("O_TRAIN", "train", "T1", tr_2c_15, "paid"),
            "O_TRAIN_UNPAID": booked("O_TRAIN_UNPAID", "train", "T1", tr_2c_15, "unpaid"),
            "O_HOTEL": booked("O_HOTEL", "hotel", "H1", hz_king_12, "paid"),
            "O_USED": booked(
                "O_USED",
                "attraction",
                "A1",
                {
                    "product_id": "A1_AD_0601",
                    "price": 50,
                    "date": "2025-06-01",
                    "ticket_type": "Adult ticket",
                },
                "consumed",
            ),
            "O_OTHER_USER": booked("O_OTHER_USER", "flight", "F1", fl_y_20, "unpaid", user_id="U2"),
            "O_DELIVERY": {
                "order_id": "O_DELIVERY",
                "order_type": "delivery",
                "user_id": "U1",
                "store_id": "S1",
                "total_price": 25,
                "create_time": "2025-06-10 09:00:00",
                "status": "unpaid",
                "products": [{"product_id": "P1", "price": 25, "quantity": 1}],
            },
        },
        "hotels": {
            "H1": {
                "hotel_id": "H1",
                "hotel_name": "West Lake Lakeview Hotel",
                "score": 4.8,
                "star_rating": 5,
                "location": loc(LAKE_HOTEL, 120.146, 30.262),
                "tags": ["Lake view", "Breakfast included"],
                "products": [
                    room("H1_K_0609", "Lake View King Room", "2025-06-09", 560, 5),
                    hz_king_12,
                    room("H1_T_0612", "Lake View Twin Room", "2025-06-12", 520, 1),
                    hz_king_13,
                ],
                "hotel_type": "target",  # a hidden annotation: never shown
            },
            "H2": {
                "hotel_id": "H2",
                "hotel_name": "Qiantang Riverside Grand Hotel",
                "score": 4.6,
                "star_rating": 5,
                "location": loc(
                    "1 Fuchun Road, Shangcheng District, Hangzhou, Zhejiang Province",
                    120.21,
                    30.245,
                ),
                "tags": ["River view"],
                "products": [room("H2_K_0612", "River View King Room", "2025-06-12", 880, 4)],
            },
            "H3": {
                "hotel_id": "H3",
                "hotel_name": "Jinji Lake Hotel",
                "score": 4.9,
                "star_rating": 5,
                "location": loc(
                    "9 Suzhou Avenue East, Suzhou Industrial Park, Suzhou, Jiangsu Province",
                    120.672,
                    31.318,
                ),
                "tags": ["Lake view"],
                "products": [room("H3_K_0612", "Lake View King Room", "2025-06-12", 450, 2)],
            },
        },
        "attractions": {
            "A1": {
                "attraction_id": "A1",
                "attraction_name": "Lingyin Temple",
                "location": loc(
                    "1 Fayun Lane, Xihu District, Hangzhou, Zhejiang Province", 120.101, 30.241
                ),
                "description": "Buddhist temple with grottoes",
                "score": 4.7,
                "opening_hours": "07:00-18:00",
                "ticket_price": 45,
                "products": [
                    {
                        "product_id": "A1_AD_0612",
                        "price": 45,
                        "quantity": 10,
                        "date": "2025-06-12",
                        "ticket_type": "Adult ticket",
                    },
                    {
                        "product_id": "A1_AD_0613",
                        "price": 45,
                        "quantity": 2,
                        "date": "2025-06-13",
                        "ticket_type": "Adult ticket",
                    },
                    {
                        "product_id": "A1_AD_0601",
                        "price": 50,
                        "quantity": 10,
                        "date": "2025-06-01",
                        "ticket_type": "Adult ticket",
                    },
                ],
            }
        },
        "flights": {
            "F1": {
                "flight_id": "F1",
                "flight_number": "CA1701",
                "departure_city": "Shanghai",
                "arrival_city": "Xi'an",
                "departure_airport_location": loc(
                    "Shanghai Pudong International Airport, Pudong New Area, Shanghai",
                    121.805,
                    31.143,
                ),
                "arrival_airport_location": loc(
                    "Xi'an Xianyang International Airport, Xianyang, Shaanxi Province",
                    108.752,
                    34.447,
                ),
                "departure_time": "08:00",
                "arrival_time": "10:40",
                "tags": [],
                "products": [
                    fl_y_20,
                    seat("F1_J_0620", "Business", "2025-06-20", 3000, 2),
                    seat("F1_Y_0621", "Economy", "2025-06-21", 900, 3),
                ],
            },
            "F2": {
                "flight_id": "F2",
                "flight_number": "MF8001",
                "departure_city": "Shanghai",
                "arrival_city": "Xiamen",
                "departure_airport_location": None,
                "arrival_airport_location": None,
                "departure_time": "09:00",
                "arrival_time": "11:00",
                "tags": [],
                "products": [seat("F2_Y_0620", "Economy", "2025-06-20", 800, 5)],
            },
        },
        "trains": {
            "T1": {
                "train_id": "T1",
                "train_number": "G7001",
                "departure_city": "Shanghai",
                "arrival_city": "Nanjing",
                "departure_station_location": loc(
                    "Shanghai Hongqiao Railway Station, Minhang District, Shanghai", 121.32, 31.194
                ),
                "arrival_station_location": loc(
                    "Nanjing South Railway Station, Yuhuatai District, Nanjing, Jiangsu Province",
                    118.797,
                    31.969,
                ),
                "departure_time": "07:30",
                "arrival_time": "08:45",
                "tags": [],
                "products": [
                    tr_2c_15,
                    seat("T1_1C_0615", "First class", "2025-06-15", 230, 4),
                    tr_2c_16,
                    tr_2c_17,
                    seat("T1_2C_0618", "Second class", "2025-06-18", 150, 0),
                ],
            }
        },
    }


def make_task(env: dict[str, Any] | None = None, task_id: str = "OT1") -> VitaTask:
    return VitaTask(id=task_id, environment=env or make_environment_dict())


@pytest.fixture
def env() -> OTAEnvironment:
    return OTAEnvironment(make_task())


def run(env: OTAEnvironment, name: str, **args: Any) -> ToolOutcome:
    return asyncio.run(env.tools.run(name, args))


def ok(env: OTAEnvironment, name: str, **args: Any) -> Any:
    outcome = run(env, name, **args)
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


def err(env: OTAEnvironment, name: str, kind: str, *needles: str, **args: Any) -> str:
    outcome = run(env, name, **args)
    assert outcome.error and outcome.error_kind == kind, (outcome.error_kind, outcome.content)
    for needle in needles:
        assert needle in outcome.content, outcome.content
    return outcome.content


def stock(env: OTAEnvironment, table: str, provider: str, product_id: str) -> int:
    p = getattr(env.db, table)[provider]
    return next(x.quantity for x in p.products if x.product_id == product_id)


# ---- inventory ------------------------------------------------------------------------------


def test_exactly_the_official_38_tools_with_their_parameters(env: OTAEnvironment) -> None:
    assert isinstance(env, Environment)
    assert sorted(env.tools.names) == sorted(OFFICIAL)
    for t in env.tools:
        schema = t.parameters_schema()
        assert list(schema["properties"]) == OFFICIAL[t.name], t.name
        optional = OPTIONAL.get(t.name, set())
        assert set(schema["required"]) == set(OFFICIAL[t.name]) - optional, t.name
    assert env.tools.count_by_kind() == {"write": 14, "read": 19, "general": 5}
    assert {t.name for t in env.tools if t.kind == "write"} == WRITE
    assert {t.name for t in env.tools if t.kind == "general"} == GENERAL
    assert "hotel_search_recommand" in env.tools  # the official misspelling is kept


def test_descriptions_are_bilingual_and_edges_point_to_real_tools(env: OTAEnvironment) -> None:
    for t in env.tools:
        en, zh = t.description("en"), t.description("zh")
        assert en != zh, t.name
        assert any("\u4e00" <= ch <= "\u9fff" for ch in zh), t.name
        props = t.parameters_schema("en")["properties"]
        assert all("description" in p for p in props.values()), t.name
        if t.kind == "write":
            assert "Preconditions:" in en and "Postconditions:" in en and "前置条件" in zh
        if (
            t.name in OFFICIAL
            and t.name not in GENERAL
            and t.name
            not in (
                "get_user_historical_behaviors",
                "get_user_all_orders",
                "get_nearby",
                "longitude_latitude_to_distance",
            )
        ):
            assert all(dep in env.tools for dep in t.spec.depends_on), t.name
    edges = set(env.tools.edges())
    assert ("create_hotel_order", "pay_hotel_order") in edges
    assert ("modify_train_order", "pay_train_order") in edges
    assert ("get_ota_flight_info", "create_flight_order") in edges
    status = env.tools["search_train_order"].parameters_schema()["properties"]["status"]
    assert status["default"] == "paid" and "cancelled" in status["enum"]


def test_bad_clock_is_an_input_error() -> None:
    data = make_environment_dict()
    data["time"] = "2025-06-10"
    with pytest.raises(InputError, match="time"):
        OTAEnvironment(make_task(data))
    data = make_environment_dict()
    data["hotels"]["H1"]["score"] = "excellent"
    with pytest.raises(InputError, match="invalid OTA data"):
        OTAEnvironment(make_task(data))


# ---- create ---------------------------------------------------------------------------------


def test_create_hotel_order_books_one_room_of_the_room_products_night(env: OTAEnvironment) -> None:
    order = ok(env, "create_hotel_order", hotel_id="H1", room_id="H1_K_0612", user_id="U1")
    assert order["order_id"] == "OOOT1-001"
    assert order["order_type"] == "hotel" and order["store_id"] == "H1"
    assert order["status"] == "unpaid" and order["total_price"] == 560
    assert order["create_time"] == order["update_time"] == TIME
    assert order["products"] == [
        {
            "product_id": "H1_K_0612",
            "price": 560.0,
            "quantity": 1,
            "date": "2025-06-12",
            "room_type": "Lake View King Room",
        }
    ]
    assert stock(env, "hotels", "H1", "H1_K_0612") == 1
    assert env.created_order_ids == ("OOOT1-001",)


def test_create_hotel_order_refuses_bad_rooms_and_creates_nothing(env: OTAEnvironment) -> None:
    before = dict(env.db.orders)
    err(
        env,
        "create_hotel_order",
        "not_found",
        "'NOPE'",
        hotel_id="H1",
        room_id="NOPE",
        user_id="U1",
    )
    err(
        env,
        "create_hotel_order",
        "precondition",
        "belongs to hotel 'H2'",
        hotel_id="H1",
        room_id="H2_K_0612",
        user_id="U1",
    )
    err(
        env,
        "create_hotel_order",
        "precondition",
        "sold out on 2025-06-13",
        hotel_id="H1",
        room_id="H1_K_0613",
        user_id="U1",
    )
    err(
        env,
        "create_hotel_order",
        "precondition",
        "in the past",
        hotel_id="H1",
        room_id="H1_K_0609",
        user_id="U1",
    )
    err(
        env,
        "create_hotel_order",
        "precondition",
        "does not match",
        hotel_id="H1",
        room_id="H1_K_0612",
        user_id="U2",
    )
    err(
        env,
        "create_hotel_order",
        "not_found",
        "Hotel 'H9'",
        hotel_id="H9",
        room_id="H1_K_0612",
        user_id="U1",
    )
    err(
        env,
        "create_hotel_order",
        "bad_arguments",
        "missing required argument 'user_id'",
        hotel_id="H1",
        room_id="H1_K_0612",
    )
    assert env.db.orders == before and env.created_order_ids == ()
    assert stock(env, "hotels", "H1", "H1_T_0612") == 1
    ok(env, "create_hotel_order", hotel_id="H1", room_id="H1_T_0612", user_id="U1")
    err(
        env,
        "create_hotel_order",
        "precondition",
        "sold out",
        hotel_id="H1",
        room_id="H1_T_0612",
        user_id="U1",
    )


@pytest.mark.parametrize(
    ("tool", "provider_key", "provider", "product_param", "product", "date", "price", "table"),
    [
        (
            "create_attraction_order",
            "attraction_id",
            "A1",
            "ticket_id",
            "A1_AD_0612",
            "2025-06-12",
            45,
            "attractions",
        ),
        (
            "create_flight_order",
            "flight_id",
            "F1",
            "seat_id",
            "F1_Y_0620",
            "2025-06-20",
            1000,
            "flights",
        ),
        (
            "create_train_order",
            "train_id",
            "T1",
            "seat_id",
            "T1_2C_0616",
            "2025-06-16",
            160,
            "trains",
        ),
    ],
)
def test_create_dated_orders(
    env: OTAEnvironment,
    tool: str,
    provider_key: str,
    provider: str,
    product_param: str,
    product: str,
    date: str,
    price: float,
    table: str,
) -> None:
    base = {provider_key: provider, product_param: product, "user_id": "U1", "date": date}
    start = stock(env, table, provider, product)
    order = ok(env, tool, **base, quantity=2)
    assert order["status"] == "unpaid" and order["total_price"] == price * 2
    (booked_line,) = order["products"]
    assert booked_line["product_id"] == product and booked_line["date"] == date
    assert booked_line["quantity"] == 2
    assert stock(env, table, provider, product) == start - 2
    # error paths: nothing else is created, stock unchanged
    err(env, tool, "precondition", "positive", **base, quantity=0)
    err(env, tool, "precondition", "YYYY-MM-DD", **{**base, "date": "12/06/2025"}, quantity=1)
    err(
        env,
        tool,
        "precondition",
        "does not offer",
        "offered on",
        **{**base, "date": "2025-07-01"},
        quantity=1,
    )
    err(env, tool, "precondition", "Insufficient inventory", **base, quantity=start)
    err(env, tool, "precondition", "does not match", **{**base, "user_id": "U2"}, quantity=1)
    err(env, tool, "not_found", "not found", **{**base, product_param: "X"}, quantity=1)
    err(env, tool, "not_found", "not found", **{**base, provider_key: "X"}, quantity=1)
    assert env.created_order_ids == ("OOOT1-001",)
    assert stock(env, table, provider, product) == start - 2


def test_create_refuses_past_dates(env: OTAEnvironment) -> None:
    err(
        env,
        "create_attraction_order",
        "precondition",
        "in the past",
        attraction_id="A1",
        ticket_id="A1_AD_0601",
        user_id="U1",
        date="2025-06-01",
        quantity=1,
    )


# ---- pay ------------------------------------------------------------------------------------


def test_pay_checks_type_owner_and_status(env: OTAEnvironment) -> None:
    oid = ok(
        env,
        "create_train_order",
        train_id="T1",
        seat_id="T1_2C_0616",
        user_id="U1",
        date="2025-06-16",
        quantity=1,
    )["order_id"]
    # the official pay tools pay any order of any domain; ours refuse other types
    for tool in ("pay_hotel_order", "pay_attraction_order", "pay_flight_order"):
        err(env, tool, "precondition", "is a train order, not a", order_id=oid)
    err(env, "pay_train_order", "precondition", "is a delivery order", order_id="O_DELIVERY")
    err(env, "pay_flight_order", "precondition", "does not belong", order_id="O_OTHER_USER")
    err(env, "pay_train_order", "not_found", "not found", order_id="NOPE")
    assert env.db.orders[oid].status == "unpaid"
    assert env.db.orders["O_DELIVERY"].status == "unpaid"
    paid = ok(env, "pay_train_order", order_id=oid)
    assert paid["amount_paid"] == 160 and paid["order"]["status"] == "paid"
    assert env.paid_amount(oid) == 160
    err(env, "pay_train_order", "precondition", "must be unpaid", order_id=oid)


def test_every_pay_tool_pays_its_own_type(env: OTAEnvironment) -> None:
    made = {
        "hotel": ok(env, "create_hotel_order", hotel_id="H2", room_id="H2_K_0612", user_id="U1"),
        "attraction": ok(
            env,
            "create_attraction_order",
            attraction_id="A1",
            ticket_id="A1_AD_0612",
            user_id="U1",
            date="2025-06-12",
            quantity=1,
        ),
        "flight": ok(
            env,
            "create_flight_order",
            flight_id="F2",
            seat_id="F2_Y_0620",
            user_id="U1",
            date="2025-06-20",
            quantity=1,
        ),
        "train": ok(
            env,
            "create_train_order",
            train_id="T1",
            seat_id="T1_2C_0617",
            user_id="U1",
            date="2025-06-17",
            quantity=1,
        ),
    }
    for kind, order in made.items():
        result = ok(env, f"pay_{kind}_order", order_id=order["order_id"])
        assert result["order"]["status"] == "paid" and result["amount_paid"] == order["total_price"]
        detail = ok(env, f"get_{kind}_order_detail", order_id=order["order_id"])
        assert detail["status"] == "paid"
    assert env.created_order_ids == tuple(f"OOOT1-00{i}" for i in range(1, 5))


# ---- cancel ---------------------------------------------------------------------------------


def test_cancel_refunds_what_was_paid_and_restores_stock(env: OTAEnvironment) -> None:
    assert stock(env, "hotels", "H1", "H1_K_0612") == 2
    result = ok(env, "cancel_hotel_order", order_id="O_HOTEL", user_id="U1")
    assert result["refund"] == 560 and result["order"]["status"] == "cancelled"
    assert result["order"]["update_time"] == TIME
    assert stock(env, "hotels", "H1", "H1_K_0612") == 3  # the pre-existing booking's room is back
    err(
        env,
        "cancel_hotel_order",
        "precondition",
        "already cancelled",
        order_id="O_HOTEL",
        user_id="U1",
    )
    # an unpaid order: no refund, stock restored
    before = stock(env, "trains", "T1", "T1_2C_0615")
    result = ok(env, "cancel_train_order", order_id="O_TRAIN_UNPAID", user_id="U1")
    assert result["refund"] == 0
    assert stock(env, "trains", "T1", "T1_2C_0615") == before + 1


def test_cancel_error_paths(env: OTAEnvironment) -> None:
    err(
        env,
        "cancel_train_order",
        "precondition",
        "does not match",
        order_id="O_TRAIN",
        user_id="U2",
    )
    err(
        env,
        "cancel_hotel_order",
        "precondition",
        "is a train order",
        order_id="O_TRAIN",
        user_id="U1",
    )
    err(
        env,
        "cancel_flight_order",
        "precondition",
        "does not belong",
        order_id="O_OTHER_USER",
        user_id="U1",
    )
    err(
        env,
        "cancel_attraction_order",
        "precondition",
        "already been used",
        order_id="O_USED",
        user_id="U1",
    )
    err(env, "cancel_flight_order", "not_found", "not found", order_id="NOPE", user_id="U1")
    assert env.db.orders["O_TRAIN"].status == "paid"


def test_every_cancel_tool_works_on_new_orders(env: OTAEnvironment) -> None:
    calls = {
        "hotel": ("create_hotel_order", {"hotel_id": "H3", "room_id": "H3_K_0612"}),
        "attraction": (
            "create_attraction_order",
            {"attraction_id": "A1", "ticket_id": "A1_AD_0613", "date": "2025-06-13", "quantity": 2},
        ),
        "flight": (
            "create_flight_order",
            {"flight_id": "F1", "seat_id": "F1_J_0620", "date": "2025-06-20", "quantity": 2},
        ),
        "train": (
            "create_train_order",
            {"train_id": "T1", "seat_id": "T1_1C_0615", "date": "2025-06-15", "quantity": 4},
        ),
    }
    initial = copy.deepcopy(env.db)
    for kind, (tool, args) in calls.items():
        oid = ok(env, tool, **args, user_id="U1")["order_id"]
        ok(env, f"pay_{kind}_order", order_id=oid)
        result = ok(env, f"cancel_{kind}_order", order_id=oid, user_id="U1")
        assert result["refund"] > 0
    for table in ("hotels", "attractions", "flights", "trains"):
        assert getattr(env.db, table) == getattr(initial, table), table


# ---- modify ---------------------------------------------------------------------------------


def test_modify_to_a_pricier_date_asks_for_the_difference(env: OTAEnvironment) -> None:
    s15, s16 = stock(env, "trains", "T1", "T1_2C_0615"), stock(env, "trains", "T1", "T1_2C_0616")
    result = ok(env, "modify_train_order", order_id="O_TRAIN", user_id="U1", new_date="2025-06-16")
    assert result["price_difference"] == 20 and result["amount_due"] == 20 and result["refund"] == 0
    assert "need to pay additional amount: 20" in result["message"]
    order = result["order"]
    assert order["order_id"] == "O_TRAIN" and order["status"] == "unpaid"
    assert order["total_price"] == 160 and order["update_time"] == TIME
    assert [(p["product_id"], p["date"], p["seat_type"]) for p in order["products"]] == [
        ("T1_2C_0616", "2025-06-16", "Second class")
    ]
    assert stock(env, "trains", "T1", "T1_2C_0615") == s15 + 1
    assert stock(env, "trains", "T1", "T1_2C_0616") == s16 - 1
    paid = ok(env, "pay_train_order", order_id="O_TRAIN")
    assert paid["amount_paid"] == 20 and paid["order"]["status"] == "paid"
    # cancelling now refunds everything that was paid (140 + 20)
    assert ok(env, "cancel_train_order", order_id="O_TRAIN", user_id="U1")["refund"] == 160


def test_modify_to_a_cheaper_date_refunds_and_stays_paid(env: OTAEnvironment) -> None:
    result = ok(env, "modify_train_order", order_id="O_TRAIN", user_id="U1", new_date="2025-06-17")
    assert (
        result["price_difference"] == -20 and result["refund"] == 20 and result["amount_due"] == 0
    )
    assert result["order"]["status"] == "paid" and result["order"]["total_price"] == 120
    assert env.paid_amount("O_TRAIN") == 120


def test_modify_error_paths(env: OTAEnvironment) -> None:
    err(
        env,
        "modify_train_order",
        "precondition",
        "already for 2025-06-15",
        order_id="O_TRAIN",
        user_id="U1",
        new_date="2025-06-15",
    )
    err(
        env,
        "modify_train_order",
        "precondition",
        "Insufficient inventory",
        order_id="O_TRAIN",
        user_id="U1",
        new_date="2025-06-18",
    )
    err(
        env,
        "modify_train_order",
        "precondition",
        "no 'Second class' seats on 2025-06-19",
        "2025-06-16",
        order_id="O_TRAIN",
        user_id="U1",
        new_date="2025-06-19",
    )
    err(
        env,
        "modify_train_order",
        "precondition",
        "in the past",
        order_id="O_TRAIN",
        user_id="U1",
        new_date="2025-06-01",
    )
    err(
        env,
        "modify_train_order",
        "precondition",
        "YYYY-MM-DD",
        order_id="O_TRAIN",
        user_id="U1",
        new_date="June 16",
    )
    err(
        env,
        "modify_train_order",
        "precondition",
        "Only paid orders",
        order_id="O_TRAIN_UNPAID",
        user_id="U1",
        new_date="2025-06-16",
    )
    err(
        env,
        "modify_train_order",
        "precondition",
        "does not match",
        order_id="O_TRAIN",
        user_id="U9",
        new_date="2025-06-16",
    )
    err(
        env,
        "modify_flight_order",
        "precondition",
        "is a train order",
        order_id="O_TRAIN",
        user_id="U1",
        new_date="2025-06-16",
    )
    err(
        env,
        "modify_flight_order",
        "precondition",
        "is a hotel order",
        order_id="O_HOTEL",
        user_id="U1",
        new_date="2025-06-13",
    )
    err(
        env,
        "modify_flight_order",
        "not_found",
        "not found",
        order_id="NOPE",
        user_id="U1",
        new_date="2025-06-16",
    )
    order = env.db.orders["O_TRAIN"]
    assert order.status == "paid" and order.products[0].date == "2025-06-15"


def test_modify_flight_keeps_the_seat_class(env: OTAEnvironment) -> None:
    oid = ok(
        env,
        "create_flight_order",
        flight_id="F1",
        seat_id="F1_Y_0620",
        user_id="U1",
        date="2025-06-20",
        quantity=2,
    )["order_id"]
    ok(env, "pay_flight_order", order_id=oid)
    result = ok(env, "modify_flight_order", order_id=oid, user_id="U1", new_date="2025-06-21")
    (moved,) = result["order"]["products"]
    assert (moved["product_id"], moved["seat_type"], moved["quantity"]) == (
        "F1_Y_0621",
        "Economy",
        2,
    )
    assert result["refund"] == 200 and result["order"]["total_price"] == 1800
    assert (
        stock(env, "flights", "F1", "F1_Y_0620") == 3
        and stock(env, "flights", "F1", "F1_Y_0621") == 1
    )


def test_stock_stays_consistent_through_create_modify_cancel(env: OTAEnvironment) -> None:
    initial = copy.deepcopy(env.db.trains)
    a = ok(
        env,
        "create_train_order",
        train_id="T1",
        seat_id="T1_2C_0615",
        user_id="U1",
        date="2025-06-15",
        quantity=3,
    )["order_id"]
    ok(env, "pay_train_order", order_id=a)
    ok(env, "modify_train_order", order_id=a, user_id="U1", new_date="2025-06-16")
    ok(env, "pay_train_order", order_id=a)
    ok(env, "modify_train_order", order_id=a, user_id="U1", new_date="2025-06-17")
    live = {p.product_id: p.quantity for p in env.db.trains["T1"].products}
    start = {p.product_id: p.quantity for p in initial["T1"].products}
    assert live["T1_2C_0617"] == start["T1_2C_0617"] - 3
    assert {k: v for k, v in live.items() if k != "T1_2C_0617"} == {
        k: v for k, v in start.items() if k != "T1_2C_0617"
    }
    ok(env, "cancel_train_order", order_id=a, user_id="U1")
    assert env.db.trains == initial


# ---- read tools -----------------------------------------------------------------------------


def test_provider_info_and_order_reads(env: OTAEnvironment) -> None:
    hotel = ok(env, "get_ota_hotel_info", hotel_id="H1")
    assert hotel["hotel_name"] == "West Lake Lakeview Hotel" and len(hotel["products"]) == 4
    assert "hotel_type" not in json.dumps(hotel)  # hidden annotations are dropped
    assert ok(env, "get_ota_attraction_info", attraction_id="A1")["opening_hours"] == "07:00-18:00"
    assert ok(env, "get_ota_flight_info", flight_id="F1")["flight_number"] == "CA1701"
    assert ok(env, "get_ota_train_info", train_id="T1")["train_number"] == "G7001"
    for tool, key in (
        ("get_ota_hotel_info", "hotel_id"),
        ("get_ota_attraction_info", "attraction_id"),
        ("get_ota_flight_info", "flight_id"),
        ("get_ota_train_info", "train_id"),
    ):
        err(env, tool, "not_found", "not found", **{key: "X"})
    assert (
        ok(env, "get_train_order_detail", order_id="O_TRAIN")["products"][0]["date"] == "2025-06-15"
    )
    err(env, "get_hotel_order_detail", "precondition", "is a train order", order_id="O_TRAIN")
    err(env, "get_flight_order_detail", "precondition", "does not belong", order_id="O_OTHER_USER")
    orders = ok(env, "get_user_all_orders")
    assert {o["order_id"] for o in orders} >= {"O_TRAIN", "O_HOTEL"}


def test_search_orders(env: OTAEnvironment) -> None:
    assert ok(env, "search_hotel_order", user_id="U1") == [
        ok(env, "get_hotel_order_detail", order_id="O_HOTEL")
    ]
    assert ok(env, "search_hotel_order", user_id="U1", status="unpaid") == []  # empty, no error
    assert ok(env, "search_hotel_order", user_id="U1", date="2025-06-13") == []
    assert [
        o["order_id"] for o in ok(env, "search_train_order", user_id="U1", status="unpaid")
    ] == ["O_TRAIN_UNPAID"]
    assert [
        o["order_id"] for o in ok(env, "search_train_order", user_id="U1", date="2025-06-15")
    ] == ["O_TRAIN"]
    assert ok(env, "search_flight_order", user_id="U1", status="unpaid") == []  # another user's
    assert [
        o["order_id"] for o in ok(env, "search_attraction_order", user_id="U1", status="consumed")
    ] == ["O_USED"]
    err(env, "search_hotel_order", "precondition", "does not match", user_id="U2")
    err(env, "search_train_order", "precondition", "YYYY-MM-DD", user_id="U1", date="15 June")
    err(env, "search_train_order", "bad_arguments", "status", user_id="U1", status="booked")
    empty = OTAEnvironment(make_task({"time": TIME, "user_id": "U1"}))
    assert ok(empty, "search_hotel_order", user_id="U1") == []


def test_hotel_and_attraction_search_filter_by_city(env: OTAEnvironment) -> None:
    found = ok(env, "hotel_search_recommand", city_name="Hangzhou")
    assert [h["hotel_id"] for h in found] == ["H1", "H2"]
    assert all("products" not in h for h in found)
    ranked = ok(env, "hotel_search_recommand", city_name="Hangzhou City", key_words=["river view"])
    assert [h["hotel_id"] for h in ranked] == ["H2", "H1"]
    assert [h["hotel_id"] for h in ok(env, "hotel_search_recommand", city_name="Suzhou")] == ["H3"]
    assert ok(env, "hotel_search_recommand", city_name="Beijing") == []
    err(env, "hotel_search_recommand", "precondition", "empty", city_name=" ")
    hits = ok(env, "attractions_search_recommend", city_name="Hangzhou", key_words=["temple"])
    assert [a["attraction_id"] for a in hits] == ["A1"] and "products" not in hits[0]
    assert ok(env, "attractions_search_recommend", city_name="Suzhou", key_words=["temple"]) == []


def test_flight_and_train_search(env: OTAEnvironment) -> None:
    flights = ok(env, "flight_search_recommend", departure="Shanghai", destination="Xi'an")
    assert [f["flight_id"] for f in flights] == ["F1"]
    assert flights[0]["dates"] == ["2025-06-20", "2025-06-21"] and "products" not in flights[0]
    assert [
        f["flight_id"]
        for f in ok(env, "flight_search_recommend", departure="Shanghai City", destination="Xian")
    ] == ["F1"]
    assert ok(env, "flight_search_recommend", departure="Xi'an", destination="Shanghai") == []
    assert (
        ok(env, "flight_search_recommend", departure="Shanghai", destination="Xiamen")[0][
            "flight_id"
        ]
        == "F2"
    )
    trains = ok(
        env, "train_ticket_search", departure="Shanghai", destination="Nanjing", date="2025-06-15"
    )
    assert [t["train_id"] for t in trains] == ["T1"]  # once, although two seat classes run that day
    assert [p["product_id"] for p in trains[0]["products"]] == ["T1_2C_0615", "T1_1C_0615"]
    assert (
        ok(
            env,
            "train_ticket_search",
            departure="Shanghai",
            destination="Nanjing",
            date="2025-06-30",
        )
        == []
    )
    err(
        env,
        "train_ticket_search",
        "precondition",
        "YYYY-MM-DD",
        departure="Shanghai",
        destination="Nanjing",
        date="tomorrow",
    )


def test_shared_tools_see_ota_places(env: OTAEnvironment) -> None:
    geo = ok(env, "address_to_longitude_latitude", address=LAKE_HOTEL)
    assert (geo["longitude"], geo["latitude"]) == (120.146, 30.262)
    near = ok(env, "get_nearby", longitude=120.146, latitude=30.262, range=10_000)
    assert [(p["type"], p.get("hotel_id") or p.get("attraction_id")) for p in near] == [
        ("hotel", "H1"),
        ("attraction", "A1"),
        ("hotel", "H2"),
    ]
    airport = ok(env, "get_nearby", longitude=108.752, latitude=34.447, range=1000)
    assert [(p["type"], p["endpoint"], p["flight_id"]) for p in airport] == [
        ("flight", "arrival", "F1")
    ]
    assert ok(env, "weather", address="Hangzhou", date_start="2025-06-12", date_end="2025-06-12")[
        "days"
    ]


# ---- isolation and ids ----------------------------------------------------------------------


def test_environments_are_isolated_and_ids_deterministic() -> None:
    data = make_environment_dict()
    pristine = copy.deepcopy(data)
    task = make_task(data)
    a, b = OTAEnvironment(task), OTAEnvironment(task)
    first = ok(a, "create_hotel_order", hotel_id="H1", room_id="H1_K_0612", user_id="U1")
    ok(a, "cancel_train_order", order_id="O_TRAIN", user_id="U1")
    assert stock(b, "hotels", "H1", "H1_K_0612") == 2 and b.db.orders["O_TRAIN"].status == "paid"
    assert "OOOT1-001" not in b.db.orders and b.snapshot()["created_order_ids"] == []
    assert data == pristine  # the task's data is never mutated
    again = ok(b, "create_hotel_order", hotel_id="H1", room_id="H1_K_0612", user_id="U1")
    assert again["order_id"] == first["order_id"] == "OOOT1-001"
    # ids already in the data are skipped
    data = make_environment_dict()
    data["orders"]["OOOT1-001"] = booked(
        "OOOT1-001", "hotel", "H1", data["hotels"]["H1"]["products"][1], "paid"
    )
    c = OTAEnvironment(make_task(data))
    assert (
        ok(c, "create_hotel_order", hotel_id="H2", room_id="H2_K_0612", user_id="U1")["order_id"]
        == "OOOT1-002"
    )


def test_snapshot_holds_orders_with_dates(env: OTAEnvironment) -> None:
    oid = ok(
        env,
        "create_attraction_order",
        attraction_id="A1",
        ticket_id="A1_AD_0612",
        user_id="U1",
        date="2025-06-12",
        quantity=2,
    )["order_id"]
    snap = env.snapshot()
    assert snap["time"] == TIME and snap["user_id"] == "U1" and snap["created_order_ids"] == [oid]
    assert snap["orders"][oid]["products"][0] == {
        "product_id": "A1_AD_0612",
        "price": 45.0,
        "quantity": 2,
        "date": "2025-06-12",
        "ticket_type": "Adult ticket",
    }
    assert snap["orders"]["O_DELIVERY"]["order_type"] == "delivery"
    json.dumps(snap)


def test_pre_existing_lines_may_name_the_product_room_id() -> None:
    data = make_environment_dict()
    product = data["orders"]["O_HOTEL"]["products"][0]
    product["room_id"] = product.pop("product_id")
    env = OTAEnvironment(make_task(data))
    assert env.db.orders["O_HOTEL"].products[0].product_id == "H1_K_0612"
    ok(env, "cancel_hotel_order", order_id="O_HOTEL", user_id="U1")
    assert stock(env, "hotels", "H1", "H1_K_0612") == 3


@pytest.mark.parametrize(
    ("city", "text", "expected"),
    [
        ("Xi'an", "Qinling North Road, Lintong District, Xi'an, Shaanxi Province", True),
        ("Xian", "Qinling North Road, Lintong District, Xi'an, Shaanxi Province", True),
        ("Xi'an City", "Xi'an", True),
        ("Xi'an", "12 Zengcuoan Road, Siming District, Xiamen, Fujian Province", False),
        ("Anji", "Nanjing South Railway Station, Nanjing", False),
        ("Hong Kong", "1 Harbour Road, Wan Chai, Hong Kong", True),
        ("杭州", "浙江省杭州市西湖区北山街18号", True),
        ("杭州市", "浙江省杭州市西湖区北山街18号", True),
        ("北京", "江苏省南京市雨花台区南京南站", False),
        ("", "Hangzhou", False),
    ],
)
def test_in_city(city: str, text: str, expected: bool) -> None:
    assert in_city(city, text) is expected
