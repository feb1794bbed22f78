"""A tool result of plain JSON data is encoded as it is (tools._tool._plain): the text is
always the one the conversion path gives, for plain and non-plain values alike."""

from __future__ import annotations

import enum
import json
from collections import OrderedDict
from types import MappingProxyType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from lifebench.tools._tool import _jsonable, _plain, render_result


class Colour(str, enum.Enum):  # noqa: UP042  (str() is not the value)
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 2


class Item(BaseModel):
    name: str
    tags: tuple[str, ...] = ()


class Word(str):
    """A str subclass whose str() differs from its JSON key reading."""

    def __str__(self) -> str:
        return "word:" + super().__str__()


def converted(value: Any) -> str:
    """The text before the fast path: convert, then encode."""
    return json.dumps(_jsonable(value), ensure_ascii=False)


def before(value: Any) -> str:
    """render_result as it was before the fast path."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump_json(exclude_none=False)
    return converted(value)


def outcome(render: Any, value: Any) -> tuple[str, str]:
    try:
        return "ok", render(value)
    except Exception as exc:  # both paths must fail alike on what JSON cannot hold
        return "error", type(exc).__name__


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from([Colour.RED, Level.HIGH, Word("w"), Item(name="x", tags=("a",))]),
)
keys = st.one_of(
    st.text(max_size=6),
    st.integers(-3, 3),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.sampled_from([Colour.RED, Level.HIGH, Word("k")]),
)


def containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=6), children, max_size=4),
        st.dictionaries(keys, children, max_size=4),
        st.dictionaries(st.text(max_size=6), children, max_size=3).map(OrderedDict),
        st.dictionaries(st.text(max_size=6), children, max_size=3).map(MappingProxyType),
        st.lists(st.integers(), max_size=3).map(set),
    )


values = st.recursive(scalars, containers, max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(values)
def test_render_is_the_converted_text(value: Any) -> None:
    assert outcome(render_result, value) == outcome(before, value)


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text()), containers))
def test_plain_means_the_conversion_changes_nothing_json_sees(value: Any) -> None:
    if _plain(value):
        assert json.dumps(value, ensure_ascii=False) == converted(value)


def test_what_is_plain() -> None:
    assert _plain({"a": [1, 2.5, None, True, ("x", {"b": "c"})]})
    assert not _plain({1: "int key"})
    assert not _plain({True: "bool key"})
    assert not _plain({Word("k"): "str subclass key"})
    assert not _plain([Colour.RED])
    assert not _plain([Level.HIGH])
    assert not _plain([Item(name="x")])
    assert not _plain(OrderedDict(a=1))
    assert not _plain(MappingProxyType({"a": 1}))
    assert not _plain([{1, 2}])
    # the texts these would differ in without the conversion
    assert render_result({True: 1, None: 2}) == '{"True": 1, "None": 2}'
    assert render_result({Word("k"): 1}) == '{"word:k": 1}'
