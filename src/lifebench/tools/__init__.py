"""Tools: typed Python functions with schemas, validation, pre/postconditions and a graph."""

from lifebench.tools._errors import ToolError, ToolErrorKind
from lifebench.tools._spec import Param, ToolKind, ToolSpec, tool
from lifebench.tools._tool import Tool, ToolOutcome, render_result, tools_of
from lifebench.tools._toolset import ToolGraphStats, ToolSet

__all__ = [
    "Param",
    "Tool",
    "ToolError",
    "ToolErrorKind",
    "ToolGraphStats",
    "ToolKind",
    "ToolOutcome",
    "ToolSet",
    "ToolSpec",
    "render_result",
    "tool",
    "tools_of",
]
