"""Cache keys: the official key string, byte for byte, and a value-normalised variant.

Official recipe (spec §3.2): ``P`` = JSON of the arguments with sorted keys, non-ASCII kept and
the default separators (", " / ": "); the key is the compact JSON of the sorted pairs
``[["params", P], ["time", T]]`` with ``T`` the row's raw time string. Only key order and JSON
escaping are normalised, so ``3`` vs ``3.0``, ``"39.9, 116.4"`` vs ``"39.9,116.4"`` or an
explicitly passed default all miss.

The normalised variant (``--normalize-keys``) also trims strings, writes integral numbers
without a fraction, writes "lat,lng" strings as two canonical numbers, and drops arguments
equal to the tool's documented default; it is applied to both the call and the cache file's
own keys, so the two meet.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from lifebench.travel.tools.specs import BY_NAME

_PAIR = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*$")


def official_params(args: Mapping[str, Any]) -> str:
    """``P``: the arguments as the official harness serialises them."""
    return json.dumps(dict(args), sort_keys=True, ensure_ascii=False)


def key_of(params: str, time: str) -> str:
    """The cache key string for a params string ``P`` and the row time ``T``."""
    return json.dumps(
        [["params", params], ["time", time]], ensure_ascii=False, separators=(",", ":")
    )


def official_key(args: Mapping[str, Any], time: str) -> str:
    """The exact official cache key of a call."""
    return key_of(official_params(args), time)


def _number(value: float) -> int | float:
    if math.isfinite(value) and value == int(value):
        return int(value)
    return value


def _value(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return _number(float(value))
    if isinstance(value, str):
        text = value.strip()
        pair = _PAIR.match(text)
        if pair:
            lat, lng = (_number(float(g)) for g in pair.groups())
            return f"{lat},{lng}"
        return text
    if isinstance(value, list):
        return [_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _value(v) for k, v in value.items()}
    return value


def normalized_params(tool: str, args: Mapping[str, Any]) -> str:
    """``P`` after value normalisation (explicit defaults dropped)."""
    spec = BY_NAME.get(tool)
    defaults = {k: _value(v) for k, v in (spec.defaults if spec else {}).items()}
    out: dict[str, Any] = {}
    for name, raw in args.items():
        value = _value(raw)
        if name in defaults and value == defaults[name] and type(value) is type(defaults[name]):
            continue
        out[name] = value
    return json.dumps(out, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def normalized_key(tool: str, args: Mapping[str, Any], time: str) -> str:
    """The normalised cache key of a call."""
    return key_of(normalized_params(tool, args), time.strip())


def params_of_key(key: str) -> str | None:
    """``P`` inside an official key string (None when the key has another shape)."""
    try:
        pairs = json.loads(key)
    except json.JSONDecodeError:
        return None
    if isinstance(pairs, list):
        for item in pairs:
            if isinstance(item, list) and len(item) == 2 and item[0] == "params":
                return str(item[1])
    return None


def time_of_key(key: str) -> str | None:
    """``T`` inside an official key string."""
    try:
        pairs = json.loads(key)
    except json.JSONDecodeError:
        return None
    if isinstance(pairs, list):
        for item in pairs:
            if isinstance(item, list) and len(item) == 2 and item[0] == "time":
                return str(item[1])
    return None


def renormalize_key(tool: str, key: str) -> str | None:
    """The normalised form of a key found in a cache file (None when it cannot be parsed)."""
    params, time = params_of_key(key), time_of_key(key)
    if params is None or time is None:
        return None
    try:
        args = json.loads(params)
    except json.JSONDecodeError:
        return None
    if not isinstance(args, dict):
        return None
    return normalized_key(tool, args, time)
