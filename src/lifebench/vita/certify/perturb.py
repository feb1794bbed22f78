"""Near-miss plans: the oracle plan with exactly one thing wrong.

The building blocks of certify's generator (vita/certify/generate.py, which applies them call by
call and adds what a task's own records and rubrics call for). Each perturbation takes the oracle
plan of a task and returns a new plan that differs in one respect — a quantity, an attribute,
the store, the address, a note, the party size, the date, one order too many — or ``None`` when
the task gives that respect nothing to get wrong (no attribute chosen, no second store). The changed calls are valid calls (they name real products, stores, dates and
addresses), so a near miss that the tools accept produces a final state that differs from the
expected one in that respect only; a state grader that accepts it has a bug.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from datetime import timedelta
from typing import Any

from lifebench.vita.agents.plan import PlannedCall
from lifebench.vita.domains._geo import haversine_m
from lifebench.vita.domains._ota_tables import KINDS, OTAKind
from lifebench.vita.grading.expected import line_product, required_orders
from lifebench.vita.grading.instore import required_appointments
from lifebench.vita.grading.options import chosen_key
from lifebench.vita.grading.state import ADDRESS_TOLERANCE_M, known_places, reference_location
from lifebench.vita.grading.text import is_blank, negated, normalise, text_key
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import format_time, parse_time

Plan = list[PlannedCall]

_CREATE_OTA = {f"create_{t}_order": KINDS[t] for t in KINDS}
_APPOINTMENT_CREATE = ("instore_book", "instore_reservation")
_APPOINTMENT_TOOLS = (*_APPOINTMENT_CREATE, "instore_modify_reservation")
_CANCEL_TOOL = {
    "delivery": "cancel_delivery_order",
    "instore": "instore_cancel_order",
    **{t: f"cancel_{t}_order" for t in KINDS},
}
_ID_ARGS = ("order_id", "book_id", "reservation_id")
#: Minimum distance of a wrong address from the expected one (well beyond the tolerance).
_FAR_M = 3 * ADDRESS_TOLERANCE_M


@dataclass
class PlanContext:
    """A task, its oracle plan and read access to its raw tables."""

    task: VitaTask
    plan: Sequence[PlannedCall]
    language: str = "en"
    _wanted: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._wanted = {
            line_product(p)
            for _, record in _records(self.task)
            for p in record.get("products") or []
            if isinstance(p, Mapping)
        }

    @property
    def env(self) -> Mapping[str, Any]:
        """The task environment."""
        return self.task.environment

    @property
    def user_id(self) -> str:
        """The task's user."""
        return str(self.env.get("user_id", ""))

    def table(self, name: str) -> Mapping[str, Any]:
        """A raw environment table (empty when absent)."""
        value = self.env.get(name)
        return value if isinstance(value, Mapping) else {}

    def products(self, table: str, provider: str) -> list[Mapping[str, Any]]:
        """The raw products of one provider."""
        record = self.table(table).get(provider)
        items = record.get("products") if isinstance(record, Mapping) else None
        return [p for p in items or [] if isinstance(p, Mapping)]

    def wanted(self, product_id: str) -> bool:
        """Whether an expected record names ``product_id``."""
        return product_id in self._wanted

    def today(self) -> Date:
        """The task clock's date."""
        now = parse_time(self.env.get("time"))
        return now.date() if now is not None else Date.min

    def geocode(self, address: str) -> tuple[float, float]:
        """(longitude, latitude) the delivery tools give ``address`` (ValueError if none)."""
        from lifebench.tools import ToolError
        from lifebench.vita.domains.delivery import DeliveryEnvironment

        try:
            found = DeliveryEnvironment(self.task).resolve_address(address)
        except ToolError as exc:
            raise ValueError(str(exc)) from None
        return found.longitude, found.latitude

    def calls(self, names: Sequence[str]) -> Iterator[tuple[int, PlannedCall]]:
        """(index, call) of every plan call with one of ``names``."""
        return ((i, c) for i, c in enumerate(self.plan) if c.name in names)

    def with_call(self, index: int, call: PlannedCall) -> Plan:
        """The plan with call ``index`` replaced."""
        out = list(self.plan)
        out[index] = call
        return out

    def without(self, index: int) -> Plan:
        """The plan without call ``index``."""
        return [c for i, c in enumerate(self.plan) if i != index]


def _records(task: VitaTask) -> Iterator[tuple[int, Mapping[str, Any]]]:
    criteria = task.evaluation_criteria
    for i, state in enumerate(criteria.expected_states if criteria else []):
        for record in state.required_orders:
            if isinstance(record, Mapping):
                yield i, record


def _call(call: PlannedCall, **changes: Any) -> PlannedCall:
    return PlannedCall(call.name, {**call.args, **changes}, call.fill)


def _shift(text: Any, delta: timedelta) -> str | None:
    when = parse_time(text)
    return None if when is None else format_time(when + delta)


# ---- quantity, attribute, product, store --------------------------------------------------------


def quantity(ctx: PlanContext) -> Plan | None:
    """One more (or, from 2 on, one fewer) of the first ordered line."""
    for i, call in enumerate(ctx.plan):
        if call.name == "create_delivery_order":
            counts = list(call.args.get("product_cnts") or [])
            if counts:
                counts[0] = counts[0] - 1 if counts[0] > 1 else counts[0] + 1
                return ctx.with_call(i, _call(call, product_cnts=counts))
        if call.name == "create_instore_product_order" or (
            call.name in _CREATE_OTA and "quantity" in call.args
        ):
            qty = int(call.args.get("quantity") or 1)
            if qty == 1 and not _stock_allows(ctx, call, 2):
                continue
            return ctx.with_call(i, _call(call, quantity=qty - 1 if qty > 1 else 2))
    return None


def _stock_allows(ctx: PlanContext, call: PlannedCall, qty: int) -> bool:
    if call.name == "create_instore_product_order":
        items = ctx.products("shops", str(call.args.get("shop_id")))
        product = next((p for p in items if p.get("product_id") == call.args.get("product_id")), {})
        return int(product.get("quantity") or 0) >= qty
    kind = _CREATE_OTA[call.name]
    items = ctx.products(kind.table, str(call.args.get(kind.provider_field)))
    return any(
        p.get("product_id") == call.args.get(kind.product_param)
        and p.get("date") == call.args.get("date")
        and int(p.get("quantity") or 0) >= qty
        for p in items
    )


def attribute(ctx: PlanContext) -> Plan | None:
    """Another offered option (or, for free text, the opposite) on the first chosen attribute."""
    for i, call in ctx.calls(["create_delivery_order"]):
        attrs = list(call.args.get("attributes") or [])
        pids = list(call.args.get("product_ids") or [])
        for j, chosen in enumerate(attrs):
            if is_blank(chosen) or j >= len(pids):
                continue
            items = ctx.products("stores", str(call.args.get("store_id")))
            product = next((p for p in items if p.get("product_id") == pids[j]), {})
            offered = [str(a) for a in product.get("attributes") or []]
            if offered:
                other = next((o for o in offered if text_key(o) != chosen_key(chosen)), None)
                if other is None:
                    continue
                attrs[j] = other
            else:
                attrs[j] = negated(str(chosen), ctx.language)
            return ctx.with_call(i, _call(call, attributes=attrs))
    return None


def product(ctx: PlanContext) -> Plan | None:
    """The first ordered product swapped for another product of the same store."""
    for i, call in enumerate(ctx.plan):
        if call.name == "create_delivery_order":
            pids = list(call.args.get("product_ids") or [])
            other = _other_product(ctx, "stores", str(call.args.get("store_id")), set(pids))
            if pids and other is not None:
                pids[0] = other
                attrs = list(call.args.get("attributes") or [""] * len(pids))
                attrs[0] = ""
                return ctx.with_call(i, _call(call, product_ids=pids, attributes=attrs))
        if call.name == "create_instore_product_order":
            qty = int(call.args.get("quantity") or 1)
            shop = str(call.args.get("shop_id"))
            other = _other_product(ctx, "shops", shop, {str(call.args.get("product_id"))}, qty)
            if other is not None:
                return ctx.with_call(i, _call(call, product_id=other))
    return None


def _other_product(
    ctx: PlanContext, table: str, provider: str, avoid: set[str], stock: int | None = None
) -> str | None:
    for p in ctx.products(table, provider):
        pid = str(p.get("product_id"))
        if pid in avoid or ctx.wanted(pid):
            continue
        if stock is not None and int(p.get("quantity") or 0) < stock:
            continue
        return pid
    return None


def store(ctx: PlanContext) -> Plan | None:
    """The first delivery / in-store order placed at another store of the task."""
    for i, call in enumerate(ctx.plan):
        if call.name == "create_delivery_order":
            here = str(call.args.get("store_id"))
            names = _names(ctx, "stores", here, list(call.args.get("product_ids") or []))
            for sid in ctx.table("stores"):
                if sid == here:
                    continue
                pids = _same_names(ctx, "stores", str(sid), names, None)
                if pids is not None:
                    return ctx.with_call(
                        i,
                        _call(call, store_id=sid, product_ids=pids, attributes=[""] * len(pids)),
                    )
        if call.name == "create_instore_product_order":
            here = str(call.args.get("shop_id"))
            qty = int(call.args.get("quantity") or 1)
            names = _names(ctx, "shops", here, [str(call.args.get("product_id"))])
            for sid in ctx.table("shops"):
                if sid == here:
                    continue
                pids = _same_names(ctx, "shops", str(sid), names, qty)
                if pids is not None:
                    return ctx.with_call(i, _call(call, shop_id=sid, product_id=pids[0]))
    return None


def _names(ctx: PlanContext, table: str, provider: str, pids: Sequence[str]) -> list[str]:
    items = {
        str(p.get("product_id")): str(p.get("name") or "") for p in ctx.products(table, provider)
    }
    return [items.get(pid, "") for pid in pids]


def _same_names(
    ctx: PlanContext, table: str, provider: str, names: Sequence[str], stock: int | None
) -> list[str] | None:
    """Products of ``provider`` standing in for ``names``: same name where it has one, else any
    in-stock product (distinct, in catalog order); None when it has too few."""
    items = [
        p
        for p in ctx.products(table, provider)
        if stock is None or int(p.get("quantity") or 0) >= stock
    ]
    chosen: list[str] = []
    for name in names:
        same = next(
            (
                str(p.get("product_id"))
                for p in items
                if p.get("name") == name and str(p.get("product_id")) not in chosen
            ),
            None,
        )
        any_other = next(
            (
                str(p.get("product_id"))
                for p in items
                if str(p.get("product_id")) not in chosen
                and not ctx.wanted(str(p.get("product_id")))
            ),
            None,
        )
        pick = same or any_other
        if pick is None:
            return None
        chosen.append(pick)
    return chosen or None


# ---- payment, time, address, note ---------------------------------------------------------------


def _delivery_requirements(ctx: PlanContext) -> list[Mapping[str, Any]]:
    return [r.record for r in required_orders(ctx.task, frozenset({"delivery"})) if not r.existing]


def _requirement_of(ctx: PlanContext, call: PlannedCall) -> Mapping[str, Any] | None:
    """The expected new delivery record a create call makes (same store and products)."""
    pids = sorted(str(p) for p in call.args.get("product_ids") or [])
    for record in _delivery_requirements(ctx):
        lines = sorted(
            line_product(p) for p in record.get("products") or [] if isinstance(p, Mapping)
        )
        lines = [pid for pid in lines if pid]
        if record.get("store_id") == call.args.get("store_id") and lines == pids:
            return record
    return None


def _appointment_shift(ctx: PlanContext, delta: timedelta) -> Plan | None:
    checked = {(a.shop_id, a.when) for a in required_appointments(ctx.task) if a.when is not None}
    for i, call in ctx.calls(_APPOINTMENT_TOOLS):
        when = parse_time(call.args.get("time"))
        shop = call.args.get("shop_id")
        if call.name == "instore_modify_reservation":
            rid = str(call.args.get("reservation_id"))
            shop = next(
                (a.shop_id for a in required_appointments(ctx.task) if a.record_id == rid), None
            )
        if when is None or not any(s == shop and w == when for s, w in checked):
            continue
        later = _shift(call.args.get("time"), delta)
        return ctx.with_call(i, _call(call, time=later))
    return None


def address(ctx: PlanContext) -> Plan | None:
    """The first delivery sent to another known address, far from the expected one."""
    places = [
        loc
        for loc in ctx.env.get("location") or []
        if isinstance(loc, Mapping) and loc.get("address")
    ]
    places += [
        s["location"]
        for s in ctx.table("stores").values()
        if isinstance(s, Mapping) and isinstance(s.get("location"), Mapping)
    ]
    known = known_places(ctx.task)
    for i, call in ctx.calls(["create_delivery_order"]):
        record = _requirement_of(ctx, call)
        want = record.get("location") if record is not None else None
        if not isinstance(want, Mapping) or not want.get("address"):
            continue
        # far from the point that stands for the expected address (its known place when the
        # record's own coordinates drift: J0717003), and never the expected text itself
        want = reference_location(want, known)
        for place in places:
            text = str(place["address"])
            if normalise(text) == normalise(str(want["address"])):
                continue
            where = ctx.geocode(text)  # where the tool will put the order, not the data's point
            try:
                metres = haversine_m(
                    where[0], where[1], float(want["longitude"]), float(want["latitude"])
                )
            except (TypeError, ValueError, KeyError):
                continue
            if metres > _FAR_M:
                return ctx.with_call(i, _call(call, address=text))
    return None


def note_omitted(ctx: PlanContext) -> Plan | None:
    """A required note left out: of a new order, or of a note change of an existing one."""
    for i, call in enumerate(ctx.plan):
        if call.name == "create_delivery_order" and not is_blank(call.args.get("note")):
            args = {k: v for k, v in call.args.items() if k != "note"}
            return ctx.with_call(i, PlannedCall(call.name, args, call.fill))
        if call.name == "modify_delivery_order" and not is_blank(call.args.get("note")):
            return ctx.without(i)
    return None


def note_negated(ctx: PlanContext) -> Plan | None:
    """A required note written with the opposite meaning ("No green onions" → "green onions")."""
    for i, call in ctx.calls(["create_delivery_order", "modify_delivery_order"]):
        note = call.args.get("note")
        if not is_blank(note):
            return ctx.with_call(i, _call(call, note=negated(str(note), ctx.language)))
    return None


# ---- extra records, cancellations, skipped changes ------------------------------------------------


def extra_order(ctx: PlanContext) -> Plan | None:
    """One more live order than the task asks for (a product no expected record names)."""
    for call in ctx.plan:
        if call.name == "create_delivery_order":
            store_id = str(call.args.get("store_id"))
            pid = _other_product(ctx, "stores", store_id, set())
            if pid is not None:
                extra = _call(call, product_ids=[pid], product_cnts=[1], attributes=[""])
                args = {k: v for k, v in extra.args.items() if k != "note"}
                args["address"] = _known_address(ctx, str(args.get("address", "")))
                return [*ctx.plan, PlannedCall(extra.name, args)]
        if call.name == "create_instore_product_order":
            pid = _other_product(ctx, "shops", str(call.args.get("shop_id")), set(), 1)
            if pid is not None:
                return [*ctx.plan, _call(call, product_id=pid, quantity=1)]
        if call.name in _APPOINTMENT_CREATE:
            later = _shift(call.args.get("time"), timedelta(days=1))
            return [*ctx.plan, _call(call, time=later)]
        if call.name in _CREATE_OTA:
            booked = _ota_other(ctx, _CREATE_OTA[call.name], call, same_provider=True, dated=True)
            if booked is not None:
                return [*ctx.plan, booked]
    return _extra_from_tables(ctx)


def _known_address(ctx: PlanContext, address: str) -> str:
    """``address`` when the delivery tools resolve it, else the user's first known place."""
    try:
        ctx.geocode(address)
    except ValueError:
        places = [loc for loc in ctx.env.get("location") or [] if isinstance(loc, Mapping)]
        return str(places[0].get("address", "")) if places else address
    return address


def _extra_from_tables(ctx: PlanContext) -> Plan | None:
    """An extra order for a plan without creations, from the task's own tables."""
    places = [loc for loc in ctx.env.get("location") or [] if isinstance(loc, Mapping)]
    for sid in ctx.table("stores"):
        pid = _other_product(ctx, "stores", str(sid), set())
        if pid is not None and places:
            args: dict[str, Any] = {
                "user_id": ctx.user_id,
                "store_id": sid,
                "product_ids": [pid],
                "product_cnts": [1],
                "address": str(places[0].get("address", "")),
                "dispatch_time": str(ctx.env.get("time", "")),
                "attributes": [""],
            }
            return [*ctx.plan, PlannedCall("create_delivery_order", args)]
    for sid in ctx.table("shops"):
        pid = _other_product(ctx, "shops", str(sid), set(), 1)
        if pid is not None:
            shop_args = {"user_id": ctx.user_id, "shop_id": sid, "product_id": pid, "quantity": 1}
            return [*ctx.plan, PlannedCall("create_instore_product_order", shop_args)]
    for kind in KINDS.values():
        for pid_provider in ctx.table(kind.table):
            for p in ctx.products(kind.table, str(pid_provider)):
                if ctx.wanted(str(p.get("product_id"))) or not _bookable(ctx, p, 1):
                    continue
                return [*ctx.plan, _ota_create(ctx, kind, str(pid_provider), p, 1)]
    return None


def _ids(call: PlannedCall) -> set[str]:
    return {str(call.args.get(k)) for k in _ID_ARGS if call.args.get(k)}


# ---- appointments ----------------------------------------------------------------------------------


def party_size(ctx: PlanContext) -> Plan | None:
    """One more person on the first booking / reservation (or party-size change)."""
    for i, call in ctx.calls(_APPOINTMENT_TOOLS):
        count = call.args.get("customer_count")
        if isinstance(count, int):
            return ctx.with_call(i, _call(call, customer_count=count + 1))
    return None


def date(ctx: PlanContext) -> Plan | None:
    """Another day: an appointment a day later, or an OTA booking / date change on another date."""
    shifted = _appointment_shift(ctx, timedelta(days=1))
    if shifted is not None:
        return shifted
    for i, call in enumerate(ctx.plan):
        if call.name in _CREATE_OTA:
            other = _ota_other(ctx, _CREATE_OTA[call.name], call, same_provider=True, dated=False)
            if other is not None:
                return ctx.with_call(i, other)
        if call.name in ("modify_flight_order", "modify_train_order"):
            new = _other_modify_date(ctx, call)
            if new is not None:
                return _redate(ctx, i, call, *new)
    return None


def _redate(ctx: PlanContext, index: int, call: PlannedCall, day: str, due: bool) -> Plan:
    """The date change at ``index`` to ``day``, paying afterwards only when more is due."""
    oid = str(call.args.get("order_id"))
    order_type = call.name.removeprefix("modify_").removesuffix("_order")
    out: Plan = []
    for j, c in enumerate(ctx.plan):
        if j == index:
            out.append(_call(call, new_date=day))
            if due:
                out.append(PlannedCall(f"pay_{order_type}_order", {"order_id": oid}))
        elif not (j > index and c.name.startswith("pay_") and oid in _ids(c)):
            out.append(c)
    return out


# ---- OTA providers ---------------------------------------------------------------------------------


def _bookable(ctx: PlanContext, p: Mapping[str, Any], qty: int) -> bool:
    try:
        day = Date.fromisoformat(str(p.get("date")))
    except ValueError:
        return False
    return day >= ctx.today() and int(p.get("quantity") or 0) >= qty


def _ota_create(
    ctx: PlanContext, kind: OTAKind, provider: str, p: Mapping[str, Any], qty: int
) -> PlannedCall:
    if kind.order_type == "hotel":
        args: dict[str, Any] = {
            "hotel_id": provider,
            "room_id": str(p.get("product_id")),
            "user_id": ctx.user_id,
        }
    else:
        args = {
            kind.provider_field: provider,
            kind.product_param: str(p.get("product_id")),
            "user_id": ctx.user_id,
            "date": str(p.get("date")),
            "quantity": qty,
        }
    return PlannedCall(f"create_{kind.order_type}_order", args)


def _booked(ctx: PlanContext, kind: OTAKind, call: PlannedCall) -> Mapping[str, Any]:
    provider = str(call.args.get(kind.provider_field))
    pid = call.args.get(kind.product_param)
    day = call.args.get("date")
    for p in ctx.products(kind.table, provider):
        if p.get("product_id") == pid and (day is None or p.get("date") == day):
            return p
    return {}


def _ota_other(
    ctx: PlanContext, kind: OTAKind, call: PlannedCall, *, same_provider: bool, dated: bool
) -> PlannedCall | None:
    """A valid create call differing from ``call`` in provider (``same_provider=False``), in
    product on the same date (``dated=True``), or in date for the same variant."""
    booked = _booked(ctx, kind, call)
    provider = str(call.args.get(kind.provider_field))
    qty = int(call.args.get("quantity") or 1)
    day, variant = booked.get("date"), booked.get(kind.variant_field)
    providers = (
        [provider] if same_provider else [str(k) for k in ctx.table(kind.table) if k != provider]
    )
    for pv in providers:
        for p in ctx.products(kind.table, pv):
            if not _bookable(ctx, p, qty) or p is booked:
                continue
            if ctx.wanted(str(p.get("product_id"))) and p.get("date") == day:
                continue
            if (
                same_provider
                and dated
                and (p.get("date") != day or p.get("product_id") == booked.get("product_id"))
            ):
                continue
            if (
                same_provider
                and not dated
                and (p.get("date") == day or p.get(kind.variant_field) != variant)
            ):
                continue
            if not same_provider and day and p.get("date") != day:
                continue
            return _ota_create(ctx, kind, pv, p, qty)
    return None


def _other_modify_date(ctx: PlanContext, call: PlannedCall) -> tuple[str, bool] | None:
    """Another bookable date of the booked seat type, and whether moving there costs more than
    what was paid."""
    order = ctx.table("orders").get(str(call.args.get("order_id")))
    if not isinstance(order, Mapping):
        return None
    kind = KINDS.get(str(order.get("order_type")))
    lines = [p for p in order.get("products") or [] if isinstance(p, Mapping)]
    if kind is None or not lines:
        return None
    old_pid, old_day = line_product(lines[0]), lines[0].get("date")
    items = ctx.products(kind.table, str(order.get("store_id")))
    old = next(
        (p for p in items if p.get("product_id") == old_pid and p.get("date") == old_day), {}
    )
    variant = old.get(kind.variant_field)
    qty = int(lines[0].get("quantity") or 1)
    # the tools move only paid orders (domains/ota.py), so what was paid is the order's total
    paid = float(order.get("total_price") or 0)
    for p in items:
        if (
            p.get(kind.variant_field) == variant
            and p.get("date") not in (old_day, call.args.get("new_date"))
            and _bookable(ctx, p, qty)
        ):
            return str(p.get("date")), float(p.get("price") or 0) * qty > paid + 0.005
    return None
