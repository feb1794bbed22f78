"""The in-store task generator: persona, clock, sub-goals, shops, then the official task record."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from lifebench.vita.generate.instore.catalog import Catalog
from lifebench.vita.generate.instore.context import Context, Goal, user_places
from lifebench.vita.generate.instore.goal_existing import CancelExisting, ModifyReservation
from lifebench.vita.generate.instore.goal_repeat import SameAsLast
from lifebench.vita.generate.instore.goal_select import (
    BookTable,
    BuyProduct,
    ReserveService,
)
from lifebench.vita.generate.instore.history import draft_history
from lifebench.vita.generate.instore.model import ShopDraft
from lifebench.vita.generate.instore.render import Decoy, render_task
from lifebench.vita.generate.knobs import KnobbedGenerator, KnobRules
from lifebench.vita.generate.pools.instore import KIN, ShopCategory
from lifebench.vita.generate.pools.people import RESTRICTIONS
from lifebench.vita.generate.protocol import Draft, TaskSpec
from lifebench.vita.generate.world import (
    make_persona,
    pick,
    random_day,
    random_moment,
    weather_entry,
    weighted,
)

GOAL_KINDS: Mapping[str, tuple[type[Goal], float]] = MappingProxyType(
    {
        "buy": (BuyProduct, 3.0),
        "book_table": (BookTable, 1.8),
        "reserve_service": (ReserveService, 1.8),
        "same_as_last": (SameAsLast, 1.4),
        "modify_reservation": (ModifyReservation, 1.1),
        "cancel_existing": (CancelExisting, 1.2),
    }
)
"""Sub-goal kinds with their class and how often they are drawn."""

CREATING: frozenset[str] = frozenset({"buy", "book_table", "reserve_service", "same_as_last"})
"""Kinds that create a new order or appointment (something the distractor oracle can miss)."""


def choose_kinds(rng: random.Random, count: int) -> list[str]:
    """``count`` sub-goal kinds: at most two ``buy``, other kinds at most once, and at least one
    that creates a record."""
    kinds: list[str] = []
    for _ in range(count):
        options = [
            (kind, weight)
            for kind, (_, weight) in GOAL_KINDS.items()
            if kinds.count(kind) < (2 if kind == "buy" else 1)
        ]
        kinds.append(weighted(rng, options) if options else "buy")
    if not CREATING & set(kinds):
        kinds[rng.randrange(count)] = "buy"
    return kinds


def choose_category(ctx: Context, goal: type[Goal]) -> ShopCategory | None:
    """A category the sub-goal can use, unrelated to every claimed one (not even kin)."""
    forbidden = ctx.forbidden
    free = ctx.unrelated(lambda c: goal.usable(c, forbidden if c.dining else frozenset()))
    return pick(ctx.rng, free) if free else None


class InStoreGenerator(KnobbedGenerator):
    """Generates in-store tasks (see :mod:`lifebench.vita.generate.instore`)."""

    domain: ClassVar[str] = "instore"
    vita_domain: ClassVar[str] = "instore"
    KNOBS: ClassVar[KnobRules] = KnobRules(
        "instore", min_subgoals=1, max_subgoals=5, min_products=3, max_products=12
    )

    def builder(self, spec: TaskSpec, rng: random.Random) -> TaskBuilder:
        """The builder of one task (tests use it to look at the sub-goals behind a draft)."""
        return TaskBuilder(spec, rng, self.subgoal_count(spec, rng), self.DEFAULT_PRODUCTS)


class TaskBuilder:
    """Builds one task; every random draw happens in a fixed order, language-independent.

    After :meth:`run`, ``ctx``, ``goals`` and ``shops`` describe the world behind the draft.
    """

    def __init__(self, spec: TaskSpec, rng: random.Random, count: int, products: int) -> None:
        self.spec = spec
        self.rng = rng
        self.count = count
        self.products = spec.products or products
        self.goals: list[Goal] = []
        self.shops: list[ShopDraft] = []

    def context(self) -> Context:
        """Persona, clock, places and the empty catalog."""
        rng = self.rng
        persona, book = make_persona(rng, RESTRICTIONS)
        day = random_day(rng)
        now = random_moment(rng, day, (8, 30), (20, 30))
        weekend = day.weekday() >= 5
        working = 9 <= now.hour < 18 and not weekend
        where = "work" if working and rng.random() < 0.7 else "home"
        catalog = Catalog(rng, book, self.products)
        return Context(rng, self.spec.task_id, persona, catalog, now, user_places(persona), where)

    def run(self) -> Draft:
        """Draw the world, build the shops, self-check, render (once per builder)."""
        if self.goals:
            raise RuntimeError("a TaskBuilder builds one task; make a new one")
        self.ctx = ctx = self.context()
        problems: list[str] = []
        for i, kind in enumerate(choose_kinds(self.rng, self.count)):
            cls = GOAL_KINDS[kind][0]
            category = choose_category(ctx, cls)
            if category is None:
                cls = BuyProduct
                category = choose_category(ctx, cls)
            if category is None:
                problems.append(f"sub-goal {i}: no category left")
                return Draft({}, tuple(problems))
            ctx.used.append(category.key)
            self.goals.append(cls(i, category, ctx))
        goals = self.goals
        shops = self.shops = self.build_shops(ctx, goals, problems)
        decoys = self.decoys(ctx, goals, shops)
        self.rng.shuffle(shops)
        self.assign_ids(shops)
        for goal in goals:
            problems += goal.check(ctx, shops)
        if self.spec.providers is not None and len(shops) != self.spec.providers:
            problems.append(f"{len(shops)} shops instead of {self.spec.providers}")
        for shop in shops:
            if len(shop.products) != self.products:
                problems.append(f"{shop.name.en} has {len(shop.products)} products")
        pinned = [entry for g in goals if (entry := g.recent()) is not None]
        history = draft_history(ctx, pinned)
        days = sorted({ctx.now.date(), *ctx.days})
        weather = [(d, weather_entry(self.rng, ctx.persona.city, d)) for d in days]
        task = render_task(self.spec.language, ctx, goals, shops, decoys, weather, history)
        overall = task["evaluation_criteria"]["overall_rubrics"]
        if len(set(overall)) != len(overall):
            problems.append("duplicate rubrics")
        problems += near_miss_problems(task)
        return Draft(task, tuple(problems))

    # ---- shops ---------------------------------------------------------------------------------

    def build_shops(self, ctx: Context, goals: list[Goal], problems: list[str]) -> list[ShopDraft]:
        """Core shops of every sub-goal, then distractors round-robin up to the budget."""
        optional = [g.optional_roles() for g in goals]
        if self.spec.providers is None:
            budget = sum(g.core for g in goals) + sum(len(o) for o in optional)
            budget += self.rng.randint(1, 3)
        else:
            budget = self.spec.providers
            while sum(g.core for g in goals) > budget and any(g.simplify() for g in goals):
                pass
            optional = [g.optional_roles() for g in goals]
        core = sum(g.core for g in goals)
        if budget < core:
            problems.append(f"{budget} shops cannot hold {core} core shops")
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
        shops: list[ShopDraft] = []
        for goal, granted in zip(goals, roles, strict=True):
            shops += goal.build(ctx, granted)
        anchor = ctx.here().place
        for _ in range(fillers):
            free = ctx.unrelated()
            if not free:
                break
            category = pick(self.rng, free)
            shops.append(ctx.catalog.random_shop(category, anchor, None, "filler", ctx.forbidden))
        return shops

    def assign_ids(self, shops: list[ShopDraft]) -> None:
        """Random-looking, unique shop and product ids (they reveal nothing about roles)."""
        seen: set[str] = set()

        def fresh(prefix: str, digits: int) -> str:
            while True:
                value = f"{prefix}{self.rng.randint(10 ** (digits - 1), 10**digits - 1)}"
                if value not in seen:
                    seen.add(value)
                    return value

        for shop in shops:
            shop.shop_id = fresh("I", 8)
            for product in shop.products:
                product.product_id = fresh(f"{shop.shop_id}_P", 5)

    def decoys(self, ctx: Context, goals: list[Goal], shops: list[ShopDraft]) -> list[Decoy]:
        """Sometimes a consumed order from days ago that the task never mentions, at a shop no
        "same as last time" sub-goal could mean."""
        if self.rng.random() >= 0.4:
            return []
        reserved = {
            k
            for g in goals
            if isinstance(g, SameAsLast)
            for k in (g.category.key, *KIN[g.category.key])
        }
        candidates = [
            (s, p)
            for s in shops
            if s.category.key not in reserved
            for p in s.products
            if not (p.flags & ctx.forbidden and s.category.dining)
        ]
        if not candidates:
            return []
        shop, product = pick(self.rng, candidates)
        return [Decoy(ctx.record_id("O"), shop, product, ctx.past(3, 30))]


def near_miss_problems(task: dict[str, Any]) -> list[str]:
    """Why the distractor oracle would have no near miss to make (empty: it has one).

    The distractor oracle buys another product instead of each new product order; without new
    orders, it makes the first new booking/reservation at another shop taking that kind of
    appointment (one no required appointment uses). Such a shop must exist.
    """
    env = task["environment"]
    records = [
        r for s in task["evaluation_criteria"]["expected_states"] for r in s["required_orders"]
    ]
    if any(
        r.get("order_type") == "instore" and r["order_id"] not in env["orders"] for r in records
    ):
        return []
    initial = set(env["books"]) | set(env["reservations"])
    appointments = [r for r in records if "book_id" in r or "reservation_id" in r]
    new = [r for r in appointments if (r.get("book_id") or r.get("reservation_id")) not in initial]
    if not new:
        return ["no new record for the distractor oracle to get wrong"]
    flag = "enable_book" if "book_id" in new[0] else "enable_reservation"
    used = {r["shop_id"] for r in appointments}
    if any(shop[flag] and sid not in used for sid, shop in env["shops"].items()):
        return []
    return [f"no other shop with {flag} for the distractor oracle"]
