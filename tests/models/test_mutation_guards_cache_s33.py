"""Guards of the content-addressed model-call cache (issue 21): a wrong key, a lost or replaced
write, or a hit that is not marked cached changes answers, costs and what a re-grade asks again.
Each test is a near miss of one rule of ``lifebench.models._cache``."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from lifebench.messages import AssistantMessage, Usage
from lifebench.models import GenerateConfig
from lifebench.models._cache import ModelCache, cache_endpoint, cache_key

WIRE = [{"role": "user", "content": "你好, hello"}]


def _rows(path: Path) -> dict[str, tuple[str, str, float]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT key, model, response, created_at FROM model_calls").fetchall()
    return {key: (model, response, created) for key, model, response, created in rows}


def _stored(path: Path) -> set[str]:
    if not path.exists():
        return set()
    try:
        return set(_rows(path))
    except sqlite3.OperationalError:  # the table does not exist yet
        return set()


def test_the_key_ignores_surrounding_spaces_of_the_endpoint() -> None:
    parts = {"model": "m", "messages": WIRE, "tools": None, "config": GenerateConfig(seed=7)}
    assert cache_key(base_url="  http://host:8000/v1\n", **parts) == cache_key(
        base_url="http://host:8000/v1", **parts
    )
    assert cache_endpoint(" http://host:8000/v1 ") == cache_endpoint("http://host:8000/v1")
    assert cache_key(base_url="http://host:8000/v1", **parts) != cache_key(
        base_url="http://host:8001/v1", **parts
    )


async def test_answers_are_written_once_flush_every_have_gathered(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "cache.sqlite"
    cache = ModelCache(path, flush_every=3, flush_interval_s=3600)
    await cache.put("k1", "m", AssistantMessage(content="一"))
    await cache.put("k2", "m", AssistantMessage(content="two"))
    assert _stored(path) == set()  # two gathered: nothing written yet
    # ... but both are read from memory
    first = await cache.get("k1")
    assert first is not None and first.content == "一"
    await cache.put("k3", "m", AssistantMessage(content="three"))
    assert _stored(path) == {"k1", "k2", "k3"}  # the third completes the batch
    await cache.put("k4", "m", AssistantMessage(content="four"))
    assert _stored(path) == {"k1", "k2", "k3"}
    cache.close()
    assert _stored(path) == {"k1", "k2", "k3", "k4"}  # close writes what is still gathered


async def test_flush_every_below_one_writes_every_answer(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=0, flush_interval_s=3600)
    await cache.put("k1", "m", AssistantMessage(content="x"))
    assert _stored(path) == {"k1"}
    cache.close()


async def test_the_default_batch_is_64_answers(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_interval_s=3600)
    for i in range(63):
        await cache.put(f"k{i}", "m", AssistantMessage(content=str(i)))
    assert _stored(path) == set()
    await cache.put("k63", "m", AssistantMessage(content="63"))
    assert len(_stored(path)) == 64
    cache.close()


async def test_answers_are_written_once_the_interval_has_passed(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=1000, flush_interval_s=0)
    await cache.put("k1", "m", AssistantMessage(content="x"))
    assert _stored(path) == {"k1"}
    slow = ModelCache(tmp_path / "slow.sqlite", flush_every=1000, flush_interval_s=3600)
    await slow.put("k1", "m", AssistantMessage(content="x"))
    await slow.put("k2", "m", AssistantMessage(content="y"))
    assert _stored(tmp_path / "slow.sqlite") == set()
    await slow.flush()
    assert _stored(tmp_path / "slow.sqlite") == {"k1", "k2"}
    cache.close()
    slow.close()


async def test_the_first_stored_answer_wins(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=1000, flush_interval_s=3600)
    await cache.put("k", "model-a", AssistantMessage(content="first 第一"))
    await cache.put("k", "model-b", AssistantMessage(content="second"))  # still gathered
    await cache.flush()
    await cache.put("k", "model-c", AssistantMessage(content="third"))  # already stored
    await cache.flush()
    hit = await cache.get("k")
    assert hit is not None and hit.content == "first 第一"
    cache.close()
    rows = _rows(path)
    assert list(rows) == ["k"] and rows["k"][0] == "model-a"
    assert AssistantMessage.model_validate_json(rows["k"][1]).content == "first 第一"


async def test_a_replacing_subclass_keeps_the_latest_answer(tmp_path: Path) -> None:
    class Replacing(ModelCache):
        on_conflict = "REPLACE"

    path = tmp_path / "c.sqlite"
    with ModelCache(path) as cache:
        await cache.put("k", "m", AssistantMessage(content="old"))
    with Replacing(path) as again:
        await again.put("k", "m", AssistantMessage(content="new"))
    with ModelCache(path) as reader:
        hit = await reader.get("k")
    assert hit is not None and hit.content == "new"


async def test_rows_carry_model_answer_and_creation_time(tmp_path: Path) -> None:
    import time

    path = tmp_path / "c.sqlite"
    before = time.time()
    with ModelCache(path) as cache:
        await cache.put("key-1", "qwen-plus", AssistantMessage(content="答案"))
    after = time.time()
    model, response, created = _rows(path)["key-1"]
    assert model == "qwen-plus"
    assert AssistantMessage.model_validate_json(response).content == "答案"
    assert before <= created <= after


async def test_a_hit_is_cached_free_and_not_retried_whatever_was_stored(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with ModelCache(path) as cache:
        await cache.put("bare", "m", AssistantMessage(content="no usage"))
        await cache.put(
            "full",
            "m",
            AssistantMessage(
                content="u",
                usage=Usage(
                    prompt_tokens=11, completion_tokens=5, cost=0.25, retries=3, usage_missing=True
                ),
            ),
        )
    with ModelCache(path) as cache:  # read from the file, not from memory
        bare = await cache.get("bare")
        full = await cache.get("full")
    assert bare is not None and bare.usage == Usage(cost=0.0, cached=True, retries=0)
    assert full is not None and full.usage == Usage(
        prompt_tokens=11, completion_tokens=5, cost=0.0, cached=True, retries=0, usage_missing=True
    )
    full_usage = full.usage
    assert full_usage.cached is True and full_usage.retries == 0 and full_usage.cost == 0.0


async def test_a_gathered_hit_is_marked_too(tmp_path: Path) -> None:
    cache = ModelCache(tmp_path / "c.sqlite", flush_every=1000, flush_interval_s=3600)
    await cache.put(
        "k", "m", AssistantMessage(content="mem", usage=Usage(prompt_tokens=2, cost=1.0))
    )
    hit = await cache.get("k")
    assert hit is not None and hit.content == "mem"
    assert hit.usage == Usage(prompt_tokens=2, cost=0.0, cached=True)
    cache.close()


async def test_a_failed_write_is_rolled_back_and_later_writes_land(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=1000, flush_interval_s=3600)
    await cache.put("warm", "m", AssistantMessage(content="w"))
    await cache.flush()
    cache.on_conflict = "NOT-A-CLAUSE"  # the INSERT cannot be prepared
    with caplog.at_level(logging.WARNING, logger="lifebench.models._cache"):
        await cache.put("lost", "m", AssistantMessage(content="x"))
        await cache.flush()
    [record] = [r for r in caplog.records if r.name == "lifebench.models._cache"]
    assert record.getMessage().startswith(f"could not write to model cache {path} (")
    assert "syntax error" in record.getMessage()
    assert await cache.get("lost") is None  # dropped, not kept gathered forever
    cache.on_conflict = "IGNORE"
    await cache.put("later", "m", AssistantMessage(content="y"))
    await cache.flush()
    assert _stored(path) == {"warm", "later"}
    cache.on_conflict = "NOT-A-CLAUSE"
    await cache.put("lost-at-close", "m", AssistantMessage(content="z"))
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="lifebench.models._cache"):
        cache.close()
    [record] = [r for r in caplog.records if r.name == "lifebench.models._cache"]
    assert record.getMessage().startswith(f"could not write to model cache {path} (")
    assert "syntax error" in record.getMessage()
    cache.on_conflict = "IGNORE"
    await cache.put("after-close", "m", AssistantMessage(content="a"))
    cache.close()
    assert _stored(path) == {"warm", "later", "after-close"}


async def test_an_unusable_file_warns_once_and_stores_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"not a database at all " * 200)
    cache = ModelCache(path, flush_every=1)
    with caplog.at_level(logging.WARNING, logger="lifebench.models._cache"):
        await cache.put("k", "m", AssistantMessage(content="x"))
        assert await cache.get("k") is None
        await cache.put("k2", "m", AssistantMessage(content="y"))
        assert await cache.get("k2") is None
        assert len(cache) == 0
    warnings = [r for r in caplog.records if "unusable" in r.getMessage()]
    assert len(warnings) == 1
    assert str(path) in warnings[0].getMessage() and "running without it" in caplog.text
    cache.close()


async def test_a_vanished_table_is_a_miss_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path)
    await cache.put("k", "m", AssistantMessage(content="x"))
    await cache.flush()
    assert (await cache.get("k")) is not None
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE model_calls")
    with caplog.at_level(logging.WARNING, logger="lifebench.models._cache"):
        assert await cache.get("k") is None
    [record] = [r for r in caplog.records if r.name == "lifebench.models._cache"]
    assert record.getMessage() == (
        f"model cache {path} unreadable (no such table: model_calls); treating as a miss"
    )
    cache.close()


async def test_close_reopens_on_next_use_and_len_counts_gathered(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=1000, flush_interval_s=3600)
    await cache.put("a", "m", AssistantMessage(content="a"))
    await cache.put("b", "m", AssistantMessage(content="b"))
    assert len(cache) == 2
    cache.close()
    cache.close()  # twice is fine
    await cache.put("c", "m", AssistantMessage(content="c"))
    hit = await cache.get("a")
    assert hit is not None and hit.content == "a"
    assert len(cache) == 3
    cache.close()
    assert repr(cache) == f"ModelCache(path={str(path)!r})"


def test_the_busy_timeout_is_set_in_milliseconds(tmp_path: Path) -> None:
    cache = ModelCache(tmp_path / "c.sqlite", busy_timeout_s=1.5)
    assert len(cache) == 0
    conn = cache._reading()
    assert conn is not None
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 1500  # reader: at most 2 s
    default = ModelCache(tmp_path / "e.sqlite")
    assert len(default) == 0
    default._write({"k": ("m", "{}", 0.0)})
    assert default._writer is not None
    assert default._writer.execute("PRAGMA busy_timeout").fetchone()[0] == 30000
    default.close()
    long = ModelCache(tmp_path / "d.sqlite", busy_timeout_s=30)
    reader = long._reading()
    assert reader is not None
    assert reader.execute("PRAGMA busy_timeout").fetchone()[0] == 2000
    assert reader.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    cache.close()
    long.close()


# bounded: it fails at once where a broken _idle makes flush() spin (run first under mutation)
@pytest.mark.bounded
async def test_each_answer_is_written_when_flush_every_is_one(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=1, flush_interval_s=3600)
    for i in range(3):
        await cache.put(f"k{i}", "m", AssistantMessage(content=str(i)))
        assert _stored(path) == {f"k{j}" for j in range(i + 1)}
    cache.close()


async def test_answers_gathered_during_a_write_wait_for_the_next_one(tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=1, flush_interval_s=3600)
    await asyncio.gather(
        *(cache.put(f"k{i}", "m", AssistantMessage(content=str(i))) for i in range(3))
    )
    assert _stored(path) == {"k0"}  # one write at a time: k1 and k2 arrived while it ran
    await cache.flush()
    assert _stored(path) == {"k0", "k1", "k2"}
    cache.close()


async def test_close_during_a_write_loses_nothing_and_raises_nothing(tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=1, flush_interval_s=3600)
    putting = asyncio.ensure_future(cache.put("k", "m", AssistantMessage(content="x")))
    await asyncio.sleep(0)  # the put has gathered its answer and scheduled the batch write
    assert cache._write_task is not None and not cache._write_task.done()
    cache.close()  # writes what is gathered while the batch write is scheduled
    await putting  # the batch write then finds its answer already written
    cache.close()
    assert _stored(path) == {"k"}


async def test_a_later_write_by_another_process_is_what_is_read(tmp_path: Path) -> None:
    class Replacing(ModelCache):
        on_conflict = "REPLACE"

    path = tmp_path / "c.sqlite"
    cache = ModelCache(path, flush_every=1)
    await cache.put("k", "m", AssistantMessage(content="old"))
    assert _stored(path) == {"k"}
    with Replacing(path) as other:
        await other.put("k", "m", AssistantMessage(content="new"))
    hit = await cache.get("k")  # the written answer is no longer held in memory
    assert hit is not None and hit.content == "new"
    cache.close()


async def test_the_default_interval_is_two_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time
    from types import SimpleNamespace

    from lifebench.models import _cache

    clock = [1000.0]
    monkeypatch.setattr(
        _cache,
        "time",
        SimpleNamespace(monotonic=lambda: clock[0], time=time.time, sleep=time.sleep),
    )
    path = tmp_path / "c.sqlite"
    cache = ModelCache(path)
    clock[0] += 1.999
    await cache.put("k1", "m", AssistantMessage(content="x"))
    assert _stored(path) == set()
    clock[0] = 1002.0  # exactly two seconds after the cache was made
    await cache.put("k2", "m", AssistantMessage(content="y"))
    assert _stored(path) == {"k1", "k2"}
    clock[0] += 1.5  # the interval restarts at the write
    await cache.put("k3", "m", AssistantMessage(content="z"))
    assert _stored(path) == {"k1", "k2"}
    cache.close()


class _LockedInit:
    """A clock whose ``sleep`` advances by ``step`` and may release a lock held on the file."""

    def __init__(self, holder: sqlite3.Connection | None, step: float) -> None:
        self.now = 100.0
        self.step = step
        self.delays: list[float] = []
        self.holder = holder

    def monotonic(self) -> float:
        return self.now

    def sleep(self, delay: float) -> None:
        if len(self.delays) > 20:
            raise AssertionError("kept retrying")
        self.delays.append(float(delay))
        self.now += self.step
        if self.holder is not None:
            self.holder.commit()  # the other process's initialisation ends
            self.holder = None


def _locked_file(path: Path) -> sqlite3.Connection:
    with sqlite3.connect(path) as conn:  # an existing file, not yet in WAL mode
        conn.execute("CREATE TABLE other (x)")
    conn.close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def _on_fake_clock(monkeypatch: pytest.MonkeyPatch, fake: _LockedInit) -> _LockedInit:
    """The cache module's clock and sleep replaced by ``fake``'s (wall time kept)."""
    import time
    from types import SimpleNamespace

    from lifebench.models import _cache

    monkeypatch.setattr(
        _cache, "time", SimpleNamespace(monotonic=fake.monotonic, time=time.time, sleep=fake.sleep)
    )
    return fake


def test_a_file_locked_while_initialising_is_retried_until_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite"
    holder = _locked_file(path)
    fake = _on_fake_clock(monkeypatch, _LockedInit(holder, step=0.0005))
    cache = ModelCache(path, busy_timeout_s=0.001)
    with caplog.at_level(logging.WARNING, logger="lifebench.models._cache"):
        assert len(cache) == 0  # usable once the lock is released
    assert fake.delays == [0.01] and caplog.text == ""
    cache.close()
    holder.close()


def test_a_file_locked_for_longer_than_the_busy_timeout_disables_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite"
    holder = _locked_file(path)
    fake = _on_fake_clock(monkeypatch, _LockedInit(None, step=0.001))
    cache = ModelCache(path, busy_timeout_s=0.001)
    with caplog.at_level(logging.WARNING, logger="lifebench.models._cache"):
        assert len(cache) == 0
    # retried at 0 and at exactly the deadline (1 ms later), given up after it
    assert fake.delays == [0.01, 0.01]
    assert "unusable" in caplog.text and "locked" in caplog.text
    cache.close()
    holder.close()


def test_a_not_a_database_file_is_not_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import time
    from types import SimpleNamespace

    from lifebench.models import _cache

    path = tmp_path / "c.sqlite"
    path.write_bytes(b"garbage, not sqlite " * 100)
    fake = _LockedInit(None, step=0.001)
    monkeypatch.setattr(
        _cache, "time", SimpleNamespace(monotonic=fake.monotonic, time=time.time, sleep=fake.sleep)
    )
    cache = ModelCache(path, busy_timeout_s=5)
    with caplog.at_level(logging.WARNING, logger="lifebench.models._cache"):
        assert len(cache) == 0
    assert fake.delays == []
    [record] = caplog.records
    assert record.getMessage() == (
        f"model cache {path} unusable (file is not a database); running without it"
    )
    cache.close()


async def test_the_reader_connection_is_opened_once(tmp_path: Path) -> None:
    cache = ModelCache(tmp_path / "c.sqlite")
    first = cache._reading()
    assert first is not None and cache._reading() is first
    cache.close()


async def test_an_unreadable_entry_is_named_by_its_key_prefix(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite"
    key = "abcdef012345" + "Z" * 52
    with ModelCache(path) as cache:
        await cache.put(key, "m", AssistantMessage(content="x"))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE model_calls SET response = '{\"content\": 7, 无效'")
    with ModelCache(path) as cache, caplog.at_level(logging.WARNING):
        assert await cache.get(key) is None
    [record] = [r for r in caplog.records if r.name == "lifebench.models._cache"]
    assert record.getMessage() == "ignoring unreadable model-cache entry abcdef012345"


async def test_writes_on_a_broken_file_are_dropped_not_gathered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"not a database at all " * 200)
    cache = ModelCache(path, flush_every=1000, flush_interval_s=3600)
    with caplog.at_level(logging.WARNING, logger="lifebench.models._cache"):
        assert await cache.get("k") is None  # the file is found unusable here
        await cache.put("k", "m", AssistantMessage(content="x"))
        assert await cache.get("k") is None
        cache.close()
    assert len([r for r in caplog.records if r.name == "lifebench.models._cache"]) == 1
