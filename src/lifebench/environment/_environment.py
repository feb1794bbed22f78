"""What the simulation loop needs from an environment."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from lifebench.tools import ToolSet


@runtime_checkable
class Environment(Protocol):
    """A fresh, isolated world for one simulation.

    Built per simulation from the task's own data; it must share no mutable state with other
    environments. ``snapshot`` returns its state as JSON-compatible data, stored with the
    simulation and read by state-based evaluators.
    """

    @property
    def tools(self) -> ToolSet:
        """The tools the agent may call."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """The current state as JSON-compatible data."""
        ...
