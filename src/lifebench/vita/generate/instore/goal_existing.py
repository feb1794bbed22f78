"""Sub-goals about records that exist before the conversation: modify a reservation, cancel an
order, a table booking or a reservation. Each comes with a look-alike record of the same kind
at another shop that must stay untouched."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from types import MappingProxyType
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
from lifebench.vita.generate.pools.instore import CANCEL_REASONS, ShopCategory
from lifebench.vita.generate.world import pick, weighted

_TABLES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {"order": ("orders", "O"), "book": ("books", "B"), "reservation": ("reservations", "R")}
)
"""Record kind → (initial table, id prefix)."""


def _shop_for(
    ctx: Context, category: ShopCategory, owner: int, role: str, takes: bool | None
) -> ShopDraft:
    """A shop of ``category`` 0.5–4 km from where the user is."""
    catalog = ctx.catalog
    products = catalog.random_products(category, catalog.products_per_shop, ctx.forbidden)
    place = catalog.around(ctx.here().place, 500, 4000)
    score = ctx.rng.randint(38, 50) / 10
    return catalog.shop(category, place, score, products, owner, role, takes=takes)


def _other_slot(ctx: Context, category: ShopCategory, avoid: datetime) -> datetime:
    """An appointment time at least an hour away from ``avoid``."""
    for _ in range(30):
        moment = ctx.slot(category)
        if abs(moment - avoid) >= timedelta(hours=1):
            return moment
    return avoid + timedelta(hours=2)


class ModifyReservation(Goal):
    """Move a reservation and/or change its party size; another reservation stays as it is."""

    kind: ClassVar[str] = "modify_reservation"

    @classmethod
    def usable(cls, category: ShopCategory, forbidden: frozenset[str]) -> bool:
        """Service shops that take reservations."""
        return category.visit == "reservation"

    def __init__(self, index: int, category: ShopCategory, ctx: Context) -> None:
        super().__init__(index, category, ctx)
        rng = ctx.rng
        claimed = ctx.claim(lambda c: c.visit == "reservation")
        self.decoy_category = claimed or category
        change = (
            "time"
            if category.party == 1
            else weighted(rng, [("time", 0.4), ("people", 0.25), ("both", 0.35)])
        )
        self.old = ctx.slot(category)
        self.new = _other_slot(ctx, category, self.old) if change != "people" else None
        self.old_people = rng.randint(1, category.party)
        self.new_people: int | None = None
        if change != "time":
            choices = [n for n in range(1, max(2, category.party) + 1) if n != self.old_people]
            self.new_people = pick(rng, choices)
        self.decoy_when = ctx.slot(self.decoy_category)
        self.decoy_people = rng.randint(1, self.decoy_category.party)
        self.made = ctx.past(1, 6)
        self.record_id = ctx.record_id("R")
        self.decoy_id = ctx.record_id("R")

    @property
    def core(self) -> int:
        """The shop of the reservation and the shop of the other one."""
        return 2

    def build(self, ctx: Context, roles: list[str]) -> list[ShopDraft]:
        """Both shops (they take reservations)."""
        self.shop = _shop_for(ctx, self.category, self.index, "target", True)
        self.decoy = _shop_for(ctx, self.decoy_category, self.index, "decoy", True)
        return [self.shop, self.decoy]

    def _record(
        self, ctx: Context, when: datetime, people: int, updated: datetime
    ) -> dict[str, Any]:
        """The reservation with the given time and party size."""
        return appointment_record(
            ctx,
            "reservation",
            record_id=self.record_id,
            shop=self.shop,
            when=when,
            people=people,
            status="unconsumed",
            updated=updated,
        )

    def preexisting(self, ctx: Context, language: Language) -> list[Preexisting]:
        """The reservation before the change and the other one."""
        decoy = appointment_record(
            ctx,
            "reservation",
            record_id=self.decoy_id,
            shop=self.decoy,
            when=self.decoy_when,
            people=self.decoy_people,
            status="unconsumed",
            updated=self.made,
        )
        return [
            ("reservations", self._record(ctx, self.old, self.old_people, self.made)),
            ("reservations", decoy),
        ]

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The reservation after the change."""
        when = self.new or self.old
        people = self.new_people or self.old_people
        return [self._record(ctx, when, people, ctx.now)]

    def instruction(self, ctx: Context) -> Bi:
        """Which appointment and what changes."""
        return text.modify_reservation(
            self.shop.name,
            self.category,
            text.when(ctx.now, self.old),
            self.old_people,
            text.when(ctx.now, self.new) if self.new else None,
            self.new_people,
        )

    def rubrics(self, ctx: Context) -> list[Bi]:
        """New time and / or party size; the other reservation untouched."""
        out = []
        if self.new is not None:
            out.append(text.r_moved(self.record_id, self.shop.name, self.new))
        if self.new_people is not None:
            out.append(text.r_people(self.record_id, self.new_people))
        out.append(text.r_unchanged(self.decoy_id, self.decoy.name))
        return out


class CancelExisting(Goal):
    """Cancel an order, a table booking or a reservation made earlier; a record of the same
    kind at another shop stays."""

    kind: ClassVar[str] = "cancel_existing"

    @classmethod
    def usable(cls, category: ShopCategory, forbidden: frozenset[str]) -> bool:
        """Any category with a product line the user may eat."""
        return any(not s.flags & forbidden for s in category.styles)

    def __init__(self, index: int, category: ShopCategory, ctx: Context) -> None:
        super().__init__(index, category, ctx)
        rng = ctx.rng
        visit = category.visit
        self.record = visit if visit is not None and rng.random() < 0.7 else "order"
        claimed = ctx.claim(lambda c: self.record == "order" or c.visit == self.record)
        self.decoy_category = claimed or category
        self.reason = pick(rng, CANCEL_REASONS)
        self.made = ctx.past(1, 10)
        self.decoy_made = ctx.past(1, 10)
        self.when: datetime | None = None
        self.decoy_when: datetime | None = None
        if self.record != "order":
            self.when = ctx.slot(category)
            self.decoy_when = ctx.slot(self.decoy_category)
        self.people = rng.randint(1, category.party)
        self.decoy_people = rng.randint(1, self.decoy_category.party)
        self.quantity = 1 if rng.random() < 0.75 else 2
        prefix = _TABLES[self.record][1]
        self.record_id = ctx.record_id(prefix)
        self.decoy_id = ctx.record_id(prefix)

    @property
    def core(self) -> int:
        """The shop of the record and the shop of the one that stays."""
        return 2

    def _bought(self, ctx: Context, shop: ShopDraft) -> ProductDraft:
        """The product the earlier order bought (added to the shop's catalog)."""
        catalog, cat = ctx.catalog, shop.category
        forbidden = ctx.forbidden if cat.dining else frozenset()
        taken = [(p.style, p.kind) for p in shop.products]
        picks = catalog.combos(cat, 1, lambda s, k: not (s.flags | k.flags) & forbidden, taken)
        if picks:
            product = catalog.product(cat, picks[0], price_under(ctx.rng, picks[0][1], None))
            shop.products[ctx.rng.randrange(len(shop.products))] = product
            return product
        return shop.products[0]  # pragma: no cover - every category has spare combos

    def build(self, ctx: Context, roles: list[str]) -> list[ShopDraft]:
        """Both shops; for orders, each sells the product bought."""
        takes = None if self.record == "order" else True
        self.shop = _shop_for(ctx, self.category, self.index, "target", takes)
        self.decoy = _shop_for(ctx, self.decoy_category, self.index, "decoy", takes)
        if self.record == "order":
            self.product = self._bought(ctx, self.shop)
            self.decoy_product = self._bought(ctx, self.decoy)
        return [self.shop, self.decoy]

    def _render(
        self, ctx: Context, language: Language, *, decoy: bool, status: str, updated: datetime
    ) -> dict[str, Any]:
        """The record to cancel (or, with ``decoy``, the one that stays) with ``status``."""
        shop = self.decoy if decoy else self.shop
        rid = self.decoy_id if decoy else self.record_id
        made = self.decoy_made if decoy else self.made
        if self.record == "order":
            return order_record(
                ctx,
                order_id=rid,
                shop=shop,
                product=self.decoy_product if decoy else self.product,
                quantity=1 if decoy else self.quantity,
                status=status,
                created=made,
                updated=updated,
                language=language,
            )
        when = self.decoy_when if decoy else self.when
        assert when is not None
        return appointment_record(
            ctx,
            self.record,
            record_id=rid,
            shop=shop,
            when=when,
            people=self.decoy_people if decoy else self.people,
            status=status,
            updated=updated,
        )

    def _live_status(self) -> str:
        """Status of the records before the conversation (reservations are unconsumed)."""
        return "unconsumed" if self.record == "reservation" else "paid"

    def preexisting(self, ctx: Context, language: Language) -> list[Preexisting]:
        """The record to cancel and the one that stays."""
        table = _TABLES[self.record][0]
        live = self._live_status()
        return [
            (table, self._render(ctx, language, decoy=False, status=live, updated=self.made)),
            (
                table,
                self._render(ctx, language, decoy=True, status=live, updated=self.decoy_made),
            ),
        ]

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The record, cancelled."""
        return [self._render(ctx, language, decoy=False, status="cancelled", updated=ctx.now)]

    def what(self) -> Bi:
        """What the record is about (rubrics)."""
        if self.record == "order":
            return self.product.name
        if self.record == "book":
            return Bi("the table booking", "订座")
        return Bi("the appointment", "预约")

    def instruction(self, ctx: Context) -> Bi:
        """Which record to cancel, and why."""
        if self.record == "order":
            return text.cancel_order(self.reason, self.product.name, self.shop.name)
        assert self.when is not None
        return text.cancel_visit(
            self.record, self.reason, self.shop.name, text.when(ctx.now, self.when)
        )

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Cancelled, and the other record kept."""
        return [
            text.r_cancelled(self.record, self.record_id, self.what(), self.shop.name),
            text.r_kept(self.record, self.decoy_id),
        ]
