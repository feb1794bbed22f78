"""Non-fatal consistency checks of VitaBench tasks (the loader has already rejected fatal ones).

``error`` marks a problem that makes part of the task unsatisfiable or its grading ambiguous (an
expected order at a store the task does not have, a product without id, two different orders
under one id, a task with nothing to judge); ``warning`` marks oddities that a careful author
would fix but that do not break a run (duplicated rubrics, prices differing from the catalog,
mistranslated attribute names, ...). The official delivery data has a handful of each.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lifebench._util.hashing import canonical_json
from lifebench.vita.domains._geo import delivery_minutes, haversine_m
from lifebench.vita.domains._match import match_address
from lifebench.vita.grading.constraints import Stated, to_clock
from lifebench.vita.grading.expected import (
    attributed_store,
    is_order_record,
    line_product,
    status_class,
)
from lifebench.vita.grading.options import attribute_rule, product_options
from lifebench.vita.grading.stated import clock
from lifebench.vita.loader import (
    ORDER_TYPE_TABLES,
    STORE_TABLES,
    TIME_FORMAT,
    format_path,
)
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import format_time, parse_time

__all__ = ["LintIssue", "Severity", "lint_task", "lint_tasks"]

Severity = Literal["warning", "error"]

_TOLERANCE = 0.005
"""Prices closer than this are equal."""


class LintIssue(BaseModel):
    """One problem found in one task."""

    model_config = ConfigDict(frozen=True)

    task_id: str = Field(description="Id of the task the problem is in.")
    field: str = Field(description="Field path inside the task, e.g. ``environment.stores.S1``.")
    severity: Severity
    message: str = Field(description="What is wrong, in words.")

    def __str__(self) -> str:
        return f"task {self.task_id}, field {self.field}: {self.severity}: {self.message}"


def lint_tasks(tasks: Iterable[VitaTask]) -> list[LintIssue]:
    """Check every task; issues come in task order (within a task, grouped by check)."""
    issues: list[LintIssue] = []
    for task in tasks:
        issues += lint_task(task)
    return issues


def lint_task(task: VitaTask) -> list[LintIssue]:
    """Check one task (see the module docstring for what counts as an error)."""
    return _TaskLinter(task).run()


def _number(value: Any) -> float | None:
    """``value`` as a finite float (numbers and numeric strings, as the data has both), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


class _TaskLinter:
    """The checks of one task; collects :class:`LintIssue` objects in ``issues``."""

    def __init__(self, task: VitaTask) -> None:
        self.task = task
        self.env = task.environment
        self.issues: list[LintIssue] = []

    def add(self, severity: Severity, path: Sequence[str | int], message: str) -> None:
        self.issues.append(
            LintIssue(
                task_id=self.task.id, field=format_path(path), severity=severity, message=message
            )
        )

    def table(self, name: str) -> dict[str, Any] | None:
        value = self.env.get(name)
        return value if isinstance(value, dict) else None

    def run(self) -> list[LintIssue]:
        for note in self.task.load_notes:  # what the loader normalised (e.g. a time's spaces)
            issue = LintIssue(
                task_id=self.task.id, field=note.field, severity="warning", message=note.message
            )
            self.issues.append(issue)
        if not self.task.instructions.strip():
            self.add("error", ["instructions"], "instructions are empty")
        self.check_tables()
        self.check_preexisting_orders()
        self.check_criteria()
        self.check_stated()
        return self.issues

    # ---- do the rubrics agree with the expected records? ------------------------------------

    def check_stated(self) -> None:
        """Constraints the rubrics state, read and attributed as the state graders do, against
        the expected records they are about.

        A stated time no arrival or appointment within the time tolerance of the record's own
        can meet, or a stated party size other than the record's, is an **error**: no final
        state meets both, so the task contradicts its own data. A stated time outside the
        record's but within the tolerance of it is a **warning**, and so is a delivery time
        stated weeks after the clock (the graders move it to the clock's day).
        """
        if self.task.evaluation_criteria is None:
            return
        # heavy: the graders and their parsers
        from lifebench.vita.grading.instore import instore_state_evaluator
        from lifebench.vita.grading.ota import ota_state_evaluator
        from lifebench.vita.grading.state import TIME_TOLERANCE_MIN, delivery_state_evaluator

        tolerance = timedelta(minutes=TIME_TOLERANCE_MIN)
        seen: set[tuple[str, str]] = set()
        for evaluator in (
            delivery_state_evaluator(),
            instore_state_evaluator(),
            ota_state_evaluator(),
        ):
            reqs = evaluator.required(self.task)
            attribution = evaluator.attribution(self.task, reqs)
            for cand in evaluator.candidates(self.task, reqs):
                name = next(iter(cand.ids), "?")
                for s in attribution.of(cand.key):
                    if (s.rubric, name) in seen:
                        continue
                    seen.add((s.rubric, name))
                    self.compare_stated(s, cand.record, name, tolerance)

    def compare_stated(
        self, s: Stated, record: Mapping[str, Any], name: str, tolerance: timedelta
    ) -> None:
        path: list[str | int] = ["evaluation_criteria", "expected_states"]
        timed = any(str(record.get(k) or "").strip() for k in ("delivery_time", "dispatch_time"))
        moved = to_clock(s, clock(self.task))
        if moved.moved_days and not timed:
            self.add(
                "warning",
                path,
                f"rubric '{s.rubric}' states a delivery time {-moved.moved_days} days after the "
                f"task clock {self.env.get('time')}, for a record without a time of its own; "
                f"graded as {moved.window} (a slip of the date)",
            )
        if s.field == "party_size":
            count = record.get("customer_count")
            if isinstance(count, int) and count != s.count:
                self.add(
                    "error",
                    path,
                    f"rubric '{s.rubric}' states {s.count} people, but the expected record "
                    f"{name} has customer_count {count}: no final state meets both (data error)",
                )
            return
        if s.field not in ("time", "date") or s.window is None:
            return
        keys = ("delivery_time",) if s.target == "delivery" else ("reservation_time", "book_time")
        own = next((t for k in keys if (t := parse_time(record.get(k))) is not None), None)
        dispatch = parse_time(record.get("dispatch_time"))
        minutes = self.shipping_minutes(record)
        if own is None and s.target == "delivery" and dispatch is not None and minutes is not None:
            own = dispatch + timedelta(minutes=minutes)  # the arrival the tools would give
        if own is None or s.window.contains(own):
            return
        now = parse_time(self.env.get("time"))
        if s.target == "delivery" and minutes is not None and now is not None:
            earliest = now + timedelta(minutes=minutes)
            if s.window.end is not None and s.window.end < earliest:
                return  # no arrival can meet it: the graders read "as soon as possible"
        low = s.window.start is None or own + tolerance >= s.window.start
        high = s.window.end is None or own - tolerance <= s.window.end
        overlap = low and high
        self.add(
            "warning" if overlap else "error",
            path,
            f"rubric '{s.rubric}' states {s.window}, but the expected record {name} has "
            f"{format_time(own)}"
            + (
                " (within the time tolerance of the window)"
                if overlap
                else ": no final state meets both (data error)"
            ),
        )

    # ---- environment ----------------------------------------------------------------------

    def check_tables(self) -> None:
        seen_products: dict[str, list[str | int]] = {}
        for table_name, id_field in STORE_TABLES.items():
            table = self.table(table_name)
            for key, store in (table or {}).items():
                if not isinstance(store, dict):
                    continue
                where: list[str | int] = ["environment", table_name, key]
                if id_field in store and store[id_field] != key:
                    self.add(
                        "warning",
                        [*where, id_field],
                        f"record is filed under key {key!r} but its {id_field} is "
                        f"{store[id_field]!r}",
                    )
                products = store.get("products")
                for j, product in enumerate(products if isinstance(products, list) else []):
                    if not isinstance(product, dict):
                        continue
                    owner = product.get(id_field)
                    if table_name in ("stores", "shops") and owner is not None and owner != key:
                        self.add(
                            "warning",
                            [*where, "products", j, id_field],
                            f"product lists {id_field} {owner!r} but is sold by {key!r}",
                        )
                    pid = product.get("product_id")
                    if isinstance(pid, str):
                        if pid in seen_products:
                            self.add(
                                "warning",
                                [*where, "products", j, "product_id"],
                                f"product id {pid!r} also used at "
                                f"{format_path(seen_products[pid])}; look-ups by id are ambiguous",
                            )
                        else:
                            seen_products[pid] = [*where, "products", j]

    def check_preexisting_orders(self) -> None:
        for key, order in (self.table("orders") or {}).items():
            if not isinstance(order, dict):
                continue
            where: list[str | int] = ["environment", "orders", key]
            if order.get("order_id") != key:
                self.add(
                    "warning",
                    [*where, "order_id"],
                    f"order is filed under key {key!r} but its order_id is {order.get('order_id')!r}",
                )
            store_table = ORDER_TYPE_TABLES.get(str(order.get("order_type")))
            stores = self.table(store_table) if store_table else None
            if stores is not None and order.get("store_id") not in stores:
                self.add(
                    "warning",
                    [*where, "store_id"],
                    f"store {order.get('store_id')!r} is not in environment.{store_table}",
                )

    # ---- evaluation criteria --------------------------------------------------------------

    def check_criteria(self) -> None:
        criteria = self.task.evaluation_criteria
        if criteria is None:
            self.add(
                "error",
                ["evaluation_criteria"],
                "no evaluation criteria: the official judge would score any run 1.0; lifebench "
                "counts it ungradable",
            )
            return
        if not criteria.expected_states:
            self.add(
                "warning",
                ["evaluation_criteria", "expected_states"],
                "no expected states: nothing for the state check to compare",
            )
        if criteria.expected_states and not any(
            s.required_orders for s in criteria.expected_states
        ):
            self.add(
                "error",
                ["evaluation_criteria", "expected_states"],
                "no required record in any expected state: the state grader has nothing to "
                "check (the task is ungradable on the state basis)",
            )
        has_state_rubrics = False
        for i, state in enumerate(criteria.expected_states):
            path: list[str | int] = ["evaluation_criteria", "expected_states", i, "state_rubrics"]
            if state.state_rubrics:
                has_state_rubrics = True
                self.check_rubric_list(path, state.state_rubrics)
            else:
                self.add("warning", path, "no state rubrics for this expected state")
        overall: list[str | int] = ["evaluation_criteria", "overall_rubrics"]
        if criteria.overall_rubrics:
            self.check_rubric_list(overall, criteria.overall_rubrics)
        elif has_state_rubrics:
            self.add("warning", overall, "overall_rubrics is empty")
        else:
            self.add(
                "error",
                overall,
                "the task has no rubrics at all: the official judge would score any run 1.0; "
                "lifebench's rubric judge counts it ungradable",
            )
        self.check_required_orders()

    def check_rubric_list(self, path: list[str | int], rubrics: list[str]) -> None:
        first: dict[str, int] = {}
        for k, rubric in enumerate(rubrics):
            text = rubric.strip()
            if not text:
                self.add("warning", [*path, k], "empty rubric")
                continue
            if text in first:
                self.add("warning", [*path, k], f"duplicates rubric [{first[text]}] of this list")
            else:
                first[text] = k

    def check_required_orders(self) -> None:
        criteria = self.task.evaluation_criteria
        assert criteria is not None
        # order id -> every distinct content seen so far, with the path where it was first seen
        variants: dict[str, list[tuple[str, list[str | int], dict[str, Any]]]] = {}
        for i, state in enumerate(criteria.expected_states):
            in_state: dict[str, tuple[str, list[str | int], dict[str, Any]]] = {}
            for j, record in enumerate(state.required_orders):
                where: list[str | int] = ["evaluation_criteria", "expected_states", i]
                where += ["required_orders", j]
                if "order_type" in record or "order_id" in record:
                    self.check_order(where, record)
                elif "shop_id" in record:
                    self.check_store_ref(where, record, "shops", "shop_id")
                order_id = record.get("order_id")
                if not isinstance(order_id, str):
                    continue
                content = canonical_json(record)
                seen = variants.setdefault(order_id, [])
                if order_id in in_state and in_state[order_id][0] != content:
                    self.add(
                        "warning",
                        [*where, "order_id"],
                        self.conflict_message(
                            order_id, in_state[order_id], record, "in the same state"
                        )
                        + "; graded as two distinct orders",
                    )
                elif seen and all(v[0] != content for v in seen):
                    self.add(
                        "warning",
                        [*where, "order_id"],
                        self.conflict_message(order_id, seen[0], record, "in an earlier state"),
                    )
                in_state.setdefault(order_id, (content, where, record))
                if all(v[0] != content for v in seen):
                    seen.append((content, where, record))

    @staticmethod
    def conflict_message(
        order_id: str,
        first: tuple[str, list[str | int], dict[str, Any]],
        record: dict[str, Any],
        where: str,
    ) -> str:
        _, path, other = first
        keys = sorted(
            k
            for k in set(other) | set(record)
            if canonical_json(other.get(k)) != canonical_json(record.get(k))
        )
        return (
            f"order {order_id!r} is expected {where} ({format_path(path)}) with different "
            f"content (differs in: {', '.join(keys)})"
        )

    def check_store_ref(
        self, where: list[str | int], record: dict[str, Any], table_name: str, id_field: str
    ) -> dict[str, Any] | None:
        """The store a record refers to; None (and maybe an issue) when it cannot be resolved."""
        table = self.table(table_name)
        if table is None:
            return None  # the task has no such table (e.g. a delivery order in an in-store task)
        store_id = record.get(id_field)
        store = table.get(store_id) if isinstance(store_id, str) else None
        if not isinstance(store, dict):
            self.add(
                "error",
                [*where, id_field],
                f"{id_field} {store_id!r} is not in environment.{table_name}",
            )
            return None
        return store

    def check_order(self, where: list[str | int], order: dict[str, Any]) -> None:
        order_type = order.get("order_type")
        table_name = ORDER_TYPE_TABLES.get(order_type) if isinstance(order_type, str) else None
        store = self.check_store_ref(where, order, table_name, "store_id") if table_name else None
        user_id = order.get("user_id")
        if user_id is not None and user_id != self.env.get("user_id"):
            self.add(
                "warning",
                [*where, "user_id"],
                f"user_id {user_id!r} differs from environment.user_id {self.env.get('user_id')!r}",
            )
        self.check_order_location(where, order)
        self.check_dispatch_time(where, order)
        products = order.get("products")
        if not isinstance(products, list):
            return
        total = 0.0
        totals_known = True
        for k, product in enumerate(products):
            known = self.check_order_product([*where, "products", k], product, store, order)
            if known is None:
                totals_known = False
            else:
                total += known
        price = order.get("total_price")
        declared = _number(price)
        if totals_known and products and declared is not None and abs(declared - total) > 0.01:
            self.add(
                "warning",
                [*where, "total_price"],
                f"total_price {price} differs from the sum of price x quantity ({total:.2f})",
            )

    def check_order_location(self, where: list[str | int], order: dict[str, Any]) -> None:
        location = order.get("location")
        if order.get("order_type") != "delivery" or not isinstance(location, dict):
            return
        address = location.get("address")
        known = self.env.get("location")
        addresses = [entry.get("address") for entry in known or [] if isinstance(entry, dict)]
        if address in addresses:
            return
        places = self.known_places()
        if (
            isinstance(address, str)
            and address.strip()
            and order.get("order_id") not in (self.table("orders") or {})
            and match_address(address, places).index is None
        ):
            self.add(
                "error",
                [*where, "location", "address"],
                f"delivery address {address!r} is no place the task knows (the user's places, "
                "its stores, earlier orders): the address tool cannot resolve it, so no agent "
                "can deliver there (data error)",
            )
            return
        self.add(
            "warning",
            [*where, "location", "address"],
            "delivery address is not one of the addresses in environment.location",
        )

    def shipping_minutes(self, record: Mapping[str, Any]) -> int | None:
        """The rider's minutes from the record's store to its address (as the tools compute)."""
        store = (self.table("stores") or {}).get(str(record.get("store_id")))
        ends = [store.get("location") if isinstance(store, dict) else None, record.get("location")]
        points = [
            (lon, lat)
            for e in ends
            if isinstance(e, dict)
            and (lon := _number(e.get("longitude"))) is not None
            and (lat := _number(e.get("latitude"))) is not None
        ]
        if len(points) != 2:
            return None
        return delivery_minutes(haversine_m(*points[0], *points[1]))

    def known_places(self) -> list[tuple[str, float, float]]:
        """The places the delivery address tool resolves: the user's places, the pre-existing
        orders' targets and the stores."""
        found: list[Any] = list(self.env.get("location") or [])
        for table in ("orders", "stores"):
            found += [
                r.get("location") for r in (self.table(table) or {}).values() if isinstance(r, dict)
            ]
        out = []
        for place in found:
            if isinstance(place, dict) and isinstance(place.get("address"), str):
                lon, lat = _number(place.get("longitude")), _number(place.get("latitude"))
                if lon is not None and lat is not None:
                    out.append((place["address"], lon, lat))
        return out

    def check_dispatch_time(self, where: list[str | int], order: dict[str, Any]) -> None:
        dispatch = order.get("dispatch_time")
        now = self.env.get("time")
        if not isinstance(dispatch, str) or not dispatch or not isinstance(now, str):
            return
        try:
            when = datetime.strptime(dispatch, TIME_FORMAT)  # noqa: DTZ007 - naive data clock
            start = datetime.strptime(now, TIME_FORMAT)  # noqa: DTZ007
        except ValueError:
            self.add(
                "warning",
                [*where, "dispatch_time"],
                f"dispatch_time {dispatch!r} is not 'YYYY-MM-DD HH:MM:SS'",
            )
            return
        preexisting = (self.table("orders") or {}).keys()
        if when < start and order.get("order_id") not in preexisting:
            self.add(
                "warning",
                [*where, "dispatch_time"],
                f"dispatch_time {dispatch} of a new order is before the task time {now}; the "
                f"ordering tool refuses such times",
            )

    def attributed(
        self, record: dict[str, Any], store: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        """The store a new record is graded at (the data-error rule of re-attribution)."""
        if store is None:
            return None
        preexisting = (self.table("orders") or {}).keys()
        if record.get("order_id") in preexisting:
            return store
        table = self.table(ORDER_TYPE_TABLES.get(str(record.get("order_type")), ""))
        key, _ = attributed_store(self.task, record)
        found = (table or {}).get(key)
        return found if isinstance(found, dict) else store

    def check_stock(
        self, where: list[str | int], product: dict[str, Any], record: dict[str, Any]
    ) -> None:
        """A new purchase needing more than the stock the data gives cannot be made (OTA: its
        tools refuse it, as officially; delivery and in-store tools never refuse for stock, as
        officially, so a purchase beyond the stock there is no data error)."""
        if record.get("order_type") in ("delivery", "instore"):
            return
        preexisting = (self.table("orders") or {}).keys()
        if (
            record.get("order_id") in preexisting
            or status_class(record.get("status")) == "cancelled"
        ):
            return
        table = self.table(ORDER_TYPE_TABLES.get(str(record.get("order_type")), "")) or {}
        store = table.get(str(record.get("store_id")))
        if not isinstance(store, dict):
            return
        pid = line_product(product)
        day = str(product.get("date") or "")
        listed = [
            p
            for p in store.get("products") or []
            if isinstance(p, dict)
            and p.get("product_id") == pid
            and (not day or not p.get("date") or p.get("date") == day)
        ]
        raw = product.get("quantity")
        quantity = raw if isinstance(raw, int) and not isinstance(raw, bool) else 1
        stocks = [s for p in listed if (s := _number(p.get("quantity"))) is not None]
        if listed and stocks and max(stocks) < quantity:
            self.add(
                "error",
                [*where, "quantity"],
                f"the expected purchase of {quantity} x {pid!r} exceeds its stock "
                f"({max(stocks):g}); the tools refuse it (data error: no agent can make it)",
            )

    def check_order_product(
        self,
        where: list[str | int],
        product: Any,
        store: dict[str, Any] | None,
        record: dict[str, Any] | None = None,
    ) -> float | None:
        """Check one ordered product; return its price x quantity when both are known."""
        record = record or {}
        if not isinstance(product, dict):
            self.add("error", where, f"product entry is not an object ({type(product).__name__})")
            return None
        pid = product.get("product_id")
        if pid is None and is_order_record(product):
            self.add(
                "warning",
                where,
                f"product entry has no product_id: it is order {product.get('order_id')!r} "
                "nested in the product list; it is recovered as a required order of its own",
            )
            self.check_order(where, product)
            return None
        if pid is None:
            self.add("error", where, "product entry has no product_id: it cannot be ordered")
            return None
        quantity = product.get("quantity")
        if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity < 1:
            self.add(
                "error",
                [*where, "quantity"],
                f"quantity must be a positive integer, got {quantity!r}",
            )
            quantity = None
        else:
            self.check_stock(where, product, record)
        seller = self.attributed(record, store)
        self.check_chosen_attribute(where, product, seller, record)
        if store is not None:
            catalog = {
                p.get("product_id"): p for p in store.get("products") or [] if isinstance(p, dict)
            }
            if pid not in catalog:
                moved = seller is not None and seller is not store
                self.add(
                    "warning" if moved else "error",
                    [*where, "product_id"],
                    self.not_in_store_message(pid, store, seller if moved else None),
                )
            else:
                listed = _number(catalog[pid].get("price"))
                price = _number(product.get("price"))
                if listed is not None and price is not None and abs(listed - price) > _TOLERANCE:
                    self.add(
                        "warning",
                        [*where, "price"],
                        f"price {product.get('price')} differs from the catalog price {listed:g}",
                    )
        price = _number(product.get("price"))
        if quantity is None or price is None:
            return None
        return price * quantity

    def not_in_store_message(
        self, pid: Any, store: dict[str, Any], seller: dict[str, Any] | None = None
    ) -> str:
        store_id = store.get("store_id", store.get("shop_id"))
        message = f"product {pid!r} is not sold by store {store_id!r}"
        if seller is not None:
            seller_id = seller.get("store_id", seller.get("shop_id"))
            return (
                f"{message}; graded at {seller_id!r}, the one store of the task that sells the "
                "order's products (re-attribution)"
            )
        elsewhere = [
            key
            for table_name in STORE_TABLES
            for key, other in (self.table(table_name) or {}).items()
            if isinstance(other, dict)
            and any(
                isinstance(p, dict) and p.get("product_id") == pid
                for p in other.get("products") or []
            )
        ]
        if elsewhere:
            message += f" (it is sold by {', '.join(map(repr, elsewhere))})"
        else:
            message += " (no store of the task sells it)"
        return message

    def check_chosen_attribute(
        self,
        where: list[str | int],
        product: dict[str, Any],
        store: dict[str, Any] | None,
        record: dict[str, Any],
    ) -> None:
        """How the state grader reads the expected attribute (see grading/options.py)."""
        if "attributes" not in product:
            if "attribute" in product:
                self.add("warning", [*where, "attribute"], "misspelled key: expected 'attributes'")
            return
        chosen = product["attributes"]
        if isinstance(chosen, list):
            chosen = ", ".join(str(c) for c in chosen)
        if not isinstance(chosen, str) or not chosen.strip() or store is None:
            return
        listed = next(
            (
                p
                for p in store.get("products") or []
                if isinstance(p, dict) and p.get("product_id") == product.get("product_id")
            ),
            None,
        )
        if listed is None or record.get("order_id") in (self.table("orders") or {}):
            return
        offered = product_options(listed)
        rule = attribute_rule(chosen, offered)
        path = [*where, "attributes"]
        if rule.how == "unmatched":
            self.add(
                "warning",
                path,
                f"attribute {chosen!r} is not offered by the product and no offered option has "
                f"its meaning (offered: {offered}); the state check cannot check it",
            )
        elif rule.how == "combination" and _norm(chosen) != _norm(rule.option):
            self.add(
                "warning",
                path,
                f"attribute {chosen!r} is not offered as written; graded as the combination "
                f"of offered options {rule.option!r} (same meaning)",
            )
        elif rule.how == "option" and _norm(chosen) != _norm(rule.option):
            self.add(
                "warning",
                path,
                f"attribute {chosen!r} is not offered as written; graded as the offered "
                f"option {rule.option!r} (same meaning)",
            )
