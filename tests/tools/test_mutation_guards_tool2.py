"""Mutation guards for ``tools/_tool.py`` (issue 21): the lenient reading of integral floats
never turns an argument the strict model refuses into an internal tool error, and never
changes what it accepts."""

from __future__ import annotations

import json
import typing
from typing import Any

import pytest

from lifebench.tools import ToolSet, tool, tools_of


class _Kit:
    @tool(kind="read", description="An optional count.")
    def maybe_count(self, count: int | None = None) -> Any:
        return {"count": count}

    @tool(kind="read", description="An optional name.")
    def maybe_name(self, name: str | None = None) -> Any:
        return {"name": name}

    @tool(kind="read", description="Anything in a bare list.")
    def bare(self, items: list) -> Any:  # type: ignore[type-arg]
        return {"items": items}

    @tool(kind="read", description="Anything in a bare typing.List (an origin without args).")
    def bare_alias(self, items: typing.List) -> Any:  # type: ignore[type-arg]  # noqa: UP006
        return {"items": items}

    @tool(kind="read", description="A one-element tuple.")
    def single(self, pair: tuple[int]) -> Any:
        return {"pair": list(pair)}


async def _run(name: str, arguments: dict[str, Any]) -> Any:
    return await ToolSet(tools_of(_Kit())).run(name, json.dumps(arguments))


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("maybe_count", {"count": [1.0]}, "argument 'count': Input should be a valid integer"),
        ("maybe_name", {"name": ["a"]}, "argument 'name': Input should be a valid string"),
        ("single", {"pair": [1.0]}, "argument 'pair': Input should be a valid tuple"),
    ],
)
async def test_a_list_where_no_list_fits_is_a_bad_argument_not_an_internal_error(
    name: str, arguments: dict[str, Any], message: str
) -> None:
    outcome = await _run(name, arguments)
    assert (outcome.error, outcome.error_kind) == (True, "bad_arguments")
    assert outcome.content == f"Invalid arguments for {name}: {message}."


@pytest.mark.parametrize("name", ["bare", "bare_alias"])
async def test_a_bare_list_takes_its_items_as_they_are(name: str) -> None:
    outcome = await _run(name, {"items": [1.0, "a", 2.5]})
    assert not outcome.error, outcome.content
    assert outcome.content == '{"items": [1.0, "a", 2.5]}'
