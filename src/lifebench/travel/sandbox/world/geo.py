"""Geometry and places of the offline world: distances, points, and the nearest division."""

from __future__ import annotations

import math
import random
from functools import cache

from lifebench.travel.tools.regions import Place, region_table, resolve

EARTH_KM = 6371.0088


def haversine_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance in km between (lat, lng) points."""
    lat1, lng1, lat2, lng2 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    )
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def offset(point: tuple[float, float], km: float, bearing_deg: float) -> tuple[float, float]:
    """The point ``km`` away from ``point`` in direction ``bearing_deg`` (flat approximation)."""
    lat, lng = point
    dlat = km / 111.32 * math.cos(math.radians(bearing_deg))
    dlng = (
        km / (111.32 * max(0.2, math.cos(math.radians(lat)))) * math.sin(math.radians(bearing_deg))
    )
    return round(lat + dlat, 6), round(lng + dlng, 6)


def random_point(
    rng: random.Random, centre: tuple[float, float], radius_km: float
) -> tuple[tuple[float, float], float]:
    """A point within ``radius_km`` of ``centre`` and its distance in km."""
    km = radius_km * math.sqrt(rng.random()) * 0.95 + radius_km * 0.02
    point = offset(centre, km, rng.uniform(0, 360))
    return point, haversine_km(centre, point)


def parse_pair(text: object) -> tuple[float, float] | None:
    """(lat, lng) from a "lat,lng" string; None when it does not parse or is out of range."""
    if not isinstance(text, str):
        return None
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        lat, lng = float(parts[0].strip()), float(parts[1].strip())
    except ValueError:
        return None
    if not (math.isfinite(lat) and math.isfinite(lng)) or abs(lat) > 90 or abs(lng) > 180:
        return None
    return lat, lng


@cache
def _counties() -> tuple[Place, ...]:
    """County-level divisions, plus cities without counties (东莞市, 中山市, ...)."""
    table = region_table()
    located = [
        p
        for p in table.by_code.values()
        if p.own_centre and p.latitude is not None and p.longitude is not None
    ]
    parents = {p.adcode // 100 * 100 for p in located if p.adcode % 100 != 0}
    return tuple(
        p
        for p in located
        if p.adcode % 100 != 0
        or (p.adcode % 10000 != 0 and p.adcode not in parents and not _placeholder(p.name))
    )


def _placeholder(name: str) -> bool:
    return name.endswith("市辖区") or "直辖" in name or name in ("县", "重庆市郊县")


def nearest_division(point: tuple[float, float]) -> Place:
    """The division (city or county) whose centre is nearest to ``point``."""
    best = min(
        _counties(),
        key=lambda p: (haversine_km(point, (p.latitude or 0.0, p.longitude or 0.0)), p.adcode),
    )
    return best


def locate(name: object) -> Place | None:
    """A division for a free-form place name: exact or unique suffix match, then the name
    with 市 appended, then the shortest full name containing it; None when nothing fits."""
    if not isinstance(name, str) or not name.strip():
        return None
    text = name.strip()
    for candidate in (text, text + "市"):
        outcome = resolve(candidate)
        if outcome.resolved is not None:
            return _with_centre(outcome.resolved)
        if outcome.matches:
            return _with_centre(outcome.matches[0])
    containing = sorted(
        (p for full, p in region_table().by_full_name.items() if text in full),
        key=lambda p: (len(p.full_name), p.full_name),
    )
    return _with_centre(containing[0]) if containing else None


def _with_centre(place: Place) -> Place | None:
    if place.latitude is None or place.longitude is None:
        return None
    return place


def city_of(place: Place) -> str:
    """The city-level short name of a division ('杭州' for '浙江省杭州市西湖区')."""
    table = region_table()
    city = table.by_code.get(place.adcode // 100 * 100)
    if city is None or city.adcode % 10000 == 0 or _placeholder(city.name):
        city = table.by_code.get(place.adcode // 10000 * 10000)
    name = place.name if place.adcode % 10000 == 0 or city is None else city.name
    for suffix in ("特别行政区", "自治州", "地区", "市", "盟"):
        if name.endswith(suffix) and len(name) > len(suffix) + 1:
            return name[: -len(suffix)]
    return name


def district_of(place: Place) -> str:
    """The division's own name ('西湖区')."""
    return place.name
