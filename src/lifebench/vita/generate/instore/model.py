"""Internal records of an in-store task under construction, and the selection constraints.

Drafts are language-neutral (text is :class:`Bi`); ids are assigned once every shop exists, and
records are rendered into the official format at the very end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lifebench._util.text import Language
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.food import FLAG_TAGS
from lifebench.vita.generate.pools.instore import Feature, Kind, ShopCategory, Style
from lifebench.vita.generate.world import Place


def num(value: float) -> str:
    """A number as people write it: ``35``, ``2.5``, ``4.5``."""
    return f"{value:g}"


@dataclass
class ProductDraft:
    """A catalog product of a shop under construction (``stock`` is the official ``quantity``)."""

    category: ShopCategory
    style: Style
    kind: Kind
    price: float
    stock: int
    features: tuple[Feature, ...]
    extra: Bi | None = None
    product_id: str = ""

    @property
    def name(self) -> Bi:
        """The name: "<style> <kind suffix>" ("Beef Tallow Hotpot Set for Two" / "牛油双人火锅套餐")."""
        return Bi(
            f"{self.style.name.en} {self.kind.suffix.en}",
            f"{self.style.name.zh}{self.kind.suffix.zh}",
        )

    @property
    def flags(self) -> frozenset[str]:
        """Dietary flags of the product (its style's and its kind's)."""
        return self.style.flags | self.kind.flags

    @property
    def tags(self) -> tuple[Bi, ...]:
        """Kind tag first, then features, dietary flags (in ``FLAG_TAGS`` order), extra tag."""
        out = [self.kind.tag, *(f.tag for f in self.features)]
        out += [tag for flag, tag in FLAG_TAGS.items() if flag in self.flags]
        if self.extra is not None:
            out.append(self.extra)
        return tuple(out)

    def record(self, shop: ShopDraft, language: Language) -> dict[str, Any]:
        """The official ``ShopProduct`` record."""
        return {
            "product_id": self.product_id,
            "name": self.name.get(language),
            "shop_id": shop.shop_id,
            "price": self.price,
            "quantity": self.stock,
            "tags": [t.get(language) for t in self.tags],
        }


@dataclass
class ShopDraft:
    """A shop under construction.

    ``owner`` is the index of the sub-goal whose search space the shop was made for (None for
    filler), ``role`` why it exists (``target``, ``far``, ``low_rated``, ``no_visit`` …).
    """

    category: ShopCategory
    name: Bi
    place: Place
    score: float
    tags: tuple[Bi, ...]
    enable_book: bool
    book_price: float
    enable_reservation: bool
    products: list[ProductDraft]
    owner: int | None
    role: str
    shop_id: str = ""

    def takes(self, visit: str) -> bool:
        """Whether the shop accepts ``book`` (tables) or ``reservation`` (appointments)."""
        return self.enable_book if visit == "book" else self.enable_reservation

    def record(self, language: Language) -> dict[str, Any]:
        """The official ``Shop`` record."""
        return {
            "shop_id": self.shop_id,
            "shop_name": self.name.get(language),
            "score": self.score,
            "location": self.place.location(language),
            "tags": [t.get(language) for t in self.tags],
            "enable_book": self.enable_book,
            "book_price": self.book_price,
            "enable_reservation": self.enable_reservation,
            "products": [p.record(self, language) for p in self.products],
        }


@dataclass(frozen=True)
class Constraints:
    """What a selection sub-goal asks of the shop and (when buying) the product.

    Shop level: ``category`` (the shop's category tag), ``max_distance_m`` from ``place``,
    ``min_rating`` and ``visit`` (the shop must accept that appointment kind). Product level,
    only for purchases (``kind`` set): the product type, ``max_price`` per unit, no
    ``forbidden`` dietary flag, the required ``feature`` and enough stock for ``quantity``.
    """

    category: str
    place: Place
    max_distance_m: int | None = None
    min_rating: float | None = None
    visit: str | None = None
    kind: str | None = None
    max_price: float | None = None
    forbidden: frozenset[str] = frozenset()
    feature: Feature | None = None
    quantity: int = 1

    def shop_violations(self, shop: ShopDraft) -> list[str]:
        """Shop-level constraints ``shop`` breaks."""
        out = []
        if shop.category.key != self.category:
            out.append("category")
        metres = self.place.metres_to(shop.place.longitude, shop.place.latitude)
        if self.max_distance_m is not None and metres > self.max_distance_m:
            out.append("distance")
        if self.min_rating is not None and shop.score < self.min_rating - 1e-9:
            out.append("rating")
        if self.visit is not None and not shop.takes(self.visit):
            out.append("visit")
        return out

    def product_violations(self, product: ProductDraft) -> list[str]:
        """Product-level constraints ``product`` breaks (judged within the right category)."""
        out = []
        if self.kind is not None and product.kind.key != self.kind:
            out.append("kind")
        if self.max_price is not None and product.price > self.max_price + 1e-9:
            out.append("price")
        if product.flags & self.forbidden:
            out.append("diet")
        if self.feature is not None and self.feature not in product.features:
            out.append("feature")
        if self.kind is not None and product.stock < self.quantity:
            out.append("stock")
        return out

    @property
    def product_level(self) -> tuple[str, ...]:
        """The product-level constraints present (``kind`` and ``stock`` when buying)."""
        if self.kind is None:
            return ()
        kinds = ["kind", "stock"]
        if self.max_price is not None:
            kinds.append("price")
        if self.forbidden:
            kinds.append("diet")
        if self.feature is not None:
            kinds.append("feature")
        return tuple(kinds)
