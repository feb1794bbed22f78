"""The bundled demo tasks: loadable from package data, lint-clean, and internally consistent."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from lifebench.vita.lint import lint_tasks
from lifebench.vita.loader import load_bundled_tasks
from lifebench.vita.task import VitaTask

LANGUAGES = ("en", "zh")
FMT = "%Y-%m-%d %H:%M:%S"
CJK = re.compile(r"[\u4e00-\u9fff]")

# Per scenario: (max distance from the delivery address in metres, minimum store rating,
# budget for all new orders together, latest arrival or None).
CONSTRAINTS: dict[str, tuple[float | None, float | None, float, str | None]] = {
    "LBD001": (3000, 4.5, 40, "2025-04-12 12:30:00"),
    "LBD002": (2000, 4.6, 120, None),
    "LBD003": (3000, 4.5, 45, None),
    "LBD004": (2000, 4.5, 35, None),
    "LBD005": (3000, 4.6, 149.99, "2025-12-12 18:30:00"),
    "LBD006": (None, None, 40, "2025-10-14 08:40:00"),
}

PROFILE_KEYS = {
    "en": [
        "user id",
        "occupation",
        "gender",
        "age group",
        "residence",
        "home address",
        "work address",
        "dietary restrictions",
        "family status",
        "personality",
    ],
    "zh": [
        "用户id",
        "职业",
        "性别",
        "年龄段",
        "常住地",
        "家庭住址",
        "工作地址",
        "饮食禁忌",
        "家庭情况",
        "性格",
    ],
}


def haversine(a: dict[str, Any], b: dict[str, Any]) -> float:
    """Great-circle distance in metres (Earth radius 6,371 km, as the official tool)."""
    p1, p2 = math.radians(a["latitude"]), math.radians(b["latitude"])
    dp, dl = p2 - p1, math.radians(b["longitude"] - a["longitude"])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6_371_000 * math.asin(math.sqrt(h))


def shipping_minutes(distance: float) -> int:
    """The official delivery-time formula (25 minutes plus ~153.6 m per minute)."""
    return round(25 + round(distance) * 0.006510)


def at(text: str) -> datetime:
    """Parse a data timestamp (the task clock is naive; pin it to UTC for comparisons)."""
    return datetime.strptime(text, FMT).replace(tzinfo=UTC)


@pytest.fixture(scope="module", params=LANGUAGES)
def tasks(request: pytest.FixtureRequest) -> list[VitaTask]:
    return load_bundled_tasks("delivery", request.param)


def base_id(task: VitaTask) -> str:
    return task.id.rsplit("_", 1)[0]


def new_orders(task: VitaTask) -> list[dict[str, Any]]:
    """Orders of the last expected state the user wants created (not pre-existing ones)."""
    assert task.evaluation_criteria is not None
    final = task.evaluation_criteria.expected_states[-1]
    existing = task.environment["orders"]
    return [o for o in final.required_orders if o["order_id"] not in existing]


def test_six_tasks_per_language_and_lint_clean(tasks: list[VitaTask]) -> None:
    assert [base_id(t) for t in tasks] == list(CONSTRAINTS)
    language = tasks[0].id.rsplit("_", 1)[1]
    assert all(t.id.endswith(f"_{language}") for t in tasks)
    assert lint_tasks(tasks) == []  # not even warnings


def test_languages_describe_the_same_scenarios() -> None:
    en, zh = (load_bundled_tasks("delivery", lang) for lang in LANGUAGES)
    for a, b in zip(en, zh, strict=True):
        assert base_id(a) == base_id(b)
        env_a, env_b = a.environment, b.environment
        assert (env_a["time"], env_a["user_id"]) == (env_b["time"], env_b["user_id"])
        assert env_a["stores"].keys() == env_b["stores"].keys()
        for sid, store in env_a["stores"].items():
            other = env_b["stores"][sid]
            assert store["score"] == other["score"]
            assert store["location"]["longitude"] == other["location"]["longitude"]
            assert store["location"]["latitude"] == other["location"]["latitude"]
            assert [
                (p["product_id"], p["price"], len(p["attributes"])) for p in store["products"]
            ] == [(p["product_id"], p["price"], len(p["attributes"])) for p in other["products"]]
        assert a.evaluation_criteria is not None and b.evaluation_criteria is not None
        states_a, states_b = (
            a.evaluation_criteria.expected_states,
            b.evaluation_criteria.expected_states,
        )
        assert len(states_a) == len(states_b)
        for sa, sb in zip(states_a, states_b, strict=True):
            assert len(sa.state_rubrics) == len(sb.state_rubrics)
            keys = ("order_id", "store_id", "status", "total_price", "dispatch_time")
            assert [[o[k] for k in keys] for o in sa.required_orders] == [
                [o[k] for k in keys] for o in sb.required_orders
            ]
        assert not CJK.search(a.instructions)
        assert CJK.search(b.instructions)
        assert not CJK.search(str(a.environment))
        assert CJK.search(next(iter(b.environment["stores"].values()))["name"])


def test_official_shape(tasks: list[VitaTask]) -> None:
    language = tasks[0].id.rsplit("_", 1)[1]
    for task in tasks:
        env = task.environment
        assert task.domain == "delivery"
        assert task.message_history == []
        assert set(env) == {
            "time",
            "user_id",
            "orders",
            "weather",
            "location",
            "user_historical_behaviors",
            "stores",
        }
        now = at(env["time"])
        assert 3 <= len(env["stores"]) <= 6
        for sid, store in env["stores"].items():
            assert store["store_id"] == sid
            assert set(store) == {"store_id", "name", "score", "location", "tags", "products"}
            for product in store["products"]:
                assert set(product) == {
                    "product_id",
                    "name",
                    "store_id",
                    "store_name",
                    "price",
                    "tags",
                    "attributes",
                }
                assert product["store_name"] == store["name"]
        assert list(task.user_scenario.user_profile) == PROFILE_KEYS[language]
        history = env["user_historical_behaviors"]
        assert list(history)[:7] == PROFILE_KEYS[language][:7]
        assert len(history) >= 9  # profile plus at least two meal periods
        assert task.evaluation_criteria is not None
        for state in task.evaluation_criteria.expected_states:
            assert state.state_rubrics
            for order in state.required_orders:
                assert order["order_type"] == "delivery"
                assert order["shipping_time"] is None
                assert order["delivery_time"] == ""
                assert order["status"] in {"paid", "unpaid", "cancelled"}
                if order["dispatch_time"]:
                    assert at(order["dispatch_time"]) >= now
                at(order["create_time"])
                at(order["update_time"])


def test_target_orders_meet_every_constraint_and_distractors_exist(tasks: list[VitaTask]) -> None:
    for task in tasks:
        max_distance, min_score, budget, deadline = CONSTRAINTS[base_id(task)]
        stores = task.environment["stores"]
        orders = new_orders(task)
        assert orders
        assert sum(o["total_price"] for o in orders) <= budget
        for order in orders:
            store = stores[order["store_id"]]
            distance = haversine(store["location"], order["location"])
            if max_distance is not None:
                assert distance <= max_distance, (task.id, store["name"], distance)
                assert any(
                    haversine(s["location"], order["location"]) > max_distance
                    for s in stores.values()
                )
            if min_score is not None:
                assert store["score"] >= min_score
                assert any(s["score"] < min_score for s in stores.values())
            if deadline is not None:
                start = at(order["dispatch_time"] or task.environment["time"])
                arrival = start + timedelta(minutes=shipping_minutes(distance))
                assert arrival <= at(deadline), (task.id, arrival)
        # every store is in the user's city (within 10 km of one of the user's addresses)
        for store in stores.values():
            assert (
                min(haversine(store["location"], loc) for loc in task.environment["location"])
                < 10_000
            )


def test_scheduled_dispatch_time_arrives_exactly_on_time() -> None:
    (task,) = [t for t in load_bundled_tasks("delivery", "en") if t.id == "LBD005_en"]
    (order,) = new_orders(task)
    store = task.environment["stores"][order["store_id"]]
    minutes = shipping_minutes(haversine(store["location"], order["location"]))
    arrival = at(order["dispatch_time"]) + timedelta(minutes=minutes)
    assert arrival == at("2025-12-12 18:30:00")


def test_scenarios_cover_the_required_situations(tasks: list[VitaTask]) -> None:
    by_id = {base_id(t): t for t in tasks}

    def final_orders(task_id: str) -> dict[str, dict[str, Any]]:
        criteria = by_id[task_id].evaluation_criteria
        assert criteria is not None
        return {o["order_id"]: o for o in criteria.expected_states[-1].required_orders}

    # simple order and pay
    assert [o["status"] for o in new_orders(by_id["LBD001"])] == ["paid"]
    # two orders from two different stores, both paid
    two = new_orders(by_id["LBD002"])
    assert len({o["store_id"] for o in two}) == 2 and {o["status"] for o in two} == {"paid"}
    # cancel a pre-existing paid order and reorder
    before = by_id["LBD003"].environment["orders"]["LBD003O01"]
    assert before["status"] == "paid"
    assert final_orders("LBD003")["LBD003O01"]["status"] == "cancelled"
    assert [o["status"] for o in new_orders(by_id["LBD003"])] == ["paid"]
    # modify the note of a pre-existing order (nothing else changes)
    before = by_id["LBD004"].environment["orders"]["LBD004O01"]
    after = final_orders("LBD004")["LBD004O01"]
    assert before["note"] == "" and after["note"] != ""
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"note", "update_time"}
    # create but do not pay
    assert [o["status"] for o in new_orders(by_id["LBD005"])] == ["unpaid"]
    # "same as last time": the most recent breakfast in the history names the target
    task = by_id["LBD006"]
    (order,) = new_orders(task)
    store = task.environment["stores"][order["store_id"]]
    period = next(
        iter(
            v for v in task.environment["user_historical_behaviors"].values() if isinstance(v, dict)
        )
    )
    recent = next(v for k, v in period.items() if k in ("recent orders", "最近订单"))
    last_store, last_product = recent[0].values()
    assert last_store == store["name"]
    ordered = {p["product_id"] for p in order["products"]}
    names = {p["product_id"]: p["name"] for p in store["products"]}
    assert last_product in {names[pid] for pid in ordered}
