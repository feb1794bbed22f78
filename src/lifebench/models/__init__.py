"""Chat models: the :class:`ChatModel` protocol and its implementations.

* :class:`OpenAICompatibleModel` calls any OpenAI-compatible chat-completions endpoint with
  bounded retries, per-endpoint concurrency limits and an optional on-disk cache.
* :class:`ScriptedModel` replays predetermined outputs (for tests).
* :class:`ModelFactory` builds a run's models from a config file or ``MODEL@BASE_URL`` specs.
"""

from lifebench.models._cache import ModelCache, cache_key
from lifebench.models._config import (
    ModelConfig,
    ModelsConfig,
    ModelSpec,
    load_models_config,
    models_config_from_data,
    parse_model_spec,
)
from lifebench.models._factory import ModelFactory, is_local_url
from lifebench.models._limits import EndpointLimits, Limiter
from lifebench.models._openai import OpenAICompatibleModel, SleepFn
from lifebench.models._price import Price
from lifebench.models._record import (
    CallLog,
    CallRecord,
    RoleModel,
    for_role,
    labelled,
    recording,
)
from lifebench.models._retry import RetryPolicy, parse_retry_after
from lifebench.models._scripted import ScriptedCall, ScriptedModel, ScriptItem
from lifebench.models._types import ChatModel, GenerateConfig, ModelStats

__all__ = [
    "CallLog",
    "CallRecord",
    "ChatModel",
    "EndpointLimits",
    "GenerateConfig",
    "Limiter",
    "ModelCache",
    "ModelConfig",
    "ModelFactory",
    "ModelSpec",
    "ModelStats",
    "ModelsConfig",
    "OpenAICompatibleModel",
    "Price",
    "RetryPolicy",
    "RoleModel",
    "ScriptItem",
    "ScriptedCall",
    "ScriptedModel",
    "SleepFn",
    "cache_key",
    "for_role",
    "is_local_url",
    "labelled",
    "load_models_config",
    "models_config_from_data",
    "parse_model_spec",
    "parse_retry_after",
    "recording",
]
