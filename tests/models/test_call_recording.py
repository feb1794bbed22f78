"""Recording model calls: the exact request sent, the response received, per unit and role."""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

import pytest

from lifebench.errors import ModelError
from lifebench.messages import AssistantMessage, Message, SystemMessage, ToolCall, UserMessage
from lifebench.models import (
    CallLog,
    GenerateConfig,
    ModelCache,
    OpenAICompatibleModel,
    RetryPolicy,
    ScriptedModel,
    for_role,
    labelled,
    recording,
)
from lifebench.models._record import (
    BlobCoder,
    RoleModel,
    current_context,
    decode_blob,
    encode_blob,
    grading,
    scrub_bytes,
    secret_forms,
)
from lifebench.testing import MockOpenAIServer, completion_response

from .conftest import SECRET_KEY, MakeModel

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup",
            "description": "Look something up " + "in detail " * 40,
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
        },
    }
]


def _conversation(n: int) -> list[Message]:
    out: list[Message] = [SystemMessage(content="You are terse. " * 30)]
    for i in range(n):
        out.append(UserMessage(content=f"question {i}: " + "why? " * 20))
        out.append(AssistantMessage(content=f"answer {i}"))
    out.append(UserMessage(content="last question"))
    return out


def _stored_bytes(log: CallLog) -> bytes:
    """Every byte the log would store (blobs decoded, calls as JSON)."""
    pack = log.pack()
    return (
        b"".join(decode_blob(b.codec, b.data) for b in pack.blobs)
        + "".join(row[-1] for row in pack.calls).encode()
    )


async def test_the_recorded_request_is_the_body_the_server_received(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        model = make_model(server)
        base_url = server.base_url
        log = CallLog()
        with recording(log):
            await model.generate(_conversation(1), tools=TOOLS, config=GenerateConfig(seed=7))
            await model.generate(_conversation(2), tools=TOOLS, config=GenerateConfig(seed=7))
    received = [r.raw for r in server.requests]
    assert log.bodies() == {0: received[0], 1: received[1]}
    first, second = log.records()
    assert (first.role, first.basis, first.label, first.cached) == ("model", None, None, False)
    assert first.model == "test-model" and first.model_id == "mock-model"
    assert first.endpoint == base_url
    assert first.request["tools"] == second.request["tools"]  # one blob for the tool list
    # the second call resends the first call's messages but its last: only the new ones
    assert first.request["messages"][:2] == [-1, 0]
    assert second.request["messages"][:2] == [0, 3]
    assert len(second.request["messages"][2]) == 3
    contents = log.contents()
    assert first.response is not None
    assert json.loads(contents[first.response]) == json.loads(
        json.dumps(completion_response("echo: last question"))
    ) or json.loads(contents[first.response])["choices"][0]["message"]["content"] == (
        "echo: last question"
    )
    assert first.usage is not None and first.usage["prompt_tokens"] > 0


async def test_a_conversation_is_stored_once_not_once_per_call(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        model = make_model(server)
        log = CallLog()
        with recording(log):
            for n in range(24):
                await model.generate(_conversation(n), tools=TOOLS)
    sent = sum(len(r.raw) for r in server.requests)
    stored = sum(b.size for b in log.pack().blobs)
    # each message and the tool list once, while the requests resend everything each time
    assert stored < sent / 5
    assert log.bodies() == {i: r.raw for i, r in enumerate(server.requests)}
    assert len(log.pack().tools) == 1


async def test_no_open_log_records_nothing(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        model = make_model(server)
        answer = await model.generate(_conversation(0))
        log = CallLog()
        with recording(log), recording(None):  # an inner "no recording" wins
            await model.generate(_conversation(0))
    assert answer.content == "echo: last question"
    assert log.calls == [] and current_context() is None


async def test_retried_and_failed_calls_keep_their_attempts(make_model: MakeModel) -> None:
    async with MockOpenAIServer(faults=["500", "429"]) as server:
        model = make_model(server)
        log = CallLog()
        with recording(log):
            await model.generate(_conversation(0))
    (call,) = log.records()
    assert [a.status for a in call.attempts] == [500, 429]
    assert all(a.response is not None for a in call.attempts)
    assert call.usage is not None and call.usage["retries"] == 2
    assert call.error is None
    async with MockOpenAIServer(faults=["500"] * 3) as server:
        model = make_model(server, retry=RetryPolicy(max_attempts=3, base_delay_s=0.0))
        log = CallLog()
        with recording(log), pytest.raises(ModelError):
            await model.generate(_conversation(0))
    (failed,) = log.records()
    assert failed.error is not None and "gave up after 3 attempts" in failed.error
    assert [a.status for a in failed.attempts] == [500, 500, 500]
    assert failed.response is None and failed.usage is None
    assert log.bodies()[0] == server.requests[0].raw


async def test_cache_hits_are_recorded_with_their_key(make_model: MakeModel, tmp_path: Any) -> None:
    async with MockOpenAIServer() as server:
        model = make_model(server, cache=ModelCache(tmp_path / "cache.sqlite"))
        log = CallLog()
        with recording(log):
            await model.generate(_conversation(1), tools=TOOLS)
            await model.generate(_conversation(1), tools=TOOLS)
    assert server.count == 1
    sent, hit = log.records()
    assert (sent.cached, sent.response_kind) == (False, "http")
    assert (hit.cached, hit.response_kind) == (True, "cache")
    assert hit.cache_key == sent.cache_key and hit.cache_key is not None
    bodies = log.bodies()
    assert bodies[0] == bodies[1] == server.requests[0].raw  # what would have been sent
    stored = AssistantMessage.model_validate_json(log.contents()[str(hit.response)])
    assert stored.content == "echo: last question"


async def test_a_body_built_whole_is_recorded_whole(make_model: MakeModel) -> None:
    config = GenerateConfig(extra_body={"messages": [{"role": "user", "content": "override"}]})
    async with MockOpenAIServer() as server:
        model = make_model(server)
        log = CallLog()
        with recording(log):
            await model.generate(_conversation(0), config=config)
    (call,) = log.records()
    assert call.request["kind"] == "whole"
    assert log.bodies()[0] == server.requests[0].raw


async def test_credentials_never_reach_the_record(make_model: MakeModel) -> None:
    echoed = f"your key is {SECRET_KEY}"

    def responder(body: dict[str, Any]) -> dict[str, Any]:
        last = body["messages"][-1]["content"]
        return completion_response(echoed if body["model"] == "mock-model" else f"echo {last}")

    url_secret = "tokentokentoken123"
    async with MockOpenAIServer(responder=responder) as server:
        model = make_model(server)
        base = server.base_url.replace("http://", f"http://user:{url_secret}@")
        with_password = OpenAICompatibleModel(
            name="pw", model="m", base_url=base, api_key="EMPTY", timeout_s=2.0
        )
        log = CallLog()
        leak = [UserMessage(content=f'my key {SECRET_KEY} and "{SECRET_KEY}"')]
        with recording(log):
            await model.generate(leak)
            await with_password.generate([UserMessage(content=f"password {url_secret}")])
        await with_password.aclose()
    assert server.requests[0].headers["Authorization"] == f"Bearer {SECRET_KEY}"
    stored = _stored_bytes(log)
    assert SECRET_KEY.encode() not in stored and url_secret.encode() not in stored
    assert log.records()[1].endpoint == base.replace(f"user:{url_secret}", "***")
    assert b"***" in stored
    assert b"Authorization" not in stored and b"Bearer" not in stored
    # JSON-escaped forms too
    forms = secret_forms(['a"b\\c-0123456789'])
    assert b'a\\"b\\\\c-0123456789' in forms and b'a"b\\c-0123456789' in forms
    assert scrub_bytes(b'{"k":"a\\"b\\\\c-0123456789"}', forms) == b'{"k":"***"}'
    assert secret_forms(["", "EMPTY"]) == ()


async def test_roles_labels_and_bases_follow_the_caller() -> None:
    shared = ScriptedModel(["a", "u", "j1", "j2"], name="shared")
    agent, user, judge = (for_role(shared, r) for r in ("agent", "user", "judge"))
    log = CallLog()
    with recording(log):
        await agent.generate([UserMessage(content="hi")])
        await user.generate([UserMessage(content="hello")])
        with grading("rubric"), labelled("window 1/2"):
            await judge.generate([UserMessage(content="grade 1")])
            with labelled("re-ask 1"):
                await judge.generate([UserMessage(content="grade 1 again")])
    roles = [(c.role, c.basis, c.label, c.response_kind) for c in log.records()]
    assert roles == [
        ("agent", None, None, "scripted"),
        ("user", None, None, "scripted"),
        ("judge", "rubric", "window 1/2", "scripted"),
        ("judge", "rubric", "window 1/2 › re-ask 1", "scripted"),
    ]
    assert isinstance(agent, RoleModel) and agent.name == "shared"
    assert for_role(agent, "agent") is agent
    rewrapped = for_role(agent, "user")
    assert isinstance(rewrapped, RoleModel) and rewrapped.wrapped is shared
    assert agent.stats is shared.stats  # everything else is the model's
    # a model of another role inside a grading keeps its own role (a tool simulator)
    tool = for_role(shared, "tool")
    shared2 = ScriptedModel(["t"], name="t")
    with recording(log), grading("session_tools"):
        await for_role(shared2, "tool").generate([UserMessage(content="x")])
    assert (log.records()[-1].role, log.records()[-1].basis) == ("tool", "session_tools")
    assert tool.name == "shared"


async def test_scripted_calls_record_the_request_an_endpoint_would_get() -> None:
    model = ScriptedModel(
        [
            AssistantMessage(
                content="", tool_calls=[ToolCall(id="c1", name="lookup", arguments="{}")]
            )
        ]
    )
    log = CallLog()
    with recording(log):
        await model.generate(_conversation(0), tools=TOOLS, config=GenerateConfig(temperature=0.5))
    body = json.loads(log.bodies()[0])
    assert body["model"] == "scripted" and body["tools"] == TOOLS
    assert body["temperature"] == 0.5
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    exhausted = ScriptedModel([])
    with recording(log), pytest.raises(ModelError):
        await exhausted.generate([UserMessage(content="x")])
    assert "script exhausted" in (log.records()[-1].error or "")


async def test_concurrent_units_keep_their_own_calls(make_model: MakeModel) -> None:
    async with MockOpenAIServer() as server:
        model = make_model(server)

        async def unit(i: int) -> CallLog:
            log = CallLog()
            with recording(log):
                for j in range(3):
                    await model.generate([UserMessage(content=f"unit {i} call {j}")])
                    await asyncio.sleep(0)
            return log

        logs = await asyncio.gather(*(unit(i) for i in range(4)))
    for i, log in enumerate(logs):
        texts = [json.loads(b)["messages"][0]["content"] for b in log.bodies().values()]
        assert texts == [f"unit {i} call {j}" for j in range(3)]


def test_blobs_are_named_by_content_and_compressed_when_it_pays() -> None:
    small = encode_blob(b'{"role":"user"}')
    assert (small.codec, small.data) == ("raw", b'{"role":"user"}')
    big = b'{"content":"' + b"abc " * 200 + b'"}'
    packed = encode_blob(big)
    assert packed.codec == "zlib" and zlib.decompress(packed.data) == big
    assert packed.size == len(big) and len(packed.data) < len(big)
    import hashlib

    assert packed.hash == hashlib.sha256(big).hexdigest()
    noise = bytes(range(256)) * 2  # incompressible: kept raw
    assert encode_blob(bytes(hashlib.sha256(noise).digest() * 10)).codec in ("raw", "zlib")
    with pytest.raises(ValueError, match="unknown blob codec"):
        decode_blob("lz4", b"")
    coder = BlobCoder(secrets=["s3cr3t-value"], size=2)
    clean = coder.blob(b"has s3cr3t-value inside")
    assert decode_blob(clean.codec, clean.data) == b"has *** inside"
    assert clean.hash == hashlib.sha256(b"has *** inside").hexdigest()
    assert coder.blob(b"has s3cr3t-value inside") is clean  # memoised by the original
    coder.blob(b"one")
    coder.blob(b"two")
    assert len(coder) == 2  # bounded
