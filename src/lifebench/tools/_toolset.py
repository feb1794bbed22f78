"""An ordered set of tools that executes :class:`ToolCall`s and describes its dependency graph."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lifebench._util.text import Language
from lifebench.messages import ToolCall, ToolResultMessage
from lifebench.tools._spec import ToolKind
from lifebench.tools._tool import Tool, ToolOutcome


@dataclass(frozen=True)
class ToolGraphStats:
    """Size of the tool dependency graph (VitaBench §3.1): |V|, |E| and ρ = |E| / (|V|(|V|−1))."""

    nodes: int
    edges: int
    density: float


class ToolSet:
    """The tools one environment offers, by name, with no duplicates."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools: dict[str, Tool] = {}
        for t in tools:
            if t.name in self._tools:
                raise ValueError(f"duplicate tool name: {t.name}")
            self._tools[t.name] = t

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    @property
    def names(self) -> list[str]:
        """Tool names in definition order."""
        return list(self._tools)

    def openai_schemas(self, language: Language = "en") -> list[dict[str, Any]]:
        """Every tool's OpenAI function schema."""
        return [t.openai_schema(language) for t in self]

    def count_by_kind(self) -> dict[str, int]:
        """Number of tools of each kind (read / write / general)."""
        counts = {k.value: 0 for k in ToolKind}
        for t in self:
            counts[t.kind.value] += 1
        return counts

    def edges(self) -> list[tuple[str, str]]:
        """Dependency edges (prerequisite → dependant) among tools present in this set."""
        return sorted(
            {(dep, t.name) for t in self for dep in t.spec.depends_on if dep in self._tools}
        )

    def graph_stats(self) -> ToolGraphStats:
        """|V|, |E| and density of the dependency graph."""
        n = len(self)
        e = len(self.edges())
        return ToolGraphStats(nodes=n, edges=e, density=(e / (n * (n - 1))) if n > 1 else 0.0)

    async def run(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome:
        """Run one tool by name; an unknown name is a tool error, not an exception."""
        t = self._tools.get(name)
        if t is None:
            return ToolOutcome(
                content=f"Tool '{name}' does not exist. Available tools: {', '.join(self.names)}.",
                error=True,
                error_kind="unknown_tool",
            )
        return await t.run(arguments)

    async def execute(self, call: ToolCall, turn: int = 0) -> ToolResultMessage:
        """Run ``call`` and wrap the outcome as the message the agent sees."""
        outcome = await self.run(call.name, call.arguments)
        return ToolResultMessage(
            tool_call_id=call.id,
            name=call.name,
            content=outcome.content,
            error=outcome.error,
            error_kind=outcome.error_kind,
            turn=turn,
            usage=outcome.usage,
        )
