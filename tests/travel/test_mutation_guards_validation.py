"""Survivors of mutation testing in ``travel/tools/validation.py``, pinned by the tool error
the agent gets (or does not get): non-ASCII values are shown as written in a crash message and
in the ``center`` message, an arrival time alone is a valid route request, and a route's
destination needs no numbers (only the ``lat,lng`` shape; the official check does not parse
them). Instance time 2025-10-24 10:00, as in test_validation_messages.py."""

from __future__ import annotations

from datetime import datetime

from lifebench.travel.tools.validation import check_call

NOW = datetime(2025, 10, 24, 10, 0)  # noqa: DTZ001 - rows use a naive clock


def test_a_crash_message_shows_a_non_ascii_value_as_written() -> None:
    problem = check_call(
        "travel_search_flights",
        {"origin": "北京市", "destination": "上海市", "date": ["明天"]},
        NOW,
    )
    assert problem is not None and problem.crash
    assert problem.message.get("en") == 'date: unusable value ["明天"] (wrong type)'
    assert problem.message.get("zh") == 'date：取值 ["明天"] 无法使用（类型错误）'


def test_a_bad_center_is_shown_as_written() -> None:
    problem = check_call("map_search_places", {"query": "火锅", "center": "北京,天安门"}, NOW)
    assert problem is not None and not problem.crash
    assert problem.message.get("en") == ('center must be "latitude,longitude", got "北京,天安门"')
    assert problem.message.get("zh") == 'center 格式应为"纬度,经度"，实际为 "北京,天安门"'


def test_an_arrival_time_alone_is_a_valid_route_request() -> None:
    route = {"origin": "39.9,116.4", "destination": "31.2,121.5"}
    assert check_call("map_compute_routes", {**route, "arrival_time": "18:00"}, NOW) is None
    assert check_call("map_compute_routes", {**route, "departure_time": "08:00"}, NOW) is None
    both = check_call(
        "map_compute_routes", {**route, "departure_time": "08:00", "arrival_time": "18:00"}, NOW
    )
    assert both is not None


def test_route_ends_need_the_shape_not_numbers() -> None:
    """The official route check only splits on the comma: "a,b" passes at both ends and in
    the waypoints (the map tool answers it later); a third part does not."""
    words = {"origin": "故宫,北京", "destination": "外滩,上海", "intermediates": ["西湖,杭州"]}
    assert check_call("map_compute_routes", words, NOW) is None
    three = check_call("map_compute_routes", {**words, "destination": "1,2,3"}, NOW)
    assert three is not None
    assert three.message.get("en") == 'destination must be "latitude,longitude", got "1,2,3"'
