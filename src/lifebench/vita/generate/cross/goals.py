"""Domain sub-goals tied to each other: anchors, scheduled deliveries, guests' tickets.

A cross-scenario task reuses the domain sub-goals unchanged and ties some of them to what
another sub-goal books:

* an :class:`Anchor` is a place another sub-goal chooses (the booked hotel, restaurant or
  attraction) or a fixed one (the station the guests arrive at, the user's home). A dependent
  sub-goal is built around the anchor's place; when the anchor is chosen by another sub-goal,
  the place is bound (``bind`` / :func:`bind_visit`) once that sub-goal's providers exist, before the dependent
  sub-goal builds its own search space around it;
* :class:`ScheduledDelivery` / :class:`ScheduledGroupDelivery` deliver to an anchor at a set
  time on a later day (no arrival deadline: that only makes sense for an order sent now);
* :func:`place_visit` makes an in-store booking or appointment at a set time within a distance
  of an anchor;
* :class:`TimedTrain` / :class:`TimedFlight` book seats (for the user, or for visiting
  relatives) that must arrive before the plans of the day, and :func:`arrive_by` sets a
  departure window so that every fitting service does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import datetime

from lifebench.vita.generate.cross import text as ctext
from lifebench.vita.generate.delivery import text as dtext
from lifebench.vita.generate.delivery.context import Context as DeliveryContext
from lifebench.vita.generate.delivery.goal_select import (
    KM_LIMITS,
    ConstrainedOrder,
    GroupOrder,
    SelectionGoal,
)
from lifebench.vita.generate.delivery.text import UserPlace as DeliveryPlace
from lifebench.vita.generate.instore import text as itext
from lifebench.vita.generate.instore.context import Context as InStoreContext
from lifebench.vita.generate.instore.context import UserPlace as InStorePlace
from lifebench.vita.generate.instore.goal_select import BookTable, ReserveService
from lifebench.vita.generate.instore.goal_select import SelectionGoal as VisitGoal
from lifebench.vita.generate.ota import text as otext
from lifebench.vita.generate.ota.catalog import duration
from lifebench.vita.generate.ota.context import Context as OTAContext
from lifebench.vita.generate.ota.goal_transport import (
    MARGIN,
    FlightGoal,
    TrainGoal,
    TransportGoal,
)
from lifebench.vita.generate.ota.model import TransportDraft, clock_text
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.cross import Guests
from lifebench.vita.generate.pools.food import FoodCategory
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.world import Place, pick

VISIT_KM: tuple[float, ...] = (1.0, 1.5, 2.0, 2.5, 3.0)
"""Distance limits (km) of a booking near an anchor."""


@dataclass(frozen=True)
class Anchor:
    """A place that dependent sub-goals refer to.

    ``to`` is the destination phrase of a delivery ("the hotel you're booking in Hangzhou"),
    ``of`` the reference of a distance requirement, ``rubric`` the name used in rubrics (the
    booked provider by name once bound).
    """

    key: str
    city: City
    place: Place
    to: Bi
    of: Bi
    rubric: Bi

    def bound(self, place: Place, rubric: Bi) -> Anchor:
        """The anchor at the place another sub-goal chose."""
        return replace(self, place=place, rubric=rubric)

    def for_delivery(self) -> DeliveryPlace:
        """The anchor as a delivery address."""
        return DeliveryPlace(self.key, self.place, self.to, self.of, self.rubric)

    def for_visit(self) -> InStorePlace:
        """The anchor as the reference of an in-store distance requirement."""
        return InStorePlace(self.key, self.place, self.of, self.rubric)


def city_centre(city: City) -> Place:
    """A placeholder place until the anchor is bound."""
    return Place(city.name, city.longitude, city.latitude)


# --------------------------------------------------------------------------------------------
# Deliveries
# --------------------------------------------------------------------------------------------


def deliver_to(goal: SelectionGoal, place: DeliveryPlace) -> None:
    """Send ``goal``'s order to ``place`` (before its stores are built)."""
    goal.place = place
    goal.constraints = replace(goal.constraints, place=place.place)


class _Scheduled(SelectionGoal):
    """A delivery to an anchor at a set time (see :class:`ScheduledDelivery`)."""

    lead: Bi
    anchor: Anchor

    def schedule(self, ctx: DeliveryContext, anchor: Anchor, when: datetime, lead: Bi) -> None:
        """Turn an arrival deadline into a distance limit, and set the time and destination."""
        if self.spatial == "deadline":
            self.spatial = "distance"
            self.km = pick(ctx.rng, KM_LIMITS)
        self.deadline = None
        self.scheduled = when
        self.lead = lead
        self.constraints = replace(
            self.constraints,
            deadline=None,
            max_distance_m=round(self.km * 1000) if self.km is not None else None,
        )
        self.bind(anchor)

    def bind(self, anchor: Anchor) -> None:
        """Deliver to ``anchor`` (its place and names)."""
        self.anchor = anchor
        deliver_to(self, anchor.for_delivery())

    def instruction(self, ctx: DeliveryContext) -> Bi:
        """What, where and when, then the requirements, tie-break, option and payment."""
        c = self.constraints
        assert self.scheduled is not None
        if self.group:
            what = ctext.portions_of(self.quantity, self.category.item)
        else:
            what = self.category.one
        parts = [ctext.scheduled(self.lead, what, self.place.to, self.scheduled)]
        clauses: list[Bi] = []
        if c.min_rating is not None:
            clauses.append(dtext.clause_rating(c.min_rating))
        if self.km is not None:
            clauses.append(dtext.clause_distance(self.km, self.place.of))
        if c.max_price is not None:
            clauses.append(
                dtext.clause_budget(c.max_price * self.quantity)
                if self.group
                else dtext.clause_price(c.max_price)
            )
        restriction = ctx.persona.restriction
        if restriction is not None:
            clauses.append(dtext.clause_diet(restriction.because, restriction.avoid))
        ctx.rng.shuffle(clauses)
        if clauses:
            parts.append(dtext.sentence(clauses))
        if self.tie != "none":
            parts.append(dtext.TIE_BREAKS[self.tie])
        if self.attribute is not None:
            parts.append(dtext.choose_option(self.attribute))
        parts.append(dtext.PAY_NOW if self.pays else dtext.pay_later(self.reason))
        return dtext.join(parts)

    def rubrics(self, ctx: DeliveryContext) -> list[Bi]:
        """The delivery rubrics, plus: delivered to the booked place."""
        store, _ = self.winner
        return [*super().rubrics(ctx), ctext.r_delivered_to(store.name, self.anchor.rubric)]


class ScheduledDelivery(_Scheduled, ConstrainedOrder):
    """One dish delivered to an anchor (the booked hotel) at a set time on a later day."""

    kind = "scheduled_delivery"

    def __init__(
        self,
        index: int,
        category: FoodCategory,
        ctx: DeliveryContext,
        anchor: Anchor,
        when: datetime,
        lead: Bi,
    ) -> None:
        super().__init__(index, category, ctx)
        self.schedule(ctx, anchor, when, lead)


class ScheduledGroupDelivery(_Scheduled, GroupOrder):
    """The same dish for everyone, delivered to an anchor (the booked restaurant) at a time."""

    kind = "scheduled_group"

    def __init__(
        self,
        index: int,
        category: FoodCategory,
        ctx: DeliveryContext,
        anchor: Anchor,
        when: datetime,
        lead: Bi,
        quantity: int,
    ) -> None:
        super().__init__(index, category, ctx)
        self.quantity = quantity
        self.schedule(ctx, anchor, when, lead)


# --------------------------------------------------------------------------------------------
# In-store visits
# --------------------------------------------------------------------------------------------


class _ThatDay(VisitGoal):
    """A booking / appointment on the day the story is about ("that day at 18:30")."""

    def instruction(self, ctx: InStoreContext) -> Bi:
        """Opening, requirements, tie-break, booking fee and "nothing ahead" sentences."""
        assert self.when is not None
        moment = ctext.that_day(self.when)
        if self.action == "book":
            parts = [itext.want_book(self.people, self.category, moment)]
        else:
            parts = [itext.want_reserve(self.people, self.category, moment)]
        clauses = self.clauses(ctx)
        if clauses:
            parts.append(itext.sentence(clauses))
        if self.tie == "distance":
            parts.append(itext.tie_distance(self.place.of))
        elif self.tie != "none":
            parts.append(itext.TIE_BREAKS[self.tie])
        if self.action == "book":
            parts.append(itext.PAY_FEE)
        parts.append(itext.NOTHING_AHEAD)
        return itext.join(parts)


class AnchoredTable(_ThatDay, BookTable):
    """A table near an anchor, on the story's day."""


class AnchoredService(_ThatDay, ReserveService):
    """A service appointment near an anchor, on the story's day."""


def place_visit(
    goal: VisitGoal, rng: random.Random, anchor: Anchor, when: datetime, people: int | None
) -> None:
    """Make ``goal``'s booking / appointment at ``when``, within a distance of ``anchor``.

    The distance limit is always set (that is the cross-domain requirement); ``people`` (when
    given) replaces the drawn party size.
    """
    goal.km = pick(rng, VISIT_KM)
    goal.when = when
    if people is not None:
        goal.people = people
    goal.constraints = replace(goal.constraints, max_distance_m=round(goal.km * 1000))
    bind_visit(goal, anchor)


def bind_visit(goal: VisitGoal, anchor: Anchor) -> None:
    """Measure ``goal``'s distance limit from ``anchor``."""
    goal.place = anchor.for_visit()
    goal.constraints = replace(goal.constraints, place=anchor.place)


# --------------------------------------------------------------------------------------------
# Trains and flights
# --------------------------------------------------------------------------------------------

LIMITS: tuple[int, ...] = tuple(60 * h for h in range(8, 20))
"""Whole hours a departure window may end at."""


def arrive_by(goal: TransportGoal, latest: int, rng: random.Random) -> bool:
    """Make ``goal`` ask to leave before a time such that every fitting service arrives by
    ``latest`` (minutes after midnight); False when no window leaves room for that.

    A service leaving inside the window departs at least ``MARGIN`` minutes before its limit,
    and every service of the route takes the same time, so it arrives by ``limit − MARGIN +
    duration``; the latest few fitting limits are preferred (the window is not trivially wide).
    """
    took = duration(goal.mode, goal.km)
    options = [
        limit
        for limit in LIMITS
        if limit - MARGIN + took <= latest
        and goal.earliest + 60 <= limit - MARGIN
        and limit + MARGIN + 60 <= goal.latest
    ]
    if not options:
        return False
    goal.before = True
    goal.limit = pick(rng, options[-3:])
    return True


def arrival(goal: TransportGoal) -> int:
    """Arrival (minutes after midnight) of the chosen service."""
    service = goal.winner[0]
    assert isinstance(service, TransportDraft)
    return service.arrive


def in_time(goal: TransportGoal, plans: datetime) -> bool:
    """Whether the chosen service arrives at least an hour before ``plans``."""
    return arrival(goal) <= plans.hour * 60 + plans.minute - 60


class _TimedRide(TransportGoal):
    """Seats on a service that must arrive before the plans of the day (see
    :class:`TimedTrain`); for visiting relatives when ``guests`` is set."""

    guests: Guests | None
    plans: datetime | None

    def timed(self, plans: datetime | None, guests: Guests | None) -> None:
        """Arrive before ``plans`` (None: no plans that day); book one seat per guest when
        there are guests."""
        self.plans = plans
        self.guests = guests
        if guests is not None:
            self.quantity = guests.count

    def instruction(self, ctx: OTAContext) -> Bi:
        """What to book for whom, requirements and why, tie-break, payment."""
        why: Bi | None = None
        if self.guests is not None:
            who = ctext.guests_who(self.guests.who)
            if self.plans is not None:
                why = ctext.in_time(self.guests.who, self.plans)
        else:
            who = otext.party(self.quantity)
            if self.plans is not None:
                why = ctext.arrive_for(self.plans)
        parts = [
            otext.want_seats(
                self.mode,
                self.seat_words(),
                self.origin.name,
                self.dest.name,
                self.when,
                who,
                self.quantity > 1,
            )
        ]
        clauses: list[Bi] = []
        if self.before is not None:
            clauses.append(otext.clause_window(self.before, self.limit))
        if self.cap is not None:
            clauses.append(otext.clause_seat_price(self.cap))
        if self.price_first:
            clauses.reverse()
        if clauses:
            parts.append(otext.requirements(clauses))
        if why is not None:
            parts.append(why)
        if self.tie != "none":
            parts.append(otext.TIE_BREAKS[self.tie])
        parts.append(otext.PAY_NOW if self.pays else otext.pay_later(self.reason))
        return otext.join(parts)

    def rubrics(self, ctx: OTAContext) -> list[Bi]:
        """The transport rubrics, plus: arriving in time (and for the guests)."""
        service = self.winner[0]
        assert isinstance(service, TransportDraft)
        out = list(super().rubrics(ctx))
        if self.guests is not None:
            out.append(ctext.r_guests(service.number, self.guests.rubric, self.quantity))
        if self.plans is not None:
            out.append(ctext.r_arrives(service.number, clock_text(service.arrive), self.plans))
        return out


class TimedTrain(_TimedRide, TrainGoal):
    """Train seats arriving an hour before the plans of the day."""


class TimedFlight(_TimedRide, FlightGoal):
    """Flight seats arriving an hour before the plans of the day."""
