"""What the generator knows about one scenario in one language: the graph, which node calls
which tool, and how the agent and the user speak at each node and edge.

:func:`play_from_spec` reads it off our scenario specs (authored replies, user lines, outputs
per branch, value pools). :func:`play_from_kb` infers it from any knowledge base (the public
workflows included): the tool a node calls is the one its text names, branches out of a tool
node are decided by its output, and replies and user lines follow generic templates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lifebench._util.text import Language
from lifebench.flow.flowchart import Flowchart, Node
from lifebench.flow.generate.spec import ParamSpecDef, ScenarioSpec
from lifebench.flow.generate.values import ValueHint
from lifebench.flow.kb.models import Scenario, ToolDef


@dataclass(frozen=True)
class EdgeKey:
    """One edge after expanding ``A & B``: source key, target key, label."""

    source: str
    target: str
    label: str | None


@dataclass
class AuxHint:
    """A parameter collected in dialogue."""

    name: str
    description: str
    hint: ValueHint


@dataclass
class Play:
    """The generator's view of one scenario in one language."""

    scenario: Scenario
    chart: Flowchart
    language: Language
    node_tool: dict[str, ToolDef] = field(default_factory=dict)
    replies: dict[str, str] = field(default_factory=dict)
    asks: dict[str, str] = field(default_factory=dict)
    says: dict[EdgeKey, str] = field(default_factory=dict)
    outputs: dict[EdgeKey, dict[str, Any]] = field(default_factory=dict)
    changes: dict[EdgeKey, list[str]] = field(default_factory=dict)
    user_choice: set[str] = field(default_factory=set)
    params: dict[tuple[str, str], ValueHint] = field(default_factory=dict)
    output_hints: dict[tuple[str, str], ValueHint] = field(default_factory=dict)
    aux: dict[str, AuxHint] = field(default_factory=dict)

    def out_edges(self, key: str) -> list[EdgeKey]:
        """The edges leaving ``key``, in chart order."""
        return [EdgeKey(key, target, label) for label, target in self.chart.successors(key)]

    def start_edges(self) -> list[EdgeKey]:
        """The edges leaving the start node."""
        start = self.chart.start
        return self.out_edges(start.key) if start is not None else []

    def param_hint(self, tool: str, name: str) -> ValueHint | None:
        """The value hint of ``tool``'s parameter ``name`` (or of the same name elsewhere)."""
        hint = self.params.get((tool, name))
        if hint is not None:
            return hint
        for (_, other), found in self.params.items():
            if other == name and found.pool:
                return found
        return None


def _localize(value: Any, language: Language) -> Any:
    if isinstance(value, dict) and set(value) == {"en", "zh"}:
        return value[language]
    if isinstance(value, list):
        return [_localize(v, language) for v in value]
    return value


def _hint(spec: ParamSpecDef, language: Language) -> ValueHint:
    nested = {p.name: _hint(p, language) for p in spec.properties}
    if spec.items is not None:
        nested["[]"] = _hint(spec.items, language)
    return ValueHint(
        pool=spec.pool(language),
        phrase=spec.phrase.get(language) if spec.phrase is not None else None,
        from_output=spec.from_output,
        when=_localize(spec.when, language) if spec.when is not None else None,
        nested=nested,
    )


def play_from_spec(spec: ScenarioSpec, scenario: Scenario, language: Language) -> Play:
    """The play of one of our scenarios (``scenario`` = its knowledge-base form)."""
    chart = scenario.flowchart
    play = Play(scenario=scenario, chart=chart, language=language)
    for node in spec.nodes:
        if node.tool is not None:
            play.node_tool[node.id] = scenario.tool(node.tool)
        if node.reply is not None:
            play.replies[node.id] = node.reply.get(language)
        if node.ask is not None:
            play.asks[node.id] = node.ask.get(language)
    for edge in spec.edges:
        label = edge.label.get(language) if edge.label is not None else None
        for source in edge.sources:
            key = EdgeKey(source, edge.target, label)
            if edge.say is not None:
                play.says[key] = edge.say.get(language)
                if source in play.node_tool:
                    play.user_choice.add(source)
            if edge.output is not None:
                play.outputs[key] = {k: _localize(v, language) for k, v in edge.output.items()}
            if edge.change:
                play.changes[key] = list(edge.change)
    for tool in spec.tools:
        for p in tool.inputs:
            play.params[(tool.name, p.name)] = _hint(p, language)
        for p in tool.outputs:
            play.output_hints[(tool.name, p.name)] = _hint(p, language)
    for aux in spec.aux:
        play.aux[aux.name] = AuxHint(
            name=aux.name,
            description=aux.description.get(language),
            hint=ValueHint(
                pool=aux.pool(language),
                phrase=aux.phrase.get(language) if aux.phrase is not None else None,
            ),
        )
    return play


def _calls(node: Node, tool: ToolDef) -> bool:
    pattern = rf"call(?:s|ed|ing)?\s+(?:the\s+)?(?:API\s*:?\s*)?{re.escape(tool.name)}\b"
    return (
        re.search(pattern, node.text, re.I) is not None
        or re.search(rf"调用\s*(?:API\s*[:：]?\s*)?{re.escape(tool.name)}\b", node.text) is not None
    )


def node_tools(scenario: Scenario) -> dict[str, ToolDef]:
    """Which node calls which tool: a node that says "call <tool>", or a tool-shaped node
    that names exactly one tool (case-insensitive). A tool-shaped node naming none is a plain
    reply node here."""
    out: dict[str, ToolDef] = {}
    for node in scenario.flowchart.nodes:
        called = [t for t in scenario.tools if _calls(node, t)]
        if called:
            out[node.key] = called[0]
            continue
        if node.kind == "tool":
            named = [t for t in scenario.tools if node.mentions(t.name)]
            if len(named) >= 1:
                out[node.key] = named[0]
    return out


def play_from_kb(scenario: Scenario, language: Language) -> Play:
    """A play inferred from the knowledge base alone (generic replies and user lines)."""
    chart = scenario.flowchart
    play = Play(scenario=scenario, chart=chart, language=language)
    play.node_tool = node_tools(scenario)
    for aux in chart.aux_params:
        play.aux[aux.name] = AuxHint(name=aux.name, description=aux.description, hint=ValueHint())
    return play
