"""Argument and call matching with an optional LLM judge for values the rules cannot settle."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lifebench.evaluation import ShapeError, ask_json
from lifebench.flow.evaluation.matching import (
    Verdict,
    enum_values,
    gold_keys,
    match_value,
    normalize,
)
from lifebench.flow.evaluation.prompts import FUZZY_SYSTEM, fuzzy_prompt
from lifebench.messages import Usage
from lifebench.models import ChatModel, GenerateConfig


@dataclass(frozen=True)
class ToolDocs:
    """What the matcher knows about the tools of a task: the API block shown to the judge and
    each parameter's description (enumerations are read from it), plus the current time."""

    blocks: Mapping[str, str] = field(default_factory=dict)
    params: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    now: str = ""

    def enum(self, tool: str, key: str) -> tuple[str, ...]:
        """The enumeration values of ``tool.key`` (empty when it is no enumeration)."""
        return enum_values(self.params.get(tool, {}).get(key, ""))


def _same(parsed: Any) -> bool:
    if isinstance(parsed, list) and parsed:
        parsed = parsed[0]
    if not isinstance(parsed, dict) or "same" not in parsed:
        raise ShapeError('expected {"same": true} or {"same": false}')
    value = parsed["same"]
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    raise ShapeError(f'"same" must be true or false, got {value!r}')


class FuzzyJudge:
    """Asks a judge model whether two values of one parameter mean the same (temperature 0)."""

    def __init__(self, model: ChatModel) -> None:
        self._model = model
        self._config = GenerateConfig(temperature=0.0)

    async def same(
        self, docs: ToolDocs, tool: str, key: str, gold: Any, pred: Any
    ) -> tuple[bool, Usage]:
        """The judge's verdict and the usage of its calls (raises JudgeError on failure)."""
        answer = await ask_json(
            self._model,
            FUZZY_SYSTEM,
            fuzzy_prompt(docs.blocks.get(tool), docs.now, key, gold, pred),
            _same,
            config=self._config,
        )
        return answer.value, answer.usage


class ArgumentMatcher:
    """Rules first, then the judge (if any) for *unsure* values; one instance per evaluation.

    Judge verdicts are memoised per (tool, key, gold, pred) so that the same comparison is asked
    once per evaluation; ``usage`` and ``asked`` record the judge's cost.
    """

    def __init__(self, docs: ToolDocs, judge: FuzzyJudge | None = None) -> None:
        self.docs = docs
        self._judge = judge
        self._memo: dict[tuple[str, str, str, str], bool] = {}
        self._by_text: dict[tuple[str, str, str], bool] = {}
        self.usage = Usage.zero()
        self.asked = 0
        self.unsure = 0

    async def value(self, tool: str, key: str, gold: Any, pred: Any) -> bool:
        """True when ``pred`` matches the (non-empty) gold value of ``tool.key``."""
        verdict = match_value(gold, pred, self.docs.enum(tool, key))
        if verdict is not Verdict.UNSURE:
            return verdict is Verdict.MATCH
        self.unsure += 1
        if self._judge is None:
            return False
        memo_key = (tool, key, repr(gold), repr(pred))
        if memo_key not in self._memo:
            same, usage = await self._judge.same(self.docs, tool, key, gold, pred)
            self.usage = self.usage + usage
            self.asked += 1
            self._memo[memo_key] = same
            self._by_text[(key, normalize(str(gold)), normalize(str(pred)))] = same
        return self._memo[memo_key]

    def verdict(self, tool: str, key: str, gold: Any, pred: Any) -> bool:
        """lifebench's verdict on a pair of values without asking anyone: the rules, then the
        judge's verdict if it was asked about the same texts (ignoring case and punctuation),
        else no. Official mode answers the official fuzzy matcher's questions with it."""
        verdict = match_value(gold, pred, self.docs.enum(tool, key))
        if verdict is not Verdict.UNSURE:
            return verdict is Verdict.MATCH
        return self._by_text.get((key, normalize(str(gold)), normalize(str(pred))), False)

    async def call(
        self,
        gold_name: str,
        gold_args: Mapping[str, Any] | None,
        pred_name: str | None,
        pred_args: Mapping[str, Any] | None,
    ) -> bool:
        """A predicted call is correct when its name equals the gold name and every non-empty
        gold argument is present with a matching value (extra predicted arguments are fine)."""
        if pred_name is None or pred_name != gold_name:
            return False
        gold, given = dict(gold_args or {}), dict(pred_args or {})
        for key in gold_keys(gold):
            if key not in given or not await self.value(gold_name, key, gold[key], given[key]):
                return False
        return True

    async def param_hits(
        self,
        gold_name: str,
        gold_args: Mapping[str, Any] | None,
        pred_args: Mapping[str, Any] | None,
    ) -> int:
        """How many non-empty gold arguments the prediction passes with a matching value."""
        gold, given = dict(gold_args or {}), dict(pred_args or {})
        hits = 0
        for key in gold_keys(gold):
            if key in given and await self.value(gold_name, key, gold[key], given[key]):
                hits += 1
        return hits
