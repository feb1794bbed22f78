"""The official VitaBench task format, loaded unchanged (unknown fields tolerated)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from lifebench._util.hashing import stable_hash


class LoadNote(BaseModel):
    """Something the loader changed in a task while reading it (e.g. a normalised time).

    Not part of the task's data: never dumped, hashed or stored; ``lifebench tasks validate``
    reports each note as a lint warning.
    """

    model_config = ConfigDict(frozen=True)

    field: str = Field(description="Field path, e.g. ``environment.time``.")
    message: str = Field(description="What was changed, naming the file it was read from.")


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
    _load_notes: tuple[LoadNote, ...] = PrivateAttr(default=())

    @property
    def load_notes(self) -> tuple[LoadNote, ...]:
        """What the loader normalised in this task (see :class:`LoadNote`)."""
        return self._load_notes

    def record_load_notes(self, notes: list[LoadNote]) -> None:
        """Attach the loader's notes (replacing earlier ones)."""
        self._load_notes = tuple(notes)

    def content_hash(self) -> str:
        """sha256 of the task's canonical JSON, used to refuse resuming over a changed task."""
        return stable_hash(self.model_dump(mode="json"))
