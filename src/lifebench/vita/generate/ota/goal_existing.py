"""Sub-goals about orders that exist before the conversation: change a date, cancel a booking.

``change_date``: a paid flight or train order moves to another date (same service, same seat
class, same order id); the fare of the new date differs, so the difference is paid (the order is
unpaid after the change until it is) or refunded. The new date is given absolutely, relative to
today, as a festival, or as a shift ("two days later"). Sometimes a paid return ticket must stay
untouched, and another service of the route sells the same class on the new date.

``cancel``: of two paid hotel bookings (or attraction ticket orders) in a city, one is
cancelled — identified by its date or by its hotel / attraction — and the other kept; sometimes
the same room or ticket type is booked again for another date.

Each pre-existing booking lies in a city no other sub-goal uses, so its provider can never meet
another sub-goal's constraints.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import ClassVar

from lifebench.vita.generate.ota import text
from lifebench.vita.generate.ota.catalog import (
    EARLIEST_DEPARTURE,
    LATEST_ARRIVAL,
    Catalog,
    base_fare,
    duration,
    nice,
)
from lifebench.vita.generate.ota.context import Context, Goal, city_km
from lifebench.vita.generate.ota.dates import When, absolute, describe, festival_days, phrase
from lifebench.vita.generate.ota.goal_attraction import ticket_price
from lifebench.vita.generate.ota.goal_hotel import room_price
from lifebench.vita.generate.ota.goal_transport import feasible, seats_of
from lifebench.vita.generate.ota.model import (
    AttractionDraft,
    Booking,
    HotelDraft,
    ProductDraft,
    Provider,
    TransportDraft,
)
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.pools.travel import (
    ATTRACTION_KINDS,
    CANCEL_REASONS,
    CHANGE_REASONS,
    ROOM_TYPES,
    SEAT_WORDS,
    TICKET_TYPES,
    TICKET_WORDS,
    Variant,
)
from lifebench.vita.generate.world import pick, weighted


def span(ctx: Context, days: list[date], size: int) -> list[date]:
    """At least ``size`` consecutive dates covering ``days`` (one before, when not past)."""
    first = max(min(days) - timedelta(days=1), ctx.today + timedelta(days=1))
    last = max(max(days) + timedelta(days=1), first + timedelta(days=size - 1))
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]


def booked_before(ctx: Context) -> datetime:
    """When a pre-existing order was made: 2–20 days before the task clock."""
    return ctx.now - timedelta(days=ctx.rng.randint(2, 20), minutes=ctx.rng.randint(0, 600))


class ChangeDate(Goal):
    """Move a paid flight / train order to another date (see the module docstring)."""

    kind: ClassVar[str] = "change_date"

    def __init__(self, index: int, ctx: Context) -> None:
        """Draw the mode and a fresh destination, the dates, the fares and the order ids."""
        super().__init__(index, ctx)
        rng, home = ctx.rng, ctx.home
        modes = ["flight", "train"]
        rng.shuffle(modes)
        city: City | None = None
        self.mode = modes[0]
        for mode in modes:
            city = ctx.take_city(lambda c, m=mode: feasible(m, home, c))
            if city is not None:
                self.mode = mode
                break
        if city is None:
            self.problems.append(f"sub-goal {index}: no destination for a date change")
            city = ctx.other_city(home)
        self.city = city
        self.quantity = weighted(rng, [(1, 0.7), (2, 0.3)])
        seats = seats_of(self.mode)
        self.seat: Variant = weighted(rng, [(seats[0], 0.7), (seats[1], 0.3)])
        self.shift: int | None = None
        festivals = festival_days(ctx.today, 5, 45)
        if festivals and rng.random() < 0.15:
            new = pick(rng, festivals)
            old = new + timedelta(days=pick(rng, (-3, -2, -1, 1, 2, 3)))
            if old <= ctx.today + timedelta(days=1):
                old = new + timedelta(days=2)
            self.target: When = phrase(new, "holiday")
        else:
            old = ctx.today + timedelta(days=rng.randint(4, 30))
            shift = pick(rng, (-3, -2, -1, 1, 2, 3, 4))
            if (old + timedelta(days=shift) - ctx.today).days < 2:
                shift = abs(shift)
            new = old + timedelta(days=shift)
            if rng.random() < 0.4:
                self.shift = shift
                self.target = absolute(new)
            else:
                self.target = describe(rng, ctx.today, new, 0.6)
        self.old_day, self.new_day = old, new
        self.old_when = absolute(old)
        self.reason = pick(rng, CHANGE_REASONS)
        self.order_id = ctx.order_id("O")
        self.return_id = ctx.order_id("O")
        self.created = booked_before(ctx)
        self.now = ctx.now
        self.km = city_km(home, city)
        fare = base_fare(self.mode, self.km) * self.seat.factor
        self.old_price = nice(fare * rng.uniform(0.85, 1.1))
        up = rng.random() < 0.5
        for _ in range(10):
            self.new_price = nice(
                self.old_price * (1 + (1 if up else -1) * rng.uniform(0.08, 0.35))
            )
            if self.new_price != self.old_price:
                break
        self.returning: Booking | None = None
        self.wants_return = rng.random() < 0.6

    # ---- provider budget ---------------------------------------------------------------------

    def optional_roles(self) -> list[str]:
        """A return ticket that must stay (most of the time); another service of the route."""
        return ["return", "same_route"] if self.wants_return else ["same_route"]

    def extra_roles(self) -> list[str]:
        """More services of the route."""
        return ["same_route"]

    def usual(self, ctx: Context, variant: Variant) -> int:
        """The usual fare of a class, ±10 %."""
        return nice(base_fare(self.mode, self.km) * variant.factor * ctx.rng.uniform(0.9, 1.1))

    def depart(self, ctx: Context) -> int:
        """A departure time arriving the same day."""
        latest = min(21 * 60 + 30, LATEST_ARRIVAL - duration(self.mode, self.km))
        return 5 * ctx.rng.randint(math.ceil(EARLIEST_DEPARTURE / 5), latest // 5)

    # ---- building ----------------------------------------------------------------------------

    def build(self, cat: Catalog, roles: list[str]) -> list[Provider]:
        """The service of the order, and the granted return service / other services."""
        ctx, rng = cat.ctx, cat.rng
        q = self.quantity
        days = span(ctx, [self.old_day, self.new_day], max(6, math.ceil(ctx.products / 2) + 2))
        third = pick(rng, [d for d in days if d not in (self.old_day, self.new_day)])
        service = cat.transport(
            self.mode, ctx.home, self.city, self.depart(ctx), owner=self.index, role="target"
        )
        other = pick(rng, [v for v in seats_of(self.mode) if v != self.seat])
        self.old = ProductDraft(
            variant=self.seat, day=self.old_day, price=self.old_price, quantity=rng.randint(0, 20)
        )
        self.new = ProductDraft(
            variant=self.seat,
            day=self.new_day,
            price=self.new_price,
            quantity=rng.randint(q, q + 25),
        )
        spare = ProductDraft(
            variant=self.seat,
            day=third,
            price=self.usual(ctx, self.seat),
            quantity=rng.randint(q, q + 25),
        )
        service.products = [self.old, self.new, spare]
        if ctx.products >= 4:
            service.products.append(
                ProductDraft(
                    variant=other,
                    day=self.new_day,
                    price=self.usual(ctx, other),
                    quantity=rng.randint(1, 20),
                )
            )
        cat.fill(service, [self.seat, other], days, [], lambda v, d: self.usual(ctx, v))
        self.service = service
        out: list[Provider] = [service]
        for role in roles:
            if role == "return":
                back = cat.transport(
                    self.mode, self.city, ctx.home, self.depart(ctx), owner=self.index, role=role
                )
                day = max(self.old_day, self.new_day) + timedelta(days=rng.randint(2, 5))
                line = ProductDraft(
                    variant=self.seat,
                    day=day,
                    price=self.usual(ctx, self.seat),
                    quantity=rng.randint(0, 20),
                )
                back.products = [line]
                back_days = span(ctx, [day], max(5, math.ceil(ctx.products / 2) + 2))
                cat.fill(back, [self.seat, other], back_days, [], lambda v, d: self.usual(ctx, v))
                self.returning = Booking(self.return_id, back, line, q, "paid", self.created)
                out.append(back)
            else:
                twin = cat.transport(
                    self.mode, ctx.home, self.city, self.depart(ctx), owner=self.index, role=role
                )
                twin.products = [
                    ProductDraft(
                        variant=self.seat,
                        day=self.new_day,
                        price=self.usual(ctx, self.seat),
                        quantity=rng.randint(q, q + 25),
                    )
                ]
                cat.fill(twin, [self.seat, other], days, [], lambda v, d: self.usual(ctx, v))
                out.append(twin)
        return out

    # ---- rendering ---------------------------------------------------------------------------

    def preexisting(self) -> list[Booking]:
        """The paid ticket (and the paid return ticket)."""
        mine = Booking(self.order_id, self.service, self.old, self.quantity, "paid", self.created)
        return [mine] + ([self.returning] if self.returning else [])

    def expected(self) -> list[Booking]:
        """The same order on the new date, paid; the return ticket unchanged."""
        moved = Booking(
            self.order_id,
            self.service,
            self.new,
            self.quantity,
            "paid",
            self.created,
            updated=self.now,
        )
        return [moved] + ([self.returning] if self.returning else [])

    def what(self) -> Bi:
        """ "two second-class seats"."""
        return text.seats(self.quantity, SEAT_WORDS[f"{self.mode}:{self.seat.key}"])

    def weather(self) -> list[tuple[City, date]]:
        """The destination on the new date."""
        return [(self.city, self.new_day)]

    def instruction(self, ctx: Context) -> Bi:
        """Which ticket, the new date, the return ticket to keep."""
        assert isinstance(self.service, TransportDraft)
        parts = [
            text.have_ticket(
                self.mode,
                self.what(),
                self.service.number,
                ctx.home.name,
                self.city.name,
                self.old_when.noun,
            ),
            text.move_ticket(self.reason, self.mode, self.shift, self.target),
        ]
        if self.returning is not None:
            back = self.returning.provider
            assert isinstance(back, TransportDraft)
            parts.append(text.keep_return(back.number, absolute(self.returning.product.day).noun))
        return text.join(parts)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """The change, the price difference, the return ticket kept."""
        difference = (self.new_price - self.old_price) * self.quantity
        out = [
            text.r_changed(
                self.order_id,
                self.service_number,
                self.target.rubric(),
                self.what(),
                self.new_price,
            ),
            text.r_difference(abs(difference), difference > 0),
        ]
        if self.returning is not None:
            back = self.returning.provider
            assert isinstance(back, TransportDraft)
            day = self.returning.product.day.isoformat()
            out.append(
                text.r_untouched(
                    self.return_id,
                    Bi(f"return ticket {back.number} on {day}", f"{day}的返程票{back.number}"),
                )
            )
        return out

    @property
    def service_number(self) -> str:
        """Flight / train number of the order."""
        assert isinstance(self.service, TransportDraft)
        return self.service.number

    def check(self, ctx: Context, providers: list[Provider]) -> list[str]:
        """The new date has enough seats of the class, and another date does too (the
        distractor oracle moves the order there)."""
        problems = super().check(ctx, providers)
        q = self.quantity
        same = [p for p in self.service.products if p.variant == self.seat]
        if self.new.quantity < q:
            problems.append(f"sub-goal {self.index}: not enough seats on the new date")
        if not any(
            p.day not in (self.old_day, self.new_day) and p.quantity >= q and p.day > ctx.today
            for p in same
        ):
            problems.append(f"sub-goal {self.index}: no third date for the near miss")
        return problems


class CancelBooking(Goal):
    """Cancel one of two paid hotel / attraction bookings (see the module docstring)."""

    kind: ClassVar[str] = "cancel"

    def __init__(self, index: int, ctx: Context) -> None:
        """Draw the table, a fresh city, the two bookings and whether to book again."""
        super().__init__(index, ctx)
        rng = ctx.rng
        self.table = "hotel" if rng.random() < 0.6 else "attraction"
        city = ctx.take_city(lambda c: c.name.en != ctx.home.name.en)
        assert city is not None
        self.city = city
        self.two = rng.random() < 0.5
        self.again = rng.random() < 0.3
        if self.again and not self.two and ctx.products < 4:
            self.two = True
        first = ctx.today + timedelta(days=rng.randint(3, 25))
        second = first + timedelta(days=rng.randint(3, 14))
        if self.two and rng.random() < 0.3:
            second = first
        self.days = [first, second]
        self.cancelled = rng.randrange(2)
        self.quantities = [1, 1]
        if self.table == "attraction":
            self.quantities = [rng.randint(1, 3), rng.randint(1, 3)]
        self.rebook_when: When | None = None
        if self.again:
            new = self.days[self.cancelled] + timedelta(days=rng.randint(1, 10))
            while new in self.days:
                new += timedelta(days=1)
            self.rebook_when = describe(rng, ctx.today, new, 0.5)
        self.reason = pick(rng, CANCEL_REASONS)
        self.ids = [ctx.order_id("O"), ctx.order_id("O")]
        self.new_id = ctx.order_id("T")
        self.created = booked_before(ctx)
        self.now = ctx.now
        self.bookings: list[Booking] = []
        self.rebooked: Booking | None = None

    @property
    def core(self) -> int:
        """The provider(s) of the two bookings."""
        return 2 if self.two else 1

    def extra_roles(self) -> list[str]:
        """Other providers of the city."""
        return ["other"]

    # ---- building ----------------------------------------------------------------------------

    def provider(self, cat: Catalog, role: str) -> HotelDraft | AttractionDraft:
        """A hotel or attraction of the city (no products yet)."""
        rng = cat.rng
        score = rng.randint(40, 49) / 10
        if self.table == "hotel":
            return cat.hotel(
                self.city,
                owner=self.index,
                role=role,
                score=score,
                stars=rng.randint(2, 5),
                tags=cat.hotel_tags(None, None),
            )
        kind = pick(rng, ATTRACTION_KINDS)
        return cat.attraction(
            self.city,
            kind,
            owner=self.index,
            role=role,
            score=score,
            list_price=rng.randint(*kind.price),
        )

    def variants(self) -> tuple[Variant, ...]:
        """Room types or ticket types."""
        return ROOM_TYPES if self.table == "hotel" else TICKET_TYPES

    @staticmethod
    def price(provider: HotelDraft | AttractionDraft, variant: Variant, day: date) -> int:
        """The provider's price of ``variant`` on ``day``."""
        if isinstance(provider, HotelDraft):
            return room_price(provider.stars, variant, day)
        return ticket_price(provider.list_price, variant)

    def pricer(self, provider: HotelDraft | AttractionDraft) -> Callable[[Variant, date], int]:
        """:meth:`price` bound to ``provider``."""
        return lambda variant, day: self.price(provider, variant, day)

    def offered(self, cat: Catalog, used: list[Variant]) -> list[Variant]:
        """The variants a provider offers: those used plus random others (3 in all)."""
        rng = cat.rng
        offered = list(dict.fromkeys(used))
        extras = [v for v in self.variants() if v not in offered]
        rng.shuffle(extras)
        return offered + extras[: max(0, 3 - len(offered))]

    def build(self, cat: Catalog, roles: list[str]) -> list[Provider]:
        """The provider(s) holding the two bookings (and the rebooking), plus extras."""
        ctx, rng = cat.ctx, cat.rng
        first = self.provider(cat, "target")
        providers = [first, self.provider(cat, "target")] if self.two else [first]
        variants = list(self.variants())
        if self.table == "attraction":
            variants = [TICKET_TYPES[0]] * 3 + variants
        chosen = [pick(rng, variants), pick(rng, variants)]
        for i in range(2):
            provider = providers[i if self.two else 0]
            product = provider.find(chosen[i].key, self.days[i])
            if product is None:
                product = ProductDraft(
                    variant=chosen[i],
                    day=self.days[i],
                    price=self.price(provider, chosen[i], self.days[i]),
                    quantity=rng.randint(0, 6),
                )
                provider.products.append(product)
            self.bookings.append(
                Booking(self.ids[i], provider, product, self.quantities[i], "paid", self.created)
            )
        if self.rebook_when is not None:
            booking = self.bookings[self.cancelled]
            holder = booking.provider
            assert isinstance(holder, HotelDraft | AttractionDraft)
            day = self.rebook_when.day
            q = booking.quantity
            again = ProductDraft(
                variant=booking.product.variant,
                day=day,
                price=self.price(holder, booking.product.variant, day),
                quantity=rng.randint(q, q + 6),
            )
            other = pick(rng, [v for v in self.variants() if v != again.variant])
            near = ProductDraft(
                variant=other,
                day=day,
                price=self.price(holder, other, day),
                quantity=rng.randint(q, q + 6),
            )
            holder.products += [again, near]
            self.rebooked = Booking(self.new_id, holder, again, q, "paid", self.now)
        wanted = [*self.days] + ([self.rebook_when.day] if self.rebook_when else [])
        days = span(ctx, wanted, max(6, math.ceil(ctx.products / 3) + 2))
        for provider in providers:
            used = [p.variant for p in provider.products]
            cat.fill(provider, self.offered(cat, used), days, [], self.pricer(provider))
        out: list[Provider] = list(providers)
        for role in roles:
            extra = self.provider(cat, role)
            cat.fill(extra, self.offered(cat, []), days, [], self.pricer(extra))
            out.append(extra)
        return out

    # ---- rendering ---------------------------------------------------------------------------

    def preexisting(self) -> list[Booking]:
        """The two paid bookings."""
        return list(self.bookings)

    def expected(self) -> list[Booking]:
        """One cancelled, the other unchanged (and the rebooking, paid)."""
        out = []
        for i, booking in enumerate(self.bookings):
            if i == self.cancelled:
                out.append(
                    Booking(
                        booking.order_id,
                        booking.provider,
                        booking.product,
                        booking.quantity,
                        "cancelled",
                        booking.created,
                        updated=self.now,
                    )
                )
            else:
                out.append(booking)
        if self.rebooked is not None:
            out.append(self.rebooked)
        return out

    def describe(self, booking: Booking, day: Bi) -> Bi:
        """ "Lanting Garden Hotel, night of April 12" / "2 adult tickets for X on April 12"."""
        name = booking.provider.title
        if self.table == "hotel":
            return Bi(f"{name.en}, night of {day.en}", f"{name.zh}，{day.zh}入住一晚")
        singular, plural = TICKET_WORDS[booking.product.variant.key]
        what = text.tickets(booking.quantity, singular, plural)
        return Bi(f"{what.en} for {name.en} on {day.en}", f"{name.zh}{day.zh}的{what.zh}")

    def instruction(self, ctx: Context) -> Bi:
        """The two bookings, which one to cancel, the rebooking."""
        noun = (
            Bi("hotel bookings", "酒店预订")
            if self.table == "hotel"
            else Bi("ticket orders", "门票订单")
        )
        first, second = (self.describe(b, absolute(b.product.day).noun) for b in self.bookings)
        gone = self.bookings[self.cancelled]
        when = absolute(gone.product.day).noun
        if self.two and self.days[0] == self.days[1]:
            which = Bi(f"the one at {gone.provider.title.en}", f"{gone.provider.title.zh}的那笔")
        elif self.two:
            which = Bi(
                f"the one at {gone.provider.title.en} ({when.en})",
                f"{gone.provider.title.zh}（{when.zh}）的那笔",
            )
        else:
            which = Bi(f"the one for {when.en}", f"{when.zh}的那笔")
        parts = [
            text.two_bookings(noun, self.city.name, first, second),
            text.cancel_one(self.reason, which),
        ]
        if self.rebooked is not None and self.rebook_when is not None:
            parts.append(text.rebook(self.rebooked_what(), gone.provider.title, self.rebook_when))
        return text.join(parts)

    def rebooked_what(self) -> Bi:
        """ "the same room type" / "the same 2 adult tickets"."""
        assert self.rebooked is not None
        if self.table == "hotel":
            return Bi("the same room type", "同一房型")
        singular, plural = TICKET_WORDS[self.rebooked.product.variant.key]
        what = text.tickets(self.rebooked.quantity, singular, plural)
        return Bi(f"the same {what.en}", f"同样的{what.zh}")

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Cancelled, kept, refund (and the rebooking, paid)."""
        gone = self.bookings[self.cancelled]
        kept = self.bookings[1 - self.cancelled]

        def iso(b: Booking) -> Bi:
            """The booking's date as ``YYYY-MM-DD``."""
            day = b.product.day.isoformat()
            return Bi(day, day)

        out = [
            text.r_cancelled(gone.order_id, self.describe(gone, iso(gone))),
            text.r_untouched(kept.order_id, self.describe(kept, iso(kept))),
            text.r_refund(gone.total),
        ]
        if self.rebooked is not None and self.rebook_when is not None:
            new = self.rebooked
            title = new.provider.title
            if self.table == "hotel":
                out.append(
                    text.r_room_line(
                        title, new.product.variant.name, self.rebook_when.rubric(), new.total
                    )
                )
            else:
                singular, plural = TICKET_WORDS[new.product.variant.key]
                what = text.tickets(new.quantity, singular, plural)
                out.append(text.r_ticket_line(title, what, self.rebook_when.rubric(), new.total))
            out.append(text.r_paid(text.ORDER_NOUNS[self.table], title, True))
        return out
