"""Oracle plan for the in-store domain: the tool calls that reach ``expected_states``.

The requirements are read exactly as the grader reads them
(:func:`~lifebench.vita.grading.instore.instore_required_orders` and
:func:`~lifebench.vita.grading.instore.required_appointments`), so a multi-product expected order
becomes one single-product order per line and a booking filed as a reservation at a shop that
only takes bookings is made with ``instore_book``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from lifebench.vita.agents.plan import PlannedCall
from lifebench.vita.grading.expected import RequiredOrder, status_class
from lifebench.vita.grading.instore import (
    SUPPORT_FLAG,
    RequiredAppointment,
    initial_appointments,
    instore_required_orders,
)
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import format_time, parse_time


class InStorePlanner:
    """Plans in-store calls for one task.

    With ``distractor=True`` every new product order buys another product (of the same shop
    when it has one in stock, else of another shop) that the task does not ask for; a task
    without new product orders instead makes its first new booking/reservation at another shop
    of the same kind. Both are near misses that state grading must reject.
    """

    def __init__(self, task: VitaTask, *, distractor: bool = False) -> None:
        self.task = task
        self.distractor = distractor
        env = task.environment
        self.user_id = str(env.get("user_id", ""))
        self.now = parse_time(env.get("time")) or datetime.min  # noqa: DTZ901 - naive clock
        shops = env.get("shops")
        self.shops: Mapping[str, Any] = shops if isinstance(shops, Mapping) else {}
        self.orders = instore_required_orders(task)
        self.appointments = [_with_stated(a) for a in _graded_appointments(task)]

    def plan(self) -> list[PlannedCall]:
        """Existing records first (cancel / pay / modify), then new orders and appointments."""
        calls: list[PlannedCall] = []
        initial_orders: Mapping[str, Any] = self.task.environment.get("orders") or {}
        for req in self.orders:
            if req.existing:
                calls.extend(self._existing_order(req, initial_orders[req.target]))
        cancelled = {
            r.target for r in self.orders if r.existing and status_class(r.status) == "cancelled"
        }
        for req in (r for r in self.orders if r.kind == "replaced" and r.target not in cancelled):
            cancelled.add(req.target)
            if status_class((initial_orders.get(req.target) or {}).get("status")) != "cancelled":
                calls.append(PlannedCall("instore_cancel_order", {"order_id": req.target}))
        before = initial_appointments(self.task)
        for appt in self.appointments:
            if appt.existing:
                kind, record = before[appt.record_id]
                calls.extend(self._existing_appointment(appt, kind, record))
        new_orders = [r for r in self.orders if not r.existing]
        for req in new_orders:
            calls.extend(self._new_order(req))
        moved = False
        for appt in (a for a in self.appointments if not a.existing):
            swap = self.distractor and not new_orders and not moved
            moved = moved or swap
            calls.extend(self._new_appointment(appt, swap=swap))
        return calls

    # ---- existing records ----------------------------------------------------------------------

    @staticmethod
    def _existing_order(req: RequiredOrder, before: Mapping[str, Any]) -> list[PlannedCall]:
        want, have = status_class(req.status), status_class(before.get("status"))
        oid = req.target
        if want == "cancelled" and have != "cancelled":
            return [PlannedCall("instore_cancel_order", {"order_id": oid})]
        if want == "paid" and have == "unpaid":
            return [PlannedCall("pay_instore_order", {"order_id": oid})]
        return []

    def _existing_appointment(
        self, appt: RequiredAppointment, kind: str, before: Mapping[str, Any]
    ) -> list[PlannedCall]:
        rid = appt.record_id
        want, have = status_class(appt.status), status_class(before.get("status"))
        if want == "cancelled":
            if have == "cancelled":
                return []
            tool = "instore_cancel_book" if kind == "book" else "instore_cancel_reservation"
            return [PlannedCall(tool, {f"{kind}_id": rid})]
        if kind == "book":
            if want == "paid" and have == "unpaid":
                return [PlannedCall("pay_instore_book", {"book_id": rid})]
            return []
        was = parse_time(before.get("reservation_time") or before.get("book_time"))
        count = appt.customer_count
        new_time = appt.when is not None and appt.when != was
        new_count = count is not None and count != before.get("customer_count")
        if not (new_time or new_count):
            return []
        args: dict[str, Any] = {
            "reservation_id": rid,
            "time": format_time(appt.when)
            if new_time and appt.when
            else format_time(was or self.now),
        }
        if new_count:
            args["customer_count"] = count
        return [PlannedCall("instore_modify_reservation", args)]

    # ---- new records ---------------------------------------------------------------------------

    def _stock(self, shop_id: str, product_id: str) -> int:
        for p in (self.shops.get(shop_id) or {}).get("products") or []:
            if p.get("product_id") == product_id:
                return int(p.get("quantity") or 0)
        return 0

    def _swap(self, shop_id: str, quantity: int) -> tuple[str, str] | None:
        """Another in-stock product the task does not ask for, same shop first."""
        wanted = {pid for req in self.orders for pid, _, _ in req.product_lines()}
        ordered = sorted(self.shops.items(), key=lambda kv: kv[0] != shop_id)
        for sid, shop in ordered:
            for p in (shop or {}).get("products") or []:
                pid = str(p.get("product_id"))
                if pid not in wanted and int(p.get("quantity") or 0) >= quantity:
                    return str(sid), pid
        return None

    def _new_order(self, req: RequiredOrder) -> list[PlannedCall]:
        lines = req.product_lines()
        if not lines:
            return []
        shop_id = str(req.record.get("store_id"))
        (product_id, quantity, _), *_rest = lines
        if self.distractor:
            swapped = self._swap(shop_id, quantity)
            if swapped is not None:
                shop_id, product_id = swapped
        out = [
            PlannedCall(
                "create_instore_product_order",
                {
                    "user_id": self.user_id,
                    "shop_id": shop_id,
                    "product_id": product_id,
                    "quantity": quantity,
                },
            )
        ]
        cls = status_class(req.status)
        if cls == "paid":
            out.append(PlannedCall("pay_instore_order", {}, fill="order_id"))
        elif cls == "cancelled":
            out.append(PlannedCall("instore_cancel_order", {}, fill="order_id"))
        return out

    def _other_shop(self, appt: RequiredAppointment) -> str:
        """Another shop taking the same kind of appointment (the distractor's choice)."""
        used = {a.shop_id for a in self.appointments}
        flag = SUPPORT_FLAG[appt.kind]
        for sid, shop in self.shops.items():
            if sid not in used and isinstance(shop, Mapping) and shop.get(flag):
                return str(sid)
        return appt.shop_id

    def _new_appointment(self, appt: RequiredAppointment, *, swap: bool) -> list[PlannedCall]:
        shop_id = self._other_shop(appt) if swap else appt.shop_id
        when = max(appt.when, self.now) if appt.when is not None else self.now
        args: dict[str, Any] = {
            "user_id": self.user_id,
            "shop_id": shop_id,
            "time": format_time(when),
            "customer_count": appt.customer_count or 1,
        }
        cls = status_class(appt.status)
        if appt.kind == "book":
            out = [PlannedCall("instore_book", args)]
            fee = float((self.shops.get(shop_id) or {}).get("book_price") or 0)
            if cls == "paid" and fee > 0:
                out.append(PlannedCall("pay_instore_book", {}, fill="book_id"))
            elif cls == "cancelled":
                out.append(PlannedCall("instore_cancel_book", {}, fill="book_id"))
            return out
        out = [PlannedCall("instore_reservation", args)]
        if cls == "cancelled":
            out.append(PlannedCall("instore_cancel_reservation", {}, fill="reservation_id"))
        return out


def _graded_appointments(task: VitaTask) -> list[RequiredAppointment]:
    """The appointments as the grader reads them, with the rubric constraints about them."""
    from lifebench.vita.grading.instore import instore_state_evaluator

    evaluator = instore_state_evaluator()
    _, unchecked, coverage, attribution = evaluator.prepare(task)
    return evaluator.appointments(task, attribution, unchecked, coverage)


def _with_stated(appt: RequiredAppointment) -> RequiredAppointment:
    """``appt`` with the time and party size the rubrics state where its record has none."""
    when, count = appt.when, appt.customer_count
    for s in appt.stated:
        if s.field in ("time", "date") and s.window is not None and when is None:
            lo, hi = s.window.start, s.window.end
            when = lo + (hi - lo) / 2 if lo is not None and hi is not None else lo or hi
        if s.field == "party_size" and count is None:
            count = s.count
    record = dict(appt.record)
    if count is not None:
        record["customer_count"] = count
    return replace(appt, when=when, record=record)


def plan_instore(task: VitaTask, *, distractor: bool = False) -> list[PlannedCall]:
    """The in-store oracle's calls for ``task`` (``distractor``: the near-miss variant)."""
    return InStorePlanner(task, distractor=distractor).plan()
