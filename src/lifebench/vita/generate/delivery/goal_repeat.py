"""Sub-goal "the same as last time": reorder from the user's history, past a look-alike store."""

from __future__ import annotations

from typing import Any, ClassVar

from lifebench._util.text import Language
from lifebench.vita.generate.delivery import text
from lifebench.vita.generate.delivery.catalog import price_within
from lifebench.vita.generate.delivery.context import Context, Goal, Line, order_record
from lifebench.vita.generate.delivery.model import ProductDraft, StoreDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.food import FoodCategory


class SameAsLast(Goal):
    """Order the dish of the current meal period's recent order in this category.

    The store appears in ``user_historical_behaviors`` (recent orders); a second store with a
    similar name (same brand, another noun or branch) sells a dish of the same name.
    """

    kind: ClassVar[str] = "same_as_last"

    def __init__(self, index: int, category: FoodCategory, ctx: Context) -> None:
        super().__init__(index, category, ctx)
        self.place = ctx.home_or_work()
        self.quantity = 1 if ctx.rng.random() < 0.7 else 2
        self.order_id = ctx.order_id("T")

    @property
    def core(self) -> int:
        """The store of last time and its look-alike."""
        return 2

    def build(self, ctx: Context, roles: list[str]) -> list[StoreDraft]:
        """Both stores; each sells the dish of last time among others."""
        rng, catalog, cat = ctx.rng, ctx.catalog, self.category
        brand, name = catalog.branded_name(cat)
        lookalike = catalog.lookalike(brand, name, cat)
        ((dish, dish_name),) = catalog.dishes(cat, 1, ctx.safe)
        stores = []
        for store_name in (name, lookalike):
            rest = catalog.dishes(cat, catalog.products_per_store - 1, avoid=[dish_name])
            products = [
                catalog.product(cat, d, n, price_within(rng, cat, None))
                for d, n in [(dish, dish_name), *rest]
            ]
            if store_name is name:
                self.dish: ProductDraft = products[0]
            rng.shuffle(products)
            place = catalog.around(self.place.place, 500, 4000)
            score = rng.randint(40, 50) / 10
            role = "target" if store_name is name else "lookalike"
            stores.append(catalog.store(cat, place, score, products, self.index, role, store_name))
        self.store, self.lookalike = stores
        return stores

    def recent(self) -> tuple[Bi, Bi] | None:
        """Last time's (store, dish)."""
        return self.store.name, self.dish.name

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The repeated order."""
        return [
            order_record(
                ctx,
                language,
                order_id=self.order_id,
                store=self.store,
                lines=[Line(self.dish, self.quantity)],
                place=self.place,
                status="paid",
                created=ctx.now,
            )
        ]

    def instruction(self, ctx: Context) -> Bi:
        """Same shop, same dish."""
        return text.same_as_last(self.category.item, self.quantity, self.place.to)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Store (not the look-alike), items, address, paid."""
        return [
            text.r_same_store(self.store.name, self.dish.name, self.lookalike.name),
            text.r_items(self.store.name, self.quantity, self.dish.name),
            text.r_address(self.store.name, self.place.place.address),
            text.r_paid(self.store.name, True),
        ]

    def check(self, ctx: Context, stores: list[StoreDraft]) -> list[str]:
        """The store of last time is unique by name and sells the dish exactly once."""
        problems = []
        same = [s for s in stores if s.name == self.store.name]
        if len(same) != 1:
            problems.append(f"sub-goal {self.index}: {len(same)} stores named {self.store.name.en}")
        if sum(1 for p in self.store.products if p.name == self.dish.name) != 1:
            problems.append(f"sub-goal {self.index}: dish of last time not unique in its store")
        return problems
