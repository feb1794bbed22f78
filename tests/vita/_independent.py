"""An independent near-miss generator for the state graders (separate from certify's).

Certify perturbs the oracle's *plan*; this module perturbs the oracle's *final state*, field by
field, from the structure of the records alone: every field of every record of the final state
(created and pre-existing orders, bookings, reservations) is changed in turn to another value
a tool could have produced, and every pre-existing record is also removed. Each mutated state is
a wrong final world, so the grader must not accept it.

What it does not change, and why (its own list, not the grader's):

* ``update_time`` / ``create_time``: bookkeeping;
* ``total_price``, a line's ``price`` and ``name``, ``shipping_time``, ``book_price``: the
  tools derive them from other fields (they move with those);
* ``longitude`` / ``latitude``: moved together with the address (``location`` as a whole);
* the id fields: a record is its key.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from lifebench.vita.timefmt import format_time, parse_time

SKIPPED = frozenset(
    {
        "update_time",
        "create_time",
        "total_price",
        "price",
        "name",
        "shipping_time",
        "book_price",
        "longitude",
        "latitude",
        "order_id",
        "book_id",
        "reservation_id",
    }
)
TABLES = ("orders", "books", "reservations")
_PROVIDER_TABLE = {
    "delivery": "stores",
    "instore": "shops",
    "hotel": "hotels",
    "attraction": "attractions",
    "flight": "flights",
    "train": "trains",
}


@dataclass(frozen=True)
class Mutation:
    """One wrong final state: which record and field, and the state."""

    table: str
    record: str
    field: str
    created: bool
    state: dict[str, Any]


def _other_status(status: Any) -> str:
    return "paid" if status == "cancelled" else "cancelled"


def _places(env: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    out = [p for p in env.get("location") or [] if isinstance(p, Mapping) and p.get("address")]
    for table in ("stores", "shops"):
        for provider in (env.get(table) or {}).values():
            if isinstance(provider, Mapping) and isinstance(provider.get("location"), Mapping):
                out.append(provider["location"])
    return out


def _far_place(env: Mapping[str, Any], here: Mapping[str, Any]) -> Mapping[str, Any] | None:
    try:
        lon, lat = float(here["longitude"]), float(here["latitude"])
    except (KeyError, TypeError, ValueError):
        lon = lat = 0.0
    for place in _places(env):
        try:
            far = abs(float(place["longitude"]) - lon) + abs(float(place["latitude"]) - lat)
        except (KeyError, TypeError, ValueError):
            continue
        if far > 0.02 and place.get("address") != here.get("address"):  # ≈ 2 km
            return place
    return None


def _catalog(env: Mapping[str, Any], record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    table = _PROVIDER_TABLE.get(str(record.get("order_type")), "shops")
    provider = (env.get(table) or {}).get(str(record.get("store_id") or record.get("shop_id")))
    items = provider.get("products") if isinstance(provider, Mapping) else None
    return [p for p in items or [] if isinstance(p, Mapping)]


def _mutated_lines(
    env: Mapping[str, Any], record: Mapping[str, Any]
) -> Iterator[tuple[str, list[Any]]]:
    lines = record.get("products")
    if not isinstance(lines, list):
        return
    catalog = _catalog(env, record)
    for k, line in enumerate(lines):
        if not isinstance(line, Mapping):
            continue
        for key, value in line.items():
            if key in SKIPPED:
                continue
            new: Any
            if key == "quantity":
                new = int(value or 1) + 1
            elif key in ("product_id", "room_id", "ticket_id", "seat_id"):
                others = [
                    p["product_id"]
                    for p in catalog
                    if p.get("product_id") != value and p.get("date") in (None, line.get("date"))
                ]
                new = others[0] if others else f"{value}-X"
            elif key == "date":
                when = parse_time(value)
                new = (when + timedelta(days=1)).strftime("%Y-%m-%d") if when else "2030-01-01"
            elif key == "attributes":
                offered = next(
                    (
                        p.get("attributes")
                        for p in catalog
                        if p.get("product_id") == line.get("product_id")
                    ),
                    None,
                )
                choices = [
                    str(a)
                    for a in offered or []
                    if str(a).strip().lower() != str(value).strip().lower()
                ]
                if not choices:
                    continue  # a product without options: nothing else a tool would store
                new = choices[0]
            else:
                continue
            changed = copy.deepcopy(lines)
            changed[k] = {**changed[k], key: new}
            yield f"products[{k}].{key}", changed


def mutations(env: Mapping[str, Any], final: Mapping[str, Any]) -> Iterator[Mutation]:
    """Every one-field change of every record of ``final``, and every pre-existing record
    removed (see the module docstring)."""
    for table in TABLES:
        records = final.get(table)
        if not isinstance(records, Mapping):
            continue
        before = env.get(table) or {}
        for rid, record in records.items():
            if not isinstance(record, Mapping):
                continue
            created = rid not in before

            def state(
                new_record: Mapping[str, Any] | None, table: str = table, rid: str = rid
            ) -> dict[str, Any]:
                out = copy.deepcopy(dict(final))
                if new_record is None:
                    del out[table][rid]
                else:
                    out[table][rid] = dict(new_record)
                return out

            for key, value in record.items():
                if key in SKIPPED:
                    continue
                new: Any = None
                if key == "status":
                    new = _other_status(value)
                elif key == "products":
                    for path, lines in _mutated_lines(env, record):
                        yield Mutation(table, rid, path, created, state({**record, key: lines}))
                    continue
                elif key == "location":
                    place = _far_place(env, value if isinstance(value, Mapping) else {})
                    if place is None:
                        continue
                    new = dict(place)
                elif key in ("dispatch_time", "delivery_time", "book_time", "reservation_time"):
                    when = parse_time(value)
                    new = format_time(when + timedelta(days=1)) if when else "2030-01-01 12:00:00"
                    if key == "dispatch_time" and parse_time(record.get("delivery_time")):
                        # the arrival moves with the dispatch (the tools derive it)
                        arrival = parse_time(record.get("delivery_time"))
                        assert arrival is not None
                        yield Mutation(
                            table,
                            rid,
                            "dispatch_time+delivery_time",
                            created,
                            state(
                                {
                                    **record,
                                    key: new,
                                    "delivery_time": format_time(arrival + timedelta(days=1)),
                                }
                            ),
                        )
                        continue
                elif key == "customer_count":
                    new = int(value or 1) + 1
                elif key == "note":
                    new = (
                        f"NOT {value}" if str(value or "").strip() else "Please deliver after 22:00"
                    )
                elif key in ("store_id", "shop_id"):
                    table_name = (
                        "shops"
                        if key == "shop_id" or record.get("order_type") == "instore"
                        else "stores"
                    )
                    others = [k for k in env.get(table_name) or {} if k != value]
                    if not others:
                        continue
                    new = others[0]
                elif key in ("user_id", "customer_id"):
                    new = f"{value}-OTHER"
                elif key == "order_type":
                    new = "instore" if value != "instore" else "delivery"
                else:
                    continue
                yield Mutation(table, rid, key, created, state({**record, key: new}))
            if not created:
                yield Mutation(table, rid, "(removed)", created, state(None))
