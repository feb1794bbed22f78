"""Human-readable differences between a stored run and the one being resumed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lifebench._util.hashing import canonical_json

_MAX_VALUE_CHARS = 80


def _flatten(value: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested mappings as ``{"a.b.c": leaf}``; lists and scalars are leaves."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        path = f"{prefix}{key}"
        if isinstance(item, Mapping) and item:
            out.update(_flatten(item, path + "."))
        else:
            out[path] = item
    return out


def _show(value: Any) -> str:
    """The value as JSON, at most ``_MAX_VALUE_CHARS`` long: a longer one keeps both ends (the
    end of a path is its file name) around an ellipsis."""
    text = canonical_json(value)
    if len(text) > _MAX_VALUE_CHARS:
        head = (_MAX_VALUE_CHARS - 1) // 2
        tail = _MAX_VALUE_CHARS - 1 - head
        text = text[:head] + "…" + text[-tail:]
    return text


def config_differences(stored: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """One line per differing key (dotted path), sorted: changed, added and removed keys."""
    old, new = _flatten(stored), _flatten(current)
    lines: list[str] = []
    for key in sorted(old.keys() | new.keys()):
        if key not in new:
            lines.append(f"{key}: removed (was {_show(old[key])})")
        elif key not in old:
            lines.append(f"{key}: added ({_show(new[key])})")
        elif canonical_json(old[key]) != canonical_json(new[key]):
            lines.append(f"{key}: {_show(old[key])} -> {_show(new[key])}")
    return lines


def task_differences(
    stored: Mapping[str, str], current: Mapping[str, str]
) -> tuple[list[str], list[str], list[str]]:
    """(changed, removed, added) task ids, each sorted."""
    changed = sorted(t for t in stored.keys() & current.keys() if stored[t] != current[t])
    removed = sorted(stored.keys() - current.keys())
    added = sorted(current.keys() - stored.keys())
    return changed, removed, added
