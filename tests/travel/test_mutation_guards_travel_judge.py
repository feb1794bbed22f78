"""Mutation guards for lifebench.travel.grading.judge (issue 21): what a failed judge keeps for
the official reading, the meta-judge's stored replies, and the labels a transcript shows."""

from __future__ import annotations

from typing import Any

import pytest
from travel_fakes import Task, judge_xml, meta_xml, simulation

from lifebench.evaluation import JudgeError
from lifebench.messages import AssistantMessage
from lifebench.models import CallLog, ScriptedModel, recording
from lifebench.models._record import current_context
from lifebench.travel.grading.judge import TravelJudge

GARBAGE = "我觉得评测还可以。"


class _Labels:
    """A scripted judge that notes the recording label of every call it answers."""

    name = "labels"

    def __init__(self, script: list[str]) -> None:
        self._model = ScriptedModel(script)
        self.labels: list[str | None] = []

    async def generate(self, *args: Any, **kwargs: Any) -> AssistantMessage:
        ctx = current_context()
        self.labels.append(ctx.label if ctx is not None else "no log")
        return await self._model.generate(*args, **kwargs)


@pytest.mark.parametrize("subset", ["single", "multi"])
@pytest.mark.parametrize("meta_judge", [True, False])
async def test_a_failed_judge_keeps_what_the_official_reading_needs(
    subset: str, meta_judge: bool
) -> None:
    judge = TravelJudge(
        ScriptedModel(["no", "still no"]),  # type: ignore[arg-type]
        meta_judge=meta_judge,
        max_reasks=1,
    )
    with pytest.raises(JudgeError) as caught:
        await judge.grade(Task(subset=subset), simulation(), subset)
    assert caught.value.info == {
        "subset": subset,
        "judge_kind": "llm",
        "judge_replies": ["no", "still no"],
        "meta_judge": meta_judge,
    }


async def test_a_failed_meta_judge_keeps_its_replies() -> None:
    judge = TravelJudge(
        ScriptedModel([judge_xml("优秀", "优秀", "一般"), GARBAGE, "still not"]),  # type: ignore[arg-type]
        max_reasks=1,
    )
    result = await judge.evaluate(Task(), simulation())
    assert result.info["meta_failed"] is True
    assert result.info["meta_replies"] == [GARBAGE, "still not"]


async def test_every_judge_call_is_labelled_for_the_transcript() -> None:
    model = _Labels([GARBAGE, judge_xml("较好", "较好", "较好"), "no", meta_xml("较好")])
    judge = TravelJudge(model, max_reasks=1)  # type: ignore[arg-type]
    with recording(CallLog()):
        result = await judge.evaluate(Task(), simulation())
    assert result.info["meta_score"] == 4
    assert model.labels == ["judge", "judge › re-ask 1", "meta-judge", "meta-judge › re-ask 1"]
