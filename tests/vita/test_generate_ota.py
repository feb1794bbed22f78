"""Generated OTA tasks: loadable, lint-clean, certified, decidable, parallel in en/zh."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from datetime import date, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from lifebench._util.text import Language
from lifebench.errors import InputError
from lifebench.vita.domains._calendar import FESTIVALS
from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.generate import (
    Draft,
    GenerateOptions,
    TaskSpec,
    certify,
    dumps_tasks,
    generate_tasks,
    write_tasks,
)
from lifebench.vita.generate.ota import GOAL_KINDS, OTAGenerator
from lifebench.vita.generate.ota.context import SelectionGoal
from lifebench.vita.generate.ota.dates import When, styles_for, trip_day
from lifebench.vita.generate.ota.generator import TaskBuilder
from lifebench.vita.generate.ota.goal_attraction import AttractionGoal
from lifebench.vita.generate.ota.goal_existing import CancelBooking, ChangeDate
from lifebench.vita.generate.ota.goal_hotel import HotelGoal, UsualHotelGoal
from lifebench.vita.generate.ota.goal_transport import TransportGoal
from lifebench.vita.generate.pools import Bi, places, travel
from lifebench.vita.generate.seeds import sub_seed, task_id
from lifebench.vita.generate.world import WEEKDAYS
from lifebench.vita.lint import lint_tasks
from lifebench.vita.loader import load_tasks, parse_tasks

SEED = 7
N = 15
CJK = re.compile(r"[\u4e00-\u9fff]")
ZH_PROFILE = ["用户id", "职业", "性别", "年龄段", "常住地", "家庭住址", "工作地址"]
ZH_PROFILE += ["饮食禁忌", "家庭情况", "性格"]
EN_PROFILE = ["user id", "occupation", "gender", "age group", "residence", "home address"]
EN_PROFILE += ["work address", "dietary restrictions", "family status", "personality"]
TABLES = ("hotels", "attractions", "flights", "trains")


def _options(language: Language = "en", n: int = N, **knobs: Any) -> GenerateOptions:
    return GenerateOptions(domain="ota", n=n, seed=SEED, language=language, **knobs)


@pytest.fixture(scope="module")
def generated() -> dict[str, list[dict[str, Any]]]:
    return {lang: generate_tasks(_options(lang)).tasks for lang in ("en", "zh")}


def _builder(index: int, language: Language = "en", **knobs: Any) -> tuple[TaskBuilder, Draft]:
    seed = sub_seed("ota", SEED, index, 0)
    spec = TaskSpec(
        task_id("ota", SEED, index),
        index,
        0,
        seed,
        language,
        knobs.get("subgoals"),
        knobs.get("providers"),
        knobs.get("products"),
    )
    builder = OTAGenerator().builder(spec, random.Random(seed))
    return builder, builder.run()


def _builders(count: int) -> list[tuple[TaskBuilder, dict[str, Any]]]:
    """Builders whose draft passed its self-check (a failed one is retried by the pipeline)."""
    pairs = [_builder(i) for i in range(count)]
    return [(b, d.task) for b, d in pairs if not d.problems]


# ---- determinism, loading, certification ----------------------------------------------------


def test_same_seed_gives_byte_identical_files(tmp_path: Path) -> None:
    first = dumps_tasks(generate_tasks(_options(n=6, certify=False)).tasks)
    second = dumps_tasks(generate_tasks(_options(n=6, certify=False)).tasks)
    assert first == second
    other = dumps_tasks(generate_tasks(GenerateOptions("ota", 6, seed=8, certify=False)).tasks)
    assert other != first
    # task i does not depend on n
    longer = generate_tasks(_options(n=8, certify=False)).tasks
    assert dumps_tasks(longer[:6]) == first


@pytest.mark.parametrize("language", ["en", "zh"])
def test_tasks_load_lint_clean_and_pass_certification(
    tmp_path: Path, generated: dict[str, list[dict[str, Any]]], language: Language
) -> None:
    path = tmp_path / "tasks.json"
    write_tasks(generated[language], path)
    tasks = load_tasks(path)
    assert len(tasks) == N
    assert lint_tasks(tasks) == []
    for task in tasks:
        certificate = asyncio.run(certify(task, "ota", language))
        assert (certificate.oracle, certificate.noop, certificate.distractor) == (1.0, 0.0, 0.0)


def test_task_shape_follows_the_official_format(
    generated: dict[str, list[dict[str, Any]]],
) -> None:
    for language, keys in (("en", EN_PROFILE), ("zh", ZH_PROFILE)):
        for task in generated[language]:
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
                *TABLES,
            ]
            profile = task["user_scenario"]["user_profile"]
            assert list(profile) == keys and profile[keys[0]] == env["user_id"]
            assert list(env["user_historical_behaviors"])[:7] == keys[:7]
            criteria = task["evaluation_criteria"]
            rubrics = [r for s in criteria["expected_states"] for r in s["state_rubrics"]]
            assert rubrics == criteria["overall_rubrics"] and len(set(rubrics)) == len(rubrics)
            for table in TABLES:
                id_field = f"{table[:-1]}_id"
                for pid, provider in env[table].items():
                    assert provider[id_field] == pid
                    for product in provider["products"]:
                        assert product["product_id"].startswith(pid)
                        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", product["date"])
            for state in criteria["expected_states"]:
                for order in state["required_orders"]:
                    assert order["order_type"] in ("hotel", "attraction", "flight", "train")
                    assert order["status"] in ("paid", "unpaid", "cancelled")


def test_text_is_in_the_task_language(generated: dict[str, list[dict[str, Any]]]) -> None:
    for task in generated["en"]:
        assert task["instructions"].startswith("It's ")
        assert not CJK.search(json.dumps(task, ensure_ascii=False))
    for task in generated["zh"]:
        assert task["instructions"].startswith("今天是")
        assert len(CJK.findall(task["instructions"])) > 40
        assert all(CJK.search(r) for r in task["evaluation_criteria"]["overall_rubrics"])
        history = task["environment"]["user_historical_behaviors"]
        assert {"酒店住宿", "交通出行"} <= set(history)
        for table in TABLES:
            for provider in task["environment"][table].values():
                variant = next(k for k in provider["products"][0] if k.endswith("_type"))
                assert all(CJK.search(p[variant]) for p in provider["products"])


def test_english_and_chinese_describe_the_same_world(
    generated: dict[str, list[dict[str, Any]]],
) -> None:
    def skeleton(task: dict[str, Any]) -> list[Any]:
        env = task["environment"]
        out: list[Any] = [env["time"], env["user_id"], sorted(env["orders"])]
        for table in TABLES:
            for pid, provider in env[table].items():
                out.append(pid)
                out += [(p["product_id"], p["price"], p["quantity"]) for p in provider["products"]]
                out.append(provider.get("score"))
        for state in task["evaluation_criteria"]["expected_states"]:
            for order in state["required_orders"]:
                lines = [(p["product_id"], p["date"], p["quantity"]) for p in order["products"]]
                out.append((order["order_id"], order["store_id"], order["status"], lines))
        return out

    for en, zh in zip(generated["en"], generated["zh"], strict=True):
        assert skeleton(en) == skeleton(zh)


# ---- decidability ---------------------------------------------------------------------------


def _fits(goal: SelectionGoal, task: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(provider, product) records of the rendered task meeting every constraint of ``goal``,
    read from the JSON alone (names, tags, scores, times, prices, stock, dates)."""
    env = task["environment"]
    out = []
    if isinstance(goal, HotelGoal):
        bed = travel.BEDS[goal.bed][0].en if goal.bed else None
        for hotel in env["hotels"].values():
            ok = (
                goal.city.name.en in hotel["location"]["address"]
                and (goal.min_score is None or hotel["score"] >= goal.min_score)
                and (goal.min_stars is None or hotel["star_rating"] >= goal.min_stars)
                and (goal.tag is None or goal.tag.en in hotel["tags"])
            )
            for room in hotel["products"]:
                if (
                    ok
                    and room["date"] == goal.day.isoformat()
                    and room["quantity"] >= 1
                    and (bed is None or room["room_type"].endswith(bed))
                    and (goal.cap is None or room["price"] <= goal.cap)
                ):
                    out.append((hotel, room))
    elif isinstance(goal, AttractionGoal):
        for place in env["attractions"].values():
            ok = (
                goal.city.name.en in place["location"]["address"]
                and goal.category.word.en in place["attraction_name"]
                and (goal.min_score is None or place["score"] >= goal.min_score)
            )
            for ticket in place["products"]:
                if (
                    ok
                    and ticket["date"] == goal.day.isoformat()
                    and ticket["ticket_type"] == goal.ticket.name.en
                    and ticket["quantity"] >= goal.quantity
                    and (goal.cap is None or ticket["price"] <= goal.cap)
                ):
                    out.append((place, ticket))
    elif isinstance(goal, TransportGoal):
        for service in env[f"{goal.mode}s"].values():
            hh, mm = service["departure_time"].split(":")
            depart = int(hh) * 60 + int(mm)
            ok = (
                service["departure_city"] == goal.origin.name.en
                and service["arrival_city"] == goal.dest.name.en
                and (
                    goal.before is None
                    or (depart < goal.limit if goal.before else depart > goal.limit)
                )
            )
            for seat in service["products"]:
                if (
                    ok
                    and seat["date"] == goal.day.isoformat()
                    and seat["seat_type"] == goal.seat.name.en
                    and seat["quantity"] >= goal.quantity
                    and (goal.cap is None or seat["price"] <= goal.cap)
                ):
                    out.append((service, seat))
    return out


def _tie_key(rule: str, fit: tuple[dict[str, Any], dict[str, Any]]) -> float:
    provider, product = fit
    if rule == "price":
        return float(product["price"])
    if rule == "rating":
        return -float(provider["score"])
    hh, mm = provider["departure_time"].split(":")
    return float(int(hh) * 60 + int(mm))


def test_selection_targets_are_decidable_from_the_data() -> None:
    """A solver reading only the rendered task finds 1–2 options; the tie-break rule picks the
    expected order's product."""
    checked: Counter[str] = Counter()
    for builder, task in _builders(3 * N):
        states = task["evaluation_criteria"]["expected_states"]
        for goal in builder.goals:
            if not isinstance(goal, SelectionGoal):
                continue
            fits = _fits(goal, task)
            assert 1 <= len(fits) <= 2, (task["id"], goal.kind, len(fits))
            if len(fits) == 2:
                assert goal.tie != "none"
                keys = [_tie_key(goal.tie, f) for f in fits]
                assert keys[0] != keys[1]
                fits = [f for _, f in sorted(zip(keys, fits, strict=True), key=lambda kf: kf[0])]
            (expected,) = states[goal.index]["required_orders"]
            assert expected["products"][0]["product_id"] == fits[0][1]["product_id"]
            assert expected["products"][0]["quantity"] == goal.quantity
            checked[goal.kind] += 1
    assert set(checked) == {"hotel", "attraction", "flight", "train"}


def test_every_distractor_breaks_exactly_one_constraint() -> None:
    roles: Counter[str] = Counter()
    for builder, _ in _builders(3 * N):
        for goal in builder.goals:
            assert goal.check(builder.ctx, builder.providers) == []
            if isinstance(goal, SelectionGoal):
                for provider in builder.providers:
                    if provider.owner == goal.index and provider.role != "target":
                        roles[f"{goal.kind}:{provider.role}"] += 1
    for role in ("city", "score", "price", "sold_out", "date"):
        assert roles[f"hotel:{role}"] > 0, role
    assert roles["attraction:category"] > 0 and roles["train:seat"] > 0
    assert roles["flight:route"] + roles["train:route"] > 0
    assert roles["flight:window"] + roles["train:window"] > 0


def test_self_check_catches_a_distractor_that_fits() -> None:
    for builder, _ in _builders(N):
        for goal in builder.goals:
            if not isinstance(goal, HotelGoal):
                continue
            for provider in builder.providers:
                if provider.owner == goal.index and provider.role == "sold_out":
                    for product in provider.products:
                        product.quantity = 5
                    problems = goal.check(builder.ctx, builder.providers)
                    assert any("meeting every constraint" in p for p in problems)
                    return
    pytest.fail("no hotel sub-goal with a sold-out distractor")


def test_stock_makes_sold_out_real() -> None:
    """A sold-out distractor has the fitting room / seats on the day, but not enough of them."""
    seen = 0
    for builder, _ in _builders(2 * N):
        for goal in builder.goals:
            if not isinstance(goal, SelectionGoal):
                continue
            for provider in builder.providers:
                if provider.owner == goal.index and provider.role == "sold_out":
                    singles = [
                        p for p in provider.products if goal.violations(provider, p) == ["sold_out"]
                    ]
                    assert singles and all(p.quantity < goal.quantity for p in singles)
                    seen += 1
    assert seen >= 5


# ---- sub-goal kinds -------------------------------------------------------------------------


def test_every_sub_goal_kind_occurs() -> None:
    kinds: Counter[str] = Counter()
    variants: Counter[str] = Counter()
    for builder, _ in _builders(4 * N):
        for goal in builder.goals:
            kinds[goal.kind] += 1
            if isinstance(goal, ChangeDate):
                variants[f"change:{goal.mode}"] += 1
                variants["change:up" if goal.new_price > goal.old_price else "change:down"] += 1
            if isinstance(goal, CancelBooking):
                variants[f"cancel:{goal.table}"] += 1
                variants["cancel:rebook" if goal.rebooked else "cancel:plain"] += 1
            if isinstance(goal, UsualHotelGoal):
                variants["usual:fallback" if goal.fallback else "usual:plain"] += 1
            when: When | None = getattr(goal, "when", None) or getattr(goal, "target", None)
            if when is not None:
                variants[f"date:{when.style}"] += 1
    assert set(kinds) == set(GOAL_KINDS)
    for variant in ("change:flight", "change:train", "change:up", "change:down"):
        assert variants[variant] > 0, variant
    for variant in ("cancel:hotel", "cancel:attraction", "cancel:rebook", "usual:fallback"):
        assert variants[variant] > 0, variant
    for style in ("absolute", "this_week", "next_week", "holiday"):
        assert variants[f"date:{style}"] > 0, style


def test_usual_hotel_is_unambiguous() -> None:
    seen = 0
    for builder, task in _builders(6 * N):
        history = task["environment"]["user_historical_behaviors"]["hotel stays"]
        stays = [entry["hotel"] for entry in history["recent bookings"]]
        hotels = task["environment"]["hotels"].values()
        for goal in builder.goals:
            if not isinstance(goal, UsualHotelGoal):
                continue
            seen += 1
            in_city = [h for h in hotels if goal.city.name.en in h["location"]["address"]]
            named = [h for h in in_city if h["hotel_name"] in stays]
            assert [h["hotel_name"] for h in named] == [goal.hotel.name.en]
            assert goal.lookalike.name.en in [h["hotel_name"] for h in in_city]
        if not any(isinstance(g, UsualHotelGoal) for g in builder.goals):
            assert not {h["hotel_name"] for h in hotels} & set(stays)
    assert seen >= 3


def test_relative_dates_mean_what_they_say() -> None:
    today = date(2025, 9, 24)  # a Wednesday
    assert "this_week" in styles_for(today, date(2025, 9, 27))
    assert "this_week" not in styles_for(today, date(2025, 9, 29))
    assert "next_week" in styles_for(today, date(2025, 10, 4))
    assert "holiday" in styles_for(today, date(2025, 10, 1))
    assert "holiday" not in styles_for(date(2025, 12, 28), date(2026, 1, 1))
    for builder, _ in _builders(4 * N):
        today = builder.ctx.today
        for goal in builder.goals:
            when: When | None = getattr(goal, "when", None) or getattr(goal, "target", None)
            if when is None:
                continue
            day, delta = when.day, (when.day - today).days
            assert delta >= 1
            weekday = WEEKDAYS[day.weekday()]
            monday = today - timedelta(days=today.weekday())
            if when.style == "this_week":
                assert when.noun.en == f"this {weekday.en}" and day < monday + timedelta(days=7)
            elif when.style == "next_week":
                assert monday + timedelta(days=7) <= day < monday + timedelta(days=14)
                assert when.noun.zh == f"下{weekday.zh}"
            elif when.style == "holiday":
                assert any(f.en in when.noun.en and f.on(day.year) == day for f in FESTIVALS)
            elif when.style == "tomorrow":
                assert delta == 1
            elif when.style == "day_after":
                assert delta == 2
    rng = random.Random(3)
    for _ in range(200):
        when = trip_day(rng, date(2025, 5, 20))
        assert 1 <= (when.day - date(2025, 5, 20)).days <= 40


def test_change_date_and_cancel_records_are_consistent() -> None:
    for builder, task in _builders(4 * N):
        orders = task["environment"]["orders"]
        for goal in builder.goals:
            state = task["evaluation_criteria"]["expected_states"][goal.index]
            required = {o["order_id"]: o for o in state["required_orders"]}
            if isinstance(goal, ChangeDate):
                before, after = orders[goal.order_id], required[goal.order_id]
                assert before["status"] == after["status"] == "paid"
                assert before["store_id"] == after["store_id"]
                assert before["products"][0]["date"] == goal.old_day.isoformat()
                assert after["products"][0]["date"] == goal.new_day.isoformat()
                assert before["products"][0]["quantity"] == after["products"][0]["quantity"]
            if isinstance(goal, CancelBooking):
                statuses = sorted(required[b.order_id]["status"] for b in goal.bookings)
                assert statuses == ["cancelled", "paid"]
                assert all(orders[b.order_id]["status"] == "paid" for b in goal.bookings)


# ---- knobs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("knobs", "providers", "products", "subgoals"),
    [
        ({"providers": 12}, 12, 6, None),
        ({"products": 9}, None, 9, None),
        ({"subgoals": 4}, None, 6, 4),
        ({"subgoals": 2, "providers": 4, "products": 3}, 4, 3, 2),
    ],
)
def test_knobs_set_the_search_space(
    knobs: dict[str, int], providers: int | None, products: int, subgoals: int | None
) -> None:
    options = GenerateOptions(
        domain="ota",
        n=4,
        seed=5,
        subgoals=knobs.get("subgoals"),
        providers=knobs.get("providers"),
        products=knobs.get("products"),
    )
    result = generate_tasks(options)
    assert result.certified == 4
    for task in result.tasks:
        env = task["environment"]
        all_providers = [p for table in TABLES for p in env[table].values()]
        if providers is not None:
            assert len(all_providers) == providers
        assert {len(p["products"]) for p in all_providers} == {products}
        if subgoals is not None:
            assert len(task["evaluation_criteria"]["expected_states"]) == subgoals


@pytest.mark.parametrize(
    ("knobs", "field"),
    [
        ({"subgoals": 8}, "--subgoals"),
        ({"products": 2}, "--products"),
        ({"products": 13}, "--products"),
        ({"subgoals": 3, "providers": 5}, "--providers"),
        ({"providers": 21}, "--providers"),
    ],
)
def test_impossible_knobs_are_refused(knobs: dict[str, int], field: str) -> None:
    with pytest.raises(InputError) as caught:
        OTAGenerator().check_options(
            GenerateOptions(
                domain="ota",
                n=1,
                subgoals=knobs.get("subgoals"),
                providers=knobs.get("providers"),
                products=knobs.get("products"),
            )
        )
    assert caught.value.field == field


# ---- pools and bundled files ----------------------------------------------------------------


def _all_bi(value: Any) -> list[Bi]:
    if isinstance(value, Bi):
        return [value]
    if isinstance(value, tuple | list):
        return [b for v in value for b in _all_bi(v)]
    if hasattr(value, "__dataclass_fields__"):
        return [b for name in value.__dataclass_fields__ for b in _all_bi(getattr(value, name))]
    return []


def test_travel_pools_are_parallel_and_unambiguous() -> None:
    pools = [
        travel.HOTEL_PREFIXES,
        travel.HOTEL_STYLES,
        travel.BRANCHES,
        travel.HOTEL_FEATURES,
        travel.ROOM_TYPES,
        travel.ATTRACTION_KINDS,
        travel.ATTRACTION_PREFIXES,
        travel.TICKET_TYPES,
        travel.AIRLINES,
        travel.FLIGHT_SEATS,
        travel.TRAIN_SEATS,
        travel.TRIP_PURPOSES,
        tuple(travel.HUBS.values()),
    ]
    for pool in pools:
        assert isinstance(pool, tuple) and pool
        for text in _all_bi(pool):
            assert text.en.strip() and text.zh.strip()
            assert not CJK.search(text.en)
    assert {c.name.en for c in places.CITIES} == set(travel.HUBS)
    kinds = travel.ATTRACTION_KINDS
    for kind in kinds:
        for other in kinds:
            for template in other.names:
                name = template.format(p=Bi("X", "X"))
                assert (kind.word.en in name.en) == (kind is other), (kind.key, name)
                assert (kind.word.zh in name.zh) == (kind is other), (kind.key, name)
    tags = {t.en for t in travel.HOTEL_FEATURES}
    assert {t.en for t, _ in travel.REQUESTABLE_FEATURES} <= tags
    assert len({v.code for v in travel.ROOM_TYPES}) == len(travel.ROOM_TYPES)


def test_bundled_files_are_the_seed_0_output_and_small() -> None:
    """Provenance, not correctness: the shipped file claims to be the generator's seed-0 output
    (``--task-set generated``), so it must be regenerable from the code; a generator change that
    alters it fails here until the file is regenerated. Correctness of the bundled tasks is
    checked by properties: lint-clean here, and certified (oracle 1.0, noop 0.0 on every task)
    in tests/e2e/test_e2e_bundled_sets.py."""
    folder = resources.files("lifebench.vita.data").joinpath("generated")
    for language in ("en", "zh"):
        text = folder.joinpath(f"ota_{language}.json").read_text(encoding="utf-8")
        assert len(text.encode("utf-8")) < 4_200_000
        tasks = json.loads(text)
        assert len(tasks) == 100
        assert [t["id"] for t in tasks] == [task_id("ota", 0, i) for i in range(100)]
        assert lint_tasks(parse_tasks(text, f"ota_{language}.json")) == []
        head = generate_tasks(GenerateOptions(domain="ota", n=3, language=language)).tasks
        assert dumps_tasks(tasks[:3]) == dumps_tasks(head)


def _call(env: OTAEnvironment, name: str, **args: Any) -> Any:
    outcome = asyncio.run(env.tools.run(name, args))
    assert not outcome.error, (name, args, outcome.content)
    return outcome.value


@pytest.mark.parametrize("language", ["en", "zh"])
def test_targets_are_reachable_with_the_search_tools(language: Language) -> None:
    """What an agent would call finds each target: the city's hotels, the kind's attractions,
    the route's flights, the day's trains; festivals resolve with get_holiday_date."""
    seen: Counter[str] = Counter()
    for index in range(2 * N):
        builder, draft = _builder(index, language)
        if draft.problems:
            continue
        (task,) = parse_tasks(dumps_tasks([draft.task]), "test")
        env = OTAEnvironment(task, language=language)
        for goal in builder.goals:
            target = None
            if isinstance(goal, HotelGoal | UsualHotelGoal):
                city = goal.city.name.get(language)
                found = _call(env, "hotel_search_recommand", city_name=city)
                target = goal.winner[0] if isinstance(goal, HotelGoal) else goal.hotel
                ids = [h["hotel_id"] for h in found]
            elif isinstance(goal, AttractionGoal):
                found = _call(
                    env,
                    "attractions_search_recommend",
                    city_name=goal.city.name.get(language),
                    key_words=[goal.category.word.get(language)],
                )
                target, ids = goal.winner[0], [a["attraction_id"] for a in found]
            elif isinstance(goal, TransportGoal) and goal.mode == "flight":
                found = _call(
                    env,
                    "flight_search_recommend",
                    departure=goal.origin.name.get(language),
                    destination=goal.dest.name.get(language),
                )
                target, ids = goal.winner[0], [f["flight_id"] for f in found]
            elif isinstance(goal, TransportGoal):
                found = _call(
                    env,
                    "train_ticket_search",
                    departure=goal.origin.name.get(language),
                    destination=goal.dest.name.get(language),
                    date=goal.day.isoformat(),
                )
                target, ids = goal.winner[0], [t["train_id"] for t in found]
            if target is not None:
                assert target.provider_id in ids, (task.id, goal.kind)
                seen[goal.kind] += 1
            when: When | None = getattr(goal, "when", None) or getattr(goal, "target", None)
            if when is not None and when.style == "holiday":
                fest = next(f for f in FESTIVALS if f.on(when.day.year) == when.day)
                got = _call(
                    env,
                    "get_holiday_date",
                    year=str(when.day.year),
                    holiday_name=fest.name(language),
                )
                assert got["date"] == when.day.isoformat()
                seen["holiday"] += 1
    assert {"hotel", "attraction", "flight", "train"} <= set(seen)
