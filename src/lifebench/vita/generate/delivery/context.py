"""The state shared by the sub-goals of one delivery task, and the sub-goal base class."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, ClassVar

from lifebench._util.text import Language
from lifebench.vita.domains._geo import delivery_minutes
from lifebench.vita.generate.delivery.catalog import Catalog
from lifebench.vita.generate.delivery.model import ProductDraft, StoreDraft
from lifebench.vita.generate.delivery.text import UserPlace
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.food import CATEGORIES, KIN, Dish, FoodCategory
from lifebench.vita.generate.world import Persona, fmt_time

PERIODS: tuple[tuple[str, tuple[int, int], tuple[int, int]], ...] = (
    ("breakfast", (7, 0), (9, 10)),
    ("lunch", (10, 40), (12, 20)),
    ("afternoon", (14, 0), (16, 10)),
    ("dinner", (17, 0), (19, 20)),
    ("night", (21, 0), (22, 40)),
)
"""Meal periods: key, earliest and latest task clock (hour, minute)."""


@dataclass(frozen=True)
class Section:
    """A meal-period section of ``user_historical_behaviors`` (official keys)."""

    key: str
    title: Bi
    periods: frozenset[str]


SECTIONS: tuple[Section, ...] = (
    Section("breakfast", Bi("breakfast", "早餐"), frozenset({"breakfast"})),
    Section(
        "weekday", Bi("weekday lunch/dinner", "工作日午餐/晚餐"), frozenset({"lunch", "dinner"})
    ),
    Section("weekend", Bi("weekend lunch/dinner", "周末午餐/晚餐"), frozenset({"lunch", "dinner"})),
    Section("snacks", Bi("desserts/drinks/snacks", "甜品/饮品/小吃"), frozenset({"afternoon"})),
    Section("night", Bi("night snack", "夜宵"), frozenset({"night"})),
)
"""The five sections, in the official order."""


def current_section(period: str, weekend: bool) -> Section:
    """The section the task's meal period belongs to."""
    key = {"breakfast": "breakfast", "afternoon": "snacks", "night": "night"}.get(
        period, "weekend" if weekend else "weekday"
    )
    return next(s for s in SECTIONS if s.key == key)


@dataclass
class Context:
    """Everything the sub-goals of one task share.

    ``where`` is where the user is when the task starts (``home`` or ``work``); ``used`` the
    categories claimed by sub-goals (each sub-goal has its own, so that one sub-goal's stores
    can never satisfy another's constraints).
    """

    rng: random.Random
    task_id: str
    persona: Persona
    catalog: Catalog
    now: datetime
    period: str
    weekend: bool
    places: dict[str, UserPlace]
    where: str
    used: list[str] = field(default_factory=list)
    _serial: int = 0

    @property
    def forbidden(self) -> frozenset[str]:
        """Dish flags the user never eats."""
        restriction = self.persona.restriction
        return restriction.forbidden if restriction else frozenset()

    def safe(self, dish: Dish) -> bool:
        """Whether the user may eat ``dish``."""
        return not dish.flags & self.forbidden

    def order_id(self, kind: str) -> str:
        """A fresh order id: ``<task>-O01`` for pre-existing orders, ``-T01`` for new ones."""
        self._serial += 1
        return f"{self.task_id}-{kind}{self._serial:02d}"

    def free_categories(self) -> list[FoodCategory]:
        """Categories no sub-goal has claimed, in pool order."""
        return [c for c in CATEGORIES if c.key not in self.used]

    def unrelated_categories(self) -> list[FoodCategory]:
        """Free categories that are not kin (:data:`KIN`) of any claimed one (else the free)."""
        related = set(self.used).union(*(KIN[key] for key in self.used))
        return [c for c in CATEGORIES if c.key not in related] or self.free_categories()

    def home_or_work(self) -> UserPlace:
        """The place the user is at."""
        return self.places[self.where]


@dataclass(frozen=True)
class Line:
    """One product line of an order: product, quantity, chosen attribute (None: any)."""

    product: ProductDraft
    quantity: int
    attribute: Bi | None = None


def order_record(
    ctx: Context,
    language: Language,
    *,
    order_id: str,
    store: StoreDraft,
    lines: list[Line],
    place: UserPlace,
    status: str,
    created: datetime,
    updated: datetime | None = None,
    note: Bi | None = None,
    dispatch: datetime | None = None,
    delivery: datetime | None = None,
) -> dict[str, Any]:
    """An order-shaped record (pre-existing order or expected state), official field order.

    With ``delivery`` (and/or ``dispatch``) set, the missing one and ``shipping_time`` follow
    from the store-to-address distance with the domain's delivery-minutes formula.
    """
    minutes = delivery_minutes(place.place.metres_to(store.place.longitude, store.place.latitude))
    shipping: float | None = None
    if delivery is not None or dispatch is not None:
        if dispatch is None:
            assert delivery is not None
            dispatch = delivery - timedelta(minutes=minutes)
        if delivery is None:
            delivery = dispatch + timedelta(minutes=minutes)
        shipping = float(minutes)
    return {
        "order_id": order_id,
        "order_type": "delivery",
        "user_id": ctx.persona.user_id,
        "store_id": store.store_id,
        "note": note.get(language) if note else "",
        "location": place.place.location(language),
        "dispatch_time": fmt_time(dispatch) if dispatch else "",
        "shipping_time": shipping,
        "delivery_time": fmt_time(delivery) if delivery else "",
        "total_price": round(sum(line.product.price * line.quantity for line in lines), 2),
        "create_time": fmt_time(created),
        "update_time": fmt_time(updated or created),
        "status": status,
        "products": [
            {
                "product_id": line.product.product_id,
                "price": line.product.price,
                "quantity": line.quantity,
                "attributes": line.attribute.get(language) if line.attribute else "",
            }
            for line in lines
        ],
    }


class Goal:
    """One sub-goal of a delivery task.

    Lifecycle: constructed with the context (choosing its constraints), :meth:`build` makes its
    stores given the distractor roles it was granted, ids are assigned, then the render methods
    produce orders, expected states, instruction text, rubrics and history entries.
    """

    kind: ClassVar[str] = ""
    creates_order: ClassVar[bool] = True

    def __init__(self, index: int, category: FoodCategory, ctx: Context) -> None:
        del ctx  # sub-classes draw their parameters from it
        self.index = index
        self.category = category

    # ---- store budget ------------------------------------------------------------------------

    @property
    def core(self) -> int:
        """Stores the sub-goal cannot do without."""
        return 1

    def optional_roles(self) -> list[str]:
        """Distractor stores worth adding, most useful first."""
        return []

    def extra_roles(self) -> list[str]:
        """Roles cycled through when the task has stores to spare (empty: none wanted)."""
        return []

    def build(self, ctx: Context, roles: list[str]) -> list[StoreDraft]:
        """The sub-goal's stores: the core ones plus one per granted role."""
        raise NotImplementedError

    # ---- rendering ---------------------------------------------------------------------------

    def preexisting(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """Orders that exist before the conversation starts."""
        return []

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The required orders of the sub-goal's expected state."""
        raise NotImplementedError

    def instruction(self, ctx: Context) -> Bi:
        """The sub-goal's part of the instruction (whole sentences)."""
        raise NotImplementedError

    def rubrics(self, ctx: Context) -> list[Bi]:
        """The sub-goal's rubrics."""
        raise NotImplementedError

    def recent(self) -> tuple[Bi, Bi] | None:
        """A (store, product) entry the current meal period's recent orders must show."""
        return None

    def check(self, ctx: Context, stores: list[StoreDraft]) -> list[str]:
        """Self-check against the finished world (empty: fine)."""
        return []
