"""Trains and flights of the offline world: schedules between the two places' real coordinates,
per day, seeded by (origin, destination, day) so a day's timetable never changes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from lifebench._util.text import Language
from lifebench.travel.sandbox.world import lexicon
from lifebench.travel.sandbox.world.common import now_of, rng_for
from lifebench.travel.sandbox.world.geo import city_of, haversine_km, locate


def _days(args: Mapping[str, Any], default: int) -> int:
    value = args.get("days", default)
    if isinstance(value, int | float) and not isinstance(value, bool) and value == value:
        return max(0, min(15, int(value)))
    return default


def _start(args: Mapping[str, Any], time: str) -> datetime:
    try:
        return datetime.strptime(str(args.get("date")), "%Y-%m-%d")  # noqa: DTZ007 - naive clock
    except ValueError:
        return now_of(time)


def _ends(args: Mapping[str, Any], language: Language) -> tuple[Any, Any, str] | None:
    a, b = locate(args.get("origin")), locate(args.get("destination"))
    if a is None or b is None:
        return None
    if a.adcode == b.adcode:
        return None
    return a, b, ""


def _clock(day: datetime, minutes: int) -> str:
    return (day + timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M")


def trains(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """travel_search_trains."""
    ends = _ends(args, language)
    zh = language == "zh"
    if ends is None:
        return {"trains": [], "message": "未查询到车次" if zh else "no trains found"}
    a, b, _ = ends
    km = haversine_km((a.latitude, a.longitude), (b.latitude, b.longitude)) * 1.2
    ca, cb = city_of(a), city_of(b)
    start = _start(args, time)
    out = []
    for d in range(_days(args, 0) + 1):
        day = start + timedelta(days=d)
        rng = rng_for("trains", a.adcode, b.adcode, day.date().isoformat())
        fast = km > 120
        for _ in range(min(12, 3 + rng.randint(0, 6) + (3 if fast else 0))):
            kind = rng.choice("GGD") if fast else rng.choice("KTZ")
            speed, per_km = {
                "G": (260, 0.46),
                "D": (190, 0.31),
                "K": (75, 0.14),
                "T": (90, 0.16),
                "Z": (100, 0.18),
            }[kind]
            leave = rng.randint(6 * 60, 21 * 60 + 30)
            minutes = int(km / speed * 60 + rng.randint(5, 40))
            suffix_a = rng.choice(("", "东", "南", "西", "北")) if fast else ""
            suffix_b = rng.choice(("", "东", "南", "西", "北")) if fast else ""
            direct = km < 1500 or rng.random() < 0.7
            out.append(
                {
                    "train_no": f"{kind}{rng.randint(1, 9899)}",
                    "direct": direct,
                    "from_station": f"{ca}{suffix_a}站"
                    if zh
                    else f"{ca} {suffix_a or ''} Station".replace("  ", " "),
                    "to_station": f"{cb}{suffix_b}站"
                    if zh
                    else f"{cb} {suffix_b or ''} Station".replace("  ", " "),
                    "departure": _clock(day, leave),
                    "arrival": _clock(day, leave + minutes),
                    "duration_min": minutes,
                    "fare_cny": {
                        "second_class" if kind in "GD" else "hard_seat": round(km * per_km, 1),
                        "first_class" if kind in "GD" else "hard_sleeper": round(
                            km * per_km * 1.6, 1
                        ),
                    },
                    "seats_left": rng.choice(("有", "少量", "无"))
                    if zh
                    else rng.choice(("available", "few", "sold out")),
                }
            )
    out.sort(key=lambda t: (t["departure"], t["train_no"]))
    return {"count": len(out), "trains": out}


def flights(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """travel_search_flights."""
    ends = _ends(args, language)
    zh = language == "zh"
    if ends is None:
        return {"flights": [], "message": "未查询到航班" if zh else "no flights found"}
    a, b, _ = ends
    km = haversine_km((a.latitude, a.longitude), (b.latitude, b.longitude))
    ca, cb = city_of(a), city_of(b)
    start = _start(args, time)
    out = []
    for d in range(_days(args, 0) + 1):
        day = start + timedelta(days=d)
        rng = rng_for("flights", a.adcode, b.adcode, day.date().isoformat())
        count = 0 if km < 250 else 2 + rng.randint(0, 6) + (3 if km > 900 else 0)
        for _ in range(count):
            code, zh_name, en_name = rng.choice(lexicon.AIRLINES)
            leave = rng.randint(6 * 60 + 30, 22 * 60)
            connecting = km > 1800 and rng.random() < 0.25
            minutes = int(km / 720 * 60 + 35 + (150 if connecting else 0))
            base = km * rng.uniform(0.45, 0.95) + 150
            out.append(
                {
                    "flight_no": f"{code}{rng.randint(1000, 9899)}",
                    "airline": zh_name if zh else en_name,
                    "from_airport": f"{ca}机场" if zh else f"{ca} Airport",
                    "to_airport": f"{cb}机场" if zh else f"{cb} Airport",
                    "departure": _clock(day, leave),
                    "arrival": _clock(day, leave + minutes),
                    "duration_min": minutes,
                    "stops": 1 if connecting else 0,
                    "aircraft": rng.choice(lexicon.AIRCRAFT),
                    "price_cny": {
                        "min": int(base * 0.55) // 10 * 10,
                        "max": int(base * 1.9) // 10 * 10,
                    },
                }
            )
    out.sort(key=lambda f: (f["departure"], f["flight_no"]))
    if not out:
        message = (
            "两地之间没有直达航班，建议乘坐火车或驾车"
            if zh
            else "no flights between these places; consider the train or driving"
        )
        return {"count": 0, "flights": [], "message": message}
    return {"count": len(out), "flights": out}
