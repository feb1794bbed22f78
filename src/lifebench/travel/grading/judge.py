"""TravelBench's LLM judge (basis ``judge``) with the meta-judge and the tool-use penalty.

One judge call per trajectory rates 3 dimensions (single-turn) or 4 (multi-turn) on the
official five-level scale, answered in the official XML; the reply is read tolerantly
(:mod:`~lifebench.travel.grading.parse`) and re-asked a bounded number of times through the core
:func:`~lifebench.evaluation.ask_json`. A judge that never yields a single readable rating raises
:class:`~lifebench.evaluation.JudgeError`, which the runner records as an evaluation error —
counted and reported, never silently dropped, and re-gradable with ``lifebench eval``.

With the meta-judge on (the official setting), a second call audits the first evaluation and
its rating m gives w_meta = m / 5. A meta-judge that fails leaves w_meta = 1 — the official
behaviour — but the failure is recorded in the result and counted in the report.

Every result stores the ratings, the tool counts and the meta rating in ``info``, so the report
recomputes every number (score, raw score, penalised score) from the stored results.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from lifebench._util.text import Language
from lifebench.evaluation import BasisResult, CriterionVerdict, JudgeError, ShapeError, ask_json
from lifebench.messages import Usage
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation import Simulation
from lifebench.travel.grading import judge_prompts as jp
from lifebench.travel.grading.parse import (
    RATING_WORDS,
    WORD_OF_VALUE,
    JudgeReply,
    Verdict,
    parse_judge_reply,
    parse_meta_reply,
)
from lifebench.travel.grading.scoring import InstanceScore, dimensions_of, score_instance
from lifebench.travel.grading.transcript import history_text

GRADER_VERSION = 1
"""Version of this module's grading rules: bump it with any change to them (CONTRIBUTING.md)."""

JUDGE_KIND_LLM = "llm"


def task_fields(task: Any) -> dict[str, str]:
    """The row fields the judge reads (missing ones are empty)."""
    return {
        name: str(getattr(task, name, "") or "")
        for name in ("subset", "query", "context", "time", "intent", "user_profile")
    }


def task_language(task: Any) -> Language:
    """The language of the row's text ("zh" unless the task says "en")."""
    return "en" if getattr(task, "language", "zh") == "en" else "zh"


def conversation_block(
    task: Any,
    simulation: Simulation,
    language: Language,
    tool_schemas: Sequence[dict[str, Any]],
    judge_context: bool,
) -> str:
    """Context, query, (optionally time / intent / profile), tools and history."""
    row = task_fields(task)
    extra = (
        {"time": row["time"], "intent": row["intent"], "profile": row["user_profile"]}
        if judge_context
        else None
    )
    return jp.materials(
        language,
        context=row["context"],
        query=row["query"],
        tools=json.dumps(list(tool_schemas), ensure_ascii=False, indent=2),
        history=history_text(simulation.messages),
        extra=extra,
    )


def _judge_check(dimensions: Sequence[str]) -> Any:
    def check(parsed: Any) -> JudgeReply:
        if not isinstance(parsed, JudgeReply) or not parsed.verdicts:
            raise ShapeError(
                "no <response> block with the dimension tags "
                + ", ".join(f"<{d}>" for d in dimensions)
                + " was found"
            )
        if not parsed.rated:
            raise ShapeError(
                "no dimension has a readable <rating>; use exactly one of "
                + " / ".join(RATING_WORDS)
            )
        return parsed

    return check


def _meta_check(parsed: Any) -> Verdict:
    if not isinstance(parsed, Verdict) or parsed.value is None:
        raise ShapeError(
            "no readable <rating> inside <meta_evaluation>; use exactly one of "
            + " / ".join(RATING_WORDS)
        )
    return parsed


def _meta_parse(text: str) -> Verdict:
    return parse_meta_reply(text) or Verdict()


def _first_evaluation_text(
    reply: JudgeReply, dimensions: Sequence[str], language: Language
) -> tuple[str, str]:
    """The first evaluation as the meta-judge sees it: numeric scores, then reasoning."""
    ratings = reply.ratings()
    rated = [v for v in ratings.values() if v is not None]
    average = sum(rated) / len(rated)
    missing = {"zh": "无", "en": "N/A"}[language]
    scores = "\n".join(
        [f"- {d}: {ratings[d] if ratings[d] is not None else missing}" for d in dimensions]
        + [f"- average: {average:.2f}"]
    )
    no_reason = {"zh": "（无理由）", "en": "(no reasoning)"}[language]
    no_rating = {"zh": "（无评级）", "en": "(no rating)"}[language]
    label = {"zh": ("评级", "理由"), "en": ("Rating", "Reasoning")}[language]
    blocks = []
    for d in dimensions:
        v = reply.verdicts.get(d, Verdict())
        blocks.append(
            f"### {d}\n**{label[0]}**: {v.rating or no_rating}\n"
            f"**{label[1]}**: {v.reasoning.strip() or no_reason}\n"
        )
    return scores, "\n".join(blocks)


def _xml_parser(dimensions: Sequence[str]) -> Any:
    def parse(text: str) -> JudgeReply:
        return parse_judge_reply(text, dimensions) or JudgeReply()

    return parse


def judge_result(
    basis: str,
    score: InstanceScore,
    reply: JudgeReply | None,
    *,
    subset: str,
    usage: Usage,
    info: dict[str, Any],
) -> BasisResult:
    """The basis result of one judged trajectory: reward = F / 100."""
    criteria = []
    for dim, value in score.ratings.items():
        verdict = reply.verdicts.get(dim, Verdict()) if reply is not None else Verdict()
        word = WORD_OF_VALUE.get(value, "?") if value is not None else "unrated"
        criteria.append(
            CriterionVerdict(
                id=dim,
                description=f"{dim} rated 4 (较好 / good) or better",
                met=value is not None and value >= 4,
                evidence=f"{word} ({value}): {verdict.reasoning.strip()}".strip(),
            )
        )
    return BasisResult(
        basis=basis,
        reward=score.final / 100.0,
        score=score.final / 100.0,
        criteria=criteria,
        usage=usage,
        info={
            "subset": subset,
            "ratings": score.ratings,
            "missing_dimensions": [d for d, v in score.ratings.items() if v is None],
            "tool_calls": score.tool_calls,
            "tool_errors": score.tool_errors,
            "tool_error_rate": score.tool_error_rate,
            "w_tool": score.w_tool,
            "meta_score": score.meta,
            "w_meta": score.w_meta,
            "raw": score.raw,
            "penalized": score.penalized,
            "final": score.final,
            **info,
        },
    )


class TravelJudge:
    """An :class:`~lifebench.evaluation.Evaluator` grading with an LLM judge (basis ``judge``).

    Args:
        model: The judge model.
        meta_model: The meta-judge model (default: the judge model, as officially).
        language: Prompt language; None (default): the task's own language ("zh" for the
            official rows, as officially).
        tool_schemas: The tools shown to the judge (OpenAI function format), one list for every
            language or a list per language.
        meta_judge: Calibrate with the meta-judge (w_meta = m / 5).
        judge_context: Also show the row's time, intent and profile (not official).
        max_reasks: Re-asks per call when a reply cannot be read.
    """

    def __init__(
        self,
        model: ChatModel,
        *,
        meta_model: ChatModel | None = None,
        language: Language | None = None,
        tool_schemas: Mapping[str, Sequence[dict[str, Any]]] | Sequence[dict[str, Any]] = (),
        meta_judge: bool = True,
        judge_context: bool = False,
        max_reasks: int = 2,
    ) -> None:
        self._model = model
        self._meta_model = meta_model or model
        self.language = language
        self._tools: dict[str, list[dict[str, Any]]] = (
            {k: list(v) for k, v in tool_schemas.items()}
            if isinstance(tool_schemas, Mapping)
            else {"zh": list(tool_schemas), "en": list(tool_schemas)}
        )
        self.meta_judge = meta_judge
        self.judge_context = judge_context
        self.max_reasks = max_reasks

    @property
    def basis(self) -> str:
        """``judge``."""
        return "judge"

    async def evaluate(self, task: Any, simulation: Simulation) -> BasisResult:
        """Judge the trajectory as a task of its own subset."""
        return await self.grade(task, simulation, task_fields(task)["subset"] or "single")

    async def grade(self, task: Any, simulation: Simulation, subset: str) -> BasisResult:
        """Judge (and meta-judge) one trajectory; raises JudgeError when the judge fails."""
        dimensions = dimensions_of(subset)
        language = self.language or task_language(task)
        conversation = conversation_block(
            task, simulation, language, self._tools.get(language, []), self.judge_context
        )
        config = GenerateConfig(temperature=0.0, seed=simulation.seed)
        answer = await ask_json(
            self._model,
            jp.JUDGE_SYSTEM[language],
            jp.judge_prompt(dimensions, language, conversation),
            _judge_check(dimensions),
            config=config,
            max_reasks=self.max_reasks,
            parse=_xml_parser(dimensions),
            answer_format="XML",
            label="judge",
        )
        reply: JudgeReply = answer.value
        usage = answer.usage
        meta_info: dict[str, Any] = {"meta_judge": self.meta_judge}
        meta: int | None = None
        if self.meta_judge:
            scores, reasoning = _first_evaluation_text(reply, dimensions, language)
            try:
                meta_answer = await ask_json(
                    self._meta_model,
                    jp.META_SYSTEM[language],
                    jp.meta_prompt(language, conversation, scores, reasoning),
                    _meta_check,
                    config=config,
                    max_reasks=self.max_reasks,
                    parse=_meta_parse,
                    answer_format="XML",
                    label="meta-judge",
                )
            except JudgeError as exc:  # official: the factor silently becomes 1; we record it
                usage = usage + exc.usage
                meta_info.update(meta_failed=True, meta_error=str(exc))
            else:
                usage = usage + meta_answer.usage
                meta = meta_answer.value.value
                meta_info.update(
                    meta_failed=False,
                    meta_rating=meta_answer.value.rating,
                    meta_reasoning=meta_answer.value.reasoning,
                    meta_attempts=meta_answer.attempts,
                )
        score = score_instance(
            {d: reply.verdicts[d].value for d in dimensions},
            simulation.tool_calls,
            simulation.tool_errors,
            meta,
        )
        return judge_result(
            self.basis,
            score,
            reply,
            subset=subset,
            usage=usage,
            info={
                "judge_kind": JUDGE_KIND_LLM,
                "attempts": answer.attempts,
                "rating_text": {d: reply.verdicts[d].rating for d in dimensions},
                "judge_context": self.judge_context,
                "judge_language": language,
                **meta_info,
            },
        )
