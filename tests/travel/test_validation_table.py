"""Argument validation, call by call, against the official harness.

Every row was decided by reading the official validators (``travelbench/tools/*.py`` at
small-xiangcheng/TravelBench 445a29d): ``ok`` = the official ``_validate_parameters`` returns
"" (the call reaches the cache/simulator), ``err`` = it returns an error string, ``crash`` = it
raises (TypeError / AttributeError / KeyError), which the official assistant also counts as a
tool error. The comment names the official check that decides. Instance time: 2025-10-24 10:00,
so the last allowed date is 2025-11-08.
"""

from __future__ import annotations

import asyncio
import json
import math
from datetime import datetime
from typing import Any

import pytest

from lifebench.travel.environment import TravelEnvironment
from lifebench.travel.sandbox import Sandbox, SandboxConfig
from lifebench.travel.tools.validation import check_call

NOW = datetime(2025, 10, 24, 10, 0)  # noqa: DTZ001 - rows use a naive clock
OK, ERR, CRASH = "ok", "err", "crash"

F = "travel_search_flights"
T = "travel_search_trains"
WC = "weather_current_conditions"
WF = "weather_forecast_days"
R = "map_compute_routes"
P = "map_search_places"
A = "map_search_along_route"
C = "map_search_central_places"
L = "map_search_ranking_list"
W = "web_search"

_FL = {"origin": "北京市", "destination": "上海市", "date": "2025-10-25"}
_TR = {"origin": "上海市", "destination": "杭州市", "date": "2025-10-25"}
_RT = {"origin": "39.9,116.4", "destination": "31.2,121.5"}
_AL = {"query": "加油站", "origin": "39.9,116.4", "destination": "31.2,121.5"}
_CE = {"query": "火锅", "origins": ["39.90,116.40", "39.95,116.35"]}
_RL = {"query": "美食", "region": "北京市"}


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = dict(base)
    for key, value in changes.items():
        if value is _DROP:
            out.pop(key, None)
        else:
            out[key] = value
    return out


_DROP = object()

TABLE: list[tuple[str, dict[str, Any], str, str]] = [
    # ---- travel_search_flights ------------------------------------------------------------
    (F, _FL, OK, "all required present"),
    (F, _with(_FL, origin=_DROP), ERR, "missing required origin"),
    (F, _with(_FL, date=_DROP), ERR, "missing required date"),
    (F, _with(_FL, cabin="economy"), ERR, "unknown parameter"),
    (F, _with(_FL, time="2025-10-25"), ERR, "unknown parameter (official: TypeError on 'time')"),
    (F, _with(_FL, origin="上海", destination="北京"), OK, "no adcode check for flights"),
    (F, _with(_FL, origin="xyz"), OK, "only non-empty is checked"),
    (F, _with(_FL, origin=""), ERR, "empty origin (bare string error)"),
    (F, _with(_FL, destination=None), ERR, "null destination is falsy"),
    (F, _with(_FL, origin=0), ERR, "0 is falsy"),
    (F, _with(_FL, origin=123), OK, "a truthy number passes 'not origin'"),
    (F, _with(_FL, origin=["北京市"]), OK, "a truthy list passes 'not origin'"),
    (F, _with(_FL, days=0), OK, "days lower bound"),
    (F, _with(_FL, days=15), OK, "days upper bound"),
    (F, _with(_FL, days=16), ERR, "days > 15"),
    (F, _with(_FL, days=-1), ERR, "days < 0"),
    (F, _with(_FL, days=3.5), OK, "days not required to be an integer"),
    (F, _with(_FL, days=True), OK, "a bool is a number in Python comparisons"),
    (F, _with(_FL, days="3"), CRASH, "'3' < 0 raises TypeError"),
    (F, _with(_FL, days=None), CRASH, "None < 0 raises TypeError"),
    (F, _with(_FL, days=[1]), CRASH, "list < int raises TypeError"),
    (F, _with(_FL, days=math.nan), OK, "NaN compares False both ways"),
    (F, _with(_FL, date="2025-11-08"), OK, "last day of the 15-day window"),
    (F, _with(_FL, date="2025-11-09"), ERR, "one day past the window"),
    (F, _with(_FL, date="2020-01-01"), OK, "no lower bound"),
    (F, _with(_FL, date="2025-1-5"), OK, "strptime accepts one-digit month/day"),
    (F, _with(_FL, date="2025-10- 5"), OK, "strptime %d accepts a space-padded day"),
    (F, _with(_FL, date="2025/10/25"), ERR, "wrong date format"),
    (F, _with(_FL, date="2025-10-25 10:00"), ERR, "unconverted data remains"),
    (F, _with(_FL, date="2025-02-30"), ERR, "no such day"),
    (F, _with(_FL, date=20251025), CRASH, "strptime of an int raises TypeError"),
    (F, _with(_FL, origin="", days=99), ERR, "days is checked first (either way an error)"),
    # ---- travel_search_trains -------------------------------------------------------------
    (T, _TR, OK, "full names"),
    (T, _with(_TR, origin="上海"), ERR, "'上海' does not resolve"),
    (T, _with(_TR, destination="杭州"), ERR, "'杭州' does not resolve"),
    (T, _with(_TR, origin="北京市北京市"), ERR, "the context's duplicated municipality"),
    (T, _with(_TR, origin="浦东新区"), OK, "unique suffix match"),
    (T, _with(_TR, origin="朝阳区"), ERR, "ambiguous (2 matches)"),
    (T, _with(_TR, destination="鼓楼区"), ERR, "ambiguous (4 matches)"),
    (T, _with(_TR, origin="北京市朝阳区"), OK, "exact full name"),
    (T, _with(_TR, origin="浙江省杭州市西湖区"), OK, "province-city-district path"),
    (T, _with(_TR, origin="  上海市  "), OK, "surrounding spaces are stripped"),
    (T, _with(_TR, origin="   "), ERR, "blank: every full name ends with '' (ambiguous)"),
    (T, _with(_TR, origin=""), ERR, "empty name"),
    (T, _with(_TR, origin=None), ERR, "null is 'empty'"),
    (T, _with(_TR, origin=310000), CRASH, "int has no strip()"),
    (T, _with(_TR, origin="湖北省仙桃市"), OK, "county-level city directly under the province"),
    (T, _with(_TR, origin="河南省济源市"), OK, "济源 sits under the province"),
    (T, _with(_TR, origin="城口县"), OK, "suffix of 重庆市重庆市郊县城口县"),
    (T, _with(_TR, origin="重庆市城口县"), ERR, "the official table names it under 重庆市郊县"),
    (T, _with(_TR, origin="蓬莱市"), ERR, "the official table's later row renames 370684 to 蓬莱"),
    (T, _with(_TR, origin="河北省邢台市邢台县"), OK, "the official table predates 信都区"),
    (T, _with(_TR, origin="信都区"), ERR, "not in the official table"),
    (T, _with(_TR, origin="北京市市辖区"), OK, "a placeholder's own full name"),
    (T, _with(_TR, origin="上海市", days=16), ERR, "days range checked before places"),
    (T, _with(_TR, days="1"), CRASH, "string days"),
    (T, _with(_TR, date="2025-11-09"), ERR, "past the window"),
    (T, _with(_TR, date="25-10-25"), ERR, "two-digit year"),
    (T, _with(_TR, seat="二等座"), ERR, "unknown parameter"),
    # ---- weather_current_conditions -------------------------------------------------------
    (WC, {"location": "上海市"}, OK, "required present"),
    (WC, {"location": "上海"}, OK, "location is not resolved"),
    (WC, {"location": None}, OK, "only presence is checked"),
    (WC, {"location": ""}, OK, "only presence is checked"),
    (WC, {}, ERR, "missing location"),
    (WC, {"location": "上海市", "date": "2025-10-25"}, ERR, "unknown parameter"),
    # ---- weather_forecast_days ------------------------------------------------------------
    (WF, {"location": "北京市", "date": "2025-10-25"}, OK, "required present"),
    (WF, {"location": "北京市"}, ERR, "missing date"),
    (WF, {"date": "2025-10-25"}, ERR, "missing location"),
    (WF, {"location": "北京市", "date": None}, OK, "date is only checked when not None"),
    (WF, {"location": "北京市", "date": "2025-11-08"}, OK, "window end"),
    (WF, {"location": "北京市", "date": "2025-11-09"}, ERR, "past the window"),
    (
        WF,
        {"location": "北京市", "date": "2025-01-01"},
        OK,
        "no lower bound despite the description",
    ),
    (WF, {"location": "北京市", "date": "tomorrow"}, ERR, "not a date"),
    (WF, {"location": "北京市", "date": 5}, CRASH, "strptime of an int"),
    (WF, {"location": "北京市", "date": "2025-10-25", "days": 0}, ERR, "days minimum is 1"),
    (WF, {"location": "北京市", "date": "2025-10-25", "days": 1}, OK, "days minimum"),
    (WF, {"location": "北京市", "date": "2025-10-25", "days": 15}, OK, "days maximum"),
    (WF, {"location": "北京市", "date": "2025-10-25", "days": 16}, ERR, "days > 15"),
    (WF, {"location": "北京市", "date": "2025-10-25", "days": None}, OK, "days None is skipped"),
    (WF, {"location": "北京市", "date": "2025-10-25", "days": "3"}, CRASH, "string days"),
    (WF, {"location": None, "date": "2025-10-25"}, OK, "location not validated"),
    # ---- map_compute_routes ---------------------------------------------------------------
    (R, _RT, OK, "two coordinate strings"),
    (R, _with(_RT, origin="a,b"), OK, "floats are not checked"),
    (R, _with(_RT, origin=" 39.9 , 116.4 "), OK, "two parts after strip/split"),
    (R, _with(_RT, origin="39.9"), ERR, "one part"),
    (R, _with(_RT, destination="1,2,3"), ERR, "three parts"),
    (R, _with(_RT, origin=39.9), CRASH, "float has no strip()"),
    (R, _with(_RT, destination=None), CRASH, "None has no strip()"),
    (R, _with(_RT, destination=_DROP), ERR, "missing destination"),
    (R, _with(_RT, intermediates=["30,120"]), OK, "one waypoint"),
    (R, _with(_RT, intermediates=["30"]), ERR, "bad waypoint"),
    (R, _with(_RT, intermediates=[]), OK, "empty list is falsy"),
    (R, _with(_RT, intermediates=None), OK, "None is falsy"),
    (R, _with(_RT, intermediates="30,120"), ERR, "a string iterates characters"),
    (R, _with(_RT, intermediates=",,"), OK, "each character ',' splits into two parts"),
    (R, _with(_RT, intermediates=[30.0]), CRASH, "float waypoint has no strip()"),
    (R, _with(_RT, intermediates=5), CRASH, "an int is not iterable"),
    (R, _with(_RT, intermediates={"30,120": 1}), OK, "a dict iterates its keys"),
    (R, _with(_RT, modes=["driving", "transit"]), OK, "known modes"),
    (R, _with(_RT, modes=["flying"]), ERR, "unknown mode"),
    (R, _with(_RT, modes="driving"), ERR, "a string iterates characters ('d' is unknown)"),
    (R, _with(_RT, modes=[]), OK, "no modes: nothing to check"),
    (R, _with(_RT, modes=""), OK, "empty string: nothing to iterate"),
    (R, _with(_RT, modes=None), CRASH, "None is not iterable"),
    (R, _with(_RT, modes=[["driving"]]), CRASH, "unhashable mode"),
    (R, _with(_RT, modes=[1]), ERR, "1 is not a mode"),
    (R, _with(_RT, departure_time="2025-10-24T12:00:00"), OK, "departure only"),
    (R, _with(_RT, departure_time="x", arrival_time="y"), ERR, "both times"),
    (R, _with(_RT, departure_time="", arrival_time="y"), OK, "empty departure is falsy"),
    (R, _with(_RT, departure_time="tomorrow 9am"), OK, "time format not checked"),
    (R, _with(_RT, traffic_aware=True), OK, "bool"),
    (R, _with(_RT, traffic_aware=False), OK, "bool"),
    (R, _with(_RT, traffic_aware=1), OK, "1 == True as a dict key"),
    (R, _with(_RT, traffic_aware=0), OK, "falsy becomes False"),
    (R, _with(_RT, traffic_aware=None), OK, "falsy becomes False"),
    (R, _with(_RT, traffic_aware="true"), CRASH, "KeyError"),
    (R, _with(_RT, traffic_aware=2), CRASH, "KeyError"),
    (R, _with(_RT, traffic_aware=[1]), CRASH, "unhashable"),
    (R, _with(_RT, preference="avoid_tolls"), OK, "known preference"),
    (R, _with(_RT, preference="scenic"), OK, "unknown preference silently falls back"),
    (R, _with(_RT, preference=7), OK, "hashable values fall back too"),
    (R, _with(_RT, preference=["avoid_tolls"]), CRASH, "unhashable preference"),
    (R, _with(_RT, preference=[]), OK, "falsy becomes ''"),
    (R, _with(_RT, avoid="tolls"), ERR, "unknown parameter"),
    # ---- map_search_places ----------------------------------------------------------------
    (P, {"query": "咖啡"}, OK, "query only"),
    (P, {}, ERR, "missing query"),
    (P, {"query": "咖啡", "center": "39.9,116.4"}, OK, "center"),
    (P, {"query": "咖啡", "center": "39.9, 116.4"}, OK, "float() strips"),
    (P, {"query": "咖啡", "center": "a,b"}, ERR, "center must be two floats"),
    (P, {"query": "咖啡", "center": "39.9"}, ERR, "one part"),
    (P, {"query": "咖啡", "center": "1_000,2"}, OK, "float('1_000') is valid Python"),
    (P, {"query": "咖啡", "center": "nan,inf"}, OK, "float('nan') is valid Python"),
    (P, {"query": "咖啡", "center": [39.9, 116.4]}, ERR, "list has no split(): caught"),
    (P, {"query": "咖啡", "center": ""}, OK, "empty center: region branch, no region"),
    (P, {"query": "咖啡", "region": "北京市朝阳区"}, OK, "region resolves"),
    (P, {"query": "咖啡", "region": "朝阳区"}, ERR, "ambiguous region"),
    (P, {"query": "咖啡", "region": "上海"}, ERR, "region does not resolve"),
    (
        P,
        {"query": "咖啡", "region": "上海", "center": "31.2,121.5"},
        OK,
        "region ignored with center",
    ),
    (P, {"query": "咖啡", "region": 5}, CRASH, "int region has no strip()"),
    (P, {"query": "咖啡", "region": ""}, OK, "empty region: not checked"),
    (P, {"query": "咖啡", "radius": 100}, OK, "radius minimum"),
    (P, {"query": "咖啡", "radius": 20000}, OK, "radius maximum"),
    (P, {"query": "咖啡", "radius": 99}, ERR, "radius < 100 (checked without center)"),
    (P, {"query": "咖啡", "radius": 20001}, ERR, "radius > 20000"),
    (P, {"query": "咖啡", "radius": None}, CRASH, "None < 100"),
    (P, {"query": "咖啡", "radius": "5000"}, CRASH, "string radius"),
    (P, {"query": "咖啡", "sort_by": "rating:d"}, OK, "sort_by"),
    (P, {"query": "咖啡", "sort_by": "popularity"}, OK, "sort_by enum is not checked"),
    (P, {"query": "咖啡", "sort_by": "price:a"}, ERR, "price sort needs price_category"),
    (P, {"query": "咖啡", "sort_by": "price:d", "price_category": "price"}, OK, "with category"),
    (P, {"query": "咖啡", "sort_by": "price:a", "price_category": ""}, ERR, "empty category"),
    (P, {"query": "咖啡", "sort_by": ["price:a"]}, OK, "a list is not 'in' the price sorts"),
    (P, {"query": "咖啡", "price_category": "whatever"}, OK, "category value not checked"),
    (P, {"query": "咖啡", "price_min": 10}, ERR, "price_min needs price_category"),
    (P, {"query": "咖啡", "price_max": 10}, ERR, "price_max needs price_category"),
    (P, {"query": "咖啡", "price_min": None}, OK, "None price_min does not count"),
    (P, {"query": "咖啡", "price_min": 10, "price_category": "average_cost"}, OK, "with category"),
    (P, {"query": "咖啡", "price_min": -1, "price_category": "price"}, ERR, "negative price_min"),
    (P, {"query": "咖啡", "price_max": -1, "price_category": "price"}, ERR, "negative price_max"),
    (
        P,
        {"query": "咖啡", "price_min": 50, "price_max": 10, "price_category": "price"},
        ERR,
        "min > max",
    ),
    (
        P,
        {"query": "咖啡", "price_min": 10, "price_max": 10, "price_category": "price"},
        OK,
        "min == max",
    ),
    (P, {"query": "咖啡", "price_min": "10", "price_category": "price"}, CRASH, "string price"),
    (P, {"query": "咖啡", "min_rating": 0}, OK, "min_rating minimum"),
    (P, {"query": "咖啡", "min_rating": 10}, OK, "min_rating maximum (10-point scale)"),
    (P, {"query": "咖啡", "min_rating": 10.5}, ERR, "min_rating > 10"),
    (P, {"query": "咖啡", "min_rating": None}, OK, "None skipped"),
    (P, {"query": "咖啡", "min_rating": "4.5"}, CRASH, "string min_rating"),
    (P, {"query": "咖啡", "limit": 1}, OK, "limit minimum"),
    (P, {"query": "咖啡", "limit": 500}, OK, "no maximum"),
    (P, {"query": "咖啡", "limit": 0}, ERR, "limit < 1"),
    (P, {"query": "咖啡", "limit": None}, CRASH, "None < 1"),
    (P, {"query": None}, OK, "query value not checked"),
    (P, {"query": "咖啡", "keyword": "x"}, ERR, "unknown parameter"),
    # ---- map_search_along_route -----------------------------------------------------------
    (A, _AL, OK, "required present"),
    (A, _with(_AL, origin="a,b"), OK, "floats not checked"),
    (A, _with(_AL, origin="39.9"), ERR, "one part"),
    (A, _with(_AL, destination=[31.2, 121.5]), ERR, "list has no split(): caught"),
    (A, _with(_AL, destination=None), ERR, "None has no split(): caught"),
    (A, _with(_AL, transport_mode="flying"), OK, "transport_mode not checked"),
    (A, _with(_AL, buffer_radius=-5), OK, "buffer_radius not checked"),
    (A, _with(_AL, buffer_radius="wide"), OK, "buffer_radius not checked"),
    (A, _with(_AL, limit=0), ERR, "limit < 1"),
    (A, _with(_AL, limit="5"), CRASH, "string limit"),
    (A, _with(_AL, query=_DROP), ERR, "missing query"),
    (A, _with(_AL, waypoints=[]), ERR, "unknown parameter"),
    # ---- map_search_central_places --------------------------------------------------------
    (C, _CE, OK, "two origins"),
    (C, _with(_CE, origins=["39.9,116.4"]), ERR, "fewer than 2"),
    (C, _with(_CE, origins=[]), ERR, "empty"),
    (C, _with(_CE, origins=None), ERR, "None is falsy"),
    (C, _with(_CE, origins=["39.9,116.4", "a,b"]), ERR, "floats are checked here"),
    (C, _with(_CE, origins=["39.9,116.4", "39.9"]), ERR, "one part"),
    (C, _with(_CE, origins=["39.9,116.4", 5]), CRASH, "int has no strip()"),
    (C, _with(_CE, origins="39.9,116.4;39.95,116.35"), ERR, "a string iterates characters"),
    (C, _with(_CE, origins=5), CRASH, "len() of an int"),
    (C, _with(_CE, origins={"39.9,116.4": 1, "39.95,116.35": 2}), OK, "a dict iterates its keys"),
    (C, _with(_CE, origins=["39.9,116.4", "39.95,116.35", "40,116"]), OK, "three origins"),
    (C, _with(_CE, radius=99), ERR, "radius < 100"),
    (C, _with(_CE, radius=20000), OK, "radius maximum"),
    (C, _with(_CE, sort_by="nearest"), OK, "sort_by not checked"),
    (C, _with(_CE, sort_by="price:a"), OK, "no price-sort rule here"),
    (C, _with(_CE, price_max=100), ERR, "price_max needs price_category"),
    (C, _with(_CE, price_max=100, price_category="average_cost"), OK, "with category"),
    (C, _with(_CE, min_rating=11), ERR, "min_rating > 10"),
    (C, _with(_CE, limit=0), ERR, "limit < 1"),
    (C, _with(_CE, origins=["39.9,116.4"], radius=5), ERR, "radius checked first (error)"),
    # ---- map_search_ranking_list ----------------------------------------------------------
    (L, _RL, OK, "required present"),
    (L, _with(_RL, region="上海"), OK, "region not adcode-checked"),
    (L, _with(_RL, region=None), OK, "region value not checked"),
    (L, _with(_RL, region=_DROP), ERR, "missing region"),
    (L, _with(_RL, max_lists=10, max_items=20), OK, "maxima"),
    (L, _with(_RL, max_lists=11), ERR, "max_lists > 10"),
    (L, _with(_RL, max_lists=0), ERR, "max_lists < 1"),
    (L, _with(_RL, max_items=21), ERR, "max_items > 20"),
    (L, _with(_RL, max_items=None), CRASH, "None max_items"),
    (L, _with(_RL, city="北京"), ERR, "unknown parameter"),
    # ---- web_search -----------------------------------------------------------------------
    (W, {"query": "北京跨年活动"}, OK, "query"),
    (W, {"query": ""}, OK, "only presence"),
    (W, {}, ERR, "missing query"),
    (W, {"query": "x", "lang": "zh"}, ERR, "unknown parameter"),
]


@pytest.mark.parametrize(
    ("tool", "args", "expected", "why"), TABLE, ids=[f"{t}-{i}" for i, (t, *_) in enumerate(TABLE)]
)
def test_official_outcome(tool: str, args: dict[str, Any], expected: str, why: str) -> None:
    problem = check_call(tool, args, NOW)
    if expected == OK:
        assert problem is None, f"{why}: rejected with {problem}"
    else:
        assert problem is not None, f"{why}: accepted"
        assert problem.crash == (expected == CRASH), f"{why}: crash={problem.crash}"


def test_table_covers_every_tool_and_both_outcomes() -> None:
    from lifebench.travel.tools import TOOL_NAMES

    for name in TOOL_NAMES:
        outcomes = {e for t, _, e, _ in TABLE if t == name}
        assert OK in outcomes and ERR in outcomes, name


def test_errors_reach_the_agent_as_counted_bad_arguments() -> None:
    """Through the ToolSet: a rejected call is an error result (counted by the loop), the
    accepted one is answered, and both are counted by the environment."""
    env = TravelEnvironment(Sandbox(SandboxConfig()), "2025-10-24 10:00", "zh")

    async def run() -> list[Any]:
        return [
            await env.tools.run(F, json.dumps(_FL, ensure_ascii=False)),
            await env.tools.run(F, json.dumps(_with(_FL, days="2"), ensure_ascii=False)),
            await env.tools.run(T, json.dumps(_with(_TR, origin="上海"), ensure_ascii=False)),
            await env.tools.run(T, "{not json"),
            await env.tools.run(T, "[1, 2]"),
            await env.tools.run("book_hotel", "{}"),
        ]

    ok, crash, region, malformed, not_object, unknown = asyncio.run(run())
    assert not ok.error
    for outcome in (crash, region, malformed, not_object):
        assert outcome.error and outcome.error_kind == "bad_arguments"
        assert "error" in json.loads(outcome.content)
    assert unknown.error and unknown.error_kind == "unknown_tool"
    assert env.snapshot()["sandbox"]["validation_errors"] == 4
    assert env.snapshot()["sandbox"]["calls"] == 5


def test_error_messages_follow_the_row_language() -> None:
    problem = check_call(T, _with(_TR, origin="上海"), NOW)
    assert problem is not None
    assert "无法识别" in json.loads(problem.render("zh"))["error"]
    assert "unknown administrative name" in json.loads(problem.render("en"))["error"]


def test_ambiguous_region_lists_candidates_like_the_official_helper() -> None:
    problem = check_call(T, _with(_TR, origin="鼓楼区"), NOW)
    assert problem is not None
    text = problem.message.en
    for city in ("南京市鼓楼区", "徐州市鼓楼区", "开封市鼓楼区", "福州市鼓楼区"):
        assert city in text
