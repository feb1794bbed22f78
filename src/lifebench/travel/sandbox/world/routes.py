"""Route planning of the offline world: distance from haversine times a detour factor, duration
from the mode's speed (and the hour's traffic when asked), plus the details per mode."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from lifebench._util.text import Language
from lifebench.travel.sandbox.world import lexicon
from lifebench.travel.sandbox.world.common import now_of, rng_for
from lifebench.travel.sandbox.world.geo import haversine_km, parse_pair

# mode → (detour factor, km/h in town, km/h over long distances, zh label, en label)
MODES: dict[str, tuple[float, float, float, str, str]] = {
    "driving": (1.3, 32.0, 85.0, "驾车", "driving"),
    "walking": (1.2, 4.8, 4.8, "步行", "walking"),
    "bicycling": (1.25, 14.0, 15.0, "骑行", "cycling"),
    "transit": (1.35, 20.0, 60.0, "公交", "public transit"),
    "motorcycle": (1.28, 30.0, 70.0, "摩托车", "motorcycle"),
    "truck": (1.32, 28.0, 70.0, "货车", "truck"),
}
_PREFERENCE_FACTOR = {
    "prefer_highways": (0.97, 1.06),
    "avoid_highways": (1.08, 0.8),
    "avoid_tolls": (1.05, 0.88),
    "prefer_main_roads": (1.02, 0.95),
    "avoid_highways+avoid_tolls": (1.1, 0.78),
}


def _when(value: Any, now: datetime) -> datetime:
    if isinstance(value, str) and value.strip():
        try:
            return datetime.fromisoformat(value.strip().replace("Z", "")).replace(tzinfo=None)
        except ValueError:
            return now
    return now


def _rush(hour: int) -> float:
    return 1.45 if hour in (7, 8, 9, 17, 18, 19) else 1.0


def _leg(
    mode: str,
    km_line: float,
    args: Mapping[str, Any],
    start: datetime,
    language: Language,
    seed: Any,
) -> dict[str, Any]:
    rng = rng_for("route", mode, seed)
    detour, town, far, zh_label, en_label = MODES[mode]
    km = km_line * detour * rng.uniform(0.97, 1.05)
    preference = args.get("preference") if mode in ("driving", "motorcycle", "truck") else None
    dist_f, speed_f = _PREFERENCE_FACTOR.get(str(preference), (1.0, 1.0))
    km *= dist_f
    speed = (town if km < 25 else far) * (speed_f if km >= 25 else 1.0)
    hours = km / speed
    traffic = bool(args.get("traffic_aware")) and mode in ("driving", "motorcycle", "truck")
    if mode in ("driving", "motorcycle", "truck"):
        hours *= _rush(start.hour) if traffic else 1.12
    if mode == "transit":
        hours += 8 / 60 + (0.1 if km > 10 else 0)
    minutes = max(1, round(hours * 60))
    zh = language == "zh"
    leg: dict[str, Any] = {
        "mode": zh_label if zh else en_label,
        "distance_m": int(km * 1000),
        "duration_min": minutes,
        "eta": (start + timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M"),
    }
    if mode in ("driving", "motorcycle", "truck"):
        leg["route_type"] = ("时间优先" if zh else "fastest") if not preference else str(preference)
        leg["traffic_lights"] = int(min(km, 30) * rng.uniform(0.8, 1.8))
        roads = lexicon.ROADS_ZH if zh else lexicon.ROADS_EN
        leg["roads"] = rng.sample(roads, 2 if km > 30 else 1)
        if km > 50 and preference not in ("avoid_tolls", "avoid_highways+avoid_tolls"):
            leg["tolls_cny"] = int(km * 0.45)
        congested = km * rng.uniform(0.02, 0.15) * (_rush(start.hour) - 0.9) if traffic else 0.0
        leg["congestion"] = {
            "distance_m": int(congested * 1000),
            "duration_min": int(congested * 4),
        }
    elif mode == "transit":
        lines = 1 + (km > 8) + (km > 25)
        leg["fare_cny"] = min(2 + int(km // 6), 12) if km < 60 else int(km * 0.35)
        leg["transfers"] = lines - 1
        leg["plan"] = [
            (f"地铁{rng.randint(1, 12)}号线" if i % 2 == 0 else f"{rng.randint(10, 399)}路公交")
            if zh
            else (
                f"Metro Line {rng.randint(1, 12)}" if i % 2 == 0 else f"Bus {rng.randint(10, 399)}"
            )
            for i in range(lines)
        ]
        leg["walking_m"] = rng.randint(300, 1500)
    return leg


def compute_routes(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """map_compute_routes."""
    points = [parse_pair(args.get("origin"))]
    waypoints = args.get("intermediates") or []
    if isinstance(waypoints, list):
        points += [parse_pair(w) for w in waypoints]
    points.append(parse_pair(args.get("destination")))
    if any(p is None for p in points):
        message = (
            "无法解析坐标，请使用“纬度,经度”"
            if language == "zh"
            else "coordinates could not be read; use 'latitude,longitude'"
        )
        return {"routes": [], "message": message}
    km_line = sum(haversine_km(a, b) for a, b in pairwise(points) if a and b)
    now = now_of(time)
    start = _when(args.get("departure_time"), now)
    modes = args.get("modes") or ["driving"]
    if isinstance(modes, str):
        modes = [modes]
    routes = []
    for mode in (m for m in modes if m in MODES):
        leg = _leg(
            mode, km_line, args, start, language, (tuple(points), str(args.get("preference")))
        )
        if args.get("arrival_time"):
            arrive = _when(args.get("arrival_time"), now)
            leave = arrive - timedelta(minutes=leg["duration_min"])
            leg["suggested_departure"] = leave.strftime("%Y-%m-%d %H:%M")
            leg["eta"] = arrive.strftime("%Y-%m-%d %H:%M")
        routes.append(leg)
    return {"routes": routes}
