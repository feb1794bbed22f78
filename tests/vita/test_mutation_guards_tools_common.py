"""The eight shared VitaBench tools (vita/domains/common.py) pinned by what the agent reads: the
exact refusal (text and kind) of every precondition, its near misses accepted, and the answers
that depend on the task's language (English and Chinese)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import AliasChoices, Field, ValidationError
from test_delivery_tools import make_task

from lifebench._util.text import Language
from lifebench.vita.domains.common import Record
from lifebench.vita.domains.delivery import DeliveryEnvironment

COORDINATES = "longitude must be within ±180 and latitude within ±90."

REFUSED: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "longitude_latitude_to_distance",
        {"longitude1": 200, "latitude1": 0, "longitude2": 0, "latitude2": 0},
        "precondition",
        f"Invalid coordinates (200.0, 0.0): {COORDINATES}",
    ),
    (
        "longitude_latitude_to_distance",
        {"longitude1": 0, "latitude1": 0, "longitude2": 0, "latitude2": -91},
        "precondition",
        f"Invalid coordinates (0.0, -91.0): {COORDINATES}",
    ),
    (
        "get_nearby",
        {"longitude": 0, "latitude": 95, "range": 5},
        "precondition",
        f"Invalid coordinates (0.0, 95.0): {COORDINATES}",
    ),
    (
        "get_nearby",
        {"longitude": 0, "latitude": 0, "range": -0.5},
        "precondition",
        "range must be a non-negative number of metres.",
    ),
    (
        "weather",
        {"address": "Kunming", "date_start": "21/06/2025", "date_end": "2025-06-22"},
        "precondition",
        "Dates must be in YYYY-MM-DD format.",
    ),
    (
        "weather",
        {"address": "Kunming", "date_start": "2025-06-21", "date_end": "22/06/2025"},
        "precondition",
        "Dates must be in YYYY-MM-DD format.",
    ),
    (
        "weather",
        {"address": "Kunming", "date_start": "2025-06-23", "date_end": "2025-06-22"},
        "precondition",
        "date_start 2025-06-23 is after date_end 2025-06-22.",
    ),
    (
        "weather",
        {"address": "Harbin", "date_start": "2025-06-21", "date_end": "2025-06-22"},
        "not_found",
        "Weather information not found for 'Harbin'.",
    ),
    (
        "weather",
        {"address": "Kunming", "date_start": "2025-07-01", "date_end": "2025-07-02"},
        "not_found",
        "No weather information for Kunming City between 2025-07-01 and 2025-07-02.",
    ),
    (
        "get_date_holiday_info",
        {"date": "2025/10/01"},
        "precondition",
        "The date must be in YYYY-MM-DD format.",
    ),
    (
        "get_holiday_date",
        {"year": "25", "holiday_name": "Christmas"},
        "precondition",
        "Invalid year '25': expected four digits, e.g. 2025.",
    ),
    (
        "get_holiday_date",
        {"year": "2027", "holiday_name": "Christmas"},
        "not_found",
        "Holiday data for year 2027 not found (available: 2023–2026).",
    ),
    (
        "get_holiday_date",
        {"year": "2022", "holiday_name": "Christmas"},
        "not_found",
        "Holiday data for year 2022 not found (available: 2023–2026).",
    ),
    (
        "get_holiday_date",
        {"year": "2023", "holiday_name": "Laba"},
        "not_found",
        "Laba Festival does not fall in calendar year 2023; in 2024 it falls on 2024-01-18.",
    ),
    (
        "address_to_longitude_latitude",
        {"address": "   "},
        "precondition",
        "The address must not be empty.",
    ),
    (
        "address_to_longitude_latitude",
        {"address": "Tianfu Square, Chengdu"},
        "not_found",
        "Address not found: 'Tianfu Square, Chengdu'. Only places the service knows resolve: an "
        "address as the user gives it, or that of a store, shop, hotel or earlier order. Of the "
        "user's historical behaviours, the home address resolves.",
    ),
]


@pytest.mark.parametrize(
    ("name", "arguments", "kind", "message"),
    REFUSED,
    ids=[f"{name}-{i}" for i, (name, *_) in enumerate(REFUSED)],
)
async def test_a_refused_call_says_exactly_why(
    name: str, arguments: dict[str, Any], kind: str, message: str
) -> None:
    env = DeliveryEnvironment(make_task())
    outcome = await env.tools.run(name, arguments)
    assert (outcome.error, outcome.error_kind, outcome.content) == (True, kind, message)


async def test_the_coordinate_limits_themselves_are_valid() -> None:
    env = DeliveryEnvironment(make_task())
    outcome = await env.tools.run(
        "longitude_latitude_to_distance",
        {"longitude1": 180, "latitude1": 90, "longitude2": -180, "latitude2": -90},
    )
    assert json.loads(outcome.content) == {"distance_m": 20015087}


async def test_nearby_within_the_range_inclusive_nearest_first() -> None:
    env = DeliveryEnvironment(make_task())
    centre = {"longitude": 102.70636, "latitude": 25.055897}
    at_zero = json.loads((await env.tools.run("get_nearby", {**centre, "range": 0})).content)
    assert [(p["store_id"], p["distance_m"]) for p in at_zero] == [("S_NOODLE", 0)]
    exactly = json.loads((await env.tools.run("get_nearby", {**centre, "range": 1805})).content)
    assert [(p["store_id"], p["distance_m"]) for p in exactly] == [("S_NOODLE", 0), ("S_TEA", 1805)]
    short = json.loads((await env.tools.run("get_nearby", {**centre, "range": 1804})).content)
    assert [p["store_id"] for p in short] == ["S_NOODLE"]
    assert short[0] == {
        "type": "store",
        "store_id": "S_NOODLE",
        "name": "Bridge Rice Noodles",
        "score": 5.0,
        "location": {
            "address": "No. 46 Yuanxi Road, Wuhua District, Kunming, Yunnan Province",
            "longitude": 102.70636,
            "latitude": 25.055897,
        },
        "tags": ["Quick service"],
        "distance_m": 0,
    }


DAY_21 = {
    "date": "2025-06-21",
    "category": "rainy",
    "temperature_min": 17.0,
    "temperature_max": 25.0,
    "humidity": 84.0,
}
DAY_22 = {
    "date": "2025-06-22",
    "category": "sunny",
    "temperature_min": 18.0,
    "temperature_max": 27.0,
    "humidity": 60.0,
}


@pytest.mark.parametrize(
    ("start", "end", "days"),
    [
        ("2025-06-22", "2025-06-22", [DAY_22]),
        ("2025-06-21", "2025-06-21", [DAY_21]),
        ("2025-06-20", "2025-06-23", [DAY_21, DAY_22]),
    ],
    ids=["last-day-alone", "first-day-alone", "both-days"],
)
async def test_weather_days_are_inclusive_and_in_date_order(
    start: str, end: str, days: list[dict[str, Any]]
) -> None:
    environment = make_task().environment
    environment["weather"].reverse()  # the data's order is not the answer's order
    env = DeliveryEnvironment(make_task(environment=environment))
    outcome = await env.tools.run(
        "weather", {"address": "Kunming", "date_start": start, "date_end": end}
    )
    assert json.loads(outcome.content) == {"city": "Kunming City", "days": days}


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("en", {"year": 2025, "holiday": "Mid-Autumn Festival", "date": "2025-10-06"}),
        ("zh", {"year": 2025, "holiday": "中秋节", "date": "2025-10-06"}),
    ],
)
async def test_a_holiday_is_named_in_the_tasks_language(
    language: Language, answer: dict[str, Any]
) -> None:
    env = DeliveryEnvironment(make_task(), language=language)
    for name in ("Mid-Autumn", "中秋节"):
        outcome = await env.tools.run("get_holiday_date", {"year": "2025", "holiday_name": name})
        assert json.loads(outcome.content) == answer


@pytest.mark.parametrize(
    ("language", "national", "ordinary"),
    [
        (
            "en",
            {"date": "2025-10-01", "weekday": "Wednesday", "is_holiday": True},
            {"date": "2025-10-09", "weekday": "Thursday", "is_holiday": False, "holidays": []},
        ),
        (
            "zh",
            {"date": "2025-10-01", "weekday": "星期三", "is_holiday": True},
            {"date": "2025-10-09", "weekday": "星期四", "is_holiday": False, "holidays": []},
        ),
    ],
)
async def test_holiday_info_of_a_day(
    language: Language, national: dict[str, Any], ordinary: dict[str, Any]
) -> None:
    env = DeliveryEnvironment(make_task(), language=language)
    day = json.loads((await env.tools.run("get_date_holiday_info", {"date": "2025-10-01"})).content)
    assert {k: v for k, v in day.items() if k != "holidays"} == national
    assert day["holidays"] == (["National Day"] if language == "en" else ["国庆节"])
    plain = json.loads(
        (await env.tools.run("get_date_holiday_info", {"date": "2025-10-09"})).content
    )
    assert plain == ordinary


async def test_an_unknown_festival_names_the_closest_and_every_known_one() -> None:
    for language, closest, first in (
        ("en", "Christmas Day, Laba Festival", "New Year's Day, Chinese New Year's Eve"),
        ("zh", "圣诞节, 腊八节", "元旦, 除夕"),
    ):
        env = DeliveryEnvironment(make_task(), language=language)  # type: ignore[arg-type]
        outcome = await env.tools.run(
            "get_holiday_date", {"year": "2025", "holiday_name": "Diwali Extravaganza"}
        )
        assert (outcome.error, outcome.error_kind) == (True, "not_found")
        head = "Holiday 'Diwali Extravaganza' not found: it matches none of the known festivals."
        assert outcome.content.startswith(f"{head} Closest names: {closest}")
        assert f". Known holidays: {first}, " in outcome.content
        assert outcome.content.endswith(".") and not outcome.content.endswith("..")


def _probe_class() -> type[Record]:
    """A Record defined at test time (its null-means-default keys are computed then)."""

    class Probe(Record):
        required: str
        plain: str = "plain default"
        factory: list[str] = Field(default_factory=lambda: ["made"])
        optional: str | None = None
        aliased: str = Field("alias default", validation_alias=AliasChoices("aliased", "other"))

    return Probe


def test_a_null_means_the_default_of_a_field_that_has_one() -> None:
    probe = _probe_class()
    assert probe._null_means_default == frozenset({"plain", "factory", "aliased", "other"})
    record = probe.model_validate(
        {"required": "r", "plain": None, "factory": None, "optional": None, "other": None}
    )
    assert record.model_dump() == {
        "required": "r",
        "plain": "plain default",
        "factory": ["made"],
        "optional": None,
        "aliased": "alias default",
    }
    with pytest.raises(ValidationError):
        probe.model_validate({"required": None})


async def test_places_at_the_same_distance_are_listed_in_data_order() -> None:
    environment = make_task().environment
    twin = {**environment["stores"]["S_TEA"], "name": "Nayuki Tea Twin"}
    environment["stores"] = {"S_TWIN": twin, **environment["stores"]}
    env = DeliveryEnvironment(make_task(environment=environment))
    outcome = await env.tools.run(
        "get_nearby", {"longitude": 102.71, "latitude": 25.04, "range": 10}
    )
    assert not outcome.error, outcome.content
    assert [p["store_id"] for p in json.loads(outcome.content)] == ["S_TWIN", "S_TEA"]


def with_more_cities() -> DeliveryEnvironment:
    environment = make_task().environment
    day = {"category": "sunny", "datetime": "2025-06-21", "humidity": 50}
    environment["weather"] += [
        {**day, "city": "Dali City", "temperature": []},
        {**day, "city": "Hangzhou City", "temperature": [20, 30]},
        {**day, "city": "Hanzhong City", "temperature": [20, 30]},
    ]
    return DeliveryEnvironment(make_task(environment=environment))


@pytest.mark.parametrize(
    ("address", "message"),
    [
        (
            "Kunming to Dali",
            "'Kunming to Dali' names several cities with weather data (Kunming City, Dali City); "
            "give the city name.",
        ),
        (
            "Hangzho",
            "Weather information not found for 'Hangzho'. Cities with weather data that look "
            "closest: Hangzhou City, Hanzhong City.",
        ),
    ],
    ids=["several-cities", "close-names"],
)
async def test_weather_for_no_single_city_says_which_exactly(address: str, message: str) -> None:
    outcome = await with_more_cities().tools.run(
        "weather", {"address": address, "date_start": "2025-06-21", "date_end": "2025-06-21"}
    )
    assert (outcome.error, outcome.error_kind, outcome.content) == (True, "not_found", message)


async def test_a_day_without_temperatures_has_none() -> None:
    outcome = await with_more_cities().tools.run(
        "weather", {"address": "Dali", "date_start": "2025-06-21", "date_end": "2025-06-21"}
    )
    day = json.loads(outcome.content)["days"][0]
    assert (day["temperature_min"], day["temperature_max"]) == (None, None)


async def test_a_festival_missing_from_a_year_is_named_in_the_tasks_language() -> None:
    env = DeliveryEnvironment(make_task(), language="zh")
    outcome = await env.tools.run("get_holiday_date", {"year": "2023", "holiday_name": "Laba"})
    assert (outcome.error, outcome.content) == (
        True,
        "腊八节 does not fall in calendar year 2023; in 2024 it falls on 2024-01-18.",
    )
