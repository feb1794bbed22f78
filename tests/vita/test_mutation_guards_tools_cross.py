"""The cross-scenario environment (vita/domains/cross.py) pinned by its effect on the tools: each
pre-existing order is read by the domain that owns its type (an OTA booking keeps its date and
room type, which the OTA tools and the state grader read), every part works on the one orders
table, the tools of the chosen domains only, addresses and nearby places of every domain, and
one snapshot."""

from __future__ import annotations

import json
from typing import Any

from test_delivery_tools import make_environment_dict as delivery_world
from test_ota_tools import make_environment_dict as ota_world

from lifebench.vita.domains.common import SharedTools
from lifebench.vita.domains.cross import CrossEnvironment
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.task import VitaTask


def world() -> dict[str, Any]:
    """The OTA world (hotel, train, flight, attraction and delivery orders) plus the delivery
    world's stores and places."""
    data = ota_world()
    delivery = delivery_world()
    data["stores"] = delivery["stores"]
    data["location"] = data["location"] + delivery["location"]
    return data


def task(data: dict[str, Any] | None = None) -> VitaTask:
    return VitaTask(id="C1", domain="cross", environment=data or world())


async def all_orders(env: SharedTools) -> dict[str, Any]:
    outcome = await env.tools.run("get_user_all_orders", {})
    return {o["order_id"]: o for o in json.loads(outcome.content)}


async def test_each_pre_existing_order_is_read_by_the_domain_owning_its_type() -> None:
    env = CrossEnvironment(task())
    orders = await all_orders(env)
    alone = await all_orders(OTAEnvironment(task()))
    # OTA bookings read exactly as the OTA domain reads them (line date and room/seat type)
    for oid in ("O_HOTEL", "O_TRAIN", "O_USED", "O_OTHER_USER"):
        assert orders[oid] == alone[oid], oid
    assert orders["O_HOTEL"]["products"][0]["date"] == "2025-06-12"
    # a delivery order reads as the delivery domain reads it
    plain = await all_orders(DeliveryEnvironment(task()))
    assert orders["O_DELIVERY"] == plain["O_DELIVERY"]
    assert orders["O_DELIVERY"] != alone["O_DELIVERY"]  # the OTA domain reads it otherwise
    # the OTA tools act on the shared table: the paid hotel order is cancelled once
    cancelled = await env.tools.run("cancel_hotel_order", {"order_id": "O_HOTEL", "user_id": "U1"})
    assert not cancelled.error, cancelled.content
    assert env.snapshot()["orders"]["O_HOTEL"]["status"] == "cancelled"
    assert (await all_orders(env))["O_HOTEL"]["status"] == "cancelled"


async def test_an_order_of_a_domain_left_out_is_read_by_the_first_domain() -> None:
    env = CrossEnvironment(task(), domains=("delivery", "instore"))
    orders = await all_orders(env)
    plain = await all_orders(DeliveryEnvironment(task()))
    assert orders == plain
    assert set(orders) == set(ota_world()["orders"])


def test_only_the_chosen_domains_tools_and_the_shared_ones_once() -> None:
    env = CrossEnvironment(task(), domains=("ota", "delivery"))
    names = [t.name for t in env.tools]
    assert len(names) == len(set(names))
    expected = {t.name for t in DeliveryEnvironment(task()).tools} | {
        t.name for t in OTAEnvironment(task()).tools
    }
    assert set(names) == expected
    assert "create_instore_product_order" not in names
    assert list(env.parts) == ["delivery", "ota"]  # the official order, whatever was asked


async def test_orders_created_in_any_part_are_in_the_one_table_and_snapshot() -> None:
    env = CrossEnvironment(task())
    hotel = await env.tools.run(
        "create_hotel_order", {"hotel_id": "H1", "room_id": "H1_K_0612", "user_id": "U1"}
    )
    assert not hotel.error, hotel.content
    food = await env.tools.run(
        "create_delivery_order",
        {
            "user_id": "U1",
            "store_id": "S_NOODLE",
            "product_ids": ["P_PICKLE"],
            "product_cnts": [1],
            "address": delivery_world()["location"][0]["address"],
            "dispatch_time": "2025-06-10 10:30:00",
        },
    )
    assert not food.error, food.content
    hotel_id, food_id = json.loads(hotel.content)["order_id"], json.loads(food.content)["order_id"]
    snap = env.snapshot()
    # created ids in domain order (delivery before OTA), every order in one table
    assert snap["created_order_ids"] == [food_id, hotel_id]
    assert set(snap["orders"]) == set(ota_world()["orders"]) | {food_id, hotel_id}
    assert (snap["time"], snap["user_id"]) == ("2025-06-10 10:00:00", "U1")
    for part in env.parts.values():
        assert part.db.orders is env.db.orders
    # the delivery tools see the hotel order as another domain's order
    other = await env.tools.run("pay_delivery_order", {"order_id": hotel_id})
    assert (other.error, other.error_kind) == (True, "precondition")
    assert "is a hotel order, not a delivery order" in other.content


async def test_addresses_and_nearby_places_of_every_domain_once() -> None:
    env = CrossEnvironment(task())
    located = env.known_locations()
    keys = [(loc.address, loc.longitude, loc.latitude) for loc in located]
    assert len(keys) == len(set(keys))
    union = {
        (loc.address, loc.longitude, loc.latitude)
        for part in env.parts.values()
        for loc in part.known_locations()
    }
    assert set(keys) == union
    # a store address (delivery) and a hotel address (OTA) both resolve, with no ambiguity
    for address in (
        delivery_world()["stores"]["S_NOODLE"]["location"]["address"],
        ota_world()["hotels"]["H1"]["location"]["address"],
    ):
        found = await env.tools.run("address_to_longitude_latitude", {"address": address})
        assert not found.error, found.content
    places = env.nearby_places()
    assert len(places) == sum(len(list(p.nearby_places())) for p in env.parts.values())
    kinds = {info["type"] for info, _ in places}
    assert {"store", "hotel"} <= kinds


async def test_a_part_resolves_addresses_of_every_domain() -> None:
    env = CrossEnvironment(task())
    assert env.task_id == "C1"
    hotel = ota_world()["hotels"]["H1"]["location"]
    food = await env.tools.run(
        "create_delivery_order",
        {
            "user_id": "U1",
            "store_id": "S_NOODLE",
            "product_ids": ["P_PICKLE"],
            "product_cnts": [1],
            "address": hotel["address"],
            "dispatch_time": "2025-06-10 10:30:00",
        },
    )
    assert not food.error, food.content
    where = json.loads(food.content)["location"]
    assert (where["longitude"], where["latitude"]) == (hotel["longitude"], hotel["latitude"])


async def test_a_cross_environment_answers_in_english_by_default() -> None:
    env = CrossEnvironment(task())
    outcome = await env.tools.run("get_date_holiday_info", {"date": "2025-10-01"})
    assert json.loads(outcome.content) == {
        "date": "2025-10-01",
        "weekday": "Wednesday",
        "is_holiday": True,
        "holidays": ["National Day"],
    }
