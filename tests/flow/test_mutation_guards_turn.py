"""Mutation guards for ``flow/evaluation/turn.py``: the official-comparison counters of a turn
consult lifebench's value verdict under the *gold* tool's documentation.

The official matcher accepts a string argument outright when the gold value is contained in the
prediction (punctuation removed, letter case kept); otherwise it asks its fuzzy matcher, which
lifebench answers with its own verdict. That verdict depends on the tool whose parameter is
compared: an enumeration parameter needs the value itself, a free-text one accepts a prediction
containing the gold value. The tool looked up is always the gold one — also when the prediction
called another tool (the official parameter count ignores the tool name).
"""

from __future__ import annotations

from flow_synthetic import turn_samples

from lifebench.flow.evaluation.turn import TurnEvaluator
from lifebench.flow.tasks import TurnSample
from lifebench.messages import AssistantMessage, ToolCall
from lifebench.simulation import Simulation, TerminationReason

# payBill's "method" is an enumeration [card, cash]; lookupBill has no "method" parameter
_GOLD_INPUT = '{"bill_id": "B-77", "amount": 120, "method": "card"}'
# "card" is inside "Card payment" only once letter case is ignored: the official rule asks
_PREDICTED = '{"bill_id": "B-77", "amount": 120, "method": "Card payment"}'


def _sample() -> TurnSample:
    tool_turn = turn_samples()[1]
    thought = tool_turn.gold.thought.model_copy(update={"action_input": _GOLD_INPUT})
    return tool_turn.model_copy(
        update={"gold": tool_turn.gold.model_copy(update={"thought": thought})}
    )


def _static(message: AssistantMessage) -> Simulation:
    return Simulation(
        task_id="t", trial=0, seed=7, messages=[message], termination=TerminationReason.STATIC
    )


async def _official(tool: str) -> dict[str, int]:
    message = AssistantMessage(tool_calls=[ToolCall(id="1", name=tool, arguments=_PREDICTED)])
    result = await TurnEvaluator().evaluate(_sample(), _static(message))
    official: dict[str, int] = result.info["official"]
    return official


async def test_official_params_judge_an_enumeration_value_by_the_gold_tool() -> None:
    official = await _official("payBill")
    # the call check reads lower-cased JSON ("card" is in "card payment"); the parameter
    # count does not, and the enumeration's verdict refuses "Card payment" for "card"
    assert official == {
        "skipped": 0,
        "gold_call": 1,
        "pred_call": 1,
        "correct_call": 1,
        "gold_params": 3,
        "pred_params": 3,
        "correct_params": 2,
    }


async def test_official_params_of_another_tool_use_the_gold_tools_enumeration() -> None:
    # lookupBill has no enumeration "method": were its documentation consulted, "Card payment"
    # would contain "card" and count
    official = await _official("lookupBill")
    assert official["correct_call"] == 0 and official["pred_call"] == 1
    assert official["gold_params"] == 3 and official["correct_params"] == 2


async def test_official_params_take_lifebenchs_verdict_on_both_values() -> None:
    # "card" is not inside "Card" with letter case kept: the official rule asks, and lifebench's
    # verdict on the pair (gold "card", predicted "Card") is yes
    message = AssistantMessage(
        tool_calls=[
            ToolCall(
                id="1",
                name="payBill",
                arguments='{"bill_id": "B-77", "amount": 120, "method": "Card"}',
            )
        ]
    )
    result = await TurnEvaluator().evaluate(_sample(), _static(message))
    assert result.info["official"]["correct_params"] == 3
    assert result.info["official"]["correct_call"] == 1
