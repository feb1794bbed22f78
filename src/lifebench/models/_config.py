"""The models config file and ``MODEL@BASE_URL`` specs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from lifebench._util.inputs import load_config
from lifebench._util.keys import fields_at, key_lines, unknown_key
from lifebench.errors import InputError
from lifebench.models._price import Price
from lifebench.models._retry import RetryPolicy
from lifebench.models._secrets import redact_url
from lifebench.models._types import GenerateConfig

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"


def base_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be an OpenAI-compatible base URL (None: it can): it must be
    ``http://`` or ``https://`` with a host, a valid port and no spaces."""
    text = url.strip()
    if any(c.isspace() or ord(c) < 32 for c in text):
        return "a base URL cannot contain spaces or control characters"
    try:
        parts = urlsplit(text)
        port = parts.port
        host = parts.hostname
    except ValueError as exc:
        return f"not a URL ({exc})"
    if parts.scheme.lower() not in ("http", "https"):
        shown = f"{parts.scheme}://" if parts.scheme else "no scheme"
        return f"a base URL must start with http:// or https:// (got {shown})"
    if not host:
        return "a base URL without a host"
    _ = port
    return None


class ModelConfig(BaseModel):
    """How to reach and call one model."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    model: str = Field(min_length=1, description="The provider's model id, e.g. gpt-4o-mini.")
    base_url: str = Field(
        min_length=1, description="The OpenAI-compatible endpoint, e.g. https://api.openai.com/v1."
    )
    api_key_env: str | None = Field(
        DEFAULT_API_KEY_ENV,
        description="Name of the environment variable holding the API key; null for none.",
    )
    price: Price | None = Field(
        None,
        description="Token prices (USD per 1M tokens); default: the genai-prices price of the "
        "model at this endpoint, else unknown (reported as such, never $0).",
    )
    max_concurrency: int | None = Field(
        None,
        ge=1,
        le=100_000,
        description="Concurrent requests allowed to this endpoint (shared per base_url); "
        "null: no limit of its own, the run's --concurrency bounds them.",
    )
    timeout_s: float = Field(
        120.0, gt=0, le=86_400, description="Seconds one HTTP request may take (at most a day)."
    )
    temperature: float | None = Field(0.0, description="Sampling temperature; null = provider's.")
    max_tokens: int | None = Field(None, ge=1, description="Cap on completion tokens.")
    top_p: float | None = Field(None, description="Nucleus sampling; null = provider's.")
    reasoning_effort: str | None = Field(
        None, description="For reasoning models: low, medium or high."
    )
    extra_body: dict[str, Any] = Field(
        default_factory=dict, description="Provider-specific fields added to every request body."
    )
    retry: RetryPolicy = Field(
        default_factory=RetryPolicy, description="How failed calls are retried."
    )
    cache: bool = Field(True, description="Use the run's model cache (when one is configured).")

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, url: str) -> str:
        problem = base_url_problem(url)
        if problem is not None:
            raise ValueError(f"{problem}: {redact_url(url.strip())!r}")
        return url

    def generate_config(self) -> GenerateConfig:
        """The default generation options of this model."""
        return GenerateConfig(
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            top_p=self.top_p,
            reasoning_effort=self.reasoning_effort,
            extra_body=dict(self.extra_body),
        )


class ModelsConfig(BaseModel):
    """The models config file: named model configurations."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    models: dict[str, ModelConfig] = Field(
        default_factory=dict, description="Model configurations by name."
    )


class ModelSpec(BaseModel):
    """A model given on the command line as ``MODEL@BASE_URL``."""

    model_config = ConfigDict(frozen=True)

    model: str = Field(description="The provider's model id.")
    base_url: str = Field(description="The OpenAI-compatible endpoint.")


_SPEC_SPLIT = re.compile(r"@(?=https?://)", re.IGNORECASE)


def parse_model_spec(spec: str) -> ModelSpec:
    """Parse ``MODEL@BASE_URL`` (e.g. ``qwen3-8b@http://localhost:8000/v1``).

    The split is made at the first ``@`` followed by ``http://`` or ``https://``, so model ids
    may contain ``@`` themselves.

    Args:
        spec: The text to parse.

    Returns:
        The model id and base URL.

    Raises:
        InputError: The spec is not of that form.
    """
    text = spec.strip()
    parts = _SPEC_SPLIT.split(text, maxsplit=1)
    if len(parts) != 2:
        raise InputError(
            f"model spec {text!r} is not of the form MODEL@BASE_URL "
            "(the base URL must start with http:// or https://)"
        )
    model, base_url = parts[0].strip(), parts[1].strip()
    shown = f"{model}@{redact_url(base_url)}"
    if not model:
        raise InputError(f"model spec {shown!r} has an empty model id")
    problem = base_url_problem(base_url)
    if problem is not None:
        raise InputError(f"model spec {shown!r}: {problem}")
    return ModelSpec(model=model, base_url=base_url)


def _location(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def models_config_from_data(data: Any, *, source: str, text: str | None = None) -> ModelsConfig:
    """Validate already-loaded config data.

    Args:
        data: The parsed file content.
        source: Where the data came from (named in errors).
        text: The file's text, when known: an unknown key is then named with its line.

    Returns:
        The validated config.

    Raises:
        InputError: The data is invalid; the error names ``source`` and the first bad field
            (an unknown key with its line and the known key it most likely stands for).
    """
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError(
            f"expected a mapping with a 'models' key, got {type(data).__name__}", file=source
        )
    try:
        return ModelsConfig.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        first = errors[0]
        extra = next((e for e in errors if e.get("type") == "extra_forbidden"), None)
        if extra is not None:  # it also explains a "missing" error beside it (a misspelling)
            loc = tuple(extra["loc"])
            lines = key_lines(text) if text is not None else {}
            raise unknown_key(source, loc, fields_at(ModelsConfig, loc), lines) from None
        more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
        raise InputError(
            f"{first['msg']}{more}", file=source, field=_location(tuple(first["loc"])) or None
        ) from None


def load_models_config(path: str | Path) -> ModelsConfig:
    """Read and validate a models config file (YAML, or JSON when it ends in ``.json``).

    Args:
        path: The file.

    Returns:
        The validated config.

    Raises:
        InputError: The file is missing, unparsable or invalid; the error names the file and
            the field.
    """
    path = Path(path)
    data, text = load_config(path, what="models config file")
    return models_config_from_data(data, source=str(path), text=text)
