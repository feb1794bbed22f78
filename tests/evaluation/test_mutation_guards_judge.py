"""Mutation guards for ``evaluation/_judge.py`` (issue 21): how a judgement's calls are labelled
in the recorded transcript, and what a failed judgement reports."""

from __future__ import annotations

import pytest

from lifebench.errors import ModelError
from lifebench.evaluation import JudgeError, ShapeError, ask_json, failed_basis
from lifebench.evaluation._judge import GRADING_ERROR
from lifebench.messages import AssistantMessage, Usage
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


@pytest.mark.parametrize(("length", "cut"), [(159, False), (160, False), (161, True)])
async def test_a_last_reply_is_cut_only_beyond_160_characters(length: int, cut: bool) -> None:
    reply = "y" * length
    model = ScriptedModel([reply])
    with pytest.raises(JudgeError) as info:
        await ask_json(model, "s", "p", _list, max_reasks=0)
    shown = f"{'y' * 160}…" if cut else reply
    assert f"(its last reply: {shown!r}): " in str(info.value)


async def test_a_call_failing_after_a_reply_keeps_that_reply() -> None:
    # the first reply is unusable; the re-ask's call fails (the scripted model has no more)
    model = ScriptedModel([AssistantMessage(content="nope", usage=Usage(prompt_tokens=4))])
    with pytest.raises(JudgeError, match=r"^judge call failed: ") as info:
        await ask_json(model, "s", "p", _list)
    assert info.value.replies == ("nope",)
    assert info.value.usage.prompt_tokens == 4


def test_info_added_to_a_failure_keeps_its_cause() -> None:
    cause = ModelError("provider down")
    error = JudgeError("bad", Usage.zero(), replies=["a"])
    error.__cause__ = cause
    added = error.with_info(windows=[1])
    assert added.__cause__ is cause
    assert (str(added), added.replies, added.info) == ("bad", ("a",), {"windows": [1]})


def test_a_failed_judgement_is_a_failed_basis_with_reward_0_and_what_the_judge_spent() -> None:
    spent = Usage(prompt_tokens=12, completion_tokens=3, cost=0.5, calls=2)
    error = JudgeError("judge gave up", spent, replies=["no", "still no"], info={"windows": 2})
    result = failed_basis("rubric", error)
    assert (result.basis, result.reward, result.score) == ("rubric", 0.0, 0.0)
    assert result.usage == spent
    assert result.note == "failed: judge gave up"
    assert result.info == {
        "judge_replies": ["no", "still no"],
        "windows": 2,
        GRADING_ERROR: "judge gave up",
    }
    assert result.gradable  # a failure, not an ungradable task: the evaluation's error says so


def test_any_other_grading_failure_is_a_failed_basis_with_no_judge_usage() -> None:
    result = failed_basis("state", KeyError("order"))
    assert (result.basis, result.reward, result.score) == ("state", 0.0, 0.0)
    assert result.usage == Usage.zero()
    assert result.note == "failed: 'order'"
    assert result.info == {GRADING_ERROR: "'order'"}
