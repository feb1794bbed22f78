"""What a suite returns to the ``tasks`` commands: lint findings and a statistics table."""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

Severity = Literal["error", "warning"]


@runtime_checkable
class Finding(Protocol):
    """One problem found in one task by a suite's lint (``tasks validate``)."""

    @property
    def task_id(self) -> str: ...

    @property
    def field(self) -> str: ...

    @property
    def severity(self) -> str: ...

    @property
    def message(self) -> str: ...

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]: ...


class StatsTable(BaseModel):
    """Statistics of task sets (``tasks stats``): a table for people and rows for machines."""

    model_config = ConfigDict(frozen=True)

    title: str = Field(description="What the table shows.")
    columns: list[str] = Field(description="Column headers.")
    left_columns: list[int] = Field(
        default_factory=lambda: [0], description="Indexes of text (left-aligned) columns."
    )
    rows: list[list[str]] = Field(description="Formatted cells, one list per row.")
    data: list[dict[str, Any]] = Field(description="The same rows as JSON-ready objects.")
    notes: list[str] = Field(default_factory=list, description="Lines printed under the table.")
