"""The ReAct parser: a table of messy model outputs, thought fields, and every assistant turn
of the shared FlowSwitch samples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lifebench.flow.agents.parse import parse_arguments, parse_react, scan_json, thought_fields

_CALL: list[tuple[str, str, str, dict[str, Any]]] = [
    ("canonical", 'Thought: t\nAction: search\nAction Input: {"a": 1}', "search", {"a": 1}),
    (
        "no trailing newline after Action",
        'Thought: t\nAction: search\nAction Input: {"a": 1}',
        "search",
        {"a": 1},
    ),
    (
        "missing newlines",
        'Thought: t. Action: search Action Input: {"a": "x"}',
        "search",
        {"a": "x"},
    ),
    (
        "pretty-printed nested JSON",
        'Thought: t\nAction: book\nAction Input: {\n  "guest": {"name": "Ann", "tags": ["a", "b"]},\n  "n": 2\n}',
        "book",
        {"guest": {"name": "Ann", "tags": ["a", "b"]}, "n": 2},
    ),
    (
        "brace inside a string",
        'Action: note\nAction Input: {"text": "a } b { c"}',
        "note",
        {"text": "a } b { c"},
    ),
    (
        "key words inside argument strings",
        'Thought: t\nAction: note\nAction Input: {"text": "Response: fine\\nAction: no"}',
        "note",
        {"text": "Response: fine\nAction: no"},
    ),
    ("trailing prose", 'Action: s\nAction Input: {"a": 1} and then I will wait.', "s", {"a": 1}),
    ("fenced reply", '```\nThought: t\nAction: s\nAction Input: {"a": 1}\n```', "s", {"a": 1}),
    ("fenced JSON", 'Thought: t\nAction: s\nAction Input:\n```json\n{"a": 1}\n```', "s", {"a": 1}),
    ("markdown keys", '**Thought:** t\n**Action:** s\n**Action Input:** {"a": 1}', "s", {"a": 1}),
    ("heading keys", '### Thought: t\n### Action: s\n### Action Input: {"a": 1}', "s", {"a": 1}),
    ("lower-case keys", 'thought: t\naction: s\naction input: {"a": 1}', "s", {"a": 1}),
    ("underscore key", 'Thought: t\nAction: s\nAction_Input: {"a": 1}', "s", {"a": 1}),
    ("full-width colon", 'Thought： t\nAction： s\nAction Input： {"a": 1}', "s", {"a": 1}),
    ("functions. prefix", 'Action: functions.s\nAction Input: {"a": 1}', "s", {"a": 1}),
    ("backticked name", 'Action: `s`\nAction Input: {"a": 1}', "s", {"a": 1}),
    ("single quotes and trailing comma", "Action: s\nAction Input: {'a': 'b',}", "s", {"a": "b"}),
    ("no input", "Thought: t\nAction: ping", "ping", {}),
    ("empty input", "Thought: t\nAction: ping\nAction Input: {}", "ping", {}),
    (
        "two actions: first counts",
        'Action: a\nAction Input: {"x": 1}\nAction: b\nAction Input: {"y": 2}',
        "a",
        {"x": 1},
    ),
    (
        "response next to action dropped",
        'Thought: t\nAction: s\nAction Input: {"a": 1}\nResponse: done',
        "s",
        {"a": 1},
    ),
    (
        "prose before the keys",
        'Sure.\nThought: t\nAction: s\nAction Input: {"a": 1}',
        "s",
        {"a": 1},
    ),
    (
        "unicode values",
        'Action: s\nAction Input: {"城市": "北京", "n": 3}',
        "s",
        {"城市": "北京", "n": 3},
    ),
]


@pytest.mark.parametrize(("case", "text", "name", "args"), _CALL, ids=[c[0] for c in _CALL])
def test_tool_calls_are_recovered(case: str, text: str, name: str, args: dict[str, Any]) -> None:
    parsed = parse_react(text)
    assert parsed.action == name, case
    assert parsed.arguments == args, case
    assert json.loads(parsed.arguments_text) == args
    assert parsed.response is None and parsed.usable


_REPLY: list[tuple[str, str, str]] = [
    ("canonical", "Thought: t\nResponse: Hello there.", "Hello there."),
    (
        "multi-line response",
        "Thought: t\nResponse: Line one.\n- item: a\n- item: b",
        "Line one.\n- item: a\n- item: b",
    ),
    ("response only", "Response: Hi!", "Hi!"),
    ("no keys at all", "Happy to help with that.", "Happy to help with that."),
    ("same line", "Thought: the user greets. Response: Hello!", "Hello!"),
    ("bold keys", "**Thought**: t\n**Response**: Hello", "Hello"),
    ("final answer alias", "Thought: t\nFinal Answer: Done.", "Done."),
    (
        "lower-case colon prose kept",
        "Response: Departure: 9:00, from: JFK",
        "Departure: 9:00, from: JFK",
    ),
]


@pytest.mark.parametrize(("case", "text", "said"), _REPLY, ids=[c[0] for c in _REPLY])
def test_replies_are_recovered(case: str, text: str, said: str) -> None:
    parsed = parse_react(text)
    assert parsed.action is None, case
    assert parsed.response == said, case


@pytest.mark.parametrize(
    "text", ["", "   ", "Thought: I am thinking only.", "Thought: t\nResponse:   "]
)
def test_unusable_replies_are_flagged(text: str) -> None:
    parsed = parse_react(text)
    assert not parsed.usable
    assert parsed.notes


def test_bad_json_is_kept_verbatim_for_a_tool_error() -> None:
    parsed = parse_react("Action: s\nAction Input: city=Paris")
    assert parsed.action == "s" and parsed.arguments is None
    assert parsed.arguments_text == "city=Paris"
    assert "not a JSON object" in " ".join(parsed.notes)


def test_unbalanced_json_is_not_an_object() -> None:
    args, text, notes = parse_arguments('{"a": [1, 2}')
    assert args is None and text == '{"a": [1, 2}'  # kept verbatim for the tool error
    assert notes == ("Action Input is not a JSON object",)


def test_scan_json_respects_strings_and_escapes() -> None:
    assert scan_json('x {"a": "\\"}"} tail') == ('{"a": "\\"}"}', 14)
    assert scan_json("no json here") is None


def test_tolerated_deviations_are_noted() -> None:
    assert parse_react('Action: functions.s\nAction Input: {"a": 1}').notes
    assert parse_react("Happy to help.").notes == ("no Thought/Action/Response keys",)
    assert parse_react('Thought: t\nAction: s\nAction Input: {"a": 1}').notes == ()


def test_thought_fields() -> None:
    thought = (
        "Previous node last_node=WI001, Current intention intent=Search for a hotel AND Book a "
        "hotel room, Current node current_node=WI002. The user provided the dates."
    )
    f = thought_fields(thought)
    assert (f.last_node, f.intent, f.current_node) == (
        "WI001",
        "Search for a hotel AND Book a hotel room",
        "WI002",
    )
    assert thought_fields("nothing here").current_node == ""
    assert thought_fields("intent=UNK, current_node=UNK.").current_node == "UNK"


def _samples(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def test_every_assistant_turn_of_the_shared_samples_parses(sample_turns: Path) -> None:
    checked = 0
    for sample in _samples(sample_turns):
        texts = [m["content"] for m in sample["messages"] if m["role"] == "assistant"]
        texts.append(sample["ground_truth"]["content"])
        for text in texts:
            parsed = parse_react(text)
            assert parsed.usable, text
            if "Action:" in text:
                assert parsed.action and parsed.arguments is not None, text
            else:
                assert parsed.response and parsed.response in text, text
            checked += 1
    assert checked == 28  # 23 history turns + 5 gold turns


def test_shared_sample_gold_turns_match_their_thoughts(sample_turns: Path) -> None:
    for sample in _samples(sample_turns):
        gold = sample["ground_truth"]
        parsed = parse_react(gold["content"])
        thought = gold["thought"]
        fields = parsed.fields
        assert (fields.last_node, fields.intent, fields.current_node) == (
            thought["last_node"],
            thought["intent"],
            thought["current_node"],
        )
        if "Action" in thought:
            assert parsed.action == thought["Action"]
            assert parsed.arguments == json.loads(thought["Action Input"])
        else:
            assert parsed.response == gold["response"].strip()
