"""Deterministic state grading of the OTA domain (hotel, attraction, flight, train orders).

It extends the shared :class:`~lifebench.vita.grading.state.OrderStateEvaluator` with what
per-date bookings need (the rules are documented in docs/evaluation.md, "OTA domain"):

* an order line is (product id, date, quantity); a line of an expected record without a date
  matches any date;
* a required order whose id is a pre-existing order of the same type and provider is
  *unchanged* when its lines equal the initial ones, *modified* when a single line moved to
  another date with the same quantity (a date change), and *new* otherwise;
* unchanged: the final status satisfies the expected class and the lines were not changed;
  modified: the same order (same id) now holds the expected lines and a satisfying status;
  new: an order created during the episode, used once, with the same type, provider, lines
  and a satisfying status;
* guards: no unrequested cancellation, no unrequested date change of a pre-existing order,
  no extra live order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.simulation import Simulation
from lifebench.vita.grading.expected import RequiredOrder, required_orders, status_satisfies
from lifebench.vita.grading.state import OrderStateEvaluator
from lifebench.vita.task import VitaTask

#: Order types graded by the OTA evaluator.
OTA_ORDER_TYPES: frozenset[str] = frozenset({"hotel", "attraction", "flight", "train"})

#: Keys under which an order line may name its product (official product reprs use the last three).
_PRODUCT_KEYS = ("product_id", "room_id", "ticket_id", "seat_id")

Change = Literal["new", "unchanged", "modified"]


@dataclass(frozen=True, order=True)
class Line:
    """One booked line: product id, date ("" when the record has none) and quantity."""

    product_id: str
    date: str
    quantity: int

    def fits(self, other: Line) -> bool:
        """Same product and quantity, and the same date unless either date is unknown."""
        return (
            self.product_id == other.product_id
            and self.quantity == other.quantity
            and (not self.date or not other.date or self.date == other.date)
        )

    def __str__(self) -> str:
        return f"{self.product_id}@{self.date or '?'}×{self.quantity}"


def order_lines(record: Mapping[str, Any]) -> list[Line]:
    """The lines of an order-shaped record (products without an id are skipped)."""
    lines = []
    for p in record.get("products") or []:
        if not isinstance(p, Mapping):
            continue
        pid = next((str(p[k]) for k in _PRODUCT_KEYS if p.get(k)), "")
        if not pid:
            continue
        try:
            quantity = int(p.get("quantity") or 1)
        except (TypeError, ValueError):
            quantity = 1
        lines.append(Line(pid, str(p.get("date") or "").strip(), quantity))
    return lines


def same_lines(got: Sequence[Line], want: Sequence[Line]) -> bool:
    """Whether the two line lists match one to one (see :meth:`Line.fits`)."""
    if len(got) != len(want):
        return False
    left = sorted(got)
    for line in sorted(want):
        match = next((i for i, g in enumerate(left) if g.fits(line)), None)
        if match is None:
            return False
        left.pop(match)
    return True


def _is_date_change(before: Sequence[Line], after: Sequence[Line]) -> bool:
    """One line before and after, same quantity, both dated, another date."""
    if len(before) != 1 or len(after) != 1:
        return False
    old, new = before[0], after[0]
    return bool(old.date and new.date and old.date != new.date and old.quantity == new.quantity)


@dataclass(frozen=True)
class OTARequiredOrder(RequiredOrder):
    """A required OTA order with its lines and how it relates to the initial database."""

    change: Change = "new"
    lines: tuple[Line, ...] = ()

    @property
    def order_type(self) -> str:
        """hotel / attraction / flight / train."""
        return str(self.record.get("order_type", ""))

    @property
    def store_id(self) -> str:
        """The hotel / attraction / flight / train id."""
        return str(self.record.get("store_id", ""))


def ota_required_orders(task: VitaTask) -> list[OTARequiredOrder]:
    """Distinct required OTA orders of ``task``, classified as new / unchanged / modified.

    Expected states are checkpoints of one final world. When a pre-existing order appears in
    several states with different content, the last record (the latest checkpoint) wins.
    """
    initial: Mapping[str, Any] = task.environment.get("orders") or {}
    classified: list[OTARequiredOrder] = []
    for req in required_orders(task, OTA_ORDER_TYPES):
        record = req.record
        lines = tuple(order_lines(record))
        before = initial.get(req.order_id)
        change: Change = "new"
        if (
            isinstance(before, Mapping)
            and before.get("order_type") == record.get("order_type")
            and before.get("store_id") == record.get("store_id")
        ):
            old = order_lines(before)
            if same_lines(old, lines):
                change = "unchanged"
            elif _is_date_change(old, lines):
                change = "modified"
        classified.append(
            OTARequiredOrder(
                index=0, record=record, existing=change != "new", change=change, lines=lines
            )
        )
    last = {r.order_id: i for i, r in enumerate(classified) if r.existing}
    kept = [r for i, r in enumerate(classified) if not r.existing or last[r.order_id] == i]
    return [
        OTARequiredOrder(
            index=i, record=r.record, existing=r.existing, change=r.change, lines=r.lines
        )
        for i, r in enumerate(kept)
    ]


def _fmt(lines: Iterable[Line]) -> str:
    """Lines as text for evidence."""
    return ", ".join(str(line) for line in lines) or "(no lines)"


def _describe(req: OTARequiredOrder) -> str:
    """What the requirement asks for, in one line."""
    kind = {"new": "new", "unchanged": "existing", "modified": "date-changed existing"}[req.change]
    return (
        f"{kind} {req.order_type} order {req.order_id} at {req.store_id}: {_fmt(req.lines)}; "
        f"status {req.status}"
    )


class OTAStateEvaluator(OrderStateEvaluator):
    """The ``state`` basis of the OTA domain (see the module docstring for the rules)."""

    def __init__(self) -> None:
        """An evaluator for the four OTA order types."""
        super().__init__(OTA_ORDER_TYPES)

    def grade(self, task: VitaTask, simulation: Simulation) -> BasisResult:
        """Grade the final database of ``simulation`` against ``task``'s expected states."""
        if not simulation.termination.is_normal:
            return super().grade(task, simulation)
        reqs = ota_required_orders(task)
        final: Mapping[str, Any] = simulation.final_state.get("orders") or {}
        initial: Mapping[str, Any] = task.environment.get("orders") or {}
        created = [
            (oid, o)
            for oid, o in final.items()
            if oid not in initial and o.get("order_type") in OTA_ORDER_TYPES
        ]
        verdicts = [self._verdict(req, final, initial, created) for req in reqs]
        verdicts.extend(self._side_effects(list(reqs), final, initial, created))
        verdicts.append(self._no_unrequested_changes(reqs, final, initial))
        met = sum(v.met for v in verdicts)
        return BasisResult(
            basis=self.basis,
            reward=1.0 if met == len(verdicts) else 0.0,
            score=met / len(verdicts) if verdicts else 1.0,
            criteria=verdicts,
        )

    @staticmethod
    def mismatch(req: OTARequiredOrder, order: Mapping[str, Any]) -> str | None:
        """Why a created ``order`` does not satisfy the new requirement ``req`` (None if it does)."""
        if order.get("order_type") != req.order_type:
            return f"type {order.get('order_type')} ≠ {req.order_type}"
        if order.get("store_id") != req.store_id:
            return f"{req.order_type} {order.get('store_id')} ≠ {req.store_id}"
        got = order_lines(order)
        if req.lines and not same_lines(got, req.lines):
            return f"lines {_fmt(got)} ≠ {_fmt(req.lines)}"
        if not status_satisfies(order.get("status"), req.status):
            return f"status {order.get('status')} does not satisfy {req.status}"
        return None

    def _verdict(
        self,
        req: OTARequiredOrder,
        final: Mapping[str, Any],
        initial: Mapping[str, Any],
        created: list[tuple[str, Any]],
    ) -> CriterionVerdict:
        """The criterion of one required order (see the module docstring)."""
        cid = f"order[{req.index}]:{req.order_id}"
        desc = _describe(req)

        def verdict(met: bool, evidence: str) -> CriterionVerdict:
            return CriterionVerdict(id=cid, description=desc, met=met, evidence=evidence)

        if req.change == "new":
            reasons = []
            for i, (oid, order) in enumerate(created):
                why = self.mismatch(req, order)
                if why is None:
                    created.pop(i)  # each created order satisfies at most one requirement
                    return verdict(True, f"matched created order {oid}")
                reasons.append(f"{oid}: {why}")
            return verdict(False, "; ".join(reasons) or f"no {req.order_type} order was created")
        order = final.get(req.order_id)
        if order is None:
            return verdict(False, "order vanished")
        got = order_lines(order)
        want = req.lines if req.change == "modified" else tuple(order_lines(initial[req.order_id]))
        if want and not same_lines(got, want):
            what = "not moved to the expected date" if req.change == "modified" else "changed"
            return verdict(False, f"lines {what}: {_fmt(got)}, expected {_fmt(want)}")
        if not status_satisfies(order.get("status"), req.status):
            return verdict(False, f"final status {order.get('status')}, expected {req.status}")
        return verdict(True, f"status {order.get('status')}; lines {_fmt(got)}")

    @staticmethod
    def _no_unrequested_changes(
        reqs: Sequence[OTARequiredOrder], final: Mapping[str, Any], initial: Mapping[str, Any]
    ) -> CriterionVerdict:
        """Pre-existing OTA orders not named by the task keep their lines."""
        named = {r.order_id for r in reqs if r.existing}
        changed = sorted(
            oid
            for oid, before in initial.items()
            if oid not in named
            and isinstance(before, Mapping)
            and before.get("order_type") in OTA_ORDER_TYPES
            and oid in final
            and not same_lines(order_lines(final[oid]), order_lines(before))
        )
        return CriterionVerdict(
            id="no_unrequested_changes",
            description="Pre-existing orders the task does not mention keep their dates and items",
            met=not changed,
            evidence=", ".join(changed) or "none changed",
        )


def ota_state_evaluator() -> OTAStateEvaluator:
    """The ``state`` evaluator of the OTA domain."""
    return OTAStateEvaluator()
