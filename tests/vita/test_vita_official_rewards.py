"""lifebench's official-mode VitaBench rewards against the official code's, on crafted answers.

``tests/official/vitabench_rewards.json`` holds our inputs (tasks' rubrics, trajectory lengths,
terminations, the judge's first answer to every window) and the reward the official evaluator
gave each, or the exception it raised (see ``tests/official/README.md``). lifebench's replay of
the stored answers must give the same reward, drop what the official code crashes on, and give
the same mean.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from lifebench.evaluation import GRADING_ERROR, BasisResult, Evaluation, JudgeError
from lifebench.evaluation._windows import sliding_windows
from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.models import ScriptedModel
from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.grading.official import (
    OFFICIAL_ID,
    OfficialCrash,
    official_comparison,
    official_rubrics,
    rubric_reading,
)
from lifebench.vita.grading.rubric import RubricJudge
from lifebench.vita.task import VitaTask


@dataclass(frozen=True)
class _Rec:
    task_id: str
    evaluation: Evaluation
    status: str = "done"
    trial: int = 0


FIXTURE = Path(__file__).parents[1] / "official" / "vitabench_rewards.json"
DATA = json.loads(FIXTURE.read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = DATA["cases"]


def _task(case: dict[str, Any]) -> VitaTask:
    data: dict[str, Any] = {
        "id": case["id"],
        "environment": {"time": "2025-06-21 11:20:00", "user_id": "U1"},
        "instructions": "Order noodles.",
    }
    if case["criteria"] is not None:
        data["evaluation_criteria"] = case["criteria"]
    return VitaTask.model_validate(data)


def _simulation(case: dict[str, Any]) -> Simulation:
    messages: list[Message] = [
        UserMessage(content=f"u{k}") if k % 2 == 0 else AssistantMessage(content=f"a{k}")
        for k in range(case["messages"])
    ]
    return Simulation(
        task_id=case["id"],
        trial=0,
        seed=1,
        messages=messages,
        termination=TerminationReason(case["termination"]),
    )


def _judge(case: dict[str, Any]) -> ScriptedModel:
    """A deterministic judge: window k always gets the official judge's answer to window k."""

    def answer(messages: Sequence[Message], tools: Any) -> str:
        found = re.search(r"window (\d+) of \d+", messages[0].content)
        k = int(found.group(1)) if found else 1
        answers = case["answers"] or ["[]"]
        return str(answers[min(k, len(answers)) - 1])

    return ScriptedModel([answer], repeat_last=True)


async def _graded(case: dict[str, Any]) -> BasisResult:
    judge = RubricJudge(_judge(case), variant=case["variant"], dedup="exact")
    try:
        return await judge.evaluate(_task(case), _simulation(case))
    except JudgeError as exc:
        info = {**exc.info, GRADING_ERROR: str(exc)}
        return BasisResult(basis=judge.basis, reward=0.0, score=0.0, info=info)


@pytest.fixture(scope="module")
def graded() -> list[BasisResult]:
    async def build() -> list[BasisResult]:
        return [await _graded(c) for c in CASES]

    return asyncio.run(build())


def test_the_fixture_has_at_least_forty_inputs() -> None:
    assert len(CASES) >= 40


JUDGED = [c for c in CASES if c["rubric_keys"] and c["termination"] == "user_stop"]


@pytest.mark.parametrize("case", JUDGED, ids=lambda c: f"{c['id']}-{c['kind']}")
def test_the_replay_of_the_first_answers_gives_the_official_reward(case: dict[str, Any]) -> None:
    expected = case["official"]["reward"]
    try:
        outcome = official_rubrics(case["rubric_keys"], case["answers"], OFFICIAL_ID)
    except OfficialCrash:
        assert expected is None, case["official"]
    else:
        assert outcome.reward == expected
        assert outcome.met / outcome.total == case["official"]["rubric_score"]


def test_what_is_decided_before_any_answer(graded: list[BasisResult]) -> None:
    # a capped simulation scores 0; no criteria scores 1; expected states without rubric
    # text crash the official judge (left out)
    decided = [(c, r) for c, r in zip(CASES, graded, strict=True) if c not in JUDGED]
    assert len(decided) == 5
    for case, result in decided:
        assert rubric_reading(result.info, False).theirs == case["official"]["reward"]


def test_the_windows_are_the_official_ones() -> None:
    for case in CASES:
        if case["variant"] == "sliding":
            assert len(sliding_windows(case["messages"], 10, 2)) == case["windows"], case["id"]


def test_each_stored_result_reads_as_officially(graded: list[BasisResult]) -> None:
    replayed = 0
    for case, result in zip(CASES, graded, strict=True):
        reading = rubric_reading(result.info, GRADING_ERROR in result.info)
        if "official_replay_incomplete" in reading.classes:
            continue  # lifebench stopped at an earlier window: nothing to replay from
        replayed += 1
        if case["kind"] == "rubric_key_only":
            # lifebench's prompt asks for rubric_key: official mode reads it as rubric_idx
            assert (reading.theirs, case["official"]["reward"]) == (1.0, 0.0)
            continue
        assert reading.theirs == case["official"]["reward"], (case["id"], case["kind"])
    assert replayed == 39  # the other 9: an unreadable answer before the last window


def test_the_official_mean_reward(graded: list[BasisResult]) -> None:
    records = []
    for case, result in zip(CASES, graded, strict=True):
        error = result.info.get(GRADING_ERROR)
        evaluation = Evaluation(  # one basis name for both variants: one run's judge
            reward=result.reward,
            basis="rubric",
            by_basis={"rubric": result},
            error=error,
            gradable=result.gradable,
        )
        records.append(_Rec(case["id"], evaluation))
    comparison = official_comparison(records, {"suite": "vita"})
    (pair,) = comparison.pairs
    complete = [
        c
        for c, r in zip(CASES, graded, strict=True)
        if "official_replay_incomplete"
        not in rubric_reading(r.info, GRADING_ERROR in r.info).classes
    ]
    rewards = [
        1.0 if c["kind"] == "rubric_key_only" else c["official"]["reward"]
        for c in complete
        if c["official"]["reward"] is not None
    ]
    assert pair.official == sum(rewards) / len(rewards)
    # the official mean of every case, from the replay of the stored first answers
    assert (
        sum(c["official"]["reward"] for c in CASES if c["official"]["reward"] is not None)
        / DATA["scored"]
        == DATA["avg_reward"]
    )
    assert comparison.classes["no_rubrics_scored_one"] == 2
    assert comparison.classes["official_judge_crashes_dropped"] == sum(
        1 for c in complete if c["official"]["crash"] and c["rubric_keys"]
    )


def test_an_imported_run_compares_with_the_official_verdicts() -> None:
    def rec(task: str, official: float, reward: float, error: str | None = None) -> _Rec:
        imported = BasisResult(basis="official", reward=official, score=official)
        ours = BasisResult(basis="rubric", reward=reward, score=reward)
        evaluation = Evaluation(
            reward=reward,
            basis="rubric",
            by_basis={"official": imported, "rubric": ours},
            error=error,
        )
        return _Rec(task, evaluation)

    comparison = official_comparison(
        [rec("a", 1.0, 1.0), rec("b", 1.0, 0.0), rec("c", 0.0, 0.0, error="x")], {}
    )
    (pair,) = comparison.pairs
    assert (pair.official, pair.lifebench) == (2 / 3, 0.5)
    assert comparison.classes == {"regraded_by_lifebench": 1}
    assert "imported verdicts" in pair.label
    # a run with no rubric judgement has no official number, and says why
    plain = Evaluation(
        reward=1.0,
        basis="state",
        by_basis={"state": BasisResult(basis="state", reward=1.0, score=1.0)},
    )
    empty = official_comparison([_Rec("a", plain)], {})
    assert not empty.available and "no rubric judgement" in empty.reason
