"""Reading ``expected_states`` into required records, with status classes.

The rules, shared by every domain (docs/evaluation.md, "Reading the expected states"):

* **Nested orders.** An order record found inside another record's ``products`` list (a data
  defect) is recovered as a required order of its own, right after the record that held it.
* **Distinct records.** Expected states are checkpoints of one final world: their records are
  united, and records with the same graded content (id, type, store, status, note, address,
  times, lines) count once.
* **What a record is about** (its *kind*), against the initial database:

  - ``existing``: the initial database has the id with the same store and lines → graded on
    that order's final state. An expected ``cancelled`` record whose id is unknown (or names
    other content) but whose store and lines are those of a live pre-existing order is about
    that order too (the data sometimes files the cancellation of an order under a new id).
    When several states expect different things of one pre-existing order, the latest wins.
  - ``replaced``: the initial database has the id, but with another store or other lines → the
    task replaces that order: the old one must end cancelled and an order with the expected
    content must be created (no tool edits an order's products).
  - ``new``: anything else → an order created during the episode.

* **Re-attribution** (the data-error rule): a new order filed under a store that does not sell
  its products is attributed to the one store of the same table that sells them all; with no
  such store, or several, it stays as written (and ``tasks validate`` reports it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lifebench.vita.grading.constraints import Stated
from lifebench.vita.task import VitaTask

StatusClass = Literal["unpaid", "paid", "cancelled"]
OrderKind = Literal["existing", "replaced", "new"]

#: Every status that means "the order went through payment" (pre-existing data uses the
#: fulfilment stages processed / in-progress / delivered; tools only ever produce ``paid``).
_PAID_LIKE = frozenset({"paid", "processed", "in-progress", "delivered", "consumed", "unconsumed"})

#: Order type → the environment table of its providers.
PROVIDER_TABLES: Mapping[str, str] = {
    "delivery": "stores",
    "instore": "shops",
    "hotel": "hotels",
    "attraction": "attractions",
    "flight": "flights",
    "train": "trains",
}

#: Keys under which an order line may name its product (OTA records use the last three).
PRODUCT_KEYS = ("product_id", "room_id", "ticket_id", "seat_id")

_GRADED_FIELDS = (
    "order_id",
    "order_type",
    "store_id",
    "status",
    "note",
    "delivery_time",
    "dispatch_time",
)


def status_class(status: str | None) -> StatusClass:
    """Collapse an order status into unpaid / paid / cancelled."""
    if status == "cancelled":
        return "cancelled"
    if status in _PAID_LIKE:
        return "paid"
    return "unpaid"


def status_satisfies(actual: str | None, expected: str | None) -> bool:
    """Whether a final status meets an expected one.

    Expected ``cancelled`` needs ``cancelled``; expected paid-like needs paid-like; expected
    ``unpaid`` needs an order that exists and is not cancelled (payment is not required, and
    paying is not penalised: the official data records the creation status, not a refusal to pay).
    """
    want, got = status_class(expected), status_class(actual)
    if want == "unpaid":
        return got != "cancelled"
    return want == got


def line_product(line: Mapping[str, Any]) -> str:
    """The product id of an order line ("" when it has none)."""
    return next((str(line[k]) for k in PRODUCT_KEYS if line.get(k)), "")


def _quantity(line: Mapping[str, Any]) -> int:
    try:
        return int(line.get("quantity") or 1)
    except (TypeError, ValueError):
        return 1


def is_order_record(value: Any) -> bool:
    """An order-shaped record (as opposed to a product line or an appointment)."""
    return isinstance(value, Mapping) and "order_type" in value and not line_product(value)


def product_lines_of(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The real product lines of a record (nested orders and lines without an id left out)."""
    return [p for p in record.get("products") or [] if isinstance(p, Mapping) and line_product(p)]


def product_key(order: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Sorted (product id, quantity) of an order's lines: what 'the same lines' compares."""
    return sorted((line_product(p), _quantity(p)) for p in product_lines_of(order))


@dataclass(frozen=True)
class RequiredOrder:
    """One distinct required order of a task, classified against the initial database.

    Attributes:
        index: Position among the task's requirements of this evaluator.
        record: The expected record (with the attributed store; its product lines are read
            through :func:`product_lines_of`, which skips nested orders).
        kind: ``existing``, ``replaced`` or ``new`` (see the module docstring).
        target: The pre-existing order the record is about (``existing``) or replaces
            (``replaced``); "" for new orders.
        note: How the record was read when that is not literal (re-attribution, an order
            identified by content), shown in the criterion's description.
        stated: Constraints the rubrics state about this record
            (:mod:`lifebench.vita.grading.stated`), checked with it.
        asap: Nothing states a time for this new order: it must be dispatched as soon as
            possible (within the time tolerance of the task clock).
    """

    index: int
    record: Mapping[str, Any]
    kind: OrderKind = "new"
    target: str = ""
    note: str = ""
    stated: tuple[Stated, ...] = ()
    asap: bool = False

    @property
    def existing(self) -> bool:
        """Whether the record is graded on a pre-existing order's final state."""
        return self.kind == "existing"

    @property
    def order_id(self) -> str:
        """The order id in the expected record."""
        return str(self.record.get("order_id", ""))

    @property
    def store_id(self) -> str:
        """The store / shop / provider of the record."""
        return str(self.record.get("store_id", ""))

    @property
    def status(self) -> str:
        """The expected status."""
        return str(self.record.get("status", ""))

    def product_lines(self) -> list[tuple[str, int, str]]:
        """(product_id, quantity, expected attribute as written) of every line with an id.

        An attribute given as a list is comma-joined (its parts are compared as clauses).
        """
        lines = []
        for p in product_lines_of(self.record):
            attr = p.get("attributes", p.get("attribute")) or ""
            if isinstance(attr, list):
                attr = ", ".join(str(a) for a in attr)
            lines.append((line_product(p), _quantity(p), str(attr)))
        return lines


def expected_records(task: VitaTask) -> Iterator[Mapping[str, Any]]:
    """Every required record in file order, each nested order right after its holder (the
    holder keeps its product list; only real product lines are ever read from it)."""
    criteria = task.evaluation_criteria
    for state in criteria.expected_states if criteria is not None else []:
        for record in state.required_orders:
            yield record
            yield from (p for p in record.get("products") or [] if is_order_record(p))


def graded_content(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """What grading reads of a record (records equal here count once)."""
    location = record.get("location")
    address = location.get("address") if isinstance(location, Mapping) else None
    lines = sorted(
        (line_product(p), _quantity(p), repr(p.get("attributes")), str(p.get("date")))
        for p in product_lines_of(record)
    )
    return (*(repr(record.get(k)) for k in _GRADED_FIELDS), address, tuple(lines))


def providers(task: VitaTask, order_type: str) -> Mapping[str, Any]:
    """The provider table (stores, shops, hotels, …) that orders of ``order_type`` refer to."""
    name = PROVIDER_TABLES.get(order_type)
    if name is None:
        return {}
    table: Mapping[str, Any] = task.environment.get(name) or {}
    return table


def sells(provider: Any, product_id: str) -> bool:
    """Whether ``provider`` (a raw store / shop / … record, or None) lists ``product_id``."""
    if not isinstance(provider, Mapping):
        return False
    return any(p.get("product_id") == product_id for p in provider.get("products") or [])


def sellers(task: VitaTask, order_type: str, product_ids: Sequence[str]) -> list[str]:
    """Ids of the providers of ``order_type`` that sell every one of ``product_ids``."""
    return [
        str(key)
        for key, provider in providers(task, order_type).items()
        if all(sells(provider, pid) for pid in product_ids)
    ]


def attributed_store(task: VitaTask, record: Mapping[str, Any]) -> tuple[str, str]:
    """The store a new record is graded at, and a note when it is not the one written.

    The written store when it sells every product of the record (or lists no products);
    else the only store of the same table that does; else the written one (a data error that
    ``tasks validate`` reports).
    """
    store = str(record.get("store_id"))
    order_type = str(record.get("order_type"))
    pids = [line_product(p) for p in product_lines_of(record)]
    if all(sells(providers(task, order_type).get(store), pid) for pid in pids):
        return store, ""
    found = sellers(task, order_type, pids)
    if len(found) == 1:
        return found[0], f"re-attributed from {store} (which does not sell its products)"
    return store, ""


def classify(
    task: VitaTask,
    records: Sequence[Mapping[str, Any]],
    *,
    same_lines: Callable[[Mapping[str, Any], Mapping[str, Any]], bool] = lambda before, record: (
        product_key(before) == product_key(record)
    ),
    order_types: frozenset[str] | None = None,
) -> list[RequiredOrder]:
    """Requirements for ``records`` (distinct, in order): kind, target and attributed store.

    ``same_lines(before, record)`` says whether a pre-existing order holds the record's lines
    (default: the same multiset of (product id, quantity)). Rubrics that name a pre-existing
    order with an action (:func:`lifebench.vita.grading.stated.named_actions`) decide the
    readings the records alone leave open (see the module docstring); a cancellation they ask
    that no record expresses becomes a requirement of its own (of ``order_types``).
    """
    from lifebench.vita.grading.stated import named_actions, named_notes

    initial: Mapping[str, Any] = task.environment.get("orders") or {}
    acts = named_actions(task)
    rubric_notes = named_notes(task)

    def holds(before: Any, record: Mapping[str, Any]) -> bool:
        return (
            isinstance(before, Mapping)
            and before.get("order_type") == record.get("order_type")
            and before.get("store_id") == record.get("store_id")
            and same_lines(before, record)
        )

    def same_type(before: Any, record: Mapping[str, Any]) -> bool:
        return isinstance(before, Mapping) and before.get("order_type") == record.get("order_type")

    def live(status: Any) -> bool:
        return status_class(status) != "cancelled"

    by_id = [holds(initial.get(str(r.get("order_id"))), r) for r in records]
    taken = {str(records[i].get("order_id")) for i, hit in enumerate(by_id) if hit}
    # Unknown ids with the content of a live pre-existing order that rubrics ask to edit
    # (a note) are that order, edited — not a new one (30711009: "modify the note of O01").
    edits: dict[int, str] = {}
    for i, record in enumerate(records):
        oid = str(record.get("order_id"))
        if oid in initial or not live(record.get("status")):
            continue
        for key, before in initial.items():
            wanted = acts.get(key, set())
            if (
                key not in taken
                and key not in edits.values()
                and live(before.get("status"))
                and "note" in wanted
                and not wanted & {"cancel", "reorder"}
                and holds(before, record)
            ):
                edits[i] = key
                break
    # Pre-existing orders another id is about (an edit, or a cancellation by content): a record
    # that reuses such an order's id for other content is a new order, not its replacement.
    claimed = set(edits.values())
    for record in records:
        if str(record.get("order_id")) not in initial and not live(record.get("status")):
            claimed.update(
                key for key, b in initial.items() if live(b.get("status")) and holds(b, record)
            )
    read: list[tuple[Mapping[str, Any], OrderKind, str, str]] = []
    for i, (record, hit) in enumerate(zip(records, by_id, strict=True)):  # pragma: no mutate
        oid = str(record.get("order_id"))
        before = initial.get(oid)
        wanted = acts.get(oid, set())
        if hit:
            read.append((record, "existing", oid, ""))
            continue
        if i in edits:
            note = f"an edit of pre-existing order {edits[i]} (same store and lines; the rubrics name it)"
            read.append((record, "existing", edits[i], note))
            continue
        if same_type(before, record) and not live(record.get("status")):
            note = f"the cancellation of pre-existing order {oid} (lines as written not compared)"
            taken.add(oid)
            read.append((record, "existing", oid, note))
            continue
        if not live(record.get("status")):
            match = next(
                (
                    key
                    for key, b in initial.items()
                    if key not in taken and live(b.get("status")) and holds(b, record)
                ),
                None,
            )
            if match is not None:
                taken.add(match)
                note = f"the cancellation of pre-existing order {match} (same store and lines)"
                read.append((record, "existing", match, note))
                continue
        if same_type(before, record) and "cancel" not in wanted:
            assert isinstance(before, Mapping)
            kept = wanted & {"reorder", "note", "keep", "pay"}
            same_products = before.get("store_id") == record.get("store_id") and {
                line_product(p) for p in product_lines_of(before)
            } == {line_product(p) for p in product_lines_of(record)}
            if kept and same_products:
                note = (
                    f"pre-existing order {oid} (the rubrics keep it; its lines as written differ)"
                )
                read.append((record, "existing", oid, note))
                continue
            if kept or oid in claimed:
                store, note = attributed_store(task, record)
                note = note or f"a new order (the id {oid} of a pre-existing order is reused)"
                read.append(({**record, "store_id": store}, "new", "", note))
                continue
        store, note = attributed_store(task, record)
        record = {**record, "store_id": store}
        if same_type(before, record):
            read.append((record, "replaced", oid, note))
        else:
            read.append((record, "new", "", note))
    # The latest expectation of one pre-existing order wins (states are checkpoints).
    last = {target: i for i, (_, kind, target, _) in enumerate(read) if kind == "existing"}
    kept_reqs = [r for i, r in enumerate(read) if r[1] != "existing" or last[r[2]] == i]
    # What the rubrics ask of named pre-existing orders that no record expresses.
    about = {target for _, kind, target, _ in kept_reqs if target}
    for oid, wanted in acts.items() if records else ():
        before = initial.get(oid)
        if (
            "cancel" in wanted
            and oid not in about
            and isinstance(before, Mapping)
            and (order_types is None or before.get("order_type") in order_types)
            and live(before.get("status"))
        ):
            record = {**before, "status": "cancelled"}
            kept_reqs.append((record, "existing", oid, f"the rubrics cancel {oid}"))
    out = []
    for record, kind, target, note in kept_reqs:
        if kind == "existing" and target in rubric_notes:
            record = {**record, "note": rubric_notes[target]}
            note = (note + "; " if note else "") + "note as the rubrics word it"
        out.append((record, kind, target, note))
    return [RequiredOrder(i, *r) for i, r in enumerate(out)]


def distinct_records(task: VitaTask, order_types: frozenset[str]) -> list[Mapping[str, Any]]:
    """Distinct expected order records of ``order_types`` across all states, in file order."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Mapping[str, Any]] = []
    for record in expected_records(task):
        if record.get("order_type") not in order_types:
            continue
        key = graded_content(record)
        if key not in seen:
            seen.add(key)
            out.append(record)
    return out


def required_orders(task: VitaTask, order_types: frozenset[str]) -> list[RequiredOrder]:
    """Distinct required orders of ``order_types``, classified (see the module docstring)."""
    return classify(task, distinct_records(task, order_types), order_types=order_types)


def named_orders(reqs: Sequence[RequiredOrder]) -> set[str]:
    """Pre-existing orders the requirements are about (changing them is never unrequested)."""
    return {r.target for r in reqs if r.target}
