"""The OTA task generator: persona, clock, trip, sub-goals, providers, then the task record."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from datetime import timedelta
from types import MappingProxyType
from typing import ClassVar

from lifebench.vita.generate.knobs import KnobbedGenerator, KnobRules
from lifebench.vita.generate.ota.catalog import Catalog
from lifebench.vita.generate.ota.context import (
    Context,
    Goal,
    Trip,
    can_fly,
    can_ride,
    has_airport,
)
from lifebench.vita.generate.ota.dates import describe, trip_day
from lifebench.vita.generate.ota.goal_attraction import AttractionGoal
from lifebench.vita.generate.ota.goal_existing import CancelBooking, ChangeDate
from lifebench.vita.generate.ota.goal_hotel import HotelGoal, UsualHotelGoal
from lifebench.vita.generate.ota.goal_transport import FlightGoal, TrainGoal
from lifebench.vita.generate.ota.history import draft_history
from lifebench.vita.generate.ota.model import TABLES, HotelDraft, Provider, TransportDraft
from lifebench.vita.generate.ota.render import World, render_task
from lifebench.vita.generate.pools.people import RESTRICTIONS
from lifebench.vita.generate.pools.travel import TRIP_PURPOSES
from lifebench.vita.generate.protocol import Draft, TaskSpec
from lifebench.vita.generate.world import (
    make_persona,
    pick,
    random_day,
    random_moment,
    weather_entry,
    weighted,
)

GOAL_KINDS: Mapping[str, float] = MappingProxyType(
    {
        "hotel": 2.5,
        "attraction": 1.5,
        "flight": 1.5,
        "train": 1.5,
        "usual_hotel": 1.0,
        "change_date": 1.2,
        "cancel": 1.2,
    }
)
"""Sub-goal kinds with how often they are drawn (each kind at most once per task), in the
order the instruction presents them."""

TRIP_KINDS = frozenset({"hotel", "attraction", "flight", "train", "usual_hotel"})
"""Kinds that belong to the trip (share its destination and date)."""

CITY_LIMIT = 20
"""Most hotels or attractions of one city, and trains or flights of one route, in a task (the
search tools return at most 20)."""


def choose_kinds(rng: random.Random, count: int, can_fly_home: bool) -> list[str]:
    """``count`` distinct kinds by weight, in :data:`GOAL_KINDS` order (flights only when the
    user's city has an airport)."""
    options = [(k, w) for k, w in GOAL_KINDS.items() if k != "flight" or can_fly_home]
    chosen: list[str] = []
    for _ in range(min(count, len(options))):
        left = [(k, w) for k, w in options if k not in chosen]
        chosen.append(weighted(rng, left))
    return [k for k in GOAL_KINDS if k in chosen]


class OTAGenerator(KnobbedGenerator):
    """Generates OTA tasks (see :mod:`lifebench.vita.generate.ota`)."""

    domain: ClassVar[str] = "ota"
    vita_domain: ClassVar[str] = "ota"
    DEFAULT_PRODUCTS: ClassVar[int] = 6
    KNOBS: ClassVar[KnobRules] = KnobRules(
        "ota",
        min_subgoals=1,
        max_subgoals=len(GOAL_KINDS),
        min_products=3,
        max_products=12,
        max_providers=20,
        why_subgoals="one per kind",
    )

    def builder(self, spec: TaskSpec, rng: random.Random) -> TaskBuilder:
        """The builder of one task (tests use it to look at the sub-goals behind a draft)."""
        return TaskBuilder(spec, rng, self.subgoal_count(spec, rng), self.DEFAULT_PRODUCTS)


class TaskBuilder:
    """Builds one task; every random draw happens in a fixed order, language-independent.

    After :meth:`run`, ``ctx``, ``goals`` and ``providers`` describe the world behind the draft.
    """

    def __init__(self, spec: TaskSpec, rng: random.Random, count: int, products: int) -> None:
        """Remember the request; nothing is drawn before :meth:`run`."""
        self.spec = spec
        self.rng = rng
        self.count = count
        self.products = spec.products or products
        self.goals: list[Goal] = []
        self.providers: list[Provider] = []
        self.problems: list[str] = []

    def context(self) -> Context:
        """Persona and clock."""
        rng = self.rng
        persona, _ = make_persona(rng, RESTRICTIONS, restriction_rate=0.3)
        now = random_moment(rng, random_day(rng), (8, 0), (21, 30))
        ctx = Context(rng, self.spec.task_id, persona, now, self.products)
        ctx.cities.append(persona.city)
        return ctx

    def plan_trip(self, ctx: Context, kinds: list[str]) -> None:
        """Destination (and onward city) fitting the transport sub-goals, date, purpose."""
        if not TRIP_KINDS & set(kinds):
            return
        rng, home = ctx.rng, ctx.home
        if "flight" in kinds:
            city = ctx.take_city(lambda c: can_fly(home, c))
        elif "train" in kinds:
            city = ctx.take_city(lambda c: can_ride(home, c))
        else:
            city = ctx.take_city()
        if city is None:
            self.problems.append("no destination fits the transport sub-goals")
            return
        when = trip_day(rng, ctx.today)
        onward = onward_when = None
        if "flight" in kinds and "train" in kinds:
            onward = ctx.take_city(lambda c: can_ride(city, c) and c.name.en != home.name.en)
            if onward is None:
                self.problems.append(f"no onward city by train from {city.name.en}")
                return
            day = when.day + timedelta(days=rng.randint(1, 3))
            onward_when = describe(rng, ctx.today, day, 0.3)
        ctx.trip = Trip(city, when, pick(rng, TRIP_PURPOSES), onward, onward_when)

    def make_goal(self, ctx: Context, index: int, kind: str, kinds: list[str]) -> Goal:
        """The sub-goal of ``kind``."""
        trip = ctx.trip
        if kind == "hotel":
            return HotelGoal(index, ctx)
        if kind == "attraction":
            return AttractionGoal(index, ctx)
        if kind == "usual_hotel":
            return UsualHotelGoal(index, ctx, separate="hotel" in kinds)
        if kind == "change_date":
            return ChangeDate(index, ctx)
        if kind == "cancel":
            return CancelBooking(index, ctx)
        assert trip is not None
        if kind == "flight":
            return FlightGoal(index, ctx, ctx.home, trip.city, trip.when)
        if trip.onward is not None and trip.onward_when is not None:
            return TrainGoal(index, ctx, trip.city, trip.onward, trip.onward_when)
        return TrainGoal(index, ctx, ctx.home, trip.city, trip.when)

    def run(self) -> Draft:
        """Draw the world, build the providers, self-check, render (once per builder)."""
        if self.goals:
            raise RuntimeError("a TaskBuilder builds one task; make a new one")
        self.ctx = ctx = self.context()
        kinds = choose_kinds(self.rng, self.count, has_airport(ctx.home))
        if len(kinds) < self.count:
            self.problems.append(f"only {len(kinds)} sub-goal kinds fit {ctx.home.name.en}")
        self.plan_trip(ctx, kinds)
        if self.problems:
            return Draft({}, tuple(self.problems))
        self.goals = [self.make_goal(ctx, i, kind, kinds) for i, kind in enumerate(kinds)]
        cat = Catalog(ctx)
        providers = self.providers = self.build_providers(cat)
        self.rng.shuffle(providers)
        self.assign_ids(providers)
        history = draft_history(ctx, self.goals, providers)
        seen: list[tuple[str, str]] = []
        weather = []
        for goal in self.goals:
            for city, day in goal.weather():
                if (city.name.en, day.isoformat()) not in seen:
                    seen.append((city.name.en, day.isoformat()))
                    weather.append((city, day, weather_entry(self.rng, city, day)))
        problems = list(self.problems)
        for goal in self.goals:
            problems += goal.check(ctx, providers)
        problems += self.check_world(providers)
        world = World(ctx, self.goals, providers, history, weather)
        task = render_task(world, self.spec.language)
        overall = task["evaluation_criteria"]["overall_rubrics"]
        if len(set(overall)) != len(overall):
            problems.append("duplicate rubrics")
        return Draft(task, tuple(problems))

    # ---- providers ---------------------------------------------------------------------------

    def build_providers(self, cat: Catalog) -> list[Provider]:
        """Core providers of every sub-goal, then distractors round-robin up to the budget."""
        goals = self.goals
        core = sum(g.core for g in goals)
        optional = [g.optional_roles() for g in goals]
        if self.spec.providers is None:
            budget = core + sum(len(o) for o in optional) + self.rng.randint(0, 2)
        else:
            budget = self.spec.providers
        if budget < core:
            self.problems.append(f"{budget} providers cannot hold {core} core providers")
        spare = budget - core
        roles: list[list[str]] = [[] for _ in goals]
        for rank in range(max((len(o) for o in optional), default=0)):
            for i, options in enumerate(optional):
                if spare > 0 and rank < len(options):
                    roles[i].append(options[rank])
                    spare -= 1
        cycling = [(i, g.extra_roles()) for i, g in enumerate(goals) if g.extra_roles()]
        turn = 0
        while spare > 0 and cycling:
            i, extra = cycling[turn % len(cycling)]
            roles[i].append(extra[(turn // len(cycling)) % len(extra)])
            turn += 1
            spare -= 1
        providers: list[Provider] = []
        for goal, granted in zip(goals, roles, strict=True):
            providers += goal.build(cat, granted)
        return providers

    def assign_ids(self, providers: list[Provider]) -> None:
        """Random-looking unique provider ids; product ids ``<provider>_<code>_<MMDD>``."""
        seen: set[str] = set()
        for provider in providers:
            while True:
                value = f"{provider.id_prefix}{self.rng.randint(100000, 999999)}"
                if value not in seen:
                    seen.add(value)
                    provider.provider_id = value
                    break
            for product in provider.products:
                product.product_id = (
                    f"{value}_{product.variant.code}_{product.day.month:02d}{product.day.day:02d}"
                )

    def check_world(self, providers: list[Provider]) -> list[str]:
        """Product counts, unique product ids, search-result limits."""
        problems = []
        ids: Counter[str] = Counter()
        places: Counter[tuple[str, str]] = Counter()
        for provider in providers:
            if len(provider.products) != self.products:
                problems.append(
                    f"{provider.title.en} has {len(provider.products)} products, "
                    f"not {self.products}"
                )
            ids.update(p.product_id for p in provider.products)
            if isinstance(provider, TransportDraft):
                key = f"{provider.origin.name.en}>{provider.dest.name.en}"
            else:
                key = provider.cities()[0].name.en
            places[(provider.table, key)] += 1
        problems += [f"product id {pid} used twice" for pid, n in ids.items() if n > 1]
        problems += [
            f"{n} {table} in {key}" for (table, key), n in places.items() if n > CITY_LIMIT
        ]
        hotels = [p for p in providers if isinstance(p, HotelDraft)]
        names = Counter((h.city.name.en, h.name.en) for h in hotels)
        problems += [f"two hotels named {n} in {c}" for (c, n), k in names.items() if k > 1]
        assert all(isinstance(p, TABLES) for p in providers)
        return problems
