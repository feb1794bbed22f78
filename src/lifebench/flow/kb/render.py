"""The knowledge an agent is given: each scenario's workflow in the chosen format and its tools.

Formats (paper Table 3 and Table 5): ``none`` (tools only), ``text``, ``code``, ``flowchart``,
``ensemble`` (text, code and flowchart together) and ``none-no-tools`` (no workflow; tools
reduced to their names and parameter names). The result is what follows the prompt's "your
capabilities are based on the following workflows and API information" line; the prompt itself
is the agent's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from lifebench._util.text import Language, Text
from lifebench.flow.flowchart import strip_stray_colon
from lifebench.flow.kb.models import KnowledgeBase, Scenario, WorkflowFormat

KnowledgeFormat = Literal["none", "text", "code", "flowchart", "ensemble", "none-no-tools"]

_FORMATS_OF: dict[KnowledgeFormat, tuple[WorkflowFormat, ...]] = {
    "none": (),
    "none-no-tools": (),
    "text": ("text",),
    "code": ("code",),
    "flowchart": ("flowchart",),
    "ensemble": ("text", "code", "flowchart"),
}

_SCENARIO = Text("Scenario: {name}", "场景：{name}")
_WORKFLOW = Text("Workflow ({fmt}):", "工作流（{fmt}）：")
_TOOLS = Text("API information:", "API 信息：")
_TOOL_NAMES = Text("Tools (names and parameter names only):", "工具（仅工具名与参数名）：")
_NO_TOOLS = Text("(no tools)", "（无工具）")
_FORMAT_NAMES: dict[WorkflowFormat, Text] = {
    "text": Text("text", "文本"),
    "code": Text("code", "代码"),
    "flowchart": Text("flowchart", "流程图"),
    "summary": Text("summary", "摘要"),
}


def workflow_text(scenario: Scenario, fmt: WorkflowFormat) -> str:
    """One scenario's workflow in ``fmt`` (the flowchart without the data's stray colon).

    Raises:
        KeyError: the knowledge base has no workflow of that format for the scenario.
    """
    try:
        text = scenario.workflows[fmt]
    except KeyError:
        raise KeyError(f"scenario {scenario.name!r} has no {fmt} workflow") from None
    return strip_stray_colon(text).strip() if fmt == "flowchart" else text.strip()


def scenario_knowledge(scenario: Scenario, fmt: KnowledgeFormat, language: Language) -> str:
    """One scenario's block: a heading, the workflow(s) of ``fmt``, then its tools."""
    parts = [_SCENARIO.get(language).format(name=scenario.name)]
    for wf in _FORMATS_OF[fmt]:
        label = _WORKFLOW.get(language).format(fmt=_FORMAT_NAMES[wf].get(language))
        parts.append(f"{label}\n{workflow_text(scenario, wf)}")
    if fmt == "none-no-tools":
        names = "\n".join(t.signature() for t in scenario.tools) or _NO_TOOLS.get(language)
        parts.append(f"{_TOOL_NAMES.get(language)}\n{names}")
    else:
        blocks = "\n\n".join(t.api_block() for t in scenario.tools) or _NO_TOOLS.get(language)
        parts.append(f"{_TOOLS.get(language)}\n{blocks}")
    return "\n\n".join(parts)


def knowledge_text(
    kb: KnowledgeBase,
    scenarios: Sequence[Scenario | str],
    fmt: KnowledgeFormat,
    language: Language | None = None,
) -> str:
    """The knowledge of ``scenarios`` (one block each, in order) in format ``fmt``."""
    lang = language or kb.language
    blocks = [scenario_knowledge(kb.scenario(s), fmt, lang) for s in scenarios]
    return "\n\n\n".join(blocks)


def background(kb: KnowledgeBase, role: str) -> str:
    """The task background of ``role``: its description and its domain's (empty when the
    knowledge source has neither)."""
    domains = {s.domain for s in kb.role_scenarios(role)}
    parts = [kb.role_description(role)]
    parts += [kb.domain_description(d) for d in sorted(domains)]
    return "\n".join(p for p in parts if p)
