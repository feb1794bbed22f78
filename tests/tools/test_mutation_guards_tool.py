"""Guards found by breaking changes (scripts/breaking_changes.py: ``tool-null-optional``,
``tool-internal-error``): what a tool call answers when an argument is ``null`` where a value is
required, and when the tool itself has a bug."""

from __future__ import annotations

import json
from typing import Any

from lifebench.tools import ToolSet, tool, tools_of


class _Kit:
    @tool(kind="read", description="Look a name up.")
    def lookup(self, name: str, limit: int = 3) -> dict[str, Any]:
        return {"name": name, "limit": limit}

    @tool(kind="read", description="A tool with a bug.")
    def broken(self, key: str) -> str:
        raise RuntimeError(f"no row for {key}")


async def _run(name: str, arguments: dict[str, Any]) -> Any:
    return await ToolSet(tools_of(_Kit())).run(name, json.dumps(arguments))


async def test_null_for_a_required_argument_is_a_type_error_not_a_missing_argument() -> None:
    """``null`` is only "not given" for an optional argument; for a required one the agent sent
    a wrong value, and the error says so (not that the argument is missing)."""
    outcome = await _run("lookup", {"name": None})
    assert outcome.error
    assert "name" in outcome.content
    assert "missing" not in outcome.content, outcome.content
    optional = await _run("lookup", {"name": "Ada", "limit": None})
    assert not optional.error, optional.content
    assert json.loads(optional.content) == {"name": "Ada", "limit": 3}


async def test_a_bug_in_a_tool_is_an_internal_tool_error_not_the_end_of_the_episode() -> None:
    outcome = await _run("broken", {"key": "k1"})
    assert outcome.error
    assert outcome.error_kind == "internal"
    assert outcome.content == "Internal error in tool broken: RuntimeError: no row for k1"
