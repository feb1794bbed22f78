"""A :class:`~lifebench.models.ChatModel` over any OpenAI-compatible chat-completions endpoint."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from types import TracebackType
from typing import Any

from lifebench.errors import ContentRejectedError, FatalProviderError, ModelError
from lifebench.messages import AssistantMessage, Message
from lifebench.models import _http
from lifebench.models._cache import ModelCache, cache_endpoint
from lifebench.models._classify import Outcome, classify, read_error
from lifebench.models._convert import (
    FilteredResponseError,
    MalformedResponseError,
    message_to_openai,
    parse_completion,
)
from lifebench.models._health import BREAKER, EndpointHealth, HealthPolicy
from lifebench.models._limits import Limiter, NoLimit
from lifebench.models._price import Price, Pricing, pricing_for
from lifebench.models._record import Attempt, CallRecorder, current_context
from lifebench.models._retry import RetryPolicy, parse_retry_after, parse_retry_after_ms
from lifebench.models._secrets import Scrubber, redact_url, truncate, url_secrets
from lifebench.models._types import GenerateConfig, ModelStats
from lifebench.models._wire import (
    WireCache,
    build_body,
    dumps,
    key_of,
    needs_plain_body,
    plain_body,
)

_log = logging.getLogger(__name__)

SleepFn = Callable[[float], Awaitable[object]]
"""An ``asyncio.sleep``-like coroutine function (injectable so tests do not wait)."""

_HARD_DEADLINE_GRACE_S = 1.0


@dataclass(frozen=True)
class _Failure:
    """One failed attempt: what happened, what it means, how long the server asked to wait."""

    detail: str
    outcome: Outcome
    retry_after: float | None = None
    status: int | None = None
    connect: bool = False


@dataclass(frozen=True)
class _Answered:
    """One attempt as the call recorder keeps it: the HTTP answer (None: none came) and what
    it meant."""

    answer: _http.HttpAnswer | None
    result: AssistantMessage | _Failure


def _attempt_of(attempt: _Answered) -> Attempt:
    """A failed attempt for the call record (status, what went wrong, the body received)."""
    answer, result = attempt.answer, attempt.result
    detail = result.detail if isinstance(result, _Failure) else "answered"
    return Attempt(
        None if answer is None else answer.status, detail, None if answer is None else answer.body
    )


def health_policy(retry: RetryPolicy) -> HealthPolicy:
    """The endpoint breaker's backoff, taken from a model's retry policy."""
    return HealthPolicy(
        probe_budget=retry.max_attempts,
        base_delay_s=retry.base_delay_s,
        multiplier=retry.multiplier,
        max_delay_s=retry.max_delay_s,
    )


class OpenAICompatibleModel:
    """A chat model served by an OpenAI-compatible ``/chat/completions`` endpoint.

    Works with OpenAI, vLLM, SGLang, Ollama, DeepSeek, DashScope, OpenRouter and the like.
    Calls are retried with bounded exponential backoff on transient failures, admitted by the
    endpoint's shared health (first contact one call at a time, a circuit breaker: see
    :mod:`lifebench.models._health`), limited by a limiter shared per endpoint, optionally
    answered from an on-disk cache, and counted in :attr:`stats`. Errors that retrying cannot
    fix stop early (:mod:`lifebench.models._classify`): :class:`FatalProviderError` when every
    call would fail, :class:`ContentRejectedError` when this request was refused. The API key
    and any credential in the URL never appear in names, reprs, logs, raised errors or cache
    keys.

    Request bodies are spliced from pieces serialised once (:mod:`lifebench.models._wire`) and
    sent with ``aiohttp`` (:mod:`lifebench.models._http`).

    Args:
        name: Display name (used in stats and error messages).
        model: The provider's model id.
        base_url: The endpoint, e.g. ``https://api.openai.com/v1``.
        api_key: The API key value (``"EMPTY"`` for servers that need none).
        defaults: Generation options of every call; a call's ``config`` overrides them.
        price: Token prices (a models file's); None: the ``genai-prices`` price of the model
            at this endpoint, else unknown (calls counted as ``unpriced``, never $0).
        retry: How failed calls are retried.
        timeout_s: Seconds one HTTP request may take.
        cache: On-disk cache of answers, if any.
        limiter: Concurrency limiter shared by the models of this endpoint, if any.
        sleep: Coroutine function used to wait between attempts.
        rng: Source of backoff jitter.
        health: The endpoint's shared health (a private one by default).
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
        health: EndpointHealth | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self._secrets = (api_key, *url_secrets(base_url))
        self._scrub = Scrubber.of(self._secrets)
        self._name = self._scrub(name)
        self.model = model
        self.base_url = base_url
        self.defaults = defaults or GenerateConfig()
        self.pricing: Pricing = pricing_for(model, base_url, price)
        self.retry = retry or RetryPolicy()
        self.timeout_s = timeout_s
        self.cache = cache
        self.stats = ModelStats()
        self._limiter: Limiter = limiter if limiter is not None else NoLimit()
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._display_url = redact_url(base_url)
        self._health = health or EndpointHealth(self._display_url, health_policy(self.retry))
        self._transport = _http.open_transport(base_url, api_key, timeout_s)
        self._wire = WireCache()
        self._model_json = dumps(model)
        self._endpoint = cache_endpoint(base_url)
        self._merged: dict[int, tuple[GenerateConfig, GenerateConfig]] = {}
        self._recorder = CallRecorder(self._name, model, self._display_url, self._secrets)

    @property
    def name(self) -> str:
        """Display name (never contains credentials)."""
        return self._name

    @property
    def health(self) -> EndpointHealth:
        """The endpoint's shared health."""
        return self._health

    @property
    def closed(self) -> bool:
        """True once :meth:`aclose` has closed the HTTP client."""
        return self._transport.closed

    def __repr__(self) -> str:
        return (
            f"OpenAICompatibleModel(name={self._name!r}, model={self.model!r}, "
            f"base_url={self._display_url!r})"
        )

    def _effective(self, config: GenerateConfig | None) -> GenerateConfig:
        """The defaults overridden by ``config`` (memoised per config object)."""
        if config is None:
            return self.defaults
        entry = self._merged.get(id(config))
        if entry is not None and entry[0] is config:
            return entry[1]
        effective = self.defaults.merged(config)
        if len(self._merged) >= 256:
            self._merged.clear()
        self._merged[id(config)] = (config, effective)
        return effective

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
            tools: OpenAI tool schemas the model may call (not edited in place afterwards).
            config: Options overriding the model's defaults for this call.

        Returns:
            The assistant message with its usage (tokens, cost, retries, cached) filled in.

        Raises:
            FatalProviderError: The provider refuses every call (bad key, unknown model,
                endpoint unreachable or down).
            ContentRejectedError: The provider refused this request for its content.
            ModelError: The call failed after all attempts.
        """
        effective = self._effective(config)
        options, config_digest = self._wire.config(effective)
        wire = self._wire
        pieces = [wire.message(m) for m in messages]
        tools_piece = None
        if tools:
            tools_piece = wire.tools(tools)
        ctx = current_context()  # the unit's call log, when calls are recorded
        plain = needs_plain_body(effective)
        key: str | None = None
        if self.cache is not None:
            key = key_of(
                self._endpoint,
                self.model,
                config_digest,
                None if tools_piece is None else tools_piece[1],
                [digest for _, digest in pieces],
            )
        record = None
        if ctx is not None:
            record = partial(
                self._recorder.record,
                ctx,
                pieces=pieces,
                tools=tools_piece,
                options=options,
                cache_key=key,
                started=time.perf_counter(),
            )
        if self.cache is not None and key is not None:
            hit = await self.cache.get(key)
            if hit is not None:
                self.stats.cache_hits += 1
                self._record(hit)
                if record is not None:
                    record(
                        body=self._plain(messages, tools, effective) if plain else None,
                        answer=hit,
                        response=hit.model_dump_json().encode("utf-8"),
                        response_kind="cache",
                    )
                return hit
        if plain:
            body = self._plain(messages, tools, effective)
        else:
            body = build_body(
                self._model_json,
                [f for f, _ in pieces],
                None if tools_piece is None else tools_piece[0],
                options,
            )
        trace: list[_Answered] = []
        try:
            answer = await self._call_with_retries(body, trace if record is not None else None)
        except ModelError as exc:
            if record is not None:
                record(
                    body=body if plain else None,
                    answer=None,
                    response=None,
                    response_kind="http",
                    attempts=[_attempt_of(t) for t in trace],
                    error=str(exc),
                )
            raise
        self._record(answer)
        if record is not None:
            final = trace[-1].answer if trace else None
            record(
                body=body if plain else None,
                answer=answer,
                response=final.body if final is not None else None,
                response_kind="http",
                attempts=[_attempt_of(t) for t in trace[:-1]],
            )
        if self.cache is not None and key is not None:
            await self.cache.put(key, self.model, answer)
        return answer

    def _plain(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None,
        effective: GenerateConfig,
    ) -> bytes:
        return plain_body(self.model, [message_to_openai(m) for m in messages], tools, effective)

    def _record(self, answer: AssistantMessage) -> None:
        self.stats.calls += 1
        usage = answer.usage
        if usage is not None:
            self.stats.prompt_tokens += usage.prompt_tokens
            self.stats.completion_tokens += usage.completion_tokens
            self.stats.cost += usage.cost
            self.stats.usage_missing += usage.usage_missing

    async def _call_with_retries(
        self, body: bytes, trace: list[_Answered] | None = None
    ) -> AssistantMessage:
        policy = self.retry
        health = self._health
        call = object()
        retries = 0
        attempt = 0
        try:
            while True:
                try:
                    slot = await health.admit(self.model, call)
                except FatalProviderError as exc:
                    self.stats.failures += 1
                    raise FatalProviderError(str(exc), status=exc.status, retries=retries) from None
                attempt += 1
                self.stats.api_calls += 1
                outcome = await self._attempt(body, retries, trace)
                if isinstance(outcome, AssistantMessage):
                    health.on_answer(self.model, success=True)
                    return outcome
                if outcome.outcome == "malformed":
                    # the endpoint answered: this call's problem, not the endpoint's health
                    health.on_answer(self.model, success=False)
                    dead = None
                elif outcome.outcome != "retry":
                    raise self._final_error(outcome, retries, call)
                else:
                    dead = health.on_failure(
                        outcome.detail, connect=outcome.connect, probe=slot == BREAKER
                    )
                if dead is not None:
                    self.stats.failures += 1
                    raise FatalProviderError(
                        self._error_text(f": {dead}"), retries=retries
                    ) from None
                if attempt >= policy.max_attempts and slot != BREAKER:
                    # (the breaker's probe goes on until the endpoint's shared budget decides)
                    self.stats.failures += 1
                    raise ModelError(
                        self._error_text(f"gave up after {attempt} attempts: {outcome.detail}"),
                        retries=retries,
                    )
                retries += 1
                self.stats.retries += 1
                delay = health.retry_delay(policy.delay(retries, self._rng, outcome.retry_after))
                _log.warning(
                    "%s: attempt %d/%d failed (%s); retrying in %.2fs",
                    self._name,
                    attempt,
                    policy.max_attempts,
                    outcome.detail,
                    delay,
                )
                await self._sleep(delay)
        finally:
            health.leave(call)

    def _final_error(self, failure: _Failure, retries: int, call: object) -> ModelError:
        """The error of an attempt that retrying cannot fix (the endpoint did answer)."""
        self.stats.failures += 1
        if failure.outcome == "fatal":
            error = FatalProviderError(
                self._error_text(f"is refused by the provider: {failure.detail}"),
                status=failure.status,
                retries=retries,
            )
            self._health.refuse(self.model, call, error)  # waiting and later calls raise it
            return error
        self._health.on_answer(self.model, success=False)  # alive, but not this request
        return ContentRejectedError(
            self._error_text(f"request rejected: {failure.detail}"),
            status=failure.status,
            retries=retries,
        )

    async def _attempt(
        self, body: bytes, retries: int, trace: list[_Answered] | None = None
    ) -> AssistantMessage | _Failure:
        outcome = await self._attempt_once(body, retries)
        if trace is not None:  # what the recorder keeps of this attempt (see generate)
            trace.append(outcome if isinstance(outcome, _Answered) else _Answered(None, outcome))
        return outcome.result if isinstance(outcome, _Answered) else outcome

    async def _attempt_once(self, body: bytes, retries: int) -> _Answered | _Failure:
        try:
            async with self._limiter:
                async with asyncio.timeout(self.timeout_s + _HARD_DEADLINE_GRACE_S):
                    answer = await self._transport.post(body)
        except _http.TransportError as exc:
            detail = (
                f"request timed out after {self.timeout_s:g}s"
                if exc.kind == "timeout"
                else self._clean(exc.detail)
            )
            return _Failure(detail, "retry", connect=exc.kind == "connect")
        except TimeoutError:
            return _Failure(f"request exceeded {self.timeout_s:g}s", "retry")
        return _Answered(answer, self._read(answer, retries))

    def _read(self, answer: _http.HttpAnswer, retries: int) -> AssistantMessage | _Failure:
        status = answer.status
        if 200 <= status < 300:
            try:
                return parse_completion(answer.body, self.pricing, retries)
            except MalformedResponseError as exc:
                kind: Outcome = "retry" if exc.endpoint else "malformed"
                return _Failure(f"malformed response: {self._clean(str(exc))}", kind)
            except FilteredResponseError as exc:
                return _Failure(f"HTTP {status}: {exc}", "rejected", status=status)
        if status < 400:
            return _Failure(
                f"HTTP {status}: the endpoint redirects; give the URL it redirects to",
                "fatal",
                status=status,
            )
        error = read_error(answer.text())
        retry_after = parse_retry_after_ms(answer.retry_after_ms)
        if retry_after is None:
            retry_after = parse_retry_after(answer.retry_after)
        return _Failure(
            f"HTTP {status}: {self._clean(error.message)}",
            classify(status, error, answered_before=self._health.answered(self.model)),
            retry_after=retry_after,
            status=status,
        )

    def _clean(self, text: str) -> str:
        return self._scrub(truncate(self._scrub(text)))

    def _error_text(self, what: str) -> str:
        label = repr(self._name)
        if self._name != f"{self.model}@{self._display_url}":  # a name from a models file
            label += f" ({self.model} at {self._display_url})"
        space = "" if what.startswith(":") else " "
        return self._scrub(f"model {label}{space}{what}")

    async def aclose(self) -> None:
        """Close the underlying HTTP client."""
        await self._transport.aclose()

    async def __aenter__(self) -> OpenAICompatibleModel:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
