"""Mermaid flowcharts: every public chart parses with the spec's totals; conventions and data
quirks on synthetic charts; clear errors; render → parse gives the same graph."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.flow.flowchart import (
    AUX_HEADERS,
    AuxParam,
    Edge,
    Flowchart,
    FlowchartError,
    Node,
    parse_flowchart,
    render_flowchart,
    strip_stray_colon,
)


def _charts(flowbench_dir: Path) -> dict[str, str]:
    data = json.loads((flowbench_dir / "workflow_flowchart.json").read_text(encoding="utf-8"))
    return {v["scenario_name"]: v["workflow"] for v in data.values()}


def test_all_51_public_charts_parse_with_the_spec_totals(flowbench_dir: Path) -> None:
    charts = {name: parse_flowchart(text, name) for name, text in _charts(flowbench_dir).items()}
    assert len(charts) == 51
    assert sum(len(g.node_ids) for g in charts.values()) == 470
    assert sum(len(g.nodes) for g in charts.values()) == 471
    assert sum(len(g.expanded_edges) for g in charts.values()) == 509
    assert sum(1 for g in charts.values() for e in g.expanded_edges if e.label is None) == 17
    assert sum(len(g.tool_nodes()) for g in charts.values()) == 109
    assert sum(1 for g in charts.values() if g.aux_params) == 10
    assert sum(1 for g in charts.values() if g.direction == "LR") == 1
    assert all(g.start is not None and g.start.text == "Start" for g in charts.values())


def test_the_reused_id_of_file_printing_keeps_both_nodes(flowbench_dir: Path) -> None:
    chart = parse_flowchart(_charts(flowbench_dir)["File printing"])
    assert chart.duplicate_ids == ("BY004",)
    first, second = chart.node("BY004"), chart.node("BY004#2")
    assert "upload" in first.text and "printing matters" in second.text
    targets = {(chart.node(e.sources[0]).id, e.target) for e in chart.expanded_edges}
    assert ("BY001", "BY004") in targets and ("BY003", "BY004#2") in targets
    assert len(chart.node_ids) == len(chart.nodes) - 1


def test_every_public_chart_round_trips(flowbench_dir: Path) -> None:
    for name, text in _charts(flowbench_dir).items():
        chart = parse_flowchart(text, name)
        assert parse_flowchart(render_flowchart(chart), name) == chart, name


SYNTHETIC = """：
flowchart LR
AA000(Start)--Open-->AA001>Subgoal: find it
Description: ask for the name,
call findThing and collect the parameters: colour, size]
AA001 --Found --> AA002[Tell the user]
AA001-->|Not found|AA003["Say [sorry] here"]
AA002 & AA003--Bye-->AA004[End]
AA004-->AA005
AA005[Last node]

The auxiliary parameter information in the workflow is as follows:
"colour": "Colour, such as \\"red\\""
"size": "Size"
"""


def test_conventions_on_a_synthetic_chart() -> None:
    chart = parse_flowchart(SYNTHETIC)
    assert chart.direction == "LR"
    assert [n.key for n in chart.nodes] == ["AA000", "AA001", "AA002", "AA003", "AA004", "AA005"]
    assert [n.kind for n in chart.nodes[:3]] == ["start", "tool", "response"]
    tool = chart.node("AA001")
    assert tool.subgoal == "find it"
    assert tool.description is not None and tool.description.startswith("ask for the name")
    assert tool.collected_params == ("colour", "size")
    assert tool.mentions("FINDTHING") and not tool.mentions("findThin")
    quoted = chart.node("AA003")
    assert quoted.quoted and quoted.text == "Say [sorry] here"
    # spaced dashes, the |label| form, the & form (one statement, two edges), unlabelled
    assert chart.successors("AA001") == [("Found", "AA002"), ("Not found", "AA003")]
    bye = [e for e in chart.edges if e.label == "Bye"]
    assert len(bye) == 1 and bye[0].sources == ("AA002", "AA003")
    assert len(chart.expanded_edges) == len(chart.edges) + 1
    assert chart.successors("AA004") == [(None, "AA005")]
    assert chart.aux_params == (
        AuxParam(name="colour", description='Colour, such as "red"'),
        AuxParam(name="size", description="Size"),
    )
    assert parse_flowchart(render_flowchart(chart)) == chart


def test_chains_forward_references_and_the_chinese_aux_header() -> None:
    text = (
        f'flowchart TD\nXY000(开始)-->XY001-->XY002[二]\nXY001[一]\n\n{AUX_HEADERS[1]}\n"a": "甲"'
    )
    chart = parse_flowchart(text)
    assert chart.node("XY001").text == "一"
    assert [(e.sources, e.target) for e in chart.edges] == [
        (("XY000",), "XY001"),
        (("XY001",), "XY002"),
    ]
    assert chart.aux_header == AUX_HEADERS[1]
    assert parse_flowchart(render_flowchart(chart)) == chart


def test_subgoal_forms_in_both_languages() -> None:
    chart = parse_flowchart(
        "flowchart TD\nA1(Start)--x-->A2[Current goal: greet\nsay hello]\n"
        "A2--y-->A3[子目标：问好\n描述：说你好]\nA3--z-->A4[Plain instruction]"
    )
    assert chart.node("A2").subgoal == "greet" and chart.node("A2").description == "say hello"
    assert chart.node("A3").subgoal == "问好" and chart.node("A3").description == "说你好"
    assert chart.node("A4").subgoal is None and chart.node("A4").description is None


def test_strip_stray_colon() -> None:
    assert strip_stray_colon("：\nflowchart TD\nA-->B") == "flowchart TD\nA-->B"
    assert strip_stray_colon(": flowchart LR") == "flowchart LR"
    assert strip_stray_colon("not a chart") == "not a chart"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("A1(Start)-->A2[x]", "line 1: expected 'flowchart TD'"),
        ("flowchart TD\nA1(Start)--go-->A2[never closed", "line 2: node A2: no closing ']'"),
        ("flowchart TD\nA1(Start)--go-->A2\n", "node A2 is used but never given a shape"),
        ("flowchart TD\nA1(Start)==>A2[x]", "unsupported edge operator '==>'"),
        ("flowchart TD\nA1(Start)--no arrow\nA2[x]", "line 2: edge label without a closing"),
        ("flowchart TD\nA1(Start)-->A2[x] trailing", "line 2: unexpected text 'trailing'"),
        (
            f"flowchart TD\nA1(Start)-->A2[x]\n\n{AUX_HEADERS[0]}\nnot json",
            "auxiliary parameter line",
        ),
    ],
)
def test_bad_charts_name_the_line_and_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(FlowchartError) as info:
        parse_flowchart(text, "My scenario")
    assert str(info.value).startswith("My scenario")
    assert fragment in str(info.value)


def test_models_refuse_what_mermaid_cannot_write() -> None:
    with pytest.raises(ValueError, match="quote it"):
        Node(key="A1", id="A1", kind="response", text="has ] inside")
    with pytest.raises(ValueError, match="cannot be written"):
        Edge(sources=("A1",), target="A2", label="a-->b")
    a = Node(key="A1", id="A1", kind="start", text="Start")
    b = Node(key="B1", id="B1", kind="response", text="x")
    with pytest.raises(ValueError, match="canonical order"):
        Flowchart(nodes=(b, a), edges=(Edge(sources=("A1",), target="B1"),))


# --- property: any chart built from the model renders and parses back to itself -----------

_TEXT = st.text(
    alphabet=st.characters(
        whitelist_categories=("L", "N", "Zs"), whitelist_characters=":,.?!'-\n中文"
    ),
    min_size=1,
    max_size=30,
).filter(lambda t: t.strip() == t and t)
_LABEL = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N"), whitelist_characters=" '?"),
    min_size=1,
    max_size=20,
).filter(lambda t: t.strip() == t)


@st.composite
def charts(draw: st.DrawFn) -> Flowchart:
    count = draw(st.integers(min_value=1, max_value=8))
    ids = [f"QQ{i:03d}" for i in range(count)]
    nodes = [Node(key=ids[0], id=ids[0], kind="start", text="Start")]
    for node_id in ids[1:]:
        kind = draw(st.sampled_from(["tool", "response", "decision"]))
        quoted = draw(st.booleans())
        text = draw(_TEXT)
        if quoted:
            text = text.replace('"', "")
        nodes.append(Node(key=node_id, id=node_id, kind=kind, text=text, quoted=quoted))
    if count > 2 and draw(st.booleans()):  # a reused id with another text (like BY004)
        dup = nodes[draw(st.integers(min_value=1, max_value=count - 1))]
        nodes.append(dup.model_copy(update={"key": dup.id + "-dup", "text": dup.text + " again"}))
    keys = [n.key for n in nodes]
    edges = []
    for _ in range(draw(st.integers(min_value=0, max_value=10))):
        sources = tuple(
            dict.fromkeys(draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3)))
        )
        label = draw(st.one_of(st.none(), _LABEL))
        edges.append(Edge(sources=sources, target=draw(st.sampled_from(keys)), label=label))
    aux = [
        AuxParam(name=f"p{i}", description=draw(_TEXT).replace("\n", " "))
        for i in range(draw(st.integers(min_value=0, max_value=2)))
    ]
    direction: Literal["TD", "LR"] = draw(st.sampled_from(["TD", "LR"]))
    return Flowchart.build(nodes, edges, direction=direction, aux_params=aux)


@settings(max_examples=150, deadline=None)
@given(charts())
def test_parse_of_render_is_the_identity(chart: Flowchart) -> None:
    assert parse_flowchart(render_flowchart(chart)) == chart
