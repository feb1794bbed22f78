"""Story templates: which sub-goals of which domains a task composes, and how they are tied.

Four stories, each with at least two domains:

``trip``
    A trip to another city on one day: the hotel for that night (under constraints, or "my usual
    hotel"), then some of a table booking or service appointment within a distance of the booked
    hotel that evening, a delivery to the booked hotel (that evening or the next morning), the
    train or flight there (leaving early enough to arrive an hour before the evening's plans)
    and attraction tickets.
``outing``
    A family day out in the user's city: attraction tickets, a table near the attraction for
    the whole party that day, and a delivery (today, to relatives staying at home; or treats for
    the table, delivered to the booked restaurant at the meal).
``visit``
    Relatives come to the user's city: their train or flight seats (arriving an hour before the
    family meal), a table for everyone near the arrival station or the user's home, and treats
    delivered to the booked restaurant.
``errands``
    Independent requests across two or three domains, favouring "the same as last time" and
    changes to existing records (cancel and reorder, a new note, a moved appointment, a
    cancelled booking, a changed travel date).

The other stories fill their remaining sub-goals from the same pool of requests. Every story
has a sub-goal whose distractor-oracle variant is a real near miss (any OTA sub-goal, a new
delivery order, a new in-store order or appointment).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from types import MappingProxyType
from typing import Literal

from lifebench.vita.generate.cross import text as ctext
from lifebench.vita.generate.cross.goals import (
    Anchor,
    AnchoredService,
    AnchoredTable,
    ScheduledDelivery,
    ScheduledGroupDelivery,
    TimedFlight,
    TimedTrain,
    arrive_by,
    city_centre,
    deliver_to,
    place_visit,
)
from lifebench.vita.generate.cross.world import World
from lifebench.vita.generate.delivery.context import Goal as DeliveryGoal
from lifebench.vita.generate.delivery.generator import GOAL_KINDS as DELIVERY_KINDS
from lifebench.vita.generate.delivery.generator import choose_category as food_category
from lifebench.vita.generate.delivery.goal_select import ConstrainedOrder
from lifebench.vita.generate.instore.context import Goal as InStoreGoal
from lifebench.vita.generate.instore.generator import CREATING as INSTORE_CREATING
from lifebench.vita.generate.instore.generator import GOAL_KINDS as INSTORE_KINDS
from lifebench.vita.generate.instore.generator import choose_category as shop_category
from lifebench.vita.generate.instore.goal_select import BookTable, BuyProduct, ReserveService
from lifebench.vita.generate.instore.goal_select import SelectionGoal as VisitGoal
from lifebench.vita.generate.ota.catalog import Catalog as OTACatalog
from lifebench.vita.generate.ota.context import Goal as OTAGoal
from lifebench.vita.generate.ota.context import Trip, has_airport
from lifebench.vita.generate.ota.dates import When, trip_day
from lifebench.vita.generate.ota.goal_attraction import AttractionGoal
from lifebench.vita.generate.ota.goal_existing import CancelBooking, ChangeDate
from lifebench.vita.generate.ota.goal_hotel import HotelGoal, UsualHotelGoal
from lifebench.vita.generate.ota.goal_transport import feasible
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.cross import GUESTS, OUTING_PURPOSES, TREAT_CATEGORIES
from lifebench.vita.generate.pools.food import FoodCategory
from lifebench.vita.generate.pools.instore import ShopCategory
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.pools.travel import TRIP_PURPOSES
from lifebench.vita.generate.world import pick, weighted

Domain = Literal["delivery", "instore", "ota"]
DOMAINS: tuple[Domain, ...] = ("delivery", "instore", "ota")
"""The three domains, in the official order (also the order their tables are listed)."""

AnyGoal = DeliveryGoal | InStoreGoal | OTAGoal
"""A sub-goal of any domain."""

STORIES: Mapping[str, float] = MappingProxyType(
    {"trip": 0.35, "outing": 0.2, "visit": 0.2, "errands": 0.25}
)
"""Story templates with how often they are drawn."""

EXTRA_KINDS: Mapping[Domain, tuple[tuple[str, float], ...]] = MappingProxyType(
    {
        "delivery": (
            ("same_as_last", 1.5),
            ("cancel_reorder", 1.2),
            ("change_note", 1.0),
            ("constrained", 1.0),
            ("group_order", 0.5),
            ("create_unpaid", 0.5),
        ),
        "instore": (
            ("same_as_last", 1.5),
            ("modify_reservation", 1.2),
            ("cancel_existing", 1.2),
            ("buy", 1.0),
            ("reserve_service", 0.6),
            ("book_table", 0.6),
        ),
        "ota": (("usual_hotel", 1.2), ("change_date", 1.2), ("cancel", 1.2)),
    }
)
"""Requests that fill a story (and make up ``errands``), by domain, with their weights."""

DOMAIN_WEIGHTS: Mapping[Domain, float] = MappingProxyType(
    {"delivery": 1.0, "instore": 1.0, "ota": 0.8}
)
"""How often each domain's requests are drawn."""

MOST_PER_DOMAIN: Mapping[Domain, int] = MappingProxyType({"delivery": 4, "instore": 4, "ota": 5})
"""Most sub-goals of one domain in a task."""


def near_miss_kind(domain: Domain, kind: str) -> bool:
    """Whether the distractor oracle gets a sub-goal of this kind wrong on its own: any OTA
    sub-goal, a new delivery order, a new in-store order or appointment."""
    if domain == "ota":
        return True
    if domain == "delivery":
        return kind != "change_note"
    return kind in INSTORE_CREATING


@dataclass
class Slot:
    """One sub-goal of the task, in instruction order, with an optional lead sentence."""

    domain: Domain
    kind: str
    goal: AnyGoal
    lead: Bi | None = None


@dataclass
class Link:
    """Sub-goals tied to the place another sub-goal books (the hotel, restaurant, attraction).

    Once ``source`` has its providers, :meth:`bind` gives the chosen provider's place and name
    to ``anchor`` and binds every dependent sub-goal to it.
    """

    source: Slot
    anchor: Anchor
    dependents: list[Slot] = field(default_factory=list)


@dataclass
class Plan:
    """A composed task: story, introduction, sub-goals, links and what the checks need.

    ``visits`` are (city, day) pairs of anchored bookings and deliveries (their weather is
    listed); ``rides`` the trains / flights that must arrive before the plans of the day.
    """

    story: str
    intro: Bi | None = None
    slots: list[Slot] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    rides: list[TimedTrain | TimedFlight] = field(default_factory=list)
    visits: list[tuple[City, date]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def goals(self, domain: Domain) -> list[AnyGoal]:
        """The sub-goals of ``domain`` in index order."""
        return [s.goal for s in self.slots if s.domain == domain]

    def domains(self) -> list[Domain]:
        """Domains with at least one sub-goal, in the official order."""
        return [d for d in DOMAINS if any(s.domain == d for s in self.slots)]


def at(day: date, hour: int, minute: int) -> datetime:
    """A naive task-clock moment."""
    return datetime(day.year, day.month, day.day, hour, minute)  # noqa: DTZ001 - naive task clock


def minutes(moment: datetime) -> int:
    """Minutes after midnight."""
    return moment.hour * 60 + moment.minute


def open_at(category: ShopCategory, moment: datetime) -> bool:
    """Whether appointments of ``category`` are taken at ``moment`` (half-hour slots, the last
    one at the last full hour)."""
    return any(first * 60 <= minutes(moment) <= last * 60 for first, last in category.hours)


class Composer:
    """Builds a :class:`Plan`: draws and constructs sub-goals on the world's domain contexts."""

    def __init__(self, world: World, story: str) -> None:
        self.world = world
        self.rng = world.rng
        self.plan = Plan(story)

    # ---- bookkeeping ---------------------------------------------------------------------------

    def index(self, domain: Domain) -> int:
        """The index of the next sub-goal of ``domain`` (indices are per domain)."""
        return sum(1 for s in self.plan.slots if s.domain == domain)

    def kinds(self, domain: Domain) -> list[str]:
        """Kinds of ``domain`` used so far."""
        return [s.kind for s in self.plan.slots if s.domain == domain]

    def add(self, domain: Domain, kind: str, goal: AnyGoal, lead: Bi | None = None) -> Slot:
        """Append a sub-goal."""
        slot = Slot(domain, kind, goal, lead)
        self.plan.slots.append(slot)
        return slot

    # ---- delivery --------------------------------------------------------------------------

    def delivery(self, kind: str) -> Slot:
        """A delivery request of ``kind`` (its own category, as the delivery generator picks)."""
        ctx = self.world.delivery
        category = food_category(ctx, kind, not self.kinds("delivery"))
        ctx.used.append(category.key)
        goal = DELIVERY_KINDS[kind][0](self.index("delivery"), category, ctx)
        return self.add("delivery", kind, goal)

    def food(self, periods: frozenset[str], keys: Sequence[str] = ()) -> FoodCategory | None:
        """An unclaimed category (of ``keys`` when given, else suiting ``periods``) with two
        dishes the user may eat."""
        ctx = self.world.delivery
        free = [
            c for c in ctx.unrelated_categories() if sum(1 for d in c.dishes if ctx.safe(d)) >= 2
        ]
        fitting = [c for c in free if (c.key in keys if keys else c.periods & periods)]
        if not fitting:
            return None
        category = pick(self.rng, fitting)
        ctx.used.append(category.key)
        return category

    def relatives(self) -> Slot:
        """A delivery today to relatives who stay at home (the third delivery address)."""
        place = self.world.relatives()
        slot = self.delivery("constrained")
        assert isinstance(slot.goal, ConstrainedOrder)
        deliver_to(slot.goal, place)
        return slot

    def scheduled(
        self, anchor: Anchor, when: datetime, lead: Bi, periods: frozenset[str]
    ) -> Slot | None:
        """One dish delivered to ``anchor`` around ``when``."""
        category = self.food(periods)
        if category is None:
            self.plan.problems.append("no food category for a delivery to the hotel")
            return None
        ctx = self.world.delivery
        goal = ScheduledDelivery(self.index("delivery"), category, ctx, anchor, when, lead)
        self.plan.visits.append((anchor.city, when.date()))
        return self.add("delivery", goal.kind, goal)

    def treats(self, anchor: Anchor, when: datetime, people: int) -> Slot | None:
        """The same treat for everyone, delivered to the booked restaurant at the meal."""
        category = self.food(frozenset(), TREAT_CATEGORIES)
        if category is None:
            return None
        ctx = self.world.delivery
        goal = ScheduledGroupDelivery(
            self.index("delivery"), category, ctx, anchor, when, ctext.FOR_THE_TABLE, people
        )
        self.plan.visits.append((anchor.city, when.date()))
        return self.add("delivery", goal.kind, goal)

    def treat_link(self, meal: Slot, meal_at: datetime, people: int) -> None:
        """Treats for the table, delivered to the restaurant ``meal`` books (else a delivery
        to relatives at home)."""
        assert isinstance(meal.goal, VisitGoal)
        home = self.world.home
        phrase = ctext.RESTAURANT_TO
        anchor = Anchor("restaurant", home, meal.goal.place.place, phrase, phrase, phrase)
        slot = self.treats(anchor, meal_at, people)
        if slot is None:
            self.relatives()
            return
        self.plan.links.append(Link(meal, anchor, [slot]))

    # ---- in-store --------------------------------------------------------------------------

    def instore(self, kind: str) -> Slot | None:
        """An in-store request of ``kind`` (a purchase when no category fits it)."""
        ctx = self.world.instore
        cls = INSTORE_KINDS[kind][0]
        category = shop_category(ctx, cls)
        if category is None:
            kind, cls = "buy", BuyProduct
            category = shop_category(ctx, cls)
        if category is None:
            self.plan.problems.append("no in-store category left")
            return None
        ctx.used.append(category.key)
        return self.add("instore", kind, cls(self.index("instore"), category, ctx))

    def visit(
        self,
        cls: type[VisitGoal],
        moment: datetime,
        anchor: Anchor,
        people: int | None,
        lead: Bi | None = None,
    ) -> Slot | None:
        """A table booking (``BookTable``) or appointment (``ReserveService``) at ``moment``
        within a distance of ``anchor``, for ``people`` when given."""
        ctx = self.world.instore
        forbidden = ctx.forbidden
        anchored: type[VisitGoal] = AnchoredTable if cls is BookTable else AnchoredService

        def ok(c: ShopCategory) -> bool:
            """Takes this kind of visit at ``moment``, for ``people``, from people (not cars)."""
            diet = forbidden if c.dining else frozenset()
            return (
                cls.usable(c, diet)
                and open_at(c, moment)
                and c.solo is None
                and (people is None or people <= c.party)
            )

        free = ctx.unrelated(ok)
        if not free:
            self.plan.problems.append(f"no shop category open at {moment:%H:%M}")
            return None
        category = pick(self.rng, free)
        ctx.used.append(category.key)
        days = set(ctx.days)
        goal = anchored(self.index("instore"), category, ctx)
        ctx.days = days  # the appointment is on the story's day, not the one drawn
        place_visit(goal, self.rng, anchor, moment, people)
        self.plan.visits.append((anchor.city, moment.date()))
        return self.add("instore", goal.kind, goal, lead)

    # ---- OTA -------------------------------------------------------------------------------

    def ota(self, kind: str) -> Slot:
        """An OTA request that needs no trip (usual hotel elsewhere, date change, cancel)."""
        ctx = self.world.ota
        i = self.index("ota")
        goal: OTAGoal
        if kind == "usual_hotel":
            goal = UsualHotelGoal(i, ctx, separate=True)
        elif kind == "change_date":
            goal = ChangeDate(i, ctx)
        else:
            goal = CancelBooking(i, ctx)
        return self.add("ota", kind, goal)

    def ride(self, mode: str, origin: City, dest: City, when: When) -> TimedTrain | TimedFlight:
        """A train or flight sub-goal (not yet timed)."""
        cls = TimedFlight if mode == "flight" else TimedTrain
        return cls(self.index("ota"), self.world.ota, origin, dest, when)

    # ---- requests ----------------------------------------------------------------------------

    def make(self, domain: Domain, kind: str) -> Slot | None:
        """A request of ``kind`` in ``domain``."""
        if domain == "delivery":
            return self.delivery(kind)
        if domain == "instore":
            return self.instore(kind)
        return self.ota(kind)

    def extras(self, count: int, domains: Sequence[Domain] = DOMAINS) -> None:
        """``count`` more requests drawn from :data:`EXTRA_KINDS` (each kind once per task)."""
        for _ in range(count):
            options = [
                ((d, k), DOMAIN_WEIGHTS[d] * w)
                for d in domains
                if len(self.kinds(d)) < MOST_PER_DOMAIN[d]
                for k, w in EXTRA_KINDS[d]
                if k not in self.kinds(d)
            ]
            if not options:
                self.plan.problems.append("no request left to add")
                return
            domain, kind = weighted(self.rng, options)
            self.make(domain, kind)


# --------------------------------------------------------------------------------------------
# Stories
# --------------------------------------------------------------------------------------------


def ordered(rng: random.Random, options: Sequence[tuple[str, float]]) -> list[str]:
    """``options`` in a random order drawn by weight (heavier ones tend to come first)."""
    left = list(options)
    out: list[str] = []
    while left:
        choice = weighted(rng, left)
        out.append(choice)
        left = [(k, w) for k, w in left if k != choice]
    return out


def hotel_anchor(city: City) -> Anchor:
    """The hotel of the trip, bound once the hotel sub-goal has its hotels."""
    phrase = ctext.hotel_to(city.name)
    return Anchor("hotel", city, city_centre(city), phrase, phrase, phrase)


def compose_trip(c: Composer, count: int) -> None:
    """The ``trip`` story (see the module docstring)."""
    rng, world = c.rng, c.world
    octx = world.ota
    home = world.home
    first, second = ("dinner", "to_hotel") if rng.random() < 0.5 else ("to_hotel", "dinner")
    rest = ordered(rng, [(second, 0.8), ("transport", 1.0), ("attraction", 0.45)])
    parts = ["hotel", first, *rest[: max(0, count - 2)]]
    mode: str | None = None
    city: City | None = None
    if "transport" in parts:
        modes = ["flight", "train"] if has_airport(home) and rng.random() < 0.4 else ["train"]
        modes += [m for m in ("train", "flight") if m not in modes]
        for option in modes:
            city = octx.take_city(lambda x, m=option: feasible(m, home, x))
            if city is not None:
                mode = option
                break
        if city is None:
            parts.remove("transport")
    if city is None:
        city = octx.take_city()
    assert city is not None
    when = trip_day(rng, octx.today)
    purpose = pick(rng, TRIP_PURPOSES)
    octx.trip = Trip(city, when, purpose)
    c.plan.intro = ctext.trip_intro(purpose, city.name, when)
    day = when.day
    # the evening's plans, fixed first: a train or flight must arrive an hour before them
    dinner_at: datetime | None = None
    visit_cls: type[VisitGoal] = BookTable
    if "dinner" in parts:
        if rng.random() < 0.7:
            dinner_at = at(day, *pick(rng, ((17, 30), (18, 0), (18, 30), (19, 0), (19, 30))))
        else:
            visit_cls = ReserveService
            dinner_at = at(day, *pick(rng, ((19, 30), (20, 0), (20, 30))))
    deliver_at: datetime | None = None
    periods = frozenset({"dinner"})
    lead = ctext.AFTER_CHECK_IN
    if "to_hotel" in parts:
        styles = [("morning", 0.5), ("night", 0.5)]
        if dinner_at is None:
            styles = [("dinner", 0.5), ("night", 0.25), ("morning", 0.25)]
        style = weighted(rng, styles)
        if style == "dinner":
            deliver_at = at(day, *pick(rng, ((19, 0), (19, 30), (20, 0))))
        elif style == "night":
            deliver_at = at(day, *pick(rng, ((21, 0), (21, 30), (22, 0))))
            periods = frozenset({"night"})
        else:
            deliver_at = at(day + timedelta(days=1), *pick(rng, ((7, 30), (8, 0), (8, 30))))
            periods, lead = frozenset({"breakfast"}), ctext.NEXT_MORNING
    plans = [t for t in (dinner_at, deliver_at) if t is not None and t.date() == day]
    party = weighted(rng, [(1, 0.35), (2, 0.4), (3, 0.15), (4, 0.1)])
    # instruction order: getting there, the hotel, that day's plans, then the attraction
    if "transport" in parts:
        assert mode is not None
        ride = c.ride(mode, home, city, when)
        ride.quantity = party
        if plans:
            earliest = min(plans)
            if arrive_by(ride, minutes(earliest) - 60, rng):
                ride.timed(earliest, None)
                c.plan.rides.append(ride)
            else:
                c.plan.problems.append(f"no departure window reaches {city.name.en} in time")
                ride.timed(None, None)
        else:
            ride.timed(None, None)
        c.add("ota", ride.kind, ride)
    hotel_goal: OTAGoal
    if rng.random() < 0.2:
        hotel_goal = UsualHotelGoal(c.index("ota"), octx, separate=False)
    else:
        hotel_goal = HotelGoal(c.index("ota"), octx)
    link = Link(c.add("ota", hotel_goal.kind, hotel_goal), hotel_anchor(city))
    c.plan.links.append(link)
    if dinner_at is not None:
        slot = c.visit(visit_cls, dinner_at, link.anchor, party)
        if slot is not None:
            link.dependents.append(slot)
    if deliver_at is not None:
        slot = c.scheduled(link.anchor, deliver_at, lead, periods)
        if slot is not None:
            link.dependents.append(slot)
    if "attraction" in parts:
        attraction = AttractionGoal(c.index("ota"), octx)
        attraction.quantity = party
        c.add("ota", "attraction", attraction)
    c.extras(count - len(c.plan.slots))


def compose_outing(c: Composer, count: int) -> None:
    """The ``outing`` story (see the module docstring)."""
    rng, world = c.rng, c.world
    octx = world.ota
    home = world.home
    purpose = pick(rng, OUTING_PURPOSES)
    octx.trip = Trip(home, trip_day(rng, octx.today, 2, 21), purpose)
    attraction = AttractionGoal(c.index("ota"), octx)
    source = c.add("ota", "attraction", attraction)
    c.plan.intro = ctext.outing_intro(purpose, attraction.when)
    lunch = rng.random() < 0.5
    times = ((11, 30), (12, 0), (12, 30)) if lunch else ((17, 30), (18, 0), (18, 30))
    meal_at = at(attraction.day, *pick(rng, times))
    people = max(2, attraction.quantity)
    word = attraction.category.word
    of = ctext.attraction_of(word)
    link = Link(source, Anchor("attraction", home, city_centre(home), of, of, of))
    c.plan.links.append(link)
    meal = c.visit(BookTable, meal_at, link.anchor, people, ctext.meal_lead(meal_at, True))
    if meal is not None:
        link.dependents.append(meal)
    if count > len(c.plan.slots):
        if meal is not None and rng.random() < 0.5:
            c.treat_link(meal, meal_at, people)
        else:
            c.relatives()
    c.extras(count - len(c.plan.slots))


def compose_visit(c: Composer, count: int) -> None:
    """The ``visit`` story (see the module docstring)."""
    rng, world = c.rng, c.world
    octx = world.ota
    home = world.home
    guests = pick(rng, GUESTS)
    modes = ["train", "flight"] if rng.random() < 0.75 or not has_airport(home) else ["flight"]
    modes += [m for m in ("train", "flight") if m not in modes]
    origin: City | None = None
    mode = "train"
    for option in modes:
        origin = octx.take_city(lambda x, m=option: feasible(m, x, home))
        if origin is not None:
            mode = option
            break
    if origin is None:
        c.plan.problems.append(f"no city reaches {home.name.en}")
        return
    when = trip_day(rng, octx.today, 2, 30)
    c.plan.intro = ctext.visit_intro(guests.who, origin.name, home.name, when)
    ride = c.ride(mode, origin, home, when)
    lunch = ((11, 30), (12, 0), (12, 30))
    dinner = ((17, 30), (18, 0), (18, 30), (19, 0))
    choices = [lunch, dinner] if rng.random() < 0.4 else [dinner]
    meal_at: datetime | None = None
    for times in choices:
        moment = at(when.day, *pick(rng, times))
        if arrive_by(ride, minutes(moment) - 60, rng):
            meal_at = moment
            break
    if meal_at is None:
        c.plan.problems.append(f"no departure window from {origin.name.en} in time")
        return
    ride.timed(meal_at, guests)
    c.plan.rides.append(ride)
    c.add("ota", ride.kind, ride)
    people = min(6, guests.count + rng.randint(1, 3))
    if mode == "train" and rng.random() < 0.5:
        terminal = OTACatalog.terminal(home, "train")
        of = ctext.station_of(guests.who)
        anchor = Anchor("station", home, terminal, of, of, ctext.station_rubric(terminal.address))
    else:
        home_place = world.instore.places["home"]
        anchor = Anchor(
            "home", home, home_place.place, home_place.of, home_place.of, home_place.rubric
        )
    meal = c.visit(BookTable, meal_at, anchor, people, ctext.meal_lead(meal_at, False))
    if meal is not None and count > len(c.plan.slots):
        c.treat_link(meal, meal_at, people)
    c.extras(count - len(c.plan.slots))


def compose_errands(c: Composer, count: int) -> None:
    """The ``errands`` story (see the module docstring)."""
    rng = c.rng
    c.plan.intro = ctext.ERRANDS_INTRO
    pool = list(DOMAINS)
    rng.shuffle(pool)
    domains = pool if count >= 3 and rng.random() < 0.75 else pool[:2]
    allot = dict.fromkeys(domains, 1)
    for _ in range(count - len(domains)):
        room = [(d, DOMAIN_WEIGHTS[d]) for d in domains if allot[d] < len(EXTRA_KINDS[d])]
        if not room:
            break
        allot[weighted(rng, room)] += 1
    chosen: dict[Domain, list[str]] = {}
    for d in domains:
        left = list(EXTRA_KINDS[d])
        chosen[d] = []
        for _ in range(allot[d]):
            kind = weighted(rng, left)
            chosen[d].append(kind)
            left = [(k, w) for k, w in left if k != kind]
    if not any(near_miss_kind(d, k) for d in domains for k in chosen[d]):
        d = domains[0]
        fix = "constrained" if d == "delivery" else "buy"
        chosen[d][-1] = fix
    for d in domains:
        for kind in chosen[d]:
            c.make(d, kind)


def compose(world: World, story: str, count: int) -> Plan:
    """The plan of ``story`` with ``count`` sub-goals over ``world``."""
    composer = Composer(world, story)
    {
        "trip": compose_trip,
        "outing": compose_outing,
        "visit": compose_visit,
        "errands": compose_errands,
    }[story](composer, count)
    return composer.plan
