"""One sandbox per run: answers valid tool calls from the official cache, the memo, the tool
simulator or the offline world, and says where each answer came from."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lifebench._util.text import Language
from lifebench.messages import Usage
from lifebench.models import ChatModel
from lifebench.travel.sandbox.cache import OfficialCache
from lifebench.travel.sandbox.keys import normalized_key, official_key, official_params
from lifebench.travel.sandbox.memo import SimulationMemo
from lifebench.travel.sandbox.retrieval import Retriever
from lifebench.travel.sandbox.simulator import simulate

Backend = Literal["offline", "cache", "simulate"]
Source = Literal["cache", "memo", "simulated", "offline", "miss"]

NO_CACHED_ANSWER: dict[Language, str] = {
    "zh": json.dumps({"error": "缓存中没有这次调用的结果，且未配置工具模拟器"}, ensure_ascii=False),
    "en": json.dumps({"error": "no cached answer for this call and no tool simulator configured"}),
}
"""The ``cache`` backend's answer to a miss (a result, not a tool error — as official)."""


@dataclass(frozen=True)
class SandboxConfig:
    """How tool calls are answered."""

    backend: Backend = "offline"
    cache_dir: Path | None = None
    normalize_keys: bool = False
    memo_dir: Path | None = None
    examples: int = 8
    temperature: float | None = 0.0


@dataclass(frozen=True)
class Answer:
    """A tool result, where it came from, and the simulator usage when a model produced it."""

    content: str
    source: Source
    usage: Usage | None = None


@dataclass
class Sandbox:
    """Shared by every episode of a run (the memo and the cache index are per run)."""

    config: SandboxConfig
    model: ChatModel | None = None
    cache: OfficialCache = field(init=False)
    memo: SimulationMemo | None = field(init=False, default=None)
    _retrievers: dict[str, Retriever] = field(init=False, default_factory=dict)
    _locks: dict[tuple[str, str], asyncio.Lock] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.cache = OfficialCache(self.config.cache_dir)
        if self.config.backend == "simulate":
            if self.model is None:
                raise ValueError("the simulate backend needs a tool-simulator model")
            if self.config.memo_dir is None:
                raise ValueError("the simulate backend needs a memo folder")
            self.memo = SimulationMemo(self.config.memo_dir)

    def key(self, tool: str, args: Mapping[str, Any], time: str) -> str:
        """The cache key this sandbox uses for a call (exact official, or normalised)."""
        if self.config.normalize_keys:
            return normalized_key(tool, args, time)
        return official_key(args, time)

    async def answer(
        self, tool: str, args: Mapping[str, Any], time: str, language: Language
    ) -> Answer:
        """The answer to a call that passed validation."""
        key = self.key(tool, args, time)
        hit = self.cache.get(tool, key, normalized=self.config.normalize_keys)
        if hit is not None:
            return Answer(hit, "cache")
        if self.config.backend == "offline":
            from lifebench.travel.sandbox.world import answer as world_answer

            return Answer(world_answer(tool, args, time, language), "offline")
        if self.config.backend == "cache":
            return Answer(NO_CACHED_ANSWER[language], "miss")
        return await self._simulated(tool, args, time, language, key)

    async def _simulated(
        self, tool: str, args: Mapping[str, Any], time: str, language: Language, key: str
    ) -> Answer:
        assert self.memo is not None and self.model is not None
        lock = self._locks.setdefault((tool, key), asyncio.Lock())
        async with lock:  # the same call in two concurrent episodes is simulated once
            stored = await self.memo.get(tool, key)
            if stored is not None:
                return Answer(stored.result, "memo")
            params = official_params(args)
            examples = self._retriever(tool).nearest(params, self.config.examples)
            text, usage = await simulate(
                self.model,
                tool,
                args,
                time,
                examples,
                language,
                key=key,
                temperature=self.config.temperature,
            )
            stored = await self.memo.put(tool, key, params, time, text, self.model.name, usage)
            return Answer(stored.result, "simulated", usage)

    def _retriever(self, tool: str) -> Retriever:
        if tool not in self._retrievers:
            self._retrievers[tool] = Retriever(self.cache.examples(tool))
        return self._retrievers[tool]

    def close(self) -> None:
        """Close the memo's database connection."""
        if self.memo is not None:
            self.memo.close()
