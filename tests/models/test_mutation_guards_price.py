"""Survivor of mutation testing in ``models/_price.py``, pinned by the stored cost source: it
names the library's provider and model entry that priced the calls."""

from __future__ import annotations

from datetime import UTC, datetime

import genai_prices

from lifebench.models._price import LibraryPrice, pricing_for


def test_the_cost_source_names_the_model_entry_that_priced_it() -> None:
    pricing = pricing_for("gpt-4.1", "https://api.openai.com/v1", now=lambda: datetime.now(UTC))
    assert isinstance(pricing, LibraryPrice)
    assert (pricing.provider_id, pricing.model_id) == ("openai", "gpt-4.1")
    assert pricing.source == f"genai-prices {genai_prices.__version__}: openai gpt-4.1"
