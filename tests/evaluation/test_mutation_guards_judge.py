"""Mutation guards for ``evaluation/_judge.py`` (issue 21): how a judgement's calls are labelled
in the recorded transcript, and what a failed judgement reports."""

from __future__ import annotations

import pytest

from lifebench.evaluation import JudgeError, ShapeError, ask_json
from lifebench.models import CallLog, ScriptedModel, for_role, recording
from lifebench.models._record import grading


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise ShapeError("expected a list")
    return value


async def _labels(label: str | None, replies: list[str]) -> list[str | None]:
    judge = for_role(ScriptedModel(replies, name="judge"), "judge")
    log = CallLog()
    with recording(log), grading("rubric"):
        await ask_json(judge, "SYS", "PROMPT", _list, label=label)
    return [c.label for c in log.records()]


async def test_re_asks_are_labelled_under_the_judgements_label() -> None:
    labels = await _labels("meta-judge", ["no", "still no", "[1]"])
    assert labels == ["meta-judge", "meta-judge › re-ask 1", "meta-judge › re-ask 2"]


async def test_re_asks_of_an_unlabelled_judgement_are_labelled_alone() -> None:
    assert await _labels(None, ["no", "[1]"]) == [None, "re-ask 1"]
    assert await _labels(None, ["[1]"]) == [None]


async def test_a_failed_judgement_quotes_its_last_reply_whitespace_collapsed() -> None:
    model = ScriptedModel(["first", "  a\n\n  b\tc  "], name="judge")
    with pytest.raises(JudgeError) as info:
        await ask_json(model, "SYS", "PROMPT", _list, max_reasks=1)
    assert str(info.value) == (
        "judge gave no usable answer after 2 attempts (its last reply: 'a b c'): the reply "
        "contains no JSON"
    )
    assert info.value.replies == ("first", "  a\n\n  b\tc  ")
