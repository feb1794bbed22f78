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
    official_session_calls,
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
