"""Place searches of the offline world: nearby / in an area, along a route, central to several
points, and ranking lists."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from lifebench._util.text import Language
from lifebench.travel.sandbox.world import lexicon
from lifebench.travel.sandbox.world.common import (
    make_place,
    now_of,
    price_of,
    rating_ok,
    rng_for,
)
from lifebench.travel.sandbox.world.geo import (
    haversine_km,
    locate,
    offset,
    parse_pair,
    random_point,
)


def _number(value: Any, default: float) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return default


def _limit(args: Mapping[str, Any], cap: int = 25) -> int:
    return max(1, min(cap, int(_number(args.get("limit"), 10))))


def _nothing(language: Language, what: str) -> dict[str, Any]:
    return {
        "count": 0,
        "places": [],
        "message": f"未找到与“{what}”相关的地点"
        if language == "zh"
        else f"no places found for '{what}'",
    }


def _filter(places: list[dict[str, Any]], args: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = [p for p in places if rating_ok(p, args.get("min_rating"))]
    low, high = args.get("price_min"), args.get("price_max")
    if isinstance(low, int | float) and not isinstance(low, bool):
        out = [p for p in out if price_of(p) >= low]
    if isinstance(high, int | float) and not isinstance(high, bool):
        out = [p for p in out if price_of(p) <= high]
    return out


def _sort(places: list[dict[str, Any]], sort_by: Any) -> list[dict[str, Any]]:
    if sort_by == "distance":
        return sorted(places, key=lambda p: (p.get("distance_m", 0), p["place_id"]))
    if sort_by == "rating:d":
        return sorted(places, key=lambda p: (-p["rating"], p["place_id"]))
    if sort_by == "price:a":
        return sorted(places, key=lambda p: (price_of(p), p["place_id"]))
    if sort_by == "price:d":
        return sorted(places, key=lambda p: (-price_of(p), p["place_id"]))
    return places


def search_places(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """map_search_places: around ``center`` (within ``radius``) or within ``region``."""
    query = str(args.get("query", ""))
    now = now_of(time)
    centre = parse_pair(args.get("center")) if args.get("center") else None
    radius_km = _number(args.get("radius"), 5000) / 1000
    if centre is None:
        place = locate(args.get("region")) if args.get("region") else None
        if place is None or place.latitude is None or place.longitude is None:
            return _nothing(language, query)
        centre, radius_km, anchor = (place.latitude, place.longitude), 8.0, None
    else:
        anchor = centre
    rng = rng_for("places", query, round(centre[0], 3), round(centre[1], 3), round(radius_km, 1))
    count = 3 + rng.randint(0, 9)
    places = []
    for i in range(count):
        point, _ = random_point(rng, centre, radius_km)
        places.append(
            make_place(
                rng_for("place", query, point, i), query, point, now, language, centre=anchor
            )
        )
    if anchor is not None and args.get("sort_by", "weight") == "weight":
        places.sort(key=lambda p: (p["distance_m"] * (5.2 - p["rating"]), p["place_id"]))
    places = _sort(_filter(places, args), args.get("sort_by"))[: _limit(args)]
    if not places:
        return _nothing(language, query)
    return {"count": len(places), "places": places}


def along_route(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """map_search_along_route: places near the straight path from origin to destination."""
    query = str(args.get("query", ""))
    start, end = parse_pair(args.get("origin")), parse_pair(args.get("destination"))
    if start is None or end is None:
        return _nothing(language, query)
    walking = args.get("transport_mode") == "walking"
    buffer_km = _number(args.get("buffer_radius"), 500 if walking else 2000) / 1000
    rng = rng_for("along", query, start, end, walking)
    total = haversine_km(start, end)
    count = min(_limit(args), 2 + int(total // 15) + rng.randint(0, 3))
    now = now_of(time)
    places = []
    for i in range(count):
        t = (i + rng.uniform(0.2, 0.8)) / count
        on_path = (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)
        point = offset(on_path, rng.uniform(0.05, 0.95) * buffer_km, rng.uniform(0, 360))
        place = make_place(rng_for("place", query, point, i), query, point, now, language)
        place["distance_from_origin_m"] = int(haversine_km(start, point) * 1000)
        place["detour_m"] = int(haversine_km(on_path, point) * 1000)
        places.append(place)
    if not places:
        return _nothing(language, query)
    return {"count": len(places), "route_distance_m": int(total * 1000 * 1.25), "places": places}


def central_places(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """map_search_central_places: places near the centroid of the origins."""
    query = str(args.get("query", ""))
    raw = args.get("origins") or []
    origins = [
        p for p in (parse_pair(o) for o in (raw.keys() if isinstance(raw, dict) else raw)) if p
    ]
    if len(origins) < 2:
        return _nothing(language, query)
    centroid = (
        sum(p[0] for p in origins) / len(origins),
        sum(p[1] for p in origins) / len(origins),
    )
    spread = max(haversine_km(centroid, p) for p in origins)
    radius_km = min(_number(args.get("radius"), 10000) / 1000, max(1.0, spread * 0.6))
    rng = rng_for("central", query, sorted(origins))
    now = now_of(time)
    places = []
    for i in range(4 + rng.randint(0, 8)):
        point, _ = random_point(rng, centroid, radius_km)
        place = make_place(rng_for("place", query, point, i), query, point, now, language)
        distances = [int(haversine_km(point, o) * 1000) for o in origins]
        place["average_distance_m"] = int(sum(distances) / len(distances))
        place["max_distance_m"] = max(distances)
        place["total_distance_m"] = sum(distances)
        places.append(place)
    places = _filter(places, args)
    key = {
        "min_max_distance": lambda p: (p["max_distance_m"], p["place_id"]),
        "total_distance": lambda p: (p["total_distance_m"], p["place_id"]),
    }.get(
        str(args.get("sort_by")),
        lambda p: (p["average_distance_m"] * (5.2 - p["rating"]), p["place_id"]),
    )
    places = sorted(places, key=key)[: _limit(args)]
    if not places:
        return _nothing(language, query)
    return {"count": len(places), "places": places}


def ranking_lists(args: Mapping[str, Any], time: str, language: Language) -> dict[str, Any]:
    """map_search_ranking_list: curated lists of an area."""
    query = str(args.get("query", ""))
    region = args.get("region")
    place = locate(region)
    if place is None or place.latitude is None or place.longitude is None:
        return {
            "lists": [],
            "message": "未找到该地区的榜单" if language == "zh" else "no lists for this area",
        }
    centre = (place.latitude, place.longitude)
    max_lists = max(1, min(10, int(_number(args.get("max_lists"), 5))))
    max_items = max(1, min(20, int(_number(args.get("max_items"), 3))))
    rng = rng_for("ranking", query, place.adcode)
    category = lexicon.category_of(query)
    label = category.zh if language == "zh" else category.en
    if category is lexicon.GENERIC:
        label = query
    kinds_zh = ("热门榜", "口碑榜", "必去榜", "新店榜", "人气榜")
    kinds_en = ("Trending", "Top Rated", "Must Go", "New Openings", "Most Popular")
    now = now_of(time)
    lists = []
    for li in range(min(max_lists, 2 + rng.randint(0, 3))):
        items = []
        for rank in range(1, max_items + 1):
            point, _ = random_point(rng, centre, 6.0)
            item = make_place(
                rng_for("rank", query, place.adcode, li, rank), query, point, now, language
            )
            item["rank"] = rank
            item["favourites"] = rng.randint(300, 60000)
            item["reason"] = (
                f"本地人常去的{label}，{item['features'][0]}"
                if language == "zh"
                else f"a local favourite {label}, {item['features'][0]}"
            )
            items.append(item)
        kind = (kinds_zh if language == "zh" else kinds_en)[li % 5]
        name = (
            f"{place.name}{label}{kind}" if language == "zh" else f"{place.name} {label} — {kind}"
        )
        lists.append({"list_name": name, "items": items})
    return {"count": len(lists), "lists": lists}
