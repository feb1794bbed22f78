"""Oracle plan for the delivery domain: the tool calls that reach ``expected_states``."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from lifebench.vita.agents.plan import PlannedCall
from lifebench.vita.domains._geo import delivery_minutes, haversine_m
from lifebench.vita.grading.expected import RequiredOrder, required_orders, status_class
from lifebench.vita.grading.state import delivery_state_evaluator, line_rules
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
        self._env: Any = None

    def _address(self, req: RequiredOrder) -> tuple[str, Mapping[str, Any] | None]:
        loc = req.record.get("location")
        if isinstance(loc, Mapping) and loc.get("address"):
            return str(loc["address"]), loc
        if self.locations:
            return str(self.locations[0].get("address", "")), self.locations[0]
        return "", None

    def _minutes(self, req: RequiredOrder, address: str, loc: Mapping[str, Any] | None) -> int:
        """Rider minutes from the order's store to ``address``, as the tools will compute them
        (the geocoder's point for the address; the record's point when it cannot place it)."""
        store = self.stores.get(str(req.record.get("store_id"))) or {}
        sl = store.get("location") or {}
        point: tuple[float, float] | None = None
        if address:
            try:
                found = self._environment().resolve_address(address)
                point = (found.longitude, found.latitude)
            except Exception:
                point = None
        if point is None and loc is not None:
            try:
                point = (float(loc["longitude"]), float(loc["latitude"]))
            except (KeyError, TypeError, ValueError):
                point = None
        if point is None or not sl:
            return delivery_minutes(0)
        return delivery_minutes(
            haversine_m(float(sl["longitude"]), float(sl["latitude"]), point[0], point[1])
        )

    def _environment(self) -> Any:
        if self._env is None:
            from lifebench.vita.domains.delivery import DeliveryEnvironment

            self._env = DeliveryEnvironment(self.task)
        return self._env

    def _dispatch(self, req: RequiredOrder, address: str, loc: Mapping[str, Any] | None) -> str:
        """The dispatch time that delivers at the expected delivery time (else dispatches at the
        expected dispatch time, else now), moved into every window the rubrics state for the
        order's arrival (the nearest such moment)."""
        r = req.record
        minutes = self._minutes(req, address, loc)
        when = self.now
        delivery = parse_time(r.get("delivery_time"))
        dispatch = parse_time(r.get("dispatch_time"))
        windows = [
            s.window
            for s in req.stated
            if s.field in ("time", "date") and s.target == "delivery" and s.window is not None
        ]
        if delivery is not None:
            when = delivery - timedelta(minutes=minutes)
        elif dispatch is not None:
            when = dispatch
        elif windows:
            w = windows[0]
            if w.start is not None and w.end is not None:
                when = w.start + (w.end - w.start) / 2 - timedelta(minutes=minutes)
            elif w.start is not None:
                when = w.start - timedelta(minutes=minutes) + timedelta(minutes=1)
        lo, hi = self.now, datetime.max  # noqa: DTZ901 - naive task clock
        for w in windows:
            if w.start is not None:
                lo = max(lo, w.start - timedelta(minutes=minutes))
            if w.end is not None:
                hi = min(hi, w.end - timedelta(minutes=minutes))
        if lo <= hi:
            when = min(max(when, lo), hi)
        when = max(when, self.now)
        return format_time(
            when.replace(microsecond=0)
            + (timedelta(seconds=1) if when.microsecond else timedelta())
        )

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
        reqs = delivery_state_evaluator().prepare(self.task)[0]
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
            "dispatch_time": self._dispatch(req, address, loc),
            "attributes": [a for _, _, a in lines],
        }
        if not is_blank(req.record.get("note")):
            args["note"] = str(req.record["note"])
        else:
            stated = [s.text for s in req.stated if s.field == "note" and s.text]
            if stated:
                args["note"] = stated[0]
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
