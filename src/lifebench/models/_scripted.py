"""A :class:`~lifebench.models.ChatModel` that replays predetermined outputs (for tests)."""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from lifebench.errors import ModelError
from lifebench.messages import AssistantMessage, Message, Usage
from lifebench.models._record import CallContext, CallRecorder, current_context
from lifebench.models._types import GenerateConfig, ModelStats
from lifebench.models._wire import WireCache

ScriptOutput: TypeAlias = AssistantMessage | str
ScriptFunction: TypeAlias = Callable[
    [Sequence[Message], Sequence[dict[str, Any]] | None],
    ScriptOutput | Awaitable[ScriptOutput],
]
ScriptItem: TypeAlias = AssistantMessage | str | ScriptFunction
"""One scripted output: a message, a plain text, or a function of ``(messages, tools)``."""


@dataclass(frozen=True)
class ScriptedCall:
    """The inputs of one call made to a :class:`ScriptedModel`.

    Attributes:
        messages: The messages passed (copied into a list).
        tools: The tool schemas passed, if any.
        config: The config passed, if any.
    """

    messages: list[Message]
    tools: list[dict[str, Any]] | None
    config: GenerateConfig | None


class ScriptedModel:
    """Replays a list of outputs in order and records every call's inputs.

    Outputs without usage get a zero usage (no tokens, no cost).

    Args:
        script: The outputs, in the order they are returned.
        name: Display name.
        repeat_last: When the script is exhausted, keep returning its last item instead of
            raising :class:`~lifebench.errors.ModelError`.
    """

    def __init__(
        self,
        script: Sequence[ScriptItem],
        *,
        name: str = "scripted",
        repeat_last: bool = False,
    ) -> None:
        if repeat_last and not script:
            raise ValueError("repeat_last needs a non-empty script")
        self._script = list(script)
        self._name = name
        self._repeat_last = repeat_last
        self._position = 0
        self.calls: list[ScriptedCall] = []
        self.stats = ModelStats()
        self._recorder: tuple[CallRecorder, WireCache] | None = None

    @property
    def name(self) -> str:
        """Display name."""
        return self._name

    @property
    def remaining(self) -> int:
        """Scripted items not yet used (0 once exhausted, even with ``repeat_last``)."""
        return max(len(self._script) - self._position, 0)

    def __repr__(self) -> str:
        return (
            f"ScriptedModel(name={self._name!r}, items={len(self._script)}, used={self._position})"
        )

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        config: GenerateConfig | None = None,
    ) -> AssistantMessage:
        """Return the next scripted output.

        Args:
            messages: The conversation (recorded).
            tools: Tool schemas (recorded, and passed to function items).
            config: Generation options (recorded).

        Returns:
            The next scripted message.

        Raises:
            ModelError: The script is exhausted and ``repeat_last`` is off.
        """
        tool_list = [dict(t) for t in tools] if tools is not None else None
        self.calls.append(ScriptedCall(list(messages), tool_list, config))
        self.stats.api_calls += 1
        ctx = current_context()
        started = time.perf_counter()
        if self._position < len(self._script):
            item = self._script[self._position]
            self._position += 1
        elif self._repeat_last:
            item = self._script[-1]
        else:
            self.stats.failures += 1
            error = ModelError(
                f"ScriptedModel {self._name!r}: script exhausted: call #{len(self.calls)} "
                f"but only {len(self._script)} output(s) were scripted"
            )
            if ctx is not None:
                self._record(ctx, messages, tools, config, None, str(error), started)
            raise error
        answer = await self._render(item, messages, tool_list)
        self.stats.calls += 1
        if ctx is not None:
            self._record(ctx, messages, tools, config, answer, None, started)
        return answer

    def _record(
        self,
        ctx: CallContext,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None,
        config: GenerateConfig | None,
        answer: AssistantMessage | None,
        error: str | None,
        started: float,
    ) -> None:
        """Record the call as an OpenAI-compatible model would have sent it."""
        if self._recorder is None:
            self._recorder = (CallRecorder(self._name, self._name, None), WireCache())
        recorder, wire = self._recorder
        recorder.record(
            ctx,
            pieces=[wire.message(m) for m in messages],
            tools=wire.tools(tools) if tools else None,
            options=wire.config(config or GenerateConfig())[0],
            body=None,
            answer=answer,
            response=None if answer is None else answer.model_dump_json().encode("utf-8"),
            response_kind="scripted",
            error=error,
            started=started,
        )

    @staticmethod
    async def _render(
        item: ScriptItem,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None,
    ) -> AssistantMessage:
        output: ScriptOutput | Awaitable[ScriptOutput]
        output = item(messages, tools) if callable(item) else item
        if inspect.isawaitable(output):
            output = await output
        if isinstance(output, str):
            return AssistantMessage(content=output, usage=Usage())
        if isinstance(output, AssistantMessage):
            if output.usage is None:
                return output.model_copy(update={"usage": Usage()})
            return output
        raise TypeError(
            f"scripted function returned {type(output).__name__}, expected AssistantMessage or str"
        )
