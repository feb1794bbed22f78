"""The ``@tool`` decorator and per-parameter documentation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from lifebench._util.text import Text, as_text

F = TypeVar("F", bound=Callable[..., Any])

TOOL_SPEC_ATTR = "__lifebench_tool__"


class ToolKind(StrEnum):
    """What a tool does to the world (VitaBench's read / write / general labels)."""

    READ = "read"
    WRITE = "write"
    GENERAL = "general"


@dataclass(frozen=True)
class Param:
    """Documentation for one tool parameter, used as ``Annotated[T, Param(...)]``."""

    description: Text

    def __init__(self, en: str, zh: str | None = None) -> None:
        object.__setattr__(self, "description", Text(en, zh))


@dataclass(frozen=True)
class ToolSpec:
    """Metadata attached to a tool function by :func:`tool`."""

    kind: ToolKind
    description: Text
    preconditions: tuple[Text, ...] = ()
    postconditions: tuple[Text, ...] = ()
    depends_on: tuple[str, ...] = ()
    returns: Text | None = None
    name: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """Derived, immutable artefacts (argument model, schemas) computed once per function.

    They depend only on the function's signature and this spec, never on an instance or a
    task, so every environment built from the same class shares them safely.
    """


def tool(
    *,
    kind: ToolKind | str,
    description: str | Text,
    preconditions: Sequence[str | Text] = (),
    postconditions: Sequence[str | Text] = (),
    depends_on: Sequence[str] = (),
    returns: str | Text | None = None,
    name: str | None = None,
) -> Callable[[F], F]:
    """Mark a (possibly async) function or method as a tool.

    The function's signature is the single source of the parameter schema: names, types
    (``Literal`` becomes an enum), required (no default) versus optional. Preconditions and
    postconditions are appended to the description the agent sees, carrying the domain rules
    that a policy document would otherwise hold. ``depends_on`` names the tools whose output
    this one needs (the edges of the tool graph).
    """
    spec = ToolSpec(
        kind=ToolKind(kind),
        description=as_text(description),
        preconditions=tuple(as_text(p) for p in preconditions),
        postconditions=tuple(as_text(p) for p in postconditions),
        depends_on=tuple(depends_on),
        returns=as_text(returns) if returns is not None else None,
        name=name,
    )

    def mark(fn: F) -> F:
        setattr(fn, TOOL_SPEC_ATTR, spec)
        return fn

    return mark
