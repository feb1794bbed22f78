"""Generated delivery tasks: loadable, lint-clean, certified, decidable, parallel in en/zh."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from lifebench._util.text import Language
from lifebench.vita.domains._geo import delivery_minutes, haversine_m
from lifebench.vita.generate import GenerateOptions, TaskSpec, certify, generate_tasks, write_tasks
from lifebench.vita.generate.delivery import GOAL_KINDS, DeliveryGenerator
from lifebench.vita.generate.delivery.generator import TaskBuilder
from lifebench.vita.generate.delivery.goal_repeat import SameAsLast
from lifebench.vita.generate.delivery.goal_select import SelectionGoal
from lifebench.vita.generate.pools import Bi, food, people, places
from lifebench.vita.generate.seeds import sub_seed, task_id
from lifebench.vita.lint import lint_tasks
from lifebench.vita.loader import load_tasks
from lifebench.vita.timefmt import parse_time

SEED = 11
N = 20
CJK = re.compile(r"[\u4e00-\u9fff]")
ZH_PROFILE = [
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
]
EN_PROFILE = [
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
]


def _options(language: Language = "en", **kwargs: Any) -> GenerateOptions:
    return GenerateOptions(domain="delivery", n=N, seed=SEED, language=language, **kwargs)


@pytest.fixture(scope="module", params=["en", "zh"])
def generated(request: pytest.FixtureRequest) -> tuple[Language, list[dict[str, Any]]]:
    language: Language = request.param
    return language, generate_tasks(_options(language)).tasks


def _builder(index: int, language: Language, **knobs: Any) -> tuple[TaskBuilder, dict[str, Any]]:
    seed = sub_seed("delivery", SEED, index, 0)
    spec = TaskSpec(
        task_id("delivery", SEED, index),
        index,
        0,
        seed,
        language,
        knobs.get("subgoals"),
        knobs.get("providers"),
        knobs.get("products"),
    )
    builder = DeliveryGenerator().builder(spec, random.Random(seed))
    return builder, builder.run().task


def test_tasks_load_lint_clean_and_pass_certification(
    tmp_path: Path, generated: tuple[Language, list[dict[str, Any]]]
) -> None:
    language, raw = generated
    path = tmp_path / "tasks.json"
    write_tasks(raw, path)
    tasks = load_tasks(path)
    assert len(tasks) == N
    assert lint_tasks(tasks) == []
    for task in tasks:
        certificate = asyncio.run(certify(task, "delivery", language))
        assert (certificate.oracle, certificate.noop, certificate.distractor) == (1.0, 0.0, 0.0)


def test_task_shape_follows_the_official_format(
    generated: tuple[Language, list[dict[str, Any]]],
) -> None:
    language, tasks = generated
    keys = ZH_PROFILE if language == "zh" else EN_PROFILE
    for task in tasks:
        assert list(task) == [
            "id",
            "domain",
            "environment",
            "user_scenario",
            "instructions",
            "evaluation_criteria",
            "message_history",
        ]
        env = task["environment"]
        assert list(env) == [
            "time",
            "user_id",
            "orders",
            "weather",
            "location",
            "user_historical_behaviors",
            "stores",
        ]
        profile = task["user_scenario"]["user_profile"]
        assert list(profile) == keys
        assert profile[keys[0]] == env["user_id"]
        history = env["user_historical_behaviors"]
        assert list(history)[:7] == keys[:7] and len(history) == 12
        assert [loc["address"] for loc in env["location"][:2]] == [
            profile[keys[5]],
            profile[keys[6]],
        ]
        criteria = task["evaluation_criteria"]
        states = criteria["expected_states"]
        rubrics = [r for s in states for r in s["state_rubrics"]]
        assert rubrics == criteria["overall_rubrics"] and len(set(rubrics)) == len(rubrics)
        now = parse_time(env["time"])
        assert now is not None
        for state in states:
            for order in state["required_orders"]:
                assert order["status"] in ("paid", "unpaid", "cancelled")
                dispatch = parse_time(order["dispatch_time"])
                if order["order_id"] not in env["orders"] and dispatch is not None:
                    assert dispatch >= now
        for store_id, store in env["stores"].items():
            assert store["store_id"] == store_id
            for product in store["products"]:
                assert product["store_id"] == store_id and product["store_name"] == store["name"]


def test_text_is_in_the_task_language(generated: tuple[Language, list[dict[str, Any]]]) -> None:
    language, tasks = generated
    for task in tasks:
        instruction = task["instructions"]
        assert instruction.startswith("今天是" if language == "zh" else "It's ")
        if language == "zh":
            assert len(CJK.findall(instruction)) > 30
            assert all(CJK.search(r) for r in task["evaluation_criteria"]["overall_rubrics"])
        else:
            assert not CJK.search(json.dumps(task, ensure_ascii=False))


def test_english_and_chinese_describe_the_same_world() -> None:
    en = generate_tasks(_options("en")).tasks
    zh = generate_tasks(_options("zh")).tasks
    for a, b in zip(en, zh, strict=True):
        ea, eb = a["environment"], b["environment"]
        assert ea["time"] == eb["time"] and ea["user_id"] == eb["user_id"]
        assert list(ea["stores"]) == list(eb["stores"])
        for sid, store in ea["stores"].items():
            other = eb["stores"][sid]
            assert store["score"] == other["score"]
            assert store["location"]["latitude"] == other["location"]["latitude"]
            assert [p["price"] for p in store["products"]] == [
                p["price"] for p in other["products"]
            ]
        assert _ordered_ids(a) == _ordered_ids(b)


def _ordered_ids(task: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(order id, store id, product id) of every expected product line."""
    return [
        (order["order_id"], order["store_id"], product["product_id"])
        for state in task["evaluation_criteria"]["expected_states"]
        for order in state["required_orders"]
        for product in order["products"]
    ]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_selection_targets_are_decidable_from_the_data(language: Language) -> None:
    """A solver that reads only the rendered task (tags, coordinates, scores, prices) finds
    exactly the planned targets, and the tie-break picks the expected order."""
    flag_of = {tag.get(language): flag for flag, tag in food.FLAG_TAGS.items()}
    checked = 0
    for index in range(N):
        builder, task = _builder(index, language)
        env = task["environment"]
        now = parse_time(env["time"])
        assert now is not None
        states = task["evaluation_criteria"]["expected_states"]
        for goal in builder.goals:
            if not isinstance(goal, SelectionGoal):
                continue
            c, dest = goal.constraints, goal.place.place
            fits = []
            for store in env["stores"].values():
                loc = store["location"]
                metres = haversine_m(
                    dest.longitude, dest.latitude, loc["longitude"], loc["latitude"]
                )
                store_ok = (
                    store["tags"][0] == goal.category.name.get(language)
                    and (c.max_distance_m is None or metres <= c.max_distance_m)
                    and (
                        c.deadline is None
                        or now + timedelta(minutes=delivery_minutes(metres)) <= c.deadline
                    )
                    and (c.min_rating is None or store["score"] >= c.min_rating)
                )
                for product in store["products"]:
                    flags = {flag_of[t] for t in product["tags"] if t in flag_of}
                    if (
                        store_ok
                        and (c.max_price is None or product["price"] <= c.max_price)
                        and not flags & c.forbidden
                    ):
                        fits.append((store, product, metres))
            assert 1 <= len(fits) <= 2, (task["id"], goal.index, len(fits))
            if len(fits) == 2:
                assert goal.tie != "none"
                keys = [_tie_key(goal.tie, fit) for fit in fits]
                assert keys[0] != keys[1]
                fits = [
                    fit for _, fit in sorted(zip(keys, fits, strict=True), key=lambda kf: kf[0])
                ]
            (expected,) = states[goal.index]["required_orders"]
            assert expected["store_id"] == fits[0][0]["store_id"]
            assert expected["products"][0]["product_id"] == fits[0][1]["product_id"]
            assert expected["products"][0]["quantity"] == goal.quantity
            checked += 1
    assert checked >= N


def _tie_key(rule: str, fit: tuple[dict[str, Any], dict[str, Any], int]) -> float:
    """Smaller is better: price, minus the rating, or the distance."""
    store, product, metres = fit
    if rule == "price":
        return float(product["price"])
    return -float(store["score"]) if rule == "rating" else float(metres)


def test_every_distractor_breaks_exactly_one_constraint() -> None:
    roles: Counter[str] = Counter()
    for index in range(N):
        builder, _ = _builder(index, "en")
        for goal in builder.goals:
            assert goal.check(builder.ctx, builder.stores) == []
            if isinstance(goal, SelectionGoal):
                roles.update(s.role for s in builder.stores if s.owner == goal.index)
    assert {"target", "far", "low_rated", "wrong_category"} <= set(roles)


def test_self_check_catches_a_distractor_that_fits() -> None:
    for index in range(N):
        builder, _ = _builder(index, "en")
        for goal in builder.goals:
            if not isinstance(goal, SelectionGoal):
                continue
            far = [
                s
                for s in builder.stores
                if s.owner == goal.index and s.role in ("far", "low_rated")
            ]
            if not far:
                continue
            target_store = goal.targets[0][0]
            far[0].place = target_store.place
            far[0].score = target_store.score
            problems = goal.check(builder.ctx, builder.stores)
            assert any("meeting every constraint" in p for p in problems)
            return
    pytest.fail("no selection sub-goal with a far or low-rated distractor")


def test_same_as_last_time_is_unambiguous() -> None:
    seen = 0
    for index in range(3 * N):
        builder, task = _builder(index, "en")
        env = task["environment"]
        names = {s["name"] for s in env["stores"].values()}
        recent = [
            entry
            for key, section in env["user_historical_behaviors"].items()
            if isinstance(section, dict)
            for entry in section["recent orders"]
        ]
        for goal in builder.goals:
            if isinstance(goal, SameAsLast):
                seen += 1
                mine = [e for e in recent if e["store"] == goal.store.name.en]
                assert mine == [{"store": goal.store.name.en, "product": goal.dish.name.en}]
                assert (
                    goal.lookalike.name.en in names and goal.lookalike.name.en != goal.store.name.en
                )
                lookalike = next(
                    s for s in env["stores"].values() if s["name"] == goal.lookalike.name.en
                )
                assert goal.dish.name.en in [p["name"] for p in lookalike["products"]]
        pinned = {g.store.name.en for g in builder.goals if isinstance(g, SameAsLast)}
        assert all(e["store"] not in names for e in recent if e["store"] not in pinned)
    assert seen >= 5


def test_confusable_categories_never_share_a_task() -> None:
    """A Japanese shop's ramen could pass for "a noodle dish": kin categories (food.KIN) are
    never sub-goal categories together, wrong-category distractors, fillers, or other recent
    orders next to a "same as last time"."""
    category_of = {d.name.en: c.key for c in food.CATEGORIES for d in c.dishes}
    for index in range(2 * N):
        builder, task = _builder(index, "en")
        keys = [g.category.key for g in builder.goals]
        for i, a in enumerate(keys):
            assert not {*keys[:i], *keys[i + 1 :]} & {a, *food.KIN[a]}, keys
        for goal in builder.goals:
            if isinstance(goal, SelectionGoal):
                for store in builder.stores:
                    assert (
                        store.category == goal.category
                        or store.category.key not in food.KIN[goal.category.key]
                    )
            if isinstance(goal, SameAsLast):
                related = {goal.category.key, *food.KIN[goal.category.key]}
                for section in task["environment"]["user_historical_behaviors"].values():
                    if not isinstance(section, dict):
                        continue
                    for entry in section["recent orders"]:
                        if entry["store"] != goal.store.name.en:
                            base = entry["product"]
                            assert category_of[base] not in related, (task["id"], entry)


def test_every_sub_goal_kind_occurs() -> None:
    kinds: Counter[str] = Counter()
    for index in range(3 * N):
        kinds.update(g.kind for g in _builder(index, "en")[0].goals)
    assert set(kinds) == set(GOAL_KINDS)


@pytest.mark.parametrize(
    ("knobs", "stores", "products", "subgoals"),
    [
        ({"providers": 12}, 12, 5, None),
        ({"products": 8}, None, 8, None),
        ({"subgoals": 4}, None, 5, 4),
        ({"subgoals": 2, "providers": 4, "products": 3}, 4, 3, 2),
    ],
)
def test_knobs_set_the_search_space(
    knobs: dict[str, int], stores: int | None, products: int, subgoals: int | None
) -> None:
    options = GenerateOptions(
        domain="delivery",
        n=6,
        seed=5,
        subgoals=knobs.get("subgoals"),
        providers=knobs.get("providers"),
        products=knobs.get("products"),
    )
    result = generate_tasks(options)
    assert result.certified == 6
    for task in result.tasks:
        env = task["environment"]
        if stores is not None:
            assert len(env["stores"]) == stores
        assert {len(s["products"]) for s in env["stores"].values()} == {products}
        if subgoals is not None:
            assert len(task["evaluation_criteria"]["expected_states"]) == subgoals


def _all_bi(value: Any) -> list[Bi]:
    if isinstance(value, Bi):
        return [value]
    if isinstance(value, tuple | list):
        return [b for v in value for b in _all_bi(v)]
    if hasattr(value, "__dataclass_fields__"):
        return [b for name in value.__dataclass_fields__ for b in _all_bi(getattr(value, name))]
    return []


def test_pools_are_parallel_immutable_and_unique() -> None:
    pools = [
        places.CITIES,
        places.STREET_NAMES,
        places.COMPOUND_NAMES,
        places.OFFICE_NAMES,
        people.OCCUPATIONS,
        people.FAMILIES,
        people.EMOTIONAL_EXPRESSIONS,
        people.INTERACTION_PATTERNS,
        people.RESTRICTIONS,
        food.CATEGORIES,
        food.BRANDS,
        food.NOTES,
    ]
    for pool in pools:
        assert isinstance(pool, tuple) and pool
        for text in _all_bi(pool):
            assert text.en.strip() and text.zh.strip()
            assert not CJK.search(text.en)
    assert len(places.CITIES) >= 20
    for category in food.CATEGORIES:
        assert len({d.name.en for d in category.dishes}) == len(category.dishes)
        assert len({d.name.zh for d in category.dishes}) == len(category.dishes)
        for restriction in people.RESTRICTIONS:
            safe = [d for d in category.dishes if not d.flags & restriction.forbidden]
            assert len(safe) * len(food.VARIANTS) >= DeliveryGenerator.KNOBS.max_products
    flags = {f for c in food.CATEGORIES for d in c.dishes for f in d.flags}
    assert flags == set(food.FLAG_TAGS)
    assert {f for r in people.RESTRICTIONS for f in r.forbidden} <= flags
