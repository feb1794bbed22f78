"""Making stores and products: unique names, prices by role, tags that show dietary flags."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lifebench.vita.generate.delivery.model import ProductDraft, StoreDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.food import (
    BRANDS,
    EXTRA_TAGS,
    FLAG_TAGS,
    VARIANTS,
    Dish,
    FoodCategory,
)
from lifebench.vita.generate.pools.places import STREET_NAMES
from lifebench.vita.generate.world import AddressBook, Place, pick, place_around

STORE_TAGS: tuple[Bi, ...] = (
    Bi("Dine-in available", "可堂食"),
    Bi("Delivery only", "仅外卖"),
    Bi("Chain brand", "连锁品牌"),
    Bi("Family-run", "家庭经营"),
)
"""Neutral store tags (the category tag always comes first)."""

_ENDINGS = (0.0, 0.5, 0.9)


def price_between(rng: random.Random, lo: float, hi: float) -> float:
    """A shop-like price (ending in .0, .5 or .9) within [lo, hi] (hi ≥ lo + 1)."""
    for _ in range(20):
        base = rng.randint(math.floor(lo), max(math.floor(lo), math.floor(hi)))
        price = round(base + pick(rng, _ENDINGS), 1)
        if lo <= price <= hi:
            return price
    return round(lo, 1)


def price_within(rng: random.Random, category: FoodCategory, cap: float | None) -> float:
    """A price for ``category`` that is at least 1 yuan under ``cap`` (when there is one)."""
    lo, hi = category.price
    if cap is None:
        return price_between(rng, lo, hi)
    top = cap - 1.0
    return price_between(rng, max(min(lo, top - 4.0), top * 0.55, 1.0), top)


def price_over(rng: random.Random, cap: float) -> float:
    """A price at least 2 yuan over ``cap``."""
    return price_between(rng, cap + 2.0, cap + max(8.0, cap * 0.5))


@dataclass
class Catalog:
    """Stores and products of one task; store names are unique in both languages."""

    rng: random.Random
    book: AddressBook
    products_per_store: int
    names: set[str] = field(default_factory=set)

    def claim(self, name: Bi) -> bool:
        """Reserve ``name``; False if a store already uses it (in either language)."""
        if name.en in self.names or name.zh in self.names:
            return False
        self.names.update((name.en, name.zh))
        return True

    def branded_name(self, category: FoodCategory) -> tuple[Bi, Bi]:
        """A fresh "<brand> <noun>" store name, with its brand."""
        for _ in range(500):
            brand, noun = pick(self.rng, BRANDS), pick(self.rng, category.nouns)
            name = Bi(f"{brand.en} {noun.en}", f"{brand.zh}{noun.zh}")
            if self.claim(name):
                return brand, name
        raise AssertionError("store names exhausted")  # pragma: no cover - 30 brands x 3 nouns

    def store_name(self, category: FoodCategory) -> Bi:
        """A fresh "<brand> <noun>" store name."""
        return self.branded_name(category)[1]

    def lookalike(self, brand: Bi, name: Bi, category: FoodCategory) -> Bi:
        """A fresh store name easy to confuse with ``name``: same brand, other noun or branch."""
        candidates = [Bi(f"{brand.en} {n.en}", f"{brand.zh}{n.zh}") for n in category.nouns]
        candidates += [
            Bi(f"{name.en} ({s.en} Branch)", f"{name.zh}（{s.zh}店）") for s in STREET_NAMES
        ]
        self.rng.shuffle(candidates)
        for candidate in candidates:
            if self.claim(candidate):
                return candidate
        raise AssertionError("no look-alike name left")  # pragma: no cover

    def dishes(
        self,
        category: FoodCategory,
        count: int,
        ok: Callable[[Dish], bool] = lambda d: True,
        avoid: Sequence[Bi] = (),
    ) -> list[tuple[Dish, Bi]]:
        """``count`` distinct (dish, product name) pairs of dishes passing ``ok``.

        Plain dishes come first (in random order), then their variants ("(Large)", "Combo" …).
        Fewer are returned when the category runs out.
        """
        pool = [d for d in category.dishes if ok(d)]
        self.rng.shuffle(pool)
        taken = {b.en for b in avoid}
        out: list[tuple[Dish, Bi]] = []
        for variant in VARIANTS:
            for dish in pool:
                name = dish.name + variant
                if name.en not in taken:
                    taken.add(name.en)
                    out.append((dish, name))
                    if len(out) == count:
                        return out
        return out

    def product(self, category: FoodCategory, dish: Dish, name: Bi, price: float) -> ProductDraft:
        """A product whose tags show the category and the dish's dietary flags."""
        tags = [category.name]
        tags += [tag for flag, tag in FLAG_TAGS.items() if flag in dish.flags]
        if self.rng.random() < 0.3:
            tags.append(pick(self.rng, EXTRA_TAGS))
        offers = bool(category.attributes) and self.rng.random() < 0.5
        return ProductDraft(
            dish=dish,
            name=name,
            price=price,
            attributes=category.attributes if offers else (),
            tags=tuple(tags),
        )

    def store(
        self,
        category: FoodCategory,
        place: Place,
        score: float,
        products: list[ProductDraft],
        owner: int | None,
        role: str,
        name: Bi | None = None,
    ) -> StoreDraft:
        """A store (a fresh name unless given)."""
        tags = [category.name]
        if self.rng.random() < 0.6:
            tags.append(pick(self.rng, STORE_TAGS))
        return StoreDraft(
            category=category,
            name=name or self.store_name(category),
            place=place,
            score=round(score, 1),
            tags=tuple(tags),
            products=products,
            owner=owner,
            role=role,
        )

    def around(self, anchor: Place, lo_m: float, hi_m: float) -> Place:
        """A shop address between ``lo_m`` and ``hi_m`` metres from ``anchor``."""
        return place_around(self.rng, anchor, self.book.shop(), lo_m, hi_m)

    def random_store(
        self, category: FoodCategory, anchor: Place, owner: int | None, role: str
    ) -> StoreDraft:
        """An unconstrained store of ``category`` within 5 km of ``anchor``."""
        picks = self.dishes(category, self.products_per_store)
        products = [
            self.product(category, dish, name, price_within(self.rng, category, None))
            for dish, name in picks
        ]
        score = self.rng.randint(36, 50) / 10
        return self.store(category, self.around(anchor, 300, 5000), score, products, owner, role)
