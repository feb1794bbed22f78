"""The ten TravelBench tools: schemas (:mod:`specs`), official-compatible argument checks
(:mod:`validation`), administrative-division resolution (:mod:`regions`) and the core
:class:`~lifebench.tools.Tool` wrapper (:mod:`toolset`)."""

from lifebench.travel.tools.specs import BY_NAME, TOOL_NAMES, TOOLS, tool_schemas

__all__ = ["BY_NAME", "TOOLS", "TOOL_NAMES", "tool_schemas"]
