"""Session-level lines: the official format (spec §1.3) and ours (the same keys, no rendered
agent prompt, plus a ``lifebench`` object with the gold session)."""

from __future__ import annotations

import json
import re
from typing import Any

from lifebench._util.text import Language
from lifebench.flow._problems import Problems
from lifebench.flow.kb.loader import function_tool_data
from lifebench.flow.kb.models import KnowledgeBase
from lifebench.flow.tasks.models import (
    KNOWLEDGE_MARKER,
    TIME_MARKER,
    GoldCall,
    SessionTask,
    split_official_prompt,
)
from lifebench.flow.tasks.resolve import NODE_ID, history_node_ids, resolve
from lifebench.flow.tasks.turns import (
    META,
    message_data,
    parse_messages,
    parse_tools,
    prompt_tool_names,
)

_ACTION = re.compile(r"Action\s*:\s*(?:functions\.)?([A-Za-z0-9_]+)", re.I)
_ACTION_INPUT = re.compile(r"Action[ _]Input\s*:\s*", re.I)
_FUNCTION = re.compile(r"^\s*function\s*:\s*", re.I | re.M)


def _json_prefix(text: str) -> tuple[Any, str]:
    """The JSON value at the start of ``text`` (None if none) and the text it spans."""
    stripped = text.lstrip()
    try:
        value, end = json.JSONDecoder().raw_decode(stripped)
    except json.JSONDecodeError:
        return None, ""
    return value, stripped[:end]


def parse_actions(text: str) -> list[GoldCall]:
    """The calls of an ``Action: X`` / ``Action Input: {…}`` list (``gt_actions_string``, or
    ``function_prompt`` whose blocks also carry ``function: <recorded return>``)."""
    calls: list[GoldCall] = []
    starts = [m for m in _ACTION.finditer(text)]
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        block = text[match.end() : end]
        args_text = ""
        arguments: dict[str, Any] = {}
        input_match = _ACTION_INPUT.search(block)
        if input_match is not None:
            value, args_text = _json_prefix(block[input_match.end() :])
            if isinstance(value, dict):
                arguments = value
            elif not args_text:
                args_text = block[input_match.end() :].split("\n", 1)[0].strip()
        output: str | None = None
        func = _FUNCTION.search(block)
        if func is not None:
            value, raw = _json_prefix(block[func.end() :])
            output = raw if raw else block[func.end() :].strip() or None
        calls.append(
            GoldCall(
                name=match.group(1), arguments=arguments, arguments_text=args_text, output=output
            )
        )
    return calls


def _merge_outputs(calls: list[GoldCall], recorded: list[GoldCall]) -> list[GoldCall]:
    """Give each gold call the recorded return of the matching function_prompt entry (same name
    and arguments; each entry used once, in order)."""
    pool = list(recorded)
    out = []
    for call in calls:
        for i, rec in enumerate(pool):
            if rec.name == call.name and rec.arguments == call.arguments:
                out.append(call.model_copy(update={"output": rec.output}))
                del pool[i]
                break
        else:
            out.append(call)
    return out


def parse_session_line(
    data: dict[str, Any],
    where: str,
    problems: Problems,
    kb: KnowledgeBase | None,
    language: Language,
) -> SessionTask | None:
    """A task from an official (or our) session-level line."""
    before = len(problems.items)
    task_id = data.get("id")
    if not isinstance(task_id, (str, int)) or task_id == "":
        problems.add(where, "id", "missing or not a non-empty string")
        return None
    task_id = str(task_id)
    where = f"{where} (task {task_id})"
    user = _object(data, "user_agent", where, problems)
    function = _object(data, "function_agent", where, problems)
    assistant = _object(data, "assistant_agent", where, problems)
    summary = user.get("first_turn_hint")
    if not isinstance(summary, str) or not summary.strip():
        problems.add(where, "user_agent.first_turn_hint", "missing or not a non-empty string")
    persona = user.get("every_turn_hint", "")
    strings = {
        "datetime": data.get("datetime", ""),
        "user_target": data.get("user_target", ""),
        "gt_actions_string": data.get("gt_actions_string", ""),
        "function_agent.function_prompt": function.get("function_prompt", ""),
        "user_agent.every_turn_hint": persona,
    }
    for field, value in strings.items():
        if value is not None and not isinstance(value, str):
            problems.add(where, field, "expected a string")
    system = assistant.get("assistant_prompt")
    judge_prompt = data.get("assistant_prompt")
    for field, value in (
        ("assistant_agent.assistant_prompt", system),
        ("assistant_prompt", judge_prompt),
    ):
        if value is not None and not isinstance(value, str):
            problems.add(where, field, "expected a string")
    functions = function.get("functions_with_response")
    if functions is not None and "apis" in data and not isinstance(data["apis"], list):
        problems.add(where, "apis", "expected a list")  # unused here, yet never ignored wrong
    tools = parse_tools(
        functions if functions is not None else data.get("apis"),
        where,
        "function_agent.functions_with_response" if functions is not None else "apis",
        problems,
    )
    meta = data.get(META, {})
    if not isinstance(meta, dict):
        problems.add(where, META, "expected an object")
        meta = {}
    _, messages = parse_messages(meta.get("messages", []), where, f"{META}.messages", problems)
    if len(problems.items) > before:
        return None
    calls = parse_actions(str(strings["gt_actions_string"] or ""))
    recorded = parse_actions(str(strings["function_agent.function_prompt"] or ""))
    calls = _merge_outputs(calls, recorded)
    knowledge_source = judge_prompt if isinstance(judge_prompt, str) else system
    knowledge = split_official_prompt(knowledge_source)[1] if knowledge_source else None
    if meta.get("scenarios") or meta.get("role"):
        domain, role = str(meta.get("domain", "")), str(meta.get("role", ""))
        scenarios = tuple(str(s) for s in meta.get("scenarios", []))
        setting = "cross" if meta.get("setting") == "cross" else "single"
    else:
        nodes = history_node_ids(messages)
        names = [t.name for t in tools or []]
        if tools is None and knowledge:  # no apis: the workflow in the prompt names the tools
            names = prompt_tool_names(knowledge)
            nodes += [n for n in NODE_ID.findall(knowledge) if n not in nodes]
        resolved = resolve(kb, node_ids=nodes, tool_names=names)
        if tools is None and kb is not None and not resolved.domain:
            problems.add(
                where,
                "apis",
                "missing (and no function_agent.functions_with_response), and the workflow of "
                "the assistant prompt names no tool or node of the knowledge base, so the "
                "domain and the tools are unknown; give the line its apis",
            )
            return None
        if tools is None and kb is not None:
            tools = [t for u in resolved.scenarios if kb.has(u) for t in kb.scenario(u).tools]
        domain, role, scenarios, setting = (
            resolved.domain,
            resolved.role,
            resolved.scenarios,
            resolved.setting,
        )
    lang = meta.get("language", language)
    return SessionTask(
        id=task_id,
        domain=domain,
        role=role,
        scenarios=scenarios,
        setting=setting,
        language="zh" if lang == "zh" else "en",
        datetime=str(strings["datetime"] or ""),
        user_summary=str(summary),
        persona=str(persona or ""),
        user_target=str(strings["user_target"] or ""),
        gold_calls=tuple(calls),
        tools=tuple(tools or []),
        system_prompt=system if isinstance(system, str) and system else None,
        knowledge=knowledge or None,
        messages=tuple(messages),
        source="generated" if meta else "official",
    )


def _object(data: dict[str, Any], key: str, where: str, problems: Problems) -> dict[str, Any]:
    value = data.get(key, {})
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.add(where, key, "expected an object")
        return {}
    return value


def judge_prompt_text(knowledge: str, datetime: str) -> str:
    """The official top-level ``assistant_prompt`` shape around ``knowledge`` (the judge's
    workflow text sits between the marker and the time line)."""
    return f"{KNOWLEDGE_MARKER}\n{knowledge}\n\n{TIME_MARKER}{datetime}"


def session_line(task: SessionTask, scenarios_text_knowledge: str) -> dict[str, Any]:
    """Our session-level line for ``task`` (official keys + ``lifebench``); the judge's
    knowledge is ``scenarios_text_knowledge`` (the text-format workflow and API blocks)."""
    function_prompt = "\n\n".join(
        f"{c.action_text()}\nfunction: {c.output}" for c in task.gold_calls if c.output is not None
    )
    return {
        "id": task.id,
        "apis": [t.data() for t in task.tools],
        "datetime": task.datetime,
        "assistant_agent": {"assistant_prompt": task.system_prompt},
        "assistant_prompt": judge_prompt_text(scenarios_text_knowledge, task.datetime),
        "user_agent": {"first_turn_hint": task.user_summary, "every_turn_hint": task.persona},
        "function_agent": {
            "functions_with_response": [function_tool_data(t) for t in task.tools],
            "function_prompt": function_prompt,
        },
        "user_target": task.user_target,
        "gt_actions_string": "\n\n".join(c.action_text() for c in task.gold_calls),
        META: {
            "domain": task.domain,
            "role": task.role,
            "scenarios": list(task.scenarios),
            "setting": task.setting,
            "language": task.language,
            "messages": [message_data(m) for m in task.messages],
        },
    }
