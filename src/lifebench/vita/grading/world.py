"""The closed-world diff: which fields of which pre-existing records an episode changed.

State grading is closed-world: every change the episode made to a record that existed before
it must be asked for by the task. :func:`changed_fields` compares a pre-existing record as it
was (the task's environment, read through the same data model the tools dump, so ``null`` and
a default compare equal) with its final state, field by field:

* compared: every field of the record — ``status``, ``note``, the address (``location``: its
  text), ``dispatch_time``, ``delivery_time``, ``store_id`` / ``shop_id``, ``user_id`` /
  ``customer_id``, ``order_type``, the lines (``products``: product, quantity, chosen attribute,
  date, as a multiset), a booking's or reservation's time and party size, …;
* not compared (:data:`UNCOMPARED`): the record's id (records are matched by their key),
  bookkeeping (``update_time``, ``create_time``) and values
  the tools derive from compared ones (``total_price``, ``shipping_time``, ``book_price``, a
  line's ``price`` and ``name``, an address's coordinates) — they change only with what they
  derive from.

A record that vanished counts as changed in every field (``(removed)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

#: Fields never compared (bookkeeping, or derived from compared fields by the tools).
UNCOMPARED = frozenset(
    {
        "update_time",
        "create_time",
        "total_price",
        "shipping_time",
        "book_price",
        "order_id",
        "book_id",
        "reservation_id",
    }
)


def normalised(table: str, record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` of ``table`` as the tools dump it (raw when the data model refuses it)."""
    from lifebench.vita.domains.common import Order
    from lifebench.vita.domains.instore import BookInfo, ReservationInfo

    models: dict[str, type[BaseModel]] = {
        "orders": Order,
        "books": BookInfo,
        "reservations": ReservationInfo,
    }
    model = models.get(table)
    if model is None:
        return dict(record)
    try:
        dumped: dict[str, Any] = model.model_validate(record).model_dump(mode="json")
    except ValidationError:
        return dict(record)
    return dumped


_LINE_KEYS = ("product_id", "room_id", "ticket_id", "seat_id", "quantity", "attributes", "date")


def _lines(value: Any) -> list[tuple[str, ...]]:
    """The lines as a sorted list of their compared parts (product, quantity, chosen
    attribute, date): what a line *is*; its price and name follow from them."""
    out = []
    for line in value if isinstance(value, list) else []:
        if isinstance(line, Mapping):
            parts = []
            for k in _LINE_KEYS:
                v = line.get(k)
                if isinstance(v, list):
                    v = ", ".join(str(x) for x in v)
                if k == "quantity" and v in (None, ""):
                    v = 1
                if v not in (None, ""):
                    parts.append(f"{k}={v}")
            out.append(tuple(parts))
    return sorted(out)


def _comparable(key: str, value: Any) -> Any:
    if key == "products":
        return _lines(value)
    if key == "location":
        return (
            " ".join(str(value.get("address") or "").split()) if isinstance(value, Mapping) else ""
        )
    if value is None:
        return ""
    return value


def changed_fields(
    table: str, before: Mapping[str, Any], after: Mapping[str, Any] | None
) -> list[str]:
    """The compared fields whose value differs between ``before`` and ``after`` (sorted)."""
    if after is None:
        return ["(removed)"]
    old, new = normalised(table, before), normalised(table, after)
    # lines are read from the records as written (the shared data model keeps no line dates)
    old["products"], new["products"] = before.get("products"), after.get("products")
    return sorted(
        key
        for key in set(old) | set(new)
        if key not in UNCOMPARED
        and _comparable(key, old.get(key)) != _comparable(key, new.get(key))
    )
