"""The cross-scenario task generator: one world, a story, three domains' providers, one record.

The build follows the dependencies between sub-goals: the OTA providers first (the booked
hotel or attraction is an anchor for in-store and delivery sub-goals), then the in-store shops
(the booked restaurant is an anchor for deliveries), then the delivery stores. Each domain's
providers are made by that domain's own task builder (budget, distractor roles, ids, decoys),
over the shared world.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from lifebench.vita.generate.cross import text as ctext
from lifebench.vita.generate.cross.goals import (
    ScheduledDelivery,
    ScheduledGroupDelivery,
    bind_visit,
    in_time,
)
from lifebench.vita.generate.cross.render import Built, render_task
from lifebench.vita.generate.cross.stories import (
    DOMAINS,
    STORIES,
    Domain,
    Link,
    Plan,
    compose,
)
from lifebench.vita.generate.cross.world import Products, World, make_world
from lifebench.vita.generate.delivery.context import Goal as DeliveryGoal
from lifebench.vita.generate.delivery.context import current_section
from lifebench.vita.generate.delivery.generator import TaskBuilder as DeliveryBuilder
from lifebench.vita.generate.delivery.history import draft_sections
from lifebench.vita.generate.delivery.model import StoreDraft
from lifebench.vita.generate.instore.context import Goal as InStoreGoal
from lifebench.vita.generate.instore.generator import TaskBuilder as InStoreBuilder
from lifebench.vita.generate.instore.generator import near_miss_problems
from lifebench.vita.generate.instore.goal_select import SelectionGoal as VisitGoal
from lifebench.vita.generate.instore.history import draft_history as instore_history
from lifebench.vita.generate.instore.model import ShopDraft
from lifebench.vita.generate.knobs import KnobbedGenerator, KnobRules
from lifebench.vita.generate.ota.catalog import Catalog as OTACatalog
from lifebench.vita.generate.ota.context import Goal as OTAGoal
from lifebench.vita.generate.ota.generator import TaskBuilder as OTABuilder
from lifebench.vita.generate.ota.goal_attraction import AttractionGoal
from lifebench.vita.generate.ota.goal_hotel import HotelGoal, UsualHotelGoal
from lifebench.vita.generate.ota.history import draft_history as ota_history
from lifebench.vita.generate.ota.model import AttractionDraft, HotelDraft
from lifebench.vita.generate.pools.food import KIN as FOOD_KIN
from lifebench.vita.generate.pools.places import City
from lifebench.vita.generate.protocol import Draft, TaskSpec
from lifebench.vita.generate.world import Place, weather_entry, weighted
from lifebench.vita.grading.state import ADDRESS_TOLERANCE_M


class CrossGenerator(KnobbedGenerator):
    """Generates cross-scenario tasks (see :mod:`lifebench.vita.generate.cross`)."""

    domain: ClassVar[str] = "cross"
    vita_domain: ClassVar[str] = "cross"
    KNOBS: ClassVar[KnobRules] = KnobRules(
        "cross",
        min_subgoals=2,
        max_subgoals=6,
        min_products=3,
        max_products=12,
        max_providers=48,
        default_subgoals=((2, 0.2), (3, 0.4), (4, 0.3), (5, 0.1)),
        why_subgoals="sub-goals of at least two domains",
    )
    DEFAULT_PRODUCTS: ClassVar[int] = 5
    """Products per provider (the official cross-scenario set has 5.2 on average)."""

    def products(self, spec: TaskSpec) -> Products:
        """Products per provider in every domain: the knob, else :attr:`DEFAULT_PRODUCTS`."""
        count = spec.products or self.DEFAULT_PRODUCTS
        return Products(count, count, count)

    def builder(self, spec: TaskSpec, rng: random.Random) -> TaskBuilder:
        """The builder of one task (tests use it to look at the plan behind a draft)."""
        return TaskBuilder(spec, rng, self.subgoal_count(spec, rng), self.products(spec))


def default_budget(plan: Plan, rng: random.Random) -> int:
    """Providers of a task when ``--providers`` is not given: every core provider, one
    distractor per optional role, and at most one more, but no fewer than two per sub-goal
    (one budget for the whole task, not one per domain, so a three-domain task is not three
    tasks' worth of providers)."""
    goals = [g for d in DOMAINS for g in plan.goals(d)]
    optional = sum(len(g.optional_roles()) for g in goals)
    drawn = sum(g.core for g in goals) + optional + rng.randint(0, 1)
    return max(drawn, 2 * len(goals))


def split_budget(total: int, plan: Plan) -> dict[Domain, int]:
    """Providers per domain: each domain's core ones, then its optional distractors round-robin,
    then extra ones round-robin for delivery and in-store (they can always add a distractor or
    an unrelated store); OTA takes extra ones only when it is the only domain that can (a city
    holds at most 20 hotels or attractions)."""
    goals = {d: plan.goals(d) for d in DOMAINS}
    budget = {d: sum(g.core for g in goals[d]) for d in DOMAINS}
    wanted = {d: sum(len(g.optional_roles()) for g in goals[d]) for d in DOMAINS}
    spare = total - sum(budget.values())
    order: tuple[Domain, ...] = ("ota", "instore", "delivery")
    while spare > 0 and any(wanted[d] > 0 for d in order):
        for d in order:
            if spare > 0 and wanted[d] > 0:
                budget[d] += 1
                wanted[d] -= 1
                spare -= 1
    growing: list[Domain] = [d for d in ("instore", "delivery") if goals[d]]
    if not growing and any(g.extra_roles() for g in goals["ota"]):
        growing = ["ota"]
    turn = 0
    while spare > 0 and growing:
        budget[growing[turn % len(growing)]] += 1
        turn += 1
        spare -= 1
    return budget


def booked(goal: Any) -> HotelDraft | AttractionDraft | ShopDraft | None:
    """The provider a source sub-goal books (the hotel, attraction or restaurant)."""
    if isinstance(goal, HotelGoal | AttractionGoal):
        provider = goal.winner[0]
        assert isinstance(provider, HotelDraft | AttractionDraft)
        return provider
    if isinstance(goal, UsualHotelGoal):
        return goal.hotel
    if isinstance(goal, VisitGoal):
        return goal.winner[0]
    return None


class TaskBuilder:
    """Builds one task; every random draw happens in a fixed order, language-independent.

    After :meth:`run`, ``world``, ``plan`` and ``built`` describe the world behind the draft
    (``built`` only when the plan could be composed).
    """

    world: World
    plan: Plan
    built: Built

    def __init__(self, spec: TaskSpec, rng: random.Random, count: int, products: Products) -> None:
        """Remember the request; nothing is drawn before :meth:`run`."""
        self.spec = spec
        self.rng = rng
        self.count = count
        self.products = products
        self.total = 0
        self.problems: list[str] = []
        self.started = False

    def run(self) -> Draft:
        """Compose the story, build every domain's providers, self-check, render."""
        if self.started:
            raise RuntimeError("a TaskBuilder builds one task; make a new one")
        self.started = True
        rng = self.rng
        self.world = world = make_world(self.spec, rng, self.products)
        story = weighted(rng, list(STORIES.items()))
        self.plan = plan = compose(world, story, self.count)
        problems = self.problems
        problems += plan.problems
        if len(plan.domains()) < 2:
            problems.append(f"only {plan.domains()} involved")
        if problems:
            return Draft({}, tuple(problems))
        self.total = self.spec.providers or default_budget(plan, rng)
        budgets = split_budget(self.total, plan)
        self.built = built = Built(world, plan)
        self.build_ota(built, budgets["ota"])
        self.bind(plan.links, "ota", built)
        self.build_instore(built, budgets["instore"])
        self.bind(plan.links, "instore", built)
        self.build_delivery(built, budgets["delivery"])
        problems += self.check(built)
        self.draft_history(built)
        built.weather = self.weather(world, plan)
        task = render_task(built, self.spec.language)
        overall = task["evaluation_criteria"]["overall_rubrics"]
        if len(set(overall)) != len(overall):
            problems.append("duplicate rubrics")
        if not self.near_miss(plan, task):
            problems.append("no sub-goal for the distractor oracle to get wrong")
        return Draft(task, tuple(problems))

    # ---- providers -----------------------------------------------------------------------------

    def domain_spec(self, budget: int) -> TaskSpec:
        """The task spec a domain builder works with (its share of the providers)."""
        return replace(self.spec, providers=budget)

    def build_ota(self, built: Built, budget: int) -> None:
        """Hotels, attractions, flights and trains of the OTA sub-goals."""
        goals = [g for g in built.plan.goals("ota") if isinstance(g, OTAGoal)]
        if not goals:
            return
        builder = OTABuilder(self.domain_spec(budget), self.rng, len(goals), self.products.ota)
        builder.goals = goals
        providers = builder.build_providers(OTACatalog(self.world.ota))
        self.rng.shuffle(providers)
        builder.assign_ids(providers)
        built.providers = providers
        self.problems += builder.problems
        for goal in goals:
            self.problems += goal.check(self.world.ota, providers)
        self.problems += builder.check_world(providers)
        for ride in built.plan.rides:
            if ride.plans is not None and not in_time(ride, ride.plans):
                self.problems.append(f"{ride.kind} sub-goal {ride.index} arrives too late")

    def build_instore(self, built: Built, budget: int) -> None:
        """Shops (and a decoy order) of the in-store sub-goals."""
        goals = [g for g in built.plan.goals("instore") if isinstance(g, InStoreGoal)]
        if not goals:
            return
        ctx = self.world.instore
        builder = InStoreBuilder(
            self.domain_spec(budget), self.rng, len(goals), self.products.instore
        )
        shops = builder.build_shops(ctx, goals, self.problems)
        home = self.world.home
        built.instore_decoys = builder.decoys(ctx, goals, self.local(shops, home))
        self.rng.shuffle(shops)
        builder.assign_ids(shops)
        built.shops = shops
        for goal in goals:
            self.problems += goal.check(ctx, shops)
        for shop in shops:
            if len(shop.products) != self.products.instore:
                self.problems.append(f"{shop.name.en} has {len(shop.products)} products")

    def build_delivery(self, built: Built, budget: int) -> None:
        """Stores (and a decoy order) of the delivery sub-goals."""
        goals = [g for g in built.plan.goals("delivery") if isinstance(g, DeliveryGoal)]
        if not goals:
            return
        ctx = self.world.delivery
        builder = DeliveryBuilder(
            self.domain_spec(budget), self.rng, len(goals), self.products.delivery
        )
        stores = builder.build_stores(ctx, goals, self.problems)
        built.delivery_decoys = builder.decoy(ctx, goals, self.local(stores, self.world.home))
        self.rng.shuffle(stores)
        builder.assign_ids(stores)
        built.stores = stores
        for goal in goals:
            self.problems += goal.check(ctx, stores)

    @staticmethod
    def local(providers: Sequence[StoreDraft | ShopDraft], city: City) -> list[Any]:
        """The stores / shops within 30 km of ``city``'s centre (decoy orders stay at home)."""
        centre = Place(city.name, city.longitude, city.latitude)
        return [
            p for p in providers if centre.metres_to(p.place.longitude, p.place.latitude) <= 30_000
        ]

    def bind(self, links: list[Link], stage: str, built: Built) -> None:
        """Bind the sub-goals tied to what the ``stage`` domain's sub-goals booked."""
        for link in links:
            if link.source.domain != stage:
                continue
            chosen = booked(link.source.goal)
            if chosen is None:
                self.problems.append(f"nothing booked for the {link.anchor.key}")
                continue
            if isinstance(chosen, HotelDraft):
                rubric = ctext.hotel_rubric(chosen.name)
            elif isinstance(chosen, AttractionDraft):
                rubric = ctext.attraction_rubric(chosen.name)
            else:
                rubric = ctext.restaurant_rubric(chosen.name)
            link.anchor = link.anchor.bound(chosen.place, rubric)
            for slot in link.dependents:
                goal = slot.goal
                if isinstance(goal, ScheduledDelivery | ScheduledGroupDelivery):
                    goal.bind(link.anchor)
                    built.places += self.candidates(link, built)
                elif isinstance(goal, VisitGoal):
                    bind_visit(goal, link.anchor)

    @staticmethod
    def candidates(link: Link, built: Built) -> list[Place]:
        """The places among which the anchor was chosen (every provider of the source's
        search space), listed so that a delivery address is one of the task's locations."""
        index, city = link.source.goal.index, link.anchor.city
        if link.source.domain == "ota":
            return [
                p.place
                for p in built.providers
                if p.owner == index
                and isinstance(p, HotelDraft | AttractionDraft)
                and p.city == city
            ]
        return [s.place for s in built.shops if s.owner == index]

    # ---- checks ----------------------------------------------------------------------------

    def check(self, built: Built) -> list[str]:
        """Provider budget met; the kin rule of delivery holds across the whole task; no other
        hotel / shop lies within the delivery grader's address tolerance of a booked place a
        delivery goes to (delivering next door must not count as delivering there)."""
        problems: list[str] = []
        for link in built.plan.links:
            if not any(s.domain == "delivery" for s in link.dependents):
                continue
            anchor = link.anchor.place
            others: list[Place] = [s.place for s in built.shops]
            if link.source.domain == "ota":
                others = [p.place for p in built.providers if isinstance(p, HotelDraft)]
            for place in others:
                metres = place.metres_to(anchor.longitude, anchor.latitude)
                if place.address != anchor.address and metres <= ADDRESS_TOLERANCE_M:
                    problems.append(f"{place.address.en} is {metres} m from the {link.anchor.key}")
        total = len(built.stores) + len(built.shops) + len(built.providers)
        if total != self.total:
            problems.append(f"{total} providers instead of {self.total}")
        used = self.world.delivery.used
        if len(set(used)) != len(used) or any(FOOD_KIN[a] & set(used) for a in used):
            problems.append(f"delivery categories overlap: {used}")
        return problems

    @staticmethod
    def near_miss(plan: Plan, task: Mapping[str, Any]) -> bool:
        """Whether the distractor oracle has a near miss to make: an OTA sub-goal, a new
        delivery order, or (in-store) what the in-store generator requires."""
        if plan.goals("ota"):
            return True
        env = task["environment"]
        records = [
            r for s in task["evaluation_criteria"]["expected_states"] for r in s["required_orders"]
        ]
        if any(
            r.get("order_type") == "delivery" and r["order_id"] not in env["orders"]
            for r in records
        ):
            return True
        return bool(plan.goals("instore")) and not near_miss_problems(dict(task))

    # ---- history and weather -------------------------------------------------------------------

    def draft_history(self, built: Built) -> None:
        """History sections of every domain involved (drawn in the official domain order)."""
        world, plan = built.world, built.plan
        dgoals = [g for g in plan.goals("delivery") if isinstance(g, DeliveryGoal)]
        if dgoals:
            pinned = [e for g in dgoals if (e := g.recent()) is not None]
            reserved = {
                k
                for g in dgoals
                if g.recent() is not None
                for k in {g.category.key, *FOOD_KIN[g.category.key]}
            }
            section = current_section(world.period, world.weekend)
            built.delivery_history = draft_sections(world.delivery, section, pinned, reserved)
        igoals = [g for g in plan.goals("instore") if isinstance(g, InStoreGoal)]
        if igoals:
            entries = [x for g in igoals if (x := g.recent()) is not None]
            built.instore_history = instore_history(world.instore, entries)
        ogoals = [g for g in plan.goals("ota") if isinstance(g, OTAGoal)]
        if ogoals:
            built.ota_history = ota_history(world.ota, ogoals, built.providers)

    def weather(self, world: World, plan: Plan) -> list[Any]:
        """Today at home first, then the days and cities of the sub-goals, one entry each."""
        pairs = [(world.home, world.now.date())]
        for goal in plan.goals("ota"):
            if isinstance(goal, OTAGoal):
                pairs += goal.weather()
        pairs += plan.visits
        pairs += [(world.home, day) for day in sorted(world.instore.days)]
        seen: set[tuple[str, str]] = set()
        out = []
        for city, day in pairs:
            key = (city.name.en, day.isoformat())
            if key not in seen:
                seen.add(key)
                out.append((city, day, weather_entry(self.rng, city, day)))
        return out
