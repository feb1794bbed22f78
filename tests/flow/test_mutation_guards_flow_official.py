"""The official FlowBench scoring rebuilt in official mode, on inputs the shared fixture does not
reach (issue 21: the survivors of flow/evaluation/official.py).

The session-level call comparison reads arguments with the released recursive pattern
``Action Input: (\\{(?:[^{}]*|(?R))*\\})``: a nested ``{`` is only taken when ``Action Input: ``
stands right before it. Every expected verdict below is what the released ``equal_actions``
(AlibabaResearch/DAMO-ConvAI 483554e, ``FlowBench/utils/eval_utils.py``) returned for the same
pair, run outside the repository.
"""

from __future__ import annotations

import pytest

from lifebench.flow.evaluation.official import (
    dialog_actions,
    dialog_text,
    equal_actions,
    official_f1,
    official_prediction,
    official_ratio,
    official_session_calls,
    official_turn,
    predicted_arguments_text,
)

RELEASED_VERDICTS = [
    # gold "{}" checks nothing; the predicted text after "{}" is no part of the arguments
    ("Action: a\nAction Input: {}", "Action: a\nAction Input: {} trailing }", True),
    # a gold input that never closes is read as "{}"
    ('Action: a\nAction Input: {"x": 1', "Action: a\nAction Input: {}", True),
    # the arguments end at their closing brace, whatever follows
    ('Action: a\nAction Input: {"a": 1}', 'Action: a\nAction Input: {"a": 1}, more', True),
    # a nested brace after "Action Input: " is taken: the text is no JSON, the pair unequal
    ('Action: a\nAction Input: {"x": Action Input: {"b": 1}}', 'Action: a\nAction Input: {"b": 1}', False),
    # a nested brace without it fails there: the next "Action Input: " is read instead
    ('Action: a\nAction Input: {"p": {"q": 1}}\nAction Input: {"b": 2}', 'Action: a\nAction Input: {"b": 2}', True),
    ('Action: a\nAction Input: {"p": {"q": 1}}\nAction Input: {"b": 2}', 'Action: a\nAction Input: {"b": 3}', False),
    # a block without a tool name has the name "": it never equals a named call
    ("Action Input: {}", "Action: XXXX\nAction Input: {}", False),
    ("Action Input: {}", "Action Input: {}", True),
]  # fmt: skip


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    RELEASED_VERDICTS,
    ids=["empty-gold", "unclosed-gold", "text-after-brace", "nested-input", "next-input", "next-differs", "no-name", "no-names"],
)  # fmt: skip
def test_the_session_call_comparison_gives_the_released_verdict(
    gold: str, pred: str, expected: bool
) -> None:
    assert equal_actions(gold, pred) is expected


def test_a_nested_input_gold_call_is_never_counted_right() -> None:
    gold = 'Action: a\nAction Input: {"x": Action Input: {"b": 1}}'
    counted = official_session_calls(gold, ['Action: a\nAction Input: {"b": 1}'])
    assert counted.as_info() == {"right": 0, "n_gold": 1, "n_pred": 1}


def test_the_dialogue_text_is_written_as_the_official_loop_writes_it() -> None:
    turns = [
        ("user", "book it"),
        ("assistant", 'Thought: t\nAction: a\nAction Input: {"x": 1}'),
        ("function", '{"ok": true}'),
        ("assistant", "Thought: done\nResponse: booked"),
    ]
    assert dialog_text(turns) == (
        "user:\nbook it\n\n"
        'assistant:\nThought: t\nAction: a\nAction Input: {"x": 1}\n\n'
        'function:\n{"ok": true}\n\n'
        "assistant:\nThought: done\nResponse: booked"
    )


def test_the_predicted_calls_of_a_dialogue_are_its_action_pairs() -> None:
    dialog = (
        "user:\nbook it\n\n"
        'assistant:\nThought: t\nAction: a\nAction Input: {"x": 1}\nAction: b\nAction Input: {}'
        "\n\nfunction:\nok"
    )
    assert dialog_actions(dialog) == [
        'Action: a\nAction Input: {"x": 1}',
        "Action: b\nAction Input: {}",
    ]


def _yes(key: str, gold: str, pred: str) -> bool:
    return True


def test_official_ratio_divides_by_one_and_f1_of_nothing_is_zero() -> None:
    assert official_ratio(1, 1) == 1.0 and official_ratio(0, 1) == 0.0
    assert official_f1(0.0, 0.0) == 0.0 and official_f1(-0.0, -0.0) == 0.0


def test_a_call_without_arguments_is_right_when_the_gold_ones_are_all_empty() -> None:
    # no "Action Input: " at all: the predicted arguments are {} and every gold value is empty
    counted = official_turn("Thought: t\nAction: a\nno input", "a", '{"k": ""}', _yes)
    assert (counted.gold_call, counted.pred_call, counted.correct_call) == (1, 1, 1)
    # an input that never balances is no argument text either
    unclosed = 'Thought: t\nAction: a\nAction Input: {"k": {"x": 1}'
    assert official_turn(unclosed, "a", '{"k": ""}', _yes).correct_call == 1


def test_nested_predicted_arguments_are_the_balanced_object_after_the_input_key() -> None:
    # braces in the Thought do not count; the text after the closing brace is no part of it
    pred = 'Thought: see {x}\nAction: a\nAction Input: {"a": {"b": 1}}.'
    assert predicted_arguments_text(pred) == '{"a": {"b": 1}}'
    counted = official_turn(pred, "a", '{"a": {"b": 1}}', _yes)
    assert (counted.pred_params, counted.correct_params, counted.correct_call) == (1, 1, 1)


@pytest.mark.parametrize(
    ("action", "arguments"),
    [("a", None), (None, '{"a": 1}'), ("", '{"a": 1}'), ("a", "")],
    ids=["no-input", "no-action", "empty-action", "empty-input"],
)
def test_a_gold_turn_without_a_full_call_is_no_gold_call(
    action: str | None, arguments: str | None
) -> None:
    counted = official_turn(
        'Thought: t\nAction: a\nAction Input: {"a": 1}', action, arguments, _yes
    )
    assert (counted.gold_call, counted.pred_call, counted.gold_params) == (0, 1, 0)


def test_on_a_reply_turn_an_action_line_alone_is_a_predicted_call() -> None:
    # "Action: a" followed by a newline, no "Action Input: " anywhere
    assert official_turn("Thought: t\nAction: a\nthen more", None, None, _yes).pred_call == 1
    # no newline after the Action line: no call
    assert official_turn("Thought: t\nAction: a", None, None, _yes).pred_call == 0


def test_a_reply_is_cleaned_only_when_it_holds_both_keys() -> None:
    text = "Thought: t\nAction: a\nResponse: hi"
    assert official_prediction(text) == text


def test_no_action_line_never_names_the_gold_tool() -> None:
    counted = official_turn("Thought: t\nResponse: hi", "XXXX", "{}", _yes)
    assert (counted.gold_call, counted.pred_call, counted.correct_call) == (1, 0, 0)
