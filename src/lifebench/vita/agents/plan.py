"""A step of an oracle plan."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlannedCall:
    """One step of an oracle plan.

    With ``fill`` set (e.g. ``"order_id"``), that argument takes the value of the same key in
    the most recent successful tool result that has it (the record just created).
    """

    name: str
    args: Mapping[str, Any]
    fill: str | None = None

    def arguments(self, filled: str | None) -> dict[str, Any]:
        """The call's arguments, completed with the filled id when needed."""
        out = dict(self.args)
        if self.fill is not None:
            out[self.fill] = filled or ""
        return out


def find_key(text: str, key: str) -> str | None:
    """The first string value of ``key`` anywhere in the JSON ``text`` (None if absent)."""
    try:
        value: Any = json.loads(text)
    except json.JSONDecodeError:
        return None
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, Mapping):
            if isinstance(item.get(key), str):
                return str(item[key])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None
