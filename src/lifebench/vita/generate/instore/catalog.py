"""Making shops and products: unique names, prices, stock, features and appointment flags."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lifebench.vita.generate.instore.model import ProductDraft, ShopDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.instore import (
    BOOK_FEES,
    BRANDS,
    EXTRA_TAGS,
    Feature,
    Kind,
    ShopCategory,
    Style,
)
from lifebench.vita.generate.pools.places import STREET_NAMES
from lifebench.vita.generate.world import AddressBook, Place, pick, place_around, weighted

_ENDINGS = (0.0, 0.0, 8.0, 9.0)


def price_between(rng: random.Random, lo: float, hi: float) -> float:
    """A shop-like whole price (ending in 0, 8 or 9 when possible) within [lo, hi]."""
    lo_i, hi_i = math.ceil(lo), max(math.ceil(lo), math.floor(hi))
    for _ in range(20):
        base = rng.randint(lo_i // 10, hi_i // 10) * 10 + pick(rng, _ENDINGS)
        if lo <= base <= hi:
            return float(base)
    return float(rng.randint(lo_i, hi_i))


def price_under(rng: random.Random, kind: Kind, cap: float | None) -> float:
    """A price for ``kind``, at least 2 yuan under ``cap`` when there is one."""
    lo, hi = kind.price
    if cap is None:
        return price_between(rng, lo, hi)
    top = cap - 2.0
    return price_between(rng, max(min(lo, top - 10.0), top * 0.6, 5.0), top)


def price_over(rng: random.Random, cap: float) -> float:
    """A price at least 5 yuan over ``cap``."""
    return price_between(rng, cap + 5.0, cap + max(20.0, cap * 0.4))


Combo = tuple[Style, Kind]
"""A product identity within a shop: (style, kind) gives the name."""


@dataclass
class Catalog:
    """Shops and products of one task; shop names are unique in both languages."""

    rng: random.Random
    book: AddressBook
    products_per_shop: int
    names: set[str] = field(default_factory=set)

    def claim(self, name: Bi) -> bool:
        """Reserve ``name``; False if a shop already uses it (in either language)."""
        if name.en in self.names or name.zh in self.names:
            return False
        self.names.update((name.en, name.zh))
        return True

    def branded_name(self, category: ShopCategory) -> tuple[Bi, Bi]:
        """A fresh "<brand> <noun>" shop name, with its brand."""
        for _ in range(500):
            brand, noun = pick(self.rng, BRANDS), pick(self.rng, category.nouns)
            name = Bi(f"{brand.en} {noun.en}", f"{brand.zh}{noun.zh}")
            if self.claim(name):
                return brand, name
        raise AssertionError("shop names exhausted")  # pragma: no cover - 30 brands x 3 nouns

    def shop_name(self, category: ShopCategory) -> Bi:
        """A fresh "<brand> <noun>" shop name."""
        return self.branded_name(category)[1]

    def lookalike(self, brand: Bi, name: Bi, category: ShopCategory) -> Bi:
        """A fresh name easy to confuse with ``name``: same brand with another noun, or a branch."""
        candidates = [Bi(f"{brand.en} {n.en}", f"{brand.zh}{n.zh}") for n in category.nouns]
        candidates += [
            Bi(f"{name.en} ({s.en} Branch)", f"{name.zh}（{s.zh}店）") for s in STREET_NAMES
        ]
        self.rng.shuffle(candidates)
        for candidate in candidates:
            if self.claim(candidate):
                return candidate
        raise AssertionError("no look-alike name left")  # pragma: no cover

    def combos(
        self,
        category: ShopCategory,
        count: int,
        ok: Callable[[Style, Kind], bool] = lambda s, k: True,
        avoid: Sequence[Combo] = (),
    ) -> list[Combo]:
        """Up to ``count`` distinct (style, kind) pairs passing ``ok`` and not in ``avoid``."""
        taken = {(s.name.en, k.key) for s, k in avoid}
        pool = [
            (s, k)
            for s in category.styles
            for k in category.kinds
            if ok(s, k) and (s.name.en, k.key) not in taken
        ]
        self.rng.shuffle(pool)
        return pool[:count]

    def features(
        self, category: ShopCategory, need: Feature | None = None, drop: Feature | None = None
    ) -> tuple[Feature, ...]:
        """Random features of ``category`` (in pool order), with ``need`` and without ``drop``."""
        chosen = [
            f for f in category.features if f == need or (f != drop and self.rng.random() < 0.4)
        ]
        return tuple(chosen)

    def product(
        self,
        category: ShopCategory,
        combo: Combo,
        price: float,
        *,
        stock: int | None = None,
        need: Feature | None = None,
        drop: Feature | None = None,
    ) -> ProductDraft:
        """A product (random stock 3–30 unless given; features with ``need``, without ``drop``)."""
        style, kind = combo
        extra = pick(self.rng, EXTRA_TAGS) if self.rng.random() < 0.25 else None
        return ProductDraft(
            category=category,
            style=style,
            kind=kind,
            price=price,
            stock=self.rng.randint(3, 30) if stock is None else stock,
            features=self.features(category, need, drop),
            extra=extra,
        )

    def random_products(
        self, category: ShopCategory, count: int, forbidden: frozenset[str] = frozenset()
    ) -> list[ProductDraft]:
        """``count`` unconstrained products (some may be sold out), avoiding ``forbidden`` flags
        for the first half so the shop has something the user could buy."""
        safe = self.combos(
            category, (count + 1) // 2, lambda s, k: not (s.flags | k.flags) & forbidden
        )
        rest = self.combos(category, count - len(safe), avoid=safe)
        products = []
        for combo in safe + rest:
            stock = 0 if self.rng.random() < 0.12 else None
            products.append(
                self.product(category, combo, price_under(self.rng, combo[1], None), stock=stock)
            )
        self.rng.shuffle(products)
        return products

    def visit_flags(self, category: ShopCategory, takes: bool | None) -> tuple[bool, float, bool]:
        """(enable_book, book_price, enable_reservation) for a shop of ``category``.

        ``takes`` forces whether the shop accepts its category's appointment kind (None: 75 %
        do); a category without appointments accepts neither.
        """
        on = self.rng.random() < 0.75 if takes is None else takes
        if category.visit == "book":
            fee = weighted(self.rng, BOOK_FEES) if on else 0.0
            return on, fee, False
        if category.visit == "reservation":
            return False, 0.0, on
        return False, 0.0, False

    def shop(
        self,
        category: ShopCategory,
        place: Place,
        score: float,
        products: list[ProductDraft],
        owner: int | None,
        role: str,
        *,
        takes: bool | None = None,
        name: Bi | None = None,
    ) -> ShopDraft:
        """A shop (a fresh name unless given); see :meth:`visit_flags` for ``takes``."""
        tags = [category.name]
        if self.rng.random() < 0.7:
            tags.append(pick(self.rng, category.shop_tags))
        enable_book, fee, enable_reservation = self.visit_flags(category, takes)
        return ShopDraft(
            category=category,
            name=name or self.shop_name(category),
            place=place,
            score=round(score, 1),
            tags=tuple(tags),
            enable_book=enable_book,
            book_price=fee,
            enable_reservation=enable_reservation,
            products=products,
            owner=owner,
            role=role,
        )

    def around(self, anchor: Place, lo_m: float, hi_m: float) -> Place:
        """A shop address between ``lo_m`` and ``hi_m`` metres from ``anchor``."""
        return place_around(self.rng, anchor, self.book.shop(), lo_m, hi_m)

    def random_shop(
        self,
        category: ShopCategory,
        anchor: Place,
        owner: int | None,
        role: str,
        forbidden: frozenset[str] = frozenset(),
    ) -> ShopDraft:
        """An unconstrained shop of ``category`` within 5 km of ``anchor``."""
        products = self.random_products(category, self.products_per_shop, forbidden)
        score = self.rng.randint(36, 50) / 10
        return self.shop(category, self.around(anchor, 300, 5000), score, products, owner, role)
