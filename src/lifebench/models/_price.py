"""Prices of model tokens: a models file's explicit price, else the maintained ``genai-prices``
table (its bundled data: no network), else unknown — never a silent $0.

A call priced by neither has ``usage.unpriced = 1`` and cost 0 in its usage; the report shows the
cost of its role as "unknown" and warns. Every priced call names its source in
``usage.priced_by`` ("models file", or "genai-prices 0.2.3: openai gpt-4.1").
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

EXPLICIT_SOURCE = "models file"
LIBRARY = "genai-prices"


class Price(BaseModel):
    """What a model charges, in US dollars per million tokens (a models file's ``price:``)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    input_per_mtok: float = Field(0.0, ge=0, description="USD per 1M prompt (input) tokens.")
    output_per_mtok: float = Field(0.0, ge=0, description="USD per 1M completion (output) tokens.")

    @property
    def source(self) -> str:
        """Where the price comes from (for ``usage.priced_by``)."""
        return EXPLICIT_SOURCE

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """Cost in US dollars of one call with the given token counts."""
        return (
            prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok
        ) / 1_000_000


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class LibraryPrice:
    """The ``genai-prices`` price of one model at one provider. Computed per call (a price may
    depend on the prompt's size or the time of day), at the time of the call."""

    model_ref: str
    provider_id: str
    model_id: str
    version: str
    now: Callable[[], datetime] = field(default=_utc_now, compare=False)

    @property
    def source(self) -> str:
        return f"{LIBRARY} {self.version}: {self.provider_id} {self.model_id}"

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        from genai_prices import Usage, calc_price

        usage = Usage(input_tokens=prompt_tokens, output_tokens=completion_tokens)
        price = calc_price(
            usage,
            self.model_ref,
            provider_id=self.provider_id,
            genai_request_timestamp=self.now(),
        )
        return float(price.total_price)


@dataclass(frozen=True)
class Unpriced:
    """No known price: calls are counted as ``unpriced`` (cost unknown), never as $0."""

    reason: str

    @property
    def source(self) -> None:
        return None

    def cost(self, prompt_tokens: int, completion_tokens: int) -> None:
        return None


Pricing = Price | LibraryPrice | Unpriced
"""How one model's calls are priced (see :func:`pricing_for`)."""


def _is_private(host: str) -> bool:
    if host.endswith((".local", ".internal", ".lan")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host  # a bare machine name (localhost too), or no host
    return address.is_private  # loopback and link-local addresses included


def pricing_for(
    model: str,
    base_url: str,
    explicit: Price | None = None,
    *,
    now: Callable[[], datetime] = _utc_now,
) -> Pricing:
    """The pricing of ``model`` served at ``base_url``: ``explicit`` when given; else the
    ``genai-prices`` entry of the provider the URL belongs to (OpenAI, DeepSeek, OpenRouter, …);
    for another public host, the entry of the model id alone (an OpenAI-compatible gateway to
    a known model); else (a server on this machine or a private network — self-hosted, no
    per-token price — or a model the table does not know) unpriced."""
    if explicit is not None:
        return explicit
    try:
        parts = urlsplit(base_url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return Unpriced("the endpoint URL cannot be read")
    if _is_private(host):
        return Unpriced(f"{host or 'the endpoint'} is a self-hosted server (no per-token price)")
    url = f"{parts.scheme}://{host}{parts.path}"  # no credentials, no query
    from genai_prices import __version__ as version

    found = _lookup(model, url) or _lookup(model, None)
    if found is None:
        return Unpriced(f"{LIBRARY} {version} has no price for {model!r}")
    provider_id, model_id = found
    return LibraryPrice(model, provider_id, model_id, version, now)


def _lookup(model: str, provider_api_url: str | None) -> tuple[str, str] | None:
    """(provider id, model id) of ``model`` in the library's bundled table — at the provider
    whose API URL matches, or (``None``) the provider whose models it names — else None."""
    from genai_prices.data_snapshot import get_snapshot

    try:
        provider, info = get_snapshot().find_provider_model(model, None, None, provider_api_url)
    except LookupError:
        return None
    return str(provider.id), str(info.id)
