"""Selection sub-goals: order a dish that meets constraints, among targets and distractors.

Three kinds share the machinery: ``constrained`` (one dish), ``group_order`` (the same dish for
several people under a total budget) and ``create_unpaid`` (create the order, don't pay).

The search space of a selection sub-goal holds 1–2 *targets* that meet every constraint (with a
tie-break rule when there are two) and *distractors* that each break exactly one: a store too
far away (or too slow for the deadline), rated too low, of the wrong category, or a product over
budget or against the user's diet. Distances and arrival times use the domain's haversine and
delivery-minutes formula, so every constraint is decidable from the data with the tools.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any, ClassVar

from lifebench._util.text import Language
from lifebench.vita.domains._geo import DELIVERY_BASE_MINUTES, DELIVERY_MINUTES_PER_METRE
from lifebench.vita.generate.delivery import text
from lifebench.vita.generate.delivery.catalog import price_between, price_over, price_within
from lifebench.vita.generate.delivery.context import Context, Goal, Line, order_record
from lifebench.vita.generate.delivery.model import Constraints, ProductDraft, StoreDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.food import KIN, UNPAID_REASONS, VARIANTS, FoodCategory
from lifebench.vita.generate.world import pick, weighted

KM_LIMITS: tuple[float, ...] = (1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
MIN_RATINGS: tuple[float, ...] = (4.3, 4.4, 4.5, 4.6, 4.7)


def ceil_to(moment: datetime, minutes: int) -> datetime:
    """``moment`` rounded up to a multiple of ``minutes`` past the hour (seconds dropped)."""
    base = moment.replace(second=0, microsecond=0)
    if base < moment:
        base += timedelta(minutes=1)
    return base + timedelta(minutes=(-base.minute) % minutes)


def metres_for(minutes: float) -> float:
    """Distance whose (unrounded) rider time is ``minutes``."""
    return (minutes - DELIVERY_BASE_MINUTES) / DELIVERY_MINUTES_PER_METRE


class SelectionGoal(Goal):
    """Order a dish under constraints (see the module docstring)."""

    kind: ClassVar[str] = "constrained"
    group: ClassVar[bool] = False
    pays: ClassVar[bool] = True

    def __init__(self, index: int, category: FoodCategory, ctx: Context) -> None:
        super().__init__(index, category, ctx)
        rng = ctx.rng
        if not self.group and "other" in ctx.places and rng.random() < 0.3:
            self.place = ctx.places["other"]
        else:
            self.place = ctx.home_or_work()
        self.quantity = rng.randint(2, 5) if self.group else 1
        forbidden = ctx.forbidden
        violating = sum(1 for d in category.dishes if d.flags & forbidden) * len(VARIANTS)
        # Without a price limit, a store's distractors must all break the diet: enough of them?
        enough = violating >= ctx.catalog.products_per_store
        use_price = self.group or not (forbidden and enough) or rng.random() < 0.8
        self.spatial = weighted(rng, [("distance", 0.45), ("deadline", 0.25), ("none", 0.3)])
        rating = pick(rng, MIN_RATINGS) if rng.random() < 0.7 else None
        self.tie = weighted(
            rng, [("none", 0.5), ("price", 0.2), ("rating", 0.15), ("distance", 0.15)]
        )
        lo, hi = category.price
        cap = float(max(5 * round(rng.uniform(lo + 0.45 * (hi - lo), hi) / 5), lo + 5))
        self.km = pick(rng, KM_LIMITS) if self.spatial == "distance" else None
        self.deadline: datetime | None = None
        if self.spatial == "deadline":
            self.deadline = ceil_to(ctx.now + timedelta(minutes=rng.randint(35, 55)), 5)
        self.scheduled: datetime | None = None
        if self.spatial != "deadline" and rng.random() < 0.3:
            when = ceil_to(ctx.now + timedelta(minutes=rng.randint(70, 150)), 15)
            if when.date() == ctx.now.date() and when.hour * 60 + when.minute <= 23 * 60 + 30:
                self.scheduled = when
        self.constraints = Constraints(
            category=category.key,
            place=self.place.place,
            now=ctx.now,
            max_distance_m=round(self.km * 1000) if self.km else None,
            deadline=self.deadline,
            min_rating=rating,
            max_price=cap if use_price else None,
            forbidden=forbidden,
        )
        self.reason = pick(rng, UNPAID_REASONS)
        self.order_id = ctx.order_id("T")
        self.attribute: Bi | None = None
        self.targets: list[tuple[StoreDraft, ProductDraft]] = []

    # ---- store budget ------------------------------------------------------------------------

    @property
    def core(self) -> int:
        """The target store, plus a second one when the tie-break compares stores."""
        return 2 if self.tie in ("rating", "distance") else 1

    def optional_roles(self) -> list[str]:
        """One distractor store per store-level constraint, then one of the wrong category."""
        roles = []
        if self.spatial != "none":
            roles.append("far")
        if self.constraints.min_rating is not None:
            roles.append("low_rated")
        roles.append("wrong_category")
        return roles

    def extra_roles(self) -> list[str]:
        """Further distractors: a store without any valid dish, then more of each kind."""
        roles = ["no_valid_dish"] if self.constraints.product_level else []
        return roles + self.optional_roles()

    # ---- geometry and scores -----------------------------------------------------------------

    def good_range(self) -> tuple[float, float]:
        """Distances (m) from the delivery address that meet the spatial constraint."""
        c = self.constraints
        if c.max_distance_m is not None:
            return 0.2 * c.max_distance_m, 0.8 * c.max_distance_m
        if c.deadline is not None:
            slack = (c.deadline - c.now).total_seconds() / 60
            return 250.0, 0.85 * metres_for(math.floor(slack) - 3 - 0.5)
        return 300.0, 4500.0

    def bad_range(self) -> tuple[float, float]:
        """Distances (m) that break the spatial constraint by a clear margin."""
        c = self.constraints
        if c.max_distance_m is not None:
            return 1.3 * c.max_distance_m, 1.3 * c.max_distance_m + 4000
        assert c.deadline is not None
        slack = (c.deadline - c.now).total_seconds() / 60
        start = metres_for(math.ceil(slack) + 4 + 0.5) + 150
        return start, start + 3000

    def good_score(self, ctx: Context, floor: int | None = None) -> float:
        """A rating meeting the minimum (at least ``floor`` tenths when given)."""
        rating = self.constraints.min_rating
        low = floor if floor is not None else round(rating * 10) if rating else 38
        return ctx.rng.randint(low, 50) / 10

    # ---- products ----------------------------------------------------------------------------

    def fitting(self, ctx: Context, count: int, avoid: list[Bi]) -> list[ProductDraft]:
        """Products meeting every product-level constraint."""
        cap = self.constraints.max_price
        picks = ctx.catalog.dishes(self.category, count, ctx.safe, avoid)
        return [
            ctx.catalog.product(
                self.category, dish, name, price_within(ctx.rng, self.category, cap)
            )
            for dish, name in picks
        ]

    def violators(self, ctx: Context, count: int, avoid: list[Bi]) -> list[ProductDraft]:
        """Products of the category breaking exactly one product-level constraint."""
        c, rng, cat = self.constraints, ctx.rng, self.category
        kinds = [
            k for k in c.product_level if k != "diet" or any(not ctx.safe(d) for d in cat.dishes)
        ]
        if not kinds:
            raise AssertionError("a selection sub-goal needs a product-level constraint")
        rng.shuffle(kinds)
        out: list[ProductDraft] = []
        taken = list(avoid)
        for i in range(count):
            for turn in range(len(kinds)):
                kind = kinds[(i + turn) % len(kinds)]
                if kind == "price":
                    assert c.max_price is not None
                    picks = ctx.catalog.dishes(cat, 1, ctx.safe, taken)
                    price = price_over(rng, c.max_price) if picks else 0.0
                else:
                    picks = ctx.catalog.dishes(cat, 1, lambda d: not ctx.safe(d), taken)
                    price = price_within(rng, cat, c.max_price) if picks else 0.0
                if picks:
                    dish, name = picks[0]
                    taken.append(name)
                    out.append(ctx.catalog.product(cat, dish, name, price))
                    break
        return out

    def other_category(self, ctx: Context) -> FoodCategory:
        """An unclaimed category for a wrong-category distractor (cheap enough if priced)."""
        cap = self.constraints.max_price
        free = ctx.unrelated_categories()
        cheap = [c for c in free if cap is None or c.price[0] <= cap - 5]
        return pick(ctx.rng, cheap or free)

    # ---- building ----------------------------------------------------------------------------

    def build(self, ctx: Context, roles: list[str]) -> list[StoreDraft]:
        """Target store(s) and the granted distractor stores."""
        rng, cat, c = ctx.rng, self.category, self.constraints
        n = ctx.catalog.products_per_store
        lo, hi = self.good_range()
        stores = self.build_targets(ctx, lo, hi, n)
        for role in roles:
            if role == "far":
                place = ctx.catalog.around(self.place.place, *self.bad_range())
                products = self.fitting(ctx, n, [])
                stores.append(
                    ctx.catalog.store(cat, place, self.good_score(ctx), products, self.index, role)
                )
            elif role == "low_rated":
                assert c.min_rating is not None
                score = round(c.min_rating - rng.randint(1, 8) / 10, 1)
                place = ctx.catalog.around(self.place.place, lo, hi)
                products = self.fitting(ctx, n, [])
                stores.append(ctx.catalog.store(cat, place, score, products, self.index, role))
            elif role == "wrong_category":
                other = self.other_category(ctx)
                picks = ctx.catalog.dishes(other, n, ctx.safe)
                products = [
                    ctx.catalog.product(other, d, name, price_within(rng, other, c.max_price))
                    for d, name in picks
                ]
                place = ctx.catalog.around(self.place.place, lo, hi)
                stores.append(
                    ctx.catalog.store(
                        other, place, self.good_score(ctx), products, self.index, role
                    )
                )
            else:  # no_valid_dish
                place = ctx.catalog.around(self.place.place, lo, hi)
                products = self.violators(ctx, n, [])
                stores.append(
                    ctx.catalog.store(cat, place, self.good_score(ctx), products, self.index, role)
                )
        return stores

    def build_targets(self, ctx: Context, lo: float, hi: float, n: int) -> list[StoreDraft]:
        """One or two target stores; ``self.targets`` lists (store, product), winner first."""
        rng = ctx.rng
        mid = (lo + hi) / 2
        ranges = [(lo, hi), (lo, hi)]
        if self.tie == "distance":
            ranges = [(lo, mid - 0.1 * (hi - lo)), (mid + 0.1 * (hi - lo), hi)]
        scores = [self.good_score(ctx), self.good_score(ctx)]
        if self.tie == "rating":
            base = round(self.constraints.min_rating * 10) if self.constraints.min_rating else 40
            first = rng.randint(base + 2, 50)
            scores = [first / 10, rng.randint(base, first - 2) / 10]
        in_first = 2 if self.tie == "price" else 1
        stores = [self.target_store(ctx, ranges[0], scores[0], in_first, n)]
        if self.tie in ("rating", "distance"):
            stores.append(self.target_store(ctx, ranges[1], scores[1], 1, n))
        if self.targets and self.targets[0][1].attributes and rng.random() < 0.7:
            self.attribute = pick(rng, self.targets[0][1].attributes)
        return stores

    def target_store(
        self, ctx: Context, span: tuple[float, float], score: float, targets: int, n: int
    ) -> StoreDraft:
        """A store holding ``targets`` fitting products and violators for the rest."""
        rng = ctx.rng
        chosen = self.fitting(ctx, targets, [])
        if targets == 2:
            cap = self.constraints.max_price
            high = price_within(rng, self.category, cap)
            chosen[0].price = price_between(rng, max(1.0, high * 0.5), high - 2.0)
            chosen[1].price = high
        others = self.violators(ctx, n - targets, [p.name for p in chosen])
        products = chosen + others
        rng.shuffle(products)
        place = ctx.catalog.around(self.place.place, *span)
        store = ctx.catalog.store(self.category, place, score, products, self.index, "target")
        self.targets.extend((store, p) for p in chosen)
        return store

    # ---- rendering ---------------------------------------------------------------------------

    @property
    def winner(self) -> tuple[StoreDraft, ProductDraft]:
        """The option the expected state holds (first target: cheaper / better / closer)."""
        return self.targets[0]

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The new order."""
        store, product = self.winner
        dispatch = ctx.now if self.deadline is not None else None
        return [
            order_record(
                ctx,
                language,
                order_id=self.order_id,
                store=store,
                lines=[Line(product, self.quantity, self.attribute)],
                place=self.place,
                status="paid" if self.pays else "unpaid",
                created=ctx.now,
                dispatch=dispatch,
                delivery=self.scheduled,
            )
        ]

    def instruction(self, ctx: Context) -> Bi:
        """Opening, requirements, tie-break, option and payment sentences."""
        c = self.constraints
        if self.group:
            opening = text.want_group(
                self.quantity, self.category.item, self.place.key == "work", self.place.to
            )
        else:
            opening = text.want_one(self.category.one, self.place.to)
        clauses: list[Bi] = []
        if c.min_rating is not None:
            clauses.append(text.clause_rating(c.min_rating))
        if self.km is not None:
            clauses.append(text.clause_distance(self.km, self.place.of))
        if c.max_price is not None:
            clauses.append(
                text.clause_budget(c.max_price * self.quantity)
                if self.group
                else text.clause_price(c.max_price)
            )
        restriction = ctx.persona.restriction
        if restriction is not None:
            clauses.append(text.clause_diet(restriction.because, restriction.avoid))
        if self.deadline is not None:
            clauses.append(text.clause_deadline(self.deadline))
        if self.scheduled is not None:
            clauses.append(text.clause_scheduled(self.scheduled))
        ctx.rng.shuffle(clauses)
        parts = [opening, text.sentence(clauses)]
        if self.tie != "none":
            parts.append(text.TIE_BREAKS[self.tie])
        if self.attribute is not None:
            parts.append(text.choose_option(self.attribute))
        parts.append(text.PAY_NOW if self.pays else text.pay_later(self.reason))
        return text.join(parts)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Official-style rubrics of the sub-goal."""
        c = self.constraints
        store, product = self.winner
        out = [
            text.r_store_and_items(
                self.category.item, store.name, self.quantity, product.name, self.attribute
            )
        ]
        if self.km is not None:
            out.append(text.r_distance(store.name, self.km, self.place.rubric))
        if c.min_rating is not None:
            out.append(text.r_rating(store.name, c.min_rating))
        if c.max_price is not None:
            out.append(
                text.r_budget(store.name, c.max_price * self.quantity)
                if self.group
                else text.r_price(product.name, c.max_price)
            )
        restriction = ctx.persona.restriction
        if restriction is not None:
            out.append(text.r_diet(store.name, restriction.avoid))
        out.append(text.r_address(store.name, self.place.place.address))
        if self.deadline is not None:
            out.append(text.r_deadline(store.name, self.deadline))
        if self.scheduled is not None:
            out.append(text.r_scheduled(store.name, self.scheduled))
        if self.tie != "none":
            out.append(text.r_tie(self.tie, store.name, product.name))
        out.append(text.r_paid(store.name, self.pays))
        return out

    # ---- self-check --------------------------------------------------------------------------

    def check(self, ctx: Context, stores: list[StoreDraft]) -> list[str]:
        """Exactly the planned targets satisfy every constraint, own distractors break exactly
        one, and no store of a kin category could pass for the requested one."""
        c = self.constraints
        problems: list[str] = []
        fits: list[tuple[StoreDraft, ProductDraft]] = []
        kin = KIN[self.category.key]
        for store in stores:
            if store.category.key in kin:
                problems.append(
                    f"sub-goal {self.index}: {store.name.en} ({store.category.key}) could pass "
                    f"for {self.category.key}"
                )
            broken = c.store_violations(
                store.category.key, store.place.longitude, store.place.latitude, store.score
            )
            for product in store.products:
                all_broken = broken + c.product_violations(product.price, product.dish.flags)
                if not all_broken:
                    fits.append((store, product))
                elif store.owner == self.index and len(all_broken) != 1:
                    problems.append(
                        f"sub-goal {self.index}: distractor {product.name.en} at {store.name.en} "
                        f"breaks {all_broken}"
                    )
        want = {id(p) for _, p in self.targets}
        if {id(p) for _, p in fits} != want:
            names = sorted(p.name.en for _, p in fits)
            problems.append(f"sub-goal {self.index}: options meeting every constraint: {names}")
        elif len(fits) > 1 and self.best(fits) is not self.winner[1]:
            problems.append(f"sub-goal {self.index}: the tie-break does not pick the winner")
        return problems

    def best(self, fits: list[tuple[StoreDraft, ProductDraft]]) -> ProductDraft | None:
        """The unique best option by the tie-break rule (None on a tie or without a rule)."""

        def key(option: tuple[StoreDraft, ProductDraft]) -> float:
            store, product = option
            if self.tie == "price":
                return product.price
            if self.tie == "rating":
                return -store.score
            return float(self.place.place.metres_to(store.place.longitude, store.place.latitude))

        if self.tie == "none":
            return None
        ranked = sorted(fits, key=key)
        if len(ranked) > 1 and key(ranked[0]) == key(ranked[1]):
            return None
        return ranked[0][1]


class ConstrainedOrder(SelectionGoal):
    """Order one dish under constraints."""

    kind = "constrained"


class GroupOrder(SelectionGoal):
    """Order the same dish for several people under a total budget."""

    kind = "group_order"
    group = True


class UnpaidOrder(SelectionGoal):
    """Order one dish under constraints, but leave it unpaid."""

    kind = "create_unpaid"
    pays = False
