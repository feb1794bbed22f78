"""The delivery task generator: persona, clock, sub-goals, stores, then the official task record."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import timedelta
from types import MappingProxyType
from typing import ClassVar

from lifebench.vita.generate.delivery import text
from lifebench.vita.generate.delivery.catalog import Catalog
from lifebench.vita.generate.delivery.context import PERIODS, Context, Goal, Line
from lifebench.vita.generate.delivery.goal_existing import CancelReorder, ChangeNote
from lifebench.vita.generate.delivery.goal_repeat import SameAsLast
from lifebench.vita.generate.delivery.goal_select import (
    ConstrainedOrder,
    GroupOrder,
    SelectionGoal,
    UnpaidOrder,
)
from lifebench.vita.generate.delivery.model import StoreDraft
from lifebench.vita.generate.delivery.render import Decoy, render_task
from lifebench.vita.generate.knobs import KnobbedGenerator, KnobRules
from lifebench.vita.generate.pools.food import KIN, FoodCategory
from lifebench.vita.generate.pools.people import RESTRICTIONS
from lifebench.vita.generate.protocol import Draft, TaskSpec
from lifebench.vita.generate.world import (
    make_persona,
    pick,
    place_around,
    random_day,
    random_moment,
    weather_entry,
    weighted,
)

GOAL_KINDS: Mapping[str, tuple[type[Goal], float]] = MappingProxyType(
    {
        "constrained": (ConstrainedOrder, 3.0),
        "same_as_last": (SameAsLast, 2.0),
        "group_order": (GroupOrder, 1.5),
        "cancel_reorder": (CancelReorder, 1.5),
        "change_note": (ChangeNote, 1.2),
        "create_unpaid": (UnpaidOrder, 1.0),
    }
)
"""Sub-goal kinds with their class and how often they are drawn."""


_SAFE_DISHES_NEEDED: Mapping[str, int] = MappingProxyType(
    {"constrained": 2, "group_order": 2, "create_unpaid": 2, "cancel_reorder": 2}
)
_MAIN_MEALS = frozenset({"lunch", "dinner"})


def related(category: FoodCategory) -> set[str]:
    """The category's key and its kin's."""
    return {category.key, *KIN[category.key]}


def choose_kinds(rng: random.Random, count: int) -> list[str]:
    """``count`` sub-goal kinds: at most two ``constrained``, other kinds at most once, and at
    least one that creates an order (so the distractor oracle has something to get wrong)."""
    kinds: list[str] = []
    for _ in range(count):
        options = [
            (kind, weight)
            for kind, (_, weight) in GOAL_KINDS.items()
            if kinds.count(kind) < (2 if kind == "constrained" else 1)
            and not (count == 1 and kind == "change_note")
        ]
        kinds.append(weighted(rng, options) if options else "constrained")
    return kinds


def choose_category(ctx: Context, kind: str, first: bool) -> FoodCategory:
    """A category unrelated to the other sub-goals' (not even kin), with enough dishes the user
    may eat. The first sub-goal prefers a category suiting the meal period; group orders are
    main meals."""
    need = _SAFE_DISHES_NEEDED.get(kind, 1)
    free = [
        c for c in ctx.unrelated_categories() if sum(1 for d in c.dishes if ctx.safe(d)) >= need
    ]
    if kind == "group_order":
        free = [c for c in free if c.periods & _MAIN_MEALS] or free
    fitting = [c for c in free if ctx.period in c.periods]
    if fitting and (first or ctx.rng.random() < 0.6):
        return pick(ctx.rng, fitting)
    return pick(ctx.rng, free)


class DeliveryGenerator(KnobbedGenerator):
    """Generates delivery tasks (see :mod:`lifebench.vita.generate.delivery`)."""

    domain: ClassVar[str] = "delivery"
    vita_domain: ClassVar[str] = "delivery"
    KNOBS: ClassVar[KnobRules] = KnobRules(
        "delivery", min_subgoals=1, max_subgoals=5, min_products=3, max_products=15
    )

    def builder(self, spec: TaskSpec, rng: random.Random) -> TaskBuilder:
        """The builder of one task (tests use it to look at the sub-goals behind a draft)."""
        return TaskBuilder(spec, rng, self.subgoal_count(spec, rng), self.DEFAULT_PRODUCTS)


class TaskBuilder:
    """Builds one task; every random draw happens in a fixed order, language-independent.

    After :meth:`run`, ``ctx``, ``goals`` and ``stores`` describe the world behind the draft.
    """

    def __init__(self, spec: TaskSpec, rng: random.Random, count: int, products: int) -> None:
        self.spec = spec
        self.rng = rng
        self.count = count
        self.products = spec.products or products
        self.goals: list[Goal] = []
        self.stores: list[StoreDraft] = []

    def context(self) -> Context:
        """Persona, clock, places, weather and the empty catalog."""
        rng = self.rng
        persona, book = make_persona(rng, RESTRICTIONS)
        day = random_day(rng)
        period, start, end = pick(rng, PERIODS)
        now = random_moment(rng, day, start, end)
        weekend = day.weekday() >= 5
        if weekend or period == "night":
            where = "home"
        elif period == "dinner":
            where = "work" if rng.random() < 0.3 else "home"
        elif period == "breakfast":
            where = pick(rng, ("home", "work"))
        else:
            where = "work"
        places = {"home": text.home_place(persona.home), "work": text.work_place(persona.work)}
        if rng.random() < 0.4:
            other = place_around(rng, persona.home, book.home(), 2000, 7000)
            while persona.work.metres_to(other.longitude, other.latitude) < 1500:
                other = place_around(rng, persona.home, other.address, 2000, 7000)
            places["other"] = text.other_place(other, pick(rng, text.OTHER_PLACES))
        self.day = day
        self.weather = weather_entry(rng, persona.city, day)
        catalog = Catalog(rng, book, self.products)
        return Context(
            rng, self.spec.task_id, persona, catalog, now, period, weekend, places, where
        )

    def run(self) -> Draft:
        """Draw the world, build the stores, self-check, render (once per builder)."""
        if self.goals:
            raise RuntimeError("a TaskBuilder builds one task; make a new one")
        self.ctx = ctx = self.context()
        goals = self.goals
        for i, kind in enumerate(choose_kinds(self.rng, self.count)):
            category = choose_category(ctx, kind, first=i == 0)
            ctx.used.append(category.key)
            goals.append(GOAL_KINDS[kind][0](i, category, ctx))
        problems: list[str] = []
        stores = self.stores = self.build_stores(ctx, goals, problems)
        decoys = self.decoy(ctx, goals, stores)
        self.rng.shuffle(stores)
        self.assign_ids(stores)
        for goal in goals:
            problems += goal.check(ctx, stores)
        task = render_task(self.spec.language, ctx, goals, stores, decoys, self.day, self.weather)
        overall = task["evaluation_criteria"]["overall_rubrics"]
        if len(set(overall)) != len(overall):
            problems.append("duplicate rubrics")
        return Draft(task, tuple(problems))

    # ---- stores ------------------------------------------------------------------------------

    def build_stores(
        self, ctx: Context, goals: list[Goal], problems: list[str]
    ) -> list[StoreDraft]:
        """Core stores of every sub-goal, then distractors round-robin up to the budget."""
        core = sum(g.core for g in goals)
        optional = [g.optional_roles() for g in goals]
        if self.spec.providers is None:
            budget = core + sum(len(o) for o in optional) + self.rng.randint(1, 3)
        else:
            budget = self.spec.providers
        if budget < core:
            problems.append(f"{budget} stores cannot hold {core} core stores")
        spare = budget - core
        roles: list[list[str]] = [[] for _ in goals]
        for rank in range(max((len(o) for o in optional), default=0)):
            for i, options in enumerate(optional):
                if spare > 0 and rank < len(options):
                    roles[i].append(options[rank])
                    spare -= 1
        cycling = [(i, g.extra_roles()) for i, g in enumerate(goals) if g.extra_roles()]
        fillers = 0
        turn = 0
        while spare > 0:
            if cycling:
                i, extra = cycling[turn % len(cycling)]
                roles[i].append(extra[(turn // len(cycling)) % len(extra)])
            else:
                fillers += 1
            turn += 1
            spare -= 1
        stores: list[StoreDraft] = []
        for goal, granted in zip(goals, roles, strict=True):
            stores += goal.build(ctx, granted)
        anchor = ctx.home_or_work().place
        for _ in range(fillers):
            category = pick(self.rng, ctx.unrelated_categories())
            stores.append(ctx.catalog.random_store(category, anchor, None, "filler"))
        return stores

    def assign_ids(self, stores: list[StoreDraft]) -> None:
        """Random-looking, unique store and product ids (they reveal nothing about roles)."""
        seen: set[str] = set()

        def fresh(prefix: str, digits: int) -> str:
            while True:
                value = f"{prefix}{self.rng.randint(10 ** (digits - 1), 10**digits - 1)}"
                if value not in seen:
                    seen.add(value)
                    return value

        for store in stores:
            store.store_id = fresh("S", 8)
            for product in store.products:
                product.product_id = fresh(f"{store.store_id}_P", 5)

    def decoy(self, ctx: Context, goals: list[Goal], stores: list[StoreDraft]) -> list[Decoy]:
        """A delivered order from a few days ago that the task never mentions (kept untouched)."""
        busy = {
            id(s)
            for s in stores
            if s.owner is not None and not isinstance(goals[s.owner], SelectionGoal)
        }
        reserved = {k for g in goals if isinstance(g, SameAsLast) for k in related(g.category)}
        wants = any(not g.creates_order or isinstance(g, CancelReorder) for g in goals)
        if not (wants or self.rng.random() < 0.35):
            return []
        candidates = [
            (s, p)
            for s in stores
            if id(s) not in busy and s.category.key not in reserved
            for p in s.products
            if ctx.safe(p.dish)
        ]
        if not candidates:
            return []
        store, product = pick(self.rng, candidates)
        when = ctx.now - timedelta(days=self.rng.randint(1, 6), minutes=self.rng.randint(0, 90))
        return [Decoy(store, Line(product, 1), when)]
