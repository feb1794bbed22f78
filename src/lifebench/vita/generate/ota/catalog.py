"""Making providers and their dated products: unique names and numbers, addresses, prices.

Every product is one variant (room type, ticket type, seat class) on one date. Sub-goals add
the products their constraints are about; :meth:`Catalog.fill` then completes each provider
with products on *other* dates of its window, which can never satisfy a sub-goal's date.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from datetime import date, timedelta

from lifebench.vita.generate.ota.context import Context, city_km
from lifebench.vita.generate.ota.model import (
    AttractionDraft,
    FlightDraft,
    HotelDraft,
    ProductDraft,
    Provider,
    TrainDraft,
    TransportDraft,
)
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.pools.travel import (
    AIRLINES,
    ATTRACTION_KINDS,
    ATTRACTION_PREFIXES,
    BRANCHES,
    FLIGHT_TAGS,
    HOTEL_FEATURES,
    HOTEL_PREFIXES,
    HOTEL_STYLES,
    HUBS,
    TRAIN_KINDS,
    TRAIN_TAGS,
    AttractionKind,
    HotelStyle,
    Variant,
)
from lifebench.vita.generate.world import Place, pick, place_around

EARLIEST_DEPARTURE = 6 * 60 + 30
"""Earliest departure of a flight or train (minutes after midnight)."""
LATEST_ARRIVAL = 23 * 60 + 40
"""Latest same-day arrival."""


def nice(value: float) -> int:
    """A price as an OTA shows it: a whole number ending in 0, 8 or 9 when above 100."""
    if value < 100:
        return max(1, round(value))
    base = 10 * round(value / 10)
    return base - (2 if base % 30 == 0 else 1 if base % 70 == 0 else 0)


def price_in(ctx: Context, lo: float, hi: float) -> int:
    """A :func:`nice` price within [lo, hi] (``lo`` when the range is too narrow)."""
    for _ in range(20):
        price = nice(ctx.rng.uniform(lo, hi))
        if lo <= price <= hi:
            return price
    return math.ceil(lo)


def window(today: date, center: date, size: int) -> list[date]:
    """``size`` consecutive dates around ``center`` (two before when possible), none before
    tomorrow."""
    start = max(center - timedelta(days=2), today + timedelta(days=1))
    return [start + timedelta(days=i) for i in range(size)]


def duration(kind: str, km: float) -> int:
    """Travel time in minutes (multiple of 5) of a flight or a high-speed train over ``km``."""
    minutes = 50 + km / 13.3 if kind == "flight" else 20 + km / 4.0
    return 5 * round(minutes / 5)


def base_fare(kind: str, km: float) -> float:
    """Economy / second-class fare over ``km``."""
    return 260 + 0.55 * km if kind == "flight" else 15 + 0.46 * km


class Catalog:
    """Providers of one task: names unique in both languages, numbers unique, addresses distinct."""

    def __init__(self, ctx: Context) -> None:
        """A catalog drawing from ``ctx``'s random source."""
        self.ctx = ctx
        self.rng = ctx.rng

    # ---- places ------------------------------------------------------------------------------

    def venue(self, city: City, lo_km: float = 1.0, hi_km: float = 9.0) -> Place:
        """A street address in ``city``, ``lo_km``–``hi_km`` from its centre."""
        centre = Place(Bi("", ""), city.longitude, city.latitude)
        return place_around(
            self.rng, centre, self.ctx.book(city).venue(), lo_km * 1000, hi_km * 1000
        )

    @staticmethod
    def terminal(city: City, kind: str) -> Place:
        """The airport (flights) or railway station (trains) of ``city``."""
        hubs = HUBS[city.name.en]
        hub = hubs.airport if kind == "flight" else hubs.station
        assert hub is not None, f"{city.name.en} has no airport"
        return Place(hub.address, hub.longitude, hub.latitude)

    # ---- names -------------------------------------------------------------------------------

    def hotel_name(self, style: HotelStyle | None = None) -> tuple[Bi, Bi, HotelStyle]:
        """A fresh hotel name with its prefix and style."""
        for _ in range(500):
            prefix = pick(self.rng, HOTEL_PREFIXES)
            chosen = style or pick(self.rng, HOTEL_STYLES)
            name = Bi(f"{prefix.en} {chosen.name.en}", f"{prefix.zh}{chosen.name.zh}")
            if self.ctx.claim(name):
                return name, prefix, chosen
        raise AssertionError("hotel names exhausted")  # pragma: no cover

    def lookalike(self, name: Bi, prefix: Bi) -> Bi:
        """A fresh name easy to confuse with ``name``: same prefix and another style, or a
        branch of the same name."""
        candidates = [
            Bi(f"{prefix.en} {s.name.en}", f"{prefix.zh}{s.name.zh}") for s in HOTEL_STYLES
        ]
        candidates += [Bi(f"{name.en} ({b.en} Branch)", f"{name.zh}（{b.zh}店）") for b in BRANCHES]
        self.rng.shuffle(candidates)
        for candidate in candidates:
            if self.ctx.claim(candidate):
                return candidate
        raise AssertionError("no look-alike name left")  # pragma: no cover

    def attraction_name(self, kind: AttractionKind, city: City) -> Bi:
        """A fresh attraction name of ``kind`` (city name or a place-name prefix + template)."""
        for _ in range(500):
            template = pick(self.rng, kind.names)
            p = city.name if self.rng.random() < 0.3 else pick(self.rng, ATTRACTION_PREFIXES)
            name = template.format(p=p)
            if self.ctx.claim(name):
                return name
        raise AssertionError("attraction names exhausted")  # pragma: no cover

    def number(self, prefix: str, lo: int, hi: int) -> str:
        """A fresh flight / train number ``prefix`` + digits."""
        while True:
            value = f"{prefix}{self.rng.randint(lo, hi)}"
            if value not in self.ctx.numbers:
                self.ctx.numbers.add(value)
                return value

    # ---- providers ---------------------------------------------------------------------------

    def hotel(
        self,
        city: City,
        *,
        owner: int | None,
        role: str,
        score: float,
        stars: int,
        tags: Iterable[Bi],
        name: Bi | None = None,
    ) -> HotelDraft:
        """A hotel in ``city`` (a fresh name of a style fitting ``stars`` unless given)."""
        if name is None:
            styles = [s for s in HOTEL_STYLES if s.stars[0] <= stars <= s.stars[1]]
            name = self.hotel_name(pick(self.rng, styles))[0]
        return HotelDraft(
            owner=owner,
            role=role,
            name=name,
            city=city,
            place=self.venue(city),
            score=round(score, 1),
            stars=stars,
            tags=tuple(tags),
        )

    def hotel_tags(self, required: Bi | None, banned: Bi | None) -> list[Bi]:
        """2–4 facility tags, including ``required`` and never ``banned``."""
        pool = [t for t in HOTEL_FEATURES if t not in (required, banned)]
        self.rng.shuffle(pool)
        tags = pool[: self.rng.randint(1, 3)]
        if required is not None:
            tags.insert(self.rng.randint(0, len(tags)), required)
        return tags

    def attraction(
        self,
        city: City,
        kind: AttractionKind,
        *,
        owner: int | None,
        role: str,
        score: float,
        list_price: int,
    ) -> AttractionDraft:
        """An attraction of ``kind`` in ``city``."""
        return AttractionDraft(
            owner=owner,
            role=role,
            name=self.attraction_name(kind, city),
            city=city,
            category=kind,
            place=self.venue(city, 2.0, 25.0),
            description=pick(self.rng, kind.descriptions),
            score=round(score, 1),
            hours=pick(self.rng, kind.hours),
            list_price=list_price,
        )

    def other_kind(self, kind: AttractionKind) -> AttractionKind:
        """Another attraction kind."""
        return pick(self.rng, [k for k in ATTRACTION_KINDS if k.key != kind.key])

    def departure_range(self, kind: str, origin: City, dest: City) -> tuple[int, int]:
        """Earliest and latest departure (minutes) that arrive the same day."""
        latest = min(21 * 60 + 30, LATEST_ARRIVAL - duration(kind, city_km(origin, dest)))
        return EARLIEST_DEPARTURE, latest

    def transport(
        self,
        kind: str,
        origin: City,
        dest: City,
        depart: int,
        *,
        owner: int | None,
        role: str,
    ) -> TransportDraft:
        """A flight or train from ``origin`` to ``dest`` leaving at ``depart`` (minutes)."""
        depart = 5 * (depart // 5)
        arrive = depart + duration(kind, city_km(origin, dest))
        start, end = self.terminal(origin, kind), self.terminal(dest, kind)
        extra = [pick(self.rng, FLIGHT_TAGS if kind == "flight" else TRAIN_TAGS)]
        extra = extra if self.rng.random() < 0.5 else []
        if kind == "flight":
            airline = pick(self.rng, AIRLINES)
            return FlightDraft(
                owner=owner,
                role=role,
                number=self.number(airline.code, 1001, 9899),
                origin=origin,
                dest=dest,
                depart=depart,
                arrive=arrive,
                tags=(airline.name, *extra),
                departure_place=start,
                arrival_place=end,
            )
        letter, tag = pick(self.rng, TRAIN_KINDS)
        return TrainDraft(
            owner=owner,
            role=role,
            number=self.number(letter, 1, 2999),
            origin=origin,
            dest=dest,
            depart=depart,
            arrive=arrive,
            tags=(tag, *extra),
            departure_place=start,
            arrival_place=end,
        )

    # ---- products ----------------------------------------------------------------------------

    def fill(
        self,
        provider: Provider,
        variants: Sequence[Variant],
        days: Sequence[date],
        avoid: Iterable[date],
        price_of: Callable[[Variant, date], int],
        stock: tuple[int, int] = (1, 30),
    ) -> None:
        """Add products (variant × day, skipping the ``avoid`` days and pairs already offered)
        until the provider has ``ctx.products`` of them; then sort them by date."""
        have = {(p.variant.key, p.day) for p in provider.products}
        skip = set(avoid)
        slots = [(v, d) for d in days if d not in skip for v in variants if (v.key, d) not in have]
        self.rng.shuffle(slots)
        for variant, day in slots[: max(0, self.ctx.products - len(provider.products))]:
            quantity = self.rng.randint(*stock) if self.rng.random() < 0.9 else 0
            provider.products.append(
                ProductDraft(
                    variant=variant, day=day, price=price_of(variant, day), quantity=quantity
                )
            )
        provider.sort_products()
