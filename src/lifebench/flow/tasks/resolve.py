"""Which scenarios a sample is about, read off what it carries (uuids, node ids, tool names)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lifebench.flow.kb.models import KnowledgeBase, Scenario
from lifebench.flow.tasks.models import FlowMessage, Setting

NODE_ID = re.compile(r"\b[A-Z]{2}\d{3}\b")
_THOUGHT_NODES = re.compile(r"(?:last_node|current_node)\s*=\s*([^,.\n]+)")


@dataclass(frozen=True)
class Resolved:
    """Domain, role, scenarios and setting of a sample ('' / () when unknown)."""

    domain: str = ""
    role: str = ""
    scenarios: tuple[str, ...] = ()
    setting: Setting = "single"


def thought_node_ids(texts: Iterable[str]) -> list[str]:
    """Node ids named as ``last_node=`` / ``current_node=`` in thoughts (AND/OR lists split)."""
    found: list[str] = []
    for text in texts:
        for match in _THOUGHT_NODES.finditer(text):
            for node in NODE_ID.findall(match.group(1)):
                if node not in found:
                    found.append(node)
    return found


def history_node_ids(history: Sequence[FlowMessage], extra: Iterable[str] = ()) -> list[str]:
    """Node ids in the assistant thoughts of ``history`` and in ``extra`` texts."""
    texts = [m.content for m in history if m.role == "assistant"]
    return thought_node_ids([*texts, *extra])


def resolve(
    kb: KnowledgeBase | None,
    *,
    uuids: Sequence[str] = (),
    node_ids: Sequence[str] = (),
    tool_names: Sequence[str] = (),
) -> Resolved:
    """The scenarios a sample is about.

    Known ``uuids`` decide the role; node ids named in thoughts add the scenarios (of that
    role) whose charts hold them; without either, the scenarios whose tools are all among
    ``tool_names``. The setting is cross when the sample touches several scenarios, or when
    its tool list covers tools of more than the chosen scenarios of the role (an official
    cross-scenario prompt lists every tool of the role)."""
    if kb is None:
        return Resolved()
    chosen: list[Scenario] = [kb.scenario(u) for u in uuids if kb.has(u)]
    role = _majority(s.role for s in chosen)
    by_nodes = [s for s in kb.scenarios if any(n in s.flowchart.node_ids for n in node_ids)]
    if role is None and by_nodes:
        tools = set(tool_names)
        scored = [s for s in by_nodes if not tools or tools & set(s.tool_names())] or by_nodes
        role = _majority(s.role for s in scored)
    if role is None and tool_names:
        tools = set(tool_names)
        covered = [s for s in kb.scenarios if s.tools and set(s.tool_names()) <= tools]
        role = _majority(s.role for s in covered)
        if role is not None and not by_nodes:
            by_nodes = [s for s in covered if s.role == role]
    if role is None:
        return Resolved()
    for s in by_nodes:
        if s.role == role and s not in chosen:
            chosen.append(s)
    if not chosen:
        return Resolved(domain=kb.role_scenarios(role)[0].domain, role=role)
    setting: Setting = "cross" if len(chosen) > 1 else "single"
    if setting == "single" and tool_names:
        own = set(chosen[0].tool_names())
        others = {t for s in kb.role_scenarios(role) if s not in chosen for t in s.tool_names()}
        if (set(tool_names) - own) & others:
            setting = "cross"
    return Resolved(
        domain=chosen[0].domain,
        role=role,
        scenarios=tuple(s.uuid for s in chosen),
        setting=setting,
    )


def _majority(roles: Iterable[str]) -> str | None:
    counts = Counter(roles)
    if not counts:
        return None
    return counts.most_common(1)[0][0]
