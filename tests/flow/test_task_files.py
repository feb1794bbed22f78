"""Task files: the official turn-level and session-level formats (synthetic lines), FlowSwitch
samples, ours (round trip), format detection and clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lifebench.errors import InputError
from lifebench.flow.kb import load_knowledge
from lifebench.flow.tasks import (
    GoldThought,
    bundled_session_tasks,
    bundled_turn_samples,
    detect_task_file,
    load_session_tasks,
    load_turn_samples,
    parse_actions,
    session_line,
    split_official_prompt,
    turn_line,
)

NOW = "2036-04-02 09:30:00 Wednesday"
SYSTEM = (
    "Specific requirements: follow the workflow.\n"
    "Your capabilities are based on the following workflows and API information:\n"
    "flowchart TD\nSK000(Start)--Book a flight-->SK001>call checkAvailability]\n\n"
    "API: checkAvailability\nAPI Desciption: Check\nInput parameters: {}\nOutput parameters: {}\n"
    f"Please note that the current time is:{NOW}"
)
API = {
    "api_name": "checkAvailability",
    "api_description": "Check a flight",
    "input_parameters": {
        "plan_code": {"type": "string", "description": "Flight id", "required": True}
    },
    "output_parameters": {
        "is_air": {"type": "string", "description": "Enumeration type, [true, false]"}
    },
}


def official_turn(**override: Any) -> dict[str, Any]:
    line = {
        "id": "20240519191248369436896_agent_turn-3",
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": "Hi, book CA1234 please"},
            {
                "role": "assistant",
                "content": "Thought: Previous node last_node=SK000, Current intention intent=Book a flight, "
                "Current node current_node=SK001.\nResponse: Which date?",
            },
            {"role": "user", "content": "Tomorrow"},
        ],
        "apis": [API],
        "gt_thought": {
            "last_node": "SK001",
            "intent": "Book a flight",
            "current_node": "SK001",
            "Action": "checkAvailability",
            "Action Input": {"plan_code": "CA1234", "meta": {"nested": [1, 2]}},
        },
        "gt_response": 'Action: checkAvailability\nAction Input: {"plan_code": "CA1234"}',
    }
    line.update(override)
    return line


def official_session(**override: Any) -> dict[str, Any]:
    line = {
        "id": "s-1",
        "apis": [API],
        "datetime": NOW,
        "assistant_agent": {"assistant_prompt": SYSTEM},
        "assistant_prompt": SYSTEM,
        "user_agent": {"first_turn_hint": "You want to book CA1234.", "every_turn_hint": "Brief."},
        "function_agent": {
            "functions_with_response": [
                {
                    "name": "checkAvailability",
                    "description": "Check a flight",
                    "parameters": {
                        "type": "object",
                        "properties": {"plan_code": {"type": "string", "description": "Flight id"}},
                        "required": ["plan_code"],
                    },
                    "response": {
                        "properties": {"is_air": {"type": "string", "description": "yes/no"}}
                    },
                },
                {"name": "ping", "parameters": {"properties": {}}, "response": {"type": "string"}},
            ],
            "function_prompt": 'Action: checkAvailability\nAction Input: {"plan_code": "CA1234"}\n'
            'function: {"is_air": "true"}\n\nAction: ping\nAction Input: {}\nfunction: "pong"',
        },
        "user_target": "Goal: book CA1234",
        "gt_actions_string": 'Action: checkAvailability\nAction Input: {"plan_code": "CA1234", '
        '"who": {"name": "Li"}}\n\nAction: ping\nAction Input: {}',
    }
    line.update(override)
    return line


def _write(path: Path, lines: list[Any]) -> Path:
    path.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines)
        + "\n",
        encoding="utf-8",
    )
    return path


def test_official_turn_line(tmp_path: Path) -> None:
    (sample,) = load_turn_samples(_write(tmp_path / "t.jsonl", [official_turn()]))
    assert sample.session_id == "20240519191248369436896" and sample.turn == 3
    assert sample.system_prompt == SYSTEM and sample.datetime == NOW
    assert [m.role for m in sample.history] == ["user", "assistant", "user"]
    assert sample.tools[0].name == "checkAvailability" and sample.source == "official"
    assert sample.gold.is_tool_turn
    assert sample.gold.thought.arguments() == {"plan_code": "CA1234", "meta": {"nested": [1, 2]}}
    instructions, knowledge, when = split_official_prompt(SYSTEM)
    assert instructions == "Specific requirements: follow the workflow."
    assert knowledge.startswith("flowchart TD") and knowledge.endswith("Output parameters: {}")
    assert when == NOW


def test_official_turn_resolves_its_scenario_through_the_kb(
    tmp_path: Path, flowbench_dir: Path
) -> None:
    kb = load_knowledge(flowbench_dir)
    (sample,) = load_turn_samples(_write(tmp_path / "t.jsonl", [official_turn()]), kb)
    assert kb.scenario(sample.scenarios[0]).name == "Book a flight"
    assert sample.role == "flight_inquiry" and sample.setting == "single"


def test_gold_thought_without_a_call_is_not_a_tool_turn() -> None:
    assert not GoldThought(action="x", action_input="").arguments()
    thought = GoldThought(action="ping", action_input="")
    from lifebench.flow.tasks import GoldTurn

    assert not GoldTurn(thought=thought).is_tool_turn
    assert GoldTurn(thought=thought.model_copy(update={"action_input": "{}"})).is_tool_turn


def test_official_session_line(tmp_path: Path) -> None:
    (task,) = load_session_tasks(_write(tmp_path / "s.jsonl", [official_session()]))
    assert task.user_summary == "You want to book CA1234." and task.persona == "Brief."
    assert task.knowledge is not None and task.knowledge.startswith("flowchart TD")
    assert [t.name for t in task.tools] == ["checkAvailability", "ping"]
    assert task.tools[0].inputs["plan_code"].required is True
    assert task.tools[1].outputs["result"].type == "string"
    first, second = task.gold_calls
    assert first.arguments == {"plan_code": "CA1234", "who": {"name": "Li"}}
    assert first.output is None  # the recorded return is for other arguments
    assert second.name == "ping" and second.output == '"pong"'
    assert task.messages == () and task.source == "official"


def test_parse_actions_reads_multi_line_and_nested_arguments() -> None:
    text = 'Action: a\nAction Input: {\n  "x": {"y": "}"}\n}\nfunction: {"ok": 1}\n\nAction: functions.b\nAction Input: {}'
    first, second = parse_actions(text)
    assert first.arguments == {"x": {"y": "}"}} and first.output == '{"ok": 1}'
    assert second.name == "b" and second.arguments == {}


def test_flowswitch_samples(sample_turns: Path, flowbench_dir: Path) -> None:
    kb = load_knowledge(flowbench_dir)
    samples = load_turn_samples(sample_turns, kb)
    assert len(samples) == 5 and all(s.source == "flowswitch" for s in samples)
    by_id = {s.id: s for s in samples}
    cross = by_id["20240519191248369436896_agent_turn-9"]
    assert cross.setting == "cross" and cross.role == "hotel_reception"
    assert {kb.scenario(u).name for u in cross.scenarios} == {"Book a hotel room", "Find a hotel"}
    assert cross.gold.thought.current_node == "UNK"
    tool = by_id["20240522183723870724158_agent_turn-4"]
    assert tool.gold.is_tool_turn and tool.gold.thought.arguments() == {
        "thing_form": "laptop",
        "thing_name": "Dell XPS 15",
    }
    assert [t.name for t in tool.tools] == list(kb.scenario(tool.scenarios[0]).tool_names())


def test_flowswitch_uuid_missing_from_the_kb_is_named(sample_turns: Path) -> None:
    with pytest.raises(InputError, match="give the FlowBench workflows with --knowledge"):
        load_turn_samples(sample_turns, load_knowledge(None, "en"))


def test_our_files_round_trip(tmp_path: Path) -> None:
    samples = bundled_turn_samples("en", "cross")[:30]
    path = _write(tmp_path / "t.jsonl", [turn_line(s) for s in samples])
    assert load_turn_samples(path) == samples
    tasks = bundled_session_tasks("zh", "single")[:5]
    lines = [session_line(t, t.knowledge or "") for t in tasks]
    assert load_session_tasks(_write(tmp_path / "s.jsonl", lines)) == tasks


def test_detection_and_directories(tmp_path: Path) -> None:
    folder = tmp_path / "turns"
    folder.mkdir()
    _write(folder / "a.jsonl", [official_turn()])
    _write(folder / "b.jsonl", [official_turn(id="x_agent_turn-1")])
    assert detect_task_file(folder) == "turn"
    assert len(load_turn_samples(folder)) == 2
    session = _write(tmp_path / "s.jsonl", [official_session()])
    assert detect_task_file(session) == "session"
    array = tmp_path / "array.json"
    array.write_text(json.dumps([official_turn()]), encoding="utf-8")
    assert len(load_turn_samples(array)) == 1


@pytest.mark.parametrize(
    ("line", "fragments"),
    [
        (official_turn(id=""), ["line 1", "field id"]),
        (
            official_turn(messages=[{"role": "robot", "content": "x"}]),
            [
                "turn 20240519191248369436896_agent_turn-3",
                "messages[0].role",
                "unknown role 'robot'",
            ],
        ),
        (
            official_turn(messages=[{"role": "function", "content": "{}"}]),
            ["messages[0].name", "needs the tool's name"],
        ),
        (
            official_turn(apis=[{**API, "input_parameters": {"p": {"type": "weird"}}}]),
            ["apis[0].input_parameters.p.type", "unknown type 'weird'"],
        ),
        (
            official_session(),
            ["line 1", "a session-level line in a turn-level run", "--level session"],
        ),
        ({"hello": 1}, ["line 1", "neither a turn-level line"]),
        ("{broken", ["line 1", "invalid JSON"]),
    ],
)
def test_bad_turn_lines_are_named(tmp_path: Path, line: Any, fragments: list[str]) -> None:
    path = _write(tmp_path / "bad.jsonl", [line])
    with pytest.raises(InputError) as info:
        load_turn_samples(path)
    message = str(info.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message


def test_bad_session_lines_and_duplicates_are_named(tmp_path: Path) -> None:
    bad = official_session(user_agent={"every_turn_hint": "x"})
    with pytest.raises(InputError, match=r"task s-1\), field user_agent.first_turn_hint"):
        load_session_tasks(_write(tmp_path / "s.jsonl", [bad]))
    twice = _write(tmp_path / "d.jsonl", [official_turn(), official_turn()])
    with pytest.raises(InputError, match="already used at line 1"):
        load_turn_samples(twice)
    with pytest.raises(InputError, match="no such task file"):
        load_turn_samples(tmp_path / "absent.jsonl")
