"""Deterministic state grading of the OTA domain (hotel, attraction, flight, train orders).

It extends the shared :class:`~lifebench.vita.grading.state.OrderStateEvaluator` with what
per-date bookings need (the rules are documented in docs/evaluation.md, "OTA domain"):

* an order line is (product id, date, quantity); a line of an expected record without a date
  matches any date;
* records are read by the shared rules (:func:`~lifebench.vita.grading.expected.classify`):
  a record whose id is a pre-existing order of the same type and provider is *unchanged* when
  its lines equal the initial ones; a single flight/train line moved to another date with the
  same quantity is a date change (*modified*, made with ``modify_*_order``); any other change of
  a pre-existing order (also a hotel or attraction date change, which no tool makes) is a
  *replacement*: the old order is cancelled and the new one booked; an expected cancellation
  filed under another id is the cancellation of the pre-existing order with those lines;
* unchanged: the final status satisfies the expected class and the lines were not changed;
  modified: the same order (same id) now holds the expected lines and a satisfying status;
  new (and the booking of a replacement): an order created during the episode, matched one to
  one, with the same type, provider, lines and a satisfying status;
* guards: no unrequested cancellation, no unrequested date change of a pre-existing order,
  no extra live order;
* a note the rubrics ask, in a task where no delivery or in-store record takes it, is an
  unchecked criterion (:func:`~lifebench.vita.grading.state.unowned_notes`): a booking carries
  no note and no tool sets one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lifebench.evaluation import CriterionVerdict
from lifebench.vita.grading.constraints import Target
from lifebench.vita.grading.expected import (
    PRODUCT_KEYS,
    OrderKind,
    RequiredOrder,
    classify,
    distinct_records,
    status_class,
    status_satisfies,
)
from lifebench.vita.grading.state import (
    Coverage,
    OrderStateEvaluator,
    tally,
    unexpected_fields,
)
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import parse_time

GRADER_VERSION = 6
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

#: Order types graded by the OTA evaluator.
OTA_ORDER_TYPES: frozenset[str] = frozenset({"hotel", "attraction", "flight", "train"})

#: Order types whose date an official tool changes (``modify_flight_order``, ``modify_train_order``).
DATE_CHANGEABLE: frozenset[str] = frozenset({"flight", "train"})

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
        pid = next((str(p[k]) for k in PRODUCT_KEYS if p.get(k)), "")
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


def ota_required_orders(task: VitaTask) -> list[OTARequiredOrder]:
    """Distinct required OTA orders of ``task``, classified as new / unchanged / modified.

    Expected states are checkpoints of one final world. When a pre-existing order appears in
    several states with different content, the last record (the latest checkpoint) wins.
    """
    initial: Mapping[str, Any] = task.environment.get("orders") or {}
    reqs = classify(
        task,
        distinct_records(task, OTA_ORDER_TYPES),
        same_lines=lambda before, record: same_lines(order_lines(before), order_lines(record)),
        order_types=OTA_ORDER_TYPES,
    )
    read: list[tuple[RequiredOrder, Change, OrderKind]] = []
    for req in reqs:
        before: Mapping[str, Any] = initial.get(req.target) or {}
        if (
            req.kind == "replaced"
            and req.record.get("order_type") in DATE_CHANGEABLE
            and before.get("store_id") == req.store_id
            and _is_date_change(order_lines(before), order_lines(req.record))
        ):
            read.append((req, "modified", "existing"))
        else:
            read.append((req, "unchanged" if req.existing else "new", req.kind))
    # A date change is about its pre-existing order too: the latest expectation wins.
    last = {r.target: i for i, (r, _, kind) in enumerate(read) if kind == "existing"}
    kept = [x for i, x in enumerate(read) if x[2] != "existing" or last[x[0].target] == i]
    return [
        OTARequiredOrder(
            index=i,
            record=r.record,
            kind=kind,
            target=r.target,
            note=r.note,
            change=change,
            lines=tuple(order_lines(r.record)),
        )
        for i, (r, change, kind) in enumerate(kept)
    ]


def dates_mismatch(req: RequiredOrder, got: Sequence[Line]) -> str | None:
    """Why booked lines break a date the rubrics state about ``req`` (None if none does)."""
    for stated in req.stated:
        if stated.field != "date" or stated.window is None:
            continue
        for line in got:
            day = parse_time(line.date)
            if day is None or not stated.window.contains(day):
                return f"line {line} not on the stated day {stated.window} ('{stated.rubric}')"
    return None


def _fmt(lines: Iterable[Line]) -> str:
    """Lines as text for evidence."""
    return ", ".join(str(line) for line in lines) or "(no lines)"


def _describe(req: OTARequiredOrder) -> str:
    """What the requirement asks for, in one line."""
    kind = {"new": "new", "unchanged": "existing", "modified": "date-changed existing"}[req.change]
    if req.kind == "replaced":
        kind = f"replacing {req.target}: new"
    return (
        f"{kind} {req.order_type} order {req.order_id} at {req.store_id}: {_fmt(req.lines)}; "
        f"status {req.status}"
    )


class _OTAMatcher:
    """Checks a new (or replacing) OTA requirement against a created booking."""

    def __init__(self, user: str) -> None:
        self.user = user

    def mismatch(self, req: RequiredOrder, order: Mapping[str, Any]) -> str | None:
        """Why a created ``order`` does not satisfy ``req`` (None if it does)."""
        assert isinstance(req, OTARequiredOrder)
        return OTAStateEvaluator.mismatch(req, order, self.user)


class OTAStateEvaluator(OrderStateEvaluator):
    """The ``state`` basis of the OTA domain (see the module docstring for the rules)."""

    def __init__(self) -> None:
        """An evaluator for the four OTA order types."""
        super().__init__(OTA_ORDER_TYPES)

    def required(self, task: VitaTask) -> list[RequiredOrder]:
        """The OTA requirements (see :func:`ota_required_orders`)."""
        return list(ota_required_orders(task))

    def describe(self, req: RequiredOrder) -> str:
        """The requirement with its dated lines."""
        assert isinstance(req, OTARequiredOrder)
        return _describe(req)

    def matcher(self, task: VitaTask) -> Any:
        """Bookings are matched on user, type, provider, dated lines and status."""
        return _OTAMatcher(str(task.environment.get("user_id") or ""))

    @staticmethod
    def mismatch(req: OTARequiredOrder, order: Mapping[str, Any], user: str = "") -> str | None:
        """Why a created ``order`` does not satisfy the new requirement ``req`` (None if it does)."""
        if user and order.get("user_id") not in (None, "", user):
            return f"user {order.get('user_id')} ≠ {user}"
        if order.get("order_type") != req.order_type:
            return f"type {order.get('order_type')} ≠ {req.order_type}"
        if order.get("store_id") != req.store_id:
            return f"{req.order_type} {order.get('store_id')} ≠ {req.store_id}"
        got = order_lines(order)
        if req.lines and not same_lines(got, req.lines):
            return f"lines {_fmt(got)} ≠ {_fmt(req.lines)}"
        if not status_satisfies(order.get("status"), req.status):
            return f"status {order.get('status')} does not satisfy {req.status}"
        return dates_mismatch(req, got) or unexpected_fields(req.record, order)

    def existing(
        self, req: RequiredOrder, final: Mapping[str, Any], initial: Mapping[str, Any]
    ) -> CriterionVerdict:
        """Unchanged: status, lines kept; modified: the same order holds the expected lines."""
        assert isinstance(req, OTARequiredOrder)
        cid = f"order[{req.index}]:{req.order_id}"
        desc = _describe(req)

        def verdict(met: bool, evidence: str) -> CriterionVerdict:
            return CriterionVerdict(id=cid, description=desc, met=met, evidence=evidence)

        order = final.get(req.target)
        if not isinstance(order, Mapping):
            return verdict(False, "order vanished")
        got = order_lines(order)
        want = req.lines if req.change == "modified" else tuple(order_lines(initial[req.target]))
        if want and not same_lines(got, want):
            what = "not moved to the expected date" if req.change == "modified" else "changed"
            return verdict(False, f"lines {what}: {_fmt(got)}, expected {_fmt(want)}")
        if not status_satisfies(order.get("status"), req.status):
            return verdict(False, f"final status {order.get('status')}, expected {req.status}")
        why = dates_mismatch(req, got) if status_class(req.status) != "cancelled" else None
        if why is not None:
            return verdict(False, why)
        return verdict(True, f"status {order.get('status')}; lines {_fmt(got)}")

    targets: frozenset[Target] = frozenset({"booking"})

    def owns_notes(self, task: VitaTask) -> bool:
        """Bookings carry no notes: the delivery evaluator checks the notes rubrics ask."""
        return False

    def owned_fields(self, req: RequiredOrder) -> frozenset[str]:
        """A date change may change its order's lines and status; any other requirement about
        a pre-existing booking only its status."""
        assert isinstance(req, OTARequiredOrder)
        if req.change == "modified":
            return frozenset({"status", "products"})
        return frozenset({"status"})

    def unchecked(self, task: VitaTask, reqs: Sequence[RequiredOrder]) -> list[str]:
        """Lines without an id, and expected lines of new bookings without a date (and the
        shared unchecked lines)."""
        out = super().unchecked(task, reqs)
        for req in reqs:
            assert isinstance(req, OTARequiredOrder)
            undated = [line for line in req.lines if not line.date]
            dated_by_rubric = any(x.field == "date" for x in req.stated)
            if (
                undated
                and not dated_by_rubric
                and req.change != "unchanged"
                and status_class(req.status) != "cancelled"
            ):
                out.append(
                    f"date: order {req.order_id}: {len(undated)} expected line(s) without a date "
                    f"({_fmt(undated)})"
                )
        return out

    def count(
        self,
        task: VitaTask,
        reqs: Sequence[RequiredOrder],
        unchecked: Sequence[str],
        coverage: Coverage,
    ) -> None:
        """The shared counts, plus the dated lines checked."""
        super().count(task, reqs, unchecked, coverage)
        for req in reqs:
            assert isinstance(req, OTARequiredOrder)
            tally(coverage, "date", "checked", sum(1 for line in req.lines if line.date))


def ota_state_evaluator() -> OTAStateEvaluator:
    """The ``state`` evaluator of the OTA domain."""
    return OTAStateEvaluator()
