"""Sub-goals about orders that exist before the conversation: cancel and reorder, change a note."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar

from lifebench._util.text import Language
from lifebench.vita.generate.delivery import text
from lifebench.vita.generate.delivery.catalog import price_within
from lifebench.vita.generate.delivery.context import Context, Goal, Line, order_record
from lifebench.vita.generate.delivery.model import ProductDraft, StoreDraft
from lifebench.vita.generate.pools import Bi
from lifebench.vita.generate.pools.food import NOTES, FoodCategory
from lifebench.vita.generate.world import pick


def _store_with(
    ctx: Context, category: FoodCategory, owner: int, near: text.UserPlace, wanted: int
) -> tuple[StoreDraft, list[ProductDraft]]:
    """A store of ``category`` whose first ``wanted`` dishes the user may eat (returned too)."""
    rng, catalog = ctx.rng, ctx.catalog
    picks = catalog.dishes(category, wanted, ctx.safe)
    rest = catalog.dishes(
        category, catalog.products_per_store - wanted, avoid=[n for _, n in picks]
    )
    products = [
        catalog.product(category, dish, name, price_within(rng, category, None))
        for dish, name in picks + rest
    ]
    chosen = products[:wanted]
    rng.shuffle(products)
    score = rng.randint(40, 50) / 10
    store = catalog.store(
        category, catalog.around(near.place, 500, 3500), score, products, owner, "target"
    )
    return store, chosen


class CancelReorder(Goal):
    """Cancel a paid order on its way and order again: to another address, or another dish."""

    kind: ClassVar[str] = "cancel_reorder"

    def __init__(self, index: int, category: FoodCategory, ctx: Context) -> None:
        super().__init__(index, category, ctx)
        rng = ctx.rng
        self.redirect = rng.random() < 0.5
        here = ctx.home_or_work()
        if self.redirect:
            self.old = ctx.places["home" if here.key == "work" else "work"]
            use_other = "other" in ctx.places and rng.random() < 0.3
            self.new = ctx.places["other"] if use_other else here
        else:
            self.old = self.new = here
        self.quantity = 1 if rng.random() < 0.7 else 2
        self.old_id = ctx.order_id("O")
        self.new_id = ctx.order_id("T")
        self.created: datetime = ctx.now - timedelta(minutes=rng.randint(4, 18))

    def build(self, ctx: Context, roles: list[str]) -> list[StoreDraft]:
        """The store of the order, selling the ordered dish and the replacement."""
        self.store, (self.ordered, self.replacement) = _store_with(
            ctx, self.category, self.index, self.old, 2
        )
        return [self.store]

    def _original(
        self, ctx: Context, language: Language, status: str, updated: datetime
    ) -> dict[str, Any]:
        return order_record(
            ctx,
            language,
            order_id=self.old_id,
            store=self.store,
            lines=[Line(self.ordered, self.quantity)],
            place=self.old,
            status=status,
            created=self.created,
            updated=updated,
            dispatch=self.created,
        )

    def preexisting(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The paid order on its way."""
        return [self._original(ctx, language, "paid", self.created)]

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The cancelled original and the replacement order."""
        line = Line(self.ordered, self.quantity) if self.redirect else Line(self.replacement, 1)
        new = order_record(
            ctx,
            language,
            order_id=self.new_id,
            store=self.store,
            lines=[line],
            place=self.new,
            status="paid",
            created=ctx.now,
        )
        return [self._original(ctx, language, "cancelled", ctx.now), new]

    def instruction(self, ctx: Context) -> Bi:
        """What to cancel and what to order instead."""
        what = text.portions(self.quantity, self.ordered.name)
        if self.redirect:
            return text.cancel_and_redirect(what, self.store.name, self.old.to, self.new.to)
        instead = text.portions(1, self.replacement.name)
        return text.cancel_and_swap(what, self.store.name, instead)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """Cancelled, reordered, where, paid."""
        what = text.portions(self.quantity, self.ordered.name)
        quantity, dish = (
            (self.quantity, self.ordered.name) if self.redirect else (1, self.replacement.name)
        )
        return [
            text.r_cancelled(self.old_id, what, self.store.name),
            text.r_reordered(self.store.name, quantity, dish),
            text.r_address(self.store.name, self.new.place.address, new=True),
            text.r_paid(self.store.name, True, new=True),
        ]


class ChangeNote(Goal):
    """Add a note to a paid order on its way (the order must stay)."""

    kind: ClassVar[str] = "change_note"
    creates_order: ClassVar[bool] = False

    def __init__(self, index: int, category: FoodCategory, ctx: Context) -> None:
        super().__init__(index, category, ctx)
        rng = ctx.rng
        self.place = ctx.home_or_work()
        self.note = pick(rng, NOTES)
        others = [n for n in NOTES if n != self.note]
        self.old_note: Bi | None = pick(rng, others) if rng.random() < 0.3 else None
        self.quantity = 1 if rng.random() < 0.7 else 2
        self.order_id = ctx.order_id("O")
        self.created: datetime = ctx.now - timedelta(minutes=rng.randint(3, 15))

    def build(self, ctx: Context, roles: list[str]) -> list[StoreDraft]:
        """The store of the order."""
        self.store, (self.ordered,) = _store_with(ctx, self.category, self.index, self.place, 1)
        return [self.store]

    def _order(
        self, ctx: Context, language: Language, note: Bi | None, updated: datetime
    ) -> dict[str, Any]:
        return order_record(
            ctx,
            language,
            order_id=self.order_id,
            store=self.store,
            lines=[Line(self.ordered, self.quantity)],
            place=self.place,
            status="paid",
            created=self.created,
            updated=updated,
            note=note,
            dispatch=self.created,
        )

    def preexisting(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The order before the change."""
        return [self._order(ctx, language, self.old_note, self.created)]

    def expected(self, ctx: Context, language: Language) -> list[dict[str, Any]]:
        """The order with the new note."""
        return [self._order(ctx, language, self.note, ctx.now)]

    def instruction(self, ctx: Context) -> Bi:
        """Which order and what note."""
        return text.add_note(self.ordered.name, self.store.name, self.note)

    def rubrics(self, ctx: Context) -> list[Bi]:
        """New note, order kept."""
        return [
            text.r_note(self.order_id, self.store.name, self.note),
            text.r_kept(self.order_id),
        ]
