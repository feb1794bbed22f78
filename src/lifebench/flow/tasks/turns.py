"""Turn-level lines: the official format (spec §1.2), FlowSwitch's sample format (§1.6), and
ours (the official shape without a rendered system prompt, plus a ``lifebench`` object)."""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from lifebench._util.text import Language
from lifebench.flow._problems import Problems
from lifebench.flow.kb.loader import parse_function_tool
from lifebench.flow.kb.models import KnowledgeBase, ToolDef
from lifebench.flow.tasks.models import (
    FlowMessage,
    GoldThought,
    GoldTurn,
    TurnSample,
    split_official_prompt,
)
from lifebench.flow.tasks.resolve import NODE_ID, Resolved, history_node_ids, resolve

META = "lifebench"
"""Key of our own additions in a line (ignored by the official tools)."""

_TURN_ID = re.compile(r"^(?P<session>.+?)_agent_turn-(?P<k>\d+)$")
_ROLES: dict[str, Literal["user", "assistant", "function"]] = {
    "user": "user",
    "assistant": "assistant",
    "function": "function",
    "tool": "function",
}

LineKind = Literal["turn", "flowswitch", "session", "unknown"]


def line_kind(data: dict[str, Any]) -> LineKind:
    """What a parsed line is: an official (or our) turn line, a FlowSwitch sample, a session."""
    if "turn_id" in data and "ground_truth" in data:
        return "flowswitch"
    if "user_agent" in data or "function_agent" in data or "gt_actions_string" in data:
        return "session"
    if "messages" in data and ("gt_thought" in data or "gt_response" in data):
        return "turn"
    return "unknown"


def split_turn_id(turn_id: str) -> tuple[str, int | None]:
    """(session id, k) of '<session>_agent_turn-<k>'; (turn_id, None) for another shape."""
    match = _TURN_ID.match(turn_id)
    if match is None:
        return turn_id, None
    return match.group("session"), int(match.group("k"))


def parse_messages(
    raw: Any, where: str, field: str, problems: Problems
) -> tuple[str | None, list[FlowMessage]]:
    """(system prompt, history) of a message list; problems are recorded."""
    if not isinstance(raw, list):
        problems.add(where, field, "expected a list of messages")
        return None, []
    system: str | None = None
    out: list[FlowMessage] = []
    for i, msg in enumerate(raw):
        mfield = f"{field}[{i}]"
        if not isinstance(msg, dict):
            problems.add(where, mfield, "expected an object")
            continue
        role = msg.get("role")
        content = msg.get("content")
        if content is None:
            content = ""
        if not isinstance(content, str):
            problems.add(where, f"{mfield}.content", "expected a string")
            continue
        if role == "system":
            if i != 0:
                problems.add(where, f"{mfield}.role", "a system message must come first")
            system = content
            continue
        kind = _ROLES.get(str(role))
        if kind is None:
            problems.add(
                where, f"{mfield}.role", f"unknown role {role!r} (user, assistant, function)"
            )
            continue
        name = msg.get("name")
        if kind == "function" and not isinstance(name, str):
            problems.add(where, f"{mfield}.name", "a function message needs the tool's name")
            continue
        out.append(
            FlowMessage(role=kind, content=content, name=name if kind == "function" else None)
        )
    return system, out


def parse_thought(raw: Any, where: str, field: str, problems: Problems) -> GoldThought:
    """A gold thought from the data's dict (keys last_node, intent, current_node, Action,
    Action Input); an ``Action Input`` given as an object is kept as its JSON text."""
    if raw is None:
        return GoldThought()
    if not isinstance(raw, dict):
        problems.add(where, field, "expected an object")
        return GoldThought()
    values: dict[str, str | None] = {}
    for key, attr in (
        ("last_node", "last_node"),
        ("intent", "intent"),
        ("current_node", "current_node"),
        ("Action", "action"),
        ("Action Input", "action_input"),
    ):
        value = raw.get(key)
        if isinstance(value, dict):
            value = json.dumps(value, ensure_ascii=False)
        if value is not None and not isinstance(value, str):
            problems.add(where, f"{field}.{key}", "expected a string")
            value = None
        values[attr] = value
    return GoldThought(**values)


def parse_tools(raw: Any, where: str, field: str, problems: Problems) -> list[ToolDef] | None:
    """Tools of a line's ``apis`` (workflow_final or function-schema entries); None if absent."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        problems.add(where, field, "expected a list of tools")
        return None
    tools = []
    for i, api in enumerate(raw):
        tool = parse_function_tool(api, where, f"{field}[{i}]", problems)
        if tool is not None:
            tools.append(tool)
    return tools


def _meta(data: dict[str, Any], where: str, problems: Problems) -> dict[str, Any]:
    meta = data.get(META, {})
    if not isinstance(meta, dict):
        problems.add(where, META, "expected an object")
        return {}
    return meta


def _resolved_from_meta(meta: dict[str, Any], where: str, problems: Problems) -> Resolved | None:
    if not meta.get("scenarios") and not meta.get("role"):
        return None
    scenarios = meta.get("scenarios", [])
    setting = meta.get("setting", "single")
    if not isinstance(scenarios, list) or not all(isinstance(s, str) for s in scenarios):
        problems.add(where, f"{META}.scenarios", "expected a list of scenario uuids")
        return None
    if setting not in ("single", "cross"):
        problems.add(where, f"{META}.setting", "expected 'single' or 'cross'")
        return None
    return Resolved(
        domain=str(meta.get("domain", "")),
        role=str(meta.get("role", "")),
        scenarios=tuple(scenarios),
        setting=setting,
    )


def _scenario_tools(kb: KnowledgeBase | None, resolved: Resolved) -> list[ToolDef]:
    if kb is None:
        return []
    return [t for u in resolved.scenarios if kb.has(u) for t in kb.scenario(u).tools]


def parse_turn_line(
    data: dict[str, Any],
    where: str,
    problems: Problems,
    kb: KnowledgeBase | None,
    language: Language,
) -> TurnSample | None:
    """A sample from an official (or our) turn-level line."""
    before = len(problems.items)
    turn_id = data.get("id")
    if not isinstance(turn_id, str) or not turn_id:
        problems.add(where, "id", "missing or not a non-empty string")
        return None
    where = f"{where} (turn {turn_id})"
    system, history = parse_messages(data.get("messages"), where, "messages", problems)
    thought = parse_thought(data.get("gt_thought"), where, "gt_thought", problems)
    response = data.get("gt_response", "")
    content = data.get("gt_content")
    if not isinstance(response, str):
        problems.add(where, "gt_response", "expected a string")
    if content is not None and not isinstance(content, str):
        problems.add(where, "gt_content", "expected a string")
    tools = parse_tools(data.get("apis"), where, "apis", problems)
    meta = _meta(data, where, problems)
    if len(problems.items) > before:
        return None
    nodes = history_node_ids(history, [content or ""]) + _thought_nodes(thought)
    names = [t.name for t in tools or []]
    if tools is None and system:  # no apis: the workflow in the prompt names the tools
        workflow = split_official_prompt(system)[1]
        names = prompt_tool_names(workflow)
        nodes += [n for n in NODE_ID.findall(workflow) if n not in nodes]
    resolved = _resolved_from_meta(meta, where, problems) or resolve(
        kb, node_ids=nodes, tool_names=names
    )
    if tools is None and kb is not None and not resolved.domain:
        problems.add(
            where,
            "apis",
            "missing, and the workflow in messages[0] names no tool or node of the knowledge "
            "base, so the domain and the tools are unknown; give the line its apis",
        )
        return None
    when = str(meta.get("datetime", "")) or (split_official_prompt(system)[2] if system else "")
    session, k = split_turn_id(turn_id)
    lang = meta.get("language", language)
    return TurnSample(
        id=turn_id,
        session_id=session,
        turn=k if k is not None else sum(1 for m in history if m.role == "assistant"),
        domain=resolved.domain,
        role=resolved.role,
        scenarios=resolved.scenarios,
        setting=resolved.setting,
        language="zh" if lang == "zh" else "en",
        datetime=when,
        system_prompt=system,
        history=tuple(history),
        tools=tuple(tools if tools is not None else _scenario_tools(kb, resolved)),
        gold=GoldTurn(thought=thought, response=str(response), content=content),
        source="generated" if meta else "official",
    )


_API_LINE = re.compile(r"^API:\s*(\S+)\s*$", re.MULTILINE)


def prompt_tool_names(workflow: str) -> list[str]:
    """The tool names of the ``API: <name>`` blocks of a rendered workflow (in order)."""
    names: list[str] = []
    for name in _API_LINE.findall(workflow):
        if name not in names:
            names.append(name)
    return names


def _thought_nodes(thought: GoldThought) -> list[str]:
    from lifebench.flow.tasks.resolve import NODE_ID

    return [n for v in (thought.last_node, thought.current_node) if v for n in NODE_ID.findall(v)]


def parse_flowswitch_line(
    data: dict[str, Any],
    where: str,
    problems: Problems,
    kb: KnowledgeBase | None,
    language: Language,
) -> TurnSample | None:
    """A sample from a FlowSwitch line (``turn_id``, ``messages`` without a system prompt,
    ``ground_truth``, ``answer`` / ``last_turn_workflow`` uuids)."""
    before = len(problems.items)
    turn_id = data.get("turn_id")
    if not isinstance(turn_id, str) or not turn_id:
        problems.add(where, "turn_id", "missing or not a non-empty string")
        return None
    where = f"{where} (turn {turn_id})"
    system, history = parse_messages(data.get("messages"), where, "messages", problems)
    truth = data.get("ground_truth")
    if not isinstance(truth, dict):
        problems.add(where, "ground_truth", "expected an object")
        return None
    thought = parse_thought(truth.get("thought"), where, "ground_truth.thought", problems)
    response = truth.get("response", "")
    content = truth.get("content")
    if not isinstance(response, str):
        problems.add(where, "ground_truth.response", "expected a string")
    if content is not None and not isinstance(content, str):
        problems.add(where, "ground_truth.content", "expected a string")
    uuids: list[str] = []
    for key in ("answer", "last_turn_workflow"):
        value = data.get(key, [])
        if value in ("", None):
            continue
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(u, str) for u in value):
            problems.add(where, key, "expected a list of workflow uuids")
            continue
        uuids += [u for u in value if u not in uuids]
    if len(problems.items) > before:
        return None
    if kb is not None:
        unknown = [u for u in uuids if u != "Out of scope" and not kb.has(u)]
        if unknown:
            problems.add(
                where,
                "answer",
                f"workflow {unknown[0]} is not in the knowledge base {kb.source} "
                "(give the FlowBench workflows with --knowledge)",
            )
            return None
    resolved = resolve(
        kb,
        uuids=uuids,
        node_ids=history_node_ids(history, [content or ""]) + _thought_nodes(thought),
    )
    session, k = split_turn_id(turn_id)
    return TurnSample(
        id=turn_id,
        session_id=session,
        turn=k if k is not None else sum(1 for m in history if m.role == "assistant"),
        domain=resolved.domain,
        role=resolved.role,
        scenarios=resolved.scenarios,
        setting=resolved.setting,
        language=language,
        datetime="",
        system_prompt=system,
        history=tuple(history),
        tools=tuple(_scenario_tools(kb, resolved)),
        gold=GoldTurn(thought=thought, response=str(response), content=content),
        source="flowswitch",
    )


def message_data(message: FlowMessage) -> dict[str, Any]:
    """A message in the data's shape."""
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.name is not None:
        out["name"] = message.name
    return out


def turn_line(sample: TurnSample) -> dict[str, Any]:
    """Our turn-level line for ``sample``: the official keys, no rendered system prompt, and
    the sample's domain, role, scenarios, setting, language and time under ``lifebench``."""
    messages = [message_data(m) for m in sample.history]
    if sample.system_prompt is not None:
        messages.insert(0, {"role": "system", "content": sample.system_prompt})
    line: dict[str, Any] = {
        "id": sample.id,
        "messages": messages,
        "apis": [t.data() for t in sample.tools],
        "gt_thought": sample.gold.thought.data(),
        "gt_response": sample.gold.response,
    }
    if sample.gold.content is not None:
        line["gt_content"] = sample.gold.content
    line[META] = {
        "domain": sample.domain,
        "role": sample.role,
        "scenarios": list(sample.scenarios),
        "setting": sample.setting,
        "language": sample.language,
        "datetime": sample.datetime,
    }
    return line
