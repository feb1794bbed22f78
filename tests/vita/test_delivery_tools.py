"""The delivery environment's 20 tools: schemas, happy paths, error paths, formulas, state."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from lifebench.environment import Environment
from lifebench.errors import InputError
from lifebench.tools import ToolOutcome
from lifebench.vita.domains.common import Order
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.task import VitaTask

TIME = "2025-06-21 11:20:00"
HOSPITAL = (
    "Yunnan University Affiliated Hospital, Xinmin Lane, Wuhua District, Kunming, Yunnan Province"
)
HOME = "North Area of Fengning Community, No. 28 Fengning Road, Wuhua District, Kunming, Yunnan Province"


def make_environment_dict() -> dict[str, Any]:
    """A small delivery world: two stores, two pre-existing orders (one with odd data)."""
    return {
        "time": TIME,
        "user_id": "U1",
        "weather": [
            {
                "city": "Kunming City",
                "category": "rainy",
                "datetime": "2025-06-21",
                "temperature": [17, 25],
                "humidity": 84,
            },
            {
                "city": "Kunming City",
                "category": "sunny",
                "datetime": "2025-06-22",
                "temperature": [18, 27],
                "humidity": 60,
            },
        ],
        "location": [
            {"address": HOSPITAL, "longitude": 102.713518, "latitude": 25.048244},
            {"address": HOME, "longitude": 102.700000, "latitude": 25.060000},
        ],
        "user_historical_behaviors": {"user id": "U1", "home address": HOME},
        "orders": {
            "T1O01": {
                "order_id": "T1O01",
                "order_type": "delivery",
                "user_id": "U1",
                "store_id": "S_NOODLE",
                "note": "",
                "location": {"address": HOME, "longitude": 102.7, "latitude": 25.06},
                "dispatch_time": "2025-06-20 12:00:00",
                "shipping_time": None,
                "delivery_time": "",
                "total_price": 25,
                "create_time": "2025-06-20 11:50:00",
                "update_time": "2025-06-20 11:50:00",
                "status": "delivered",
                "products": [
                    {
                        "product_id": "P_NOODLE",
                        "price": 25.0,
                        "quantity": 1,
                        "attribute": "Mild Spicy",
                    }
                ],
            },
            "T1O02": {
                "order_id": "T1O02",
                "order_type": "delivery",
                "user_id": "U1",
                "store_id": "S_TEA",
                "note": "old note",
                "location": None,
                "dispatch_time": "",
                "shipping_time": 30,
                "delivery_time": "",
                "total_price": 19,
                "create_time": "2025-06-21 10:00:00",
                "update_time": "",
                "status": "unpaid",
                "products": [
                    {"product_id": "P_TEA", "price": 19, "quantity": 1, "attributes": None}
                ],
            },
        },
        "stores": {
            "S_NOODLE": {
                "name": "Bridge Rice Noodles",
                "store_id": "S_NOODLE",
                "score": 5,
                "location": {
                    "address": "No. 46 Yuanxi Road, Wuhua District, Kunming, Yunnan Province",
                    "longitude": 102.70636,
                    "latitude": 25.055897,
                },
                "tags": ["Quick service"],
                "products": [
                    {
                        "name": "Chicken crossing bridge rice noodles",
                        "store_id": "S_NOODLE",
                        "store_name": "Bridge Rice Noodles",
                        "price": 25,
                        "tags": ["Mild"],
                        "product_id": "P_NOODLE",
                        "attributes": ["Normal Spicy", "Mild Spicy"],
                    },
                    {
                        "name": "Pickled vegetables",
                        "store_id": "S_NOODLE",
                        "store_name": "Bridge Rice Noodles",
                        "price": 3.3,
                        "tags": [],
                        "product_id": "P_PICKLE",
                        "attributes": [],
                    },
                ],
            },
            "S_TEA": {
                "name": "Nayuki Tea",
                "store_id": "S_TEA",
                "score": 4.6,
                "location": {
                    "address": "Nayuki Tea, Shuncheng Shopping Center, Wuhua District, Kunming",
                    "longitude": 102.71,
                    "latitude": 25.04,
                },
                "tags": ["Milk tea", "Chain store"],
                "products": [
                    {
                        "name": "Hot jasmine milk tea",
                        "store_id": "S_TEA",
                        "store_name": "Nayuki Tea",
                        "price": 19,
                        "tags": ["Low caffeine"],
                        "product_id": "P_TEA",
                        "attributes": ["Hot", "Less Ice"],
                    }
                ],
            },
        },
        "shops": {"ignored": "not a delivery table"},
    }


def make_task(task_id: str = "T1", environment: dict[str, Any] | None = None) -> VitaTask:
    return VitaTask(id=task_id, environment=environment or make_environment_dict())


@pytest.fixture
def env() -> DeliveryEnvironment:
    return DeliveryEnvironment(make_task())


async def call(env: DeliveryEnvironment, name: str, **args: Any) -> ToolOutcome:
    return await env.tools.run(name, args)


def ok(outcome: ToolOutcome) -> Any:
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


def err(outcome: ToolOutcome, kind: str, *fragments: str) -> str:
    assert outcome.error, outcome.content
    assert outcome.error_kind == kind, outcome
    for fragment in fragments:
        assert fragment in outcome.content, outcome.content
    return outcome.content


ORDER_ARGS: dict[str, Any] = {
    "user_id": "U1",
    "store_id": "S_NOODLE",
    "product_ids": ["P_NOODLE", "P_PICKLE"],
    "product_cnts": [2, 1],
    "address": HOSPITAL,
    "dispatch_time": "2025-06-21 11:30:00",
    "attributes": ["Mild Spicy", ""],
    "note": "No cilantro",
}


async def create(env: DeliveryEnvironment, **overrides: Any) -> ToolOutcome:
    return await env.tools.run("create_delivery_order", {**ORDER_ARGS, **overrides})


# --------------------------------------------------------------------------------------------
# Inventory and schemas
# --------------------------------------------------------------------------------------------

OFFICIAL_PARAMS: dict[str, list[str]] = {
    "longitude_latitude_to_distance": ["longitude1", "latitude1", "longitude2", "latitude2"],
    "weather": ["address", "date_start", "date_end"],
    "address_to_longitude_latitude": ["address"],
    "get_date_holiday_info": ["date"],
    "get_holiday_date": ["year", "holiday_name"],
    "get_user_historical_behaviors": [],
    "get_user_all_orders": [],
    "get_nearby": ["longitude", "latitude", "range"],
    "delivery_distance_to_time": ["distance"],
    "get_delivery_store_info": ["store_id"],
    "get_delivery_product_info": ["product_id"],
    "delivery_store_search_recommand": ["keywords"],
    "delivery_product_search_recommand": ["keywords"],
    "create_delivery_order": [
        "user_id",
        "store_id",
        "product_ids",
        "product_cnts",
        "address",
        "dispatch_time",
        "attributes",
        "note",
    ],
    "pay_delivery_order": ["order_id"],
    "get_delivery_order_status": ["order_id"],
    "cancel_delivery_order": ["order_id"],
    "modify_delivery_order": ["order_id", "note"],
    "search_delivery_orders": ["user_id", "status"],
    "get_delivery_order_detail": ["order_id"],
}
OPTIONAL = {("create_delivery_order", "attributes"), ("create_delivery_order", "note")}
OPTIONAL |= {("search_delivery_orders", "status")}

WRITE = {
    "create_delivery_order",
    "pay_delivery_order",
    "cancel_delivery_order",
    "modify_delivery_order",
}
GENERAL = {
    "longitude_latitude_to_distance",
    "weather",
    "address_to_longitude_latitude",
    "get_date_holiday_info",
    "get_holiday_date",
    "delivery_distance_to_time",
}


def test_environment_protocol(env: DeliveryEnvironment) -> None:
    assert isinstance(env, Environment)
    assert env.task_id == "T1"
    assert env.language == "en"
    assert env.now.isoformat(sep=" ") == TIME


def test_exactly_the_official_tools(env: DeliveryEnvironment) -> None:
    assert sorted(env.tools.names) == sorted(OFFICIAL_PARAMS)
    assert len(env.tools) == 20


def test_official_parameter_names_and_required(env: DeliveryEnvironment) -> None:
    for name, params in OFFICIAL_PARAMS.items():
        schema = env.tools[name].parameters_schema()
        assert list(schema["properties"]) == params, name
        want_required = [p for p in params if (name, p) not in OPTIONAL]
        assert schema["required"] == want_required, name


def test_kinds(env: DeliveryEnvironment) -> None:
    assert env.tools.count_by_kind() == {"read": 10, "write": 4, "general": 6}
    for t in env.tools:
        expected = "write" if t.name in WRITE else "general" if t.name in GENERAL else "read"
        assert t.kind.value == expected, t.name


def test_schema_types_and_enum(env: DeliveryEnvironment) -> None:
    create_props = env.tools["create_delivery_order"].parameters_schema()["properties"]
    assert create_props["product_ids"]["type"] == "array"
    assert create_props["product_ids"]["items"] == {"type": "string"}
    assert create_props["product_cnts"]["items"] == {"type": "integer"}
    assert create_props["attributes"]["type"] == "array"
    assert '""' in create_props["attributes"]["description"]
    status = env.tools["search_delivery_orders"].parameters_schema()["properties"]["status"]
    assert status["default"] == "unpaid"
    assert set(status["enum"]) == {
        "unpaid",
        "paid",
        "unconsumed",
        "consumed",
        "processed",
        "in-progress",
        "delivered",
        "cancelled",
    }
    nearby = env.tools["get_nearby"].parameters_schema()["properties"]
    assert nearby["range"]["type"] == "number"


def test_descriptions_in_both_languages(env: DeliveryEnvironment) -> None:
    for t in env.tools:
        en, zh = t.description("en"), t.description("zh")
        assert en and zh and en != zh, t.name
        assert t.spec.description.zh, t.name
        for pname, doc in t.param_docs.items():
            assert doc.en and doc.zh, (t.name, pname)
        assert set(t.param_docs) == set(OFFICIAL_PARAMS[t.name]), t.name


def test_dependency_graph(env: DeliveryEnvironment) -> None:
    edges = env.tools.edges()
    assert all(a in env.tools and b in env.tools and a != b for a, b in edges)
    deps = {t.name: set(t.spec.depends_on) for t in env.tools}
    assert {"get_delivery_store_info", "address_to_longitude_latitude"} <= deps[
        "create_delivery_order"
    ]
    for writer in ("pay_delivery_order", "cancel_delivery_order", "modify_delivery_order"):
        assert {"create_delivery_order", "search_delivery_orders"} <= deps[writer]
    stats = env.tools.graph_stats()
    assert stats.nodes == 20 and stats.edges > 30


# --------------------------------------------------------------------------------------------
# Happy paths
# --------------------------------------------------------------------------------------------


async def test_search_create_pay_detail_status(env: DeliveryEnvironment) -> None:
    products = ok(
        await call(env, "delivery_product_search_recommand", keywords=["rice", "noodles"])
    )
    assert products[0]["product_id"] == "P_NOODLE"
    assert products[0]["attributes"] == ["Normal Spicy", "Mild Spicy"]
    assert "quantity" not in products[0]
    stores = ok(await call(env, "delivery_store_search_recommand", keywords=["milk tea"]))
    assert stores[0]["store_id"] == "S_TEA" and "products" not in stores[0]
    info = ok(await call(env, "get_delivery_store_info", store_id="S_NOODLE"))
    assert [p["product_id"] for p in info["products"]] == ["P_NOODLE", "P_PICKLE"]

    order = ok(await create(env))
    assert order["order_id"] == "OTT1-001"
    assert order["status"] == "unpaid"
    assert order["user_id"] == "U1" and order["store_id"] == "S_NOODLE"
    assert order["total_price"] == 53.3  # 2 × 25 + 3.3, no float noise
    assert order["note"] == "No cilantro"
    assert order["create_time"] == order["update_time"] == TIME
    assert order["location"] == {
        "address": HOSPITAL,
        "longitude": 102.713518,
        "latitude": 25.048244,
    }
    assert order["products"] == [
        {
            "product_id": "P_NOODLE",
            "name": "Chicken crossing bridge rice noodles",
            "price": 25.0,
            "quantity": 2,
            "attributes": "Mild Spicy",
        },
        {
            "product_id": "P_PICKLE",
            "name": "Pickled vegetables",
            "price": 3.3,
            "quantity": 1,
            "attributes": "",
        },
    ]
    metres = ok(
        await call(
            env,
            "longitude_latitude_to_distance",
            longitude1=102.70636,
            latitude1=25.055897,
            longitude2=102.713518,
            latitude2=25.048244,
        )
    )["distance_m"]
    minutes = ok(await call(env, "delivery_distance_to_time", distance=metres))["minutes"]
    assert order["shipping_time"] == minutes == 32
    assert order["dispatch_time"] == "2025-06-21 11:30:00"
    assert order["delivery_time"] == "2025-06-21 12:02:00"

    paid = ok(await call(env, "pay_delivery_order", order_id="OTT1-001"))
    assert paid["order"]["status"] == "paid" and "successful" in paid["message"]
    assert ok(await call(env, "get_delivery_order_status", order_id="OTT1-001")) == {
        "order_id": "OTT1-001",
        "status": "paid",
    }
    detail = ok(await call(env, "get_delivery_order_detail", order_id="OTT1-001"))
    assert detail == {**order, "status": "paid"}


async def test_create_without_optional_arguments(env: DeliveryEnvironment) -> None:
    args = {k: v for k, v in ORDER_ARGS.items() if k not in ("attributes", "note")}
    order = ok(await env.tools.run("create_delivery_order", args))
    assert [p["attributes"] for p in order["products"]] == ["", ""]
    assert order["note"] == ""


async def test_attribute_matching_is_case_insensitive_and_canonical(
    env: DeliveryEnvironment,
) -> None:
    order = ok(await create(env, attributes=["  mild   spicy ", ""]))
    assert order["products"][0]["attributes"] == "Mild Spicy"


async def test_a_combination_of_offered_options_is_one_lines_choice(
    env: DeliveryEnvironment,
) -> None:
    """The official tool takes any text; distinct offered options joined by commas are an
    unambiguous combination, kept in their offered spellings and order."""
    order = ok(await create(env, attributes=["mild spicy，Normal  Spicy", ""]))
    assert order["products"][0]["attributes"] == "Mild Spicy, Normal Spicy"
    for wrong in ("Mild Spicy, Extra Spicy", "Mild Spicy, mild spicy"):
        refused = await create(env, attributes=[wrong, ""])
        assert refused.error and refused.error_kind == "precondition", wrong
    # an empty clause is no clause: a trailing comma names the one option
    trailing = ok(await create(env, attributes=["Mild Spicy,", ""]))
    assert trailing["products"][0]["attributes"] == "Mild Spicy"


async def test_free_text_attribute_when_product_offers_none(env: DeliveryEnvironment) -> None:
    order = ok(await create(env, attributes=["", "Extra crunchy"]))
    assert order["products"][1]["attributes"] == "Extra crunchy"


async def test_same_product_twice_with_different_attributes(env: DeliveryEnvironment) -> None:
    order = ok(
        await create(
            env,
            product_ids=["P_NOODLE", "P_NOODLE"],
            product_cnts=[1, 1],
            attributes=["Mild Spicy", "Normal Spicy"],
        )
    )
    assert [p["attributes"] for p in order["products"]] == ["Mild Spicy", "Normal Spicy"]


async def test_cancel_and_cancel_again(env: DeliveryEnvironment) -> None:
    ok(await create(env))
    cancelled = ok(await call(env, "cancel_delivery_order", order_id="OTT1-001"))
    assert cancelled["order"]["status"] == "cancelled"
    err(
        await call(env, "cancel_delivery_order", order_id="OTT1-001"),
        "precondition",
        "already cancelled",
    )
    err(await call(env, "pay_delivery_order", order_id="OTT1-001"), "precondition", "unpaid")


async def test_write_tools_set_update_time_to_task_clock(env: DeliveryEnvironment) -> None:
    # T1O01 was last updated the day before; T1O02 has update_time "" (defaults to create_time).
    assert env.db.orders["T1O02"].update_time == "2025-06-21 10:00:00"
    modified = ok(
        await call(env, "modify_delivery_order", order_id="T1O01", note="Leave at the door")
    )
    assert modified["order"]["note"] == "Leave at the door"
    assert modified["order"]["update_time"] == TIME
    assert modified["order"]["create_time"] == "2025-06-20 11:50:00"
    paid = ok(await call(env, "pay_delivery_order", order_id="T1O02"))
    assert paid["order"]["update_time"] == TIME
    env.db.orders["T1O02"].update_time = "2025-06-21 10:00:00"
    cancelled = ok(await call(env, "cancel_delivery_order", order_id="T1O02"))
    assert cancelled["order"]["update_time"] == TIME


async def test_pre_existing_delivered_order_can_be_cancelled(env: DeliveryEnvironment) -> None:
    out = ok(await call(env, "cancel_delivery_order", order_id="T1O01"))
    assert out["order"]["status"] == "cancelled"


async def test_search_orders_by_status(env: DeliveryEnvironment) -> None:
    ok(await create(env))
    unpaid = ok(await call(env, "search_delivery_orders", user_id="U1"))
    assert [o["order_id"] for o in unpaid] == ["T1O02", "OTT1-001"]
    assert all("products" not in o for o in unpaid)
    delivered = ok(await call(env, "search_delivery_orders", user_id="U1", status="delivered"))
    assert [o["order_id"] for o in delivered] == ["T1O01"]
    assert ok(await call(env, "search_delivery_orders", user_id="U1", status="cancelled")) == []


async def test_user_profile_and_all_orders(env: DeliveryEnvironment) -> None:
    profile = ok(await call(env, "get_user_historical_behaviors"))
    assert profile == {"user id": "U1", "home address": HOME}
    ok(await create(env))
    orders = ok(await call(env, "get_user_all_orders"))
    assert [o["order_id"] for o in orders] == ["T1O01", "T1O02", "OTT1-001"]
    assert orders[0]["products"][0]["attributes"] == "Mild Spicy"  # from the odd "attribute" key


async def test_geocoding_and_nearby(env: DeliveryEnvironment) -> None:
    hit = ok(
        await call(
            env, "address_to_longitude_latitude", address="yunnan university affiliated hospital"
        )
    )
    assert hit == {"matched_address": HOSPITAL, "longitude": 102.713518, "latitude": 25.048244}
    # Store addresses are known too.
    store = ok(
        await call(env, "address_to_longitude_latitude", address="No. 46 Yuanxi Road, Kunming")
    )
    assert store["longitude"] == 102.70636
    near = ok(await call(env, "get_nearby", longitude=102.713518, latitude=25.048244, range=1500))
    assert [p["store_id"] for p in near] == ["S_TEA", "S_NOODLE"]
    assert near[0]["distance_m"] <= near[1]["distance_m"] <= 1500
    assert near[0]["type"] == "store" and "products" not in near[0]
    assert (
        ok(await call(env, "get_nearby", longitude=102.713518, latitude=25.048244, range=10)) == []
    )


async def test_weather(env: DeliveryEnvironment) -> None:
    out = ok(
        await call(env, "weather", address=HOSPITAL, date_start="2025-06-21", date_end="2025-06-30")
    )
    assert out["city"] == "Kunming City"
    assert out["days"] == [
        {
            "date": "2025-06-21",
            "category": "rainy",
            "temperature_min": 17.0,
            "temperature_max": 25.0,
            "humidity": 84.0,
        },
        {
            "date": "2025-06-22",
            "category": "sunny",
            "temperature_min": 18.0,
            "temperature_max": 27.0,
            "humidity": 60.0,
        },
    ]
    one = ok(
        await call(
            env, "weather", address="Kunming", date_start="2025-06-22", date_end="2025-06-22"
        )
    )
    assert [d["date"] for d in one["days"]] == ["2025-06-22"]


# --------------------------------------------------------------------------------------------
# Formulas
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metres", "minutes"), [(0, 25), (2000, 38), (1999.9, 38), (1115, 32), (10_000, 90)]
)
async def test_delivery_time_formula(env: DeliveryEnvironment, metres: float, minutes: int) -> None:
    out = ok(await call(env, "delivery_distance_to_time", distance=metres))
    assert out["minutes"] == minutes
    assert isinstance(out["minutes"], int)


async def test_haversine_distance(env: DeliveryEnvironment) -> None:
    same = ok(
        await call(
            env,
            "longitude_latitude_to_distance",
            longitude1=1,
            latitude1=2,
            longitude2=1,
            latitude2=2,
        )
    )
    assert same == {"distance_m": 0}
    one_degree = ok(
        await call(
            env,
            "longitude_latitude_to_distance",
            longitude1=0,
            latitude1=0,
            longitude2=0,
            latitude2=1,
        )
    )
    assert one_degree == {"distance_m": 111195}  # π/180 × 6,371,000 m


# --------------------------------------------------------------------------------------------
# Error paths: every failure is error=true with a clear message
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "kind", "fragment"),
    [
        ({"user_id": "U2"}, "precondition", "does not match the current user"),
        ({"store_id": "S_NOPE"}, "not_found", "Store 'S_NOPE' not found"),
        ({"product_ids": [], "product_cnts": [], "attributes": []}, "precondition", "at least one"),
        ({"product_cnts": [1]}, "precondition", "product_cnts has 1 items"),
        ({"attributes": ["Mild Spicy"]}, "precondition", "attributes has 1 items"),
        ({"product_cnts": [0, 1]}, "precondition", "positive integer"),
        ({"product_cnts": [2, -1]}, "precondition", "positive integer"),
        ({"product_ids": ["P_NOODLE", "P_TEA"]}, "precondition", "belongs to store 'S_TEA'"),
        ({"product_ids": ["P_NOODLE", "P_NONE"]}, "not_found", "Product 'P_NONE' not found"),
        ({"attributes": ["Extra Spicy", ""]}, "precondition", "'Normal Spicy'; 'Mild Spicy'"),
        ({"dispatch_time": "2025-06-21 11:30"}, "precondition", "YYYY-MM-DD HH:MM:SS"),
        ({"dispatch_time": "2025-13-01 11:30:00"}, "precondition", "YYYY-MM-DD HH:MM:SS"),
        ({"dispatch_time": "2025-06-21 11:19:59"}, "precondition", "earlier than the current time"),
        (
            {"address": "Huchi Garden, No. 75 Huchi Road, Gusu District, Suzhou"},
            "not_found",
            "Address not found",
        ),
        ({"address": "   "}, "precondition", "must not be empty"),
    ],
)
async def test_create_preconditions(
    env: DeliveryEnvironment, overrides: dict[str, Any], kind: str, fragment: str
) -> None:
    err(await create(env, **overrides), kind, fragment)
    assert env.created_order_ids == ()
    assert set(env.db.orders) == {"T1O01", "T1O02"}


async def test_dispatch_exactly_now_is_allowed(env: DeliveryEnvironment) -> None:
    ok(await create(env, dispatch_time=TIME))


async def test_order_tools_errors(env: DeliveryEnvironment) -> None:
    for name in (
        "pay_delivery_order",
        "cancel_delivery_order",
        "get_delivery_order_status",
        "get_delivery_order_detail",
    ):
        err(await call(env, name, order_id="NOPE"), "not_found", "Order 'NOPE' not found")
    err(await call(env, "modify_delivery_order", order_id="NOPE", note="x"), "not_found", "NOPE")
    err(
        await call(env, "pay_delivery_order", order_id="T1O01"),
        "precondition",
        "not in `unpaid` status",
        "delivered",
    )

    # An order of another domain, and an order of another user, are refused by every order tool.
    base = env.db.orders["T1O02"].model_dump()
    env.db.orders["X1"] = Order.model_validate({**base, "order_id": "X1", "order_type": "instore"})
    env.db.orders["X2"] = Order.model_validate({**base, "order_id": "X2", "user_id": "U9"})
    for name in ("pay_delivery_order", "cancel_delivery_order", "get_delivery_order_detail"):
        err(await call(env, name, order_id="X1"), "precondition", "not a delivery order")
        err(
            await call(env, name, order_id="X2"),
            "precondition",
            "does not belong to the current user",
        )
    assert env.db.orders["X1"].status == env.db.orders["X2"].status == "unpaid"
    err(await call(env, "search_delivery_orders", user_id="U9"), "precondition", "does not match")


async def test_lookup_and_search_errors(env: DeliveryEnvironment) -> None:
    err(await call(env, "get_delivery_store_info", store_id="S_X"), "not_found", "S_X")
    err(await call(env, "get_delivery_product_info", product_id="P_X"), "not_found", "P_X")
    for name in ("delivery_store_search_recommand", "delivery_product_search_recommand"):
        err(await call(env, name, keywords=[]), "precondition", "keyword")
        err(await call(env, name, keywords=["  ", ""]), "precondition", "keyword")
    err(
        await call(env, "address_to_longitude_latitude", address="Tianfu Square, Chengdu"),
        "not_found",
    )


async def test_general_tool_errors(env: DeliveryEnvironment) -> None:
    err(
        await call(
            env,
            "longitude_latitude_to_distance",
            longitude1=200,
            latitude1=0,
            longitude2=0,
            latitude2=0,
        ),
        "precondition",
        "Invalid coordinates",
    )
    err(await call(env, "delivery_distance_to_time", distance=-1), "precondition", "non-negative")
    err(
        await call(env, "get_nearby", longitude=0, latitude=0, range=-5),
        "precondition",
        "non-negative",
    )
    err(await call(env, "get_nearby", longitude=0, latitude=95, range=5), "precondition", "Invalid")
    err(
        await call(
            env, "weather", address="Kunming", date_start="21/06/2025", date_end="2025-06-22"
        ),
        "precondition",
        "YYYY-MM-DD",
    )
    err(
        await call(
            env, "weather", address="Kunming", date_start="2025-06-23", date_end="2025-06-22"
        ),
        "precondition",
        "after",
    )
    err(
        await call(
            env, "weather", address="Harbin", date_start="2025-06-21", date_end="2025-06-22"
        ),
        "not_found",
        "Harbin",
    )
    err(
        await call(
            env, "weather", address="Kunming", date_start="2025-07-01", date_end="2025-07-02"
        ),
        "not_found",
        "No weather information for Kunming City",
    )
    err(await call(env, "get_date_holiday_info", date="2025/10/01"), "precondition", "YYYY-MM-DD")
    err(
        await call(env, "get_holiday_date", year="25", holiday_name="Christmas"),
        "precondition",
        "four digits",
    )
    err(
        await call(env, "get_holiday_date", year="2030", holiday_name="Christmas"),
        "not_found",
        "2023–2026",
    )
    err(
        await call(env, "get_holiday_date", year="2025", holiday_name="Diwali Extravaganza"),
        "not_found",
        "Known holidays",
    )


@pytest.mark.parametrize(
    ("name", "arguments", "fragment"),
    [
        ("create_delivery_order", {**ORDER_ARGS, "product_cnts": ["2", "1"]}, "product_cnts"),
        ("create_delivery_order", {**ORDER_ARGS, "product_ids": "P_NOODLE"}, "product_ids"),
        (
            "create_delivery_order",
            {k: v for k, v in ORDER_ARGS.items() if k != "address"},
            "missing required argument 'address'",
        ),
        (
            "create_delivery_order",
            {**ORDER_ARGS, "food_ids": ["P_NOODLE"]},
            "unexpected argument 'food_ids'",
        ),
        ("search_delivery_orders", {"user_id": "U1", "status": "shipped"}, "status"),
        ("delivery_distance_to_time", {"distance": "2000"}, "distance"),
        ("get_nearby", {"longitude": 1, "latitude": 2}, "range"),
        ("pay_delivery_order", {"order_id": 12}, "order_id"),
        ("pay_delivery_order", '{"order_id": ', "not valid JSON"),
    ],
)
async def test_bad_argument_types(
    env: DeliveryEnvironment, name: str, arguments: Any, fragment: str
) -> None:
    err(await env.tools.run(name, arguments), "bad_arguments", fragment)


# --------------------------------------------------------------------------------------------
# State: catalog integrity, ids, snapshot, isolation
# --------------------------------------------------------------------------------------------


async def test_catalog_is_never_mutated_by_orders(env: DeliveryEnvironment) -> None:
    before = ok(await call(env, "get_delivery_product_info", product_id="P_NOODLE"))
    store_before = env.db.stores["S_NOODLE"].model_dump()
    ok(await create(env, product_cnts=[7, 3], attributes=["Normal Spicy", ""]))
    after = ok(await call(env, "get_delivery_product_info", product_id="P_NOODLE"))
    assert after == before
    assert after["attributes"] == ["Normal Spicy", "Mild Spicy"]
    assert env.db.stores["S_NOODLE"].model_dump() == store_before
    line = env.db.orders["OTT1-001"].products[0]
    assert line.quantity == 7
    assert env.db.stores["S_NOODLE"].products[0].quantity is None  # catalog has no stock


async def test_order_ids_are_deterministic_and_skip_existing(env: DeliveryEnvironment) -> None:
    other = DeliveryEnvironment(make_task())
    ids_a = [ok(await create(env))["order_id"] for _ in range(3)]
    ids_b = [ok(await create(other))["order_id"] for _ in range(3)]
    assert ids_a == ids_b == ["OTT1-001", "OTT1-002", "OTT1-003"]
    assert env.created_order_ids == tuple(ids_a)

    data = make_environment_dict()
    data["orders"]["OTT7-001"] = {**data["orders"]["T1O02"], "order_id": "OTT7-001"}
    clash = DeliveryEnvironment(make_task("T7", data))
    assert ok(await create(clash))["order_id"] == "OTT7-002"


async def test_snapshot(env: DeliveryEnvironment) -> None:
    snap = env.snapshot()
    assert set(snap) == {"time", "user_id", "orders", "created_order_ids"}
    assert snap["time"] == TIME and snap["user_id"] == "U1"
    assert snap["created_order_ids"] == []
    assert snap["orders"]["T1O01"]["shipping_time"] is None  # null kept as null
    assert snap["orders"]["T1O02"]["products"][0]["attributes"] == ""  # null → default
    ok(await create(env))
    ok(await create(env))
    snap = env.snapshot()
    assert snap["created_order_ids"] == ["OTT1-001", "OTT1-002"]
    assert list(snap["orders"]) == ["T1O01", "T1O02", "OTT1-001", "OTT1-002"]
    assert snap["orders"]["OTT1-001"]["total_price"] == 53.3
    assert json.loads(json.dumps(snap)) == snap


async def test_two_environments_of_one_task_share_nothing() -> None:
    task = make_task()
    original = copy.deepcopy(task.model_dump())
    a, b = DeliveryEnvironment(task), DeliveryEnvironment(task)
    ok(await create(a))
    ok(await call(a, "modify_delivery_order", order_id="T1O01", note="changed"))
    assert "OTT1-001" not in b.db.orders
    assert b.db.orders["T1O01"].note == ""
    assert b.snapshot()["created_order_ids"] == []
    a.db.user_historical_behaviors["user id"] = "mutated"
    assert b.db.user_historical_behaviors["user id"] == "U1"
    assert task.model_dump() == original  # the task object is never mutated


async def test_addresses_do_not_leak_between_environments() -> None:
    suzhou = make_environment_dict()
    suzhou["location"] = [
        {
            "address": "Huchi Garden, No. 75 Huchi Road, Gusu District, Suzhou",
            "longitude": 120.6,
            "latitude": 31.3,
        }
    ]
    a = DeliveryEnvironment(make_task("TA"))
    b = DeliveryEnvironment(make_task("TB", suzhou))
    ok(await call(a, "address_to_longitude_latitude", address=HOSPITAL))
    err(await call(b, "address_to_longitude_latitude", address=HOSPITAL), "not_found")
    ok(await call(b, "address_to_longitude_latitude", address="Huchi Garden, Suzhou"))
    err(
        await call(a, "address_to_longitude_latitude", address="Huchi Garden, No. 75 Huchi Road"),
        "not_found",
    )


def test_unknown_environment_keys_are_ignored_and_tables_default_empty() -> None:
    bare = DeliveryEnvironment(make_task("T0", {"time": TIME, "user_id": "U0", "hotels": {"h": 1}}))
    assert bare.db.stores == {} and bare.db.orders == {} and bare.db.location == []
    assert not hasattr(bare.db, "hotels") and not hasattr(bare.db, "shops")


def test_store_key_is_the_store_identity() -> None:
    data = make_environment_dict()
    data["stores"]["S_TEA"]["store_id"] = "S_WRONG"
    data["stores"]["S_TEA"]["products"][0]["store_id"] = "S_ELSEWHERE"
    data["stores"]["S_TEA"]["products"][0]["store_name"] = "M027"
    env = DeliveryEnvironment(make_task("T2", data))
    store = env.db.stores["S_TEA"]
    assert store.store_id == "S_TEA"
    assert (store.products[0].store_id, store.products[0].store_name) == ("S_TEA", "Nayuki Tea")


@pytest.mark.parametrize(
    "environment",
    [
        {"user_id": "U1"},
        {"time": "2025-06-21T11:20:00", "user_id": "U1"},
        {
            "time": TIME,
            "user_id": "U1",
            "orders": {"O": {"order_id": "O", "order_type": "delivery", "status": "lost"}},
        },
    ],
)
def test_invalid_environment_is_an_input_error(environment: dict[str, Any]) -> None:
    with pytest.raises(InputError, match="T9"):
        DeliveryEnvironment(make_task("T9", environment))


async def test_chinese_language_results() -> None:
    env = DeliveryEnvironment(make_task(), language="zh")
    assert env.language == "zh"
    assert (
        ok(await call(env, "get_holiday_date", year="2025", holiday_name="Mid-Autumn"))["holiday"]
        == "中秋节"
    )
    info = ok(await call(env, "get_date_holiday_info", date="2025-10-01"))
    assert info["holidays"] == ["国庆节"] and info["weekday"] == "星期三"
    assert "外卖" in env.tools["create_delivery_order"].description("zh")


async def test_chinese_addresses_and_search() -> None:
    data = make_environment_dict()
    data["location"] = [
        {
            "address": "云南省昆明市五华区新民巷云南大学附属医院",
            "longitude": 102.71,
            "latitude": 25.04,
        }
    ]
    data["stores"]["S_NOODLE"]["name"] = "金土锅豆芽过桥米线"
    data["stores"]["S_NOODLE"]["products"][0]["name"] = "土鸡过桥米线（清汤）"
    env = DeliveryEnvironment(make_task("TZ", data), language="zh")
    hit = ok(await call(env, "address_to_longitude_latitude", address="云南大学附属医院"))
    assert hit["longitude"] == 102.71
    err(
        await call(env, "address_to_longitude_latitude", address="江苏省苏州市姑苏区虎池路75号"),
        "not_found",
    )
    products = ok(await call(env, "delivery_product_search_recommand", keywords=["过桥米线"]))
    assert products[0]["product_id"] == "P_NOODLE"
