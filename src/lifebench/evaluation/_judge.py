"""Calling an LLM judge and getting JSON back, robustly and boundedly.

Every judge in lifebench (VitaBench rubrics, TravelBench's judge and meta-judge, FlowBench's
session judge) goes through :func:`ask_json`: one call, a tolerant JSON parse (code fences,
trailing text, small syntax slips repaired with ``json_repair``), a caller-supplied shape check,
and a bounded number of re-asks that show the judge what was wrong. A judge that still fails
raises :class:`JudgeError`; callers record that as an evaluation error — the rollout is never
re-run because a judge failed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import json_repair

from lifebench.errors import FatalProviderError, LifebenchError
from lifebench.messages import AssistantMessage, Message, SystemMessage, Usage, UserMessage
from lifebench.models import ChatModel, GenerateConfig, labelled

T = TypeVar("T")


class JudgeError(LifebenchError):
    """The judge gave no usable answer after its re-asks (or its model call failed)."""

    def __init__(self, message: str, usage: Usage) -> None:
        super().__init__(message)
        self.usage = usage


class ShapeError(ValueError):
    """Raised by a shape check: the JSON parsed but is not what the judge was asked for."""


@dataclass(frozen=True)
class JudgeAnswer(Generic[T]):
    """A validated judge answer, the raw text it came from, and the usage of every call."""

    value: T
    raw: str
    usage: Usage
    attempts: int


def parse_json(text: str) -> Any:
    """Parse JSON from a model reply: plain, fenced in ```json, or slightly broken.

    Returns None when nothing JSON-like can be recovered.
    """
    stripped = text.strip()
    if not stripped:
        return None
    try:
        return json.loads(stripped)
    except json.JSONDecodeError:
        pass
    repaired = json_repair.loads(stripped)
    if repaired in ("", None):
        return None
    return repaired


async def ask_json(
    model: ChatModel,
    system: str,
    prompt: str,
    check: Callable[[Any], T],
    *,
    config: GenerateConfig | None = None,
    max_reasks: int = 2,
    parse: Callable[[str], Any] = parse_json,
    answer_format: str = "JSON",
    label: str | None = None,
) -> JudgeAnswer[T]:
    """Ask ``model`` and return ``check(parse(reply))``, re-asking up to ``max_reasks`` times.

    ``check`` raises :class:`ShapeError` (or ``ValueError``) with a short explanation when the
    answer has the wrong shape; the explanation is sent back to the judge. ``parse`` turns the
    reply text into what ``check`` reads (default: tolerant JSON); it returns ``None`` when
    nothing usable is in the text. Judges whose official output is not JSON (TravelBench's XML)
    pass their own tolerant parser and name the format in ``answer_format`` for the re-ask.

    When the unit's model calls are recorded, each call is labelled with ``label`` (e.g.
    ``meta-judge``, a window) and re-asks with ``re-ask N``, so that a transcript shows which
    prompt and reply belong to which judgement.
    """
    if max_reasks < 0:
        raise ValueError(f"max_reasks must be at least 0, got {max_reasks}")
    messages: list[Message] = [SystemMessage(content=system), UserMessage(content=prompt)]
    usage = Usage.zero()
    problem = ""
    for attempt in range(1, max_reasks + 2):
        tag = label
        if attempt > 1:
            tag = f"{label} › re-ask {attempt - 1}" if label else f"re-ask {attempt - 1}"
        try:
            with labelled(tag):
                reply = await model.generate(messages, config=config)
        except FatalProviderError:  # the provider refuses every call: the run stops
            raise
        except LifebenchError as exc:  # the failed call's retries count like any others
            retried = Usage.zero().model_copy(update={"retries": getattr(exc, "retries", 0)})
            raise JudgeError(f"judge call failed: {exc}", usage + retried) from None
        if reply.usage is not None:
            usage = usage + reply.usage
        parsed = parse(reply.content)
        try:
            if parsed is None:
                raise ShapeError(f"the reply contains no {answer_format}")
            return JudgeAnswer(check(parsed), reply.content, usage, attempt)
        except ValueError as exc:
            problem = str(exc)
        messages = [
            *messages,
            AssistantMessage(content=reply.content),
            UserMessage(
                content=(
                    f"Your reply could not be used: {problem}. Answer again with only the "
                    f"{answer_format} in the required format, nothing else."
                )
            ),
        ]
    raise JudgeError(
        f"judge gave no usable answer after {max_reasks + 1} attempts: {problem}", usage
    )


def render_transcript(messages: Sequence[Message], indices: Sequence[int] | None = None) -> str:
    """One line per message: ``[n] role: text`` (1-based global index).

    Assistant tool calls are appended as ``name(arg=value, …)``; tool results appear as
    ``tool:`` lines; system messages are left out.
    """
    lines = []
    chosen = range(len(messages)) if indices is None else indices
    for i in chosen:
        m = messages[i]
        if m.role == "system":
            continue
        text = m.content.strip()
        if m.role == "assistant" and m.tool_calls:
            calls = ". ".join(f"{c.name}({_render_args(c.arguments)})" for c in m.tool_calls)
            text = f"{text} {calls}".strip()
        if m.role == "tool" and m.error:
            text = f"[error] {text}"
        lines.append(f"[{i + 1}] {m.role}: {text}")
    return "\n".join(lines)


def _render_args(arguments: str) -> str:
    try:
        parsed = json.loads(arguments or "{}")
    except json.JSONDecodeError:
        return arguments
    if not isinstance(parsed, dict):
        return arguments
    return ", ".join(f"{k}={v!r}" for k, v in parsed.items())
