"""The offline environment answerer: a deterministic return value built from a tool's output
parameters, for calls the gold session did not record.

Each output parameter gets a value from its declaration: an enumeration's first value (the
data lists the positive outcome first: ``[true, false]``, ``[can be found, cannot be found]``),
the first example of a ``such as "…"`` / ``e.g. "…"`` description, else a value derived from a
hash of the call (the same call always gets the same answer); objects are filled recursively
and lists get one item.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from lifebench.flow.evaluation.matching import enum_values
from lifebench.flow.kb.models import JSON_TYPES, ParamSpec, ToolDef

_EXAMPLE = re.compile(r"(?:such as|e\.g\.|for example|例如|如)[,:：]?\s*[\"“]([^\"”]+)[\"”]", re.I)


def _seed(tool: str, arguments: Mapping[str, Any]) -> int:
    text = json.dumps([tool, arguments], ensure_ascii=False, sort_keys=True, default=str)
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


def _example(description: str) -> str | None:
    m = _EXAMPLE.search(description or "")
    if m is None:
        return None
    first = re.split(r"[,，、]\s*", m.group(1).strip())[0].strip()
    return first or None


def _value(name: str, spec: ParamSpec, seed: int) -> Any:
    kind = JSON_TYPES.get(spec.type, "string")
    if kind == "object":
        return {
            k: _value(k, v, seed + i) for i, (k, v) in enumerate((spec.properties or {}).items())
        }
    if kind == "array":
        item = spec.items or ParamSpec(type="string", description=spec.description)
        return [_value(name, item, seed)]
    enum = enum_values(spec.description)
    example = _example(spec.description)
    if kind == "boolean":
        return True
    if kind in ("integer", "number"):
        for candidate in (*enum, example or ""):
            digits = re.search(r"-?\d+(?:\.\d+)?", candidate)
            if digits:
                number = float(digits.group(0))
                return int(number) if kind == "integer" else number
        return 1 + seed % 97
    if enum:
        return enum[0]
    if example:
        return example
    return f"{name}-{seed % 10000:04d}"


def offline_answer(tool: ToolDef, arguments: Mapping[str, Any]) -> str:
    """The deterministic JSON answer of ``tool`` to ``arguments``."""
    seed = _seed(tool.name, arguments)
    value = {k: _value(k, spec, seed + i) for i, (k, spec) in enumerate(tool.outputs.items())}
    return json.dumps(value, ensure_ascii=False)
