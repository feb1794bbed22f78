"""Flight and train sub-goals: N seats of one class on a route and a date, under constraints.

Constraints: the route, the date, the seat class, N seats left, optionally a departure window
("leave before 10:00" / "after 14:00") and a price per seat. Distractors break exactly one:
another route (the reverse direction or another destination), departure outside the window,
the class too expensive that day, fewer than N seats of the class left, no service that day,
or only other classes that day. The target also sells another class that day (the distractor
oracle's near miss). Departure times keep 30 minutes from the window's limit.
"""

from __future__ import annotations

import math
from datetime import date
from typing import ClassVar

from lifebench.vita.generate.ota import text
from lifebench.vita.generate.ota.catalog import (
    EARLIEST_DEPARTURE,
    LATEST_ARRIVAL,
    Catalog,
    base_fare,
    duration,
    nice,
    price_in,
    window,
)
from lifebench.vita.generate.ota.context import Context, SelectionGoal, can_fly, can_ride, city_km
from lifebench.vita.generate.ota.dates import When
from lifebench.vita.generate.ota.model import (
    FlightDraft,
    ProductDraft,
    Provider,
    TrainDraft,
    TransportDraft,
    clock_text,
)
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import CITIES, City
from lifebench.vita.generate.pools.travel import (
    FLIGHT_SEATS,
    SEAT_WORDS,
    TRAIN_SEATS,
    UNPAID_REASONS,
    Variant,
)
from lifebench.vita.generate.world import pick, weighted

MARGIN = 30
"""Minutes between a departure and the window's limit."""
LIMITS_BEFORE = (10 * 60, 12 * 60, 14 * 60, 17 * 60)
LIMITS_AFTER = (12 * 60, 14 * 60, 17 * 60, 19 * 60)


def seats_of(mode: str) -> tuple[Variant, ...]:
    """The seat classes of flights or trains."""
    return FLIGHT_SEATS if mode == "flight" else TRAIN_SEATS


def feasible(mode: str, a: City, b: City) -> bool:
    """Whether ``mode`` connects the two cities."""
    return can_fly(a, b) if mode == "flight" else can_ride(a, b)


class TransportGoal(SelectionGoal):
    """Book N seats of a class on a flight or train (see the module docstring)."""

    kind: ClassVar[str] = "transport"
    mode: ClassVar[str] = ""

    def __init__(self, index: int, ctx: Context, origin: City, dest: City, when: When) -> None:
        """Draw the party, class, departure window, price cap and tie-break of the route."""
        super().__init__(index, ctx)
        rng = ctx.rng
        self.origin, self.dest, self.when = origin, dest, when
        self.day = when.day
        self.quantity = weighted(rng, [(1, 0.4), (2, 0.35), (3, 0.15), (4, 0.1)])
        seats = seats_of(self.mode)
        self.seat: Variant = weighted(rng, [(seats[0], 0.7), (seats[1], 0.25), (seats[2], 0.05)])
        self.km = city_km(origin, dest)
        self.earliest = EARLIEST_DEPARTURE
        self.latest = min(21 * 60 + 30, LATEST_ARRIVAL - duration(self.mode, self.km))
        self.before: bool | None = None
        self.limit = 0
        if rng.random() < 0.7:
            options = [(True, m) for m in LIMITS_BEFORE if self._room(True, m)]
            options += [(False, m) for m in LIMITS_AFTER if self._room(False, m)]
            if options:
                self.before, self.limit = pick(rng, options)
        self.fare = base_fare(self.mode, self.km) * self.seat.factor
        self.cap: int | None = None
        if rng.random() < 0.5:
            self.cap = nice(self.fare * rng.uniform(1.05, 1.3))
        self.tie = weighted(rng, [("none", 0.6), ("price", 0.2), ("earliest", 0.2)])
        self.pays = rng.random() < 0.85
        self.reason = pick(rng, UNPAID_REASONS)
        self.days = window(ctx.today, self.day, max(5, math.ceil(ctx.products / 2) + 3))
        self.price_first = rng.random() < 0.5

    def _room(self, before: bool, limit: int) -> bool:
        """Whether departures fit on both sides of ``limit`` (an hour each, with the margin)."""
        return self.earliest + 60 <= limit - MARGIN and limit + MARGIN + 60 <= self.latest

    # ---- constraints -------------------------------------------------------------------------

    def in_window(self, depart: int) -> bool:
        """Whether a departure time meets the window (always, without one)."""
        if self.before is None:
            return True
        return depart < self.limit if self.before else depart > self.limit

    def violations(self, provider: Provider, product: ProductDraft) -> list[str]:
        """route, window, date, seat, price, sold_out."""
        assert isinstance(provider, TransportDraft)
        out = []
        if provider.origin != self.origin or provider.dest != self.dest:
            out.append("route")
        if not self.in_window(provider.depart):
            out.append("window")
        if product.day != self.day:
            out.append("date")
        if product.variant.key != self.seat.key:
            out.append("seat")
        if self.cap is not None and product.price > self.cap:
            out.append("price")
        if product.quantity < self.quantity:
            out.append("sold_out")
        return out

    # ---- provider budget ---------------------------------------------------------------------

    @property
    def core(self) -> int:
        """The target, plus a second one when a tie-break must choose."""
        return 2 if self.tie != "none" else 1

    def constraint_roles(self) -> list[str]:
        """A distractor per optional constraint present."""
        roles = []
        if self.before is not None:
            roles.append("window")
        if self.cap is not None:
            roles.append("price")
        return roles

    def optional_roles(self) -> list[str]:
        """Constraint distractors, a sold-out one, one with other classes only."""
        return [*self.constraint_roles(), "sold_out", "seat"]

    def extra_roles(self) -> list[str]:
        """No service that day, another route, and more of each kind."""
        return ["date", "route", *self.constraint_roles(), "sold_out", "seat"]

    # ---- parts -------------------------------------------------------------------------------

    def departure(self, ctx: Context, inside: bool = True, latest: int | None = None) -> int:
        """A departure time inside (or outside) the window, with the margin (and not after
        ``latest`` when given)."""
        lo, hi = self.earliest, min(self.latest, latest if latest is not None else self.latest)
        if self.before is not None:
            if self.before == inside:
                hi = self.limit - MARGIN
            else:
                lo = self.limit + MARGIN
        return 5 * ctx.rng.randint(math.ceil(lo / 5), hi // 5)

    def fit_price(self, ctx: Context, variant: Variant | None = None) -> int:
        """A fare within the cap (10 yuan under at least), else around the usual fare."""
        variant = variant or self.seat
        if self.cap is None or variant != self.seat:
            return self.usual(ctx, variant)
        return price_in(ctx, self.cap * 0.7, self.cap - 10)

    def over_price(self, ctx: Context) -> int:
        """A fare at least 20 yuan over the cap."""
        assert self.cap is not None
        return price_in(ctx, self.cap + 20, self.cap * 1.35 + 20)

    def usual(self, ctx: Context, variant: Variant) -> int:
        """The usual fare of a class, ±10 %."""
        fare = base_fare(self.mode, self.km) * variant.factor
        return nice(fare * ctx.rng.uniform(0.9, 1.1))

    def other_seat(self, ctx: Context, cheaper: bool = False) -> Variant:
        """A class other than the requested one (a cheaper one when asked and there is one)."""
        others = [v for v in seats_of(self.mode) if v != self.seat]
        if cheaper:
            others = [v for v in others if v.factor < self.seat.factor] or others
        return pick(ctx.rng, others)

    def stock(self, ctx: Context) -> int:
        """Enough seats for the party."""
        return ctx.rng.randint(self.quantity, self.quantity + 30)

    def finish(self, cat: Catalog, provider: TransportDraft, variants: list[Variant]) -> None:
        """Offer 2–3 classes and fill the other dates."""
        offered = list(dict.fromkeys(variants))
        extras = [v for v in seats_of(self.mode) if v not in offered]
        cat.rng.shuffle(extras)
        offered += extras[: max(0, cat.rng.randint(2, 3) - len(offered))]
        cat.fill(provider, offered, self.days, [self.day], lambda v, d: self.usual(cat.ctx, v))

    def wrong_route(self, ctx: Context) -> tuple[City, City]:
        """The reverse route, or from the origin to another reachable city."""
        others = [
            c
            for c in CITIES
            if c.name.en not in (self.origin.name.en, self.dest.name.en)
            and feasible(self.mode, self.origin, c)
        ]
        if not others or ctx.rng.random() < 0.4:
            return self.dest, self.origin
        return self.origin, pick(ctx.rng, others)

    # ---- building ----------------------------------------------------------------------------

    def build(self, cat: Catalog, roles: list[str]) -> list[Provider]:
        """Target service(s) and the granted distractors."""
        out = self.build_targets(cat)
        for role in roles:
            out.append(self.distractor(cat, role))
        return out

    def build_targets(self, cat: Catalog) -> list[Provider]:
        """One or two targets; ``targets`` lists (service, seat), winner first."""
        ctx, rng = cat.ctx, cat.rng
        count = 2 if self.tie != "none" else 1
        departs = sorted({self.departure(ctx) for _ in range(6 if count == 1 else 20)})
        if count == 2 and (len(departs) < 2 or departs[-1] - departs[0] < 30):
            self.problems.append(f"sub-goal {self.index}: no two distinct departures")
            departs = [departs[0], departs[0] + 30]
        chosen = [departs[0], departs[-1]] if count == 2 else [pick(rng, departs)]
        if self.tie != "earliest":
            rng.shuffle(chosen)
        prices = [self.fit_price(ctx) for _ in chosen]
        if self.tie == "price":
            prices.sort()
            if prices[1] - prices[0] < 10:
                prices[0] = prices[1] - rng.randint(10, 40)
        out: list[Provider] = []
        for depart, price in zip(chosen, prices, strict=True):
            service = cat.transport(
                self.mode, self.origin, self.dest, depart, owner=self.index, role="target"
            )
            target = ProductDraft(
                variant=self.seat, day=self.day, price=price, quantity=self.stock(ctx)
            )
            other = self.other_seat(ctx)
            near = ProductDraft(
                variant=other, day=self.day, price=self.usual(ctx, other), quantity=self.stock(ctx)
            )
            service.products = [target, near]
            self.targets.append((service, target))
            self.finish(cat, service, [self.seat, other])
            out.append(service)
        return out

    def distractor(self, cat: Catalog, role: str) -> TransportDraft:
        """A service breaking exactly the constraint ``role`` names."""
        ctx, rng = cat.ctx, cat.rng
        origin, dest = self.wrong_route(ctx) if role == "route" else (self.origin, self.dest)
        latest = LATEST_ARRIVAL - duration(self.mode, city_km(origin, dest))
        first = self.limit + MARGIN if self.before is False else self.earliest
        if latest < first + 5:
            origin, dest, latest = self.dest, self.origin, self.latest
        depart = self.departure(ctx, inside=role != "window", latest=latest)
        service = cat.transport(self.mode, origin, dest, depart, owner=self.index, role=role)
        seat, day = self.seat, self.day
        price = self.over_price(ctx) if role == "price" else self.fit_price(ctx)
        quantity = self.stock(ctx)
        if role == "sold_out":
            quantity = rng.randint(0, self.quantity - 1)
        elif role == "date":
            day = pick(rng, [d for d in self.days if d != self.day])
        elif role == "seat":
            seat = self.other_seat(ctx, cheaper=True)
            price = self.fit_price(ctx, seat)
            if self.cap is not None and price > self.cap:
                price = price_in(ctx, self.cap * 0.7, self.cap - 10)
        service.products = [ProductDraft(variant=seat, day=day, price=price, quantity=quantity)]
        if role == "sold_out":
            other_day = pick(rng, [d for d in self.days if d != self.day])
            service.products.append(
                ProductDraft(variant=seat, day=other_day, price=price, quantity=self.stock(ctx))
            )
        self.finish(cat, service, [seat])
        return service

    # ---- rendering ---------------------------------------------------------------------------

    def seat_words(self) -> Bi:
        """ "two economy seats"."""
        return text.seats(self.quantity, SEAT_WORDS[f"{self.mode}:{self.seat.key}"])

    def weather(self) -> list[tuple[City, date]]:
        """The destination on the travel day."""
        return [(self.dest, self.day)]

    def instruction(self, ctx: Context) -> Bi:
        """What to book, requirements, tie-break, payment."""
        parts = [
            text.want_seats(
                self.mode,
                self.seat_words(),
                self.origin.name,
                self.dest.name,
                self.when,
                text.party(self.quantity),
                self.quantity > 1,
            )
        ]
        clauses: list[Bi] = []
        if self.before is not None:
            clauses.append(text.clause_window(self.before, self.limit))
        if self.cap is not None:
            clauses.append(text.clause_seat_price(self.cap))
        if self.price_first:
            clauses.reverse()
        if clauses:
            parts.append(text.requirements(clauses))
        if self.tie != "none":
            parts.append(text.TIE_BREAKS[self.tie])
        parts.append(text.PAY_NOW if self.pays else text.pay_later(self.reason))
        return text.join(parts)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Service, seats, payment."""
        service, seat = self.winner
        assert isinstance(service, TransportDraft)
        times = f"{clock_text(service.depart)}→{clock_text(service.arrive)}"
        return [
            text.r_transport_choice(
                self.mode,
                service.number,
                text.route(self.origin.name, self.dest.name),
                times,
                self.tie,
            ),
            text.r_seat_line(
                service.number,
                self.seat_words(),
                self.when.rubric(),
                seat.price,
                seat.price * self.quantity,
            ),
            text.r_paid(
                text.ORDER_NOUNS[self.mode],
                Bi(service.number, service.number),
                self.pays,
                service=True,
            ),
        ]


class FlightGoal(TransportGoal):
    """Seats on a flight."""

    kind = "flight"
    mode = "flight"
    table = FlightDraft


class TrainGoal(TransportGoal):
    """Seats on a train."""

    kind = "train"
    mode = "train"
    table = TrainDraft
