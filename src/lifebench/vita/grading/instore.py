"""Deterministic state grading of the in-store domain (rules in docs/evaluation.md).

In-store ``required_orders`` hold three kinds of records: in-store product orders
(``order_id``), table bookings (``book_id``) and service reservations (``reservation_id``).

* Product orders are graded by :class:`~lifebench.vita.grading.state.OrderStateEvaluator`
  (order type ``instore``) after two normalisations forced by the tool set and the data: an
  expected order with several products is split into one requirement per product (the official
  ``create_instore_product_order`` takes a single product), and an expected order whose
  ``store_id`` does not sell its products is attributed to the one shop that does. A note the
  rubrics ask about a product order (the in-store grader takes them in a task without delivery
  orders) must be made by the order's note (:class:`InStoreOrderMatcher`).
* Bookings and reservations ("appointments") are graded here: the shop, the time (within
  :data:`TIME_TOLERANCE_MIN` minutes), the number of people and the status class. The kind
  expected is the record's kind unless the shop only supports the other one (the data files
  some table bookings as reservations and vice versa).
* Guards: no unrequested cancellation of pre-existing orders, no extra live orders (from the
  order evaluator), no change to pre-existing bookings/reservations the task does not mention,
  and no extra live bookings/reservations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.simulation import Simulation
from lifebench.vita.grading.constraints import Stated, Target
from lifebench.vita.grading.expected import (
    RequiredOrder,
    attributed_store,
    product_lines_of,
    required_orders,
    status_class,
    status_satisfies,
)
from lifebench.vita.grading.state import (
    TIME_TOLERANCE_MIN,
    Coverage,
    OrderMatcher,
    OrderStateEvaluator,
    result,
    stated_mismatch,
    tally,
)
from lifebench.vita.grading.stated import Attribution, Candidate
from lifebench.vita.grading.world import changed_fields
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import format_time, parse_time

GRADER_VERSION = 5
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

AppointmentKind = Literal["book", "reservation"]

#: Attribution keys of appointments start here (product orders use their positions).
_APPOINTMENT_KEY = 10_000

#: Final-state table and id field of each appointment kind.
TABLES: Mapping[AppointmentKind, tuple[str, str]] = {
    "book": ("books", "book_id"),
    "reservation": ("reservations", "reservation_id"),
}
_TIME_KEYS: Mapping[AppointmentKind, tuple[str, str]] = {
    "book": ("book_time", "reservation_time"),
    "reservation": ("reservation_time", "book_time"),
}
#: The shop flag that says whether it accepts each kind.
SUPPORT_FLAG: Mapping[AppointmentKind, str] = {
    "book": "enable_book",
    "reservation": "enable_reservation",
}


def _shops(task: VitaTask) -> Mapping[str, Any]:
    shops: Mapping[str, Any] = task.environment.get("shops") or {}
    return shops


def instore_required_orders(task: VitaTask) -> list[RequiredOrder]:
    """The product-order requirements of an in-store task, normalised for grading.

    Records are read by the shared rules (:func:`~lifebench.vita.grading.expected.classify`:
    existing / replaced / new, re-attribution to the shop that sells the products). A new (or
    replacing) order with several products becomes one requirement per product line — the
    official ``create_instore_product_order`` takes a single product — each line attributed to
    the shop that sells it when its written shop does not.
    """
    out: list[RequiredOrder] = []
    for req in required_orders(task, frozenset({"instore"})):
        lines = product_lines_of(req.record)
        if req.existing or len(lines) <= 1:
            out.append(replace(req, index=len(out)))
            continue
        for line in lines:
            record: dict[str, Any] = {**req.record, "products": [line]}
            store, note = attributed_store(task, record)
            record["store_id"] = store
            out.append(replace(req, index=len(out), record=record, note=req.note or note))
    return out


@dataclass(frozen=True)
class RequiredAppointment:
    """One distinct required table booking or reservation of a task.

    Attributes:
        index: Position among the task's appointment requirements.
        kind: The kind to grade against (the record's kind unless the shop only supports the
            other one).
        record: The expected record as in the data.
        existing: Whether the initial database has a booking or reservation with this id.
        when: The expected time, or None when it is unreadable or earlier than the task clock
            (then the record's time is not checked).
        stated: Constraints the rubrics state about it (time, day, party size).
    """

    index: int
    kind: AppointmentKind
    record: Mapping[str, Any]
    existing: bool
    when: datetime | None
    stated: tuple[Stated, ...] = ()

    @property
    def record_id(self) -> str:
        """The id in the expected record."""
        return str(self.record.get("reservation_id") or self.record.get("book_id") or "")

    @property
    def shop_id(self) -> str:
        """The expected shop."""
        return str(self.record.get("shop_id", ""))

    @property
    def status(self) -> str:
        """The expected status."""
        return str(self.record.get("status", ""))

    @property
    def customer_count(self) -> int | None:
        """The expected number of people, if the record has one."""
        value = self.record.get("customer_count")
        return (
            int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
        )

    @property
    def time_text(self) -> str:
        """The expected time as written in the data."""
        for key in ("reservation_time", "book_time"):
            if self.record.get(key):
                return str(self.record[key])
        return ""


def _record_kind(record: Mapping[str, Any]) -> AppointmentKind | None:
    if "order_id" in record:
        return None
    if "reservation_id" in record:
        return "reservation"
    if "book_id" in record:
        return "book"
    return None


def appointment_kind(task: VitaTask, record: Mapping[str, Any]) -> AppointmentKind | None:
    """The kind a required record is graded as (None for product orders and other records)."""
    kind = _record_kind(record)
    if kind is None:
        return None
    shop = _shops(task).get(str(record.get("shop_id")))
    if not isinstance(shop, Mapping) or shop.get(SUPPORT_FLAG[kind]):
        return kind
    other: AppointmentKind = "book" if kind == "reservation" else "reservation"
    return other if shop.get(SUPPORT_FLAG[other]) else kind


def initial_appointments(task: VitaTask) -> dict[str, tuple[AppointmentKind, Mapping[str, Any]]]:
    """Pre-existing bookings and reservations by id."""
    out: dict[str, tuple[AppointmentKind, Mapping[str, Any]]] = {}
    for kind, (table, _) in TABLES.items():
        for key, record in (task.environment.get(table) or {}).items():
            out[str(key)] = (kind, record)
    return out


def required_appointments(task: VitaTask) -> list[RequiredAppointment]:
    """Distinct required bookings/reservations across all expected states.

    Records are identified by their id; when an id occurs with different contents, the one of
    the latest state wins (states are checkpoints of one final world); requirements are ordered
    by their latest occurrence.
    """
    criteria = task.evaluation_criteria
    if criteria is None:
        return []
    clock = parse_time(task.environment.get("time"))
    initial = initial_appointments(task)
    latest: dict[str, Mapping[str, Any]] = {}
    for state in criteria.expected_states:
        for record in state.required_orders:
            if _record_kind(record) is not None:
                rid = str(record.get("reservation_id") or record.get("book_id") or "")
                key = rid or repr(sorted(record.items()))
                latest.pop(key, None)  # keep the position of the latest occurrence
                latest[key] = record
    out: list[RequiredAppointment] = []
    for key, expected in latest.items():
        kind = appointment_kind(task, expected)
        assert kind is not None
        text = expected.get("reservation_time") or expected.get("book_time")
        when = parse_time(text)
        if when is not None and clock is not None and when < clock:
            when = None
        out.append(
            RequiredAppointment(
                index=len(out),
                kind=kind,
                record=expected,
                existing=key in initial
                and initial[key][1].get("shop_id") == expected.get("shop_id"),
                when=when,
            )
        )
    return out


def _minutes_apart(got: object, want: datetime) -> float | None:
    g = parse_time(got)
    return None if g is None else abs((g - want).total_seconds()) / 60.0


def _appointment_time(record: Mapping[str, Any], kind: AppointmentKind) -> object:
    first, second = _TIME_KEYS[kind]
    return record.get(first) or record.get(second)


def appointment_stated_mismatch(
    stated: Sequence[Stated], kind: AppointmentKind, record: Mapping[str, Any]
) -> str | None:
    """Why an appointment breaks a constraint the rubrics state about it (None if none)."""
    for s in stated:
        if s.field in ("time", "date") and s.window is not None:
            got = parse_time(_appointment_time(record, kind))
            if got is None or not s.window.contains(got):
                return f"time {_appointment_time(record, kind)} not in {s.window} ('{s.rubric}')"
        if s.field == "party_size" and record.get("customer_count") != s.count:
            return f"customer_count {record.get('customer_count')} ≠ {s.count} ('{s.rubric}')"
    return None


def _describe(req: RequiredAppointment) -> str:
    noun = "table booking" if req.kind == "book" else "reservation"
    where = "existing" if req.existing else "new"
    when = format_time(req.when) if req.when is not None else f"{req.time_text} (not checked)"
    return (
        f"{where} {noun} {req.record_id} at {req.shop_id}: {when}, "
        f"{req.customer_count} people; status {req.status} ({status_class(req.status)})"
    )


class InStoreStateEvaluator(OrderStateEvaluator):
    """The ``state`` basis of the in-store domain: product orders plus appointments."""

    def __init__(self) -> None:
        super().__init__(frozenset({"instore"}))

    def required(self, task: VitaTask) -> list[RequiredOrder]:
        """Product-order requirements, normalised (see :func:`instore_required_orders`)."""
        return instore_required_orders(task)

    targets: frozenset[Target] = frozenset({"appointment"})

    def owns_notes(self, task: VitaTask) -> bool:
        """Notes the rubrics ask are checked here only in a task without delivery orders."""
        return not required_orders(task, frozenset({"delivery"}))

    def matcher(self, task: VitaTask) -> OrderMatcher:
        """The order matcher that checks the notes the rubrics ask (:class:`InStoreOrderMatcher`)."""
        return InStoreOrderMatcher(task)

    def candidates(self, task: VitaTask, reqs: Sequence[RequiredOrder]) -> list[Candidate]:
        """Product orders (keys from 0) and appointments (keys from :data:`_APPOINTMENT_KEY`)."""
        shops = _shops(task)
        out = super().candidates(task, reqs)
        for a in required_appointments(task):
            if status_class(a.status) == "cancelled":
                continue
            shop = shops.get(a.shop_id)
            names = " ".join(
                [str(shop.get("shop_name", "")), *map(str, shop.get("tags") or [])]
                if isinstance(shop, Mapping)
                else []
            )
            out.append(
                Candidate(
                    key=_APPOINTMENT_KEY + a.index,
                    target="appointment",
                    ids=(a.record_id,),
                    names=f"{names} {a.shop_id} {'book table' if a.kind == 'book' else 'reservation'}",
                    record=a.record,
                )
            )
        return out

    def appointments(
        self, task: VitaTask, attribution: Attribution, unchecked: list[str], coverage: Coverage
    ) -> list[RequiredAppointment]:
        """The appointment requirements with their rubric constraints; what they leave
        unchecked is added to ``unchecked`` and the checks to ``coverage``."""
        out = []
        for a in required_appointments(task):
            stated = tuple(attribution.of(_APPOINTMENT_KEY + a.index))
            timed = any(x.field in ("time", "date") for x in stated)
            sized = any(x.field == "party_size" for x in stated)
            live = status_class(a.status) != "cancelled"
            if a.when is None and not timed and live:
                unchecked.append(
                    f"time: time of {a.record_id}: '{a.time_text}' cannot be read or lies before "
                    "the task clock"
                )
            elif a.when is not None or timed:
                tally(coverage, "time", "checked")
            if a.customer_count is None and not sized and live:
                unchecked.append(f"party_size: {a.record_id} states no number of people")
            elif a.customer_count is not None or sized:
                tally(coverage, "party_size", "checked")
            tally(coverage, "status", "checked")
            tally(coverage, "store", "checked")
            for x in stated:
                tally(coverage, x.field, "checked")
            out.append(replace(a, stated=stated))
        tally(coverage, "unrequested", "checked", len(initial_appointments(task)))
        return out

    def grade(self, task: VitaTask, simulation: Simulation) -> BasisResult:
        """Orders as in the delivery rules, then bookings, reservations and their guards."""
        reqs, unchecked, coverage, attribution = self.prepare(task)
        appointments = self.appointments(task, attribution, unchecked, coverage)
        if not reqs and not appointments:
            return result(self.basis, [], gradable=False, unchecked=unchecked, coverage=coverage)
        if not simulation.termination.is_normal:
            return BasisResult(
                basis=self.basis,
                reward=0.0,
                score=0.0,
                unchecked=unchecked,
                note=f"episode ended with {simulation.termination.value}",
            )
        final: Mapping[str, Any] = simulation.final_state.get("orders") or {}
        verdicts = [
            *self.order_criteria(task, reqs, final),
            *self._appointments(task, simulation.final_state, appointments),
        ]
        return result(self.basis, verdicts, gradable=True, unchecked=unchecked, coverage=coverage)

    def guard_criteria(self, task: VitaTask, simulation: Simulation) -> list[CriterionVerdict]:
        """The order guards and the appointment guards."""
        return [
            *super().guard_criteria(task, simulation),
            *self._appointments(task, simulation.final_state, required_appointments(task)),
        ]

    def _appointments(
        self,
        task: VitaTask,
        final_state: Mapping[str, Any],
        reqs: Sequence[RequiredAppointment],
    ) -> list[CriterionVerdict]:
        initial = initial_appointments(task)
        final: dict[AppointmentKind, Mapping[str, Any]] = {
            kind: final_state.get(table) or {} for kind, (table, _) in TABLES.items()
        }
        created: list[tuple[AppointmentKind, str, Mapping[str, Any]]] = [
            (kind, rid, record)
            for kind, records in final.items()
            for rid, record in records.items()
            if rid not in initial
        ]
        user = str(task.environment.get("user_id") or "")
        verdicts = []
        for req in reqs:
            if req.existing:
                verdicts.append(self._existing(req, initial, final))
            else:
                verdicts.append(self._new(req, created, user))
        named = {r.record_id: r for r in reqs if r.existing}
        changed = []
        for rid, (kind, before) in sorted(initial.items()):
            table = TABLES[kind][0]
            if table not in final_state:  # a snapshot without the table shows nothing of it
                continue
            after = final[kind].get(rid)
            fields = changed_fields(table, before, after)
            if rid in named:  # its requirement checks the status (and, unless it cancels
                # the record, the time and party size): everything else stays as it was
                owned = {"status"}
                if status_class(named[rid].status) != "cancelled":
                    owned |= {"customer_count", *_TIME_KEYS[kind]}
                fields = [f for f in fields if f not in owned]
            if fields:
                changed.append(f"{rid}: {', '.join(fields)}")
        extra = sorted(
            rid for _, rid, record in created if status_class(record.get("status")) != "cancelled"
        )
        verdicts.append(
            CriterionVerdict(
                id="no_unrequested_appointment_changes",
                description=(
                    "Pre-existing bookings/reservations the task does not mention are neither "
                    "cancelled nor changed"
                ),
                met=not changed,
                evidence="; ".join(changed) or "none changed",
            )
        )
        verdicts.append(
            CriterionVerdict(
                id="no_extra_appointments",
                description="No live booking/reservation beyond those the task requires was made",
                met=not extra,
                evidence=", ".join(extra) or "none",
            )
        )
        return verdicts

    @staticmethod
    def _mismatch(
        req: RequiredAppointment, kind: AppointmentKind, record: Mapping[str, Any]
    ) -> str | None:
        if kind != req.kind:
            return f"a {kind}, expected a {req.kind}"
        if record.get("shop_id") != req.shop_id:
            return f"shop {record.get('shop_id')} ≠ {req.shop_id}"
        if req.when is not None:
            gap = _minutes_apart(_appointment_time(record, kind), req.when)
            if gap is None or gap > TIME_TOLERANCE_MIN:
                return (
                    f"time {_appointment_time(record, kind)} not within "
                    f"{TIME_TOLERANCE_MIN:.0f} min of {format_time(req.when)}"
                )
        if req.customer_count is not None and record.get("customer_count") != req.customer_count:
            return f"customer_count {record.get('customer_count')} ≠ {req.customer_count}"
        if not status_satisfies(record.get("status"), req.status):
            return f"status {record.get('status')} does not satisfy {req.status}"
        return appointment_stated_mismatch(req.stated, kind, record)

    def _existing(
        self,
        req: RequiredAppointment,
        initial: Mapping[str, tuple[AppointmentKind, Mapping[str, Any]]],
        final: Mapping[AppointmentKind, Mapping[str, Any]],
    ) -> CriterionVerdict:
        cid = f"{req.kind}[{req.index}]:{req.record_id}"
        kind, _ = initial[req.record_id]
        after = final[kind].get(req.record_id)
        if after is None:
            return CriterionVerdict(
                id=cid, description=_describe(req), met=False, evidence="record vanished"
            )
        problem: str | None = None
        if not status_satisfies(after.get("status"), req.status):
            problem = f"final status {after.get('status')}, expected {req.status}"
        elif status_class(req.status) != "cancelled":
            # The final time and party size are the expected ones — whether the task changes
            # them or keeps them (moving a booking the user keeps is as wrong as not moving one).
            if req.when is not None:
                gap = _minutes_apart(_appointment_time(after, kind), req.when)
                if gap is None or gap > TIME_TOLERANCE_MIN:
                    problem = f"time {_appointment_time(after, kind)}, expected {req.time_text}"
            count = req.customer_count
            if problem is None and count is not None and after.get("customer_count") != count:
                problem = f"customer_count {after.get('customer_count')}, expected {count}"
            if problem is None:
                problem = appointment_stated_mismatch(req.stated, kind, after)
        return CriterionVerdict(
            id=cid,
            description=_describe(req),
            met=problem is None,
            evidence=problem or f"status {after.get('status')}",
        )

    def _new(
        self,
        req: RequiredAppointment,
        created: list[tuple[AppointmentKind, str, Mapping[str, Any]]],
        user: str = "",
    ) -> CriterionVerdict:
        cid = f"{req.kind}[{req.index}]:{req.record_id}"
        reasons = []
        fits: list[tuple[float, int]] = []
        for i, (kind, rid, record) in enumerate(created):
            why = self._mismatch(req, kind, record)
            customer = record.get("customer_id")
            if why is None and user and customer not in (None, "", user):
                why = f"customer {customer} ≠ {user}"
            if why is None:
                gap = None
                if req.when is not None:
                    gap = _minutes_apart(_appointment_time(record, kind), req.when)
                fits.append((gap or 0.0, i))
            else:
                reasons.append(f"{rid}: {why}")
        if fits:
            # The closest in time wins; each created record satisfies one requirement at most.
            kind, rid, _ = created.pop(min(fits)[1])
            return CriterionVerdict(
                id=cid, description=_describe(req), met=True, evidence=f"matched {kind} {rid}"
            )
        evidence = "; ".join(reasons) if reasons else "no booking or reservation was made"
        return CriterionVerdict(id=cid, description=_describe(req), met=False, evidence=evidence)


class InStoreOrderMatcher(OrderMatcher):
    """The order matcher, with the notes the rubrics ask about an in-store order checked.

    A product order whose expected record has no note takes none (closed world), unless the
    rubrics ask one about it: then the order's note must make each request they word (as a
    delivery's must), and a note is no unrequested note."""

    def mismatch(self, req: RequiredOrder, order: Mapping[str, Any]) -> str | None:
        """Why ``order`` does not satisfy ``req`` (None when it does)."""
        # (a record with a note of its own has no note attributed: its note governs)
        notes = [s for s in req.stated if s.field == "note"]
        if not notes:
            return super().mismatch(req, order)
        return super().mismatch(req, {**order, "note": ""}) or stated_mismatch(notes, order, None)


def instore_state_evaluator() -> InStoreStateEvaluator:
    """The ``state`` evaluator of the in-store domain."""
    return InStoreStateEvaluator()
