"""The FlowBench suite (placeholder: flow B replaces it with the real glue)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lifebench._util.text import Language
from lifebench.flow.options import FlowOptions
from lifebench.suites._tables import StatsTable


class FlowSuite:
    """FlowBench: knowledge base, ReAct agents, turn- and session-level evaluation."""

    name = "flow"
    options_model = FlowOptions

    def stats(self, sources: Sequence[Path], domain: str | None, language: Language) -> StatsTable:
        """Nodes / edges / tools per scenario of the knowledge bases ``sources``."""
        from lifebench.flow.stats import suite_stats

        return suite_stats(sources, domain, language)
