"""Internal records of a delivery task under construction, and the selection constraints.

Drafts are language-neutral (text is :class:`Bi`); ids are assigned once every store exists, and
records are rendered into the official format at the very end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.domains._geo import delivery_minutes
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.food import Dish, FoodCategory
from lifebench.vita.generate.world import Place


def num(value: float) -> str:
    """A number as people write it: ``35``, ``2.5``, ``4.5``."""
    return f"{value:g}"


@dataclass
class ProductDraft:
    """A catalog product of a store under construction."""

    dish: Dish
    name: Bi
    price: float
    attributes: tuple[Bi, ...]
    tags: tuple[Bi, ...]
    product_id: str = ""

    def record(self, store: StoreDraft, language: Language) -> dict[str, Any]:
        """The official ``StoreProduct`` record."""
        return {
            "product_id": self.product_id,
            "name": self.name.get(language),
            "store_id": store.store_id,
            "store_name": store.name.get(language),
            "price": self.price,
            "tags": [t.get(language) for t in self.tags],
            "attributes": [a.get(language) for a in self.attributes],
        }


@dataclass
class StoreDraft:
    """A store under construction.

    ``owner`` is the index of the sub-goal whose search space the store was made for (None for
    filler), ``role`` why it exists (``target``, ``far``, ``low_rated`` …).
    """

    category: FoodCategory
    name: Bi
    place: Place
    score: float
    tags: tuple[Bi, ...]
    products: list[ProductDraft]
    owner: int | None
    role: str
    store_id: str = ""

    def record(self, language: Language) -> dict[str, Any]:
        """The official ``Store`` record."""
        return {
            "store_id": self.store_id,
            "name": self.name.get(language),
            "score": self.score,
            "location": self.place.location(language),
            "tags": [t.get(language) for t in self.tags],
            "products": [p.record(self, language) for p in self.products],
        }


@dataclass(frozen=True)
class Constraints:
    """What a selection sub-goal asks of the store and the dish.

    ``max_price`` is per unit (a group order's total budget divided by the quantity).
    ``deadline`` means "dispatched now, it must arrive by then"; ``scheduled`` is a wished
    arrival time (not a filter).
    """

    category: str
    place: Place
    now: datetime
    max_distance_m: int | None = None
    deadline: datetime | None = None
    min_rating: float | None = None
    max_price: float | None = None
    forbidden: frozenset[str] = field(default_factory=frozenset)

    def arrival(self, metres: int) -> datetime:
        """Arrival of an order dispatched now over ``metres``."""
        return self.now + timedelta(minutes=delivery_minutes(metres))

    def store_violations(
        self, category: str, longitude: float, latitude: float, score: float
    ) -> list[str]:
        """Store-level constraints a store breaks (category, distance, deadline, rating)."""
        out = []
        if category != self.category:
            out.append("category")
        metres = self.place.metres_to(longitude, latitude)
        if self.max_distance_m is not None and metres > self.max_distance_m:
            out.append("distance")
        if self.deadline is not None and self.arrival(metres) > self.deadline:
            out.append("deadline")
        if self.min_rating is not None and score < self.min_rating - 1e-9:
            out.append("rating")
        return out

    def product_violations(self, price: float, flags: frozenset[str]) -> list[str]:
        """Product-level constraints a product breaks (price, diet)."""
        out = []
        if self.max_price is not None and price > self.max_price + 1e-9:
            out.append("price")
        if flags & self.forbidden:
            out.append("diet")
        return out

    @property
    def product_level(self) -> tuple[str, ...]:
        """The product-level constraints present."""
        kinds = []
        if self.max_price is not None:
            kinds.append("price")
        if self.forbidden:
            kinds.append("diet")
        return tuple(kinds)
