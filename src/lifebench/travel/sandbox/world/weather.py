"""Weather of the offline world: a climate from latitude and season, daily weather seeded by
(place, day) so that a day's forecast and its current conditions agree."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

from lifebench._util.text import Language
from lifebench.travel.sandbox.world import lexicon
from lifebench.travel.sandbox.world.common import now_of, rng_for
from lifebench.travel.sandbox.world.geo import locate


def _latitude(location: Any) -> tuple[float, Any]:
    place = locate(location)
    if place is None or place.latitude is None:
        return 31.0, str(location)
    return place.latitude, place.adcode


def _day(lat: float, key: Any, day: date, language: Language) -> dict[str, Any]:
    rng = rng_for("weather", key, day.isoformat())
    doy = day.timetuple().tm_yday
    mean = 27.0 - 0.85 * (lat - 18.0)
    swing = 3.5 + 0.5 * max(0.0, lat - 18.0)
    temp = mean - swing * math.cos(2 * math.pi * (doy - 200) / 365.25)
    high = round(temp + rng.uniform(2.5, 6.0))
    low = round(temp - rng.uniform(2.5, 6.5))
    weights = [
        5,
        5,
        3,
        2,
        2,
        1,
        1 if temp > 15 else 0,
        1 if temp < 2 else 0,
        1,
        1 if lat > 30 else 0,
    ]
    zh_c, en_c = rng.choices(lexicon.CONDITIONS, weights=weights)[0]
    wind = rng.randrange(8)
    level = rng.randint(1, 5)
    aqi = rng.randint(20, 160 if lat > 32 else 110)
    zh = language == "zh"
    return {
        "date": day.isoformat(),
        "condition": zh_c if zh else en_c,
        "low_c": low,
        "high_c": high,
        "wind": f"{lexicon.WINDS_ZH[wind]}{level}级"
        if zh
        else f"{lexicon.WINDS_EN[wind]} force {level}",
        "aqi": aqi,
        "air_quality": _aqi_label(aqi, language),
    }


def _aqi_label(aqi: int, language: Language) -> str:
    labels = (
        ("优", "good"),
        ("良", "moderate"),
        ("轻度污染", "unhealthy for sensitive groups"),
        ("中度污染", "unhealthy"),
    )
    index = 0 if aqi <= 50 else 1 if aqi <= 100 else 2 if aqi <= 150 else 3
    return labels[index][0 if language == "zh" else 1]


def current(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """weather_current_conditions."""
    now = now_of(time)
    lat, key = _latitude(args.get("location"))
    today = _day(lat, key, now.date(), language)
    phase = math.sin(math.pi * (now.hour - 6) / 12) if 6 <= now.hour <= 18 else -0.6
    temp = round(
        today["low_c"] + (today["high_c"] - today["low_c"]) * max(0.0, (phase + 0.6) / 1.6)
    )
    rng = rng_for("weather-now", key, now.isoformat())
    return {
        "location": str(args.get("location")),
        "observed_at": now.strftime("%Y-%m-%d %H:%M"),
        "condition": today["condition"],
        "temperature_c": temp,
        "feels_like_c": temp + rng.randint(-3, 1),
        "low_c": today["low_c"],
        "high_c": today["high_c"],
        "humidity_pct": rng.randint(35, 92),
        "wind": today["wind"],
        "aqi": today["aqi"],
        "air_quality": today["air_quality"],
    }


def forecast(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """weather_forecast_days: ``date`` and the ``days`` after it (default 1)."""
    now = now_of(time)
    try:
        first = datetime.strptime(str(args.get("date")), "%Y-%m-%d").date()  # noqa: DTZ007
    except ValueError:
        first = now.date()
    raw = args.get("days")
    extra = (
        int(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) and raw == raw else 1
    )
    lat, key = _latitude(args.get("location"))
    days = []
    for i in range(max(0, min(15, extra)) + 1):
        day = first + timedelta(days=i)
        if (day - now.date()).days > 15:
            break
        entry = _day(lat, key, day, language)
        entry["day_label"] = _label(day, now.date(), language)
        days.append(entry)
    return {"location": str(args.get("location")), "forecast": days}


def _label(day: date, today: date, language: Language) -> str:
    delta = (day - today).days
    if language == "zh":
        if delta == 0:
            return "今天"
        if delta == 1:
            return "明天"
        return lexicon.WEEKDAYS_ZH[day.weekday()]
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    return lexicon.WEEKDAYS_EN[day.weekday()]
