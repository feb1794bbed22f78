"""Reading ``expected_states`` into required records, with status classes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from lifebench.vita.task import VitaTask

StatusClass = Literal["unpaid", "paid", "cancelled"]

#: Every status that means "the order went through payment" (pre-existing data uses the
#: fulfilment stages processed / in-progress / delivered; tools only ever produce ``paid``).
_PAID_LIKE = frozenset({"paid", "processed", "in-progress", "delivered", "consumed", "unconsumed"})


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


@dataclass(frozen=True)
class RequiredOrder:
    """One distinct required order of a task, classified against the initial database."""

    index: int
    record: Mapping[str, Any]
    existing: bool

    @property
    def order_id(self) -> str:
        """The order id in the expected record."""
        return str(self.record.get("order_id", ""))

    @property
    def status(self) -> str:
        """The expected status."""
        return str(self.record.get("status", ""))

    def product_lines(self) -> list[tuple[str, int, str]]:
        """(product_id, quantity, chosen attribute) of every product that has an id."""
        lines = []
        for p in self.record.get("products") or []:
            if isinstance(p, Mapping) and p.get("product_id"):
                attr = p.get("attributes") or ""
                if isinstance(attr, list):
                    attr = ",".join(str(a) for a in attr)
                lines.append((str(p["product_id"]), int(p.get("quantity") or 1), str(attr)))
        return lines


def _product_key(order: Mapping[str, Any]) -> list[tuple[str, int]]:
    return sorted(
        (str(p.get("product_id")), int(p.get("quantity") or 1))
        for p in order.get("products") or []
        if isinstance(p, Mapping) and p.get("product_id")
    )


def required_orders(task: VitaTask, order_types: frozenset[str]) -> list[RequiredOrder]:
    """Distinct required orders of ``order_types`` across all expected states, in file order.

    Expected states are checkpoints of one final world, so their required orders are united;
    identical records (the same order repeated in several states) count once. A required order
    is *existing* when the initial database has that id with the same store and products;
    otherwise it must be created during the episode (the data sometimes reuses an id).
    """
    criteria = task.evaluation_criteria
    if criteria is None:
        return []
    initial: Mapping[str, Any] = task.environment.get("orders") or {}
    seen: set[str] = set()
    out: list[RequiredOrder] = []
    for state in criteria.expected_states:
        for record in state.required_orders:
            if not isinstance(record, Mapping) or record.get("order_type") not in order_types:
                continue
            key = json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)
            if key in seen:
                continue
            seen.add(key)
            before = initial.get(str(record.get("order_id", "")))
            existing = (
                isinstance(before, Mapping)
                and before.get("store_id") == record.get("store_id")
                and _product_key(before) == _product_key(record)
            )
            out.append(RequiredOrder(index=len(out), record=record, existing=existing))
    return out
