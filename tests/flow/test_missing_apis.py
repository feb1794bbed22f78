"""Official turn lines without ``apis``: the domain and the tools come from the workflow the
prompt renders, or the line is refused with its file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_task_files import SYSTEM, official_turn

from lifebench.errors import InputError
from lifebench.flow.kb import load_knowledge
from lifebench.flow.tasks import load_turn_samples
from lifebench.flow.tasks.turns import prompt_tool_names


def _line(tmp_path: Path, **override: object) -> Path:
    line = {k: v for k, v in official_turn(**override).items() if k != "apis"}
    path = tmp_path / "turns.jsonl"
    path.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def test_the_workflow_names_the_tools_and_so_the_domain(
    tmp_path: Path, flowbench_dir: Path
) -> None:
    kb = load_knowledge(flowbench_dir)
    (sample,) = load_turn_samples(_line(tmp_path), kb)
    assert sample.domain and sample.domain != "(unknown)"
    assert kb.scenario(sample.scenarios[0]).name == "Book a flight"
    # the tools are the scenario's own (enumerations and names are checked against them)
    assert "checkAvailability" in [t.name for t in sample.tools]


def test_a_line_whose_workflow_names_nothing_known_is_refused(
    tmp_path: Path, flowbench_dir: Path
) -> None:
    kb = load_knowledge(flowbench_dir)
    unknown = SYSTEM.replace("checkAvailability", "noSuchTool").replace("SK0", "ZZ9")
    messages = [
        {"role": "system", "content": unknown},
        {"role": "user", "content": "Hi"},
    ]
    thought = {"Action": "noSuchTool", "Action Input": "{}"}
    path = _line(tmp_path, messages=messages, gt_thought=thought)
    with pytest.raises(InputError) as info:
        load_turn_samples(path, kb)
    message = str(info.value)
    assert info.value.file == str(path)
    assert "line 1" in message and "field apis: missing" in message
    assert "names no tool or node of the knowledge base" in message


def test_without_a_knowledge_base_the_line_loads_unresolved(tmp_path: Path) -> None:
    (sample,) = load_turn_samples(_line(tmp_path))
    assert sample.domain == "" and sample.tools == ()


def test_prompt_tool_names() -> None:
    text = "API: a\nAPI Desciption: x\n\nAPI: b_2\nAPI: a\nnot API: c"
    assert prompt_tool_names(text) == ["a", "b_2"]


def test_session_lines_without_apis_too(tmp_path: Path, flowbench_dir: Path) -> None:
    from test_task_files import official_session

    from lifebench.flow.tasks import load_session_tasks

    kb = load_knowledge(flowbench_dir)
    line = official_session()
    line.pop("apis")
    line["function_agent"] = {
        k: v for k, v in line["function_agent"].items() if k != "functions_with_response"
    }
    path = tmp_path / "sessions.jsonl"
    path.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    (task,) = load_session_tasks(path, kb)
    assert task.domain and "checkAvailability" in [t.name for t in task.tools]
    unknown = official_session(
        assistant_prompt=SYSTEM.replace("checkAvailability", "noSuchTool").replace("SK0", "ZZ9")
    )
    unknown.pop("apis")
    unknown["assistant_agent"] = {"assistant_prompt": unknown["assistant_prompt"]}
    unknown["function_agent"] = {"function_prompt": ""}
    path.write_text(json.dumps(unknown, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 1.*field apis: missing") as info:
        load_session_tasks(path, kb)
    assert info.value.file == str(path)
