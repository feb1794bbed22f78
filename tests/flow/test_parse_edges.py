"""ReAct replies that end where a value should start, keys side by side, and nested JSON."""

from __future__ import annotations

import pytest

from lifebench.flow.agents.parse import (
    ParsedReply,
    parse_arguments,
    parse_react,
    scan_json,
    thought_fields,
)


@pytest.mark.parametrize(
    "text",
    [
        "Thought: t\nAction: pay\nAction Input:",
        "Thought: t\nAction: pay\nAction Input:   ",
        "Thought: t\nAction: pay\nAction Input:\n",
        "Thought: t\nAction: pay\nAction Input: ```",
        "Thought: t\nAction: pay\nAction Input: `",
    ],
    ids=["at-colon", "blanks", "newline", "open-fence", "backtick"],
)
def test_a_reply_ending_at_action_input_is_an_empty_call(text: str) -> None:
    got = parse_react(text)
    assert got.action == "pay" and got.thought == "t" and got.response is None
    assert got.arguments == {} or got.arguments is None
    if got.arguments == {}:
        assert got.arguments_text == "{}" and "empty Action Input" in got.notes


def test_a_reply_that_is_only_a_key() -> None:
    assert parse_react("Action Input:") == ParsedReply(
        notes=("no Thought", "Action Input without Action ignored", "neither Action nor Response")
    )
    assert parse_react("Response:") == ParsedReply(
        notes=("no Thought", "neither Action nor Response")
    )
    assert parse_react("   ") == ParsedReply(notes=("empty reply",))


def test_keys_written_inline_in_their_canonical_case() -> None:
    got = parse_react('Thought: pay now. Action: pay Action Input: {"amount": 3}')
    assert (got.thought, got.action, got.arguments) == ("pay now.", "pay", {"amount": 3})
    prose = parse_react("Thought: the next action: wait\nResponse: ok")
    assert prose.thought == "the next action: wait" and prose.response == "ok"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ('[1, {"a": [2, "]"]}] x', ('[1, {"a": [2, "]"]}]', 20)),
        ('{"a": {"b": [1, 2]}, "c": 3}', ('{"a": {"b": [1, 2]}, "c": 3}', 28)),
        ("{[}]", None),
        ("[{]", None),
        ("{'a': \"'\"}", ("{'a': \"'\"}", 10)),
        ("{\"a\":'x}'}", ("{\"a\":'x}'}", 10)),
        ("[ 'x]' ]", ("[ 'x]' ]", 8)),
        ("{\t'k':1}", ("{\t'k':1}", 8)),
    ],
    ids=["list-first", "nested", "crossed", "unclosed-list", "quote-in-string",
         "single-after-colon", "single-after-bracket", "single-after-tab"],
)  # fmt: skip
def test_scan_json_nesting_and_quotes(text: str, want: tuple[str, int] | None) -> None:
    assert scan_json(text) == want


@pytest.mark.parametrize(
    ("text", "arguments", "notes"),
    [
        ("NULL", {}, ("empty Action Input",)),
        ("n/a", {}, ("empty Action Input",)),
        ("null", {}, ("empty Action Input",)),
        ('["a"]', None, ("Action Input is not a JSON object",)),
        ("{'a': 1,}", {"a": 1}, ("Action Input JSON repaired",)),
        ('{"a": 1} trailing', {"a": 1}, ("text after the Action Input JSON ignored",)),
        ("plain words", None, ("Action Input is not a JSON object",)),
    ],
    ids=["null-upper", "n-a", "null", "a-list", "repaired", "trailing", "words"],
)
def test_parse_arguments(text: str, arguments: dict | None, notes: tuple[str, ...]) -> None:
    got, _, got_notes = parse_arguments(text)
    assert got == arguments and got_notes == notes


def test_functions_prefix_in_any_case_and_quoted_names() -> None:
    got = parse_react("Action: `Functions.pay`\nAction Input: {}")
    assert got.action == "pay" and "'functions.' prefix removed" in got.notes
    assert parse_react('Action: "pay_bill"\nAction Input: {}').action == "pay_bill"
    assert parse_react("Action: ***\nAction Input: {}").action is None


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("X{}", ("{}", 3)),
        ("{X}", ("{X}", 3)),
        ('{"": 1}', ('{"": 1}', 7)),
        ('"{" {}', None),
        ("{X 'a}'}", ("{X 'a}", 6)),
        ("{X'}'}", ("{X'}", 4)),
    ],
    ids=["lead-letter", "letter-inside", "empty-key", "quote-before-start", "letter-before-quote",
         "letter-then-quote"],
)  # fmt: skip
def test_scan_json_letters_are_not_brackets_blanks_or_openers(
    text: str, want: tuple[str, int] | None
) -> None:
    assert scan_json(text) == want


def test_values_keep_their_own_letters() -> None:
    got = parse_react("Thought: X marks it X\nResponse: BOX")
    assert (got.thought, got.response) == ("X marks it X", "BOX")
    assert parse_react("Action: XpayX\nAction Input: {}").action == "XpayX"
    assert thought_fields("current_node=AX, intent=X").current_node == "AX"
    assert thought_fields("current_node=AX, intent=X").intent == "X"


def test_text_around_braces_is_not_an_empty_input() -> None:
    assert parse_arguments("XX{}XX") == ({}, "{}", ("text after the Action Input JSON ignored",))


def test_repaired_arguments_keep_non_ascii_text() -> None:
    assert parse_arguments("{'城市': '北京',}") == (
        {"城市": "北京"},
        '{"城市": "北京"}',
        ("Action Input JSON repaired",),
    )
