"""Oracle plan for the OTA domain: the tool calls that reach ``expected_states``.

Pre-existing orders are handled first (cancellations give stock back that a new booking may
need), then date changes, then new bookings. Each step is an ordinary tool call; the id of an
order just created is filled in from the tool result (``fill="order_id"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date as Date
from typing import Any

from lifebench.vita.agents.plan import PlannedCall
from lifebench.vita.domains._ota_tables import KINDS, OTAKind
from lifebench.vita.grading.expected import status_class
from lifebench.vita.grading.ota import Line, OTARequiredOrder, order_lines, ota_required_orders
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import parse_time

_PAID_LIKE = frozenset({"paid", "unconsumed", "consumed", "processed", "in-progress"})


def _product_id(p: Mapping[str, Any]) -> str:
    """The product id of a catalog record."""
    return str(p.get("product_id") or "")


class OTAPlanner:
    """Plans OTA calls for one task.

    With ``distractor=True`` the plan makes a near miss that state grading must reject: a new
    booking takes another room / ticket / seat type of the same provider on the same date (else
    the same type on another date, else another provider's product); a date change goes to
    another date; a cancellation hits another live pre-existing order of the same type.
    """

    def __init__(self, task: VitaTask, *, distractor: bool = False) -> None:
        """Read what the plan needs from ``task`` (user, clock, initial orders, requirements)."""
        self.task = task
        self.distractor = distractor
        env = task.environment
        self.user_id = str(env.get("user_id", ""))
        now = parse_time(env.get("time"))
        self.today = now.date() if now is not None else Date.min
        self.initial: Mapping[str, Any] = env.get("orders") or {}
        self.reqs = ota_required_orders(task)

    # ---- catalog helpers -----------------------------------------------------------------------

    def _providers(self, kind: OTAKind) -> Mapping[str, Any]:
        """The raw table of ``kind`` in the task environment."""
        table = self.task.environment.get(kind.table)
        return table if isinstance(table, Mapping) else {}

    def _products(self, kind: OTAKind, provider_id: str) -> list[Mapping[str, Any]]:
        """The raw products of one provider."""
        provider = self._providers(kind).get(provider_id) or {}
        return [p for p in provider.get("products") or [] if isinstance(p, Mapping)]

    def _product(self, kind: OTAKind, provider_id: str, line: Line) -> Mapping[str, Any] | None:
        """The catalog product a line designates (same id, and date when the line has one)."""
        for p in self._products(kind, provider_id):
            if _product_id(p) == line.product_id and (not line.date or p.get("date") == line.date):
                return p
        return None

    def _bookable(self, p: Mapping[str, Any], quantity: int) -> bool:
        """Whether ``p`` is for today or later and has ``quantity`` left."""
        try:
            day = Date.fromisoformat(str(p.get("date")))
        except ValueError:
            return False
        return day >= self.today and int(p.get("quantity") or 0) >= quantity

    def _wanted(self) -> set[tuple[str, str]]:
        """(product id, date) of every required line."""
        return {(line.product_id, line.date) for r in self.reqs for line in r.lines}

    # ---- plan ----------------------------------------------------------------------------------

    def plan(self) -> list[PlannedCall]:
        """Calls for unchanged (pay / cancel), then modified, then new required orders."""
        steps = {
            "unchanged": self._unchanged,
            "modified": self._modified,
            "replaced": self._replaced,
            "new": self._new,
        }
        calls: list[PlannedCall] = []
        done: set[str] = set()
        for change, step in steps.items():
            for req in self.reqs:
                kind = KINDS.get(req.order_type)
                if kind is None:
                    continue
                if change == "replaced":
                    if req.kind == "replaced" and req.target not in done:
                        done.add(req.target)
                        calls.extend(step(kind, req))
                elif req.change == change:
                    if change == "unchanged" and status_class(req.status) == "cancelled":
                        done.add(req.target)
                    calls.extend(step(kind, req))
        return calls

    def _replaced(self, kind: OTAKind, req: OTARequiredOrder) -> list[PlannedCall]:
        """Cancel the pre-existing order a new booking replaces (unless already cancelled)."""
        before = self.initial.get(req.target) or {}
        if status_class(str(before.get("status"))) == "cancelled":
            return []
        old = KINDS.get(str(before.get("order_type")), kind)
        return [
            PlannedCall(
                f"cancel_{old.order_type}_order", {"order_id": req.target, "user_id": self.user_id}
            )
        ]

    def _settle(
        self, kind: OTAKind, req: OTARequiredOrder, have: str, oid: str | None
    ) -> list[PlannedCall]:
        """Pay or cancel so that the status class ``have`` becomes the expected one."""
        want = status_class(req.status)
        t = kind.order_type
        args: dict[str, Any] = {"order_id": oid} if oid is not None else {}
        fill = None if oid is not None else "order_id"
        if want == "cancelled" and have != "cancelled":
            return [PlannedCall(f"cancel_{t}_order", {**args, "user_id": self.user_id}, fill=fill)]
        if want == "paid" and have == "unpaid":
            return [PlannedCall(f"pay_{t}_order", args, fill=fill)]
        return []

    def _unchanged(self, kind: OTAKind, req: OTARequiredOrder) -> list[PlannedCall]:
        """Pay or cancel a pre-existing order (the distractor cancels another one)."""
        oid = req.target
        if self.distractor and status_class(req.status) == "cancelled":
            oid = self._other_live_order(kind, req) or oid
        have = status_class(str((self.initial.get(req.target) or {}).get("status")))
        return self._settle(kind, req, have, oid)

    def _other_live_order(self, kind: OTAKind, req: OTARequiredOrder) -> str | None:
        """A live pre-existing order of the same type that the task does not cancel."""
        doomed = {
            r.target for r in self.reqs if r.existing and status_class(r.status) == "cancelled"
        }
        for oid, order in self.initial.items():
            if (
                oid not in doomed
                and isinstance(order, Mapping)
                and order.get("order_type") == kind.order_type
                and status_class(str(order.get("status"))) != "cancelled"
            ):
                return str(oid)
        return None

    def _modified(self, kind: OTAKind, req: OTARequiredOrder) -> list[PlannedCall]:
        """Change the date; pay afterwards when the new date costs more than what was paid."""
        if kind.order_type not in ("flight", "train") or not req.lines:
            return []  # hotels and attractions cannot change date with the official tools
        target = req.lines[0]
        before: Mapping[str, Any] = self.initial.get(req.target) or {}
        new_date = target.date
        if self.distractor:
            new_date = self._other_date(kind, req, before) or new_date
        calls = [
            PlannedCall(
                f"modify_{kind.order_type}_order",
                {"order_id": req.target, "user_id": self.user_id, "new_date": new_date},
            )
        ]
        paid = (
            float(before.get("total_price") or 0.0)
            if str(before.get("status")) in _PAID_LIKE
            else 0.0
        )
        seat = (self._product(kind, req.store_id, target) or {}).get(kind.variant_field)
        new_product = next(
            (
                p
                for p in self._products(kind, req.store_id)
                if p.get("date") == new_date and p.get(kind.variant_field) == seat
            ),
            None,
        )
        new_total = float((new_product or {}).get("price") or 0.0) * target.quantity
        have = "unpaid" if new_total - paid > 0.005 else "paid"
        calls.extend(self._settle(kind, req, have, req.target))
        return calls

    def _other_date(
        self, kind: OTAKind, req: OTARequiredOrder, before: Mapping[str, Any]
    ) -> str | None:
        """Another bookable date for the same seat type (neither the old nor the target date)."""
        old_lines = order_lines(before)
        if not old_lines:
            return None
        old = self._product(kind, req.store_id, old_lines[0])
        if old is None:
            return None
        seat = old.get(kind.variant_field)
        skip = {old_lines[0].date, req.lines[0].date}
        for p in self._products(kind, req.store_id):
            if (
                p.get(kind.variant_field) == seat
                and p.get("date") not in skip
                and self._bookable(p, old_lines[0].quantity)
            ):
                return str(p.get("date"))
        return None

    def _new(self, kind: OTAKind, req: OTARequiredOrder) -> list[PlannedCall]:
        """Create the booking (the near miss for the distractor), then pay or cancel it."""
        if not req.lines:
            return []
        store_id, line = req.store_id, req.lines[0]
        if not line.date:
            product = self._product(kind, store_id, line)
            line = Line(line.product_id, str((product or {}).get("date") or ""), line.quantity)
        if self.distractor:
            store_id, line = self._near_miss(kind, store_id, line)
        if kind.order_type == "hotel":
            args: dict[str, Any] = {
                "hotel_id": store_id,
                "room_id": line.product_id,
                "user_id": self.user_id,
            }
        else:
            args = {
                kind.provider_field: store_id,
                kind.product_param: line.product_id,
                "user_id": self.user_id,
                "date": line.date,
                "quantity": line.quantity,
            }
        return [
            PlannedCall(f"create_{kind.order_type}_order", args),
            *self._settle(kind, req, "unpaid", None),
        ]

    def _near_miss(self, kind: OTAKind, store_id: str, line: Line) -> tuple[str, Line]:
        """Another bookable product: same provider and date, else same provider, else another."""
        wanted = self._wanted()
        target = self._product(kind, store_id, line) or {}

        def ok(p: Mapping[str, Any]) -> bool:
            return (_product_id(p), str(p.get("date"))) not in wanted and self._bookable(
                p, line.quantity
            )

        own = [p for p in self._products(kind, store_id) if ok(p)]
        same_day = [p for p in own if p.get("date") == line.date]
        same_type = [p for p in own if p.get(kind.variant_field) == target.get(kind.variant_field)]
        for group in (same_day, same_type, own):
            if group:
                p = group[0]
                return store_id, Line(_product_id(p), str(p.get("date")), line.quantity)
        for other_id in self._providers(kind):
            if other_id == store_id:
                continue
            for p in self._products(kind, other_id):
                if ok(p):
                    return str(other_id), Line(_product_id(p), str(p.get("date")), line.quantity)
        return store_id, line


def plan_ota(task: VitaTask, *, distractor: bool = False) -> list[PlannedCall]:
    """The OTA oracle's calls for ``task`` (``distractor``: the near-miss variant)."""
    return OTAPlanner(task, distractor=distractor).plan()
