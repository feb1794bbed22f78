"""Records of one simulated episode."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from lifebench.messages import Message, Usage


class TerminationReason(StrEnum):
    """Why an episode ended."""

    AGENT_STOP = "agent_stop"
    USER_STOP = "user_stop"
    MAX_STEPS = "max_steps"
    TOO_MANY_ERRORS = "too_many_errors"
    INVALID_AGENT_MESSAGE = "invalid_agent_message"
    INFRASTRUCTURE_ERROR = "infrastructure_error"
    MAX_TURNS = "max_turns"
    """The agent answered the user the allowed number of times (``Limits.max_turns``)."""
    MAX_AGENT_CALLS = "max_agent_calls"
    """The agent made ``Limits.max_agent_calls_per_turn`` model calls in one turn without
    answering the user."""
    STATIC = "static"
    """A static (teacher-forced) episode that recorded its predictions (``Episode.predict_at``)."""

    @property
    def is_normal(self) -> bool:
        """True for the endings after which the trajectory is graded on its merits."""
        return self in (
            TerminationReason.AGENT_STOP,
            TerminationReason.USER_STOP,
            TerminationReason.MAX_TURNS,
            TerminationReason.STATIC,
        )


class Simulation(BaseModel):
    """One episode: the trajectory, how it ended, what it cost, and the final state."""

    task_id: str = Field(description="Id of the task that was simulated.")
    trial: int = Field(description="0-based trial index.")
    seed: int = Field(description="Seed of this (task, trial) unit, forwarded to every model.")
    messages: list[Message] = Field(default_factory=list, description="The full trajectory.")
    termination: TerminationReason = Field(description="Why the episode ended.")
    error: str | None = Field(None, description="Error text for infrastructure errors.")
    steps: int = Field(0, description="Steps taken (user message, agent message, tool batch).")
    tool_calls: int = Field(0, description="Tool calls the agent made.")
    tool_errors: int = Field(0, description="Tool calls that returned an error.")
    agent_usage: Usage = Field(default_factory=Usage.zero, description="Agent model usage.")
    user_usage: Usage = Field(default_factory=Usage.zero, description="User simulator usage.")
    tool_usage: Usage = Field(
        default_factory=Usage.zero, description="Tool-simulator model usage (simulated tools)."
    )
    duration_s: float = Field(0.0, description="Wall-clock seconds of the episode.")
    final_state: dict[str, Any] = Field(
        default_factory=dict, description="Environment snapshot at the end of the episode."
    )
    info: dict[str, Any] = Field(default_factory=dict, description="Free-form diagnostics.")

    @property
    def turns(self) -> int:
        """Number of user and assistant messages (tool results excluded)."""
        return sum(1 for m in self.messages if m.role in ("user", "assistant"))
