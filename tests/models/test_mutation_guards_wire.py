"""Mutation guards (issue 21): the request pieces and cache keys of ``lifebench.models._wire``
pinned by their effect — the key recipe (a changed recipe silently misses every cached call of
an earlier run), the memo's least-recently-used bound, and the general body."""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from lifebench.messages import UserMessage
from lifebench.models import GenerateConfig, _wire

TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]


def test_the_key_recipe() -> None:
    config_digest, message_digest = b"c" * 32, b"m" * 32
    key = _wire.key_of("http://x/v1", "gpt", config_digest, None, [message_digest, message_digest])
    expected = hashlib.sha256(
        f"lifebench-call/{_wire.CACHE_SCHEMA_VERSION}\nhttp://x/v1\ngpt\n".encode()
        + config_digest
        + b"\0" * 32
        + (2).to_bytes(4, "big")
        + message_digest * 2
    ).hexdigest()
    assert key == expected
    assert _wire.CACHE_SCHEMA_VERSION == 2
    tools = _wire.key_of("http://x/v1", "gpt", config_digest, b"t" * 32, [message_digest])
    assert (
        tools
        == hashlib.sha256(
            b"lifebench-call/2\nhttp://x/v1\ngpt\n"
            + config_digest
            + b"t" * 32
            + b"\0\0\0\1"
            + message_digest
        ).hexdigest()
    )


def test_the_key_of_plain_parts() -> None:
    config = GenerateConfig(seed=4, temperature=0.25)
    messages = [{"role": "user", "content": "ü"}]
    key = _wire.cache_key_of_parts(
        endpoint="e", model="m", messages=messages, tools=TOOLS, config=config
    )

    def sha(value: object) -> bytes:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).digest()

    assert key == _wire.key_of(
        "e", "m", sha(config.model_dump(mode="json")), sha(TOOLS), [sha(messages[0])]
    )
    no_tools = _wire.cache_key_of_parts(
        endpoint="e", model="m", messages=messages, tools=[], config=config
    )
    assert no_tools == _wire.key_of(
        "e", "m", sha(config.model_dump(mode="json")), None, [sha(messages[0])]
    )


def test_memoised_pieces_give_the_plain_key() -> None:
    wire = _wire.WireCache()
    message = UserMessage(content="hello ✓")
    config = GenerateConfig(seed=9, extra_body={"top_k": 2})
    pieces = _wire.key_of(
        "e", "m", wire.config(config)[1], wire.tools(TOOLS)[1], [wire.message(message)[1]]
    )
    plain = _wire.cache_key_of_parts(
        endpoint="e",
        model="m",
        messages=[{"role": "user", "content": "hello ✓"}],
        tools=TOOLS,
        config=config,
    )
    assert pieces == plain


def test_dumps_is_compact_utf8_and_refuses_nan() -> None:
    assert _wire.dumps({"a": ["ü", 1]}) == '{"a":["ü",1]}'.encode()
    with pytest.raises(ValueError):
        _wire.dumps(math.nan)
    assert _wire.digest(b"x") == hashlib.sha256(b"x").digest()


def test_options_put_extra_body_last() -> None:
    config = GenerateConfig(temperature=0.5, seed=1, extra_body={"temperature": 0.9, "top_k": 3})
    assert _wire.options_of(config) == {"temperature": 0.9, "seed": 1, "top_k": 3}
    members, whole = _wire.WireCache().config(config)
    assert json.loads(b"{" + members[1:] + b"}") == {"temperature": 0.9, "seed": 1, "top_k": 3}
    assert members.startswith(b',"temperature":0.9,"seed":1,')
    assert whole == _wire.digest(_wire.dumps(config.model_dump(mode="json")))
    assert _wire.WireCache().config(GenerateConfig())[0] == b""


def test_the_memo_drops_the_least_recently_used_entry() -> None:
    memo = _wire._Memo(2)
    a, b, c = object(), object(), object()
    memo.put(a, b"A")
    memo.put(b, b"B")
    assert memo.get(a) == (b"A", hashlib.sha256(b"A").digest())  # a is now the most recent
    memo.put(c, b"C")
    assert len(memo) == 2
    assert memo.get(b) is None  # b was the least recently used
    assert memo.get(a) is not None and memo.get(c) is not None
    memo.put(a, b"A2", b"s" * 32)  # a replaced in place, nothing else dropped
    assert memo.get(a) == (b"A2", b"s" * 32) and memo.get(c) is not None


def test_the_memo_keeps_at_least_one_entry_and_checks_the_tag() -> None:
    memo = _wire._Memo(0)
    thing = object()
    assert memo.put(thing, b"x", tag=3) == (b"x", hashlib.sha256(b"x").digest())
    assert memo.get(thing, 3) == (b"x", hashlib.sha256(b"x").digest())
    assert memo.get(thing) is None  # another tag: read again
    assert memo.get(object(), 3) is None
    assert len(memo) == 1


def test_the_default_memo_sizes() -> None:
    wire = _wire.WireCache()
    messages = [UserMessage(content=str(i)) for i in range(4097)]
    for m in messages:
        wire.message(m)
    assert len(wire._messages) == 4096
    lists = [[{"n": i}] for i in range(257)]
    for tools in lists:
        wire.tools(tools)
    assert len(wire._tools) == 256
    configs = [GenerateConfig(seed=i) for i in range(257)]
    for config in configs:
        wire.config(config)
    assert len(wire._configs) == 256


def test_the_general_body() -> None:
    config = GenerateConfig(seed=2, extra_body={"messages": [], "top_k": 1})
    assert _wire.needs_plain_body(config)
    assert not _wire.needs_plain_body(GenerateConfig(extra_body={"top_k": 1}))
    assert _wire.needs_plain_body(GenerateConfig(extra_body={"model": "x"}))
    assert _wire.needs_plain_body(GenerateConfig(extra_body={"tools": []}))
    wire = [{"role": "user", "content": "hi"}]
    body = json.loads(_wire.plain_body("m", wire, TOOLS, config))
    assert body == {"model": "m", "messages": [], "tools": TOOLS, "seed": 2, "top_k": 1}
    bare = json.loads(_wire.plain_body("m", wire, [], GenerateConfig()))
    assert bare == {"model": "m", "messages": wire}


def test_build_body_splices_the_pieces() -> None:
    body = _wire.build_body(b'"m"', [b"1", b"2"], b"[3]", b',"seed":4')
    assert body == b'{"model":"m","messages":[1,2],"tools":[3],"seed":4}'
    assert _wire.build_body(b'"m"', [], None, b"") == b'{"model":"m","messages":[]}'


def test_putting_a_remembered_object_again_drops_nothing_else() -> None:
    memo = _wire._Memo(2)
    a, c = object(), object()
    memo.put(a, b"A")
    memo.put(c, b"C")
    memo.put(c, b"C2")  # replaces c's entry; a stays
    assert memo.get(a) == (b"A", hashlib.sha256(b"A").digest())
    assert memo.get(c) == (b"C2", hashlib.sha256(b"C2").digest())
