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

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from lifebench.evaluation import BasisResult, CriterionVerdict
from lifebench.simulation import Simulation
from lifebench.vita.domains._geo import haversine_m
from lifebench.vita.domains._match import ADDRESS_THRESHOLD, address_score
from lifebench.vita.grading.constraints import (
    ALL_TARGETS,
    AROUND_MIN,
    FIELD_CLASSES,
    Stated,
    Target,
    to_clock,
)
from lifebench.vita.grading.expected import (
    RequiredOrder,
    expected_records,
    is_order_record,
    line_product,
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
from lifebench.vita.grading.stated import Attribution, Candidate, attribute_all, record_names
from lifebench.vita.grading.stated import clock as clock_of
from lifebench.vita.grading.stated import rubrics as rubrics_of
from lifebench.vita.grading.text import TextKey, is_blank, normalise, same_text
from lifebench.vita.grading.world import changed_fields
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import format_time, parse_time

GRADER_VERSION = 5
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


def _point(loc: Mapping[str, Any]) -> tuple[float, float] | None:
    try:
        return float(loc["longitude"]), float(loc["latitude"])
    except (KeyError, TypeError, ValueError):
        return None


def known_places(task: VitaTask) -> dict[str, list[tuple[float, float]]]:
    """The points the task's own data gives each address text (normalised): the user's places,
    the pre-existing orders' targets and the stores — the places the geocoder resolves."""
    env = task.environment
    found: list[Any] = list(env.get("location") or [])
    for table in ("orders", "stores"):
        rows = env.get(table)
        found += [r.get("location") for r in (rows or {}).values() if isinstance(r, Mapping)]
    out: dict[str, list[tuple[float, float]]] = {}
    for place in found:
        if isinstance(place, Mapping) and place.get("address"):
            point = _point(place)
            if point is not None:
                out.setdefault(normalise(str(place["address"])), []).append(point)
    return out


def reference_location(
    want: Mapping[str, Any], known: Mapping[str, Sequence[tuple[float, float]]]
) -> Mapping[str, Any]:
    """The location that stands for an expected one whose text and point may disagree.

    The **text** is authoritative when a known place carries it (the rubrics state addresses in
    words and the tools put that place's point on an order made with those words): when the
    record's own point lies beyond :data:`ADDRESS_TOLERANCE_M` from every known point of its
    text (official J0717003: the user's address with coordinates 2 km away), the known point
    replaces it. A text no known place carries keeps the record's point."""
    points = known.get(normalise(str(want.get("address") or "")), [])
    own = _point(want)
    if not points or (
        own is not None and any(haversine_m(*own, *p) <= ADDRESS_TOLERANCE_M for p in points)
    ):
        return want
    return {**want, "longitude": points[0][0], "latitude": points[0][1]}


def same_address(
    got: Mapping[str, Any],
    want: Mapping[str, Any],
    others: Sequence[Mapping[str, Any]] = (),
) -> tuple[bool, str]:
    """Whether an order's location is the expected one, and a remark for evidence.

    Identical normalised address text always matches. Otherwise coordinates decide when both
    sides have them (two addresses in one district can read alike kilometres apart), within
    :data:`ADDRESS_TOLERANCE_M` — and never a point nearer the location of another expected
    order (``others``, at another address) than this one's; without coordinates, the
    geocoder's address score decides. ``want`` is the :func:`reference_location`.
    """
    got_text, want_text = str(got.get("address") or ""), str(want.get("address") or "")
    if normalise(got_text) == normalise(want_text):
        return True, ""
    close = _metres(want, got)
    if close is not None:
        for other in others:
            if normalise(str(other.get("address") or "")) == normalise(want_text):
                continue
            nearer = _metres(other, got)
            if nearer is not None and nearer < close:
                return False, f" ({close:.0f} m away, {nearer:.0f} m from '{other.get('address')}')"
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


def order_units(order: Mapping[str, Any], task: VitaTask | None = None) -> list[GotLine]:
    """(product, quantity, chosen attribute key) of every line of a final-state order. With the
    ``task``, a chosen wording is read against the product's offered options as the tool reads
    it (an imported official state storing "Mild Spicy" for an offered "Mild Spicy (微辣)"
    reads as that option)."""
    out: list[GotLine] = []
    store = str(order.get("store_id") or "")
    for p in product_lines_of(order):
        try:
            qty = int(p.get("quantity") or 0)
        except (TypeError, ValueError):
            qty = 0
        pid = line_product(p)
        offered = offered_attributes(task, store, pid) if task is not None else []
        out.append((pid, qty, chosen_key(p.get("attributes", ""), offered)))
    return out


def only_option_as_none(
    task: VitaTask, order: Mapping[str, Any], rules: Sequence[tuple[str, int, AttributeRule]]
) -> list[GotLine]:
    """The order's units, where a product that offers exactly **one** option and whose expected
    line asks none counts that option as none: choosing the only option is no choice (official
    20715001: a cake offered only as "4-inch", the rubric asking "a 4-6 inch cake", the expected
    line asking nothing)."""
    store = str(order.get("store_id") or "")
    only: dict[str, TextKey] = {}
    for pid, _, rule in rules:
        offered = offered_attributes(task, store, pid)
        if rule.how == "none" and len(offered) == 1:
            only[pid] = chosen_key(offered[0])
    return [
        (pid, qty, () if only.get(pid) == key else key)
        for pid, qty, key in order_units(order, task)
    ]


_FIELDS = frozenset(FIELD_CLASSES)


def _quote(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _record_time(record: Mapping[str, Any]) -> bool:
    """Whether an expected record states a delivery or dispatch time."""
    return any(str(record.get(k) or "").strip() for k in ("delivery_time", "dispatch_time"))


def _agrees(stated: Stated, candidate: Candidate) -> bool:
    """Whether a candidate's expected record already meets a constraint (a time window, a
    party size)."""
    if stated.field == "party_size":
        return candidate.record.get("customer_count") == stated.count
    lines = candidate.record.get("products")
    days = (
        [parse_time(p.get("date")) for p in lines if isinstance(p, Mapping)]
        if isinstance(lines, list)
        else []
    )
    if stated.field == "date" and any(d is not None for d in days):
        return stated.window is not None and all(
            d is not None and stated.window.contains(d) for d in days
        )
    for key in ("delivery_time", "dispatch_time", "reservation_time", "book_time"):
        when = parse_time(candidate.record.get(key))
        if when is not None:
            return stated.window is not None and stated.window.contains(when)
    return False


def arrival_mismatch(order: Mapping[str, Any]) -> str | None:
    """Why a delivery order's arrival is not its dispatch plus its shipping time (the tools
    always store it so; a record that disagrees was not made by them)."""
    dispatch, arrival = (
        parse_time(order.get("dispatch_time")),
        parse_time(order.get("delivery_time")),
    )
    if dispatch is None or arrival is None:
        return None
    try:
        shipping = float(order["shipping_time"])
    except (KeyError, TypeError, ValueError):
        return None  # no shipping time to compare with (the tools always store one)
    if abs((arrival - dispatch).total_seconds() / 60.0 - shipping) > 1.0:
        return (
            f"delivery_time {order.get('delivery_time')} is not dispatch_time "
            f"{order.get('dispatch_time')} plus {shipping:g} min of shipping"
        )
    return None


def unexpected_fields(expected: Mapping[str, Any], order: Mapping[str, Any]) -> str | None:
    """Closed world for what a non-delivery requirement does not otherwise check: an order
    whose expected record has no note, address or times must have none either."""
    if is_blank(expected.get("note")) and not is_blank(order.get("note")):
        return f"note '{order.get('note')}' asks what the task does not ask (no note expected)"
    for key in ("dispatch_time", "delivery_time"):
        if not str(expected.get(key) or "").strip() and str(order.get(key) or "").strip():
            return f"{key} {order.get(key)} where the task expects none"
    want, got = expected.get("location"), order.get("location")
    want_address = want.get("address") if isinstance(want, Mapping) else None
    got_address = got.get("address") if isinstance(got, Mapping) else None
    if not want_address and got_address:
        return f"address '{got_address}' where the task expects none"
    return None


def stated_mismatch(
    stated: Sequence[Stated], record: Mapping[str, Any], now: datetime | None
) -> str | None:
    """Why a final order breaks one of the rubric constraints ``stated`` (None if none does).

    A delivery time or day must lie in the stated window; a window that ends before the
    earliest arrival the order allows (the clock plus its shipping time) means "as soon as
    possible": the arrival must then be within the time tolerance of that earliest one. A note
    with a stated wording must make its request.
    """
    for s in stated:
        if s.field in ("time", "date") and s.target == "delivery" and s.window is not None:
            got = parse_time(record.get("delivery_time"))
            if got is None:
                return f"no delivery_time, while the rubrics state {s.describe()}"
            try:
                shipping = float(record.get("shipping_time") or 0.0)
            except (TypeError, ValueError):
                shipping = 0.0
            earliest = now + timedelta(minutes=shipping) if now is not None else None
            if s.window.end is not None and earliest is not None and s.window.end < earliest:
                late = (got - earliest).total_seconds() / 60.0
                if late > AROUND_MIN:
                    return (
                        f"delivery_time {format_time(got)}: '{s.rubric}' cannot be met, so as "
                        f"soon as possible ({format_time(earliest)}) was due"
                    )
            elif not s.window.contains(got):
                return f"delivery_time {format_time(got)} not in {s.window} ('{s.rubric}')"
        if s.field == "note" and s.text and not same_text(str(record.get("note") or ""), s.text):
            return f"note '{record.get('note') or ''}' does not ask '{s.text}' ('{s.rubric}')"
    return None


class OrderMatcher:
    """Checks one new (or replacing) required order against one candidate; explains a mismatch."""

    def __init__(self, task: VitaTask) -> None:
        self.task = task
        self.now = parse_time(task.environment.get("time"))
        known = known_places(task)
        self.locations = [
            reference_location(loc, known)
            for r in expected_records(task)
            if r.get("order_type") == "delivery"
            and isinstance(loc := r.get("location"), Mapping)
            and loc.get("address")
        ]
        self.known = known

    def mismatch(self, req: RequiredOrder, order: Mapping[str, Any]) -> str | None:
        """Why ``order`` does not satisfy ``req`` (None when it does)."""
        r = req.record
        if order.get("order_type") != r.get("order_type"):
            return f"type {order.get('order_type')} ≠ {r.get('order_type')}"
        if order.get("store_id") != req.store_id:
            return f"store {order.get('store_id')} ≠ {req.store_id}"
        # a line that asks no attribute takes none (closed world: an option nobody asked is
        # as unrequested as a note); one the grader cannot map takes any (and is unchecked)
        rules = line_rules(self.task, req)
        want: list[WantLine] = [
            (pid, qty, () if rule.how == "none" else rule.key) for pid, qty, rule in rules
        ]
        if want:
            why = lines_mismatch(want, only_option_as_none(self.task, order, rules))
            if why is not None:
                return why
        if not status_satisfies(order.get("status"), req.status):
            return f"status {order.get('status')} does not satisfy {req.status}"
        note = str(r.get("note") or "")
        got_note = str(order.get("note") or "")
        if not is_blank(note):
            if not same_text(got_note, note):
                return f"note '{got_note}' does not ask '{note}'"
        elif not is_blank(got_note) and not any(s.field == "note" for s in req.stated):
            return f"note '{got_note}' asks what the task does not ask (no note expected)"
        user = self.task.environment.get("user_id")
        if user and order.get("user_id") not in (None, "", user):
            return f"user {order.get('user_id')} ≠ {user}"
        if r.get("order_type") != "delivery":
            return unexpected_fields(r, order)
        return (
            self._where_and_when(r, order, req.asap)
            or arrival_mismatch(order)
            or self.stated_mismatch(req, order)
        )

    def stated_mismatch(self, req: RequiredOrder, order: Mapping[str, Any]) -> str | None:
        """Why ``order`` breaks a constraint the rubrics state about ``req`` (None if none)."""
        return stated_mismatch(req.stated, order, self.now)

    def _where_and_when(
        self, r: Mapping[str, Any], order: Mapping[str, Any], asap: bool = False
    ) -> str | None:
        want_loc = r.get("location")
        if isinstance(want_loc, Mapping) and want_loc.get("address"):
            got_loc = order.get("location")
            got_loc = got_loc if isinstance(got_loc, Mapping) else {}
            want_loc = reference_location(want_loc, self.known)
            matched, where = same_address(got_loc, want_loc, self.locations)
            if not matched:
                return f"address '{got_loc.get('address', '')}' ≠ '{want_loc['address']}'{where}"
        try:
            shipping = float(order.get("shipping_time") or 0.0)
        except (TypeError, ValueError):
            shipping = 0.0
        wants = [(k, r.get(k)) for k in ("delivery_time", "dispatch_time")]
        if asap and self.now is not None:
            # Nothing states a time: any dispatch from the clock to the end of its day (an
            # agent may schedule "for dinner" when the instructions imply it; official
            # 40711003, 80715001) — never another day.
            got = parse_time(order.get("dispatch_time"))
            last = max(
                datetime.combine(self.now.date(), datetime.max.time()),
                self.now + timedelta(minutes=TIME_TOLERANCE_MIN),
            )
            if got is None or not (self.now - timedelta(minutes=TIME_TOLERANCE_MIN) <= got <= last):
                return (
                    f"dispatch_time {order.get('dispatch_time') or '(none)'} not between the "
                    f"clock {format_time(self.now)} and the end of its day (no time is stated)"
                )
            wants = []
        for key, want in wants:
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
    coverage: Mapping[str, Mapping[str, int]] | None = None,
) -> BasisResult:
    """A state result: reward 1 when every criterion holds; ungradable results score 0.

    When every checked criterion holds but the task states something the grader could not
    check (``unchecked``), the basis **cannot decide**: the result is ungradable (never a
    pass) and marked ``undecided`` — under a reward of several bases, the others decide. A
    criterion that fails decides the task (reward 0) whatever is unchecked.
    """
    met = sum(v.met for v in verdicts)
    total = len(verdicts)
    undecided = gradable and met == total and bool(unchecked)
    if undecided:
        gradable = False
        note = note or (
            f"cannot decide: every checked criterion holds, but {len(unchecked)} stated "
            "constraint(s) could not be checked"
        )
    ok = gradable and met == total
    info: dict[str, Any] = {}
    if coverage is not None:
        info["coverage"] = {k: dict(v) for k, v in sorted(coverage.items())}
    return BasisResult(
        basis=basis,
        reward=1.0 if ok else 0.0,
        score=met / total if total and gradable else 0.0,
        criteria=list(verdicts),
        gradable=gradable,
        unchecked=list(unchecked),
        undecided=undecided,
        note=note or ("" if gradable else "ungradable: no required record this grader can check"),
        info=info,
    )


Coverage = dict[str, Counter[str]]
"""Per field class: how many checks were made (``checked``) and left undone (``unchecked``)."""


def tally(coverage: Coverage, field: str, outcome: str, n: int = 1) -> None:
    """Count ``n`` checks of ``field`` with ``outcome`` (``checked`` or ``unchecked``)."""
    if n:
        coverage.setdefault(field, Counter())[outcome] += n


class OrderStateEvaluator:
    """The ``state`` basis for VitaBench order domains (delivery; in-store/OTA reuse it)."""

    basis = "state"

    report_unowned: bool = True
    """Whether :meth:`unchecked` reports what the rubrics state that no grader of the task reads
    (:func:`unowned_notes`, :func:`foreign_stated`); the cross-scenario grader, which runs three
    of these on one task, turns it off on each and reports it once itself."""

    def __init__(self, order_types: frozenset[str] = frozenset({"delivery"})) -> None:
        self._types = order_types

    def required(self, task: VitaTask) -> list[RequiredOrder]:
        """The distinct required orders to grade (a domain may normalise them by overriding)."""
        return required_orders(task, self._types)

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Grade ``simulation`` of ``task`` against its expected states."""
        return self.grade(task, simulation)

    #: The kind of record the rubric constraints this evaluator checks are about.
    targets: frozenset[Target] = frozenset({"delivery"})

    def grade(self, task: VitaTask, simulation: Simulation) -> BasisResult:
        """Synchronous core of :meth:`evaluate`."""
        reqs, unchecked, coverage, _ = self.prepare(task)
        if not reqs:
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
        return result(
            self.basis,
            self.order_criteria(task, reqs, final),
            gradable=True,
            unchecked=unchecked,
            coverage=coverage,
        )

    def prepare(
        self, task: VitaTask
    ) -> tuple[list[RequiredOrder], list[str], Coverage, Attribution]:
        """The requirements with the rubric constraints attributed to them, what the task
        states that cannot be checked (each line prefixed with its field class), the coverage
        per field class, and the attribution itself (a domain with other records reads its
        constraints there)."""
        reqs = self.required(task)
        coverage: Coverage = {}
        attribution = self.attribution(task, reqs)
        unchecked: list[str] = []
        out: list[RequiredOrder] = []
        for i, req in enumerate(reqs):
            stated = []
            for s in attribution.of(i):
                if s.field == "note" and not is_blank(req.record.get("note")):
                    continue  # the expected record's note governs (and is checked)
                if s.field == "note" and not s.text:
                    # kept (a note is asked, so one is no unrequested note), but not checkable
                    unchecked.append(
                        f"note: '{_quote(s.rubric)}' asks a note on order {req.order_id} without "
                        "its wording, and the expected record has none"
                    )
                # a delivery stated weeks after the clock on a record without a time of its
                # own is a slip of the date (with one, the record says it is meant)
                stated.append(s if _record_time(req.record) else to_clock(s, clock_of(task)))
            timed = any(s.field in ("time", "date") for s in stated) or _record_time(req.record)
            untimed_stated = any(s.field in ("time", "date") for s in attribution.unattributed)
            asap = (
                not req.existing
                and req.record.get("order_type") == "delivery"
                and status_class(req.status) != "cancelled"
                and not timed
                and not untimed_stated
            )
            out.append(replace(req, stated=tuple(stated), asap=asap))
        unchecked[:0] = self.unchecked(task, out)
        for s in attribution.unattributed:
            if s.field == "note" and not s.text:
                live = [r for r in out if status_class(r.status) != "cancelled"]
                if live and all(not is_blank(r.record.get("note")) for r in live):
                    tally(coverage, "note", "checked")  # whichever it is, its note is checked
                    continue
            unchecked.append(
                f"{s.field}: '{_quote(s.rubric)}' states {s.describe()}, but no single required "
                "record could be found it is about"
            )
        self.count(task, out, unchecked, coverage)
        return out, unchecked, coverage, attribution

    def attribution(self, task: VitaTask, reqs: Sequence[RequiredOrder]) -> Attribution:
        """The rubric constraints about this evaluator's records, attributed to ``reqs``."""
        return attribute_all(
            task,
            self.candidates(task, reqs),
            self.targets,
            notes=self.owns_notes(task)
            and any(status_class(r.status) != "cancelled" for r in reqs),
            agrees=_agrees,
        )

    def candidates(self, task: VitaTask, reqs: Sequence[RequiredOrder]) -> list[Candidate]:
        """The records a rubric constraint may be about (key: the requirement's position; a new
        order that reuses a pre-existing order's id does not go by that id)."""
        initial: Mapping[str, Any] = task.environment.get("orders") or {}
        return [
            Candidate(
                key=i,
                target="delivery" if r.record.get("order_type") == "delivery" else "booking",
                ids=(r.target,) if r.target else (() if r.order_id in initial else (r.order_id,)),
                names=record_names(task, r.record, r.store_id),
                record=r.record,
            )
            for i, r in enumerate(reqs)
            if status_class(r.status) != "cancelled"
        ]

    def owns_notes(self, task: VitaTask) -> bool:
        """Whether this evaluator checks the notes the rubrics ask (delivery orders)."""
        return "delivery" in self._types

    def count(
        self,
        task: VitaTask,
        reqs: Sequence[RequiredOrder],
        unchecked: Sequence[str],
        coverage: Coverage,
    ) -> None:
        """Fill ``coverage``: the checks each requirement makes, and the unchecked lines."""
        initial: Mapping[str, Any] = task.environment.get("orders") or {}
        for req in reqs:
            r = req.record
            tally(coverage, "status", "checked")
            if not req.existing:
                tally(coverage, "store", "checked")
                tally(coverage, "products", "checked", len(req.product_lines()))
                tally(coverage, "note", "checked")
            elif "note" in self.owned_fields(req):
                tally(coverage, "note", "checked")
            if r.get("order_type") == "delivery" and not req.existing:
                rules = line_rules(task, req)
                tally(coverage, "attribute", "checked", sum(rule.checked for _, _, rule in rules))
                if isinstance(r.get("location"), Mapping) and r["location"].get("address"):
                    tally(coverage, "address", "checked")
                if _record_time(r) or req.asap:
                    tally(coverage, "time", "checked")
            for s in req.stated:
                if s.field != "note" or s.text:
                    tally(coverage, s.field, "checked")
        tally(
            coverage,
            "unrequested",
            "checked",
            sum(
                1
                for o in initial.values()
                if isinstance(o, Mapping) and o.get("order_type") in self._types
            ),
        )
        for line in unchecked:
            field = line.split(":", 1)[0]
            tally(coverage, field if field in _FIELDS else "products", "unchecked")

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
        """What the records of these requirements ask that the grader cannot check (each line
        starts with its field class), and the notes the rubrics ask that no grader of the task
        takes and the rubrics about kinds of records it does not read (:func:`unowned_notes`,
        :func:`foreign_stated`, unless :attr:`report_unowned` is off)."""
        out: list[str] = (
            unowned_notes(task) + foreign_stated(task, self.targets) if self.report_unowned else []
        )
        for req in reqs:
            if req.existing:  # graded on its status and note: its lines are not read
                continue
            for pid, _, rule in line_rules(task, req):
                if rule.expected.strip() and not rule.checked:
                    offered = "; ".join(rule.offered)
                    out.append(
                        f"attribute: '{rule.expected}' of {pid} in order {req.order_id}: no "
                        f"offered option has that meaning (offered: {offered})"
                    )
            bare = [
                p
                for p in req.record.get("products") or []
                if not line_product(p) and not is_order_record(p)
            ]
            if bare:
                out.append(
                    f"products: order {req.order_id}: {len(bare)} product line(s) without an id"
                )
            loc = req.record.get("location")
            if (
                not req.existing
                and req.record.get("order_type") == "delivery"
                and status_class(req.status) != "cancelled"
                and not (isinstance(loc, Mapping) and loc.get("address"))
            ):
                out.append(f"address: new order {req.order_id} has no expected delivery address")
        return out

    def owned_fields(self, req: RequiredOrder) -> frozenset[str]:
        """Fields of the pre-existing order ``req`` is about that the requirement checks (so
        the episode may change them)."""
        if req.kind == "replaced":
            return frozenset({"status"})
        return frozenset({"status", "note"})

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
        why = stated_mismatch(req.stated, order, None)
        if why is not None:
            return CriterionVerdict(id=cid, description=desc, met=False, evidence=why)
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
        """The closed world: no unrequested cancellation of a pre-existing order, no other
        unrequested change to one (any compared field, :mod:`~lifebench.vita.grading.world`), no
        extra live order."""
        owned: dict[str, set[str]] = {}
        for r in reqs:
            if r.target:
                owned.setdefault(r.target, set()).update(self.owned_fields(r))
        wrongly_cancelled: list[str] = []
        changed: list[str] = []
        for oid, before in sorted(initial.items()):
            if not isinstance(before, Mapping) or before.get("order_type") not in self._types:
                continue
            after = final.get(oid)
            fields = changed_fields("orders", before, after if isinstance(after, Mapping) else None)
            allowed = owned.get(oid, set())
            if (
                oid not in owned
                and status_class(before.get("status")) != "cancelled"
                and isinstance(after, Mapping)
                and status_class(after.get("status")) == "cancelled"
            ):
                wrongly_cancelled.append(oid)
                fields = [f for f in fields if f != "status"]
            extra_fields = [f for f in fields if f not in allowed]
            if extra_fields:
                changed.append(f"{oid}: {', '.join(extra_fields)}")
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
                id="no_unrequested_changes",
                description="No other field of a pre-existing order changed than the task asks "
                "(note, address, times, status, lines, …)",
                met=not changed,
                evidence="; ".join(changed) or "none changed",
            ),
            CriterionVerdict(
                id="no_extra_orders",
                description="No live order beyond those the task requires was created",
                met=not extra,
                evidence=", ".join(extra) or "none",
            ),
        ]


def unowned_notes(task: VitaTask) -> list[str]:
    """One unchecked line per rubric that asks a note, when no grader of ``task`` takes notes.

    Notes the rubrics ask are attributed by the delivery grader, or by the in-store grader in a
    task without delivery orders (:meth:`OrderStateEvaluator.owns_notes`), and each does so only
    with a live requirement of its own (:meth:`OrderStateEvaluator.attribution`). Without one
    (an OTA-only task, an in-store task with only appointments, a delivery task whose orders are
    all to be cancelled) such a rubric would be neither checked nor reported: it is unchecked,
    and the state basis cannot decide the task."""
    from lifebench.vita.grading.constraints import parse_rubric
    from lifebench.vita.grading.instore import instore_state_evaluator

    for owner in (delivery_state_evaluator(), instore_state_evaluator()):
        if owner.owns_notes(task) and any(
            status_class(r.status) != "cancelled" for r in owner.required(task)
        ):
            return []
    when = clock_of(task)
    return [
        f"note: '{_quote(rubric)}' asks a note, but no record of the task takes one: the state "
        "basis cannot check it"
        for rubric in rubrics_of(task)
        if any(s.field == "note" for s in parse_rubric(rubric, when, frozenset()))
    ]


def foreign_stated(task: VitaTask, targets: frozenset[Target]) -> list[str]:
    """One unchecked line per rubric that states something only about kinds of records the
    graders of ``task`` do not read (``targets``: the kinds they read).

    Each grader reads the constraints of its own kinds of records (delivery orders,
    appointments, bookings); a rubric stating a time, a day or a party size only about another
    kind ("deliver the food by 18:30" in an OTA-only task, "a table for 4 at 19:00" in a
    delivery task) would be neither checked nor reported: it is unchecked, and the state basis
    cannot decide the task. A rubric from which the grader reads something of its own kinds is
    its own (the other clauses are context: "departing at 17:00, so the reservation is at
    17:20"); notes have their own rule (:func:`unowned_notes`)."""
    from lifebench.vita.grading.constraints import parse_rubric

    when = clock_of(task)
    out: list[str] = []
    for rubric in rubrics_of(task):
        if any(s.field != "note" for s in parse_rubric(rubric, when, targets)):
            continue
        foreign = [
            s
            for s in parse_rubric(rubric, when, ALL_TARGETS)
            if s.field != "note" and s.target not in targets
        ]
        if foreign:
            kinds = ", ".join(sorted({s.target for s in foreign}))
            out.append(
                f"{foreign[0].field}: '{_quote(rubric)}' states "
                f"{'; '.join(s.describe() for s in foreign)}, about records of a kind ({kinds}) "
                "this task's grader does not read: the state basis cannot check it"
            )
    return out


def delivery_state_evaluator() -> OrderStateEvaluator:
    """The ``state`` evaluator of the delivery domain."""
    return OrderStateEvaluator(frozenset({"delivery"}))
