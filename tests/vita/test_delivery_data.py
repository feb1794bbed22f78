"""The delivery environment on the 60 official English delivery tasks (needs ../shared)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lifebench.tools import ToolOutcome
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.task import VitaTask
from shared_data import shared_file


@pytest.fixture(scope="module")
def data() -> Path:
    return shared_file("vitabench", "delivery_tasks_en.json")


@pytest.fixture(scope="module")
def tasks(data: Path) -> list[VitaTask]:
    return [VitaTask.model_validate(t) for t in json.loads(data.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def envs(tasks: list[VitaTask]) -> dict[str, DeliveryEnvironment]:
    return {t.id: DeliveryEnvironment(t) for t in tasks}


def ok(outcome: ToolOutcome) -> Any:
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


def city(env: DeliveryEnvironment) -> str:
    return env.db.weather[0].city


def test_every_task_builds(tasks: list[VitaTask], envs: dict[str, DeliveryEnvironment]) -> None:
    assert len(tasks) == 60
    for task in tasks:
        env = envs[task.id]
        assert len(env.tools) == 20
        assert env.now.strftime("%Y-%m-%d %H:%M:%S") == task.environment["time"]
        assert len(env.db.stores) == len(task.environment["stores"])
        assert set(env.db.orders) == set(task.environment["orders"])
    assert sum(len(e.db.orders) for e in envs.values()) == 31
    assert sum(len(s.products) for e in envs.values() for s in e.db.stores.values()) == 471


async def test_every_store_and_product_is_findable(envs: dict[str, DeliveryEnvironment]) -> None:
    for env in envs.values():
        for store in env.db.stores.values():
            found = ok(
                await env.tools.run("delivery_store_search_recommand", {"keywords": [store.name]})
            )
            assert store.store_id in [s["store_id"] for s in found], (env.task_id, store.name)
            assert ok(await env.tools.run("get_delivery_store_info", {"store_id": store.store_id}))
            for product in store.products:
                hits = ok(
                    await env.tools.run(
                        "delivery_product_search_recommand", {"keywords": [product.name]}
                    )
                )
                ids = [h["product_id"] for h in hits]
                assert product.product_id in ids, (env.task_id, product.name)
                assert hits[0]["name"] == product.name, (env.task_id, product.name)
                info = ok(
                    await env.tools.run(
                        "get_delivery_product_info", {"product_id": product.product_id}
                    )
                )
                assert info["store_id"] == store.store_id
                assert info["attributes"] == product.attributes


async def test_every_known_address_resolves_to_itself(envs: dict[str, DeliveryEnvironment]) -> None:
    for env in envs.values():
        for loc in env.db.location:
            out = ok(await env.tools.run("address_to_longitude_latitude", {"address": loc.address}))
            assert (out["longitude"], out["latitude"]) == (loc.longitude, loc.latitude)


async def test_addresses_of_one_task_do_not_resolve_in_another_city(
    envs: dict[str, DeliveryEnvironment],
) -> None:
    for a in envs.values():
        for b in envs.values():
            if city(a) == city(b):
                continue
            for loc in a.db.location:
                out = await b.tools.run("address_to_longitude_latitude", {"address": loc.address})
                assert out.error and out.error_kind == "not_found", (a.task_id, b.task_id, out)


async def test_an_order_can_be_placed_and_paid_in_every_task(
    envs: dict[str, DeliveryEnvironment], tasks: list[VitaTask]
) -> None:
    for task in tasks:
        env = DeliveryEnvironment(task)  # fresh: the shared module fixture stays untouched
        store = next(iter(env.db.stores.values()))
        product = store.products[0]
        args = {
            "user_id": env.db.user_id,
            "store_id": store.store_id,
            "product_ids": [product.product_id],
            "product_cnts": [2],
            "address": env.db.location[0].address,
            "dispatch_time": env.db.time,
            "attributes": [product.attributes[0] if product.attributes else ""],
        }
        order = ok(await env.tools.run("create_delivery_order", args))
        assert order["order_id"] == f"OT{task.id}-001"
        assert order["total_price"] == round(product.price * 2, 2)
        ok(await env.tools.run("pay_delivery_order", {"order_id": order["order_id"]}))
        assert env.snapshot()["orders"][order["order_id"]]["status"] == "paid"
        assert envs[task.id].db.orders.keys() == env.db.orders.keys() - {order["order_id"]}


async def test_weather_of_the_task_day(envs: dict[str, DeliveryEnvironment]) -> None:
    for env in envs.values():
        w = env.db.weather[0]
        out = ok(
            await env.tools.run(
                "weather", {"address": w.city, "date_start": w.datetime, "date_end": w.datetime}
            )
        )
        assert out["city"] == w.city and len(out["days"]) == 1


def test_data_oddities_are_normalised(envs: dict[str, DeliveryEnvironment]) -> None:
    # 20711002: the store's own store_id disagrees with its key; the key is the identity.
    store = envs["20711002"].db.stores["S10884602254755805_S86671"]
    assert store.store_id == "S10884602254755805_S86671"
    # D0717002: two products carry another store's id and the placeholder name "M027".
    tea = envs["D0717002"].db.stores["S30277630239337670_S96390"]
    assert {(p.store_id, p.store_name) for p in tea.products} == {
        ("S30277630239337670_S96390", "CHABAIDAO (Suzhou Fenghua Plaza Branch)")
    }
    # 30711009: a pre-existing order line uses the key "attribute"; shipping_time null kept.
    order = next(iter(envs["30711009"].db.orders.values()))
    assert order.products[0].attributes == ""
    assert any(o.shipping_time is None for e in envs.values() for o in e.db.orders.values())


def test_tasks_are_not_mutated(tasks: list[VitaTask], data: Path) -> None:
    raw = json.loads(data.read_text(encoding="utf-8"))
    assert [t.model_dump(mode="json")["environment"] for t in tasks] == [
        t["environment"] for t in raw
    ]
