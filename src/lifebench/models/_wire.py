"""Request bodies built from pieces serialised once, and cache keys hashed piece by piece.

A conversation grows by one or two messages per call while everything before stays the same
objects (messages are frozen), and the tool schemas and the sampling options of an episode do
not change. :class:`WireCache` therefore keeps, per object, the JSON bytes of each message, tool
list and options set together with their sha256; a request body is those bytes spliced
together, and the model-call cache key is the sha256 of the pieces' digests. Per call, only new
messages are serialised and hashed: the work is O(size of the new messages) plus copying the
body bytes, not O(conversation) JSON encoding and hashing.

The memo is keyed by object identity and holds a reference to each object it describes (an
identity is never reused while its entry lives); it is bounded (oldest entries dropped first),
and belongs to one model instance (no module-level state).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from lifebench.messages import Message
from lifebench.models._convert import message_to_openai, request_options
from lifebench.models._types import GenerateConfig

CACHE_SCHEMA_VERSION = 2
"""Part of every cache key; bump it when the key recipe or the stored value changes."""

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_RESERVED = frozenset({"model", "messages", "tools"})


def dumps(value: Any) -> bytes:
    """Compact JSON (UTF-8, no ASCII escaping): the one encoding of bodies and cache keys."""
    return _ENCODER.encode(value).encode("utf-8")


def digest(data: bytes) -> bytes:
    """The sha256 of ``data`` (32 bytes)."""
    return hashlib.sha256(data).digest()


def options_of(config: GenerateConfig) -> dict[str, Any]:
    """The body fields of ``config`` other than model, messages and tools (extra_body last)."""
    options = request_options(config)
    options.update(config.extra_body)
    return options


def key_of(
    endpoint: str,
    model: str,
    config_digest: bytes,
    tools_digest: bytes | None,
    message_digests: Sequence[bytes],
) -> str:
    """The cache key of a call from the digests of its pieces (see :func:`cache_key_of_parts`)."""
    h = hashlib.sha256()
    h.update(f"lifebench-call/{CACHE_SCHEMA_VERSION}\n{endpoint}\n{model}\n".encode())
    h.update(config_digest)
    h.update(tools_digest or b"\0" * 32)
    h.update(len(message_digests).to_bytes(4, "big"))
    h.update(b"".join(message_digests))
    return h.hexdigest()


class _Memo:
    """A bounded identity memo (least recently used entries dropped first): object → (the
    object, a tag, JSON bytes, sha256). Holding the object keeps its identity from being
    reused; the tag (a list's length) must match too."""

    def __init__(self, size: int) -> None:
        self._size = max(1, size)
        self._entries: OrderedDict[int, tuple[object, int, bytes, bytes]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, obj: object, tag: int = 0) -> tuple[bytes, bytes] | None:
        entry = self._entries.get(id(obj))
        if entry is not None and entry[0] is obj and entry[1] == tag:
            self._entries.move_to_end(id(obj))
            return entry[2], entry[3]
        return None

    def put(
        self, obj: object, data: bytes, sha: bytes | None = None, tag: int = 0
    ) -> tuple[bytes, bytes]:
        """Remember ``data`` (and its sha256, computed unless given) for ``obj``."""
        entries = self._entries
        entries.pop(id(obj), None)
        while len(entries) >= self._size:
            entries.popitem(last=False)
        value = (data, digest(data) if sha is None else sha)
        entries[id(obj)] = (obj, tag, *value)
        return value


class WireCache:
    """Serialised pieces of requests, memoised per object (see the module docstring).

    Args:
        messages: Messages remembered (those of the conversations in flight are reused; the
            one-off views of user simulators and judges pass through).
        tool_lists: Tool lists remembered (one per episode in flight).
    """

    def __init__(self, messages: int = 4096, tool_lists: int = 256) -> None:
        self._messages = _Memo(messages)
        self._tools = _Memo(tool_lists)
        self._configs = _Memo(256)

    def message(self, message: Message) -> tuple[bytes, bytes]:
        """The JSON bytes of ``message`` in the OpenAI format, and their sha256."""
        hit = self._messages.get(message)
        if hit is not None:
            return hit
        return self._messages.put(message, dumps(message_to_openai(message)))

    def tools(self, tools: Sequence[dict[str, Any]]) -> tuple[bytes, bytes]:
        """The JSON bytes of a tool list and their sha256 (tool lists are not edited in place
        once passed to a model; a list whose length changed is read again)."""
        hit = self._tools.get(tools, len(tools))
        if hit is not None:
            return hit
        return self._tools.put(tools, dumps(list(tools)), tag=len(tools))

    def config(self, config: GenerateConfig) -> tuple[bytes, bytes]:
        """The body fields of ``config`` as JSON object members (``,"k":v…``, or empty), and
        the sha256 of the whole config (every field, for the cache key)."""
        hit = self._configs.get(config)
        if hit is not None:
            return hit
        options = options_of(config)
        members = b"".join(b"," + dumps(k) + b":" + dumps(v) for k, v in options.items())
        whole = digest(dumps(config.model_dump(mode="json")))
        return self._configs.put(config, members, whole)


def build_body(
    model_json: bytes,
    fragments: Sequence[bytes],
    tools_json: bytes | None,
    options: bytes,
) -> bytes:
    """The request body spliced from serialised pieces."""
    parts = [b'{"model":', model_json, b',"messages":[', b",".join(fragments), b"]"]
    if tools_json is not None:
        parts += [b',"tools":', tools_json]
    parts += [options, b"}"]
    return b"".join(parts)


def needs_plain_body(config: GenerateConfig) -> bool:
    """True when ``extra_body`` overrides model, messages or tools (the body is then built as
    one dict, later keys winning, as before)."""
    return not _RESERVED.isdisjoint(config.extra_body)


def plain_body(
    model: str,
    wire: list[dict[str, Any]],
    tools: Sequence[dict[str, Any]] | None,
    config: GenerateConfig,
) -> bytes:
    """The request body as one dict (the general path, see :func:`needs_plain_body`)."""
    params: dict[str, Any] = {"model": model, "messages": wire}
    if tools:
        params["tools"] = list(tools)
    params.update(request_options(config))
    params.update(config.extra_body)
    return dumps(params)


def cache_key_of_parts(
    *,
    endpoint: str,
    model: str,
    messages: Sequence[dict[str, Any]],
    tools: Sequence[dict[str, Any]] | None,
    config: GenerateConfig,
) -> str:
    """The cache key of a call given as plain data (the same key the model computes from its
    memoised pieces)."""
    return key_of(
        endpoint,
        model,
        digest(dumps(config.model_dump(mode="json"))),
        digest(dumps(list(tools))) if tools else None,
        [digest(dumps(m)) for m in messages],
    )
