"""Sub-goal "the same as last time": buy again from the user's history, past a look-alike shop."""

from __future__ import annotations

from typing import Any, ClassVar

from lifebench._util.text import Language
from lifebench.vita.generate.instore import text
from lifebench.vita.generate.instore.catalog import price_under
from lifebench.vita.generate.instore.context import (
    Context,
    Goal,
    Preexisting,
    appointment_record,
    order_record,
)
from lifebench.vita.generate.instore.model import ProductDraft, ShopDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.instore import ShopCategory


class SameAsLast(Goal):
    """Buy the product of the recent order in this category again, at the same shop.

    The shop and product appear in ``user_historical_behaviors`` (recent orders); a second shop
    with a similar name (same brand with another noun, or a branch) sells a product of the same
    name. Sometimes the consumed order of last time is in the order list too, and sometimes the
    user also books a table / makes an appointment at the shop.
    """

    kind: ClassVar[str] = "same_as_last"
    creates_order: ClassVar[bool] = True

    @classmethod
    def usable(cls, category: ShopCategory, forbidden: frozenset[str]) -> bool:
        """Any category with a product line the user may eat."""
        return any(not s.flags & forbidden for s in category.styles)

    def __init__(self, index: int, category: ShopCategory, ctx: Context) -> None:
        super().__init__(index, category, ctx)
        rng = ctx.rng
        self.place = ctx.here()
        self.quantity = 1 if rng.random() < 0.7 else 2
        wants_visit = category.visit is not None and rng.random() < 0.35
        self.visit = category.visit if wants_visit else None
        self.when = ctx.slot(category) if self.visit else None
        self.show_order = rng.random() < 0.5
        self.last_time = ctx.past(5, 40)
        self.old_id = ctx.record_id("O") if self.show_order else ""
        self.order_id = ctx.record_id("T")
        self.visit_id = ctx.record_id("T") if self.visit else ""

    @property
    def core(self) -> int:
        """The shop of last time and its look-alike."""
        return 2

    def build(self, ctx: Context, roles: list[str]) -> list[ShopDraft]:
        """Both shops; each sells the product of last time among others."""
        rng, catalog, cat = ctx.rng, ctx.catalog, self.category
        forbidden = ctx.forbidden if cat.dining else frozenset()
        brand, name = catalog.branded_name(cat)
        lookalike = catalog.lookalike(brand, name, cat)
        (combo,) = catalog.combos(cat, 1, lambda s, k: not (s.flags | k.flags) & forbidden)
        stock_floor = max(3, self.quantity)
        takes = True if self.visit else None
        shops = []
        for shop_name in (name, lookalike):
            mine = catalog.product(
                cat,
                combo,
                price_under(rng, combo[1], None),
                stock=rng.randint(stock_floor, 30),
            )
            rest = catalog.random_products(cat, catalog.products_per_shop, forbidden)
            rest = [p for p in rest if (p.style, p.kind) != combo][: catalog.products_per_shop - 1]
            products = [mine, *rest]
            if shop_name is name:
                self.product: ProductDraft = mine
            rng.shuffle(products)
            place = catalog.around(self.place.place, 500, 4000)
            score = rng.randint(40, 50) / 10
            role = "target" if shop_name is name else "lookalike"
            shops.append(
                catalog.shop(
                    cat, place, score, products, self.index, role, takes=takes, name=shop_name
                )
            )
        self.shop, self.lookalike = shops
        if self.product.kind.people:
            self.quantity = 1  # a set for several people: one is enough for the party
        return shops

    @property
    def people(self) -> int:
        """People of the appointment: those the product serves, else one per unit bought."""
        return self.product.kind.people or self.quantity

    def recent(self) -> tuple[ShopCategory, Bi, Bi] | None:
        """Last time's (category, shop, product)."""
        return self.category, self.shop.name, self.product.name

    def new_visits(self) -> list[tuple[str, ShopDraft]]:
        """The booking / appointment at the shop, if any."""
        return [(self.visit, self.shop)] if self.visit else []

    def preexisting(self, ctx: Context, language: Language) -> list[Preexisting]:
        """The consumed order of last time, when the task shows it."""
        if not self.show_order:
            return []
        record = order_record(
            ctx,
            order_id=self.old_id,
            shop=self.shop,
            product=self.product,
            quantity=1,
            status="consumed",
            created=self.last_time,
            language=language,
        )
        return [("orders", record)]

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The repeated order (and the appointment)."""
        records = [
            order_record(
                ctx,
                order_id=self.order_id,
                shop=self.shop,
                product=self.product,
                quantity=self.quantity,
                status="paid",
                created=ctx.now,
                language=language,
            )
        ]
        if self.visit is not None:
            assert self.when is not None
            records.append(
                appointment_record(
                    ctx,
                    self.visit,
                    record_id=self.visit_id,
                    shop=self.shop,
                    when=self.when,
                    people=self.people,
                    status="paid" if self.visit == "book" else "unconsumed",
                    updated=ctx.now,
                )
            )
        return records

    def instruction(self, ctx: Context) -> Bi:
        """Same shop, same product (then the appointment)."""
        parts = [text.same_as_last(self.category, self.quantity)]
        if self.visit is not None:
            assert self.when is not None
            moment = text.when(ctx.now, self.when)
            parts.append(text.then_visit(self.visit, self.people, moment, self.category))
        return text.join(parts)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Shop (not the look-alike), items, paid, appointment."""
        out = [
            text.r_same_shop(self.shop.name, self.product.name, self.lookalike.name),
            text.r_order(self.shop.name, self.quantity, self.product.name),
            text.r_paid(self.shop.name),
        ]
        if self.visit is not None:
            assert self.when is not None
            if self.visit == "book":
                out.append(text.r_booked(self.shop.name, self.people, self.when))
                out.append(text.r_fee(self.shop.name, self.shop.book_price))
            else:
                out.append(text.r_reserved(self.shop.name, self.people, self.when, self.category))
        return out

    def check(self, ctx: Context, shops: list[ShopDraft]) -> list[str]:
        """The shop of last time is unique by name and sells the product exactly once."""
        problems = []
        same = [s for s in shops if s.name == self.shop.name]
        if len(same) != 1:
            problems.append(f"sub-goal {self.index}: {len(same)} shops named {self.shop.name.en}")
        if sum(1 for p in self.shop.products if p.name == self.product.name) != 1:
            problems.append(f"sub-goal {self.index}: product of last time not unique in its shop")
        return problems
