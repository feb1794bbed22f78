"""Recording every model call: the request as sent, the response as received, for each unit.

Every model call of every role passes through a :class:`~lifebench.models.ChatModel`; the
models of this package record each call into the :class:`CallLog` of the unit being run, when
there is one. Which log, which role and which label a call belongs to is carried by a
context variable: the runner opens a log for a unit (:func:`recording`), a model handed to a
role is wrapped in :class:`RoleModel` (so a model serving the agent and the user simulator
records each call under the right role), and the graders label their calls
(:func:`labelled`: the basis, a re-ask). A call made where no log is open is not recorded
(``--no-record-requests`` runs with none).

What is stored, and how it stays cheap:

* **Blobs, by content.** Every piece of a request (each message as serialised, the tool
  list, the sampling options) and every response body is a *blob* named by the sha256 of its
  bytes, compressed (zlib) when that saves space. A request body is a *recipe* over blobs:
  the provider model body is spliced from those very pieces
  (:mod:`lifebench.models._wire`), so the recipe rebuilds the exact bytes sent, and the
  digests the model computed for its call cache are reused (nothing is serialised or hashed
  twice). A conversation's messages are stored once however many calls resend them; the
  tool schemas once per run.
* **Delta recipes.** A call's message list is written as "the first N messages of call M,
  plus these": a unit's storage grows with its new messages, not with calls × history.
* **Memo per model.** The compressed form of a blob is kept by the model (bounded, least
  recently used dropped first), so the system prompt and the tools are compressed once per
  process, not once per unit.
* **Secrets.** Request headers are never recorded (the API key travels in a header); a
  piece or response that contains a credential of the model (its key, a password or token
  in its URL), raw or JSON-escaped, is stored with it replaced by ``***``.

The log is plain data (dicts, bytes) until the runner packs it for the store
(:meth:`CallLog.pack`); :class:`CallRecord` is the stored form, read back by reports.
"""

from __future__ import annotations

import hashlib
import json
import time
import zlib
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lifebench.messages import AssistantMessage, Message, Usage
from lifebench.models._secrets import REDACTED
from lifebench.models._types import ChatModel, GenerateConfig

_COMPRESS_MIN = 256
"""Blobs shorter than this are stored as they are (zlib would not pay for its header)."""
_ZLIB = (1, zlib.DEFLATED, 12, 4)
"""zlib level 1 with a 4 KiB window and a small memory level: for the pieces of a request
(mostly under 4 KiB) it compresses as well as the defaults (JSON shrinks about 4×) at a fifth
of the CPU — the defaults' 32 KiB window and 256 KiB state cost more to set up than to use.
The zlib header names the window, so ``zlib.decompress`` reads it as any zlib stream."""
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

Codec = Literal["raw", "zlib"]


@dataclass(frozen=True, slots=True)
class Blob:
    """One stored piece: its name (sha256 hex of ``size`` original bytes), codec and data."""

    hash: str
    codec: Codec
    size: int
    data: bytes


def encode_blob(content: bytes, sha: bytes | None = None) -> Blob:
    """The blob of ``content`` (``sha``: its sha256 when already known)."""
    digest = (sha or hashlib.sha256(content).digest()).hex()
    if len(content) >= _COMPRESS_MIN:
        deflate = zlib.compressobj(*_ZLIB)
        packed = deflate.compress(content) + deflate.flush()
        if len(packed) < len(content):
            return Blob(digest, "zlib", len(content), packed)
    return Blob(digest, "raw", len(content), content)


def decode_blob(codec: str, data: bytes) -> bytes:
    """The original bytes of a stored blob."""
    if codec == "zlib":
        return zlib.decompress(data)
    if codec == "raw":
        return bytes(data)
    raise ValueError(f"unknown blob codec {codec!r}")


def secret_forms(secrets: Sequence[str]) -> tuple[bytes, ...]:
    """The byte forms in which a credential can appear in a request or response — the
    Scrubber's forms (:func:`lifebench.models._secrets.secret_forms`: as given, percent-encoded
    and JSON-escaped), longest first so a longer secret is replaced before a shorter one inside
    it. The store's :class:`~lifebench.models._secrets.Scrubber` pass then also masks base64
    and credential-shaped text."""
    from lifebench.models._secrets import secret_forms as text_forms

    forms = {form.encode("utf-8") for secret in secrets for form in text_forms(secret)}
    return tuple(sorted(forms, key=len, reverse=True))


def scrub_bytes(data: bytes, forms: Sequence[bytes]) -> bytes:
    """``data`` with every secret form replaced by ``***``."""
    for form in forms:
        if form in data:
            data = data.replace(form, REDACTED.encode())
    return data


class BlobCoder:
    """Blobs of pieces, memoised by the sha256 of their original bytes (bounded; least
    recently used dropped first). Owned by one model (or one run, for briefings); never
    module-level.

    Args:
        secrets: Credentials to keep out of every blob.
        size: Blobs remembered.
    """

    def __init__(self, secrets: Sequence[str] = (), size: int = 8192) -> None:
        self._forms = secret_forms(secrets)
        self._size = max(1, size)
        self._memo: OrderedDict[bytes, Blob] = OrderedDict()

    def __len__(self) -> int:
        return len(self._memo)

    def blob(self, content: bytes, sha: bytes | None = None) -> Blob:
        """The (scrubbed, compressed) blob of ``content``; ``sha`` its sha256 if known."""
        key = sha or hashlib.sha256(content).digest()
        memo = self._memo
        hit = memo.get(key)
        if hit is not None:
            memo.move_to_end(key)
            return hit
        clean = scrub_bytes(content, self._forms) if self._forms else content
        blob = encode_blob(clean, key if clean is content else None)
        if len(memo) >= self._size:
            memo.popitem(last=False)
        memo[key] = blob
        return blob

    def scrub(self, data: bytes) -> bytes:
        """``data`` without the coder's secrets."""
        return scrub_bytes(data, self._forms) if self._forms else data


def _usage_dict(usage: Usage) -> dict[str, Any]:
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "cost": usage.cost,
        "retries": usage.retries,
        "usage_missing": usage.usage_missing,
    }


@dataclass(frozen=True, slots=True)
class Attempt:
    """One HTTP attempt of a call that was not the final answer (a retried failure), or the
    final failure: its status (None: no HTTP answer) and what went wrong."""

    status: int | None
    detail: str
    body: bytes | None = None


@dataclass(frozen=True)
class PackedCalls:
    """A unit's log ready for the store: call rows, the blobs they name, the briefing."""

    calls: list[tuple[int, str, str | None, str | None, bool, str | None, str]]
    """(seq, role, basis, label, cached, cache key, the call as JSON) per call, in order."""
    blobs: list[Blob]
    tools: list[str]
    """Hashes of the tool lists offered (stored once per run)."""
    briefing: str | None = None
    """What the unit's agent and user were told (JSON), when it was recorded."""


class CallLog:
    """The model calls of one unit (or of one re-grading of it), as they happen.

    Args:
        coder: Encodes the briefing's texts (prompts, tool lists); a run shares one.
    """

    def __init__(self, coder: BlobCoder | None = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.blobs: dict[str, Blob] = {}
        self.tools: dict[str, None] = {}
        self.briefing: dict[str, Any] | None = None
        self._coder = coder or BlobCoder()
        self._last: dict[tuple[str, str], tuple[int, list[bytes]]] = {}
        self._started = time.perf_counter()
        self.known: dict[bytes, str] = {}
        """Option members and tool-list digests already stored with this log → blob hash
        (the same for every call of a unit: no need to hash them again)."""

    def __len__(self) -> int:
        return len(self.calls)

    def add(self, blob: Blob) -> str:
        """Keep ``blob`` with the log; return its hash."""
        self.blobs.setdefault(blob.hash, blob)
        return blob.hash

    def text(self, text: str) -> str:
        """Store ``text`` (UTF-8) as a blob of the log; return its hash."""
        return self.add(self._coder.blob(text.encode("utf-8")))

    def shared_prefix(self, key: tuple[str, str], digests: list[bytes]) -> tuple[int, int]:
        """(base, kept): the call this one's messages extend — the previous call of the same
        role and model (-1: none) — and how many of its first messages it resends unchanged.
        Remembers ``digests`` as the messages of the call about to be added."""
        previous = self._last.get(key)
        keep, base = 0, -1
        if previous is not None:
            base, before = previous
            if digests[: len(before)] == before:  # the usual case, compared in C
                keep = len(before)
            else:
                limit = min(len(before), len(digests))
                while keep < limit and before[keep] == digests[keep]:
                    keep += 1
        self._last[key] = (len(self.calls), digests)
        return base, keep

    @property
    def started(self) -> float:
        """``time.perf_counter()`` when the log was opened."""
        return self._started

    def records(self) -> list[CallRecord]:
        """The calls recorded so far, in their stored form."""
        return [CallRecord.model_validate(c) for c in self.calls]

    def contents(self) -> dict[str, bytes]:
        """Hash → original bytes of every blob of the log."""
        return {h: decode_blob(b.codec, b.data) for h, b in self.blobs.items()}

    def bodies(self) -> dict[int, bytes]:
        """seq → the request body of each call, rebuilt from the log's blobs."""
        return request_bodies(self.records(), self.contents())

    def pack(self) -> PackedCalls:
        """The log as rows for the store."""
        rows = [
            (
                c["seq"],
                c["role"],
                c.get("basis"),
                c.get("label"),
                bool(c.get("cached")),
                c.get("cache_key"),
                _JSON.encode(c),
            )
            for c in self.calls
        ]
        briefing = None if self.briefing is None else _JSON.encode(self.briefing)
        return PackedCalls(rows, list(self.blobs.values()), list(self.tools), briefing)


@dataclass(frozen=True, slots=True)
class CallContext:
    """Where a model call made now is recorded: the unit's log, the role, the basis being
    graded (None: the episode), a label (window, meta-judge, re-ask)."""

    log: CallLog
    role: str | None = None
    label: str | None = None
    basis: str | None = None


_CONTEXT: ContextVar[CallContext | None] = ContextVar("lifebench_call_context", default=None)
"""The recording context of the running task (a context variable: each asyncio task has its
own value, copied from its parent when it is created; nothing is shared between units)."""


def current_context() -> CallContext | None:
    """The recording context of the running code, if a log is open."""
    return _CONTEXT.get()


@contextmanager
def recording(log: CallLog | None) -> Iterator[CallLog | None]:
    """Record the model calls made inside the block into ``log`` (None: record nothing)."""
    token = _CONTEXT.set(None if log is None else CallContext(log))
    try:
        yield log
    finally:
        _CONTEXT.reset(token)


@contextmanager
def labelled(label: str | None = None) -> Iterator[None]:
    """Calls made inside the block carry ``label`` (appended to an outer label with " › ").
    Does nothing when no log is open."""
    ctx = _CONTEXT.get()
    if ctx is None or not label:
        yield
        return
    joined = f"{ctx.label} › {label}" if ctx.label else label
    token = _CONTEXT.set(CallContext(ctx.log, ctx.role, joined, ctx.basis))
    try:
        yield
    finally:
        _CONTEXT.reset(token)


@contextmanager
def grading(basis: str) -> Iterator[None]:
    """Calls made inside the block grade ``basis`` (recorded as the judge's unless a
    :class:`RoleModel` of another role makes them). Does nothing when no log is open."""
    ctx = _CONTEXT.get()
    if ctx is None:
        yield
        return
    token = _CONTEXT.set(CallContext(ctx.log, "judge", None, basis))
    try:
        yield
    finally:
        _CONTEXT.reset(token)


class RoleModel:
    """A chat model as one role uses it: its calls are recorded under ``role``.

    Everything else is the wrapped model's (name, stats, attributes); the same model may serve
    several roles through several wrappers.
    """

    def __init__(self, model: ChatModel, role: str) -> None:
        self._model = model
        self._role = role

    @property
    def name(self) -> str:
        """The wrapped model's display name."""
        return self._model.name

    @property
    def role(self) -> str:
        """The role whose calls this wrapper records."""
        return self._role

    @property
    def wrapped(self) -> ChatModel:
        """The model underneath."""
        return self._model

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    def __repr__(self) -> str:
        return f"RoleModel({self._model!r}, role={self._role!r})"

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        config: GenerateConfig | None = None,
    ) -> AssistantMessage:
        """The wrapped model's answer, recorded under this role."""
        ctx = _CONTEXT.get()
        if ctx is None or ctx.role == self._role:
            return await self._model.generate(messages, tools=tools, config=config)
        token = _CONTEXT.set(CallContext(ctx.log, self._role, ctx.label, ctx.basis))
        try:
            return await self._model.generate(messages, tools=tools, config=config)
        finally:
            _CONTEXT.reset(token)


def for_role(model: ChatModel, role: str) -> ChatModel:
    """``model`` recorded under ``role`` (a wrapper of another role is unwrapped first)."""
    if isinstance(model, RoleModel):
        if model.role == role:
            return model
        model = model.wrapped
    return RoleModel(model, role)


class CallRecorder:
    """Writes the calls of one model into the open log (one per model instance).

    Args:
        name: The model's display name.
        model: The provider's model id.
        endpoint: The endpoint without credentials (None for a scripted model).
        secrets: Credentials to keep out of the stored pieces.
    """

    def __init__(
        self, name: str, model: str, endpoint: str | None, secrets: Sequence[str] = ()
    ) -> None:
        self.name = name
        self.model = model
        self.endpoint = endpoint
        self.coder = BlobCoder(secrets)

    def record(
        self,
        ctx: CallContext,
        *,
        pieces: Sequence[tuple[bytes, bytes]],
        tools: tuple[bytes, bytes] | None,
        options: bytes,
        body: bytes | None,
        answer: AssistantMessage | None,
        response: bytes | None,
        response_kind: str,
        attempts: Sequence[Attempt] = (),
        error: str | None = None,
        cache_key: str | None = None,
        started: float = 0.0,
    ) -> None:
        """Add one call to ``ctx.log``.

        Args:
            ctx: The recording context (log, role, label).
            pieces: (JSON bytes, sha256) of each message, as spliced into the body.
            tools: (JSON bytes, sha256) of the tool list sent, if any.
            options: The body's option members (``,"temperature":0`` …).
            body: The whole body, when it was not spliced from the pieces (``extra_body``
                overriding model, messages or tools); the recipe then names it alone.
            answer: The parsed answer (its usage is kept), None when the call failed.
            response: The final response body as received (None: no answer).
            response_kind: ``http`` (as received), ``cache`` (the stored answer of a cache
                hit) or ``scripted`` (a scripted model's answer as JSON).
            attempts: Failed attempts before the answer (or up to the failure).
            error: Why the call failed, when it did.
            cache_key: The call's model-cache key, when the cache is on.
            started: ``time.perf_counter()`` when the call began.
        """
        log = ctx.log
        coder = self.coder
        add = log.add
        role = ctx.role or "model"
        request: dict[str, Any]
        if body is not None:
            request = {"kind": "whole", "body": add(coder.blob(body))}
        else:
            base, keep = log.shared_prefix((role, self.name), [sha for _, sha in pieces])
            new = [add(coder.blob(data, sha)) for data, sha in pieces[keep:]]
            known = log.known
            options_hash = known.get(options)
            if options_hash is None:
                options_hash = known[options] = add(coder.blob(options))
            request = {
                "kind": "spliced",
                "model": self.model,
                "messages": [base, keep, new],
                "options": options_hash,
            }
            if tools is not None:
                tools_hash = known.get(tools[1])
                if tools_hash is None:
                    tools_hash = known[tools[1]] = add(coder.blob(*tools))
                    log.tools[tools_hash] = None
                request["tools"] = tools_hash
        call: dict[str, Any] = {
            "seq": len(log.calls),
            "role": role,
            "model": self.name,
            "model_id": self.model,
            "request": request,
            "response_kind": response_kind,
            "cached": response_kind == "cache",
            "at_s": round(started - log.started, 6),
            "latency_s": round(time.perf_counter() - started, 6),
        }
        # (what is unset is left out: the stored form reads it back as None)
        if ctx.basis is not None:
            call["basis"] = ctx.basis
        if ctx.label is not None:
            call["label"] = ctx.label
        if self.endpoint is not None:
            call["endpoint"] = self.endpoint
        if response is not None:
            call["response"] = add(coder.blob(coder.scrub(response)))
        if cache_key is not None:
            call["cache_key"] = cache_key
        if answer is not None and answer.usage is not None:
            call["usage"] = _usage_dict(answer.usage)
        if attempts:
            call["attempts"] = [
                {
                    "status": a.status,
                    "detail": a.detail,
                    "response": None if a.body is None else add(coder.blob(coder.scrub(a.body))),
                }
                for a in attempts
            ]
        if error is not None:
            call["error"] = error
        log.calls.append(call)


# ---------------------------------------------------------------------------- stored form


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="allow")


class AttemptRecord(_Frozen):
    """A failed attempt of a call (retried, or the last one of a call that failed)."""

    status: int | None = Field(None, description="HTTP status (None: no HTTP answer).")
    detail: str = Field("", description="What went wrong (credentials removed).")
    response: str | None = Field(None, description="Blob of the error body, if any.")


class CallRecord(_Frozen):
    """One model call as stored (``calls.call_json``): who made it, the recipe of its request
    over blobs, its response blob, cache and timing facts."""

    seq: int = Field(description="0-based order of the call within its unit's log.")
    role: str = Field(description="agent, user, judge, tool, or model (no role known).")
    basis: str | None = Field(
        None, description="The evaluation basis being graded (None: made during the episode)."
    )
    label: str | None = Field(None, description="Window, meta-judge or re-ask of the call.")
    model: str = Field(description="The model's display name (no credentials).")
    model_id: str = Field(description="The provider's model id.")
    endpoint: str | None = Field(None, description="Endpoint without credentials.")
    request: dict[str, Any] = Field(
        description="How to rebuild the body sent: spliced (model, messages recipe "
        "[base, kept, new hashes], options blob, tools blob) or whole (one body blob)."
    )
    response: str | None = Field(None, description="Blob of the response body.")
    response_kind: str = Field(
        "http", description="http (as received), cache (stored answer), scripted."
    )
    cached: bool = Field(False, description="Answered from the model cache (no request sent).")
    cache_key: str | None = Field(None, description="The model-cache key of the call.")
    usage: dict[str, Any] | None = Field(None, description="Tokens, cost, retries.")
    at_s: float = Field(0.0, description="Seconds from the start of the log to the call.")
    latency_s: float = Field(0.0, description="Seconds the call took.")
    attempts: list[AttemptRecord] = Field(default_factory=list)
    error: str | None = Field(None, description="Why the call failed, if it did.")


def spliced_body(
    model: str, messages: Sequence[bytes], tools: bytes | None, options: bytes
) -> bytes:
    """The body a spliced recipe describes (the same bytes the model sent)."""
    from lifebench.models._wire import build_body, dumps

    return build_body(dumps(model), messages, tools, options)


def request_bodies(calls: Sequence[CallRecord], blobs: Mapping[str, bytes]) -> dict[int, bytes]:
    """seq → the request body sent, for the calls of one log (its message recipes resolved
    against earlier calls of the same log; ``blobs``: hash → original bytes)."""
    messages: dict[int, list[bytes]] = {}
    out: dict[int, bytes] = {}
    for call in sorted(calls, key=lambda c: c.seq):
        request = call.request
        if request.get("kind") == "whole":
            out[call.seq] = blobs.get(str(request.get("body")), b"")
            continue
        base, keep, new = request.get("messages", [-1, 0, []])
        kept = messages.get(int(base), [])[: int(keep)] if int(base) >= 0 else []
        listed = kept + [blobs.get(str(h), b"") for h in new]
        messages[call.seq] = listed
        tools = request.get("tools")
        out[call.seq] = spliced_body(
            str(request.get("model", call.model_id)),
            listed,
            None if not tools else blobs.get(str(tools), b""),
            blobs.get(str(request.get("options")), b""),
        )
    return out


__all__ = [
    "Attempt",
    "AttemptRecord",
    "Blob",
    "BlobCoder",
    "CallContext",
    "CallLog",
    "CallRecord",
    "CallRecorder",
    "PackedCalls",
    "RoleModel",
    "current_context",
    "decode_blob",
    "encode_blob",
    "for_role",
    "grading",
    "labelled",
    "recording",
    "request_bodies",
    "scrub_bytes",
    "secret_forms",
    "spliced_body",
]
