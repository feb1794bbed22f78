"""Workflow text, code and summary written from a flowchart graph (English or Chinese).

Our scenarios are authored once as a graph; these renderers derive the other knowledge formats
from it, so the four formats always describe the same workflow: ``text`` is a step-by-step
description, ``code`` Python-style pseudo code (one branch per node in a loop over the current
node, as the paper's code format uses functions, a loop and conditions), ``summary`` a few lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lifebench._util.text import Language, Text
from lifebench.flow.flowchart import Flowchart, Node
from lifebench.flow.kb.models import ToolDef

_T = {
    "start": Text(
        'The workflow "{name}" starts when the user\'s intent is: {labels}.',
        "工作流“{name}”在用户意图为以下之一时开始：{labels}。",
    ),
    "step": Text("Step {id}", "步骤 {id}"),
    "goal": Text("{step} ({subgoal}): {body}", "{step}（{subgoal}）：{body}"),
    "plain": Text("{step}: {body}", "{step}：{body}"),
    "calls": Text("This step calls the API {tool}.", "本步骤调用 API {tool}。"),
    "if": Text('If "{label}", go to step {target}.', "若“{label}”，转到步骤 {target}。"),
    "then": Text("Then go to step {target}.", "然后转到步骤 {target}。"),
    "end": Text("The conversation can end here.", "对话可在此结束。"),
    "first": Text(
        'On "{label}", the workflow goes to step {target}.',
        "意图为“{label}”时，流程进入步骤 {target}。",
    ),
    "aux": Text("Parameters collected in the dialogue:", "对话中收集的参数："),
    "summary": Text(
        'Scenario "{name}": {goals}. Tools: {tools}.',
        "场景“{name}”：{goals}。工具：{tools}。",
    ),
    "none": Text("none", "无"),
}
_SEP = {"en": "; ", "zh": "；"}


def _body(node: Node) -> str:
    text = node.description if node.subgoal is not None else node.text
    return " ".join((text or "").split())


def text_format(name: str, chart: Flowchart, tools: Sequence[ToolDef], language: Language) -> str:
    """The workflow as step-by-step prose."""
    start = chart.start
    out_edges = chart.successors(start.key) if start is not None else []
    labels = [label for label, _ in out_edges if label]
    lines = [_T["start"].get(language).format(name=name, labels=_SEP[language].join(labels))]
    for label, target in out_edges:
        lines.append(
            _T["first"].get(language).format(label=label or "", target=chart.node(target).id)
        )
    for node in chart.nodes:
        if node.kind == "start":
            continue
        step = _T["step"].get(language).format(id=node.id)
        if node.subgoal is not None:
            head = (
                _T["goal"].get(language).format(step=step, subgoal=node.subgoal, body=_body(node))
            )
        else:
            head = _T["plain"].get(language).format(step=step, body=_body(node))
        parts = [head.rstrip(".。") + ("。" if language == "zh" else ".")]
        for tool in tools:
            if node.kind == "tool" and node.mentions(tool.name):
                parts.append(_T["calls"].get(language).format(tool=tool.name))
                break
        successors = chart.successors(node.key)
        for label, target in successors:
            tid = chart.node(target).id
            if label is None:
                parts.append(_T["then"].get(language).format(target=tid))
            else:
                parts.append(_T["if"].get(language).format(label=label, target=tid))
        if not successors:
            parts.append(_T["end"].get(language))
        lines.append(" ".join(parts) if language == "en" else "".join(parts))
    if chart.aux_params:
        lines.append(_T["aux"].get(language))
        lines += [f"- {p.name}: {p.description}" for p in chart.aux_params]
    return "\n".join(lines)


def _ident(name: str) -> str:
    ident = re.sub(r"[^0-9A-Za-z]+", "_", name).strip("_").lower()
    return ident or "workflow"


_C = {
    "doc": Text('"""Workflow: {name}."""', '"""工作流：{name}。"""'),
    "ask": Text("ask_user", "ask_user"),
    "optional": Text("optional", "optional"),
    "say": Text('say("{text}")', 'say("{text}")'),
}


def _quote(text: str) -> str:
    return " ".join(text.split()).replace("\\", "\\\\").replace('"', '\\"')


def code_format(name: str, chart: Flowchart, tools: Sequence[ToolDef], language: Language) -> str:
    """The workflow as Python-style pseudo code: a loop over the current node; API nodes call
    the tool with the parameters asked from the user; transitions test the edge labels."""
    fn = _ident(name) if language == "en" else "workflow"
    lines = [f"def {fn}():", "    " + _C["doc"].get(language).format(name=name)]
    start = chart.start
    first = chart.successors(start.key) if start is not None else []
    lines.append("    intent = listen_user()")
    for i, (label, target) in enumerate(first):
        kw = "if" if i == 0 else "elif"
        lines.append(f'    {kw} intent == "{_quote(label or "")}":')
        lines.append(f'        node = "{chart.node(target).id}"')
    lines.append("    while True:")
    branch = 0
    for node in chart.nodes:
        if node.kind == "start":
            continue
        kw = "if" if branch == 0 else "elif"
        branch += 1
        lines.append(f'        {kw} node == "{node.id}":')
        if node.subgoal is not None:
            lines.append(f"            # {node.subgoal}")
        tool = next((t for t in tools if node.kind == "tool" and node.mentions(t.name)), None)
        body = _quote(_body(node))
        if tool is not None:
            lines.append(f"            # {body}")
            args = ", ".join(
                f'{p}=ask_user("{p}")' if spec.required else f'{p}=ask_user("{p}", optional=True)'
                for p, spec in tool.inputs.items()
            )
            lines.append(f"            result = {tool.name}({args})")
            test = "result_matches"
        else:
            lines.append(f'            say("{body}")')
            test = "user_intent_is"
        for p in node.collected_params:
            lines.append(f'            {p} = ask_user("{p}")')
        successors = chart.successors(node.key)
        if not successors:
            lines.append("            return")
            continue
        conditional = [(lb, t) for lb, t in successors if lb is not None]
        for i, (label, target) in enumerate(conditional):
            ckw = "if" if i == 0 else "elif"
            lines.append(f'            {ckw} {test}("{_quote(label or "")}"):')
            lines.append(f'                node = "{chart.node(target).id}"')
        for label, target in successors:
            if label is None:
                indent = (
                    "            " if not conditional else "            else:\n                "
                )
                lines.append(f'{indent}node = "{chart.node(target).id}"')
    return "\n".join(lines)


def summary_format(
    name: str, chart: Flowchart, tools: Sequence[ToolDef], language: Language
) -> str:
    """A few lines: the scenario's goals in order and its tools."""
    goals = [n.subgoal for n in chart.nodes if n.subgoal]
    if not goals:
        goals = [_body(n).split(".")[0] for n in chart.nodes if n.kind != "start"][:4]
    tool_names = ", ".join(t.name for t in tools) or _T["none"].get(language)
    return (
        _T["summary"]
        .get(language)
        .format(name=name, goals=_SEP[language].join(goals), tools=tool_names)
    )
