"""The bundled OTA demo tasks: loadable, lint-clean, bilingual twins, and each target unique."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest

from lifebench.vita.domains import _calendar
from lifebench.vita.domains.ota import OTAEnvironment, in_city
from lifebench.vita.grading.ota import ota_required_orders
from lifebench.vita.lint import lint_tasks
from lifebench.vita.loader import load_bundled_tasks
from lifebench.vita.task import VitaTask

LANGUAGES = ("en", "zh")
CJK = re.compile(r"[\u4e00-\u9fff]")
IDS = [f"LBO00{i}" for i in range(1, 9)]
WHITELIST = {
    "time",
    "user_id",
    "orders",
    "weather",
    "location",
    "user_historical_behaviors",
    "hotels",
    "attractions",
    "flights",
    "trains",
}
PROVIDER_KEYS = {
    "hotels": {"hotel_id", "hotel_name", "score", "star_rating", "location", "tags", "products"},
    "attractions": {
        "attraction_id",
        "attraction_name",
        "location",
        "description",
        "score",
        "opening_hours",
        "ticket_price",
        "products",
    },
    "flights": {
        "flight_id",
        "flight_number",
        "departure_city",
        "arrival_city",
        "departure_airport_location",
        "arrival_airport_location",
        "departure_time",
        "arrival_time",
        "tags",
        "products",
    },
    "trains": {
        "train_id",
        "train_number",
        "departure_city",
        "arrival_city",
        "departure_station_location",
        "arrival_station_location",
        "departure_time",
        "arrival_time",
        "tags",
        "products",
    },
}
VARIANT = {
    "hotels": "room_type",
    "attractions": "ticket_type",
    "flights": "seat_type",
    "trains": "seat_type",
}

# Hotel bookings chosen by constraints: (city, min score, max price, room type (en), night).
HOTEL_RULES = {
    "LBO001": ("Hangzhou", 4.6, 600, "Lake View King Room", "2025-09-18"),
    "LBO007": ("Xiamen", 4.5, 700, "Sea View King Room", "2025-10-01"),
    "LBO008": ("Changsha", 4.5, 500, "Standard Twin Room", "2025-10-06"),
}


@pytest.fixture(scope="module", params=LANGUAGES)
def tasks(request: pytest.FixtureRequest) -> list[VitaTask]:
    return load_bundled_tasks("ota", request.param)


def base_id(task: VitaTask) -> str:
    return task.id.rsplit("_", 1)[0]


def products(task: VitaTask, table: str, provider: str) -> dict[str, dict[str, Any]]:
    return {p["product_id"]: p for p in task.environment[table][provider]["products"]}


def new_orders(task: VitaTask) -> list[dict[str, Any]]:
    return [dict(r.record) for r in ota_required_orders(task) if r.change == "new"]


def test_eight_tasks_per_language_lint_clean(tasks: list[VitaTask]) -> None:
    assert [base_id(t) for t in tasks] == IDS
    language = tasks[0].id.rsplit("_", 1)[1]
    assert all(t.id.endswith(f"_{language}") for t in tasks)
    assert lint_tasks(tasks) == []  # not even warnings
    for task in tasks:
        OTAEnvironment(task)  # every environment builds


def test_languages_describe_the_same_scenarios() -> None:
    en, zh = (load_bundled_tasks("ota", lang) for lang in LANGUAGES)
    for a, b in zip(en, zh, strict=True):
        ea, eb = a.environment, b.environment
        assert (ea["time"], ea["user_id"], set(ea)) == (eb["time"], eb["user_id"], set(eb))
        for table in VARIANT:
            assert ea.get(table, {}).keys() == eb.get(table, {}).keys()
            for pid, provider in ea.get(table, {}).items():
                other = eb[table][pid]
                numbers = ("score", "star_rating", "ticket_price")
                assert [provider.get(k) for k in numbers] == [other.get(k) for k in numbers]
                keys = ("product_id", "price", "quantity", "date")
                assert [[p[k] for k in keys] for p in provider["products"]] == [
                    [p[k] for k in keys] for p in other["products"]
                ]
        assert ea["orders"].keys() == eb["orders"].keys()
        ra, rb = ota_required_orders(a), ota_required_orders(b)
        keys2 = ("order_id", "store_id", "status", "total_price")
        assert [[r.record[k] for k in keys2] + [r.lines] for r in ra] == [
            [r.record[k] for k in keys2] + [r.lines] for r in rb
        ]
        assert not CJK.search(a.instructions) and not CJK.search(str(ea))
        assert CJK.search(b.instructions) and CJK.search(str(eb["user_historical_behaviors"]))


def test_official_shape(tasks: list[VitaTask]) -> None:
    for task in tasks:
        env = task.environment
        assert task.domain == "ota" and task.message_history == []
        assert set(env) <= WHITELIST and {"time", "user_id", "orders", "location"} <= set(env)
        for table, keys in PROVIDER_KEYS.items():
            for key, provider in env.get(table, {}).items():
                assert set(provider) == keys, (task.id, key)
                assert provider[keys_id(table)] == key
                for p in provider["products"]:
                    assert set(p) == {"product_id", "price", "quantity", "date", VARIANT[table]}
                    assert date.fromisoformat(p["date"])
        assert task.evaluation_criteria is not None
        for state in task.evaluation_criteria.expected_states:
            assert state.state_rubrics
            for order in state.required_orders:
                assert order["order_type"] in {"hotel", "attraction", "flight", "train"}
                assert order["user_id"] == env["user_id"]
                assert order["status"] in {"paid", "unpaid", "cancelled"}
                total = sum(p["price"] * p["quantity"] for p in order["products"])
                assert order["total_price"] == total


def keys_id(table: str) -> str:
    return {"hotels": "hotel_id", "attractions": "attraction_id"}.get(table, table[:-1] + "_id")


def test_targets_are_bookable_and_unique(tasks: list[VitaTask]) -> None:
    for task in tasks:
        today = date.fromisoformat(task.environment["time"][:10])
        for order in new_orders(task):
            table = order["order_type"] + "s"
            catalog = products(task, table, order["store_id"])
            for line in order["products"]:
                p = catalog[line["product_id"]]
                assert p["date"] == line["date"] and p["price"] == line["price"]
                assert p["quantity"] >= line["quantity"] and date.fromisoformat(p["date"]) >= today
    if tasks[0].id.endswith("_zh"):
        return
    for task in tasks:
        rule = HOTEL_RULES.get(base_id(task))
        if rule is None:
            continue
        city, min_score, max_price, room_type, night = rule
        fitting = [
            (hid, p["product_id"])
            for hid, h in task.environment["hotels"].items()
            for p in h["products"]
            if in_city(city, h["location"]["address"])
            and h["score"] >= min_score
            and p["room_type"] == room_type
            and p["date"] == night
            and p["price"] <= max_price
            and p["quantity"] >= 1
        ]
        (target,) = [o for o in new_orders(task) if o["order_type"] == "hotel"]
        assert fitting == [(target["store_id"], target["products"][0]["product_id"])], task.id


def test_distractors_of_every_kind_exist() -> None:
    seen: set[str] = set()
    for task in load_bundled_tasks("ota", "en"):
        targets = {
            (o["store_id"], line["product_id"]) for o in new_orders(task) for line in o["products"]
        }
        target_dates = {line["date"] for o in new_orders(task) for line in o["products"]}
        for table in VARIANT:
            for pid, provider in task.environment.get(table, {}).items():
                for p in provider["products"]:
                    if (pid, p["product_id"]) in targets:
                        continue
                    if p["quantity"] == 0:
                        seen.add("sold out")
                    if target_dates and p["date"] not in target_dates:
                        seen.add("wrong date")
        rule = HOTEL_RULES.get(base_id(task))
        if rule is not None:
            city, min_score, max_price, _, _ = rule
            for hotel in task.environment["hotels"].values():
                if not in_city(city, hotel["location"]["address"]):
                    seen.add("wrong city")
                elif hotel["score"] < min_score:
                    seen.add("low score")
                elif min(p["price"] for p in hotel["products"]) > max_price:
                    seen.add("too expensive")
    assert seen == {"sold out", "wrong date", "wrong city", "low score", "too expensive"}


def test_scenarios_cover_the_required_situations() -> None:
    by_id = {base_id(t): t for t in load_bundled_tasks("ota", "en")}

    def kinds(task_id: str) -> list[tuple[str, str, str]]:
        return [(r.order_type, r.change, r.status) for r in ota_required_orders(by_id[task_id])]

    assert kinds("LBO001") == [("hotel", "new", "paid")]
    assert kinds("LBO002") == [("attraction", "new", "paid")]
    assert (
        by_id["LBO002"]
        .evaluation_criteria.expected_states[0]
        .required_orders[0]["products"][0]["quantity"]
        == 3
    )  # type: ignore[union-attr]
    assert kinds("LBO003") == [("flight", "new", "paid"), ("train", "new", "paid")]
    assert kinds("LBO004") == [("train", "modified", "paid"), ("train", "unchanged", "paid")]
    assert kinds("LBO005") == [("flight", "modified", "paid")]
    assert kinds("LBO006") == [("hotel", "unchanged", "cancelled"), ("hotel", "unchanged", "paid")]
    assert kinds("LBO007") == [("hotel", "new", "unpaid")]
    assert kinds("LBO008") == [("train", "new", "paid"), ("hotel", "new", "paid")]
    # date changes: a pricier date (pay the difference) and a cheaper one (refund)
    for task_id, sign in (("LBO004", 1), ("LBO005", -1)):
        task = by_id[task_id]
        (moved,) = [r for r in ota_required_orders(task) if r.change == "modified"]
        before = task.environment["orders"][moved.order_id]["total_price"]
        assert (moved.record["total_price"] - before) * sign > 0
    # relative dates in the instructions resolve as intended
    assert (
        date.fromisoformat(by_id["LBO002"].environment["time"][:10]).strftime("%A") == "Wednesday"
    )
    assert date(2025, 10, 18).strftime("%A") == "Saturday"
    assert _calendar.find_festival("Mid-Autumn Festival").on(2025).isoformat() == "2025-10-06"  # type: ignore[union-attr]
    assert _calendar.find_festival("National Day").on(2025).isoformat() == "2025-10-01"  # type: ignore[union-attr]
    # the "hotel stayed at last time" of LBO007 is the sold-out one
    history = by_id["LBO007"].environment["user_historical_behaviors"]["hotel stays"]
    last = history["recent bookings"][0]["hotel"]
    (h1,) = [h for h in by_id["LBO007"].environment["hotels"].values() if h["hotel_name"] == last]
    assert all(p["quantity"] == 0 for p in h1["products"] if p["date"] == "2025-10-01")
