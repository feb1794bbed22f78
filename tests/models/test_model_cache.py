"""The on-disk model cache, directly and through OpenAICompatibleModel."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from lifebench.errors import ModelError
from lifebench.messages import AssistantMessage, ToolCall, Usage, UserMessage
from lifebench.models import GenerateConfig, ModelCache, Price, cache_key
from lifebench.testing import MockOpenAIServer

from .conftest import MakeModel

HELLO = [UserMessage(content="hello")]
WIRE = [{"role": "user", "content": "hello"}]


def _key(**overrides: object) -> str:
    parts: dict[str, object] = {
        "base_url": "http://x/v1",
        "model": "m",
        "messages": WIRE,
        "tools": None,
        "config": GenerateConfig(seed=1),
    }
    parts.update(overrides)
    return cache_key(**parts)  # type: ignore[arg-type]


def test_cache_key_is_stable_and_sensitive_to_every_part() -> None:
    base = _key()
    assert base == _key() and len(base) == 64
    assert base == _key(base_url="http://x/v1/")  # trailing slash is the same endpoint
    variants = [
        _key(base_url="http://y/v1"),
        _key(model="m2"),
        _key(messages=[{"role": "user", "content": "hello!"}]),
        _key(tools=[{"type": "function", "function": {"name": "f"}}]),
        _key(config=GenerateConfig(seed=2)),
        _key(config=GenerateConfig(seed=1, temperature=0.5)),
    ]
    assert len({base, *variants}) == len(variants) + 1


async def test_put_get_roundtrip_marks_cached(tmp_path: Path) -> None:
    message = AssistantMessage(
        content="hi",
        tool_calls=[ToolCall(id="c", name="f", arguments="{}")],
        reasoning="r",
        usage=Usage(prompt_tokens=7, completion_tokens=3, cost=0.5, retries=2),
    )
    with ModelCache(tmp_path / "sub" / "cache.sqlite") as cache:
        assert await cache.get("k") is None
        await cache.put("k", "m", message)
        hit = await cache.get("k")
        assert len(cache) == 1

    assert hit is not None
    assert hit.content == "hi" and hit.tool_calls == message.tool_calls and hit.reasoning == "r"
    assert hit.usage == Usage(prompt_tokens=7, completion_tokens=3, cost=0.0, cached=True)


async def test_wal_mode_and_concurrent_use(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    cache = ModelCache(path)
    other_process_like = ModelCache(path)  # a second connection to the same file

    async def roundtrip(i: int) -> str | None:
        writer = cache if i % 2 else other_process_like
        await writer.put(f"k{i}", "m", AssistantMessage(content=str(i)))
        await writer.flush()  # written in a batch: visible to other connections once flushed
        hit = await (other_process_like if i % 2 else cache).get(f"k{i}")
        return hit.content if hit else None

    results = await asyncio.gather(*(roundtrip(i) for i in range(40)))
    assert results == [str(i) for i in range(40)]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT COUNT(*) FROM model_calls").fetchone()[0] == 40
    cache.close()
    other_process_like.close()


async def test_unreadable_entry_is_a_miss(tmp_path: Path) -> None:
    cache = ModelCache(tmp_path / "c.sqlite")
    await cache.put("k", "m", AssistantMessage(content="x"))
    cache.close()
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:
        conn.execute("UPDATE model_calls SET response = '{not json'")
    assert await cache.get("k") is None
    cache.close()


async def test_second_identical_call_served_from_cache(
    make_model: MakeModel, tmp_path: Path
) -> None:
    cache = ModelCache(tmp_path / "cache.sqlite")
    price = Price(input_per_mtok=1.0, output_per_mtok=1.0)
    async with MockOpenAIServer() as server:
        model = make_model(server, cache=cache, price=price)
        config = GenerateConfig(seed=3)
        first = await model.generate(HELLO, config=config)
        second = await model.generate(HELLO, config=config)
        assert server.count == 1
        third = await model.generate(HELLO, config=GenerateConfig(seed=4))
        assert server.count == 2

    assert first.usage is not None and second.usage is not None and third.usage is not None
    assert not first.usage.cached and first.usage.cost > 0
    assert second.content == first.content
    assert second.usage.cached and second.usage.cost == 0.0
    assert (second.usage.prompt_tokens, second.usage.completion_tokens) == (
        first.usage.prompt_tokens,
        first.usage.completion_tokens,
    )
    assert not third.usage.cached
    assert model.stats.cache_hits == 1 and model.stats.calls == 3 and model.stats.api_calls == 2
    cache.close()


async def test_cache_persists_across_instances(make_model: MakeModel, tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    async with MockOpenAIServer() as server:
        with ModelCache(path) as cache:
            await make_model(server, cache=cache).generate(HELLO)
        with ModelCache(path) as cache:
            again = await make_model(server, cache=cache).generate(HELLO)
    assert server.count == 1
    assert again.usage is not None and again.usage.cached


async def test_failed_calls_are_not_cached(make_model: MakeModel, tmp_path: Path) -> None:
    with ModelCache(tmp_path / "c.sqlite") as cache:
        async with MockOpenAIServer(faults=["413"]) as server:
            model = make_model(server, cache=cache)
            with pytest.raises(ModelError):
                await model.generate(HELLO)
            answer = await model.generate(HELLO)
        assert len(cache) == 1
    assert server.count == 2 and answer.usage is not None and not answer.usage.cached


async def test_api_key_absent_from_cache_file(
    make_model: MakeModel, tmp_path: Path, api_key: str
) -> None:
    path = tmp_path / "cache.sqlite"
    with ModelCache(path) as cache:
        async with MockOpenAIServer() as server:
            await make_model(server, cache=cache).generate(HELLO)
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT * FROM model_calls").fetchall()
    assert len(rows) == 1
    assert all(api_key not in str(value) for row in rows for value in row)
    files = await asyncio.to_thread(lambda: [f.read_bytes() for f in tmp_path.iterdir()])
    assert files and all(api_key.encode() not in data for data in files)


async def test_broken_cache_file_never_fails_a_call(
    make_model: MakeModel, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"this is not a sqlite database" * 100)
    with ModelCache(path) as cache:
        async with MockOpenAIServer() as server:
            model = make_model(server, cache=cache)
            answers = [await model.generate(HELLO) for _ in range(2)]
    assert [a.content for a in answers] == ["echo: hello"] * 2
    assert server.count == 2 and model.stats.cache_hits == 0
    assert "model cache" in caplog.text
