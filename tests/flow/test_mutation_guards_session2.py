"""Mutation guards for ``flow/evaluation/session.py`` (second set): when the fuzzy judge gives
no usable answer while the session's tool calls are matched, the failure carries what the
report groups the session by, how it ended, and the official count (known without a judge)."""

from __future__ import annotations

import pytest
from flow_synthetic import session_task

from lifebench.evaluation import JudgeError
from lifebench.flow.evaluation.arguments import FuzzyJudge
from lifebench.flow.evaluation.session import SessionToolsEvaluator
from lifebench.messages import AssistantMessage, ToolCall, Usage
from lifebench.models import ScriptedModel
from lifebench.simulation import Simulation, TerminationReason


async def test_a_failed_judge_carries_the_session_and_the_official_count() -> None:
    # "bill 77" for "B-77" is unsure by the rules: the judge is asked and never answers usably
    call = ToolCall(id="1", name="payBill", arguments='{"bill_id": "bill 77", "amount": 120}')
    simulation = Simulation(
        task_id="s",
        trial=0,
        seed=3,
        messages=[AssistantMessage(tool_calls=[call])],
        termination=TerminationReason.USER_STOP,
    )
    model = ScriptedModel(
        [AssistantMessage(content=t, usage=Usage(prompt_tokens=1)) for t in ("a", "b", "c")]
    )
    with pytest.raises(JudgeError) as info:
        await SessionToolsEvaluator(FuzzyJudge(model)).evaluate(session_task(), simulation)
    extra = info.value.info
    assert extra["domain"] == "Customer Service" and extra["role"] == "bill_clerk"
    assert extra["termination"] == "user_stop"
    assert extra["agent_turns"] == 1 and extra["capped"] is False
    # the official count: the one gold call; "bill 77" is not "B-77" for the official check
    assert extra["official"] == {"right": 0, "n_gold": 1, "n_pred": 1}
    assert len(model.calls) == 3


async def test_the_failure_classifier_reads_the_workflow_of_the_task_it_classifies() -> None:
    from lifebench.evaluation import BasisResult
    from lifebench.flow.evaluation.session import FailureClassifier

    model = ScriptedModel([AssistantMessage(content='{"category": 2, "explanation": "x"}')])
    task = session_task()
    simulation = Simulation(
        task_id=task.id, trial=0, seed=1, messages=[], termination=TerminationReason.USER_STOP
    )
    failed = BasisResult(basis="completion", reward=0.0, score=0.0, note="not made: payBill")
    await FailureClassifier(model, lambda t: f"WORKFLOW OF {t.id}").classify(
        task, simulation, failed
    )
    assert f"WORKFLOW OF {task.id}" in model.calls[0].messages[-1].content
