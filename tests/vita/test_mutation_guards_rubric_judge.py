"""Guards for the rubric judge's last unguarded rules (vita/grading/rubric.py): what a re-ask
tells the judge about the rubrics its answer skipped, what a result without rubrics or of a
gated episode records (the official reading depends on it) and how the no-rubric variants
label their judge calls."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lifebench.evaluation import ShapeError
from lifebench.messages import AssistantMessage, UserMessage
from lifebench.models import ScriptedModel
from lifebench.models._record import CallLog, grading, recording
from lifebench.simulation import Simulation, TerminationReason
from lifebench.vita.grading.official import rubric_reading
from lifebench.vita.grading.rubric import RubricJudge, _rubric_updates
from lifebench.vita.task import VitaTask

TAIL = (
    "; give one object for each rubric key, keeping the current status of those this window "
    "does not change"
)


def _task(state: list[str], overall: list[str], expected: bool = True) -> VitaTask:
    criteria: dict[str, Any] = {"overall_rubrics": overall}
    if expected:
        criteria["expected_states"] = [{"required_orders": [], "state_rubrics": state}]
    return VitaTask.model_validate(
        {
            "id": "T1",
            "environment": {"time": "2025-06-21 11:20:00", "user_id": "U1"},
            "instructions": "Order mild noodles.",
            "evaluation_criteria": criteria,
        }
    )


def _sim(n: int, termination: TerminationReason = TerminationReason.USER_STOP) -> Simulation:
    messages: list[Any] = [
        UserMessage(content=f"u{i}") if i % 2 == 0 else AssistantMessage(content=f"a{i}")
        for i in range(n)
    ]
    return Simulation(task_id="T1", trial=0, seed=7, messages=messages, termination=termination)


@pytest.mark.parametrize(
    ("total", "answered", "shown"),
    [
        # nine missing: the first eight by number (rubric_10 after rubric_9), then an ellipsis
        (11, 2, "rubric_2, rubric_3, rubric_4, rubric_5, rubric_6, rubric_7, rubric_8, rubric_9 …"),
        # eight missing: all of them, no ellipsis
        (10, 2, "rubric_2, rubric_3, rubric_4, rubric_5, rubric_6, rubric_7, rubric_8, rubric_9"),
        # ten missing, numbered past nine
        (12, 2, "rubric_2, rubric_3, rubric_4, rubric_5, rubric_6, rubric_7, rubric_8, rubric_9 …"),
    ],
)
def test_a_partial_answer_names_the_missing_rubrics_in_number_order(
    total: int, answered: int, shown: str
) -> None:
    keys = frozenset(f"rubric_{i}" for i in range(total))
    answer = [{"rubric_key": f"rubric_{i}", "meetExpectation": True} for i in range(answered)]
    with pytest.raises(ShapeError) as info:
        _rubric_updates(keys)(answer)
    missing = total - answered
    assert str(info.value) == (
        f"the answer does not address every rubric: {missing} of {total} missing ({shown}){TAIL}"
    )


async def test_the_reask_carries_the_missing_rubrics_to_the_judge() -> None:
    overall = [f"R{i}" for i in range(11)]
    partial = json.dumps([{"rubric_key": "rubric_0", "meetExpectation": True}])
    full = json.dumps([{"rubric_key": f"rubric_{i}", "meetExpectation": True} for i in range(11)])
    model = ScriptedModel([partial, full])
    result = await RubricJudge(model, variant="full", dedup="exact").evaluate(
        _task([], overall), _sim(4)
    )
    assert result.reward == 1.0
    reask = model.calls[1].messages[-1].content
    assert (
        "10 of 11 missing (rubric_1, rubric_2, rubric_3, rubric_4, rubric_5, rubric_6, rubric_7, "
        f"rubric_8 …){TAIL}" in reask
    )


async def test_a_task_without_rubric_text_records_how_the_official_judge_treats_it() -> None:
    judge = RubricJudge(ScriptedModel([]))
    # expected states without any rubric text: the official judge divides by zero, the task is
    # dropped from its average (counted neither way, but read)
    dropped = await judge.evaluate(_task([], [], expected=True), _sim(4))
    assert (dropped.gradable, dropped.info) == (
        False,
        {"variant": "sliding", "official": "dropped"},
    )
    reading = rubric_reading(dropped.info, failed=False)
    assert (reading.theirs, reading.replayed, reading.classes) == (None, True, [])
    # no criteria at all: officially 1.0
    empty = await judge.evaluate(_task([], [], expected=False), _sim(4))
    assert empty.info == {"variant": "sliding", "official": "score_1"}
    assert rubric_reading(empty.info, failed=False).theirs == 1.0


async def test_a_gated_episode_records_its_variant_and_ending() -> None:
    judge = RubricJudge(ScriptedModel([]), variant="full")
    result = await judge.evaluate(_task(["A"], []), _sim(4, TerminationReason.MAX_STEPS))
    assert result.info == {"variant": "full", "gated": TerminationReason.MAX_STEPS.value}
    assert result.reward == 0.0 and result.gradable
    assert rubric_reading(result.info, failed=False).theirs == 0.0


@pytest.mark.parametrize("variant", ["sliding-norubric", "full-norubric"])
async def test_the_no_rubric_variants_label_each_window_call(variant: str) -> None:
    reply = json.dumps({"justification": "ok", "meetExpectation": True, "memory": ""})
    model = ScriptedModel([reply], repeat_last=True)
    judge = RubricJudge(model, variant=variant, window=2, overlap=0)  # type: ignore[arg-type]
    log = CallLog()
    with recording(log), grading(judge.basis):
        result = await judge.evaluate(_task(["A"], []), _sim(6))
    n = 3 if variant == "sliding-norubric" else 1
    assert result.info["windows"] == n
    assert [c.label for c in log.records()] == [f"window {k}/{n}" for k in range(1, n + 1)]
