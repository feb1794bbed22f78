"""Our scenario specs → a knowledge base per language, and its files.

The flowchart is built as a graph and rendered by :func:`render_flowchart`; text, code and
summary are derived from the same graph (:mod:`lifebench.flow.generate.formats`). The files use
FlowSwitch's layout (``workflow_final.jsonl``, ``domain_desc.json``, ``role_desc.json``), so the
ordinary knowledge loader reads them.
"""

from __future__ import annotations

import json
from pathlib import Path

from lifebench._util.text import Language
from lifebench.flow.flowchart import AUX_HEADERS, AuxParam, Edge, Flowchart, Node, render_flowchart
from lifebench.flow.generate.formats import code_format, summary_format, text_format
from lifebench.flow.generate.spec import Catalogue, ParamSpecDef, ScenarioSpec, ToolSpecDef
from lifebench.flow.kb.models import KnowledgeBase, ParamSpec, Scenario, ToolDef

_SUBGOAL = {
    "en": "Subgoal: {subgoal}\nDescription: {text}",
    "zh": "子目标：{subgoal}\n描述：{text}",
}
_START = {"en": "Start", "zh": "开始"}


def param_def(spec: ParamSpecDef, language: Language, with_required: bool = True) -> ParamSpec:
    """A knowledge-base parameter from a spec parameter."""
    return ParamSpec(
        type=spec.type,
        description=spec.description.get(language),
        items=param_def(spec.items, language, False) if spec.items is not None else None,
        properties=(
            {p.name: param_def(p, language, False) for p in spec.properties}
            if spec.properties
            else None
        ),
        required=spec.required if with_required else None,
    )


def tool_def(spec: ToolSpecDef, language: Language) -> ToolDef:
    """A knowledge-base tool from a spec tool."""
    return ToolDef(
        name=spec.name,
        description=spec.description.get(language),
        inputs={p.name: param_def(p, language) for p in spec.inputs},
        outputs={p.name: param_def(p, language, False) for p in spec.outputs},
    )


def chart_of(spec: ScenarioSpec, language: Language) -> Flowchart:
    """The scenario's flowchart graph in ``language``."""
    nodes = []
    for n in spec.nodes:
        if n.kind == "start":
            text = _START[language]
        elif n.subgoal is not None and n.text is not None:
            text = _SUBGOAL[language].format(
                subgoal=n.subgoal.get(language), text=n.text.get(language)
            )
        else:
            text = n.text.get(language) if n.text is not None else ""
        nodes.append(Node(key=n.id, id=n.id, kind=n.kind, text=text))
    edges = [
        Edge(
            sources=tuple(e.sources),
            target=e.target,
            label=e.label.get(language) if e.label is not None else None,
        )
        for e in spec.edges
    ]
    aux = [AuxParam(name=a.name, description=a.description.get(language)) for a in spec.aux]
    return Flowchart.build(
        nodes,
        edges,
        direction=spec.direction,
        aux_params=aux,
        aux_header=AUX_HEADERS[1] if language == "zh" and aux else None,
    )


def scenario_of(spec: ScenarioSpec, language: Language) -> Scenario:
    """The knowledge-base scenario of ``spec`` in ``language``."""
    chart = chart_of(spec, language)
    tools = tuple(tool_def(t, language) for t in spec.tools)
    name = spec.name.get(language)
    return Scenario(
        uuid=spec.uuid,
        domain=spec.domain,
        role=spec.role,
        name=name,
        workflows={
            "text": text_format(name, chart, tools, language),
            "code": code_format(name, chart, tools, language),
            "flowchart": render_flowchart(chart),
            "summary": summary_format(name, chart, tools, language),
        },
        tools=tools,
    )


def knowledge_of(catalogue: Catalogue, language: Language) -> KnowledgeBase:
    """Our knowledge base in ``language``."""
    return KnowledgeBase(
        scenarios=tuple(scenario_of(s, language) for s in catalogue.scenarios),
        domain_descriptions={k: d.description.get(language) for k, d in catalogue.domains.items()},
        role_descriptions={k: r.description.get(language) for k, r in catalogue.roles.items()},
        language=language,
        source=f"(bundled {language} knowledge)",
    )


def dumps_line(value: object) -> str:
    """One JSON line, stable (key order as built, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


def write_knowledge(kb: KnowledgeBase, folder: Path) -> list[Path]:
    """Write ``kb`` as ``workflow_final.jsonl`` + ``domain_desc.json`` + ``role_desc.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for s in kb.scenarios:
        workflow: dict[str, str] = {str(k): v for k, v in s.workflows.items()}
        lines.append(
            dumps_line(
                {
                    "uuid": s.uuid,
                    "domain": s.domain,
                    "role": s.role,
                    "scenario": s.name,
                    "workflow": workflow,
                    "apis": [t.data() for t in s.tools],
                }
            )
        )
    files = {
        folder / "workflow_final.jsonl": "\n".join(lines) + "\n",
        folder / "domain_desc.json": json.dumps(
            kb.domain_descriptions, ensure_ascii=False, indent=2
        )
        + "\n",
        folder / "role_desc.json": json.dumps(kb.role_descriptions, ensure_ascii=False, indent=2)
        + "\n",
    }
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)
