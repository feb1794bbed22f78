"""What a unit's models saw and said, made ready to look at (``show``, ``view``, ``export``).

From the stored transcript (:meth:`lifebench.runner.RunStore.transcript`): the briefing (system
prompts, the tools offered, a scripted user's lines) and every model call — for each, what its
request added to the conversation since the same role's previous call, the tools and options
it carried, the reply, and the exact request and response bodies. Nothing here renders: the
views hold plain, untrusted text that each renderer escapes for its medium.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lifebench.runner._transcript import Briefing, FailedAttempt, StoredCall, Transcript


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class WireToolCall(_Frozen):
    """A tool call in a request or a reply."""

    id: str = ""
    name: str
    arguments: str = Field(description="Arguments as sent (pretty-printed when JSON).")


class WireMessage(_Frozen):
    """A message of a request (or the reply), as the model read (or wrote) it."""

    role: str
    content: str = ""
    reasoning: str | None = None
    tool_calls: list[WireToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None


class ToolView(_Frozen):
    """One tool offered to a model: name, description, parameters (pretty JSON)."""

    name: str
    description: str = ""
    parameters: str = ""


class BriefingView(_Frozen):
    """What the unit's agent and user simulator were told before the first message."""

    agent_kind: str | None = None
    agent_prompt: str | None = Field(None, description="The agent's system prompt, exactly.")
    tools: list[ToolView] = Field(default_factory=list, description="Tools offered to it.")
    tools_hash: str | None = Field(None, description="sha256 of the tool list as sent.")
    tools_json: str | None = Field(None, description="The tool schemas, pretty JSON.")
    user_kind: str | None = None
    user_prompt: str | None = Field(
        None, description="The user simulator's system prompt: its instruction and persona."
    )
    user_script: list[str] = Field(default_factory=list, description="A scripted user's lines.")
    greeting: str | None = None
    history: int = 0


class CallView(_Frozen):
    """One model call: who made it, what its request added, its reply, its exact bodies."""

    number: int = Field(description="1-based position in the unit's list of calls.")
    log_id: int
    seq: int
    source: str = Field(description="attempt (the run) or regrade (lifebench eval).")
    role: str
    basis: str | None = None
    label: str | None = None
    model: str
    model_id: str
    endpoint: str | None = None
    cached: bool = False
    response_kind: str = "http"
    usage: dict[str, Any] | None = None
    latency_s: float = 0.0
    at_s: float = 0.0
    error: str | None = None
    attempts: list[FailedAttempt] = Field(default_factory=list)
    total_messages: int = Field(0, description="Messages in the request.")
    kept: int = Field(
        0,
        description="Leading messages resent unchanged from the previous call of the same "
        "role and model (shown there).",
    )
    new_messages: list[WireMessage] = Field(default_factory=list)
    tools_hash: str | None = None
    tool_names: list[str] = Field(default_factory=list)
    options: dict[str, Any] = Field(
        default_factory=dict, description="Other request fields (temperature, seed, …)."
    )
    reply: WireMessage | None = None
    request_bytes: int = 0
    response_bytes: int = 0
    raw_request: str = Field("", description="The request body exactly as sent.")
    raw_response: str | None = Field(None, description="The response body as received.")
    original_response: str | None = Field(
        None, description="For a cache hit: the response that filled the cache."
    )

    @property
    def title(self) -> str:
        """``agent``, ``judge · rubric · window 1/2``, … (role, basis, label)."""
        return " · ".join(x for x in (self.role, self.basis, self.label) if x)


class TranscriptView(_Frozen):
    """The briefing and calls of a unit (``recorded`` False: nothing was recorded)."""

    recorded: bool
    briefing: BriefingView | None = None
    calls: list[CallView] = Field(default_factory=list)

    def judge_calls(self, basis: str) -> list[CallView]:
        """The calls that graded ``basis``."""
        return [c for c in self.calls if c.basis == basis]


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(p.get("text", "")) if isinstance(p, Mapping) else str(p) for p in content
        )
    return json.dumps(content, ensure_ascii=False)


def _pretty_args(arguments: Any) -> str:
    if not isinstance(arguments, str):
        return json.dumps(arguments, ensure_ascii=False, indent=2)
    try:
        return json.dumps(json.loads(arguments), ensure_ascii=False, indent=2)
    except (ValueError, RecursionError):
        return arguments


def _tool_calls(raw: Any) -> list[WireToolCall]:
    out = []
    for call in raw if isinstance(raw, list) else []:
        if not isinstance(call, Mapping):
            continue
        function = call.get("function")
        if isinstance(function, Mapping):  # OpenAI wire format
            name, arguments = function.get("name"), function.get("arguments", "")
        else:  # lifebench's own (a cached or scripted answer)
            name, arguments = call.get("name"), call.get("arguments", "")
        out.append(
            WireToolCall(
                id=str(call.get("id") or ""),
                name=str(name or "?"),
                arguments=_pretty_args(arguments),
            )
        )
    return out


def wire_message(data: Mapping[str, Any]) -> WireMessage:
    """A message dict of a request or reply (OpenAI or lifebench form) as a view."""
    reasoning = data.get("reasoning_content", data.get("reasoning"))
    return WireMessage(
        role=str(data.get("role") or "?"),
        content=_text(data.get("content")),
        reasoning=None if reasoning is None else _text(reasoning),
        tool_calls=_tool_calls(data.get("tool_calls")),
        tool_call_id=None if data.get("tool_call_id") is None else str(data["tool_call_id"]),
    )


def _json(text: str | None) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _reply(stored: StoredCall) -> WireMessage | None:
    data = _json(stored.response)
    if not isinstance(data, Mapping):
        return None
    if stored.call.response_kind in ("cache", "scripted"):
        return wire_message(data)  # a stored AssistantMessage
    choices = data.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], Mapping):
        message = choices[0].get("message")
        if isinstance(message, Mapping):
            return wire_message(message)
    return None


def tool_views(tools: Sequence[Any]) -> list[ToolView]:
    """Name, description and parameters of each tool schema (OpenAI format)."""
    out = []
    for tool in tools:
        if not isinstance(tool, Mapping):
            continue
        function = tool.get("function", tool)
        if not isinstance(function, Mapping):
            continue
        out.append(
            ToolView(
                name=str(function.get("name") or "?"),
                description=str(function.get("description") or ""),
                parameters=json.dumps(function.get("parameters", {}), ensure_ascii=False, indent=2),
            )
        )
    return out


def briefing_view(briefing: Briefing) -> BriefingView:
    """The view of a stored briefing."""
    agent, user = briefing.agent, briefing.user
    tools = (agent.tools if agent else None) or []
    return BriefingView(
        agent_kind=agent.kind if agent else None,
        agent_prompt=agent.system_prompt if agent else None,
        tools=tool_views(tools),
        tools_hash=agent.tools_hash if agent else None,
        tools_json=json.dumps(tools, ensure_ascii=False, indent=2) if tools else None,
        user_kind=user.kind if user else None,
        user_prompt=user.system_prompt if user else None,
        user_script=list(user.script or []) if user else [],
        greeting=briefing.greeting,
        history=briefing.history,
    )


def transcript_view(transcript: Transcript) -> TranscriptView:
    """The view of a stored transcript: each call's request compared with the previous call
    of the same role and model (in the same log), so only what it adds is listed."""
    previous: dict[tuple[int, str, str], list[Any]] = {}
    calls: list[CallView] = []
    for number, stored in enumerate(transcript.calls, 1):
        call = stored.call
        body = _json(stored.request)
        body = body if isinstance(body, Mapping) else {}
        messages = body.get("messages")
        messages = messages if isinstance(messages, list) else []
        key = (stored.log_id, call.role, call.model)
        before = previous.get(key, [])
        kept = 0
        while kept < min(len(before), len(messages)) and before[kept] == messages[kept]:
            kept += 1
        previous[key] = messages
        tools = body.get("tools")
        tool_list = tools if isinstance(tools, list) else []
        calls.append(
            CallView(
                number=number,
                log_id=stored.log_id,
                seq=call.seq,
                source=stored.source,
                role=call.role,
                basis=call.basis,
                label=call.label,
                model=call.model,
                model_id=call.model_id,
                endpoint=call.endpoint,
                cached=call.cached,
                response_kind=call.response_kind,
                usage=call.usage,
                latency_s=call.latency_s,
                at_s=call.at_s,
                error=call.error,
                attempts=list(stored.attempts),
                total_messages=len(messages),
                kept=kept,
                new_messages=[wire_message(m) for m in messages[kept:] if isinstance(m, Mapping)],
                tools_hash=call.request.get("tools") if tool_list else None,
                tool_names=[t.name for t in tool_views(tool_list)],
                options={k: v for k, v in body.items() if k not in ("model", "messages", "tools")},
                reply=_reply(stored),
                request_bytes=len(stored.request.encode("utf-8")),
                response_bytes=len((stored.response or "").encode("utf-8")),
                raw_request=stored.request,
                raw_response=stored.response,
                original_response=stored.original_response,
            )
        )
    briefing = None if transcript.briefing is None else briefing_view(transcript.briefing)
    return TranscriptView(recorded=transcript.recorded, briefing=briefing, calls=calls)
