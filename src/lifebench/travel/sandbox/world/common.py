"""Shared pieces of the offline world: seeded randomness, places and opening hours."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from lifebench._util.hashing import derive_seed, stable_hash
from lifebench._util.text import Language
from lifebench.travel.sandbox.world import lexicon
from lifebench.travel.sandbox.world.geo import city_of, haversine_km, nearest_division
from lifebench.travel.task import parse_time


def rng_for(*parts: Any) -> random.Random:
    """A random generator seeded from ``parts`` (stable across runs and machines)."""
    return random.Random(derive_seed("travel-world", *parts))


def now_of(time: str) -> datetime:
    """The instance time (the row's time; a malformed one falls back to a fixed date)."""
    try:
        return parse_time(time)
    except ValueError:
        return datetime(2025, 10, 1, 12, 0)  # noqa: DTZ001 - the world has no time zone


def is_open(hours: str, now: datetime) -> bool:
    """Whether 'HH:MM-HH:MM[,HH:MM-HH:MM]' hours include ``now`` (past-midnight spans too)."""
    minute = now.hour * 60 + now.minute
    for span in hours.split(","):
        start_text, _, end_text = span.partition("-")
        start, end = _minutes(start_text), _minutes(end_text)
        if start <= end and start <= minute < end:
            return True
        if start > end and (minute >= start or minute < end):
            return True
    return False


def _minutes(text: str) -> int:
    hour, _, minute = text.strip().partition(":")
    return int(hour) * 60 + int(minute or 0)


def place_id(*parts: Any) -> str:
    """A stable place id."""
    return "B0" + stable_hash(list(parts), 10).upper()


def make_place(
    rng: random.Random,
    query: str,
    point: tuple[float, float],
    now: datetime,
    language: Language,
    *,
    centre: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """One plausible place of the query's category at ``point``."""
    category = lexicon.category_of(query)
    division = nearest_division(point)
    city, district = city_of(division), division.name
    zh = language == "zh"
    stem = rng.choice(category.stems_zh if zh else category.stems_en)
    if category is lexicon.GENERIC:
        stem = query.strip()[:12] or ("地点" if zh else "Place")
    street = rng.choice(lexicon.STREETS_ZH if zh else lexicon.STREETS_EN)
    number = rng.randint(1, 899)
    if zh:
        prefix = (
            rng.choice(lexicon.PREFIXES_ZH)
            if category in (lexicon.GENERIC,) or rng.random() < 0.3
            else ""
        )
        name = f"{prefix}{stem}({district}{street}店)"
        address = f"{division.full_name}{street}{number}号"
    else:
        prefix = (
            rng.choice(lexicon.PREFIXES_EN) + " "
            if rng.random() < 0.3 or category is lexicon.GENERIC
            else ""
        )
        name = f"{prefix}{stem} ({street}, {district})"
        address = f"No. {number} {street}, {division.full_name}"
    hours = rng.choice(category.hours)
    low, high = category.spend
    spend = rng.randint(low, high) if high else 0
    place: dict[str, Any] = {
        "place_id": place_id(name, point),
        "name": name,
        "category": category.zh if zh else category.en,
        "address": address,
        "city": city,
        "location": f"{point[0]:.6f},{point[1]:.6f}",
        "rating": round(rng.uniform(3.6, 4.9), 1),
        "average_cost" if category.price_kind == "average_cost" else "price": spend,
        "opening_hours": hours,
        "open_now": is_open(hours, now),
        "features": rng.sample(lexicon.FEATURES_ZH if zh else lexicon.FEATURES_EN, 2),
        "review": rng.choice(lexicon.REVIEWS_ZH if zh else lexicon.REVIEWS_EN),
        "phone": f"0{rng.randint(10, 999)}-{rng.randint(1000000, 89999999)}",
    }
    if centre is not None:
        place["distance_m"] = int(haversine_km(centre, point) * 1000)
    return place


def price_of(place: Mapping[str, Any]) -> int:
    """The place's spend or price."""
    return int(place.get("average_cost", place.get("price", 0)) or 0)


def rating_ok(place: Mapping[str, Any], min_rating: Any) -> bool:
    """Whether a place passes a min_rating filter (0-10; values above 5 mean a 10-point scale)."""
    if not isinstance(min_rating, int | float) or isinstance(min_rating, bool):
        return True
    rating = float(place["rating"])
    return rating * 2 >= min_rating if min_rating > 5 else rating >= min_rating
