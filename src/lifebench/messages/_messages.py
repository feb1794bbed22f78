"""Pydantic models of the messages that make up a trajectory."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["system", "user", "assistant", "tool"]


class Usage(BaseModel):
    """Token usage and cost of one model call."""

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = Field(0, description="Tokens sent to the model (input).")
    completion_tokens: int = Field(0, description="Tokens produced by the model (output).")
    cost: float = Field(
        0.0,
        description="Cost of the call in US dollars (0 for calls counted in ``unpriced``).",
    )
    cached: bool = Field(
        False, description="True when the answer came from the on-disk model cache."
    )
    retries: int = Field(0, description="Failed attempts that were retried before this answer.")
    calls: int = Field(1, description="Number of model calls summed into this record.")
    usage_missing: int = Field(
        0,
        description="Calls whose answer reported no token usage: their tokens and cost are "
        "unknown and counted as 0.",
    )
    unpriced: int = Field(
        0,
        description="Calls to a model whose price is unknown (no models-file price, not in "
        "genai-prices): their cost is unknown, not 0.",
    )
    priced_by: tuple[str, ...] = Field(
        (), description="Where the prices of the priced calls come from (sorted, distinct)."
    )

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost=self.cost + other.cost,
            cached=self.cached and other.cached,
            retries=self.retries + other.retries,
            calls=self.calls + other.calls,
            usage_missing=self.usage_missing + other.usage_missing,
            unpriced=self.unpriced + other.unpriced,
            priced_by=(
                tuple(sorted({*self.priced_by, *other.priced_by}))
                if other.priced_by != self.priced_by
                else self.priced_by
            ),
        )

    @classmethod
    def zero(cls) -> Usage:
        """The neutral element of ``+`` (no calls)."""
        return cls(calls=0, cached=True)


class ToolCall(BaseModel):
    """A request, made by the agent, to run one tool."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Identifier pairing the call with its result message.")
    name: str = Field(description="Name of the tool to run.")
    arguments: str = Field(
        "{}",
        description="Arguments exactly as the model produced them (a JSON text, possibly malformed).",
    )


class _Base(BaseModel):
    model_config = ConfigDict(frozen=True)

    turn: int = Field(0, description="0-based position of the message in the trajectory.")


class SystemMessage(_Base):
    """Instructions for a model (agent rules, simulator persona, judge rubric)."""

    role: Literal["system"] = "system"
    content: str = Field(description="The instruction text.")


class UserMessage(_Base):
    """A message from the (simulated) user to the agent."""

    role: Literal["user"] = "user"
    content: str = Field(description="What the user said.")
    usage: Usage | None = Field(None, description="Usage of the simulator call that produced it.")


class AssistantMessage(_Base):
    """A message from the agent: text for the user, tool calls for the environment, or both."""

    role: Literal["assistant"] = "assistant"
    content: str = Field("", description="Text addressed to the user (may be empty).")
    tool_calls: list[ToolCall] = Field(default_factory=list, description="Tool calls, in order.")
    reasoning: str | None = Field(
        None, description="Reasoning text returned by thinking models, passed back on later turns."
    )
    usage: Usage | None = Field(None, description="Usage of the model call that produced it.")
    raw: dict[str, Any] | None = Field(
        None, description="Provider-specific extras worth keeping (never credentials)."
    )


class ToolResultMessage(_Base):
    """The result of one tool call, as the agent sees it."""

    role: Literal["tool"] = "tool"
    tool_call_id: str = Field(description="Id of the ToolCall this answers.")
    name: str = Field(description="Name of the tool that ran (or was asked for).")
    content: str = Field(description="Result text shown to the agent.")
    error: bool = Field(
        False, description="True when the call failed (bad arguments, unknown tool, precondition)."
    )
    error_kind: str | None = Field(
        None,
        description="Machine-readable class of failure: unknown_tool, bad_arguments, "
        "precondition, not_found, internal.",
    )
    usage: Usage | None = Field(
        None, description="Usage of the tool-simulator model call that produced it, if any."
    )


Message = Annotated[
    SystemMessage | UserMessage | AssistantMessage | ToolResultMessage,
    Field(discriminator="role"),
]
