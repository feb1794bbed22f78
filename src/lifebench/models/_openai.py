"""A :class:`~lifebench.models.ChatModel` over any OpenAI-compatible chat-completions endpoint."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from openai import (
    APIConnectionError,
    APIError,
    APIStatusError,
    APITimeoutError,
    AsyncOpenAI,
    OpenAIError,
)

from lifebench.errors import ModelError
from lifebench.messages import AssistantMessage, Message
from lifebench.models._cache import ModelCache, cache_key
from lifebench.models._convert import (
    MalformedResponseError,
    messages_to_openai,
    parse_completion,
    request_options,
)
from lifebench.models._limits import Limiter
from lifebench.models._price import Price
from lifebench.models._retry import (
    RetryPolicy,
    is_retryable_status,
    parse_retry_after,
    parse_retry_after_ms,
)
from lifebench.models._secrets import redact_url, scrub, truncate
from lifebench.models._types import GenerateConfig, ModelStats

_log = logging.getLogger(__name__)

SleepFn = Callable[[float], Awaitable[object]]
"""An ``asyncio.sleep``-like coroutine function (injectable so tests do not wait)."""

_HARD_DEADLINE_GRACE_S = 1.0


@dataclass(frozen=True)
class _Failure:
    """One failed attempt: what happened, whether to retry, how long the server asked to wait."""

    detail: str
    retryable: bool
    retry_after: float | None = None


class _NoLimit:
    """A limiter that never waits."""

    async def __aenter__(self) -> object:
        return None

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None


class OpenAICompatibleModel:
    """A chat model served by an OpenAI-compatible ``/chat/completions`` endpoint.

    Works with OpenAI, vLLM, SGLang, Ollama, DeepSeek, DashScope, OpenRouter and the like.
    Calls are retried with bounded exponential backoff on transient failures, limited by a
    limiter shared per endpoint, optionally answered from an on-disk cache, and counted in
    :attr:`stats`. The API key never appears in names, reprs, logs or raised errors.

    Args:
        name: Display name (used in stats and error messages).
        model: The provider's model id.
        base_url: The endpoint, e.g. ``https://api.openai.com/v1``.
        api_key: The API key value (``"EMPTY"`` for servers that need none).
        defaults: Generation options of every call; a call's ``config`` overrides them.
        price: Token prices used to compute each call's cost.
        retry: How failed calls are retried.
        timeout_s: Seconds one HTTP request may take.
        cache: On-disk cache of answers, if any.
        limiter: Concurrency limiter shared by the models of this endpoint, if any.
        sleep: Coroutine function used to wait between attempts.
        rng: Source of backoff jitter.
    """

    def __init__(
        self,
        *,
        name: str,
        model: str,
        base_url: str,
        api_key: str,
        defaults: GenerateConfig | None = None,
        price: Price | None = None,
        retry: RetryPolicy | None = None,
        timeout_s: float = 120.0,
        cache: ModelCache | None = None,
        limiter: Limiter | None = None,
        sleep: SleepFn = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self._secrets = (api_key,)
        self._name = scrub(name, self._secrets)
        self.model = model
        self.base_url = base_url
        self.defaults = defaults or GenerateConfig()
        self.price = price or Price()
        self.retry = retry or RetryPolicy()
        self.timeout_s = timeout_s
        self.cache = cache
        self.stats = ModelStats()
        self._limiter: Limiter = limiter if limiter is not None else _NoLimit()
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._client = AsyncOpenAI(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0
        )

    @property
    def name(self) -> str:
        """Display name (never contains credentials)."""
        return self._name

    def __repr__(self) -> str:
        return (
            f"OpenAICompatibleModel(name={self._name!r}, model={self.model!r}, "
            f"base_url={redact_url(self.base_url)!r})"
        )

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        config: GenerateConfig | None = None,
    ) -> AssistantMessage:
        """Produce the next assistant message for ``messages``.

        Args:
            messages: The conversation so far.
            tools: OpenAI tool schemas the model may call.
            config: Options overriding the model's defaults for this call.

        Returns:
            The assistant message with its usage (tokens, cost, retries, cached) filled in.

        Raises:
            ModelError: The call failed with a non-retryable error or after all attempts.
        """
        effective = self.defaults.merged(config)
        wire = messages_to_openai(messages)
        tool_list = [dict(t) for t in tools] if tools else None
        key: str | None = None
        if self.cache is not None:
            key = cache_key(
                base_url=self.base_url,
                model=self.model,
                messages=wire,
                tools=tool_list,
                config=effective,
            )
            hit = await self.cache.get(key)
            if hit is not None:
                self.stats.cache_hits += 1
                self._record(hit)
                return hit
        answer = await self._call_with_retries(wire, tool_list, effective)
        self._record(answer)
        if self.cache is not None and key is not None:
            await self.cache.put(key, self.model, answer)
        return answer

    def _record(self, answer: AssistantMessage) -> None:
        self.stats.calls += 1
        if answer.usage is not None:
            self.stats.prompt_tokens += answer.usage.prompt_tokens
            self.stats.completion_tokens += answer.usage.completion_tokens
            self.stats.cost += answer.usage.cost

    def _request(
        self,
        wire: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        config: GenerateConfig,
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"model": self.model, "messages": wire}
        if tools:
            params["tools"] = tools
        params.update(request_options(config))
        params.update(config.extra_body)
        return params

    async def _call_with_retries(
        self,
        wire: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        config: GenerateConfig,
    ) -> AssistantMessage:
        params = self._request(wire, tools, config)
        policy = self.retry
        retries = 0
        attempt = 0
        while True:
            attempt += 1
            self.stats.api_calls += 1
            outcome = await self._attempt(params, retries)
            if isinstance(outcome, AssistantMessage):
                return outcome
            if not outcome.retryable:
                self.stats.failures += 1
                raise ModelError(self._error_text(f"failed: {outcome.detail}"))
            if attempt >= policy.max_attempts:
                self.stats.failures += 1
                raise ModelError(
                    self._error_text(f"gave up after {attempt} attempts: {outcome.detail}")
                )
            retries += 1
            self.stats.retries += 1
            delay = policy.delay(retries, self._rng, outcome.retry_after)
            _log.warning(
                "%s: attempt %d/%d failed (%s); retrying in %.2fs",
                self._name,
                attempt,
                policy.max_attempts,
                outcome.detail,
                delay,
            )
            await self._sleep(delay)

    async def _attempt(self, params: dict[str, Any], retries: int) -> AssistantMessage | _Failure:
        try:
            async with self._limiter:
                async with asyncio.timeout(self.timeout_s + _HARD_DEADLINE_GRACE_S):
                    # The low-level ``post`` sends our already-plain JSON body as is; ``create``
                    # would walk every message and tool schema through the SDK's type
                    # transformer (~5 ms of CPU per call with 20 tools).
                    body = await self._client.post("/chat/completions", cast_to=str, body=params)
            return parse_completion(body, self.price, retries)
        except APIStatusError as exc:
            return self._status_failure(exc)
        except APITimeoutError:
            return _Failure(f"request timed out after {self.timeout_s:g}s", retryable=True)
        except TimeoutError:
            return _Failure(f"request exceeded {self.timeout_s:g}s", retryable=True)
        except APIConnectionError as exc:
            cause = type(exc.__cause__).__name__ if exc.__cause__ else "unknown cause"
            return _Failure(f"connection error ({cause})", retryable=True)
        except MalformedResponseError as exc:
            return _Failure(f"malformed response: {self._clean(str(exc))}", retryable=True)
        except APIError as exc:  # e.g. a response that failed validation
            return _Failure(f"bad response: {self._clean(exc.message)}", retryable=True)
        except OpenAIError as exc:
            return _Failure(f"{type(exc).__name__}: {self._clean(str(exc))}", retryable=False)

    def _status_failure(self, exc: APIStatusError) -> _Failure:
        status = exc.status_code
        headers = exc.response.headers
        retry_after = parse_retry_after_ms(headers.get("retry-after-ms"))
        if retry_after is None:
            retry_after = parse_retry_after(headers.get("retry-after"))
        return _Failure(
            f"HTTP {status}: {self._clean(exc.message)}",
            retryable=is_retryable_status(status),
            retry_after=retry_after,
        )

    def _clean(self, text: str) -> str:
        return scrub(truncate(scrub(text, self._secrets)), self._secrets)

    def _error_text(self, what: str) -> str:
        return scrub(
            f"model {self._name!r} ({self.model} at {redact_url(self.base_url)}) {what}",
            self._secrets,
        )

    async def aclose(self) -> None:
        """Close the underlying HTTP client."""
        await self._client.close()

    async def __aenter__(self) -> OpenAICompatibleModel:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
