"""The environment of one travel episode: the ten tools at the row's time and language, over
the run's shared sandbox, with counters of where the answers came from."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lifebench._util.text import Language
from lifebench.tools import ToolSet
from lifebench.travel.sandbox import Sandbox
from lifebench.travel.sandbox.backend import Source
from lifebench.travel.task import parse_time

_SOURCE_COUNTER: dict[Source, str] = {
    "cache": "cache_hits",
    "memo": "memo_hits",
    "simulated": "simulated_calls",
    "offline": "offline_answers",
    "miss": "unanswered",
}


class TravelEnvironment:
    """Tools + counters for one episode (fresh per episode; the sandbox is shared)."""

    def __init__(self, sandbox: Sandbox, time: str, language: Language) -> None:
        from lifebench.travel.tools.toolset import travel_toolset

        self.sandbox = sandbox
        self.time = time
        self.now: datetime = parse_time(time)
        self.language: Language = language
        self.counters: dict[str, int] = {
            "calls": 0,
            "cache_hits": 0,
            "memo_hits": 0,
            "simulated_calls": 0,
            "offline_answers": 0,
            "unanswered": 0,
            "validation_errors": 0,
        }
        self.sources: list[str] = []
        self._tools = travel_toolset(self)

    @property
    def tools(self) -> ToolSet:
        """The ten tools."""
        return self._tools

    def count_invalid(self) -> None:
        """A call rejected by validation (no answer)."""
        self.counters["calls"] += 1
        self.counters["validation_errors"] += 1
        self.sources.append("invalid")

    def count_answer(self, source: Source) -> None:
        """A call answered from ``source``."""
        self.counters["calls"] += 1
        self.counters[_SOURCE_COUNTER[source]] += 1
        self.sources.append(source)

    def snapshot(self) -> dict[str, Any]:
        """``{"sandbox": counters}``; ``cache_misses`` counts every call not served from the
        official cache, invalid ones included (as the official metadata does)."""
        counters = dict(self.counters)
        counters["cache_misses"] = counters["calls"] - counters["cache_hits"]
        return {
            "sandbox": {"backend": self.sandbox.config.backend, **counters},
            "tool_sources": list(self.sources),
        }
