"""``user_historical_behaviors`` of an OTA task: profile head, hotel stays and transport habits.

The sections follow the bundled OTA tasks ("hotel stays" / "酒店住宿", "transport" / "交通出行").
The recent bookings open with the hotel of a "usual hotel" sub-goal; every other entry names an
invented hotel that is not in the task and shares no name prefix with a hotel of the task, so
"the hotel I stayed at last time" is never ambiguous. Preferences agree with the sub-goals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.generate.ota.context import Context, Goal
from lifebench.vita.generate.ota.goal_hotel import HotelGoal, UsualHotelGoal
from lifebench.vita.generate.ota.goal_transport import TransportGoal
from lifebench.vita.generate.ota.model import HotelDraft, Provider
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import CITIES
from lifebench.vita.generate.pools.travel import (
    BEDS,
    HOTEL_PREFIXES,
    HOTEL_STYLES,
    PREFERRED_TRANSPORT,
    ROOM_TYPES,
    TRAIN_SEATS,
)
from lifebench.vita.generate.world import pick

_KEYS: Mapping[str, Bi] = MappingProxyType(
    {
        "hotel": Bi("hotel stays", "酒店住宿"),
        "rating": Bi("preferred hotel rating", "偏好酒店评分"),
        "cost": Bi("cost per night", "每晚花费"),
        "rooms": Bi("preferred room types", "偏好房型"),
        "recent": Bi("recent bookings", "最近预订"),
        "hotel_name": Bi("hotel", "酒店"),
        "room": Bi("room", "房型"),
        "search": Bi("search history", "搜索历史"),
        "transport": Bi("transport", "交通出行"),
        "mode": Bi("preferred transport", "偏好交通方式"),
        "seat": Bi("preferred seat class", "偏好座位等级"),
        "trips": Bi("recent trips", "最近出行"),
    }
)


@dataclass(frozen=True)
class HistoryDraft:
    """The two sections, language-neutral."""

    rating: float
    cost: tuple[int, int]
    rooms: tuple[Bi, ...]
    stays: tuple[tuple[Bi, Bi], ...]
    hotel_search: tuple[Bi, ...]
    mode: Bi
    seat: Bi
    trips: tuple[Bi, ...]
    trip_search: tuple[Bi, ...]


def _invented_hotel(ctx: Context, providers: list[Provider]) -> Bi:
    """A hotel name not in the task whose prefix no hotel of the task uses."""
    used = {p.title.en.split(" ")[0] for p in providers if isinstance(p, HotelDraft)}
    free = [p for p in HOTEL_PREFIXES if p.en not in used]
    for _ in range(200):
        prefix, style = pick(ctx.rng, free), pick(ctx.rng, HOTEL_STYLES)
        name = Bi(f"{prefix.en} {style.name.en}", f"{prefix.zh}{style.name.zh}")
        if ctx.claim(name):
            return name
    raise AssertionError("no free hotel name for the history")  # pragma: no cover


def draft_history(ctx: Context, goals: list[Goal], providers: list[Provider]) -> HistoryDraft:
    """Preferences consistent with the sub-goals; recent stays led by the usual hotel."""
    rng = ctx.rng
    hotel = next((g for g in goals if isinstance(g, HotelGoal)), None)
    usual = next((g for g in goals if isinstance(g, UsualHotelGoal)), None)
    ride = next((g for g in goals if isinstance(g, TransportGoal)), None)
    rating = hotel.min_score if hotel and hotel.min_score else pick(rng, (4.0, 4.3, 4.5, 4.6))
    low = rng.randint(2, 5) * 100
    cost = (low, low + rng.randint(2, 4) * 100)
    if hotel is not None and hotel.cap is not None:
        cost = (max(100, 100 * (hotel.cap // 100 - rng.randint(2, 4))), hotel.cap)
    bed = hotel.bed if hotel is not None and hotel.bed is not None else pick(rng, tuple(BEDS))
    stays: list[tuple[Bi, Bi]] = []
    if usual is not None:
        stays.append(usual.recent())
    for _ in range(rng.randint(1, 2)):
        stays.append((_invented_hotel(ctx, providers), pick(rng, ROOM_TYPES).name))
    hotel_search = [pick(rng, CITIES).name + Bi(" hotel", "酒店")]
    if hotel is not None:
        hotel_search = [hotel.city.name + Bi(" hotel", "酒店")]
        if hotel.tag is not None:
            hotel_search.append(hotel.tag)
    if ride is not None:
        seat = ride.seat.name
        search: tuple[Bi, ...] = (ride.origin.name + Bi(" to ", "到") + ride.dest.name,)
    else:
        seat = pick(rng, TRAIN_SEATS).name
        search = ()
    trips = []
    claimed = {c.name.en for c in ctx.cities}
    for _ in range(rng.randint(1, 2)):
        other = pick(rng, [c for c in CITIES if c.name.en not in claimed])
        trips.append(ctx.home.name + Bi(" to ", "到") + other.name)
    return HistoryDraft(
        rating=rating,
        cost=cost,
        rooms=(BEDS[bed][0],),
        stays=tuple(stays),
        hotel_search=tuple(hotel_search),
        mode=pick(rng, PREFERRED_TRANSPORT),
        seat=seat,
        trips=tuple(trips),
        trip_search=search,
    )


def render_history(ctx: Context, draft: HistoryDraft, language: Language) -> dict[str, Any]:
    """Profile head, then the hotel and transport sections under their official-style keys."""

    def key(name: str) -> str:
        """The key ``name`` in the task language."""
        return _KEYS[name].get(language)

    zh = language == "zh"
    rating = f"{draft.rating:g}分及以上" if zh else f"{draft.rating:g} and above"
    cost = f"{draft.cost[0]}~{draft.cost[1]}{'元' if zh else ' yuan'}"
    history: dict[str, Any] = dict(ctx.persona.history_head(language))
    history[key("hotel")] = {
        key("rating"): rating,
        key("cost"): cost,
        key("rooms"): [r.get(language) for r in draft.rooms],
        key("recent"): [
            {key("hotel_name"): h.get(language), key("room"): r.get(language)}
            for h, r in draft.stays
        ],
        key("search"): [s.get(language) for s in draft.hotel_search],
    }
    history[key("transport")] = {
        key("mode"): draft.mode.get(language),
        key("seat"): draft.seat.get(language),
        key("trips"): [t.get(language) for t in draft.trips],
        key("search"): [s.get(language) for s in draft.trip_search],
    }
    return history
