"""The one chat interface every role uses (agent, user simulator, judge, tool simulator)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from lifebench.messages import AssistantMessage, Message


class GenerateConfig(BaseModel):
    """Sampling options of one call; ``None`` means the provider's default."""

    model_config = ConfigDict(frozen=True)

    temperature: float | None = Field(None, description="Sampling temperature.")
    max_tokens: int | None = Field(None, description="Cap on completion tokens.")
    top_p: float | None = Field(None, description="Nucleus sampling.")
    reasoning_effort: str | None = Field(None, description="For reasoning models: low/medium/high.")
    seed: int | None = Field(None, description="Forwarded to the provider where it accepts one.")
    extra_body: dict[str, Any] = Field(
        default_factory=dict, description="Provider-specific fields added to the request body."
    )

    def merged(self, other: GenerateConfig | None) -> GenerateConfig:
        """``self`` overridden by the fields ``other`` sets explicitly."""
        if other is None:
            return self
        data = self.model_dump()
        for key in other.model_fields_set:
            data[key] = getattr(other, key)
        return GenerateConfig(**data)


class ModelStats(BaseModel):
    """Counters of one provider instance (per run, never module-global)."""

    calls: int = Field(0, description="Completed calls (including cache hits).")
    api_calls: int = Field(0, description="HTTP requests sent, including retried ones.")
    retries: int = Field(0, description="Attempts that failed and were retried.")
    failures: int = Field(0, description="Calls that failed after all retries.")
    cache_hits: int = Field(0, description="Calls answered from the on-disk cache.")
    usage_missing: int = Field(
        0, description="Answers that reported no token usage (tokens and cost unknown)."
    )
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0


@runtime_checkable
class ChatModel(Protocol):
    """An asynchronous chat model with optional tool calling.

    ``generate`` returns the assistant message with its :class:`~lifebench.messages.Usage`
    filled in. It raises :class:`lifebench.errors.ModelError` when the call cannot be completed
    after bounded retries; it never returns ``None``.
    """

    @property
    def name(self) -> str:
        """Display name (never contains credentials)."""
        ...

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        config: GenerateConfig | None = None,
    ) -> AssistantMessage:
        """Produce the next assistant message for ``messages``."""
        ...
