"""ModelFactory: resolving names and specs, keys, shared limits, cache, stats."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from lifebench.errors import InputError
from lifebench.messages import UserMessage
from lifebench.models import (
    ModelCache,
    ModelFactory,
    OpenAICompatibleModel,
    ScriptedModel,
    is_local_url,
    models_config_from_data,
)
from lifebench.testing import MockOpenAIServer

from .conftest import RecordingSleep, hold_until_in_flight

HELLO = [UserMessage(content="hello")]


@pytest.fixture
async def server() -> AsyncIterator[MockOpenAIServer]:
    async with MockOpenAIServer(latency_s=0.02) as running:
        yield running


def _factory(
    server: MockOpenAIServer,
    *,
    environ: dict[str, str] | None = None,
    cache: ModelCache | None = None,
    **extra: dict[str, object],
) -> ModelFactory:
    # "localhost" rather than 127.0.0.1 would also work; the mock binds 127.0.0.1
    models = {
        "agent": {"model": "agent-model", "base_url": server.base_url, "max_concurrency": 2},
        "user": {"model": "user-model", "base_url": server.base_url + "/"},
        **extra,
    }
    return ModelFactory(
        models_config_from_data({"models": models}, source="models.yaml"),
        environ=environ if environ is not None else {"OPENAI_API_KEY": "sk-x"},
        cache=cache,
        sleep=RecordingSleep(),
        config_source="models.yaml",
    )


async def test_resolve_config_name(server: MockOpenAIServer) -> None:
    factory = _factory(server)
    agent = factory.resolve("agent")
    assert isinstance(agent, OpenAICompatibleModel)
    assert agent.name == "agent" and agent.model == "agent-model"
    assert factory.resolve(" agent ") is agent
    answer = await agent.generate(HELLO)
    assert answer.content == "echo: hello"
    assert server.requests[0].headers["Authorization"] == "Bearer sk-x"
    assert server.requests[0].body["temperature"] == 0.0  # config default
    await factory.aclose()


async def test_models_of_one_endpoint_share_the_limit(server: MockOpenAIServer) -> None:
    hold_until_in_flight(server, 2)
    factory = _factory(server)
    agent, user = factory.resolve("agent"), factory.resolve("user")
    await asyncio.gather(*(m.generate(HELLO) for m in [agent, user] * 6))
    assert server.count == 12
    assert server.max_in_flight == 2  # the first registration (agent: 2) fixes the limit
    assert factory.limits.limit_of(server.base_url) == 2 and len(factory.limits) == 1
    await factory.aclose()


async def test_resolve_model_at_base_url_spec() -> None:
    factory = ModelFactory(environ={"OPENAI_API_KEY": "sk-env"})
    model = factory.resolve("gpt-4o@https://user:pw@api.example.com/v1?k=1")
    assert isinstance(model, OpenAICompatibleModel)
    assert model.model == "gpt-4o"
    assert model.name == "gpt-4o@https://***@api.example.com/v1"
    assert "pw" not in repr(model)
    await factory.aclose()


def test_spec_without_key_names_the_variable() -> None:
    factory = ModelFactory(environ={})
    with pytest.raises(InputError, match="environment variable OPENAI_API_KEY is not set"):
        factory.resolve("gpt-4o@https://api.openai.com/v1")


async def test_localhost_spec_without_key_uses_empty(server: MockOpenAIServer) -> None:
    factory = ModelFactory(environ={})
    model = factory.resolve(f"local-model@{server.base_url}")
    await model.generate(HELLO)
    assert server.requests[0].headers["Authorization"] == "Bearer EMPTY"
    assert server.requests[0].body["model"] == "local-model"
    await factory.aclose()


def test_config_model_without_key_names_file_field_and_variable() -> None:
    config = models_config_from_data(
        {
            "models": {
                "ds": {
                    "model": "deepseek-chat",
                    "base_url": "https://api.deepseek.com/v1",
                    "api_key_env": "DEEPSEEK_API_KEY",
                }
            }
        },
        source="models.yaml",
    )
    factory = ModelFactory(config, environ={"OPENAI_API_KEY": "x"}, config_source="models.yaml")
    with pytest.raises(InputError) as info:
        factory.resolve("ds")
    assert "DEEPSEEK_API_KEY" in str(info.value)
    assert info.value.file == "models.yaml" and info.value.field == "models.ds.api_key_env"


def test_unknown_name_lists_known_models(server: MockOpenAIServer) -> None:
    with pytest.raises(InputError, match=r"unknown model 'gpt5'.*known: agent, user"):
        _factory(server).resolve("gpt5")


async def test_cache_attached_unless_disabled(server: MockOpenAIServer, tmp_path: Path) -> None:
    cache = ModelCache(tmp_path / "cache.sqlite")
    factory = _factory(
        server,
        cache=cache,
        nocache={"model": "n", "base_url": server.base_url, "cache": False},
    )
    agent, nocache = factory.resolve("agent"), factory.resolve("nocache")
    for _ in range(2):
        await agent.generate(HELLO)
        await nocache.generate(HELLO)
    assert server.count == 3  # agent once, nocache twice
    stats = factory.stats()
    assert stats["agent"].cache_hits == 1 and stats["nocache"].cache_hits == 0
    await factory.aclose()


async def test_total_stats_sum_all_models(server: MockOpenAIServer) -> None:
    factory = _factory(server)
    scripted = ScriptedModel(["a"], name="sim")
    factory.register("sim", scripted)
    assert factory.resolve("sim") is scripted
    await factory.resolve("agent").generate(HELLO)
    await factory.resolve("user").generate(HELLO)
    await factory.resolve("sim").generate(HELLO)
    total = factory.total_stats()
    assert set(factory.stats()) == {"agent", "user", "sim"}
    assert total.calls == 3 and total.api_calls == 3
    assert total.prompt_tokens == 2 and total.completion_tokens == 4
    await factory.aclose()


def test_from_file(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text("models:\n  m: {model: x, base_url: 'http://127.0.0.1:1/v1'}\n")
    factory = ModelFactory.from_file(path, environ={})
    assert factory.resolve("m").name == "m"
    path.write_text("models:\n  m: {model: x}\n")
    with pytest.raises(InputError, match=r"models\.m\.base_url"):
        ModelFactory.from_file(path)


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://localhost:8000/v1", True),
        ("http://127.0.0.1/v1", True),
        ("http://[::1]:80/v1", True),
        ("https://api.openai.com/v1", False),
        ("http://localhost.evil.com/v1", False),
    ],
)
def test_is_local_url(url: str, local: bool) -> None:
    assert is_local_url(url) is local
