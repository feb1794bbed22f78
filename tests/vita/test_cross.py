"""Cross-scenario environment: 66 tools over one database with one orders table."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.vita.domains.cross import CrossEnvironment
from lifebench.vita.loader import load_bundled_tasks
from lifebench.vita.task import VitaTask


def _tools(domain: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(app, ["tools", "--suite", "vita", "--domain", domain, "--json"])
    assert result.exit_code == 0, result.stderr
    return list(json.loads(result.stdout))


def test_tool_counts_of_every_domain() -> None:
    counts = {}
    names = {}
    for domain in ("delivery", "instore", "ota", "cross"):
        rows = _tools(domain)
        kinds = [r["kind"] for r in rows]
        counts[domain] = (
            len(rows),
            kinds.count("write"),
            kinds.count("read"),
            kinds.count("general"),
        )
        names[domain] = {r["name"] for r in rows}
    assert counts == {
        "delivery": (20, 4, 10, 6),
        "instore": (24, 9, 10, 5),
        "ota": (38, 14, 19, 5),
        "cross": (66, 27, 33, 6),
    }
    assert names["cross"] == names["delivery"] | names["instore"] | names["ota"]


def _merged_task() -> VitaTask:
    """A task whose database holds the tables of all three domains."""
    env: dict[str, Any] = {}
    for domain in ("delivery", "instore", "ota"):
        task = load_bundled_tasks(domain, "en")[0]
        for key, value in task.environment.items():
            if isinstance(value, dict) and isinstance(env.get(key), dict):
                env[key] = {**env[key], **value}
            elif isinstance(value, list) and isinstance(env.get(key), list):
                env[key] = env[key] + value
            elif key not in env:
                env[key] = value
    return VitaTask(id="X1", domain="cross", environment=env)


def _run(env: CrossEnvironment, name: str, args: dict[str, Any]) -> Any:
    outcome = asyncio.run(env.tools.run(name, args))
    return outcome


def test_one_orders_table_and_cross_domain_addresses() -> None:
    task = _merged_task()
    env = CrossEnvironment(task)
    before = len(json.loads(_run(env, "get_user_all_orders", {}).content))
    shop = next(iter(task.environment["shops"].values()))
    product = next(p for p in shop["products"] if (p.get("quantity") or 0) > 0)
    created = _run(
        env,
        "create_instore_product_order",
        {
            "user_id": task.environment["user_id"],
            "shop_id": shop["shop_id"],
            "product_id": product["product_id"],
        },
    )
    assert not created.error, created.content
    order_id = json.loads(created.content)["order_id"]
    after = json.loads(_run(env, "get_user_all_orders", {}).content)
    assert len(after) == before + 1
    # another domain's pay tool refuses it; the right one pays it
    assert _run(env, "pay_hotel_order", {"order_id": order_id}).error
    assert not _run(env, "pay_instore_order", {"order_id": order_id}).error
    snap = env.snapshot()
    assert snap["orders"][order_id]["status"] == "paid"
    assert order_id in snap["created_order_ids"]
    # a hotel address can be geocoded by the shared tool (places of every domain are known)
    hotel = next(iter(task.environment["hotels"].values()))
    found = _run(env, "address_to_longitude_latitude", {"address": hotel["location"]["address"]})
    assert not found.error, found.content


def test_environments_are_isolated() -> None:
    task = _merged_task()
    a, b = CrossEnvironment(task), CrossEnvironment(task)
    shop = next(iter(task.environment["shops"].values()))
    product = next(p for p in shop["products"] if (p.get("quantity") or 0) > 0)
    _run(
        a,
        "create_instore_product_order",
        {
            "user_id": task.environment["user_id"],
            "shop_id": shop["shop_id"],
            "product_id": product["product_id"],
        },
    )
    assert len(a.snapshot()["orders"]) == len(b.snapshot()["orders"]) + 1
