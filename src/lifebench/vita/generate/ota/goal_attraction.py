"""Attraction sub-goal: N tickets of one ticket type for an attraction of a kind, on a date.

The attraction must be of the requested kind (its name says so: "… Museum", "… Zoo"), in the
trip's city, optionally rated at least x, with the ticket type at most y yuan and N tickets left
that day. Distractors break exactly one of: the city, the kind, the rating, the price, the
stock that day (sold out or fewer than N left), or the date (no tickets that day at all). The
target attraction also sells other ticket types that day (the distractor oracle's near miss).
"""

from __future__ import annotations

import math
from datetime import date, timedelta
from typing import ClassVar

from lifebench.vita.generate.ota import text
from lifebench.vita.generate.ota.catalog import Catalog, nice, window
from lifebench.vita.generate.ota.context import Context, SelectionGoal
from lifebench.vita.generate.ota.dates import When, describe
from lifebench.vita.generate.ota.model import AttractionDraft, ProductDraft, Provider
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.pools.travel import (
    ATTRACTION_KINDS,
    TICKET_TYPES,
    TICKET_WORDS,
    UNPAID_REASONS,
    AttractionKind,
    Variant,
)
from lifebench.vita.generate.world import pick, weighted

MIN_SCORES: tuple[float, ...] = (4.2, 4.3, 4.4, 4.5, 4.6)
"""Minimum ratings a user may ask for."""


def ticket_price(adult: int, variant: Variant) -> int:
    """The price of a ticket type given the adult price."""
    return max(1, round(adult * variant.factor))


class AttractionGoal(SelectionGoal):
    """Buy N tickets of one type for an attraction of a kind (see the module docstring)."""

    kind: ClassVar[str] = "attraction"
    table = AttractionDraft

    def __init__(self, index: int, ctx: Context) -> None:
        """Draw the kind, ticket type, party size and constraints (the trip gives city and day)."""
        super().__init__(index, ctx)
        rng = ctx.rng
        assert ctx.trip is not None
        self.city: City = ctx.trip.city
        self.when: When = ctx.trip.when
        if rng.random() < 0.4:
            self.when = describe(rng, ctx.today, self.when.day + timedelta(days=1), 0.4)
        self.day = self.when.day
        self.category: AttractionKind = pick(rng, ATTRACTION_KINDS)
        self.quantity = weighted(rng, [(1, 0.25), (2, 0.35), (3, 0.25), (4, 0.15)])
        self.ticket: Variant = weighted(
            rng,
            [
                (TICKET_TYPES[0], 0.6),
                (TICKET_TYPES[1], 0.15),
                (TICKET_TYPES[3], 0.15),
                (TICKET_TYPES[2], 0.1),
            ],
        )
        self.min_score = pick(rng, MIN_SCORES) if rng.random() < 0.5 else None
        lo, hi = self.category.price
        self.base = rng.randint(lo, hi)
        typical = ticket_price(self.base, self.ticket)
        self.cap: int | None = None
        if rng.random() < 0.55:
            self.cap = max(typical + 5, nice(typical * rng.uniform(1.15, 1.45)))
        self.tie = weighted(rng, [("none", 0.6), ("price", 0.2), ("rating", 0.2)])
        self.pays = rng.random() < 0.85
        self.reason = pick(rng, UNPAID_REASONS)
        self.days = window(ctx.today, self.day, max(6, math.ceil(ctx.products / 2) + 3))

    # ---- constraints -------------------------------------------------------------------------

    def violations(self, provider: Provider, product: ProductDraft) -> list[str]:
        """city, category, score, date, type, price, sold_out."""
        assert isinstance(provider, AttractionDraft)
        out = []
        if provider.city != self.city:
            out.append("city")
        if provider.category.key != self.category.key:
            out.append("category")
        if self.min_score is not None and provider.score < self.min_score - 1e-9:
            out.append("score")
        if product.day != self.day:
            out.append("date")
        if product.variant.key != self.ticket.key:
            out.append("type")
        if self.cap is not None and product.price > self.cap:
            out.append("price")
        if product.quantity < self.quantity:
            out.append("sold_out")
        return out

    # ---- provider budget ---------------------------------------------------------------------

    @property
    def core(self) -> int:
        """The target attraction, plus a second one when a tie-break must choose."""
        return 2 if self.tie != "none" else 1

    def constraint_roles(self) -> list[str]:
        """A distractor per optional constraint present."""
        roles = []
        if self.min_score is not None:
            roles.append("score")
        if self.cap is not None:
            roles.append("price")
        return roles

    def optional_roles(self) -> list[str]:
        """Another kind in the city, the constraint distractors, a sold-out one."""
        return ["category", *self.constraint_roles(), "sold_out"]

    def extra_roles(self) -> list[str]:
        """No tickets that day, another city, and more of each kind."""
        return ["date", "city", "category", *self.constraint_roles(), "sold_out"]

    # ---- parts -------------------------------------------------------------------------------

    def good_score(self, ctx: Context, floor: int | None = None) -> float:
        """A rating meeting the minimum."""
        low = round(self.min_score * 10) if self.min_score is not None else 38
        return ctx.rng.randint(max(low, floor or 0), 50) / 10

    def adult_for(self, ctx: Context, fits: bool) -> int:
        """An adult price whose requested ticket type is within (or over) the cap."""
        lo, hi = self.category.price
        if self.cap is None:
            return ctx.rng.randint(lo, hi)
        f = self.ticket.factor
        if fits:
            top = math.floor((self.cap - 1) / f)
            candidates = [a for a in range(max(1, math.ceil(top * 0.6)), top + 1)]
            candidates = [a for a in candidates if ticket_price(a, self.ticket) <= self.cap - 1]
        else:
            bottom = math.ceil((self.cap + 3) / f)
            candidates = [a for a in range(bottom, math.ceil(bottom * 1.4) + 2)]
            candidates = [a for a in candidates if ticket_price(a, self.ticket) >= self.cap + 2]
        return pick(ctx.rng, candidates)

    def attraction(
        self,
        cat: Catalog,
        role: str,
        adult: int,
        city: City | None = None,
        category: AttractionKind | None = None,
        score: float | None = None,
    ) -> AttractionDraft:
        """An attraction (fitting kind, city and rating unless given otherwise)."""
        return cat.attraction(
            city or self.city,
            category or self.category,
            owner=self.index,
            role=role,
            score=score if score is not None else self.good_score(cat.ctx),
            list_price=adult,
        )

    def finish(self, cat: Catalog, attraction: AttractionDraft, types: list[Variant]) -> None:
        """Offer 2–4 ticket types and fill the other dates."""
        rng = cat.rng
        offered = list(dict.fromkeys(types))
        extras = [v for v in TICKET_TYPES if v not in offered]
        rng.shuffle(extras)
        offered += extras[: max(0, rng.randint(2, 4) - len(offered))]
        adult = attraction.list_price
        cat.fill(
            attraction,
            offered,
            self.days,
            [self.day],
            lambda v, d: ticket_price(adult, v),
            stock=(self.quantity, 200),
        )

    def product(self, adult: int, variant: Variant, day: date, quantity: int) -> ProductDraft:
        """A ticket product priced from the adult price."""
        return ProductDraft(
            variant=variant, day=day, price=ticket_price(adult, variant), quantity=quantity
        )

    # ---- building ----------------------------------------------------------------------------

    def build(self, cat: Catalog, roles: list[str]) -> list[Provider]:
        """Target attraction(s) and the granted distractors."""
        out = self.build_targets(cat)
        for role in roles:
            out.append(self.distractor(cat, role))
        return out

    def build_targets(self, cat: Catalog) -> list[Provider]:
        """One or two target attractions; ``targets`` lists (attraction, ticket), winner first."""
        ctx, rng = cat.ctx, cat.rng
        count = 2 if self.tie != "none" else 1
        adults = [self.adult_for(ctx, True) for _ in range(count)]
        scores = [self.good_score(ctx) for _ in range(count)]
        if self.tie == "rating":
            low = round(self.min_score * 10) if self.min_score is not None else 38
            first = rng.randint(low + 2, 50)
            scores = [first / 10, rng.randint(low, first - 2) / 10]
        if self.tie == "price":
            adults.sort()
            if ticket_price(adults[1], self.ticket) - ticket_price(adults[0], self.ticket) < 5:
                adults[0] = max(1, adults[1] - math.ceil(8 / self.ticket.factor))
        out: list[Provider] = []
        for adult, score in zip(adults, scores, strict=True):
            attraction = self.attraction(cat, "target", adult, score=score)
            target = self.product(adult, self.ticket, self.day, rng.randint(self.quantity, 60))
            other = pick(rng, [v for v in TICKET_TYPES if v != self.ticket])
            near = self.product(adult, other, self.day, rng.randint(self.quantity, 60))
            attraction.products = [target, near]
            self.targets.append((attraction, target))
            self.finish(cat, attraction, [self.ticket, other])
            out.append(attraction)
        return out

    def distractor(self, cat: Catalog, role: str) -> AttractionDraft:
        """An attraction breaking exactly the constraint ``role`` names."""
        ctx, rng = cat.ctx, cat.rng
        adult = self.adult_for(ctx, role != "price")
        city = ctx.other_city(self.city) if role == "city" else None
        category = cat.other_kind(self.category) if role == "category" else None
        score = None
        if role == "score":
            assert self.min_score is not None
            score = round(self.min_score - rng.randint(1, 6) / 10, 1)
        attraction = self.attraction(cat, role, adult, city, category, score)
        stock = rng.randint(self.quantity, 80)
        if role == "sold_out":
            stock = rng.randint(0, self.quantity - 1)
        if role == "date":
            other = pick(rng, [d for d in self.days if d != self.day])
            attraction.products = [self.product(adult, self.ticket, other, stock)]
        else:
            attraction.products = [self.product(adult, self.ticket, self.day, stock)]
            if role == "sold_out":
                other = pick(rng, [d for d in self.days if d != self.day])
                attraction.products.append(
                    self.product(adult, self.ticket, other, rng.randint(self.quantity, 80))
                )
        self.finish(cat, attraction, [self.ticket])
        return attraction

    # ---- rendering ---------------------------------------------------------------------------

    def what(self) -> Bi:
        """ "3 adult tickets"."""
        singular, plural = TICKET_WORDS[self.ticket.key]
        return text.tickets(self.quantity, singular, plural)

    def weather(self) -> list[tuple[City, date]]:
        """The city on the visit day."""
        return [(self.city, self.day)]

    def instruction(self, ctx: Context) -> Bi:
        """What to buy, requirements, tie-break, payment."""
        parts = [
            text.want_tickets(
                self.category.one, self.city.name, self.when, self.what(), self.quantity > 1
            )
        ]
        clauses: list[Bi] = []
        if self.min_score is not None:
            clauses.append(text.clause_score(self.min_score))
        if self.cap is not None:
            clauses.append(text.clause_ticket_price(self.cap))
        if clauses:
            parts.append(text.requirements(clauses))
        if self.tie != "none":
            parts.append(text.TIE_BREAKS[self.tie])
        parts.append(text.PAY_NOW if self.pays else text.pay_later(self.reason))
        return text.join(parts)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Attraction, tickets, payment."""
        attraction, ticket = self.winner
        return [
            text.r_attraction_choice(
                attraction.title, self.city.name, self.category.word, self.tie
            ),
            text.r_ticket_line(
                attraction.title, self.what(), self.when.rubric(), ticket.price * self.quantity
            ),
            text.r_paid(text.ORDER_NOUNS["attraction"], attraction.title, self.pays),
        ]
