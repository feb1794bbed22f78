"""Hotel sub-goals: a night under constraints, and "my usual hotel" from the booking history.

``hotel``: one room for one night in the trip's city under a rating, star, facility, bed and
price constraint (a subset of them), among 1–2 targets and distractors that each break exactly
one: another city, a lower rating or star level, no such facility, no room of that bed kind or
within the price that night, the fitting room sold out that night, or no room that night at all.

``usual_hotel``: the hotel of the user's last stay in a city (``user_historical_behaviors``),
the same room type, past a look-alike hotel of the same city (and sometimes a hotel of the very
same name in another city); sometimes that room type is full and the cheapest other room type
of the hotel is the answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import date, timedelta
from typing import ClassVar

from lifebench.vita.generate.ota import text
from lifebench.vita.generate.ota.catalog import Catalog, nice, price_in, window
from lifebench.vita.generate.ota.context import Context, Goal, SelectionGoal
from lifebench.vita.generate.ota.dates import When, describe
from lifebench.vita.generate.ota.model import Booking, HotelDraft, ProductDraft, Provider
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.pools.travel import (
    BEDS,
    REQUESTABLE_FEATURES,
    ROOM_TYPES,
    STAR_PRICES,
    UNPAID_REASONS,
    Variant,
)
from lifebench.vita.generate.world import pick, weighted

MIN_SCORES: tuple[float, ...] = (4.3, 4.4, 4.5, 4.6, 4.7)
"""Minimum ratings a user may ask for."""
ROOM_TYPES_PER_HOTEL = 3


def weekend(day: date) -> float:
    """Price factor of a night: Friday and Saturday nights are dearer."""
    return 1.12 if day.weekday() in (4, 5) else 1.0


def room_price(stars: int, variant: Variant, day: date) -> int:
    """The usual price of a room: base of the star level × room factor, weekends dearer."""
    lo, hi = STAR_PRICES[stars]
    return nice((lo + hi) / 2 * variant.factor * weekend(day))


def scaled_prices(sample: ProductDraft) -> Callable[[Variant, date], int]:
    """Room prices consistent with ``sample`` (same scale, by room factor and weekday)."""
    scale = sample.price / (sample.variant.factor * weekend(sample.day))
    return lambda variant, day: nice(scale * variant.factor * weekend(day))


def hotel_days(ctx: Context, day: date, variants: int) -> list[date]:
    """The dates a hotel around ``day`` offers rooms on (enough for ``ctx.products``)."""
    return window(ctx.today, day, max(6, math.ceil(ctx.products / variants) + 3))


class HotelGoal(SelectionGoal):
    """Book one night under constraints (see the module docstring)."""

    kind: ClassVar[str] = "hotel"
    table = HotelDraft

    def __init__(self, index: int, ctx: Context) -> None:
        """Draw the constraints (the trip gives city and night)."""
        super().__init__(index, ctx)
        rng = ctx.rng
        assert ctx.trip is not None
        self.city: City = ctx.trip.city
        self.when: When = ctx.trip.when
        self.day = self.when.day
        self.min_score = pick(rng, MIN_SCORES) if rng.random() < 0.6 else None
        self.min_stars = (
            weighted(rng, [(3, 0.3), (4, 0.5), (5, 0.2)]) if rng.random() < 0.35 else None
        )
        feature = pick(rng, REQUESTABLE_FEATURES) if rng.random() < 0.5 else None
        self.tag: Bi | None = feature[0] if feature else None
        self.tag_words: Bi | None = feature[1] if feature else None
        self.bed: str | None = pick(rng, ("king", "twin")) if rng.random() < 0.5 else None
        use_price = self.bed is None or rng.random() < 0.75
        self.stars = rng.randint(max(self.min_stars or 3, 3), 5)
        lo, hi = STAR_PRICES[self.stars]
        self.cap: int | None = price_in(ctx, lo * 1.2, hi * 1.3) if use_price else None
        self.tie = weighted(rng, [("none", 0.6), ("price", 0.2), ("rating", 0.2)])
        self.pays = rng.random() < 0.85
        self.reason = pick(rng, UNPAID_REASONS)
        self.days = hotel_days(ctx, self.day, ROOM_TYPES_PER_HOTEL)
        self.clause_rank = {name: rng.random() for name in ("score", "star", "tag", "bed", "price")}

    # ---- constraints -------------------------------------------------------------------------

    def violations(self, provider: Provider, product: ProductDraft) -> list[str]:
        """city, score, star, tag, date, bed, price, sold_out."""
        assert isinstance(provider, HotelDraft)
        out = []
        if provider.city != self.city:
            out.append("city")
        if self.min_score is not None and provider.score < self.min_score - 1e-9:
            out.append("score")
        if self.min_stars is not None and provider.stars < self.min_stars:
            out.append("star")
        if self.tag is not None and self.tag not in provider.tags:
            out.append("tag")
        if product.day != self.day:
            out.append("date")
        if self.bed is not None and product.variant.group != self.bed:
            out.append("bed")
        if self.cap is not None and product.price > self.cap:
            out.append("price")
        if product.quantity < 1:
            out.append("sold_out")
        return out

    # ---- provider budget ---------------------------------------------------------------------

    @property
    def core(self) -> int:
        """The target hotel, plus a second one when a tie-break must choose."""
        return 2 if self.tie != "none" else 1

    def constraint_roles(self) -> list[str]:
        """A distractor per constraint present."""
        roles = []
        if self.min_score is not None:
            roles.append("score")
        if self.min_stars is not None:
            roles.append("star")
        if self.tag is not None:
            roles.append("tag")
        if self.cap is not None:
            roles.append("price")
        if self.bed is not None:
            roles.append("bed")
        return roles

    def optional_roles(self) -> list[str]:
        """Constraint distractors, then a sold-out hotel."""
        return [*self.constraint_roles(), "sold_out"]

    def extra_roles(self) -> list[str]:
        """No room that night, another city, and more of each kind."""
        return ["date", "city", *self.constraint_roles(), "sold_out"]

    # ---- parts -------------------------------------------------------------------------------

    def good_score(self, ctx: Context, low: int | None = None) -> float:
        """A rating meeting the minimum (at least ``low`` tenths when given)."""
        floor = round(self.min_score * 10) if self.min_score is not None else 38
        return ctx.rng.randint(max(floor, low or 0), 50) / 10

    def good_stars(self, ctx: Context) -> int:
        """A star level meeting the minimum."""
        return ctx.rng.randint(self.min_stars or 2, 5)

    def fitting_room(self, ctx: Context) -> Variant:
        """A room type of the requested bed kind (any without a bed constraint)."""
        return pick(ctx.rng, [v for v in ROOM_TYPES if self.bed is None or v.group == self.bed])

    def other_bed_room(self, ctx: Context) -> Variant:
        """A room type of the other bed kind."""
        return pick(ctx.rng, [v for v in ROOM_TYPES if v.group != self.bed])

    def fit_price(self, ctx: Context, stars: int, variant: Variant) -> int:
        """A price within the cap (at least 10 yuan under it), else the usual price."""
        if self.cap is None:
            return room_price(stars, variant, self.day)
        return price_in(ctx, self.cap * 0.6, self.cap - 10)

    def over_price(self, ctx: Context) -> int:
        """A price at least 20 yuan over the cap."""
        assert self.cap is not None
        return price_in(ctx, self.cap + 20, self.cap * 1.45 + 20)

    def other_day(self, ctx: Context) -> date:
        """A date of the window other than the night asked for."""
        return pick(ctx.rng, [d for d in self.days if d != self.day])

    def finish(self, cat: Catalog, hotel: HotelDraft, variants: list[Variant]) -> HotelDraft:
        """Complete the hotel's room types and fill its products on other dates."""
        rng = cat.rng
        offered = list(dict.fromkeys(variants))
        extras = [v for v in ROOM_TYPES if v not in offered]
        rng.shuffle(extras)
        offered += extras[: max(0, ROOM_TYPES_PER_HOTEL - len(offered))]
        cat.fill(hotel, offered, self.days, [self.day], scaled_prices(hotel.products[0]))
        return hotel

    # ---- building ----------------------------------------------------------------------------

    def build(self, cat: Catalog, roles: list[str]) -> list[Provider]:
        """Target hotel(s) and the granted distractor hotels."""
        hotels = self.build_targets(cat)
        for role in roles:
            hotels.append(self.distractor(cat, role))
        return list(hotels)

    def build_targets(self, cat: Catalog) -> list[Provider]:
        """One or two target hotels; ``targets`` lists (hotel, room), winner first."""
        ctx, rng = cat.ctx, cat.rng
        count = 2 if self.tie != "none" else 1
        scores = [self.good_score(ctx) for _ in range(count)]
        if self.tie == "rating":
            floor = round(self.min_score * 10) if self.min_score is not None else 38
            first = rng.randint(floor + 2, 50)
            scores = [first / 10, rng.randint(floor, first - 2) / 10]
        stars = [self.stars] + [self.good_stars(ctx) for _ in scores[1:]]
        rooms = [self.fitting_room(ctx) for _ in scores]
        prices = [self.fit_price(ctx, s, r) for s, r in zip(stars, rooms, strict=True)]
        if self.tie == "price":
            low = min(prices)
            if self.cap is not None:
                dear = price_in(ctx, min(low + 20, self.cap - 10), self.cap - 10)
                prices = [min(low, dear - rng.randint(20, 60)), dear]
            else:
                prices = [low, low + rng.randint(20, 120)]
        out: list[Provider] = []
        for score, star, room, price in zip(scores, stars, rooms, prices, strict=True):
            hotel = cat.hotel(
                self.city,
                owner=self.index,
                role="target",
                score=score,
                stars=star,
                tags=cat.hotel_tags(self.tag, None),
            )
            target = ProductDraft(
                variant=room, day=self.day, price=max(1, price), quantity=rng.randint(1, 8)
            )
            self.targets.append((hotel, target))
            near = self.near_miss(ctx, star, room)
            hotel.products = [target, near]
            out.append(self.finish(cat, hotel, [room, near.variant]))
        return out

    def near_miss(self, ctx: Context, stars: int, room: Variant) -> ProductDraft:
        """Another room of the target hotel that night breaking one room-level constraint."""
        rng = ctx.rng
        kinds = [
            k for k, ok in (("price", self.cap is not None), ("bed", self.bed is not None)) if ok
        ]
        if pick(rng, kinds) == "price":
            options = [
                v for v in ROOM_TYPES if v != room and (self.bed is None or v.group == self.bed)
            ]
            return ProductDraft(
                variant=pick(rng, options),
                day=self.day,
                price=self.over_price(ctx),
                quantity=rng.randint(1, 6),
            )
        variant = self.other_bed_room(ctx)
        return ProductDraft(
            variant=variant,
            day=self.day,
            price=self.fit_price(ctx, stars, variant),
            quantity=rng.randint(1, 6),
        )

    def distractor(self, cat: Catalog, role: str) -> HotelDraft:
        """A hotel breaking exactly the constraint ``role`` names (on its option that night)."""
        ctx, rng = cat.ctx, cat.rng
        city = ctx.other_city(self.city) if role == "city" else self.city
        score = self.good_score(ctx)
        if role == "score":
            assert self.min_score is not None
            score = round(self.min_score - rng.randint(1, 6) / 10, 1)
        stars = self.good_stars(ctx)
        if role == "star":
            assert self.min_stars is not None
            stars = rng.randint(2, self.min_stars - 1)
        tags = cat.hotel_tags(
            None if role == "tag" else self.tag, self.tag if role == "tag" else None
        )
        hotel = cat.hotel(city, owner=self.index, role=role, score=score, stars=stars, tags=tags)
        room = self.fitting_room(ctx)
        quantity = rng.randint(1, 8)
        if role == "price":
            hotel.products = [
                ProductDraft(
                    variant=room, day=self.day, price=self.over_price(ctx), quantity=quantity
                )
            ]
        elif role == "bed":
            room = self.other_bed_room(ctx)
            hotel.products = [
                ProductDraft(
                    variant=room,
                    day=self.day,
                    price=self.fit_price(ctx, stars, room),
                    quantity=quantity,
                )
            ]
        elif role == "sold_out":
            price = self.fit_price(ctx, stars, room)
            hotel.products = [
                ProductDraft(variant=room, day=self.day, price=price, quantity=0),
                ProductDraft(variant=room, day=self.other_day(ctx), price=price, quantity=quantity),
            ]
        elif role == "date":
            hotel.products = [
                ProductDraft(
                    variant=room,
                    day=self.other_day(ctx),
                    price=self.fit_price(ctx, stars, room),
                    quantity=quantity,
                )
            ]
        else:  # city, score, star, tag: the room itself fits
            hotel.products = [
                ProductDraft(
                    variant=room,
                    day=self.day,
                    price=self.fit_price(ctx, stars, room),
                    quantity=quantity,
                )
            ]
        return self.finish(cat, hotel, [room])

    # ---- rendering ---------------------------------------------------------------------------

    def weather(self) -> list[tuple[City, date]]:
        """The destination on the night."""
        return [(self.city, self.day)]

    def instruction(self, ctx: Context) -> Bi:
        """What to book, the requirements, tie-break and payment."""
        named: list[tuple[str, Bi]] = []
        if self.min_score is not None:
            named.append(("score", text.clause_score(self.min_score)))
        if self.min_stars is not None:
            named.append(("star", text.clause_stars(self.min_stars)))
        if self.tag_words is not None:
            named.append(("tag", text.clause_tag(self.tag_words)))
        if self.bed is not None:
            named.append(("bed", text.clause_bed(BEDS[self.bed][1])))
        if self.cap is not None:
            named.append(("price", text.clause_night_price(self.cap)))
        clauses = [c for _, c in sorted(named, key=lambda nc: self.clause_rank[nc[0]])]
        parts = [text.want_hotel(self.city.name, self.when), text.requirements(clauses)]
        if self.tie != "none":
            parts.append(text.TIE_BREAKS[self.tie])
        parts.append(text.PAY_NOW if self.pays else text.pay_later(self.reason))
        return text.join(parts)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Hotel, room night, payment."""
        hotel, room = self.winner
        return [
            text.r_hotel_choice(hotel.title, self.city.name, self.day.isoformat(), self.tie),
            text.r_room_line(hotel.title, room.variant.name, self.when.rubric(), room.price),
            text.r_paid(text.ORDER_NOUNS["hotel"], hotel.title, self.pays),
        ]


class UsualHotelGoal(Goal):
    """Book the hotel of the user's last stay in a city (see the module docstring)."""

    kind: ClassVar[str] = "usual_hotel"

    def __init__(self, index: int, ctx: Context, separate: bool) -> None:
        """Draw the city and night (the trip's, unless ``separate``), room type and variant."""
        super().__init__(index, ctx)
        rng = ctx.rng
        if separate or ctx.trip is None:
            city = ctx.take_city(lambda c: c.name.en != ctx.home.name.en)
            assert city is not None
            self.city = city
            self.when = describe(rng, ctx.today, ctx.today + timedelta(days=rng.randint(2, 30)))
        else:
            self.city, self.when = ctx.trip.city, ctx.trip.when
        self.day = self.when.day
        self.room = pick(rng, ROOM_TYPES)
        self.fallback = ctx.products >= 3 and rng.random() < 0.3
        self.pays = rng.random() < 0.8
        self.reason = pick(rng, UNPAID_REASONS)
        self.order_id = ctx.order_id("T")
        self.created = ctx.now
        self.days = hotel_days(ctx, self.day, ROOM_TYPES_PER_HOTEL)

    @property
    def core(self) -> int:
        """The hotel of last time and its look-alike."""
        return 2

    def optional_roles(self) -> list[str]:
        """A hotel of the very same name in another city."""
        return ["same_name"]

    def extra_roles(self) -> list[str]:
        """Other hotels of the city."""
        return ["other"]

    def _finish(self, cat: Catalog, hotel: HotelDraft, variants: list[Variant]) -> HotelDraft:
        """Complete the hotel's room types and fill its other dates at its usual prices."""
        offered = list(dict.fromkeys(variants))
        extras = [v for v in ROOM_TYPES if v not in offered]
        cat.rng.shuffle(extras)
        offered += extras[: max(0, ROOM_TYPES_PER_HOTEL - len(offered))]
        cat.fill(hotel, offered, self.days, [self.day], lambda v, d: room_price(hotel.stars, v, d))
        return hotel

    def build(self, cat: Catalog, roles: list[str]) -> list[Provider]:
        """The hotel of last time, its look-alike, and the granted extra hotels."""
        ctx, rng = cat.ctx, cat.rng
        name, prefix, style = cat.hotel_name()
        stars = rng.randint(*style.stars)
        hotel = cat.hotel(
            self.city,
            owner=self.index,
            role="target",
            score=rng.randint(40, 49) / 10,
            stars=stars,
            tags=cat.hotel_tags(None, None),
            name=name,
        )
        others = [v for v in ROOM_TYPES if v != self.room]
        rng.shuffle(others)
        usual = ProductDraft(
            variant=self.room,
            day=self.day,
            price=room_price(stars, self.room, self.day),
            quantity=0 if self.fallback else rng.randint(1, 5),
        )
        first = ProductDraft(
            variant=others[0],
            day=self.day,
            price=room_price(stars, others[0], self.day),
            quantity=rng.randint(1, 5),
        )
        hotel.products = [usual, first]
        self.target = usual
        if self.fallback:
            second = ProductDraft(
                variant=others[1],
                day=self.day,
                price=first.price + rng.randint(2, 12) * 10,
                quantity=rng.randint(1, 5),
            )
            hotel.products.append(second)
            self.target = first
        self.hotel = self._finish(cat, hotel, [p.variant for p in hotel.products])
        look_name = cat.lookalike(name, prefix)
        look = cat.hotel(
            self.city,
            owner=self.index,
            role="lookalike",
            score=rng.randint(40, 49) / 10,
            stars=stars,
            tags=cat.hotel_tags(None, None),
            name=look_name,
        )
        look.products = [
            ProductDraft(
                variant=self.room,
                day=self.day,
                price=room_price(stars, self.room, self.day) - rng.randint(1, 8) * 10,
                quantity=rng.randint(1, 5),
            )
        ]
        self.lookalike = self._finish(cat, look, [self.room])
        out: list[Provider] = [self.hotel, self.lookalike]
        for role in roles:
            city = ctx.other_city(self.city) if role == "same_name" else self.city
            extra = cat.hotel(
                city,
                owner=self.index,
                role=role,
                score=rng.randint(38, 49) / 10,
                stars=stars if role == "same_name" else rng.randint(2, 5),
                tags=cat.hotel_tags(None, None),
                name=name if role == "same_name" else None,
            )
            extra.products = [
                ProductDraft(
                    variant=self.room,
                    day=self.day,
                    price=room_price(extra.stars, self.room, self.day),
                    quantity=rng.randint(1, 5),
                )
            ]
            out.append(self._finish(cat, extra, [self.room]))
        return out

    def recent(self) -> tuple[Bi, Bi]:
        """The (hotel, room type) of last time for the booking history."""
        return self.hotel.name, self.room.name

    def expected(self) -> list[Booking]:
        """One room that night at the usual hotel."""
        status = "paid" if self.pays else "unpaid"
        return [Booking(self.order_id, self.hotel, self.target, 1, status, self.created)]

    def weather(self) -> list[tuple[City, date]]:
        """The city on the night."""
        return [(self.city, self.day)]

    def instruction(self, ctx: Context) -> Bi:
        """Which hotel, which room, payment."""
        parts = [text.usual_hotel(self.city.name, self.when.adverb, self.fallback)]
        parts.append(text.PAY_NOW if self.pays else text.pay_later(self.reason))
        return text.join(parts)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Hotel (not the look-alike), room night, payment."""
        out = [text.r_usual_hotel(self.hotel.name, self.city.name, self.lookalike.name)]
        if self.fallback:
            out.append(text.r_sold_out(self.hotel.name, self.room.name, self.day.isoformat()))
        out.append(
            text.r_room_line(
                self.hotel.name, self.target.variant.name, self.when.rubric(), self.target.price
            )
        )
        out.append(text.r_paid(text.ORDER_NOUNS["hotel"], self.hotel.name, self.pays))
        return out

    def check(self, ctx: Context, providers: list[Provider]) -> list[str]:
        """The hotel is the only one of its name in the city; the room of last time (or the
        fallback) is unique that night; a near miss exists next to it."""
        problems = super().check(ctx, providers)
        tag = f"sub-goal {self.index} ({self.kind})"
        same = [
            p
            for p in providers
            if isinstance(p, HotelDraft) and p.city == self.city and p.name == self.hotel.name
        ]
        if len(same) != 1:
            problems.append(f"{tag}: {len(same)} hotels named {self.hotel.name.en} in the city")
        tonight = self.hotel.on(self.day)
        if self.fallback:
            open_rooms = sorted(
                (p.price, id(p)) for p in tonight if p.quantity >= 1 and p.variant != self.room
            )
            if len(open_rooms) < 2 or open_rooms[0][1] != id(self.target):
                problems.append(f"{tag}: the fallback room is not the unique cheapest")
            elif open_rooms[0][0] == open_rooms[1][0]:
                problems.append(f"{tag}: two fallback rooms cost the same")
        if not any(p is not self.target and p.quantity >= 1 for p in tonight):
            problems.append(f"{tag}: no near miss next to the target")
        return problems
