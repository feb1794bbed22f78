"""Deterministic state grading: the final database against ``expected_states``.

The rules (documented in docs/evaluation.md) are, per distinct required order:

* existing order (same id, store and products as in the initial database): its final status
  must satisfy the expected status class, and a changed note must be functionally the same
  (fuzzy match);
* new order: some order created during the episode, used at most once, must have the same
  order type and store, exactly the same (product id, quantity) multiset, a satisfying status,
  the chosen attribute where the expected one is on offer, the delivery address (fuzzy or within
  300 m), and the expected delivery (or dispatch) time within 30 minutes where one is given.

Two global criteria guard against shotgun strategies: pre-existing orders that the task does
not mention must not be cancelled, and no more live (not cancelled) orders may be created than
the task requires.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from rapidfuzz import fuzz

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.simulation import Simulation
from lifebench.vita.domains._geo import haversine_m
from lifebench.vita.grading.expected import (
    RequiredOrder,
    required_orders,
    status_class,
    status_satisfies,
)
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import parse_time

TIME_TOLERANCE_MIN = 30.0
ADDRESS_TOLERANCE_M = 300.0
TEXT_MATCH = 85.0


def _minutes_late_or_early(got: object, want: object, earliest: datetime | None) -> float | None:
    """Minutes between ``got`` and the target: ``want``, or ``earliest`` if ``want`` is sooner.

    A requested time that cannot be met (earlier than the earliest feasible time) means "as soon
    as possible", so the earliest feasible time becomes the target.
    """
    g, w = parse_time(got), parse_time(want)
    if g is None or w is None:
        return None
    if earliest is not None and w < earliest:
        w = earliest
    return abs((g - w).total_seconds()) / 60.0


def _metres(a: Mapping[str, Any], b: Mapping[str, Any]) -> float | None:
    try:
        return haversine_m(
            float(a["longitude"]), float(a["latitude"]), float(b["longitude"]), float(b["latitude"])
        )
    except (KeyError, TypeError, ValueError):
        return None


def same_text(a: str, b: str) -> bool:
    """Functional equivalence of free text (addresses, notes): normalised fuzzy match."""
    a, b = a.strip().lower(), b.strip().lower()
    if a == b:
        return True
    if not a or not b:
        return False
    return fuzz.token_set_ratio(a, b) >= TEXT_MATCH


def _offered_attributes(task: VitaTask, product_id: str) -> list[str]:
    for table in ("stores", "shops"):
        for store in (task.environment.get(table) or {}).values():
            for p in (store or {}).get("products") or []:
                if isinstance(p, Mapping) and p.get("product_id") == product_id:
                    attrs = p.get("attributes") or []
                    return [str(a) for a in attrs] if isinstance(attrs, list) else [str(attrs)]
    return []


class _Matcher:
    """Checks one new required order against one candidate order; explains a mismatch."""

    def __init__(self, task: VitaTask) -> None:
        self.task = task

    def mismatch(self, req: RequiredOrder, order: Mapping[str, Any]) -> str | None:
        r = req.record
        if order.get("order_type") != r.get("order_type"):
            return f"type {order.get('order_type')} ≠ {r.get('order_type')}"
        if order.get("store_id") != r.get("store_id"):
            return f"store {order.get('store_id')} ≠ {r.get('store_id')}"
        want = sorted((pid, qty) for pid, qty, _ in req.product_lines())
        got = sorted(
            (str(p.get("product_id")), int(p.get("quantity") or 0))
            for p in order.get("products") or []
            if isinstance(p, Mapping)
        )
        if want and want != got:
            return f"products {got} ≠ {want}"
        if not status_satisfies(order.get("status"), req.status):
            return f"status {order.get('status')} does not satisfy {req.status}"
        chosen = {
            str(p.get("product_id")): str(p.get("attributes") or "")
            for p in order.get("products") or []
            if isinstance(p, Mapping)
        }
        for pid, _, attr in req.product_lines():
            offered = attr and attr in _offered_attributes(self.task, pid)
            if offered and not same_text(chosen.get(pid, ""), attr):
                return f"attribute of {pid} '{chosen.get(pid, '')}' ≠ '{attr}'"
        return self._where_and_when(r, order)

    def _where_and_when(self, r: Mapping[str, Any], order: Mapping[str, Any]) -> str | None:
        want_loc = r.get("location")
        if isinstance(want_loc, Mapping) and want_loc.get("address"):
            got_loc = order.get("location") or {}
            close = _metres(want_loc, got_loc)
            # Coordinates decide when both sides have them: two addresses in the same district
            # can look alike as text while lying kilometres apart. Text is the fallback.
            matched = (
                close <= ADDRESS_TOLERANCE_M
                if close is not None
                else same_text(str(got_loc.get("address", "")), str(want_loc["address"]))
            )
            if not matched:
                where = f" ({close:.0f} m away)" if close is not None else ""
                return f"address '{got_loc.get('address', '')}' ≠ '{want_loc['address']}'{where}"
        now = parse_time(self.task.environment.get("time"))
        shipping = float(order.get("shipping_time") or 0.0)
        for key in ("delivery_time", "dispatch_time"):
            want = r.get(key)
            if want and str(want).strip():
                earliest = now
                if now is not None and key == "delivery_time":
                    earliest = now + timedelta(minutes=shipping)
                gap = _minutes_late_or_early(order.get(key), want, earliest)
                if gap is None or gap > TIME_TOLERANCE_MIN:
                    return f"{key} {order.get(key) or '(none)'} not within {TIME_TOLERANCE_MIN:.0f} min of {want}"
                break
        return None


def _describe(req: RequiredOrder) -> str:
    r = req.record
    items = ", ".join(f"{pid}×{qty}" for pid, qty, _ in req.product_lines()) or "(no products)"
    kind = "existing" if req.existing else "new"
    return (
        f"{kind} {r.get('order_type')} order {req.order_id} at {r.get('store_id')}: {items}; "
        f"status {req.status} ({status_class(req.status)})"
    )


class OrderStateEvaluator:
    """The ``state`` basis for VitaBench order domains (delivery; in-store/OTA reuse it)."""

    basis = "state"

    def __init__(self, order_types: frozenset[str] = frozenset({"delivery"})) -> None:
        self._types = order_types

    def required(self, task: VitaTask) -> list[RequiredOrder]:
        """The distinct required orders to grade (a domain may normalise them by overriding)."""
        return required_orders(task, self._types)

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Grade ``simulation`` of ``task`` against its expected states."""
        return self.grade(task, simulation)

    def grade(self, task: VitaTask, simulation: Simulation) -> BasisResult:
        """Synchronous core of :meth:`evaluate`."""
        if not simulation.termination.is_normal:
            return BasisResult(
                basis=self.basis,
                reward=0.0,
                score=0.0,
                note=f"episode ended with {simulation.termination.value}",
            )
        reqs = self.required(task)
        final: Mapping[str, Any] = simulation.final_state.get("orders") or {}
        initial: Mapping[str, Any] = task.environment.get("orders") or {}
        created = [
            (oid, o)
            for oid, o in final.items()
            if oid not in initial and o.get("order_type") in self._types
        ]
        verdicts = [self._check(task, req, final, initial, created) for req in reqs]
        verdicts.extend(self._side_effects(reqs, final, initial, created))
        met = sum(v.met for v in verdicts)
        total = len(verdicts)
        return BasisResult(
            basis=self.basis,
            reward=1.0 if met == total else 0.0,
            score=met / total if total else 1.0,
            criteria=verdicts,
        )

    def _check(
        self,
        task: VitaTask,
        req: RequiredOrder,
        final: Mapping[str, Any],
        initial: Mapping[str, Any],
        created: list[tuple[str, Any]],
    ) -> CriterionVerdict:
        cid = f"order[{req.index}]:{req.order_id}"
        desc = _describe(req)
        if req.existing:
            order = final.get(req.order_id)
            if order is None:
                return CriterionVerdict(
                    id=cid, description=desc, met=False, evidence="order vanished"
                )
            if not status_satisfies(order.get("status"), req.status):
                return CriterionVerdict(
                    id=cid,
                    description=desc,
                    met=False,
                    evidence=f"final status {order.get('status')}, expected {req.status}",
                )
            want_note = str(req.record.get("note") or "")
            old_note = str(initial[req.order_id].get("note") or "")
            if want_note != old_note and not same_text(str(order.get("note") or ""), want_note):
                return CriterionVerdict(
                    id=cid,
                    description=desc,
                    met=False,
                    evidence=f"note '{order.get('note')}' ≠ '{want_note}'",
                )
            return CriterionVerdict(
                id=cid, description=desc, met=True, evidence=f"status {order.get('status')}"
            )
        matcher = _Matcher(task)
        reasons = []
        for i, (oid, order) in enumerate(created):
            why = matcher.mismatch(req, order)
            if why is None:
                created.pop(i)  # each created order satisfies at most one requirement
                return CriterionVerdict(
                    id=cid, description=desc, met=True, evidence=f"matched created order {oid}"
                )
            reasons.append(f"{oid}: {why}")
        evidence = "; ".join(reasons) if reasons else "no order of this type was created"
        return CriterionVerdict(id=cid, description=desc, met=False, evidence=evidence)

    def _side_effects(
        self,
        reqs: list[RequiredOrder],
        final: Mapping[str, Any],
        initial: Mapping[str, Any],
        unmatched: list[tuple[str, Any]],
    ) -> list[CriterionVerdict]:
        named = {r.order_id for r in reqs if r.existing}
        wrongly_cancelled = sorted(
            oid
            for oid, before in initial.items()
            if oid not in named
            and before.get("order_type") in self._types
            and status_class(before.get("status")) != "cancelled"
            and status_class((final.get(oid) or {}).get("status")) == "cancelled"
        )
        extra = sorted(oid for oid, o in unmatched if status_class(o.get("status")) != "cancelled")
        return [
            CriterionVerdict(
                id="no_unrequested_cancellations",
                description="Pre-existing orders the task does not mention are not cancelled",
                met=not wrongly_cancelled,
                evidence=", ".join(wrongly_cancelled) or "none cancelled",
            ),
            CriterionVerdict(
                id="no_extra_orders",
                description="No live order beyond those the task requires was created",
                met=not extra,
                evidence=", ".join(extra) or "none",
            ),
        ]


def delivery_state_evaluator() -> OrderStateEvaluator:
    """The ``state`` evaluator of the delivery domain."""
    return OrderStateEvaluator(frozenset({"delivery"}))
