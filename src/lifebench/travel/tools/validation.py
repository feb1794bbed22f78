"""Argument checks of the ten tools, agreeing call by call with the official harness.

Every call the official validators accept is accepted here and every call they reject is
rejected, in the same order of checks (so the first problem reported is the same one). The
official code is untyped: it compares, iterates and splits whatever JSON the model sent, and
some values make it *crash* (``"days": "3"`` raises TypeError in ``days < 0``; a string
``traffic_aware`` is a KeyError; ``"limit": null`` a TypeError). The official harness counts
such a crash as a tool error; here it is a clean validation error (:attr:`Problem.crash` set),
counted the same way. The rules are pinned call by call in tests/travel/test_validation_table.py.

Python's own semantics are reused on purpose where the official checks rely on them:
``datetime.strptime`` for dates ("2025-1-5" and "2025-10- 5" are valid dates there),
``float()`` for coordinates ("1_000", "nan", "inf" parse), truthiness for presence checks,
and Python's ordering rules (a bool is a number; a string, list, dict or null is not).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from lifebench._util.text import Language, Text
from lifebench.travel.tools.regions import resolve
from lifebench.travel.tools.specs import BY_NAME, ToolSpecTB

WINDOW_DAYS = 15
"""Dates may be at most this many days after the instance date (no lower bound, as official)."""

_TRAVEL_MODES = frozenset({"driving", "walking", "bicycling", "transit", "motorcycle", "truck"})


@dataclass(frozen=True)
class Problem:
    """Why a call is rejected: a message (en/zh) and whether the official code would crash."""

    message: Text
    crash: bool = False

    def render(self, language: Language) -> str:
        """The error payload the agent sees: ``{"error": "..."}``."""
        return json.dumps({"error": self.message.get(language)}, ensure_ascii=False)


class _Reject(Exception):
    def __init__(self, en: str, zh: str, crash: bool = False) -> None:
        super().__init__(en)
        self.problem = Problem(Text(en, zh), crash)


def _crash(what: str, value: Any) -> _Reject:
    shown = json.dumps(value, ensure_ascii=False)
    return _Reject(
        f"{what}: unusable value {shown} (wrong type)",
        f"{what}：取值 {shown} 无法使用（类型错误）",
        crash=True,
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float)  # bool is an int, as in Python comparisons


def _number(name: str, value: Any) -> float:
    if not _is_number(value):
        raise _crash(name, value)
    return float(value)


def _range(name: str, value: Any, low: float, high: float | None) -> None:
    number = _number(name, value)
    if number < low or (high is not None and number > high):
        bounds = f"{low:g}-{high:g}" if high is not None else f">= {low:g}"
        raise _Reject(
            f"{name} out of range ({bounds}): {json.dumps(value)}",
            f"{name} 超出范围（{bounds}）：{json.dumps(value)}",
        )


def _iterate(name: str, value: Any) -> Iterator[Any]:
    if isinstance(value, str | list):
        return iter(value)
    if isinstance(value, dict):
        return iter(value.keys())
    raise _crash(name, value)


def _hashable(value: Any) -> bool:
    return not isinstance(value, list | dict)


def _keys(spec: ToolSpecTB, args: Mapping[str, Any]) -> None:
    missing = sorted(set(spec.required) - set(args))
    if missing:
        listed = ", ".join(f"'{m}'" for m in missing)
        raise _Reject(f"missing required parameter(s): {listed}", f"缺少必填参数：{listed}")
    unknown = sorted(set(args) - set(spec.param_names))
    if unknown:
        listed = ", ".join(f"'{u}'" for u in unknown)
        valid = ", ".join(f"'{p}'" for p in sorted(spec.param_names))
        raise _Reject(
            f"unknown parameter(s): {listed}; valid parameters: {valid}",
            f"未知参数：{listed}；可用参数：{valid}",
        )


def _date(name: str, value: Any, now: datetime) -> None:
    if not isinstance(value, str):
        raise _crash(name, value)
    try:
        day = datetime.strptime(value, "%Y-%m-%d")  # noqa: DTZ007 - naive, as official
    except ValueError:
        raise _Reject(
            f'{name} must be a date "YYYY-MM-DD", got "{value}"',
            f'{name} 日期格式应为 "YYYY-MM-DD"，实际为 "{value}"',
        ) from None
    last = (now + timedelta(days=WINDOW_DAYS)).date()
    if day.date() > last:
        raise _Reject(
            f"{name} {value} is too far ahead: today is {now:%Y-%m-%d}, the data reaches "
            f"{WINDOW_DAYS} days ahead (until {last:%Y-%m-%d})",
            f"{name} {value} 超出可查询范围：今天是 {now:%Y-%m-%d}，最多可查 {WINDOW_DAYS} 天内"
            f"（截至 {last:%Y-%m-%d}）",
        )


def _region(name: str, value: Any) -> None:
    if not value:
        raise _Reject(f"{name}: empty place name", f"{name}：地区名称为空")
    if not isinstance(value, str):
        raise _crash(name, value)
    outcome = resolve(value)
    if outcome.resolved is not None:
        return
    if outcome.note == "no match":
        raise _Reject(
            f'{name}: unknown administrative name "{value}"; use a standard name such as '
            '"北京市" or "北京市朝阳区"',
            f'{name}：无法识别的行政区名称"{value}"，请使用标准名称，如"北京市"、"北京市朝阳区"',
        )
    listed = ", ".join(f"{m.full_name}({m.adcode})" for m in outcome.matches[:5])
    raise _Reject(
        f'{name}: "{value}" is ambiguous ({listed}); give a more precise name',
        f'{name}："{value}"有歧义（{listed}），请提供更完整的名称',
    )


def _pair(name: str, value: Any, *, strip_first: bool, floats: bool) -> None:
    """A "lat,lng" string: exactly two comma-separated parts (and both floats if asked)."""
    if not isinstance(value, str):
        raise _crash(name, value)
    parts = (value.strip() if strip_first else value).split(",")
    bad = len(parts) != 2
    if not bad and floats:
        try:
            float(parts[0].strip())
            float(parts[1].strip())
        except ValueError:
            bad = True
    if bad:
        raise _Reject(
            f'{name} must be "latitude,longitude", got "{value}"',
            f'{name} 格式应为"纬度,经度"，实际为"{value}"',
        )


def _price(args: Mapping[str, Any]) -> None:
    price_min, price_max = args.get("price_min"), args.get("price_max")
    if price_min is not None:
        _range("price_min", price_min, 0, None)
    if price_max is not None:
        _range("price_max", price_max, 0, None)
    if price_min is not None and price_max is not None and price_min > price_max:
        raise _Reject(
            f"price_min ({price_min}) is larger than price_max ({price_max})",
            f"price_min（{price_min}）大于 price_max（{price_max}）",
        )


def _price_needs_category(args: Mapping[str, Any], sort_too: bool) -> None:
    has_range = args.get("price_min") is not None or args.get("price_max") is not None
    if has_range and not args.get("price_category"):
        raise _Reject(
            "price_min / price_max need price_category",
            "使用 price_min 或 price_max 时必须同时提供 price_category",
        )
    priced_sort = args.get("sort_by", "weight") in ("price:a", "price:d")
    if sort_too and priced_sort and not args.get("price_category"):
        raise _Reject(
            'sort_by "price:a" / "price:d" needs price_category',
            "sort_by 为 price:a 或 price:d 时必须同时提供 price_category",
        )


def _flights(args: Mapping[str, Any], now: datetime) -> None:
    _range("days", args.get("days", 0), 0, 15)
    if not args["origin"] or not args["destination"]:
        raise _Reject("origin and destination must not be empty", "出发地和目的地不能为空")
    _date("date", args["date"], now)


def _trains(args: Mapping[str, Any], now: datetime) -> None:
    _range("days", args.get("days", 0), 0, 15)
    _region("origin", args["origin"])
    _region("destination", args["destination"])
    _date("date", args["date"], now)


def _forecast(args: Mapping[str, Any], now: datetime) -> None:
    if args.get("days") is not None:
        _range("days", args["days"], 1, 15)
    if args.get("date") is not None:
        _date("date", args["date"], now)


def _routes(args: Mapping[str, Any], now: datetime) -> None:
    if args.get("departure_time", "") and args.get("arrival_time", ""):
        raise _Reject(
            "departure_time and arrival_time cannot be used together",
            "departure_time 和 arrival_time 不能同时使用",
        )
    _pair("origin", args["origin"], strip_first=True, floats=False)
    _pair("destination", args["destination"], strip_first=True, floats=False)
    waypoints = args.get("intermediates", [])
    if waypoints:
        for i, point in enumerate(_iterate("intermediates", waypoints)):
            _pair(f"intermediates[{i}]", point, strip_first=True, floats=False)
    for mode in _iterate("modes", args.get("modes", ["driving"])):
        if not _hashable(mode):
            raise _crash("modes", mode)
        if not isinstance(mode, str) or mode not in _TRAVEL_MODES:
            raise _Reject(
                f"unsupported travel mode: {json.dumps(mode, ensure_ascii=False)}",
                f"不支持的出行方式：{json.dumps(mode, ensure_ascii=False)}",
            )
    traffic = args.get("traffic_aware", False)
    if traffic and not (_hashable(traffic) and _is_number(traffic) and traffic == 1):
        raise _crash("traffic_aware", traffic)
    preference = args.get("preference", "")
    if preference and not _hashable(preference):
        raise _crash("preference", preference)
    # Any other preference value is accepted and ignored (the official mapper falls back to
    # the fastest route and discards its warning).


def _places(args: Mapping[str, Any], now: datetime) -> None:
    _price_needs_category(args, sort_too=True)
    _range("radius", args.get("radius", 5000), 100, 20000)
    if args.get("min_rating") is not None:
        _range("min_rating", args["min_rating"], 0, 10)
    _price(args)
    _range("limit", args.get("limit", 10), 1, None)
    center, region = args.get("center", ""), args.get("region", "")
    if center:
        try:
            _pair("center", center, strip_first=False, floats=True)
        except _Reject:  # the official check catches everything here: a clean error
            raise _Reject(
                f'center must be "latitude,longitude", got {json.dumps(center, ensure_ascii=False)}',
                f'center 格式应为"纬度,经度"，实际为 {json.dumps(center, ensure_ascii=False)}',
            ) from None
    elif region:
        _region("region", region)


def _along(args: Mapping[str, Any], now: datetime) -> None:
    _range("limit", args.get("limit", 10), 1, None)
    for name in ("origin", "destination"):
        try:
            _pair(name, args[name], strip_first=False, floats=False)
        except _Reject:
            raise _Reject(
                f'{name} must be "latitude,longitude", got '
                f"{json.dumps(args[name], ensure_ascii=False)}",
                f'{name} 格式应为"纬度,经度"，实际为 {json.dumps(args[name], ensure_ascii=False)}',
            ) from None


def _central(args: Mapping[str, Any], now: datetime) -> None:
    _price_needs_category(args, sort_too=False)
    _range("radius", args.get("radius", 10000), 100, 20000)
    if args.get("min_rating") is not None:
        _range("min_rating", args["min_rating"], 0, 10)
    _price(args)
    _range("limit", args.get("limit", 10), 1, None)
    origins = args["origins"]
    if not origins:
        raise _Reject("at least 2 origins are needed", "至少需要 2 个出发点坐标")
    if not isinstance(origins, str | list | dict):
        raise _crash("origins", origins)
    if len(origins) < 2:
        raise _Reject("at least 2 origins are needed", "至少需要 2 个出发点坐标")
    for i, point in enumerate(_iterate("origins", origins)):
        _pair(f"origins[{i}]", point, strip_first=True, floats=True)


def _ranking(args: Mapping[str, Any], now: datetime) -> None:
    _range("max_lists", args.get("max_lists", 5), 1, 10)
    _range("max_items", args.get("max_items", 3), 1, 20)


def _nothing(args: Mapping[str, Any], now: datetime) -> None:
    return None


_CHECKS: dict[str, Callable[[Mapping[str, Any], datetime], None]] = {
    "travel_search_flights": _flights,
    "travel_search_trains": _trains,
    "weather_current_conditions": _nothing,
    "weather_forecast_days": _forecast,
    "map_compute_routes": _routes,
    "map_search_places": _places,
    "map_search_along_route": _along,
    "map_search_central_places": _central,
    "map_search_ranking_list": _ranking,
    "web_search": _nothing,
}


def check_call(tool: str, args: Mapping[str, Any], now: datetime) -> Problem | None:
    """``None`` when the official harness accepts the call, else why it is rejected.

    Args:
        tool: One of the ten tool names.
        args: The decoded JSON object the model sent.
        now: The instance time (the row's ``time``).
    """
    spec = BY_NAME[tool]
    try:
        _keys(spec, args)
        _CHECKS[tool](args, now)
    except _Reject as exc:
        return exc.problem
    return None
