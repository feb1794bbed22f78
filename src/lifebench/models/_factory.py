"""Building the models of one run from names and ``MODEL@BASE_URL`` specs."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from lifebench.errors import InputError
from lifebench.models._cache import ModelCache
from lifebench.models._config import (
    DEFAULT_API_KEY_ENV,
    ModelConfig,
    ModelsConfig,
    load_models_config,
    parse_model_spec,
)
from lifebench.models._limits import EndpointLimits
from lifebench.models._openai import OpenAICompatibleModel, SleepFn, health_policy
from lifebench.models._secrets import redact_url
from lifebench.models._types import ChatModel, ModelStats

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})
"""Hosts whose servers usually need no API key (a missing key becomes ``"EMPTY"``)."""


def is_local_url(base_url: str) -> bool:
    """True when ``base_url`` points at this machine."""
    try:
        host = urlsplit(base_url).hostname
    except ValueError:
        return False
    return host is not None and host.lower() in LOCAL_HOSTS


class ModelFactory:
    """Builds and remembers the models of one run.

    Models are resolved from a config name or a ``MODEL@BASE_URL`` spec; the same spec always
    yields the same instance. Models of the same endpoint share their endpoint's state: its
    health (first contact, circuit breaker) and, when the models file sets
    ``max_concurrency``, one concurrency limit; without it the run's ``--concurrency`` alone
    bounds the requests in flight.

    Args:
        config: Named model configurations.
        cache: On-disk cache attached to every model whose config allows it.
        environ: Where API keys are looked up (defaults to ``os.environ``).
        limits: Per-endpoint limiter registry (a fresh one by default).
        sleep: Wait function passed to the models (injectable for tests).
        config_source: Name of the config file (used in error messages).
    """

    def __init__(
        self,
        config: ModelsConfig | None = None,
        *,
        cache: ModelCache | None = None,
        environ: Mapping[str, str] | None = None,
        limits: EndpointLimits | None = None,
        sleep: SleepFn = asyncio.sleep,
        config_source: str | None = None,
    ) -> None:
        self.config = config or ModelsConfig()
        self.cache = cache
        self.limits = limits or EndpointLimits()
        self._environ = environ
        self._sleep = sleep
        self._source = config_source
        self._models: dict[str, ChatModel] = {}

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        *,
        cache: ModelCache | None = None,
        environ: Mapping[str, str] | None = None,
        sleep: SleepFn = asyncio.sleep,
    ) -> ModelFactory:
        """A factory over the models config file at ``path``.

        Raises:
            InputError: The file is missing or invalid.
        """
        return cls(
            load_models_config(path),
            cache=cache,
            environ=environ,
            sleep=sleep,
            config_source=str(path),
        )

    def register(self, name: str, model: ChatModel) -> None:
        """Make ``name`` resolve to ``model`` (e.g. a scripted model in tests)."""
        self._models[name] = model

    def resolve(self, spec: str) -> ChatModel:
        """The model named ``spec`` in the config, or described by ``MODEL@BASE_URL``.

        Args:
            spec: A config name or a ``MODEL@BASE_URL`` spec.

        Returns:
            The model (the same instance on every call with the same spec).

        Raises:
            InputError: The spec is unknown or malformed, or its API key variable is not set.
        """
        key = spec.strip()
        existing = self._models.get(key)
        if existing is not None:
            return existing
        named = self.config.models.get(key)
        if named is not None:
            model = self._build(key, named, field_prefix=f"models.{key}")
        elif "@" in key:
            parsed = parse_model_spec(key)
            display = f"{parsed.model}@{redact_url(parsed.base_url)}"
            model = self._build(
                display, ModelConfig(model=parsed.model, base_url=parsed.base_url), None
            )
        else:
            known = ", ".join(sorted(self.config.models)) or "none"
            raise InputError(
                f"unknown model {key!r}: not in the models config (known: {known}) "
                "and not of the form MODEL@BASE_URL",
                file=self._source,
            )
        self._models[key] = model
        return model

    def _api_key(self, name: str, config: ModelConfig, field_prefix: str | None) -> str:
        if config.api_key_env is None:
            return "EMPTY"
        environ = os.environ if self._environ is None else self._environ
        value = environ.get(config.api_key_env)
        if value:
            return value
        if is_local_url(config.base_url):
            return "EMPTY"
        hint = (
            "set it or name another variable in api_key_env"
            if field_prefix
            else f"set it (MODEL@BASE_URL specs read {DEFAULT_API_KEY_ENV})"
        )
        raise InputError(
            f"environment variable {config.api_key_env} is not set "
            f"(it holds the API key of model {name!r}); {hint}",
            file=self._source if field_prefix else None,
            field=f"{field_prefix}.api_key_env" if field_prefix else None,
        )

    def _build(
        self, name: str, config: ModelConfig, field_prefix: str | None
    ) -> OpenAICompatibleModel:
        return OpenAICompatibleModel(
            name=name,
            model=config.model,
            base_url=config.base_url,
            api_key=self._api_key(name, config, field_prefix),
            defaults=config.generate_config(),
            price=config.price,
            retry=config.retry,
            timeout_s=config.timeout_s,
            cache=self.cache if config.cache else None,
            limiter=self.limits.optional_limiter(config.base_url, config.max_concurrency),
            sleep=self._sleep,
            health=self.limits.health(config.base_url, health_policy(config.retry)),
        )

    @property
    def models(self) -> dict[str, ChatModel]:
        """The models resolved (or registered) so far, by spec."""
        return dict(self._models)

    def stats(self) -> dict[str, ModelStats]:
        """A copy of the stats of every model that keeps them, by model name."""
        out: dict[str, ModelStats] = {}
        for model in self._models.values():
            stats = getattr(model, "stats", None)
            if isinstance(stats, ModelStats):
                out[model.name] = stats.model_copy()
        return out

    def total_stats(self) -> ModelStats:
        """The stats of every model, summed."""
        total = ModelStats()
        for stats in self.stats().values():
            for field in ModelStats.model_fields:
                setattr(total, field, getattr(total, field) + getattr(stats, field))
        return total

    async def aclose(self) -> None:
        """Close the HTTP clients of the models built here, and the cache."""
        for model in self._models.values():
            if isinstance(model, OpenAICompatibleModel):
                await model.aclose()
        if self.cache is not None:
            self.cache.close()
