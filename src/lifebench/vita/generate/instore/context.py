"""The state shared by the sub-goals of one in-store task, record builders, the sub-goal base."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from lifebench._util.text import Language
from lifebench.vita.generate.instore.catalog import Catalog
from lifebench.vita.generate.instore.model import ProductDraft, ShopDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.instore import CATEGORIES, KIN, ShopCategory
from lifebench.vita.generate.world import Persona, Place, fmt_time, pick, weighted


@dataclass(frozen=True)
class UserPlace:
    """A place of the user that distance requirements refer to.

    ``of`` is the reference in instructions ("your home"), ``rubric`` the third-person name used
    in rubrics ("the user's home").
    """

    key: str
    place: Place
    of: Bi
    rubric: Bi


def user_places(persona: Persona) -> dict[str, UserPlace]:
    """The user's home and workplace."""
    return {
        "home": UserPlace(
            "home", persona.home, Bi("your home", "你家"), Bi("the user's home", "用户家")
        ),
        "work": UserPlace(
            "work", persona.work, Bi("your office", "公司"), Bi("the user's office", "用户的公司")
        ),
    }


@dataclass
class Context:
    """Everything the sub-goals of one task share.

    ``where`` is where the user is when the task starts (``home`` or ``work``); ``used`` the
    category keys claimed by sub-goals (each sub-goal has its own, and no two are kin, so that
    one sub-goal's shops can never satisfy another's constraints); ``days`` the days that
    appointments of the task fall on (their weather is part of the environment).
    """

    rng: random.Random
    task_id: str
    persona: Persona
    catalog: Catalog
    now: datetime
    places: dict[str, UserPlace]
    where: str
    used: list[str] = field(default_factory=list)
    days: set[date] = field(default_factory=set)
    _serial: int = 0

    @property
    def forbidden(self) -> frozenset[str]:
        """Dietary flags the user never eats."""
        restriction = self.persona.restriction
        return restriction.forbidden if restriction else frozenset()

    def record_id(self, kind: str) -> str:
        """A fresh record id: ``<task>-O01`` (pre-existing order), ``-B`` / ``-R`` (existing
        booking / reservation), ``-T`` (records the task creates)."""
        self._serial += 1
        return f"{self.task_id}-{kind}{self._serial:02d}"

    def related(self) -> set[str]:
        """Claimed category keys and their kin."""
        return set(self.used).union(*(KIN[key] for key in self.used))

    def unrelated(self, ok: Callable[[ShopCategory], bool] = lambda c: True) -> list[ShopCategory]:
        """Categories passing ``ok`` that are neither claimed nor kin of a claimed one."""
        related = self.related()
        return [c for c in CATEGORIES if c.key not in related and ok(c)]

    def claim(self, ok: Callable[[ShopCategory], bool]) -> ShopCategory | None:
        """Claim a random unrelated category passing ``ok`` (None when there is none)."""
        free = self.unrelated(ok)
        if not free:
            return None
        category = pick(self.rng, free)
        self.used.append(category.key)
        return category

    def here(self) -> UserPlace:
        """The place the user is at."""
        return self.places[self.where]

    def slot(self, category: ShopCategory, after: datetime | None = None) -> datetime:
        """An appointment time on the half hour within the category's hours, at least an hour
        after ``after`` (default: the task clock), today or within the next three days."""
        start = (after or self.now) + timedelta(minutes=60)
        for _ in range(60):
            offset = weighted(self.rng, [(0, 0.3), (1, 0.4), (2, 0.2), (3, 0.1)])
            first, last = pick(self.rng, category.hours)
            half_hours = self.rng.randint(first * 2, last * 2)
            day = self.now.date() + timedelta(days=offset)
            when = datetime(day.year, day.month, day.day) + timedelta(minutes=30 * half_hours)  # noqa: DTZ001 - naive task clock
            if when >= start:
                self.days.add(when.date())
                return when
        first = category.hours[0][0]
        day = start.date() + timedelta(days=1)
        when = datetime(day.year, day.month, day.day, first)  # noqa: DTZ001 - naive task clock
        self.days.add(when.date())
        return when

    def past(self, low_days: int, high_days: int) -> datetime:
        """A moment ``low_days``–``high_days`` days before the task clock (whole minutes)."""
        back = timedelta(
            days=self.rng.randint(low_days, high_days), minutes=self.rng.randint(0, 600)
        )
        return (self.now - back).replace(second=0)


def order_record(
    ctx: Context,
    *,
    order_id: str,
    shop: ShopDraft,
    product: ProductDraft,
    quantity: int,
    status: str,
    created: datetime,
    updated: datetime | None = None,
    language: Language,
) -> dict[str, Any]:
    """An in-store order (pre-existing order or expected state), official field order."""
    return {
        "order_id": order_id,
        "order_type": "instore",
        "user_id": ctx.persona.user_id,
        "store_id": shop.shop_id,
        "note": "",
        "location": None,
        "dispatch_time": "",
        "shipping_time": None,
        "delivery_time": "",
        "total_price": round(product.price * quantity, 2),
        "create_time": fmt_time(created),
        "update_time": fmt_time(updated or created),
        "status": status,
        "products": [
            {
                "product_id": product.product_id,
                "name": product.name.get(language),
                "price": product.price,
                "quantity": quantity,
            }
        ],
    }


def book_record(
    ctx: Context,
    *,
    book_id: str,
    shop: ShopDraft,
    when: datetime,
    people: int,
    status: str,
    updated: datetime,
) -> dict[str, Any]:
    """A table booking (``BookInfo``), official field order."""
    return {
        "book_id": book_id,
        "shop_id": shop.shop_id,
        "book_time": fmt_time(when),
        "update_time": fmt_time(updated),
        "customer_id": ctx.persona.user_id,
        "customer_count": people,
        "book_price": shop.book_price,
        "status": status,
    }


def reservation_record(
    ctx: Context,
    *,
    reservation_id: str,
    shop: ShopDraft,
    when: datetime,
    people: int,
    status: str,
    updated: datetime,
) -> dict[str, Any]:
    """A service reservation (``ReservationInfo``), official field order."""
    return {
        "reservation_id": reservation_id,
        "shop_id": shop.shop_id,
        "reservation_time": fmt_time(when),
        "update_time": fmt_time(updated),
        "customer_id": ctx.persona.user_id,
        "customer_count": people,
        "status": status,
    }


def appointment_record(
    ctx: Context,
    visit: str,
    *,
    record_id: str,
    shop: ShopDraft,
    when: datetime,
    people: int,
    status: str,
    updated: datetime,
) -> dict[str, Any]:
    """A booking (``visit`` ``book``) or a reservation (``reservation``)."""
    if visit == "book":
        return book_record(
            ctx,
            book_id=record_id,
            shop=shop,
            when=when,
            people=people,
            status=status,
            updated=updated,
        )
    return reservation_record(
        ctx,
        reservation_id=record_id,
        shop=shop,
        when=when,
        people=people,
        status=status,
        updated=updated,
    )


Preexisting = tuple[str, dict[str, Any]]
"""A record of the initial database: (table ``orders`` / ``books`` / ``reservations``, record)."""


class Goal:
    """One sub-goal of an in-store task.

    Lifecycle: constructed with the context (claiming its categories and choosing its
    constraints), :meth:`build` makes its shops given the distractor roles it was granted, ids
    are assigned, then the render methods produce pre-existing records, expected records,
    instruction text, rubrics and history entries.
    """

    kind: ClassVar[str] = ""
    creates_order: ClassVar[bool] = False
    """Whether the sub-goal creates a new product order (the distractor oracle's near miss)."""

    @classmethod
    def usable(cls, category: ShopCategory, forbidden: frozenset[str]) -> bool:
        """Whether the sub-goal can be about a shop of ``category`` for a user who does not eat
        ``forbidden`` dietary flags."""
        return True

    def __init__(self, index: int, category: ShopCategory, ctx: Context) -> None:
        del ctx  # sub-classes draw their parameters from it
        self.index = index
        self.category = category

    # ---- shop budget -------------------------------------------------------------------------

    @property
    def core(self) -> int:
        """Shops the sub-goal cannot do without."""
        return 1

    def simplify(self) -> bool:
        """Need one core shop less (e.g. drop a tie-break between two shops); False if it can't."""
        return False

    def optional_roles(self) -> list[str]:
        """Distractor shops worth adding, most useful first."""
        return []

    def extra_roles(self) -> list[str]:
        """Roles cycled through when the task has shops to spare (empty: none wanted)."""
        return []

    def build(self, ctx: Context, roles: list[str]) -> list[ShopDraft]:
        """The sub-goal's shops: the core ones plus one per granted role."""
        raise NotImplementedError

    # ---- rendering ---------------------------------------------------------------------------

    def new_visits(self) -> list[tuple[str, ShopDraft]]:
        """(appointment kind, shop) of every booking / reservation the sub-goal creates."""
        return []

    def preexisting(self, ctx: Context, language: Language) -> list[Preexisting]:
        """Records that exist before the conversation starts."""
        return []

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The required records of the sub-goal's expected state."""
        raise NotImplementedError

    def instruction(self, ctx: Context) -> Bi:
        """The sub-goal's part of the instruction (whole sentences)."""
        raise NotImplementedError

    def rubrics(self, ctx: Context) -> list[Bi]:
        """The sub-goal's rubrics."""
        raise NotImplementedError

    def recent(self) -> tuple[ShopCategory, Bi, Bi] | None:
        """A (category, shop, product) entry the history's recent orders must show."""
        return None

    def check(self, ctx: Context, shops: list[ShopDraft]) -> list[str]:
        """Self-check against the finished world (empty: fine)."""
        return []
