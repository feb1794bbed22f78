"""Oracle plan for the delivery domain: the tool calls that reach ``expected_states``."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from lifebench.vita.agents.plan import PlannedCall
from lifebench.vita.domains._geo import delivery_minutes, haversine_m
from lifebench.vita.grading.expected import RequiredOrder, required_orders, status_class
from lifebench.vita.grading.state import line_rules
from lifebench.vita.grading.text import is_blank, same_text
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import format_time, parse_time


class DeliveryPlanner:
    """Plans delivery-domain calls for one task.

    With ``distractor=True`` every new order swaps its first product for another product of the
    same store that the task does not ask for: a near miss that state grading must reject.
    """

    def __init__(self, task: VitaTask, *, distractor: bool = False) -> None:
        self.task = task
        self.distractor = distractor
        env = task.environment
        self.user_id = str(env.get("user_id", ""))
        self.now = parse_time(env.get("time")) or datetime.min  # noqa: DTZ901 - naive task clock
        self.stores: Mapping[str, Any] = env.get("stores") or {}
        self.locations: list[Mapping[str, Any]] = list(env.get("location") or [])

    def _address(self, req: RequiredOrder) -> tuple[str, Mapping[str, Any] | None]:
        loc = req.record.get("location")
        if isinstance(loc, Mapping) and loc.get("address"):
            return str(loc["address"]), loc
        if self.locations:
            return str(self.locations[0].get("address", "")), self.locations[0]
        return "", None

    def _dispatch(self, req: RequiredOrder, loc: Mapping[str, Any] | None) -> str:
        """Dispatch time that delivers at the expected delivery time (else the expected dispatch)."""
        r = req.record
        when = self.now
        delivery = parse_time(r.get("delivery_time"))
        dispatch = parse_time(r.get("dispatch_time"))
        if delivery is not None:
            store = self.stores.get(str(r.get("store_id"))) or {}
            sl = store.get("location") or {}
            minutes = delivery_minutes(0)
            if loc is not None and sl:
                minutes = delivery_minutes(
                    haversine_m(
                        float(sl["longitude"]),
                        float(sl["latitude"]),
                        float(loc["longitude"]),
                        float(loc["latitude"]),
                    )
                )
            when = delivery - timedelta(minutes=minutes)
        elif dispatch is not None:
            when = dispatch
        return format_time(max(when, self.now))

    def _swap_first(
        self, store_id: str, lines: list[tuple[str, int, str]]
    ) -> tuple[str, list[tuple[str, int, str]]]:
        """Another product of the same store, else a product of another store (never a target)."""
        wanted = {
            pid
            for req in required_orders(self.task, frozenset({"delivery"}))
            for pid, _, _ in req.product_lines()
        }
        ordered = sorted(self.stores.items(), key=lambda kv: kv[0] != store_id)
        for sid, store in ordered:
            for p in (store or {}).get("products") or []:
                pid = str(p.get("product_id"))
                if pid not in wanted:
                    rest = lines[1:] if sid == store_id else []
                    return sid, [(pid, lines[0][1], ""), *rest]
        return store_id, lines

    def plan(self) -> list[PlannedCall]:
        """Changes to pre-existing orders (and cancelling the ones replaced), then new orders."""
        calls: list[PlannedCall] = []
        initial: Mapping[str, Any] = self.task.environment.get("orders") or {}
        reqs = required_orders(self.task, frozenset({"delivery"}))
        for req in (r for r in reqs if r.existing):
            calls.extend(self._existing(req, initial[req.target]))
        cancelled = {r.target for r in reqs if r.existing and status_class(r.status) == "cancelled"}
        for req in (r for r in reqs if r.kind == "replaced" and r.target not in cancelled):
            cancelled.add(req.target)
            if status_class((initial.get(req.target) or {}).get("status")) != "cancelled":
                calls.append(PlannedCall("cancel_delivery_order", {"order_id": req.target}))
        for req in (r for r in reqs if not r.existing):
            calls.extend(self._new(req))
        return calls

    def _existing(self, req: RequiredOrder, before: Mapping[str, Any]) -> list[PlannedCall]:
        oid = req.target
        out: list[PlannedCall] = []
        note = str(req.record.get("note") or "")
        if not same_text(note, str(before.get("note") or "")):
            out.append(PlannedCall("modify_delivery_order", {"order_id": oid, "note": note}))
        want, have = status_class(req.status), status_class(before.get("status"))
        if want == "cancelled" and have != "cancelled":
            out.append(PlannedCall("cancel_delivery_order", {"order_id": oid}))
        elif want == "paid" and have == "unpaid":
            out.append(PlannedCall("pay_delivery_order", {"order_id": oid}))
        return out

    def _new(self, req: RequiredOrder) -> list[PlannedCall]:
        rules = line_rules(self.task, req)
        if not rules:
            return []
        lines = [(pid, qty, rule.option) for pid, qty, rule in rules]
        store_id = req.store_id
        if self.distractor:
            store_id, lines = self._swap_first(store_id, lines)
        address, loc = self._address(req)
        args: dict[str, Any] = {
            "user_id": self.user_id,
            "store_id": store_id,
            "product_ids": [pid for pid, _, _ in lines],
            "product_cnts": [qty for _, qty, _ in lines],
            "address": address,
            "dispatch_time": self._dispatch(req, loc),
            "attributes": [a for _, _, a in lines],
        }
        if not is_blank(req.record.get("note")):
            args["note"] = str(req.record["note"])
        out = [PlannedCall("create_delivery_order", args)]
        cls = status_class(req.status)
        if cls == "paid":
            out.append(PlannedCall("pay_delivery_order", {}, fill="order_id"))
        elif cls == "cancelled":
            out.append(PlannedCall("cancel_delivery_order", {}, fill="order_id"))
        return out


def plan_delivery(task: VitaTask, *, distractor: bool = False) -> list[PlannedCall]:
    """The delivery oracle's calls for ``task`` (``distractor``: the near-miss variant)."""
    return DeliveryPlanner(task, distractor=distractor).plan()
