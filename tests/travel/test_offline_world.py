"""The offline world: deterministic, plausible, consistent with the call."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from lifebench.travel.sandbox.world import answer
from lifebench.travel.sandbox.world.common import is_open
from lifebench.travel.sandbox.world.geo import haversine_km, parse_pair
from lifebench.travel.tools import TOOL_NAMES

TIME = "2025-10-24 10:00"
CALLS = {
    "travel_search_flights": {
        "origin": "北京市",
        "destination": "广州市",
        "date": "2025-10-26",
        "days": 2,
    },
    "travel_search_trains": {"origin": "上海市", "destination": "杭州市", "date": "2025-10-25"},
    "weather_current_conditions": {"location": "哈尔滨市"},
    "weather_forecast_days": {"location": "三亚市", "date": "2025-10-25", "days": 3},
    "map_compute_routes": {
        "origin": "31.2304,121.4737",
        "destination": "30.2741,120.1551",
        "modes": ["driving", "walking", "transit"],
    },
    "map_search_places": {"query": "咖啡", "center": "30.25,120.16", "radius": 2000},
    "map_search_along_route": {
        "query": "加油站",
        "origin": "31.23,121.47",
        "destination": "30.27,120.16",
    },
    "map_search_central_places": {"query": "火锅", "origins": ["30.25,120.16", "30.30,120.10"]},
    "map_search_ranking_list": {
        "query": "美食",
        "region": "成都市",
        "max_lists": 2,
        "max_items": 4,
    },
    "web_search": {"query": "西湖游船开放时间"},
}


def test_every_tool_answers_deterministically_as_json() -> None:
    assert set(CALLS) == set(TOOL_NAMES)
    for tool, args in CALLS.items():
        for language in ("zh", "en"):
            first = answer(tool, args, TIME, language)
            assert answer(tool, dict(reversed(args.items())), TIME, language) == first, tool
            assert isinstance(json.loads(first), dict)


def test_places_lie_within_the_radius_and_report_true_distances() -> None:
    data = json.loads(answer("map_search_places", CALLS["map_search_places"], TIME, "zh"))
    centre = (30.25, 120.16)
    assert data["count"] >= 1
    for place in data["places"]:
        point = parse_pair(place["location"])
        assert point is not None
        km = haversine_km(centre, point)
        assert km <= 2.0 and abs(place["distance_m"] - km * 1000) < 2
        assert place["open_now"] == is_open(place["opening_hours"], datetime(2025, 10, 24, 10, 0))  # noqa: DTZ001
        assert "杭州" in place["address"]


def test_place_filters_and_sorting() -> None:
    args = {
        "query": "火锅",
        "center": "30.25,120.16",
        "sort_by": "price:a",
        "price_category": "average_cost",
        "price_max": 120,
        "limit": 4,
    }
    places = json.loads(answer("map_search_places", args, TIME, "zh"))["places"]
    costs = [p["average_cost"] for p in places]
    assert costs == sorted(costs) and all(c <= 120 for c in costs) and len(places) <= 4
    rated = json.loads(
        answer("map_search_places", {**args, "sort_by": "rating:d", "price_max": 999}, TIME, "zh")
    )["places"]
    ratings = [p["rating"] for p in rated]
    assert ratings == sorted(ratings, reverse=True)


def test_routes_follow_haversine_and_mode_speeds() -> None:
    routes = json.loads(answer("map_compute_routes", CALLS["map_compute_routes"], TIME, "en"))[
        "routes"
    ]
    straight = haversine_km((31.2304, 121.4737), (30.2741, 120.1551))
    by_mode = {r["mode"]: r for r in routes}
    assert set(by_mode) == {"driving", "walking", "public transit"}
    for r in routes:
        assert straight * 1.1 < r["distance_m"] / 1000 < straight * 1.5
    assert by_mode["walking"]["duration_min"] > by_mode["driving"]["duration_min"] * 5
    near = json.loads(
        answer(
            "map_compute_routes",
            {"origin": "31.2304,121.4737", "destination": "31.2404,121.4837"},
            TIME,
            "en",
        )
    )
    assert near["routes"][0]["distance_m"] < routes[0]["distance_m"] / 50


def test_schedules_between_real_cities() -> None:
    trains = json.loads(answer("travel_search_trains", CALLS["travel_search_trains"], TIME, "zh"))
    assert trains["count"] > 0
    assert all(
        t["from_station"].startswith("上海") and t["to_station"].startswith("杭州")
        for t in trains["trains"]
    )
    assert all(t["departure"].startswith("2025-10-25") for t in trains["trains"])
    assert all(30 <= t["duration_min"] <= 200 for t in trains["trains"])
    flights = json.loads(
        answer("travel_search_flights", CALLS["travel_search_flights"], TIME, "zh")
    )
    days = {f["departure"][:10] for f in flights["flights"]}
    assert days == {"2025-10-26", "2025-10-27", "2025-10-28"}  # date plus 2 extra days
    # A day's timetable does not depend on how the query was phrased.
    one_day = json.loads(
        answer("travel_search_flights", {**CALLS["travel_search_flights"], "days": 0}, TIME, "zh")
    )
    assert one_day["flights"] == [
        f for f in flights["flights"] if f["departure"].startswith("2025-10-26")
    ]


def test_forecast_covers_date_plus_days_and_agrees_with_itself() -> None:
    data = json.loads(answer("weather_forecast_days", CALLS["weather_forecast_days"], TIME, "zh"))
    assert [d["date"] for d in data["forecast"]] == [
        "2025-10-25",
        "2025-10-26",
        "2025-10-27",
        "2025-10-28",
    ]
    assert data["forecast"][0]["day_label"] == "明天"
    single = json.loads(
        answer("weather_forecast_days", {"location": "三亚市", "date": "2025-10-26"}, TIME, "zh")
    )
    assert single["forecast"][0] == data["forecast"][1]
    harbin = json.loads(
        answer("weather_forecast_days", {"location": "哈尔滨市", "date": "2025-10-25"}, TIME, "zh")
    )
    assert harbin["forecast"][0]["high_c"] < data["forecast"][0]["high_c"]  # north is colder


@pytest.mark.parametrize("tool", ["map_compute_routes", "map_search_along_route"])
def test_unreadable_coordinates_give_an_empty_answer_not_a_crash(tool: str) -> None:
    args = {"origin": "a,b", "destination": "c,d"} | ({"query": "x"} if "along" in tool else {})
    data = json.loads(answer(tool, args, TIME, "zh"))
    assert data.get("routes") == [] or data.get("places") == []
