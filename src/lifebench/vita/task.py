"""The official VitaBench task format, loaded unchanged (unknown fields tolerated)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lifebench._util.hashing import stable_hash


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="allow")


class UserScenario(_Lenient):
    """What the user simulator plays."""

    user_profile: dict[str, Any] = Field(
        default_factory=dict, description="Persona attributes (English or Chinese keys)."
    )


class ExpectedState(_Lenient):
    """One checkpoint of the expected final world (orders that must exist, rubrics)."""

    required_orders: list[dict[str, Any]] = Field(
        default_factory=list, description="Order-shaped records that must hold at the end."
    )
    optional_orders: list[dict[str, Any]] = Field(
        default_factory=list, description="Orders that may exist (empty in every official file)."
    )
    state_rubrics: list[str] = Field(default_factory=list, description="Checks for this state.")


class EvaluationCriteria(_Lenient):
    """Grading material of a task."""

    expected_states: list[ExpectedState] = Field(default_factory=list)
    overall_rubrics: list[str] = Field(default_factory=list)


class VitaTask(_Lenient):
    """One VitaBench task as in the official ``tasks*.json`` files."""

    id: str = Field(description="Task id, unique within a file.")
    domain: str = Field("", description="Informational domain label (inconsistent in the data).")
    environment: dict[str, Any] = Field(
        description="The task's private database and frozen clock (``time``, ``user_id``, tables)."
    )
    user_scenario: UserScenario = Field(default_factory=UserScenario)
    instructions: str = Field(
        "", description="The user's goal; shown to the simulator and judge only."
    )
    evaluation_criteria: EvaluationCriteria | None = Field(None)
    message_history: list[dict[str, Any]] | None = Field(
        None, description="Pre-filled conversation (empty in every official file)."
    )

    def content_hash(self) -> str:
        """sha256 of the task's canonical JSON, used to refuse resuming over a changed task."""
        return stable_hash(self.model_dump(mode="json"))
