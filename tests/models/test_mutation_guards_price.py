"""Survivor of mutation testing in ``models/_price.py``, pinned by the stored cost source: it
names the library's provider and model entry that priced the calls."""

from __future__ import annotations

from datetime import UTC, datetime

import genai_prices

from lifebench.models._price import LibraryPrice, Unpriced, pricing_for


def test_the_cost_source_names_the_model_entry_that_priced_it() -> None:
    pricing = pricing_for("gpt-4.1", "https://api.openai.com/v1", now=lambda: datetime.now(UTC))
    assert isinstance(pricing, LibraryPrice)
    assert (pricing.provider_id, pricing.model_id) == ("openai", "gpt-4.1")
    assert pricing.source == f"genai-prices {genai_prices.__version__}: openai gpt-4.1"


def test_an_endpoint_without_a_host_is_named_as_the_endpoint() -> None:
    pricing = pricing_for("gpt-4.1", "unix:/var/run/llm.sock")
    assert isinstance(pricing, Unpriced)
    assert pricing.reason == "the endpoint is a self-hosted server (no per-token price)"


def test_an_unreadable_endpoint_url_is_unpriced_and_says_so() -> None:
    pricing = pricing_for("gpt-4.1", "http://[::1/v1")
    assert pricing == Unpriced("the endpoint URL cannot be read")
    assert (pricing.source, pricing.cost(10, 10)) == (None, None)


def test_a_self_hosted_server_is_named_in_the_reason() -> None:
    pricing = pricing_for("gpt-4.1", "http://LocalHost:8000/v1")
    assert pricing == Unpriced("localhost is a self-hosted server (no per-token price)")


def test_a_model_the_table_does_not_know_is_unpriced_with_the_table_named() -> None:
    pricing = pricing_for("no-such-model-xyz", "https://api.example.com/v1")
    assert pricing == Unpriced(
        f"genai-prices {genai_prices.__version__} has no price for 'no-such-model-xyz'"
    )
