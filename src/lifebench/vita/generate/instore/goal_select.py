"""Selection sub-goals: buy a product, book a table or reserve a service under constraints.

Three kinds share the machinery: ``buy`` (a voucher, set meal or service package of a given
type, paid; sometimes followed by a booking or appointment at the same shop), ``book_table``
(a table at a restaurant that takes bookings, paying the fee if any) and ``reserve_service``
(an appointment at a service shop that takes reservations).

The search space of a sub-goal holds 1–2 *targets* meeting every constraint (with a tie-break
rule when there are two) and *distractors* that each break exactly one:

* distractor shops break one shop-level constraint — too far from home/office, rated too low,
  of the wrong category, not taking the appointment kind needed — while (when buying) offering
  a product that meets every product-level constraint;
* the other products of a target shop (and of a ``sold_out`` shop) each break one
  product-level constraint — another product type, over budget, against the user's diet,
  without the required feature, sold out.

Distances use the domain's haversine, so every constraint is decidable from the data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from lifebench._util.text import Language
from lifebench.vita.generate.instore import text
from lifebench.vita.generate.instore.catalog import Combo, price_between, price_over, price_under
from lifebench.vita.generate.instore.context import (
    Context,
    Goal,
    appointment_record,
    order_record,
)
from lifebench.vita.generate.instore.model import Constraints, ProductDraft, ShopDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.instore import KIN, Kind, ShopCategory, Style
from lifebench.vita.generate.world import pick, weighted

KM_LIMITS: tuple[float, ...] = (1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
MIN_RATINGS: tuple[float, ...] = (4.3, 4.4, 4.5, 4.6, 4.7)
SAFE_STYLES_TO_BUY = 3
"""Styles the user may eat a dining category needs before a purchase sub-goal may use it."""


def safe_styles(category: ShopCategory, forbidden: frozenset[str]) -> int:
    """Product lines of ``category`` without a forbidden dietary flag."""
    return sum(1 for s in category.styles if not s.flags & forbidden)


class SelectionGoal(Goal):
    """Choose a shop (and when buying, a product) under constraints; see the module docstring."""

    kind: ClassVar[str] = "buy"
    action: ClassVar[str] = "buy"

    def __init__(self, index: int, category: ShopCategory, ctx: Context) -> None:
        super().__init__(index, category, ctx)
        rng = ctx.rng
        other = "work" if ctx.where == "home" else "home"
        self.place = ctx.here() if rng.random() < 0.65 else ctx.places[other]
        self.km: float | None = pick(rng, KM_LIMITS) if rng.random() < 0.7 else None
        rating: float | None = pick(rng, MIN_RATINGS) if rng.random() < 0.7 else None
        if self.action != "buy" and self.km is None and rating is None:
            self.km = pick(rng, KM_LIMITS)
        if self.action == "buy":
            wants_visit = category.visit is not None and rng.random() < 0.45
            self.visit = category.visit if wants_visit else None
        else:
            self.visit = "book" if self.action == "book" else "reservation"
        forbidden = ctx.forbidden if category.dining else frozenset()
        kind_key: str | None = None
        cap: float | None = None
        feature = None
        self.quantity = 1
        if self.action == "buy":
            kinds = [k for k in category.kinds if not k.flags & forbidden] or list(category.kinds)
            self.product_kind = pick(rng, kinds)
            kind_key = self.product_kind.key
            if self.product_kind.people:
                self.people = self.product_kind.people
            else:
                top = max(1, min(3, category.party))
                self.people = self.quantity = weighted(
                    rng, [(n, w) for n, w in ((1, 0.45), (2, 0.35), (3, 0.2)) if n <= top]
                )
            if rng.random() < 0.7:
                lo, hi = self.product_kind.price
                cap = float(max(10 * round(rng.uniform(lo + 0.45 * (hi - lo), hi) / 10), lo + 10))
            if category.features and rng.random() < (0.35 if category.dining else 0.6):
                feature = pick(rng, category.features)
        else:
            low = 2 if self.action == "book" else 1
            self.people = rng.randint(min(low, category.party), min(4, category.party))
        self.when = ctx.slot(category) if self.visit else None
        ties = [("none", 0.5), ("rating", 0.15), ("distance", 0.15)]
        if self.action == "buy":
            ties.append(("price", 0.2))
        self.tie = weighted(rng, ties)
        self.constraints = Constraints(
            category=category.key,
            place=self.place.place,
            max_distance_m=round(self.km * 1000) if self.km else None,
            min_rating=rating,
            visit=self.visit,
            kind=kind_key,
            max_price=cap,
            forbidden=forbidden if self.action == "buy" else frozenset(),
            feature=feature,
            quantity=self.quantity,
        )
        self.clause_order = ["rating", "distance", "price", "diet", "feature"]
        rng.shuffle(self.clause_order)
        self.order_id = ctx.record_id("T") if self.action == "buy" else ""
        self.visit_id = ctx.record_id("T") if self.visit else ""
        self.targets: list[tuple[ShopDraft, ProductDraft | None]] = []
        self.sold_out: tuple[ShopDraft, ProductDraft] | None = None

    # ---- shop budget ---------------------------------------------------------------------------

    @property
    def core(self) -> int:
        """The target shop, plus a second one when the tie-break compares shops."""
        return 2 if self.tie in ("rating", "distance") else 1

    def simplify(self) -> bool:
        """Drop a tie-break between two shops."""
        if self.tie in ("rating", "distance"):
            self.tie = "none"
            return True
        return False

    def optional_roles(self) -> list[str]:
        """One distractor shop per shop-level constraint (the first one takes the same
        appointment kind, so a near miss exists), a sold-out shop when buying."""
        c = self.constraints
        first = []
        if self.km is not None:
            first.append("far")
        if c.min_rating is not None:
            first.append("low_rated")
        roles = [*first, "wrong_category"]
        if self.action == "buy":
            roles.insert(1, "sold_out")
        if self.visit is not None:
            roles.insert(1, "no_visit")
        return roles

    def extra_roles(self) -> list[str]:
        """Further distractors: more of each kind."""
        return self.optional_roles()

    # ---- geometry and scores -------------------------------------------------------------------

    def good_range(self) -> tuple[float, float]:
        """Distances (m) from the reference place that meet the distance limit."""
        if self.km is not None:
            return 200 * self.km, 800 * self.km
        return 300.0, 4500.0

    def bad_range(self) -> tuple[float, float]:
        """Distances (m) that break the distance limit by a clear margin."""
        assert self.km is not None
        return 1300 * self.km, 1300 * self.km + 4000

    def good_score(self, ctx: Context, floor: int | None = None) -> float:
        """A rating meeting the minimum (at least ``floor`` tenths when given)."""
        rating = self.constraints.min_rating
        low = floor if floor is not None else round(rating * 10) if rating else 38
        return ctx.rng.randint(low, 50) / 10

    # ---- products ------------------------------------------------------------------------------

    def _right_kind(self, safe: bool = True) -> Callable[[Style, Kind], bool]:
        """Combos of the wanted type that the user may (``safe``) or may not eat."""
        c = self.constraints

        def ok(style: Style, kind: Kind) -> bool:
            clash = bool((style.flags | kind.flags) & c.forbidden)
            return kind.key == c.kind and clash != safe

        return ok

    def _stock(self, ctx: Context) -> int:
        """Stock covering the quantity wanted."""
        return ctx.rng.randint(max(3, self.quantity), 30)

    def fitting(self, ctx: Context, count: int, avoid: list[Combo]) -> list[ProductDraft]:
        """Products meeting every product-level constraint."""
        c, cat, catalog = self.constraints, self.category, ctx.catalog
        combos = catalog.combos(cat, count, self._right_kind(), avoid)
        return [
            catalog.product(
                cat,
                combo,
                price_under(ctx.rng, combo[1], c.max_price),
                stock=self._stock(ctx),
                need=c.feature,
            )
            for combo in combos
        ]

    def violator(self, ctx: Context, broken: str, taken: list[Combo]) -> ProductDraft | None:
        """A product breaking exactly the product-level constraint ``broken`` (None: impossible)."""
        c, cat, catalog, rng = self.constraints, self.category, ctx.catalog, ctx.rng
        if broken == "feature" and c.feature is None:
            return None
        if broken == "kind":

            def other_kind(style: Style, kind: Kind) -> bool:
                return kind.key != c.kind and not (style.flags | kind.flags) & c.forbidden

            ok: Callable[[Style, Kind], bool] = other_kind
        elif broken == "diet":
            ok = self._right_kind(safe=False)
        else:
            ok = self._right_kind()
        picks = catalog.combos(cat, 1, ok, taken)
        if not picks:
            return None
        combo = picks[0]
        price = price_under(rng, combo[1], c.max_price)
        if broken == "price":
            assert c.max_price is not None
            price = price_over(rng, c.max_price)
        stock = self._stock(ctx)
        if broken == "stock":
            low_stock = self.quantity > 1 and rng.random() < 0.3
            stock = rng.randint(1, self.quantity - 1) if low_stock else 0
        drop = c.feature if broken == "feature" else None
        need = None if broken == "feature" else c.feature
        return catalog.product(cat, combo, price, stock=stock, need=need, drop=drop)

    def violators(
        self, ctx: Context, count: int, taken: list[Combo], first: str | None = None
    ) -> list[ProductDraft]:
        """``count`` products each breaking one product-level constraint (``first`` leads)."""
        kinds = list(self.constraints.product_level)
        ctx.rng.shuffle(kinds)
        if first is not None:
            kinds.remove(first)
            kinds.insert(0, first)
        taken = list(taken)
        out: list[ProductDraft] = []
        for i in range(count):
            for turn in range(len(kinds)):
                product = self.violator(ctx, kinds[(i + turn) % len(kinds)], taken)
                if product is not None:
                    taken.append((product.style, product.kind))
                    out.append(product)
                    break
        return out

    def offer(self, ctx: Context, category: ShopCategory | None = None) -> list[ProductDraft]:
        """Products of a distractor shop: one meeting every product-level constraint plus
        violators when buying; unconstrained products of ``category`` otherwise."""
        n = ctx.catalog.products_per_shop
        if self.action != "buy" or (category is not None and category != self.category):
            return ctx.catalog.random_products(category or self.category, n, ctx.forbidden)
        chosen = self.fitting(ctx, 1, [])
        products = chosen + self.violators(
            ctx, n - len(chosen), [(p.style, p.kind) for p in chosen]
        )
        ctx.rng.shuffle(products)
        return products

    def other_category(self, ctx: Context) -> ShopCategory | None:
        """An unclaimed category unrelated to every claimed one (taking the same appointment
        kind when one is needed)."""
        free = ctx.unrelated(lambda c: self.visit is None or c.visit == self.visit)
        return pick(ctx.rng, free) if free else None

    # ---- building ------------------------------------------------------------------------------

    def build(self, ctx: Context, roles: list[str]) -> list[ShopDraft]:
        """Target shop(s) and the granted distractor shops."""
        rng, cat, c, catalog = ctx.rng, self.category, self.constraints, ctx.catalog
        lo, hi = self.good_range()
        anchor = self.place.place
        takes = True if self.visit else None
        shops = self.build_targets(ctx, lo, hi)
        for role in roles:
            if role == "wrong_category":
                other = self.other_category(ctx)
                if other is not None:
                    place = catalog.around(anchor, lo, hi)
                    shops.append(
                        catalog.shop(
                            other, place, self.good_score(ctx), self.offer(ctx, other),
                            self.index, role, takes=takes,
                        )
                    )  # fmt: skip
                    continue
                if self.visit is None:
                    continue
                role = "no_visit"
            if role == "far":
                place = catalog.around(anchor, *self.bad_range())
                shop = catalog.shop(
                    cat, place, self.good_score(ctx), self.offer(ctx), self.index, role, takes=takes
                )
            elif role == "low_rated":
                assert c.min_rating is not None
                score = round(c.min_rating - rng.randint(1, 8) / 10, 1)
                place = catalog.around(anchor, lo, hi)
                shop = catalog.shop(
                    cat, place, score, self.offer(ctx), self.index, role, takes=takes
                )
            elif role == "no_visit":
                place = catalog.around(anchor, lo, hi)
                shop = catalog.shop(
                    cat, place, self.good_score(ctx), self.offer(ctx), self.index, role, takes=False
                )
            else:  # sold_out: the product that would fit is sold out, the rest breaks one rule
                place = catalog.around(anchor, lo, hi)
                products = self.violators(ctx, catalog.products_per_shop, [], first="stock")
                missing = products[0] if products else None
                if missing is not None:
                    missing.stock = 0  # sold out, not merely short
                rng.shuffle(products)
                best = max(s.score for s, _ in self.targets)
                score = self.good_score(ctx, floor=round(best * 10))
                shop = catalog.shop(cat, place, score, products, self.index, role, takes=takes)
                if missing is not None and self.sold_out is None:
                    self.sold_out = (shop, missing)
            shops.append(shop)
        return shops

    def build_targets(self, ctx: Context, lo: float, hi: float) -> list[ShopDraft]:
        """One or two target shops; ``self.targets`` lists (shop, product), winner first."""
        rng = ctx.rng
        mid = (lo + hi) / 2
        ranges = [(lo, hi), (lo, hi)]
        if self.tie == "distance":
            ranges = [(lo, mid - 0.1 * (hi - lo)), (mid + 0.1 * (hi - lo), hi)]
        scores = [self.good_score(ctx), self.good_score(ctx)]
        if self.tie == "rating":
            rating = self.constraints.min_rating
            base = round(rating * 10) if rating else 40
            first = rng.randint(base + 2, 50)
            scores = [first / 10, rng.randint(base, first - 2) / 10]
        in_first = 2 if self.tie == "price" else 1
        shops = [self.target_shop(ctx, ranges[0], scores[0], in_first)]
        if self.tie in ("rating", "distance"):
            shops.append(self.target_shop(ctx, ranges[1], scores[1], 1))
        return shops

    def target_shop(
        self, ctx: Context, span: tuple[float, float], score: float, targets: int
    ) -> ShopDraft:
        """A shop with ``targets`` fitting products and violators for the rest (buying), or
        unconstrained products (booking / reserving)."""
        rng, catalog = ctx.rng, ctx.catalog
        n = catalog.products_per_shop
        chosen: list[ProductDraft] = []
        if self.action == "buy":
            chosen = self.fitting(ctx, targets, [])
            if targets == 2 and len(chosen) == 2:
                cap = self.constraints.max_price
                high = price_under(rng, chosen[1].kind, cap)
                high = max(high, 20.0)
                chosen[0].price = price_between(rng, max(5.0, high * 0.5), high - 5.0)
                chosen[1].price = high
            taken = [(p.style, p.kind) for p in chosen]
            products = chosen + self.violators(ctx, n - len(chosen), taken)
            rng.shuffle(products)
        else:
            products = catalog.random_products(self.category, n, ctx.forbidden)
        place = catalog.around(self.place.place, *span)
        takes = True if self.visit else None
        shop = catalog.shop(
            self.category, place, score, products, self.index, "target", takes=takes
        )
        if self.action == "buy":
            self.targets.extend((shop, p) for p in chosen)
        else:
            self.targets.append((shop, None))
        return shop

    # ---- rendering -----------------------------------------------------------------------------

    @property
    def winner(self) -> tuple[ShopDraft, ProductDraft | None]:
        """The option the expected state holds (first target: cheaper / better / closer)."""
        return self.targets[0]

    def new_visits(self) -> list[tuple[str, ShopDraft]]:
        """The booking / appointment made at the winning shop, if any."""
        return [(self.visit, self.winner[0])] if self.visit else []

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The new order and / or appointment."""
        shop, product = self.winner
        records = []
        if product is not None:
            records.append(
                order_record(
                    ctx,
                    order_id=self.order_id,
                    shop=shop,
                    product=product,
                    quantity=self.quantity,
                    status="paid",
                    created=ctx.now,
                    language=language,
                )
            )
        if self.visit is not None:
            assert self.when is not None
            records.append(
                appointment_record(
                    ctx,
                    self.visit,
                    record_id=self.visit_id,
                    shop=shop,
                    when=self.when,
                    people=self.people,
                    status="paid" if self.visit == "book" else "unconsumed",
                    updated=ctx.now,
                )
            )
        return records

    def clauses(self, ctx: Context) -> list[Bi]:
        """The requirement clauses of the instruction, in the sub-goal's drawn order."""
        c = self.constraints
        out: dict[str, Bi] = {}
        if c.min_rating is not None:
            out["rating"] = text.clause_rating(c.min_rating)
        if self.km is not None:
            out["distance"] = text.clause_distance(self.km, self.place.of)
        if c.max_price is not None:
            out["price"] = text.clause_price(c.max_price, self.quantity)
        restriction = ctx.persona.restriction
        if c.forbidden and restriction is not None:
            out["diet"] = text.clause_diet(restriction.because, restriction.avoid)
        if c.feature is not None:
            out["feature"] = c.feature.clause
        return [out[key] for key in self.clause_order if key in out]

    def instruction(self, ctx: Context) -> Bi:
        """Opening, requirements, tie-break, payment and appointment sentences."""
        moment = text.when(ctx.now, self.when) if self.when else None
        if self.action == "buy":
            opening = text.want_buy(self.product_kind, self.quantity, self.category)
        elif self.action == "book":
            assert moment is not None
            opening = text.want_book(self.people, self.category, moment)
        else:
            assert moment is not None
            opening = text.want_reserve(self.people, self.category, moment)
        parts = [opening]
        clauses = self.clauses(ctx)
        if clauses:
            parts.append(text.sentence(clauses))
        if self.tie == "distance":
            parts.append(text.tie_distance(self.place.of))
        elif self.tie != "none":
            parts.append(text.TIE_BREAKS[self.tie])
        if self.action == "buy":
            parts.append(text.PAY_NOW)
            if self.visit is not None:
                assert moment is not None
                parts.append(text.then_visit(self.visit, self.people, moment, self.category))
        else:
            if self.action == "book":
                parts.append(text.PAY_FEE)
            parts.append(text.NOTHING_AHEAD)
        return text.join(parts)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Official-style rubrics of the sub-goal."""
        c = self.constraints
        shop, product = self.winner
        out: list[Bi] = []
        if product is not None:
            out.append(text.r_order(shop.name, self.quantity, product.name))
            out.append(text.r_kind(product.name, self.product_kind))
        elif self.visit == "book":
            assert self.when is not None
            out.append(text.r_booked(shop.name, self.people, self.when))
        else:
            assert self.when is not None
            out.append(text.r_reserved(shop.name, self.people, self.when, self.category))
        if self.km is not None:
            out.append(text.r_distance(shop.name, self.km, self.place.rubric))
        if c.min_rating is not None:
            out.append(text.r_rating(shop.name, c.min_rating))
        if product is not None:
            restriction = ctx.persona.restriction
            if c.max_price is not None:
                out.append(text.r_price(product.name, c.max_price))
            if c.forbidden and restriction is not None:
                out.append(text.r_diet(product.name, restriction.avoid))
            if c.feature is not None:
                out.append(text.r_feature(product.name, c.feature.rubric))
            if self.sold_out is not None:
                gone_shop, gone = self.sold_out
                out.append(text.r_sold_out(gone.name, gone_shop.name))
        if self.tie != "none":
            out.append(text.r_tie(self.tie, shop.name, product.name if product else None))
        if product is not None:
            out.append(text.r_paid(shop.name))
            if self.visit is not None:
                assert self.when is not None
                if self.visit == "book":
                    out.append(text.r_booked(shop.name, self.people, self.when))
                else:
                    out.append(text.r_reserved(shop.name, self.people, self.when, self.category))
        if self.visit == "book":
            out.append(text.r_fee(shop.name, shop.book_price))
        if product is None:
            out.append(text.r_nothing_bought(shop.name))
        return out

    # ---- self-check ----------------------------------------------------------------------------

    def check(self, ctx: Context, shops: list[ShopDraft]) -> list[str]:
        """Exactly the planned targets meet every constraint; own distractor shops break
        exactly one shop-level constraint (and, when buying, offer a product meeting every
        product-level one); the other products of target and sold-out shops break exactly one
        product-level constraint; no shop of a kin category exists."""
        c = self.constraints
        buying = self.action == "buy"
        problems: list[str] = []
        fits: list[tuple[ShopDraft, ProductDraft | None]] = []
        kin = KIN[self.category.key]
        targets = {id(p) if buying else id(s) for s, p in self.targets}
        tag = f"sub-goal {self.index}"
        for shop in shops:
            if shop.category.key in kin:
                problems.append(f"{tag}: {shop.name.en} ({shop.category.key}) is of a kin category")
            broken = c.shop_violations(shop)
            same = shop.category.key == c.category
            if not buying:
                if not broken:
                    fits.append((shop, None))
                elif shop.owner == self.index and len(broken) != 1:
                    problems.append(f"{tag}: distractor {shop.name.en} breaks {broken}")
                continue
            clean = []
            for product in shop.products:
                wrong = c.product_violations(product) if same else ["category"]
                if not broken and not wrong:
                    fits.append((shop, product))
                if not wrong:
                    clean.append(product)
                own = shop.owner == self.index and shop.role in ("target", "sold_out")
                if own and id(product) not in targets and len(wrong) != 1:
                    problems.append(f"{tag}: {product.name.en} at {shop.name.en} breaks {wrong}")
            if shop.owner == self.index and shop.role not in ("target", "sold_out"):
                if len(broken) != 1:
                    problems.append(f"{tag}: distractor {shop.name.en} breaks {broken}")
                elif same and not clean:
                    problems.append(f"{tag}: distractor {shop.name.en} offers nothing that fits")
        found = {id(p) if buying else id(s) for s, p in fits}
        if found != targets:
            names = sorted((p.name.en if p else s.name.en) for s, p in fits)
            problems.append(f"{tag}: options meeting every constraint: {names}")
        elif len(fits) > 1 and self.best(fits) is not self.winner:
            problems.append(f"{tag}: the tie-break does not pick the winner")
        if buying and not self.targets:
            problems.append(f"{tag}: no product meets every constraint")
        return problems

    def best(
        self, fits: list[tuple[ShopDraft, ProductDraft | None]]
    ) -> tuple[ShopDraft, ProductDraft | None] | None:
        """The unique best option by the tie-break rule (None on a tie or without a rule)."""

        def key(option: tuple[ShopDraft, ProductDraft | None]) -> float:
            shop, product = option
            if self.tie == "price":
                return product.price if product else 0.0
            if self.tie == "rating":
                return -shop.score
            return float(self.place.place.metres_to(shop.place.longitude, shop.place.latitude))

        if self.tie == "none":
            return None
        ranked = sorted(fits, key=key)
        if len(ranked) > 1 and key(ranked[0]) == key(ranked[1]):
            return None
        winner = ranked[0]
        return next(t for t in self.targets if t[0] is winner[0] and t[1] is winner[1])


class BuyProduct(SelectionGoal):
    """Buy a product of a given type under constraints and pay (maybe then book / reserve)."""

    kind = "buy"
    action = "buy"
    creates_order = True

    @classmethod
    def usable(cls, category: ShopCategory, forbidden: frozenset[str]) -> bool:
        """Dining categories need enough product lines the user may eat."""
        return not category.dining or safe_styles(category, forbidden) >= SAFE_STYLES_TO_BUY


class BookTable(SelectionGoal):
    """Book a table at a restaurant under constraints (paying the booking fee if any)."""

    kind = "book_table"
    action = "book"

    @classmethod
    def usable(cls, category: ShopCategory, forbidden: frozenset[str]) -> bool:
        """Restaurants and tea houses that take table bookings."""
        return category.visit == "book"


class ReserveService(SelectionGoal):
    """Make an appointment at a service shop under constraints."""

    kind = "reserve_service"
    action = "reserve"

    @classmethod
    def usable(cls, category: ShopCategory, forbidden: frozenset[str]) -> bool:
        """Service shops that take reservations."""
        return category.visit == "reservation"
