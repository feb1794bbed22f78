"""The in-store environment's 24 tools: inventory, happy and error paths, stock, ids, isolation."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from lifebench._util.text import Language
from lifebench.environment import Environment
from lifebench.errors import InputError
from lifebench.tools import ToolOutcome
from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.task import VitaTask

TIME = "2025-05-16 10:00:00"
HOME = "Room 1203, Building 5, Tianshui Jiayuan, 68 Yan'an Road, Shangcheng District, Hangzhou"
CJK = re.compile(r"[\u4e00-\u9fff]")
LANGUAGES: tuple[Language, ...] = ("en", "zh")

# The official inventory (name -> parameter names, required first), spec §2.2 / §2.4.
OFFICIAL: dict[str, tuple[str, list[str], list[str]]] = {
    # name: (kind, required params, optional params)
    "longitude_latitude_to_distance": (
        "general",
        ["longitude1", "latitude1", "longitude2", "latitude2"],
        [],
    ),
    "weather": ("general", ["address", "date_start", "date_end"], []),
    "address_to_longitude_latitude": ("general", ["address"], []),
    "get_date_holiday_info": ("general", ["date"], []),
    "get_holiday_date": ("general", ["year", "holiday_name"], []),
    "get_user_historical_behaviors": ("read", [], []),
    "get_user_all_orders": ("read", [], []),
    "get_nearby": ("read", ["longitude", "latitude", "range"], []),
    "instore_shop_search_recommend": ("read", ["keywords"], []),
    "instore_product_search_recommend": ("read", ["keywords"], []),
    "create_instore_product_order": ("write", ["user_id", "shop_id", "product_id"], ["quantity"]),
    "pay_instore_order": ("write", ["order_id"], []),
    "instore_cancel_order": ("write", ["order_id"], []),
    "instore_book": ("write", ["user_id", "shop_id", "time"], ["customer_count"]),
    "pay_instore_book": ("write", ["book_id"], []),
    "instore_cancel_book": ("write", ["book_id"], []),
    "instore_reservation": ("write", ["user_id", "shop_id", "time"], ["customer_count"]),
    "instore_modify_reservation": ("write", ["reservation_id", "time"], ["customer_count"]),
    "instore_cancel_reservation": ("write", ["reservation_id"], []),
    "get_instore_orders": ("read", ["user_id"], []),
    "get_instore_reservations": ("read", ["user_id"], []),
    "get_instore_books": ("read", ["user_id"], []),
    "search_instore_book": ("read", ["user_id"], ["book_id"]),
    "search_instore_reservation": ("read", ["user_id"], ["reservation_id"]),
}

HIDDEN = ("shop_type", "target_reason", "SECRET-REASON", "product_type", "distraction", "category")


def _product(pid: str, shop: str, name: str, price: float, stock: int) -> dict[str, Any]:
    return {
        "product_id": pid,
        "name": name,
        "shop_id": shop,
        "price": price,
        "quantity": stock,
        "tags": ["Voucher"],
        "product_type": "distraction",
    }


def _shop(
    sid: str,
    name: str,
    lon: float,
    lat: float,
    products: list[dict[str, Any]],
    *,
    book: bool = False,
    fee: float = 0,
    res: bool = False,
) -> dict[str, Any]:
    return {
        "shop_id": sid,
        "shop_name": name,
        "score": 4.7,
        "location": {
            "address": f"{name}, Shangcheng District, Hangzhou",
            "longitude": lon,
            "latitude": lat,
        },
        "tags": ["Relaxing"],
        "enable_book": book,
        "book_price": fee,
        "enable_reservation": res,
        "category": "other in-store services",
        "shop_type": "target",
        "target_reason": "SECRET-REASON",
        "business_hours": "10:00-22:00",
        "products": products,
    }


def _order(oid: str, shop: str, pid: str, status: str, **extra: Any) -> dict[str, Any]:
    return {
        "order_id": oid,
        "order_type": "instore",
        "user_id": "U1",
        "store_id": shop,
        "note": "",
        "location": None,
        "dispatch_time": "",
        "shipping_time": None,
        "delivery_time": "",
        "total_price": 158,
        "update_time": "2025-05-10 09:00:00",
        "status": status,
        "products": [
            {"product_id": pid, "price": 158, "quantity": 1, "product_type": "distraction"}
        ],
        **extra,
    }


def make_environment_dict() -> dict[str, Any]:
    """Four shops (reservations only / paid bookings / free bookings / neither) and records."""
    return {
        "time": TIME,
        "user_id": "U1",
        "weather": [
            {
                "city": "Hangzhou City",
                "category": "sunny",
                "datetime": "2025-05-16",
                "temperature": [19, 28],
                "humidity": 55,
            }
        ],
        "location": [{"address": HOME, "longitude": 120.17021, "latitude": 30.27214}],
        "user_historical_behaviors": {"user id": "U1", "home address": HOME},
        "shops": {
            "S_SPA": _shop(
                "S_SPA",
                "Lakeside Tuina Studio",
                120.17,
                30.28,
                [
                    _product("P_MASSAGE", "S_SPA", "Full-Body Massage Voucher", 158, 2),
                    _product("P_SOLD", "S_SPA", "Hot Stone Massage Voucher", 198, 0),
                ],
                res=True,
            ),
            "S_REST": _shop(
                "S_REST",
                "Shu Jiu Xiang Hotpot",
                120.18,
                30.27,
                [_product("P_SET", "S_REST", "Hotpot Set for Four", 398, 5)],
                book=True,
                fee=50,
            ),
            "S_CAFE": _shop("S_CAFE", "Sunset Cafe", 120.16, 30.27, [], book=True),
            "S_NONE": _shop(
                "S_NONE",
                "QuickCut Express",
                120.165,
                30.275,
                [_product("P_CUT", "S_NONE", "Express Haircut", 38, 50)],
            ),
        },
        "orders": {
            "O_OLD": _order(
                "O_OLD", "S_SPA", "P_MASSAGE", "paid", order_time="2025-05-10 09:00:00"
            ),
            "O_USED": _order("O_USED", "S_SPA", "P_MASSAGE", "consumed"),
            "O_OTHER": _order("O_OTHER", "S_SPA", "P_MASSAGE", "unpaid", user_id="U2"),
            "O_DELIVERY": {**_order("O_DELIVERY", "X", "P_X", "unpaid"), "order_type": "delivery"},
        },
        "books": {
            "B_OLD": {
                "book_id": "B_OLD",
                "shop_id": "S_REST",
                "book_time": "2025-05-17 18:00:00",
                "update_time": "2025-05-10 09:00:00",
                "customer_id": "U1",
                "customer_count": 2,
                "book_price": 50,
                "status": "unpaid",
            },
            "B_OTHER": {
                "book_id": "B_OTHER",
                "shop_id": "S_REST",
                "book_time": "2025-05-17 19:00:00",
                "update_time": "2025-05-10 09:00:00",
                "customer_id": "U2",
                "customer_count": 2,
                "book_price": 50,
                "status": "unpaid",
            },
        },
        "reservations": {
            "R_OLD": {
                "reservation_id": "R_OLD",
                "shop_id": "S_SPA",
                "reservation_time": "2025-05-17 09:00:00",
                "update_time": "2025-05-10 09:00:00",
                "customer_id": "U1",
                "customer_count": 2,
                "status": "unconsumed",
            },
            "R_DONE": {
                "reservation_id": "R_DONE",
                "shop_id": "S_SPA",
                "reservation_time": "2025-05-01 09:00:00",
                "update_time": "2025-05-01 09:00:00",
                "customer_id": "U1",
                "customer_count": 1,
                "status": "consumed",
            },
            "R_OTHER": {
                "reservation_id": "R_OTHER",
                "shop_id": "S_SPA",
                "reservation_time": "2025-05-17 11:00:00",
                "update_time": "2025-05-10 09:00:00",
                "customer_id": "U2",
                "customer_count": 1,
                "status": "unconsumed",
            },
        },
    }


def make_task(environment: dict[str, Any] | None = None, task_id: str = "T1") -> VitaTask:
    return VitaTask(
        id=task_id, domain="instore", environment=environment or make_environment_dict()
    )


@pytest.fixture
def env() -> InStoreEnvironment:
    return InStoreEnvironment(make_task())


def ok(outcome: ToolOutcome) -> Any:
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


def fails(outcome: ToolOutcome, kind: str, *words: str) -> str:
    assert outcome.error and outcome.error_kind == kind, (outcome.error_kind, outcome.content)
    for word in words:
        assert word in outcome.content, outcome.content
    return outcome.content


def order_args(**over: Any) -> dict[str, Any]:
    return {"user_id": "U1", "shop_id": "S_SPA", "product_id": "P_MASSAGE", **over}


def visit_args(shop: str, time: str = "2025-05-17 18:30:00", **over: Any) -> dict[str, Any]:
    return {"user_id": "U1", "shop_id": shop, "time": time, **over}


def stock(env: InStoreEnvironment, shop: str, pid: str) -> int:
    product = env.db.shops[shop].product(pid)
    assert product is not None
    return product.quantity


# ---- inventory ---------------------------------------------------------------------------------


def test_exactly_the_official_24_tools_with_their_parameters(env: InStoreEnvironment) -> None:
    assert isinstance(env, Environment)
    assert sorted(env.tools.names) == sorted(OFFICIAL)
    assert env.tools.count_by_kind() == {"write": 9, "read": 10, "general": 5}
    assert "delivery_distance_to_time" not in env.tools
    for tool in env.tools:
        kind, required, optional = OFFICIAL[tool.name]
        assert tool.kind.value == kind, tool.name
        schema = tool.parameters_schema()
        assert schema["required"] == required, tool.name
        assert sorted(schema["properties"]) == sorted(required + optional), tool.name


def test_descriptions_in_both_languages_with_conditions(env: InStoreEnvironment) -> None:
    for tool in env.tools:
        en, zh = tool.description("en"), tool.description("zh")
        assert not CJK.search(en) and CJK.search(zh), tool.name
        for language in LANGUAGES:
            props = tool.parameters_schema(language)["properties"]
            assert all(p.get("description") for p in props.values()), tool.name
        if tool.name.startswith(("instore", "create_instore", "pay_instore")):
            assert tool.spec.preconditions and tool.spec.postconditions, tool.name
    assert "Preconditions:" in env.tools["instore_book"].description("en")
    assert "前置条件" in env.tools["instore_book"].description("zh")


def test_dependency_edges_follow_the_data_flow(env: InStoreEnvironment) -> None:
    edges = set(env.tools.edges())
    for edge in [
        ("instore_shop_search_recommend", "create_instore_product_order"),
        ("instore_product_search_recommend", "create_instore_product_order"),
        ("create_instore_product_order", "pay_instore_order"),
        ("create_instore_product_order", "instore_cancel_order"),
        ("instore_book", "pay_instore_book"),
        ("instore_book", "instore_cancel_book"),
        ("instore_reservation", "instore_modify_reservation"),
        ("instore_reservation", "instore_cancel_reservation"),
        ("get_instore_orders", "instore_cancel_order"),
        ("get_instore_books", "pay_instore_book"),
        ("get_instore_reservations", "instore_modify_reservation"),
        ("instore_shop_search_recommend", "longitude_latitude_to_distance"),
        ("instore_shop_search_recommend", "address_to_longitude_latitude"),
    ]:
        assert edge in edges, edge
    writes = [t for t in env.tools if t.kind.value == "write"]
    assert all(any(dep in env.tools for dep in t.spec.depends_on) for t in writes)
    assert env.tools.graph_stats().nodes == 24


# ---- loading -----------------------------------------------------------------------------------


def test_data_is_normalised_and_annotations_dropped(env: InStoreEnvironment) -> None:
    raw = make_environment_dict()
    raw["shops"]["S_KEY"] = {**raw["shops"].pop("S_NONE"), "shop_id": "S_WRONG"}
    raw["orders"]["O_KEY"] = {**raw["orders"].pop("O_USED"), "order_id": "O_WRONG"}
    fixed = InStoreEnvironment(make_task(raw))
    assert fixed.db.shops["S_KEY"].shop_id == "S_KEY"
    assert all(p.shop_id == "S_KEY" for p in fixed.db.shops["S_KEY"].products)
    assert fixed.db.orders["O_KEY"].order_id == "O_KEY"
    # ``order_time`` stands in for a missing create_time; update_time is kept.
    assert env.db.orders["O_OLD"].create_time == "2025-05-10 09:00:00"
    dumped = json.dumps(env.snapshot())
    assert not any(word in dumped for word in HIDDEN)
    assert not hasattr(env.db.shops["S_SPA"], "business_hours")


def test_bad_clock_is_an_input_error() -> None:
    raw = make_environment_dict()
    raw["time"] = "2025-05-16 10:00"
    with pytest.raises(InputError, match="time"):
        InStoreEnvironment(make_task(raw))
    raw = make_environment_dict()
    raw["shops"]["S_SPA"]["location"] = None
    with pytest.raises(InputError, match="in-store data"):
        InStoreEnvironment(make_task(raw))


# ---- product orders ----------------------------------------------------------------------------


async def test_order_takes_stock_and_holds_its_own_copy(env: InStoreEnvironment) -> None:
    order = ok(await env.tools.run("create_instore_product_order", order_args(quantity=2)))
    assert order["order_id"] == "OIT1-001"
    assert (order["order_type"], order["status"], order["store_id"]) == (
        "instore",
        "unpaid",
        "S_SPA",
    )
    assert order["total_price"] == 316
    assert order["products"] == [
        {
            "product_id": "P_MASSAGE",
            "name": "Full-Body Massage Voucher",
            "price": 158.0,
            "quantity": 2,
            "attributes": "",
        }
    ]
    assert "dispatch_time" not in order and "location" not in order
    assert stock(env, "S_SPA", "P_MASSAGE") == 0
    catalog = env.db.shops["S_SPA"].product("P_MASSAGE")
    assert catalog is not None and catalog.price == 158
    assert id(env.db.orders["OIT1-001"].products[0]) != id(catalog)
    hits = ok(await env.tools.run("instore_product_search_recommend", {"keywords": ["massage"]}))
    assert {h["product_id"]: h["stock"] for h in hits}["P_MASSAGE"] == 0
    assert env.created_order_ids == ("OIT1-001",)


async def test_stock_never_refuses_an_order_as_officially(env: InStoreEnvironment) -> None:
    """The official tool has no stock check: an order beyond the stock, or of a product with
    stock 0, is created; stock takes what there is (never below 0) and cancelling gives it
    back."""
    run = env.tools.run
    over = ok(await run("create_instore_product_order", order_args(quantity=3)))  # stock 2
    assert over["products"][0]["quantity"] == 3 and over["total_price"] == 474
    assert stock(env, "S_SPA", "P_MASSAGE") == 0
    sold = ok(await run("create_instore_product_order", order_args(product_id="P_SOLD")))
    assert sold["status"] == "unpaid"
    assert env.created_order_ids == (over["order_id"], sold["order_id"])
    ok(await run("instore_cancel_order", {"order_id": over["order_id"]}))
    assert stock(env, "S_SPA", "P_MASSAGE") == 2  # what the order took, not what it asked


async def test_order_errors(env: InStoreEnvironment) -> None:
    run = env.tools.run
    fails(
        await run("create_instore_product_order", order_args(user_id="U2")),
        "precondition",
        "User ID",
    )
    fails(await run("create_instore_product_order", order_args(shop_id="S_X")), "not_found", "S_X")
    fails(
        await run("create_instore_product_order", order_args(product_id="P_SET")),
        "precondition",
        "sold by shop 'S_REST'",
    )
    fails(await run("create_instore_product_order", order_args(product_id="P_X")), "not_found")
    fails(
        await run("create_instore_product_order", order_args(quantity=0)),
        "precondition",
        "positive",
    )
    fails(await run("create_instore_product_order", order_args(quantity="2")), "bad_arguments")
    fails(await run("create_instore_product_order", order_args(quantity=1.5)), "bad_arguments")
    fails(await run("create_instore_product_order", {"user_id": "U1"}), "bad_arguments", "missing")
    assert stock(env, "S_SPA", "P_MASSAGE") == 2 and not env.created_order_ids


async def test_pay_and_cancel_orders(env: InStoreEnvironment) -> None:
    run = env.tools.run
    oid = ok(await run("create_instore_product_order", order_args()))["order_id"]
    paid = ok(await run("pay_instore_order", {"order_id": oid}))
    assert paid["order"]["status"] == "paid" and paid["message"] == "Payment successful."
    fails(await run("pay_instore_order", {"order_id": oid}), "precondition", "`unpaid`")
    assert stock(env, "S_SPA", "P_MASSAGE") == 1
    cancelled = ok(await run("instore_cancel_order", {"order_id": oid}))
    assert cancelled["order"]["status"] == "cancelled" and cancelled["order"]["update_time"] == TIME
    assert stock(env, "S_SPA", "P_MASSAGE") == 2  # returned
    fails(await run("instore_cancel_order", {"order_id": oid}), "precondition", "cancelled")
    # A pre-existing order: cancelled, stock untouched.
    ok(await run("instore_cancel_order", {"order_id": "O_OLD"}))
    assert stock(env, "S_SPA", "P_MASSAGE") == 2
    fails(await run("instore_cancel_order", {"order_id": "O_USED"}), "precondition", "consumed")


async def test_order_tools_check_type_ownership_and_record_kind(env: InStoreEnvironment) -> None:
    run = env.tools.run
    for tool in ("pay_instore_order", "instore_cancel_order"):
        fails(await run(tool, {"order_id": "O_DELIVERY"}), "precondition", "delivery order")
        fails(await run(tool, {"order_id": "O_OTHER"}), "precondition", "does not belong")
        fails(
            await run(tool, {"order_id": "B_OLD"}),
            "precondition",
            "table booking",
            "pay_instore_book",
        )
        fails(await run(tool, {"order_id": "R_OLD"}), "precondition", "reservation")
        fails(await run(tool, {"order_id": "nope"}), "not_found", "In-store order 'nope'")
    assert env.db.orders["O_OTHER"].status == "unpaid"


# ---- table bookings ----------------------------------------------------------------------------


async def test_booking_with_and_without_fee(env: InStoreEnvironment) -> None:
    run = env.tools.run
    book = ok(await run("instore_book", visit_args("S_REST", customer_count=4)))
    assert book == {
        "book_id": "BKT1-001",
        "shop_id": "S_REST",
        "book_time": "2025-05-17 18:30:00",
        "update_time": TIME,
        "customer_id": "U1",
        "customer_count": 4,
        "book_price": 50.0,
        "status": "unpaid",
    }
    free = ok(await run("instore_book", visit_args("S_CAFE")))
    assert (free["book_id"], free["status"], free["customer_count"]) == ("BKT1-002", "paid", 1)
    paid = ok(await run("pay_instore_book", {"book_id": "BKT1-001"}))
    assert paid["book"]["status"] == "paid"
    fails(await run("pay_instore_book", {"book_id": "BKT1-002"}), "precondition", "`unpaid`")
    ok(await run("instore_cancel_book", {"book_id": "BKT1-001"}))
    assert env.db.books["BKT1-001"].status == "cancelled"
    fails(await run("instore_cancel_book", {"book_id": "BKT1-001"}), "precondition", "cancelled")
    # Booking at the task clock itself is allowed.
    ok(await run("instore_book", visit_args("S_CAFE", time=TIME)))
    assert env.created_book_ids == ("BKT1-001", "BKT1-002", "BKT1-003")


async def test_booking_errors(env: InStoreEnvironment) -> None:
    run = env.tools.run
    fails(
        await run("instore_book", visit_args("S_SPA")),
        "precondition",
        "does not accept table",
        "instore_reservation",
    )
    fails(await run("instore_book", visit_args("S_NONE")), "precondition", "does not accept table")
    fails(
        await run("instore_book", visit_args("S_REST", time="2025-05-16 09:59:59")),
        "precondition",
        "earlier",
    )
    fails(
        await run("instore_book", visit_args("S_REST", time="2025-05-17 18:30")),
        "precondition",
        "format",
    )
    fails(
        await run("instore_book", visit_args("S_REST", customer_count=0)),
        "precondition",
        "customer_count",
    )
    fails(await run("instore_book", visit_args("S_REST", user_id="U2")), "precondition", "User ID")
    fails(await run("instore_book", visit_args("S_X")), "not_found")
    fails(await run("pay_instore_book", {"book_id": "B_OTHER"}), "precondition", "does not belong")
    fails(await run("pay_instore_book", {"book_id": "R_OLD"}), "precondition", "reservation")
    fails(await run("instore_cancel_book", {"book_id": "O_OLD"}), "precondition", "in-store order")
    fails(await run("instore_cancel_book", {"book_id": "nope"}), "not_found", "Booking 'nope'")
    assert not env.created_book_ids and env.db.books["B_OTHER"].status == "unpaid"


# ---- reservations ------------------------------------------------------------------------------


async def test_reservation_modify_and_cancel(env: InStoreEnvironment) -> None:
    run = env.tools.run
    res = ok(await run("instore_reservation", visit_args("S_SPA", customer_count=2)))
    assert (res["reservation_id"], res["status"], res["customer_count"]) == (
        "RST1-001",
        "unconsumed",
        2,
    )
    moved = ok(
        await run(
            "instore_modify_reservation",
            {"reservation_id": "RST1-001", "time": "2025-05-18 10:00:00"},
        )
    )
    assert moved["reservation"]["reservation_time"] == "2025-05-18 10:00:00"
    assert moved["reservation"]["customer_count"] == 2  # kept when omitted (official: 0)
    moved = ok(
        await run(
            "instore_modify_reservation",
            {"reservation_id": "R_OLD", "time": "2025-05-17 19:00:00", "customer_count": 3},
        )
    )
    assert (moved["reservation"]["customer_count"], moved["reservation"]["update_time"]) == (
        3,
        TIME,
    )
    ok(await run("instore_cancel_reservation", {"reservation_id": "RST1-001"}))
    fails(
        await run("instore_cancel_reservation", {"reservation_id": "RST1-001"}),
        "precondition",
        "cancelled",
    )
    fails(
        await run(
            "instore_modify_reservation",
            {"reservation_id": "RST1-001", "time": "2025-05-18 10:00:00"},
        ),
        "precondition",
        "cancelled",
    )
    assert env.created_reservation_ids == ("RST1-001",)


async def test_reservation_errors(env: InStoreEnvironment) -> None:
    run = env.tools.run
    fails(
        await run("instore_reservation", visit_args("S_REST")),
        "precondition",
        "does not accept reservations",
        "instore_book",
    )
    fails(
        await run("instore_reservation", visit_args("S_NONE")),
        "precondition",
        "does not accept reservations",
    )
    fails(
        await run("instore_reservation", visit_args("S_SPA", time="2025-05-15 18:00:00")),
        "precondition",
        "earlier",
    )
    fails(
        await run("instore_reservation", visit_args("S_SPA", time="tomorrow")),
        "precondition",
        "format",
    )
    fails(
        await run("instore_reservation", visit_args("S_SPA", customer_count=-1)),
        "precondition",
        "customer_count",
    )
    modify = "instore_modify_reservation"
    later = "2025-05-18 10:00:00"
    fails(
        await run(modify, {"reservation_id": "R_DONE", "time": later}), "precondition", "consumed"
    )
    fails(
        await run(modify, {"reservation_id": "R_OTHER", "time": later}),
        "precondition",
        "does not belong",
    )
    fails(
        await run(modify, {"reservation_id": "R_OLD", "time": "2025-05-01 10:00:00"}),
        "precondition",
        "earlier",
    )
    fails(
        await run(modify, {"reservation_id": "R_OLD", "time": later, "customer_count": 0}),
        "precondition",
    )
    fails(
        await run(modify, {"reservation_id": "B_OLD", "time": later}),
        "precondition",
        "table booking",
    )
    fails(
        await run("instore_cancel_reservation", {"reservation_id": "R_DONE"}),
        "precondition",
        "consumed",
    )
    fails(
        await run("instore_cancel_reservation", {"reservation_id": "nope"}),
        "not_found",
        "Reservation 'nope'",
    )
    assert env.db.reservations["R_OLD"].reservation_time == "2025-05-17 09:00:00"
    assert env.db.reservations["R_OLD"].customer_count == 2 and not env.created_reservation_ids


# ---- read tools --------------------------------------------------------------------------------


async def test_lists_and_searches_of_the_users_records(env: InStoreEnvironment) -> None:
    run = env.tools.run
    orders = ok(await run("get_instore_orders", {"user_id": "U1"}))
    assert [o["order_id"] for o in orders] == ["O_OLD", "O_USED"]
    assert [
        r["reservation_id"] for r in ok(await run("get_instore_reservations", {"user_id": "U1"}))
    ] == ["R_OLD", "R_DONE"]
    assert [b["book_id"] for b in ok(await run("get_instore_books", {"user_id": "U1"}))] == [
        "B_OLD"
    ]
    assert (
        ok(await run("search_instore_book", {"user_id": "U1", "book_id": "B_OLD"}))[0]["book_id"]
        == "B_OLD"
    )
    assert len(ok(await run("search_instore_book", {"user_id": "U1"}))) == 1
    one = ok(await run("search_instore_reservation", {"user_id": "U1", "reservation_id": "R_OLD"}))
    assert [r["reservation_id"] for r in one] == ["R_OLD"]
    assert len(ok(await run("search_instore_reservation", {"user_id": "U1"}))) == 2
    fails(
        await run("search_instore_book", {"user_id": "U1", "book_id": "B_OTHER"}),
        "precondition",
        "does not belong",
    )
    fails(
        await run("search_instore_reservation", {"user_id": "U1", "reservation_id": "R_OTHER"}),
        "precondition",
    )
    for tool in (
        "get_instore_orders",
        "get_instore_books",
        "get_instore_reservations",
        "search_instore_book",
        "search_instore_reservation",
    ):
        fails(await run(tool, {"user_id": "U2"}), "precondition", "User ID")
    empty = InStoreEnvironment(make_task({"time": TIME, "user_id": "U1"}))
    assert ok(await empty.tools.run("get_instore_books", {"user_id": "U1"})) == []
    assert ok(await empty.tools.run("get_user_all_orders", {})) == []


async def test_search_and_nearby(env: InStoreEnvironment) -> None:
    run = env.tools.run
    shops = ok(await run("instore_shop_search_recommend", {"keywords": ["hotpot"]}))
    assert shops[0]["shop_id"] == "S_REST" and "products" not in shops[0]
    assert set(shops[0]) == {
        "shop_id",
        "shop_name",
        "score",
        "location",
        "tags",
        "enable_book",
        "book_price",
        "enable_reservation",
    }
    by_shop = ok(await run("instore_product_search_recommend", {"keywords": ["Lakeside Tuina"]}))
    assert {h["product_id"] for h in by_shop[:2]} == {"P_MASSAGE", "P_SOLD"}
    assert by_shop[0]["shop_name"] == "Lakeside Tuina Studio"
    fails(await run("instore_shop_search_recommend", {"keywords": [" "]}), "precondition")
    home = ok(await run("address_to_longitude_latitude", {"address": HOME}))
    near = ok(
        await run(
            "get_nearby",
            {"longitude": home["longitude"], "latitude": home["latitude"], "range": 1500},
        )
    )
    assert all(p["type"] == "shop" for p in near) and near == sorted(
        near, key=lambda p: p["distance_m"]
    )
    assert {p["shop_id"] for p in near} <= set(env.db.shops)
    spa = ok(
        await run(
            "address_to_longitude_latitude",
            {"address": "Lakeside Tuina Studio, Shangcheng District, Hangzhou"},
        )
    )
    assert (spa["longitude"], spa["latitude"]) == (120.17, 30.28)


async def test_hidden_annotations_never_reach_the_agent(env: InStoreEnvironment) -> None:
    run = env.tools.run
    outputs = []
    for words in (["massage"], ["hotpot"], ["Relaxing"], ["other in-store services"], ["target"]):
        outputs.append(await run("instore_shop_search_recommend", {"keywords": words}))
        outputs.append(await run("instore_product_search_recommend", {"keywords": words}))
    outputs.append(
        await run("get_nearby", {"longitude": 120.17, "latitude": 30.27, "range": 100000})
    )
    outputs.append(await run("get_user_all_orders", {}))
    outputs.append(await run("get_instore_orders", {"user_id": "U1"}))
    outputs.append(await run("create_instore_product_order", order_args()))
    outputs.append(await run("instore_book", visit_args("S_REST")))
    outputs.append(await run("instore_reservation", visit_args("S_SPA")))
    blob = "\n".join(o.content for o in outputs)
    assert "P_MASSAGE" in blob and "S_REST" in blob
    for hidden in (*HIDDEN, "business_hours", "10:00-22:00"):
        assert hidden not in blob, hidden


# ---- isolation and determinism -----------------------------------------------------------------


async def test_environments_are_isolated_and_ids_deterministic() -> None:
    raw = make_environment_dict()
    raw["orders"]["OIT1-001"] = _order("OIT1-001", "S_SPA", "P_MASSAGE", "paid")
    before = copy.deepcopy(raw)
    task = make_task(raw)
    a, b = InStoreEnvironment(task), InStoreEnvironment(task)
    first = ok(await a.tools.run("create_instore_product_order", order_args(quantity=2)))
    assert first["order_id"] == "OIT1-002"  # ids present in the data are skipped
    ok(await a.tools.run("instore_cancel_reservation", {"reservation_id": "R_OLD"}))
    assert stock(b, "S_SPA", "P_MASSAGE") == 2 and b.db.reservations["R_OLD"].status == "unconsumed"
    assert task.environment == before  # the task itself is never mutated
    again = InStoreEnvironment(task)
    replay = ok(await again.tools.run("create_instore_product_order", order_args(quantity=2)))
    assert replay == first


async def test_snapshot(env: InStoreEnvironment) -> None:
    ok(await env.tools.run("create_instore_product_order", order_args()))
    ok(await env.tools.run("instore_book", visit_args("S_REST")))
    ok(await env.tools.run("instore_reservation", visit_args("S_SPA")))
    snap = env.snapshot()
    assert set(snap) == {
        "time",
        "user_id",
        "orders",
        "books",
        "reservations",
        "created_order_ids",
        "created_book_ids",
        "created_reservation_ids",
    }
    assert snap["created_order_ids"] == ["OIT1-001"]
    assert snap["created_book_ids"] == ["BKT1-001"]
    assert snap["created_reservation_ids"] == ["RST1-001"]
    assert snap["orders"]["OIT1-001"]["status"] == "unpaid"
    assert snap["books"]["BKT1-001"]["status"] == "unpaid"
    assert snap["reservations"]["RST1-001"]["status"] == "unconsumed"
    json.dumps(snap)


async def test_chinese_environment() -> None:
    env = InStoreEnvironment(make_task(), language="zh")
    info = ok(await env.tools.run("get_date_holiday_info", {"date": "2025-05-01"}))
    assert info["weekday"] == "星期四" and info["is_holiday"]
    assert CJK.search(env.tools.openai_schemas("zh")[10]["function"]["description"])
