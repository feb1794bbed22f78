"""Near misses and correct-but-unusual variations generated from each task.

Certification does not run a fixed list of mistakes. For every task it derives, from the
task's own records and rubrics:

* **near misses** (each must be rejected), one per *field* of each record the oracle writes and
  per record the task does not mention — grouped by field class:

  - every created record: each of its fields wrong in turn (:data:`_PER_CALL`: a line's
    quantity, product or chosen attribute, the store / shop / provider, the address, the time
    or day, the party size, the note omitted or reversed, an unrequested note added), its
    payment left out (``status``);
  - every change the task asks of a pre-existing record left out (``status`` / ``note`` / the
    field the change sets);
  - every constraint the rubrics state about a record (:mod:`lifebench.vita.grading.stated`)
    broken: an arrival just outside the stated window, one more person, another day;
  - every pre-existing record the task does not mention changed (``unrequested``): cancelled,
    paid, its note changed, a booking moved or resized, a paid flight or train moved to another
    day (the tools move no other);
    and one more live record than asked;

* **variations** (each must pass): the oracle's plan with extra reads, each created record
  cancelled and created again, a note or a reservation fixed after creation, notes in other
  words of the same meaning (case, width, politeness).

Each near miss is a valid plan of tool calls, so the tools accept it and a grader that scores
it 1 has a bug (a *false accept*); a variation scored 0 is a *false reject*.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from lifebench.vita.agents.plan import PlannedCall
from lifebench.vita.certify.perturb import (
    _APPOINTMENT_CREATE,
    _CANCEL_TOOL,
    _CREATE_OTA,
    Plan,
    PlanContext,
    _call,
    _other_modify_date,
    _redate,
    _shift,
    address,
    attribute,
    date,
    extra_order,
    note_negated,
    note_omitted,
    party_size,
    product,
    quantity,
    store,
)
from lifebench.vita.domains._ota_tables import KINDS
from lifebench.vita.domains.ota import _MODIFIABLE as _MOVABLE
from lifebench.vita.grading.constraints import AROUND_MIN
from lifebench.vita.grading.expected import named_orders, required_orders, status_class
from lifebench.vita.grading.instore import initial_appointments, required_appointments
from lifebench.vita.grading.text import is_blank
from lifebench.vita.timefmt import format_time, parse_time

_ALL_TYPES = frozenset({"delivery", "instore", "hotel", "attraction", "flight", "train"})
_DELIVERY_CREATE = ("create_delivery_order",)
_INSTORE_CREATE = ("create_instore_product_order",)
_OTA_CREATE = tuple(_CREATE_OTA)
_ALL_CREATE = (*_DELIVERY_CREATE, *_INSTORE_CREATE, *_APPOINTMENT_CREATE, *_OTA_CREATE)
_MASK = "\x00masked:"
_ID_ARGS = ("order_id", "book_id", "reservation_id")
_FILLED_ID = {
    "create_delivery_order": "order_id",
    "create_instore_product_order": "order_id",
    "instore_book": "book_id",
    "instore_reservation": "reservation_id",
    **{name: "order_id" for name in _OTA_CREATE},
}
_CANCEL_CREATED = {
    "create_delivery_order": "cancel_delivery_order",
    "create_instore_product_order": "instore_cancel_order",
    "instore_book": "instore_cancel_book",
    "instore_reservation": "instore_cancel_reservation",
    **{f"create_{t}_order": f"cancel_{t}_order" for t in KINDS},
}
_PAY_TOOL = {
    "delivery": "pay_delivery_order",
    "instore": "pay_instore_order",
    **{t: f"pay_{t}_order" for t in KINDS},
}
#: A note that constrains delivery, added where the task asks for none.
_UNASKED_NOTE = {"en": "Please deliver after 22:00", "zh": "请22点以后再送"}
_OTHER_NOTE = {"en": "Please call me before delivering", "zh": "送达前请先打电话"}


@dataclass(frozen=True)
class Candidate:
    """One generated plan: a near miss (``must_pass`` False) or a variation (True)."""

    field: str
    kind: str
    target: str
    plan: Plan
    must_pass: bool = False


def _masked(plan: Sequence[PlannedCall], keep: int, names: Sequence[str]) -> Plan:
    return [
        c if i == keep or c.name not in names else PlannedCall(_MASK + c.name, c.args, c.fill)
        for i, c in enumerate(plan)
    ]


def _unmasked(plan: Sequence[PlannedCall]) -> Plan:
    return [
        PlannedCall(c.name.removeprefix(_MASK), c.args, c.fill) if c.name.startswith(_MASK) else c
        for c in plan
    ]


Perturbation = Callable[[PlanContext], Plan | None]

#: Field class, kind, the calls it changes, and how (each applied to every such call in turn).
_PER_CALL: tuple[tuple[str, str, tuple[str, ...], Perturbation], ...] = (
    ("products", "quantity", (*_DELIVERY_CREATE, *_INSTORE_CREATE, *_OTA_CREATE), quantity),
    ("products", "product", (*_DELIVERY_CREATE, *_INSTORE_CREATE), product),
    ("attribute", "attribute", _DELIVERY_CREATE, attribute),
    ("store", "store", (*_DELIVERY_CREATE, *_INSTORE_CREATE), store),
    ("address", "address", _DELIVERY_CREATE, address),
    ("note", "note_omitted", (*_DELIVERY_CREATE, "modify_delivery_order"), note_omitted),
    ("note", "note_negated", (*_DELIVERY_CREATE, "modify_delivery_order"), note_negated),
    ("party_size", "party_size", (*_APPOINTMENT_CREATE, "instore_modify_reservation"), party_size),
    (
        "date",
        "date",
        (
            *_APPOINTMENT_CREATE,
            "instore_modify_reservation",
            *_OTA_CREATE,
            "modify_flight_order",
            "modify_train_order",
        ),
        date,
    ),
)


def _per_call(ctx: PlanContext) -> Iterator[Candidate]:
    for field, kind, names, perturb in _PER_CALL:
        for i, call in enumerate(ctx.plan):
            if call.name not in names:
                continue
            masked = PlanContext(ctx.task, _masked(ctx.plan, i, names), ctx.language)
            changed = perturb(masked)
            if changed is not None:
                yield Candidate(field, kind, f"call {i} {call.name}", _unmasked(changed))


def _windowed(ctx: PlanContext) -> set[tuple[str, tuple[str, ...]]]:
    """(store, sorted products) of the new delivery orders whose time the rubrics state (their
    near misses break those windows: :func:`_stated`)."""
    from lifebench.vita.grading.state import delivery_state_evaluator

    return {
        (r.store_id, tuple(sorted(pid for pid, _, _ in r.product_lines())))
        for r in delivery_state_evaluator().prepare(ctx.task)[0]
        if not r.existing and any(s.field in ("time", "date") for s in r.stated)
    }


def _created_fields(ctx: PlanContext) -> Iterator[Candidate]:
    """Time, provider, payment and an unasked note on every created record."""
    windowed = _windowed(ctx) if any(c.name in _DELIVERY_CREATE for c in ctx.plan) else set()
    for i, call in enumerate(ctx.plan):
        target = f"call {i} {call.name}"
        key = (
            str(call.args.get("store_id")),
            tuple(sorted(map(str, call.args.get("product_ids") or []))),
        )
        if call.name in _DELIVERY_CREATE and key in windowed:
            pass  # a day later may still lie in a wide stated window: _stated misses it
        elif call.name in _DELIVERY_CREATE:
            # a day later: outside any window a task states for one arrival (and as soon as
            # possible); three hours could still lie inside "before noon tomorrow"
            later = _shift(call.args.get("dispatch_time"), timedelta(days=1))
            if later is not None:
                yield Candidate(
                    "time", "time", target, ctx.with_call(i, _call(call, dispatch_time=later))
                )
        if call.name in _DELIVERY_CREATE and is_blank(call.args.get("note")):
            note = _UNASKED_NOTE["zh" if ctx.language == "zh" else "en"]
            yield Candidate(
                "note", "unasked_note", target, ctx.with_call(i, _call(call, note=note))
            )
        if call.name in (*_APPOINTMENT_CREATE, "instore_modify_reservation"):
            later = _shift(call.args.get("time"), timedelta(hours=3))
            if later is not None:
                yield Candidate("time", "time", target, ctx.with_call(i, _call(call, time=later)))
        if call.name in _OTA_CREATE:
            from lifebench.vita.certify.perturb import _ota_other

            other = _ota_other(ctx, _CREATE_OTA[call.name], call, same_provider=False, dated=True)
            if other is not None:
                yield Candidate("store", "provider", target, ctx.with_call(i, other))
        if call.name.startswith("pay_"):
            yield Candidate("status", "unpaid", target, ctx.without(i))


def _skipped_changes(ctx: PlanContext) -> Iterator[Candidate]:
    """Every change to a pre-existing record left out (with the payment that completes it)."""
    before = set(ctx.table("orders")) | set(initial_appointments(ctx.task))
    for i, call in enumerate(ctx.plan):
        ids = {str(call.args.get(k)) for k in _ID_ARGS} & before
        if call.fill is not None or not ids:
            continue
        follow = call.name.startswith("modify_")
        plan = [
            c
            for j, c in enumerate(ctx.plan)
            if j != i
            and not (
                follow
                and j > i
                and c.name.startswith("pay_")
                and {str(c.args.get(k)) for k in _ID_ARGS} & ids
            )
        ]
        field = "note" if "note" in call.args else "status"
        if call.name in ("instore_modify_reservation", "modify_flight_order", "modify_train_order"):
            field = "time" if call.name == "instore_modify_reservation" else "date"
        yield Candidate(field, "change_skipped", f"call {i} {call.name}", plan)


def _unmentioned(ctx: PlanContext) -> Iterator[Candidate]:
    """Every pre-existing record the task does not mention, changed in each way a tool can."""
    named = named_orders(required_orders(ctx.task, _ALL_TYPES))
    user = ctx.user_id
    for oid, order in ctx.table("orders").items():
        if oid in named or not isinstance(order, Mapping):
            continue
        order_type = str(order.get("order_type"))
        status = str(order.get("status"))
        live = status_class(status) != "cancelled"
        if live and status != "consumed" and order_type in _CANCEL_TOOL:
            args: dict[str, Any] = {"order_id": oid}
            if order_type in KINDS:
                args["user_id"] = user
            cancel = PlannedCall(_CANCEL_TOOL[order_type], args)
            yield Candidate("unrequested", "cancelled", oid, [*ctx.plan, cancel])
        if status == "unpaid" and order_type in _PAY_TOOL:
            pay = PlannedCall(_PAY_TOOL[order_type], {"order_id": oid})
            yield Candidate("unrequested", "paid", oid, [*ctx.plan, pay])
        if order_type == "delivery":
            note = _OTHER_NOTE["zh" if ctx.language == "zh" else "en"]
            modify = PlannedCall("modify_delivery_order", {"order_id": oid, "note": note})
            yield Candidate("unrequested", "note_changed", oid, [*ctx.plan, modify])
        if order_type in ("flight", "train") and status in _MOVABLE:
            move = PlannedCall(
                f"modify_{order_type}_order", {"order_id": oid, "user_id": user, "new_date": ""}
            )
            other = _other_modify_date(ctx, move)
            if other is not None:
                plan = _redate(
                    PlanContext(ctx.task, [*ctx.plan, move], ctx.language),
                    len(ctx.plan),
                    move,
                    *other,
                )
                yield Candidate("unrequested", "date_changed", oid, plan)
    named_appointments = {a.record_id for a in required_appointments(ctx.task) if a.existing}
    for rid, (kind, record) in initial_appointments(ctx.task).items():
        if rid in named_appointments or str(record.get("status")) in ("cancelled", "consumed"):
            continue
        tool = "instore_cancel_book" if kind == "book" else "instore_cancel_reservation"
        yield Candidate(
            "unrequested", "cancelled", rid, [*ctx.plan, PlannedCall(tool, {f"{kind}_id": rid})]
        )
        if kind == "reservation":
            when = _shift(record.get("reservation_time"), timedelta(days=1))
            count = record.get("customer_count")
            if when is not None and isinstance(count, int):
                moved = {"reservation_id": rid, "time": when, "customer_count": count}
                yield Candidate(
                    "unrequested",
                    "moved",
                    rid,
                    [*ctx.plan, PlannedCall("instore_modify_reservation", moved)],
                )
                resized = {
                    "reservation_id": rid,
                    "time": str(record.get("reservation_time")),
                    "customer_count": count + 1,
                }
                yield Candidate(
                    "unrequested",
                    "resized",
                    rid,
                    [*ctx.plan, PlannedCall("instore_modify_reservation", resized)],
                )
    extra = extra_order(ctx)
    if extra is not None:
        yield Candidate("unrequested", "extra_record", "new", extra)


def _stated(ctx: PlanContext) -> Iterator[Candidate]:
    """Every time window the rubrics state about a delivery, missed just outside it."""
    from lifebench.vita.agents.plan_delivery import DeliveryPlanner
    from lifebench.vita.grading.state import delivery_state_evaluator

    reqs = [
        r
        for r in delivery_state_evaluator().prepare(ctx.task)[0]
        if not r.existing and any(s.field in ("time", "date") for s in r.stated)
    ]
    if not reqs:
        return
    planner = DeliveryPlanner(ctx.task)
    creates = [(i, c) for i, c in enumerate(ctx.plan) if c.name in _DELIVERY_CREATE]
    for req in reqs:
        pids = sorted(pid for pid, _, _ in req.product_lines())
        match = next(
            (
                (i, c)
                for i, c in creates
                if c.args.get("store_id") == req.store_id
                and sorted(str(p) for p in c.args.get("product_ids") or []) == pids
            ),
            None,
        )
        if match is None:
            continue
        i, call = match
        address_text = str(call.args.get("address") or "")
        loc = req.record.get("location")
        minutes = planner._minutes(req, address_text, loc if isinstance(loc, Mapping) else None)
        now = parse_time(ctx.env.get("time"))
        for s in req.stated:
            if s.field not in ("time", "date") or s.window is None:
                continue
            for edge, delta in ((s.window.end, 10), (s.window.start, -10)):
                if edge is None:
                    continue
                dispatch = edge + timedelta(minutes=delta - minutes)
                earliest = now + timedelta(minutes=minutes) if now is not None else None
                if delta > 0 and earliest is not None and edge < earliest:
                    # a window no arrival can meet means "as soon as possible": miss that
                    dispatch = now + timedelta(minutes=AROUND_MIN + 10) if now else dispatch
                if now is not None and dispatch < now:
                    continue
                plan = ctx.with_call(i, _call(call, dispatch_time=format_time(dispatch)))
                yield Candidate(s.field, "stated_window", f"order {req.order_id}: {s.rubric}", plan)


def near_misses(ctx: PlanContext) -> list[Candidate]:
    """Every near miss of the task (see the module docstring), in a stable order."""
    return [
        *_per_call(ctx),
        *_created_fields(ctx),
        *_skipped_changes(ctx),
        *_stated(ctx),
        *_unmentioned(ctx),
    ]


# ---- variations that must pass -----------------------------------------------------------------


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" and c.isalnum() else c for c in text)


def _reworded(note: str, language: str) -> list[tuple[str, str]]:
    out = [("upper_case", note.upper()), ("full_width", _full_width(note))]
    out.append(("polite", f"请{note}" if language == "zh" else f"Please: {note}"))
    return [(k, v) for k, v in out if v != note and unicodedata.normalize("NFKC", v)]


def variations(ctx: PlanContext) -> list[Candidate]:
    """Correct-but-unusual versions of the oracle's plan (see the module docstring)."""
    out: list[Candidate] = []
    # A read before every call that does not take its id from the previous result (a read in
    # between would hand the follow-up another id), and one at the end.
    read = PlannedCall("get_user_all_orders", {})
    reads: Plan = []
    for call in ctx.plan:
        if call.fill is None:
            reads.append(read)
        reads.append(call)
    reads.append(read)
    out.append(Candidate("reads", "extra_reads", "plan", reads, must_pass=True))
    for i, call in enumerate(ctx.plan):
        target = f"call {i} {call.name}"
        if call.name in _CANCEL_CREATED:
            args: dict[str, Any] = {}
            if call.name in _OTA_CREATE:
                args["user_id"] = ctx.user_id
            cancel = PlannedCall(_CANCEL_CREATED[call.name], args, fill=_FILLED_ID[call.name])
            plan = [*ctx.plan[:i], call, cancel, call, *ctx.plan[i + 1 :]]
            out.append(Candidate("records", "cancel_and_recreate", target, plan, must_pass=True))
        if call.name in _DELIVERY_CREATE:
            right = str(call.args.get("note") or "")
            first = _OTHER_NOTE["zh" if ctx.language == "zh" else "en"]
            fix = PlannedCall("modify_delivery_order", {"note": right}, fill="order_id")
            plan = [*ctx.plan[:i], _call(call, note=first), fix, *ctx.plan[i + 1 :]]
            out.append(Candidate("note", "edited_after_creation", target, plan, must_pass=True))
        if call.name == "instore_reservation":
            other = _shift(call.args.get("time"), timedelta(hours=1))
            if other is not None:
                fix = PlannedCall(
                    "instore_modify_reservation",
                    {
                        "time": call.args.get("time"),
                        "customer_count": call.args.get("customer_count"),
                    },
                    fill="reservation_id",
                )
                plan = [*ctx.plan[:i], _call(call, time=other), fix, *ctx.plan[i + 1 :]]
                out.append(Candidate("time", "edited_after_creation", target, plan, must_pass=True))
        if call.name in (*_DELIVERY_CREATE, "modify_delivery_order") and not is_blank(
            call.args.get("note")
        ):
            for kind, text in _reworded(str(call.args["note"]), ctx.language):
                out.append(
                    Candidate(
                        "note",
                        f"same_meaning_{kind}",
                        target,
                        ctx.with_call(i, _call(call, note=text)),
                        must_pass=True,
                    )
                )
    return out
