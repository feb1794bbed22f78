"""What a rejected TravelBench call tells the agent, word for word, in both languages.

The outcome of each call (accepted / error / crash) is pinned against the official harness in
``test_validation_table.py``; here the message: it names the parameter and the value at fault
and the rule, in the row's language, and the first failing check is the one reported. Instance
time 2025-10-24 10:00 (the window ends 2025-11-08).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest

from lifebench.travel.tools.validation import WINDOW_DAYS, Problem, check_call

NOW = datetime(2025, 10, 24, 10, 0)  # noqa: DTZ001 - rows use a naive clock

F, T = "travel_search_flights", "travel_search_trains"
WF, R = "weather_forecast_days", "map_compute_routes"
P, A = "map_search_places", "map_search_along_route"
C, L = "map_search_central_places", "map_search_ranking_list"

_FL = {"origin": "北京市", "destination": "上海市", "date": "2025-10-25"}
_TR = {"origin": "上海市", "destination": "杭州市", "date": "2025-10-25"}
_RT = {"origin": "39.9,116.4", "destination": "31.2,121.5"}
_AL = {"query": "加油站", "origin": "39.9,116.4", "destination": "31.2,121.5"}
_CE = {"query": "火锅", "origins": ["39.90,116.40", "39.95,116.35"]}
_RL = {"query": "美食", "region": "北京市"}

CASES: list[tuple[str, str, dict[str, Any], str, str, bool]] = [
    # (id, tool, args, en, zh, crash)
    ("missing", F, {"date": "2025-10-25"},
     "missing required parameter(s): 'destination', 'origin'",
     "缺少必填参数：'destination', 'origin'", False),
    ("unknown", WF, {"location": "x", "date": "2025-10-25", "unit": "c", "days_": 1},
     "unknown parameter(s): 'days_', 'unit'; valid parameters: 'date', 'days', 'location'",
     "未知参数：'days_', 'unit'；可用参数：'date', 'days', 'location'", False),
    ("missing-before-unknown", F, {"origin": "a", "x": 1},
     "missing required parameter(s): 'date', 'destination'",
     "缺少必填参数：'date', 'destination'", False),
    ("days-high", F, {**_FL, "days": 16},
     "days out of range (0-15): 16", "days 超出范围（0-15）：16", False),
    ("days-low", F, {**_FL, "days": -0.5},
     "days out of range (0-15): -0.5", "days 超出范围（0-15）：-0.5", False),
    ("days-text", F, {**_FL, "days": "3"},
     'days: unusable value "3" (wrong type)', 'days：取值 "3" 无法使用（类型错误）', True),
    ("days-before-origin", F, {**_FL, "origin": "", "days": 99},
     "days out of range (0-15): 99", "days 超出范围（0-15）：99", False),
    ("empty-origin", F, {**_FL, "origin": ""},
     "origin and destination must not be empty", "出发地和目的地不能为空", False),
    ("empty-destination", F, {**_FL, "destination": 0},
     "origin and destination must not be empty", "出发地和目的地不能为空", False),
    ("date-format", F, {**_FL, "date": "2025/10/25"},
     'date must be a date "YYYY-MM-DD", got "2025/10/25"',
     'date 日期格式应为 "YYYY-MM-DD"，实际为 "2025/10/25"', False),
    ("date-ahead", F, {**_FL, "date": "2025-11-09"},
     "date 2025-11-09 is too far ahead: today is 2025-10-24, the data reaches 15 days ahead "
     "(until 2025-11-08)",
     "date 2025-11-09 超出可查询范围：今天是 2025-10-24，最多可查 15 天内（截至 2025-11-08）",
     False),
    ("date-number", F, {**_FL, "date": 20251025},
     "date: unusable value 20251025 (wrong type)", "date：取值 20251025 无法使用（类型错误）",
     True),
    ("region-unknown", T, {**_TR, "origin": "上海"},
     'origin: unknown administrative name "上海"; use a standard name such as "北京市" or '
     '"北京市朝阳区"',
     'origin：无法识别的行政区名称"上海"，请使用标准名称，如"北京市"、"北京市朝阳区"', False),
    ("region-destination", T, {**_TR, "destination": "杭州"},
     'destination: unknown administrative name "杭州"; use a standard name such as "北京市" or '
     '"北京市朝阳区"',
     'destination：无法识别的行政区名称"杭州"，请使用标准名称，如"北京市"、"北京市朝阳区"', False),
    ("region-empty", T, {**_TR, "origin": None},
     "origin: empty place name", "origin：地区名称为空", False),
    ("region-number", T, {**_TR, "origin": 310000},
     "origin: unusable value 310000 (wrong type)", "origin：取值 310000 无法使用（类型错误）", True),
    ("trains-days-first", T, {**_TR, "origin": "上海", "days": 16},
     "days out of range (0-15): 16", "days 超出范围（0-15）：16", False),
    ("trains-date-last", T, {**_TR, "date": "x"},
     'date must be a date "YYYY-MM-DD", got "x"', 'date 日期格式应为 "YYYY-MM-DD"，实际为 "x"',
     False),
    ("forecast-days", WF, {"location": "l", "date": "2025-10-25", "days": 0},
     "days out of range (1-15): 0", "days 超出范围（1-15）：0", False),
    ("forecast-date", WF, {"location": "l", "date": "2025-11-10"},
     "date 2025-11-10 is too far ahead: today is 2025-10-24, the data reaches 15 days ahead "
     "(until 2025-11-08)",
     "date 2025-11-10 超出可查询范围：今天是 2025-10-24，最多可查 15 天内（截至 2025-11-08）",
     False),
    ("both-times", R, {**_RT, "departure_time": "x", "arrival_time": "y"},
     "departure_time and arrival_time cannot be used together",
     "departure_time 和 arrival_time 不能同时使用", False),
    ("route-origin", R, {**_RT, "origin": "39.9"},
     'origin must be "latitude,longitude", got "39.9"',
     'origin 格式应为"纬度,经度"，实际为"39.9"', False),
    ("route-destination", R, {**_RT, "destination": "1,2,3"},
     'destination must be "latitude,longitude", got "1,2,3"',
     'destination 格式应为"纬度,经度"，实际为"1,2,3"', False),
    ("route-waypoint", R, {**_RT, "intermediates": ["30,120", "31"]},
     'intermediates[1] must be "latitude,longitude", got "31"',
     'intermediates[1] 格式应为"纬度,经度"，实际为"31"', False),
    ("route-origin-number", R, {**_RT, "origin": 39.9},
     "origin: unusable value 39.9 (wrong type)", "origin：取值 39.9 无法使用（类型错误）", True),
    ("route-waypoints-int", R, {**_RT, "intermediates": 5},
     "intermediates: unusable value 5 (wrong type)",
     "intermediates：取值 5 无法使用（类型错误）", True),
    ("route-mode", R, {**_RT, "modes": ["driving", "飞行"]},
     'unsupported travel mode: "飞行"', '不支持的出行方式："飞行"', False),
    ("route-mode-number", R, {**_RT, "modes": [1]},
     "unsupported travel mode: 1", "不支持的出行方式：1", False),
    ("route-mode-list", R, {**_RT, "modes": [["driving"]]},
     'modes: unusable value ["driving"] (wrong type)',
     'modes：取值 ["driving"] 无法使用（类型错误）', True),
    ("route-modes-null", R, {**_RT, "modes": None},
     "modes: unusable value null (wrong type)", "modes：取值 null 无法使用（类型错误）", True),
    ("route-traffic", R, {**_RT, "traffic_aware": "true"},
     'traffic_aware: unusable value "true" (wrong type)',
     'traffic_aware：取值 "true" 无法使用（类型错误）', True),
    ("route-preference", R, {**_RT, "preference": {"a": 1}},
     'preference: unusable value {"a": 1} (wrong type)',
     'preference：取值 {"a": 1} 无法使用（类型错误）', True),
    ("places-price-category", P, {"query": "q", "price_max": 10},
     "price_min / price_max need price_category",
     "使用 price_min 或 price_max 时必须同时提供 price_category", False),
    ("places-price-sort", P, {"query": "q", "sort_by": "price:d"},
     'sort_by "price:a" / "price:d" needs price_category',
     "sort_by 为 price:a 或 price:d 时必须同时提供 price_category", False),
    ("places-radius", P, {"query": "q", "radius": 99},
     "radius out of range (100-20000): 99", "radius 超出范围（100-20000）：99", False),
    ("places-radius-high", P, {"query": "q", "radius": 20000.5},
     "radius out of range (100-20000): 20000.5", "radius 超出范围（100-20000）：20000.5", False),
    ("places-rating", P, {"query": "q", "min_rating": 10.5},
     "min_rating out of range (0-10): 10.5", "min_rating 超出范围（0-10）：10.5", False),
    ("places-price-min", P, {"query": "q", "price_min": -1, "price_category": "price"},
     "price_min out of range (>= 0): -1", "price_min 超出范围（>= 0）：-1", False),
    ("places-price-max", P, {"query": "q", "price_max": -2, "price_category": "price"},
     "price_max out of range (>= 0): -2", "price_max 超出范围（>= 0）：-2", False),
    ("places-min-over-max", P,
     {"query": "q", "price_min": 50, "price_max": 10.5, "price_category": "price"},
     "price_min (50) is larger than price_max (10.5)", "price_min（50）大于 price_max（10.5）",
     False),
    ("places-limit", P, {"query": "q", "limit": 0},
     "limit out of range (>= 1): 0", "limit 超出范围（>= 1）：0", False),
    ("places-center", P, {"query": "q", "center": "39.9,abc"},
     'center must be "latitude,longitude", got "39.9,abc"',
     'center 格式应为"纬度,经度"，实际为 "39.9,abc"', False),
    ("places-center-list", P, {"query": "q", "center": [39.9, 116.4]},
     'center must be "latitude,longitude", got [39.9, 116.4]',
     'center 格式应为"纬度,经度"，实际为 [39.9, 116.4]', False),
    ("places-region", P, {"query": "q", "region": "上海"},
     'region: unknown administrative name "上海"; use a standard name such as "北京市" or '
     '"北京市朝阳区"',
     'region：无法识别的行政区名称"上海"，请使用标准名称，如"北京市"、"北京市朝阳区"', False),
    ("along-origin", A, {**_AL, "origin": "39.9"},
     'origin must be "latitude,longitude", got "39.9"',
     'origin 格式应为"纬度,经度"，实际为 "39.9"', False),
    ("along-destination", A, {**_AL, "destination": None},
     'destination must be "latitude,longitude", got null',
     'destination 格式应为"纬度,经度"，实际为 null', False),
    ("along-chinese-value", A, {**_AL, "origin": "北京"},
     'origin must be "latitude,longitude", got "北京"',
     'origin 格式应为"纬度,经度"，实际为 "北京"', False),
    ("central-limit", C, {**_CE, "limit": 0},
     "limit out of range (>= 1): 0", "limit 超出范围（>= 1）：0", False),
    ("along-limit", A, {**_AL, "limit": -3},
     "limit out of range (>= 1): -3", "limit 超出范围（>= 1）：-3", False),
    ("central-none", C, {**_CE, "origins": None},
     "at least 2 origins are needed", "至少需要 2 个出发点坐标", False),
    ("central-one", C, {**_CE, "origins": ["39.9,116.4"]},
     "at least 2 origins are needed", "至少需要 2 个出发点坐标", False),
    ("central-int", C, {**_CE, "origins": 5},
     "origins: unusable value 5 (wrong type)", "origins：取值 5 无法使用（类型错误）", True),
    ("central-point", C, {**_CE, "origins": ["39.9,116.4", "a,116.4"]},
     'origins[1] must be "latitude,longitude", got "a,116.4"',
     'origins[1] 格式应为"纬度,经度"，实际为"a,116.4"', False),
    ("central-radius", C, {**_CE, "radius": 20001},
     "radius out of range (100-20000): 20001", "radius 超出范围（100-20000）：20001", False),
    ("central-rating", C, {**_CE, "min_rating": -1},
     "min_rating out of range (0-10): -1", "min_rating 超出范围（0-10）：-1", False),
    ("central-category", C, {**_CE, "price_min": 1},
     "price_min / price_max need price_category",
     "使用 price_min 或 price_max 时必须同时提供 price_category", False),
    ("ranking-lists", L, {**_RL, "max_lists": 11},
     "max_lists out of range (1-10): 11", "max_lists 超出范围（1-10）：11", False),
    ("ranking-items", L, {**_RL, "max_items": 0},
     "max_items out of range (1-20): 0", "max_items 超出范围（1-20）：0", False),
    ("ranking-items-null", L, {**_RL, "max_items": None},
     "max_items: unusable value null (wrong type)", "max_items：取值 null 无法使用（类型错误）",
     True),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tool", "args", "en", "zh", "crash"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_the_message_names_the_parameter_value_and_rule(
    tool: str, args: dict[str, Any], en: str, zh: str, crash: bool
) -> None:
    problem = check_call(tool, args, NOW)
    assert problem is not None
    assert (problem.message.en, problem.message.zh, problem.crash) == (en, zh, crash)
    assert json.loads(problem.render("en")) == {"error": en}
    assert json.loads(problem.render("zh")) == {"error": zh}


def test_the_rendered_error_keeps_chinese_text() -> None:
    problem = check_call(T, {**_TR, "origin": "上海"}, NOW)
    assert isinstance(problem, Problem)
    assert "上海" in problem.render("zh") and "\\u" not in problem.render("zh")


def test_an_ambiguous_region_lists_at_most_five_candidates_with_their_codes() -> None:
    problem = check_call(T, {**_TR, "origin": "鼓楼区"}, NOW)
    assert problem is not None
    en = problem.message.en
    assert en.startswith('origin: "鼓楼区" is ambiguous (')
    assert en.endswith("); give a more precise name")
    listed = en[en.index("(") + 1 : en.rindex(")")].split(", ")
    assert 2 <= len(listed) <= 5
    for item in listed:
        name, _, code = item.partition("(")
        assert name.endswith("鼓楼区") and code.rstrip(")").isdigit() and len(code) == 7
    zh = problem.message.zh
    assert zh is not None and zh.startswith('origin："鼓楼区"有歧义（')
    assert zh.endswith("），请提供更完整的名称")


def test_many_matches_are_cut_to_five() -> None:
    problem = check_call(T, {**_TR, "origin": "   "}, NOW)  # every name ends with ""
    assert problem is not None
    listed = problem.message.en.split("ambiguous (", 1)[1].rsplit(")", 1)[0]
    assert listed.count("), ") == 4, listed


@pytest.mark.parametrize(
    ("args", "accepted"),
    [
        ({"query": "q", "center": "abc,116.4"}, False),
        ({"query": "q", "center": "39.9,abc"}, False),
        ({"query": "q", "center": " 39.9 , 116.4 "}, True),
        ({"query": "q", "center": "39.9,116.4,1"}, False),
        ({"query": "q", "center": " 39.9,116.4"}, True),
    ],
    ids=["first-not-float", "second-not-float", "padded", "three-parts", "leading-space"],
)
def test_both_coordinates_of_a_center_must_be_numbers(args: dict[str, Any], accepted: bool) -> None:
    assert (check_call(P, args, NOW) is None) is accepted


@pytest.mark.parametrize(
    ("origins", "accepted"),
    [
        (["abc,116.4", "39.9,116.4"], False),
        (["39.9,abc", "39.9,116.4"], False),
        ([" 39.9,116.4 ", "39.9 , 116.4"], True),
    ],
    ids=["first-coordinate", "second-coordinate", "padded"],
)
def test_both_coordinates_of_every_origin_must_be_numbers(
    origins: list[str], accepted: bool
) -> None:
    assert (check_call(C, {**_CE, "origins": origins}, NOW) is None) is accepted


def test_a_limit_of_one_is_enough_everywhere() -> None:
    assert check_call(C, {**_CE, "limit": 1}, NOW) is None
    assert check_call(A, {**_AL, "limit": 1}, NOW) is None
    assert check_call(P, {"query": "q", "limit": 1}, NOW) is None


def test_the_window_is_fifteen_days() -> None:
    assert WINDOW_DAYS == 15
    assert check_call(F, {**_FL, "date": "2025-11-08"}, NOW) is None
    late = datetime(2025, 10, 24, 23, 59)  # noqa: DTZ001
    assert check_call(F, {**_FL, "date": "2025-11-08"}, late) is None
    assert check_call(F, {**_FL, "date": "2025-11-09"}, late) is not None
