"""The knowledge base: loading the public files and ours, clear errors, the knowledge text per
format and setting, tool schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lifebench.errors import InputError
from lifebench.flow.kb import (
    KnowledgeBase,
    ParamSpec,
    ToolDef,
    background,
    knowledge_text,
    load_knowledge,
    workflow_text,
)

CHART = "：\nflowchart TD\nZZ000(Start)--Go-->ZZ001>Call doIt, check ok]\nZZ001--Done-->ZZ002[Bye]"
DO_IT = {
    "api_name": "doIt",
    "api_description": "Do it",
    "input_parameters": {
        "count": {"type": "integer", "description": "How many", "required": True},
        "tags": {
            "type": "list",
            "description": "Tags",
            "items": {"type": "string", "description": "A tag"},
            "required": False,
        },
        "who": {
            "type": "object",
            "description": "Person",
            "properties": {"name": {"type": "string", "description": "Name"}},
            "required": False,
        },
    },
    "output_parameters": {"ok": {"type": "string", "description": "Enumeration type, [yes, no]"}},
}


def _line(uuid: str, name: str, role: str = "doer", **extra: Any) -> dict[str, Any]:
    line = {
        "uuid": uuid,
        "domain": "Test Domain",
        "role": role,
        "scenario": name,
        "workflow": {
            "text": f"{name} text",
            "code": f"def {name.lower()}(): pass",
            "flowchart": CHART,
        },
        "apis": [DO_IT],
    }
    line.update(extra)
    return line


def _write_final(folder: Path, lines: list[Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "workflow_final.jsonl"
    path.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n",
        encoding="utf-8",
    )
    return path


def test_public_knowledge_loads(flowbench_dir: Path) -> None:
    kb = load_knowledge(flowbench_dir)
    assert len(kb.scenarios) == 51 and len(kb.roles()) == 22 and len(kb.domains()) == 6
    assert sum(len(s.tools) for s in kb.scenarios) == 109
    assert all(set(s.workflows) == {"text", "code", "flowchart", "summary"} for s in kb.scenarios)
    assert kb.domain_description("Customer Service") and kb.role_description("hotel_reception")
    assert kb.scenario("Book a flight") is kb.scenario(kb.scenario("Book a flight").uuid)


def test_api_blocks_reproduce_the_data(flowbench_dir: Path) -> None:
    kb = load_knowledge(flowbench_dir)
    lines = (flowbench_dir / "workflow_final.jsonl").read_text(encoding="utf-8").splitlines()
    for raw in lines:
        row = json.loads(raw)
        scenario = kb.scenario(row["uuid"])
        for api in row["apis"]:
            block = api["raw_block"].split("\nPlease note that the current time")[0].rstrip("\n")
            assert scenario.tool(api["api_name"]).api_block() == block


def test_tools_are_keyed_by_scenario(flowbench_dir: Path) -> None:
    kb = load_knowledge(flowbench_dir)
    schemas = {
        json.dumps(t.input_schema(), sort_keys=True)
        for s in kb.scenarios
        for t in s.tools
        if t.name == "accountInquiry"
    }
    assert len(schemas) == 2


def test_bundled_knowledge_in_both_languages() -> None:
    en, zh = load_knowledge(None, "en"), load_knowledge(None, "zh")
    assert [s.uuid for s in en.scenarios] == [s.uuid for s in zh.scenarios]
    assert len(en.scenarios) == 7 and en.roles() == zh.roles()
    assert en.scenario(en.scenarios[0].uuid).name != zh.scenarios[0].name
    for a, b in zip(en.scenarios, zh.scenarios, strict=True):
        assert a.flowchart.node_ids == b.flowchart.node_ids
        assert [t.name for t in a.tools] == [t.name for t in b.tools]


def test_pools_fill_the_formats_the_jsonl_lacks(tmp_path: Path) -> None:
    line = _line("u-1", "Alpha")
    del line["workflow"]["code"]
    _write_final(tmp_path, [line])
    pool = {
        "u-1": {
            "domain": "Test Domain",
            "role": "doer",
            "scenario_name": "Alpha",
            "workflow": "CODE",
        }
    }
    (tmp_path / "workflow_code.json").write_text(json.dumps(pool), encoding="utf-8")
    kb = load_knowledge(tmp_path)
    assert kb.scenario("Alpha").workflows["code"] == "CODE"
    assert kb.scenario("Alpha").tools[0].name == "doIt"


def test_a_pool_alone_loads_scenarios_without_tools(tmp_path: Path) -> None:
    pool = {"u-9": {"domain": "D", "role": "r", "scenario_name": "Solo", "workflow": CHART}}
    path = tmp_path / "workflow_flowchart.json"
    path.write_text(json.dumps(pool), encoding="utf-8")
    kb = load_knowledge(path)
    assert kb.scenario("Solo").tools == () and len(kb.scenario("Solo").flowchart.nodes) == 3


@pytest.mark.parametrize(
    ("lines", "fragments"),
    [
        (["{not json"], ["line 1", "invalid JSON"]),
        (
            [_line("u-1", "A"), _line("u-1", "B")],
            ["line 2 (scenario 'B')", "field uuid", "appears twice"],
        ),
        ([{"uuid": "u-2", "domain": "D", "role": "r"}], ["line 1", "field scenario"]),
        (
            [_line("u-3", "C", apis=[{**DO_IT, "input_parameters": {"x": {"type": "blob"}}}])],
            ["scenario 'C'", "apis[0].input_parameters.x.type", "unknown type 'blob'"],
        ),
        (
            [_line("u-4", "D", workflow={"flowchart": "flowchart TD\nA1(Start)-->A2[open"})],
            ["scenario 'D' (u-4)", "workflow.flowchart", "no closing ']'"],
        ),
        ([_line("u-5", "E", apis=[DO_IT, DO_IT])], ["apis[1].api_name", "listed twice"]),
    ],
)
def test_bad_knowledge_names_file_line_and_field(
    tmp_path: Path, lines: list[Any], fragments: list[str]
) -> None:
    _write_final(tmp_path, lines)
    with pytest.raises(InputError) as info:
        load_knowledge(tmp_path)
    message = str(info.value)
    assert "workflow_final.jsonl" in message or str(tmp_path) in message
    for fragment in fragments:
        assert fragment in message


def test_pool_that_disagrees_with_the_jsonl_is_refused(tmp_path: Path) -> None:
    _write_final(tmp_path, [_line("u-1", "Alpha")])
    pool = {"u-1": {"domain": "Other", "role": "doer", "scenario_name": "Alpha", "workflow": "T"}}
    (tmp_path / "workflow_text.json").write_text(json.dumps(pool), encoding="utf-8")
    with pytest.raises(InputError, match="field domain: 'Other' here but 'Test Domain'"):
        load_knowledge(tmp_path)


def test_missing_sources_are_clear(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no knowledge files here"):
        load_knowledge(tmp_path)
    with pytest.raises(InputError, match="no such knowledge file"):
        load_knowledge(tmp_path / "absent")
    other = tmp_path / "notes.txt"
    other.write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="not a knowledge file"):
        load_knowledge(other)


def _kb(tmp_path: Path) -> KnowledgeBase:
    _write_final(
        tmp_path, [_line("u-1", "Alpha"), _line("u-2", "Beta"), _line("u-3", "Other", role="x")]
    )
    (tmp_path / "role_desc.json").write_text(json.dumps({"doer": "Does things."}), encoding="utf-8")
    (tmp_path / "domain_desc.json").write_text(
        json.dumps({"Test Domain": "Tests."}), encoding="utf-8"
    )
    return load_knowledge(tmp_path)


def test_knowledge_text_per_format(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    alpha = [kb.scenario("Alpha")]
    none = knowledge_text(kb, alpha, "none")
    assert "API: doIt" in none and "Workflow" not in none
    bare = knowledge_text(kb, alpha, "none-no-tools")
    assert (
        "doIt(count, tags, who)" in bare and "API Desciption" not in bare and "How many" not in bare
    )
    chart = knowledge_text(kb, alpha, "flowchart")
    assert "Workflow (flowchart):\nflowchart TD" in chart and "：" not in chart
    ensemble = knowledge_text(kb, alpha, "ensemble")
    for part in ("Workflow (text):", "Workflow (code):", "Workflow (flowchart):", "API: doIt"):
        assert part in ensemble
    assert knowledge_text(kb, alpha, "text").count("Scenario: ") == 1
    assert workflow_text(kb.scenario("Alpha"), "text") == "Alpha text"
    with pytest.raises(KeyError, match="no summary workflow"):
        workflow_text(kb.scenario("Alpha"), "summary")


def test_single_and_cross_settings(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    single = kb.setting_scenarios(["u-1"], "doer", "single")
    cross = kb.setting_scenarios(["u-1"], "doer", "cross")
    assert [s.name for s in single] == ["Alpha"]
    assert [s.name for s in cross] == ["Alpha", "Beta"]
    text = knowledge_text(kb, cross, "code")
    assert text.index("Scenario: Alpha") < text.index("Scenario: Beta") and "Other" not in text
    assert background(kb, "doer") == "Does things.\nTests."


def test_chinese_knowledge_text_labels() -> None:
    kb = load_knowledge(None, "zh")
    text = knowledge_text(kb, [kb.scenarios[0]], "flowchart")
    assert text.startswith("场景：") and "工作流（流程图）：" in text and "API 信息：" in text


def test_tool_schema_and_validation() -> None:
    tool = ToolDef(
        name="doIt",
        inputs={
            "count": ParamSpec(type="integer", required=True),
            "tags": ParamSpec(type="list", items=ParamSpec(type="string")),
            "who": ParamSpec(type="object", properties={"name": ParamSpec(type="string")}),
        },
        outputs={"ok": ParamSpec(type="string")},
    )
    schema = tool.input_schema()
    assert schema["required"] == ["count"] and schema["properties"]["tags"]["type"] == "array"
    assert tool.validate_arguments({"count": 2, "tags": ["a"], "who": {"name": "x"}}) == []
    assert any("'count' is a required" in p for p in tool.validate_arguments({}))
    assert any(
        "count: '2' is not of type 'integer'" in p for p in tool.validate_arguments({"count": "2"})
    )
    assert any("unexpected" in p for p in tool.validate_arguments({"count": 1, "extra": 1}))
    assert tool.validate_output({"ok": 3}) != [] and tool.validate_output({"ok": "yes"}) == []
    assert tool.openai_schema()["function"]["parameters"] == schema
    assert tool.signature() == "doIt(count, tags, who)"
