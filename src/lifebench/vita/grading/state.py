"""Deterministic state grading: the final database against ``expected_states``.

The rules (documented in docs/evaluation.md) are, per distinct required order (see
:mod:`lifebench.vita.grading.expected` for how records are read):

* existing order: its final status satisfies the expected status class, and its final note
  makes the expected note's request (:func:`~lifebench.vita.grading.text.same_text`) — changed
  or kept as the task says;
* new order: an order created during the episode (a maximum one-to-one matching of
  requirements to created orders) with the same order type and (attributed) store; the same
  multiset of (product, quantity, attribute) units, where an expected attribute is mapped onto
  the product's offered options (:mod:`lifebench.vita.grading.options`); a satisfying status;
  the expected note's request; the delivery address (identical normalised text, or within
  300 m, or — without coordinates — the geocoder's address match); the expected delivery (or
  dispatch) time within 30 minutes where one is given;
* replaced order: the same as a new order, and the pre-existing order it replaces is cancelled.

Two global criteria guard against shotgun strategies: pre-existing orders that the task does
not mention must not be cancelled, and no live order may be created beyond those matched.
A task with no requirement of the evaluator's order types is *ungradable* (never a pass).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.simulation import Simulation
from lifebench.vita.domains._geo import haversine_m
from lifebench.vita.domains._match import ADDRESS_THRESHOLD, address_score
from lifebench.vita.grading.coverage import rubric_only_note, rubric_only_time
from lifebench.vita.grading.expected import (
    RequiredOrder,
    line_product,
    named_orders,
    product_lines_of,
    required_orders,
    status_class,
    status_satisfies,
)
from lifebench.vita.grading.matching import GotLine, WantLine, lines_mismatch, max_matching
from lifebench.vita.grading.options import (
    AttributeRule,
    attribute_rule,
    chosen_key,
    offered_attributes,
)
from lifebench.vita.grading.text import is_blank, normalise, same_text
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import parse_time

GRADER_VERSION = 1
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

TIME_TOLERANCE_MIN = 30.0
ADDRESS_TOLERANCE_M = 300.0


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


def same_address(got: Mapping[str, Any], want: Mapping[str, Any]) -> tuple[bool, str]:
    """Whether an order's location is the expected one, and a remark for evidence.

    Identical normalised address text always matches. Otherwise coordinates decide when both
    sides have them (two addresses in one district can read alike kilometres apart), within
    :data:`ADDRESS_TOLERANCE_M`; without coordinates, the geocoder's address score decides.
    """
    got_text, want_text = str(got.get("address") or ""), str(want.get("address") or "")
    if normalise(got_text) == normalise(want_text):
        return True, ""
    close = _metres(want, got)
    if close is not None:
        return close <= ADDRESS_TOLERANCE_M, f" ({close:.0f} m away)"
    return address_score(got_text, want_text) >= ADDRESS_THRESHOLD, ""


def line_rules(task: VitaTask, req: RequiredOrder) -> list[tuple[str, int, AttributeRule]]:
    """(product, quantity, attribute rule) of every expected line of ``req`` (only delivery
    products have attributes; other lines ask for none)."""
    delivery = req.record.get("order_type") == "delivery"
    return [
        (
            pid,
            qty,
            attribute_rule(attr if delivery else "", offered_attributes(task, req.store_id, pid)),
        )
        for pid, qty, attr in req.product_lines()
    ]


def order_units(order: Mapping[str, Any]) -> list[GotLine]:
    """(product, quantity, chosen attribute key) of every line of a final-state order."""
    out: list[GotLine] = []
    for p in product_lines_of(order):
        try:
            qty = int(p.get("quantity") or 0)
        except (TypeError, ValueError):
            qty = 0
        out.append((line_product(p), qty, chosen_key(p.get("attributes", ""))))
    return out


class OrderMatcher:
    """Checks one new (or replacing) required order against one candidate; explains a mismatch."""

    def __init__(self, task: VitaTask) -> None:
        self.task = task
        self.now = parse_time(task.environment.get("time"))

    def mismatch(self, req: RequiredOrder, order: Mapping[str, Any]) -> str | None:
        """Why ``order`` does not satisfy ``req`` (None when it does)."""
        r = req.record
        if order.get("order_type") != r.get("order_type"):
            return f"type {order.get('order_type')} ≠ {r.get('order_type')}"
        if order.get("store_id") != req.store_id:
            return f"store {order.get('store_id')} ≠ {req.store_id}"
        want: list[WantLine] = [
            (pid, qty, rule.key) for pid, qty, rule in line_rules(self.task, req)
        ]
        if want:
            why = lines_mismatch(want, order_units(order))
            if why is not None:
                return why
        if not status_satisfies(order.get("status"), req.status):
            return f"status {order.get('status')} does not satisfy {req.status}"
        note = str(r.get("note") or "")
        if not is_blank(note) and not same_text(str(order.get("note") or ""), note):
            return f"note '{order.get('note') or ''}' does not ask '{note}'"
        return self._where_and_when(r, order)

    def _where_and_when(self, r: Mapping[str, Any], order: Mapping[str, Any]) -> str | None:
        want_loc = r.get("location")
        if isinstance(want_loc, Mapping) and want_loc.get("address"):
            got_loc = order.get("location")
            got_loc = got_loc if isinstance(got_loc, Mapping) else {}
            matched, where = same_address(got_loc, want_loc)
            if not matched:
                return f"address '{got_loc.get('address', '')}' ≠ '{want_loc['address']}'{where}"
        try:
            shipping = float(order.get("shipping_time") or 0.0)
        except (TypeError, ValueError):
            shipping = 0.0
        for key in ("delivery_time", "dispatch_time"):
            want = r.get(key)
            if want and str(want).strip():
                earliest = self.now
                if self.now is not None and key == "delivery_time":
                    earliest = self.now + timedelta(minutes=shipping)
                gap = _minutes_late_or_early(order.get(key), want, earliest)
                if gap is None or gap > TIME_TOLERANCE_MIN:
                    return (
                        f"{key} {order.get(key) or '(none)'} not within "
                        f"{TIME_TOLERANCE_MIN:.0f} min of {want}"
                    )
                break
        return None


def _describe(req: RequiredOrder) -> str:
    r = req.record
    items = ", ".join(f"{pid}×{qty}" for pid, qty, _ in req.product_lines()) or "(no products)"
    what = {"existing": "existing", "new": "new", "replaced": f"replacing {req.target}:"}[req.kind]
    if req.existing and req.target != req.order_id:
        what = f"existing (as {req.target})"
    return (
        f"{what} {r.get('order_type')} order {req.order_id} at {req.store_id}: {items}; "
        f"status {req.status} ({status_class(req.status)})"
    )


def result(
    basis: str,
    verdicts: Sequence[CriterionVerdict],
    *,
    gradable: bool,
    unchecked: Sequence[str] = (),
    note: str = "",
) -> BasisResult:
    """A state result: reward 1 when every criterion holds; ungradable results score 0."""
    met = sum(v.met for v in verdicts)
    total = len(verdicts)
    ok = gradable and met == total
    return BasisResult(
        basis=basis,
        reward=1.0 if ok else 0.0,
        score=met / total if total and gradable else 0.0,
        criteria=list(verdicts),
        gradable=gradable,
        unchecked=list(unchecked),
        note=note or ("" if gradable else "ungradable: no required record this grader can check"),
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
        reqs = self.required(task)
        unchecked = self.unchecked(task, reqs)
        if not reqs:
            return result(self.basis, [], gradable=False, unchecked=unchecked)
        if not simulation.termination.is_normal:
            return BasisResult(
                basis=self.basis,
                reward=0.0,
                score=0.0,
                unchecked=unchecked,
                note=f"episode ended with {simulation.termination.value}",
            )
        final: Mapping[str, Any] = simulation.final_state.get("orders") or {}
        return result(
            self.basis, self.order_criteria(task, reqs, final), gradable=True, unchecked=unchecked
        )

    def guard_criteria(self, task: VitaTask, simulation: Simulation) -> list[CriterionVerdict]:
        """Only the guards (for a task without requirements of this evaluator's types)."""
        final: Mapping[str, Any] = simulation.final_state.get("orders") or {}
        return self.order_criteria(task, [], final)

    def created(self, task: VitaTask, final: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """Orders of this evaluator's types created during the episode, in creation order."""
        initial: Mapping[str, Any] = task.environment.get("orders") or {}
        return [
            (oid, o)
            for oid, o in final.items()
            if oid not in initial and isinstance(o, Mapping) and o.get("order_type") in self._types
        ]

    def unchecked(self, task: VitaTask, reqs: Sequence[RequiredOrder]) -> list[str]:
        """What the task asks of these requirements that the grader cannot check."""
        out: list[str] = []
        for req in reqs:
            for pid, _, rule in line_rules(task, req):
                if rule.how == "unmatched":
                    offered = "; ".join(rule.offered)
                    out.append(
                        f"attribute '{rule.expected}' of {pid} in order {req.order_id}: no "
                        f"offered option has that meaning (offered: {offered})"
                    )
            bare = [p for p in req.record.get("products") or [] if not line_product(p)]
            if bare:
                out.append(f"order {req.order_id}: {len(bare)} product line(s) without an id")
        if "delivery" in self._types:
            untimed = [
                r.order_id
                for r in reqs
                if not r.existing
                and r.record.get("order_type") == "delivery"
                and not str(r.record.get("delivery_time") or "").strip()
                and not str(r.record.get("dispatch_time") or "").strip()
            ]
            out += rubric_only_time(task, untimed)
            out += rubric_only_note(task, any(not is_blank(r.record.get("note")) for r in reqs))
        return out

    def order_criteria(
        self, task: VitaTask, reqs: Sequence[RequiredOrder], final: Mapping[str, Any]
    ) -> list[CriterionVerdict]:
        """One criterion per requirement, then the two guards."""
        initial: Mapping[str, Any] = task.environment.get("orders") or {}
        created = self.created(task, final)
        matcher = self.matcher(task)
        fresh = [i for i, r in enumerate(reqs) if not r.existing]
        matching = max_matching(
            [reqs[i] for i in fresh],
            created,
            lambda req, cand: matcher.mismatch(req, cand[1]) is None,
        )
        used = {fresh[i]: created[j][0] for i, j in matching.items()}
        verdicts = []
        for i, req in enumerate(reqs):
            if req.existing:
                verdicts.append(self.existing(req, final, initial))
            else:
                verdicts.append(self._new_order(req, used.get(i), created, matcher, final))
        verdicts.extend(self.guards(reqs, final, initial, created, set(used.values())))
        return verdicts

    def matcher(self, task: VitaTask) -> OrderMatcher:
        """The matcher of new requirements against created orders (a domain may override)."""
        return OrderMatcher(task)

    def existing(
        self, req: RequiredOrder, final: Mapping[str, Any], initial: Mapping[str, Any]
    ) -> CriterionVerdict:
        """The criterion of a requirement about a pre-existing order (status, note)."""
        cid = f"order[{req.index}]:{req.order_id}"
        desc = self.describe(req) + (f" [{req.note}]" if req.note else "")
        order = final.get(req.target)
        if not isinstance(order, Mapping):
            return CriterionVerdict(id=cid, description=desc, met=False, evidence="order vanished")
        if not status_satisfies(order.get("status"), req.status):
            return CriterionVerdict(
                id=cid,
                description=desc,
                met=False,
                evidence=f"final status {order.get('status')}, expected {req.status}",
            )
        # The final note makes the expected request — whether the task changes it or keeps it.
        want_note = str(req.record.get("note") or "")
        if not same_text(str(order.get("note") or ""), want_note):
            return CriterionVerdict(
                id=cid,
                description=desc,
                met=False,
                evidence=f"note '{order.get('note') or ''}' does not ask '{want_note}'",
            )
        return CriterionVerdict(
            id=cid, description=desc, met=True, evidence=f"status {order.get('status')}"
        )

    def describe(self, req: RequiredOrder) -> str:
        """What a requirement asks for, in one line (a domain may override)."""
        return _describe(req)

    def _new_order(
        self,
        req: RequiredOrder,
        matched: str | None,
        created: Sequence[tuple[str, Any]],
        matcher: Any,
        final: Mapping[str, Any],
    ) -> CriterionVerdict:
        cid = f"order[{req.index}]:{req.order_id}"
        desc = self.describe(req)
        if req.note:
            desc += f" [{req.note}]"
        if matched is None:
            reasons = [
                f"{oid}: {matcher.mismatch(req, order) or 'taken by another requirement'}"
                for oid, order in created
            ]
            evidence = "; ".join(reasons) or "no order of this type was created"
            return CriterionVerdict(id=cid, description=desc, met=False, evidence=evidence)
        if req.kind == "replaced":
            # (an order cancelled before the episode stays cancelled: no tool revives one)
            after = final.get(req.target) or {}
            if status_class(after.get("status")) != "cancelled":
                return CriterionVerdict(
                    id=cid,
                    description=desc,
                    met=False,
                    evidence=f"created {matched}, but the replaced order {req.target} is "
                    f"still {after.get('status')}",
                )
        return CriterionVerdict(
            id=cid, description=desc, met=True, evidence=f"matched created order {matched}"
        )

    def guards(
        self,
        reqs: Sequence[RequiredOrder],
        final: Mapping[str, Any],
        initial: Mapping[str, Any],
        created: Sequence[tuple[str, Any]],
        used: set[str],
    ) -> list[CriterionVerdict]:
        """No unrequested cancellation of a pre-existing order; no extra live order."""
        named = named_orders(reqs)
        wrongly_cancelled = sorted(
            oid
            for oid, before in initial.items()
            if oid not in named
            and isinstance(before, Mapping)
            and before.get("order_type") in self._types
            and status_class(before.get("status")) != "cancelled"
            and status_class((final.get(oid) or {}).get("status")) == "cancelled"
        )
        extra = sorted(
            oid
            for oid, o in created
            if oid not in used and status_class(o.get("status")) != "cancelled"
        )
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
