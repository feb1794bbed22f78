"""Prices of model tokens."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Price(BaseModel):
    """What a model charges, in US dollars per million tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    input_per_mtok: float = Field(0.0, ge=0, description="USD per 1M prompt (input) tokens.")
    output_per_mtok: float = Field(0.0, ge=0, description="USD per 1M completion (output) tokens.")

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """Cost in US dollars of one call with the given token counts."""
        return (
            prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok
        ) / 1_000_000
