"""The ReAct parser's whole result (every field, every note) on messy replies, the JSON scanner's
edge cases, and the offline answerer's exact answers."""

from __future__ import annotations

import json

import pytest

from id_rules import readable_id
from lifebench.flow.agents.parse import (
    ParsedReply,
    parse_arguments,
    parse_react,
    scan_json,
    thought_fields,
)
from lifebench.flow.kb import ParamSpec, ToolDef
from lifebench.flow.simulators.answerer import offline_answer

_CASES: list[tuple[str, ParsedReply]] = [
    ("", ParsedReply(notes=("empty reply",))),
    ("```\n```", ParsedReply(notes=("empty reply",))),
    ("just text", ParsedReply(response="just text", notes=("no Thought/Action/Response keys",))),
    ("Response: **hi**", ParsedReply(response="hi", notes=("no Thought",))),
    ("Thought: t", ParsedReply(thought="t", notes=("neither Action nor Response",))),
    (
        "Thought: t\nAction: a\nAction Input: {}\nAction: b\nAction Input: {}",
        ParsedReply(
            thought="t", action="a", arguments={}, notes=("several Actions; the first one counts",)
        ),
    ),
    (
        "Thought: t\nAction: a",
        ParsedReply(thought="t", action="a", arguments={}, notes=("Action without Action Input",)),
    ),
    (
        'Thought: t\nAction Input: {"a": 1}\nResponse: r',
        ParsedReply(thought="t", response="r", notes=("Action Input without Action ignored",)),
    ),
    (
        "Thought: t\nAction: a\nAction Input: {}\nResponse: r",
        ParsedReply(
            thought="t", action="a", arguments={}, notes=("Response next to an Action dropped",)
        ),
    ),
    (
        "Sure!\nThought: t\nResponse: r",
        ParsedReply(thought="t", response="r", notes=("text before the first key ignored",)),
    ),
    (
        "Thought: t\nAction: functions.pay\nAction Input: none",
        ParsedReply(
            thought="t",
            action="pay",
            arguments={},
            notes=("'functions.' prefix removed", "empty Action Input"),
        ),
    ),
    (
        "Thought: t\nAction: ***\nAction Input: {}",
        ParsedReply(thought="t", notes=("Action has no tool name", "neither Action nor Response")),
    ),
    (
        "Thought: t\nAction: pay\nAction Input: {'a': 'x}y',}",
        ParsedReply(
            thought="t",
            action="pay",
            arguments={"a": "x}y"},
            arguments_text='{"a": "x}y"}',
            notes=("Action Input JSON repaired",),
        ),
    ),
    (
        'Thought: t\nAction: pay\nAction Input: {"城市": "北京",}',
        ParsedReply(
            thought="t",
            action="pay",
            arguments={"城市": "北京"},
            arguments_text='{"城市": "北京"}',
            notes=("Action Input JSON repaired",),
        ),
    ),
    (
        'Thought: t\nAction: pay\nAction Input: {"a": 1} then more',
        ParsedReply(
            thought="t",
            action="pay",
            arguments={"a": 1},
            arguments_text='{"a": 1}',
            notes=("text after the Action Input JSON ignored",),
        ),
    ),
    (
        "Thought: t\nAction: pay\nAction Input: [1, 2]",
        ParsedReply(
            thought="t",
            action="pay",
            arguments_text="[1, 2]",
            notes=("Action Input is not a JSON object",),
        ),
    ),
    (
        "Thought: t\nAction: pay\nAction Input: {]}",
        ParsedReply(
            thought="t",
            action="pay",
            arguments_text="{]}",
            notes=("Action Input is not a JSON object",),
        ),
    ),
    (
        "Thought: line one\r\nResponse: line two\r\nline three",
        ParsedReply(thought="line one", response="line two\nline three"),
    ),
    ("Thought: *t*\nResponse: _r_", ParsedReply(thought="t", response="r")),
    ("Thought:   \nResponse: r", ParsedReply(response="r")),
    (
        "Action:  pay \nAction Input: NULL",
        ParsedReply(action="pay", arguments={}, notes=("no Thought", "empty Action Input")),
    ),
    (
        "Action: pay\nAction Input: N/A",
        ParsedReply(action="pay", arguments={}, notes=("no Thought", "empty Action Input")),
    ),
    (
        "Action: pay\nAction Input: {}",
        ParsedReply(action="pay", arguments={}, notes=("no Thought",)),
    ),
    (
        "Action: 'pay'\nAction Input:\n```\n{}\n```",
        ParsedReply(action="pay", arguments={}, notes=("no Thought",)),
    ),
    (
        'Thought: t\nAction   Input: {"a": "b"}\nAction: x',
        ParsedReply(thought="t", action="x", arguments={"a": "b"}, arguments_text='{"a": "b"}'),
    ),
]


@pytest.mark.parametrize(("text", "want"), _CASES, ids=[readable_id(c[0])[:60] for c in _CASES])
def test_whole_parse(text: str, want: ParsedReply) -> None:
    assert parse_react(text) == want


def test_multiple_actions_note_only_from_two() -> None:
    assert (
        "several Actions; the first one counts"
        not in parse_react("Action: a\nAction Input: {}").notes
    )


def test_json_after_a_key_is_skipped_as_a_whole() -> None:
    text = 'Action: a\nAction Input: ```json\n{"t": "Thought: x\\nResponse: y"}\n```\nResponse: z'
    got = parse_react(text)
    assert got.arguments == {"t": "Thought: x\nResponse: y"} and got.response is None
    no_json = parse_react("Action: a\nAction Input: later\nResponse: z")
    assert no_json.arguments is None and no_json.arguments_text == "later"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ('{"a": "\\\\"} x', ('{"a": "\\\\"}', 11)),  # an escaped backslash closes nothing
        ('{"a": "\\"}"}', ('{"a": "\\"}"}', 12)),
        ("{'a': '}'}", ("{'a': '}'}", 10)),
        ("{ 'a' : [ '}' ] }", ("{ 'a' : [ '}' ] }", 17)),
        ('{"a": "it\'s"}', ('{"a": "it\'s"}', 13)),  # an apostrophe inside a string
        ("{a: don't}", ("{a: don't}", 10)),  # an apostrophe in a word opens no string
        ("[1, [2]] tail", ("[1, [2]]", 8)),
        ("pre {x} {y}", ("{x}", 7)),
        ("{never closed", None),
        ("{]}", None),
        ("[{]}", None),
        ('{"a": [1}', None),
        ("'{' is quoted", None),
        ("no braces", None),
    ],
)
def test_scan_json(text: str, want: tuple[str, int] | None) -> None:
    assert scan_json(text) == want


def test_scan_json_start_position() -> None:
    text = "ab{c}"
    found = scan_json(text)
    assert found == ("{c}", 5) and text[: found[1]].endswith("{c}")


def test_parse_arguments_notes() -> None:
    assert parse_arguments("{}") == ({}, "{}", ())
    assert parse_arguments("") == ({}, "{}", ("empty Action Input",))
    assert parse_arguments("None") == ({}, "{}", ("empty Action Input",))


def test_thought_field_decorations() -> None:
    f = thought_fields("last_node='AB001', intent=\"Pay\", current_node=`AB002`.")
    assert (f.last_node, f.intent, f.current_node) == ("AB001", "Pay", "AB002")
    assert thought_fields("current_node = *AB003*").current_node == "AB003"


_TOOL = ToolDef(
    name="t",
    outputs={
        "obj": ParamSpec(
            type="object",
            properties={
                "a": ParamSpec(type="string", description="Anything"),
                "b": ParamSpec(type="number", description='Rate, such as "2.5 percent"'),
            },
        ),
        "tags": ParamSpec(type="list", description='Tag, e.g. "北京, 上海"'),
        "items": ParamSpec(type="array", items=ParamSpec(type="integer", description="Count")),
        "odd": ParamSpec.model_construct(type="mystery", description="Whatever"),
        "level": ParamSpec(type="integer", description="Enumeration type, [3, 4]"),
        "plain": ParamSpec(type="number", description="Value"),
    },
)


def test_offline_answer_is_exact() -> None:
    answer = offline_answer(_TOOL, {"城市": "北京", "n": 1})
    value = json.loads(answer)
    assert "北京" in answer  # not escaped
    assert value == {
        "obj": {"a": value["obj"]["a"], "b": 2.5},
        "tags": ["北京"],
        "items": [value["items"][0]],
        "odd": value["odd"],
        "level": 3,
        "plain": value["plain"],
    }
    # hash-derived values: fixed for this call, different for another
    assert value["obj"]["a"] == "a-" + value["obj"]["a"][2:] and len(value["obj"]["a"]) == 6
    assert answer == offline_answer(_TOOL, {"n": 1, "城市": "北京"})  # key order does not matter
    assert answer != offline_answer(_TOOL, {"城市": "北京", "n": 2})
    a, n, odd, plain = value["obj"]["a"][2:], value["items"][0], value["odd"][4:], value["plain"]
    assert answer == (
        f'{{"obj": {{"a": "a-{a}", "b": 2.5}}, "tags": ["北京"], "items": [{n}], '
        f'"odd": "odd-{odd}", "level": 3, "plain": {json.dumps(plain)}}}'
    )


def test_offline_answer_golden() -> None:
    # pins the hash: the same call must give the same answer across versions
    tool = ToolDef(
        name="lookup",
        outputs={
            "code": ParamSpec(type="string", description="Code"),
            "n": ParamSpec(type="integer", description="N"),
            "x": ParamSpec(type="number", description="X"),
            "sub": ParamSpec(
                type="object",
                properties={"s": ParamSpec(type="string"), "k": ParamSpec(type="integer")},
            ),
            "list": ParamSpec(type="list", items=ParamSpec(type="string")),
        },
    )
    assert offline_answer(tool, {"id": "A-1"}) == GOLDEN


GOLDEN = (
    '{"code": "code-0347", "n": 78, "x": 79, "sub": {"s": "s-0350", "k": 81}, '
    '"list": ["list-0351"]}'
)
