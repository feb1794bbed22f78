"""Unknown keys in configuration files (sweep, models): where they are and what was meant.

A YAML or JSON file is composed once more with PyYAML to learn the line of every mapping key,
so an error can name the file, the line and the key, and suggest the known key it most likely
stands for ("did you mean tasks_file?").
"""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from lifebench.errors import InputError

Path_ = tuple[str | int, ...]


def key_lines(text: str) -> dict[Path_, int]:
    """1-based line of every mapping key of a YAML / JSON document, by its path of keys and
    list indexes (empty when the text does not compose)."""
    import yaml

    try:
        root = yaml.compose(text)
    except (yaml.YAMLError, RecursionError):
        return {}
    lines: dict[Path_, int] = {}

    def walk(node: Any, path: Path_) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = str(key.value)
                lines.setdefault((*path, name), key.start_mark.line + 1)
                walk(value, (*path, name))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, (*path, i))

    if root is not None:
        walk(root, ())
    return lines


def suggestion(key: str, known: Iterable[str], aliases: Mapping[str, str] | None = None) -> str:
    """`` — did you mean 'x'?`` for the known key ``key`` most likely stands for ("" if none)."""
    if aliases and key in aliases:
        return f"; did you mean '{aliases[key]}'?"
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    if not close:
        lowered = {k.lower(): k for k in known}
        close = [lowered[key.lower()]] if key.lower() in lowered else []
    return f"; did you mean '{close[0]}'?" if close else ""


def unknown_key(
    source: str,
    path: Path_,
    known: Iterable[str],
    lines: Mapping[Path_, int],
    *,
    aliases: Mapping[str, str] | None = None,
    what: str = "key",
) -> InputError:
    """The error for the unknown key at ``path`` (file, line, key, a suggestion)."""
    key = str(path[-1])
    where = ".".join(str(p) for p in path[:-1])
    line = lines.get(path)
    place = f"{source}, line {line}" if line else source
    inside = f" in {where}" if where else ""
    return InputError(
        f"unknown {what} '{key}'{inside}{suggestion(key, known, aliases)}",
        file=place,
        field=".".join(str(p) for p in path),
    )


def _inner(annotation: Any) -> Any:
    """The model or mapping a field annotation holds (Optional / dict values unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            if arg is not type(None):
                return _inner(arg)
    return annotation


def fields_at(model: type[BaseModel], loc: Sequence[str | int]) -> list[str]:
    """The field names allowed at the mapping ``loc`` points into (``loc`` ends with the
    offending key; dict keys and list indexes along it are stepped over)."""
    current: Any = model
    for part in loc[:-1]:
        current = _inner(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(str(part))
            if field is None:
                return []
            current = field.annotation
            continue
        args = typing.get_args(current)
        if not args:
            return []
        current = args[-1]  # dict[str, X] → X, list[X] → X
    current = _inner(current)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []
