"""Checks of gold data against its knowledge base: every session walks a path of the
flowchart, every tool call validates against its tool's schema, every recorded output against
the output schema, and no reply keeps an unfilled placeholder.

The checks read the data the way a consumer does (turn samples and session tasks as loaded),
so they apply to generated files and to any file in the same formats.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence

from lifebench.flow.generate.play import node_tools
from lifebench.flow.generate.session import CAPS
from lifebench.flow.generate.values import unfilled
from lifebench.flow.kb.models import KnowledgeBase, Scenario, ToolDef
from lifebench.flow.tasks.models import UNKNOWN, GoldThought, SessionTask, TurnSample


def _edge_ok(scenario: Scenario, last: str, intent: str, current: str) -> bool:
    """Whether an edge last → current (by id) carries ``intent`` (or no label)."""
    chart = scenario.flowchart
    for edge in chart.expanded_edges:
        source = chart.node(edge.sources[0]).id
        target = chart.node(edge.target).id
        if source == last and target == current and edge.label in (intent, None):
            return True
    return False


def _entry_ok(scenario: Scenario, intent: str, current: str) -> bool:
    """Whether ``current`` is entered from the scenario's start with label ``intent``."""
    start = scenario.flowchart.start
    return start is not None and _edge_ok(scenario, start.id, intent, current)


def _owner(scenarios: list[Scenario], node_id: str) -> Scenario | None:
    return next((s for s in scenarios if node_id in s.flowchart.node_ids), None)


def check_thoughts(
    scenarios: list[Scenario], thoughts: Sequence[GoldThought], where: str
) -> list[str]:
    """Problems of a session's sequence of gold thoughts: each step stays on its node or
    follows an edge whose label is the intent (entering a scenario from its start node), and
    each step starts where the previous one ended (out-of-scope steps aside)."""
    problems = []
    previous: str | None = None
    for i, t in enumerate(thoughts, start=1):
        at = f"{where}, agent turn {i}"
        last, intent, current = t.last_node or "", t.intent or "", t.current_node or ""
        if current == UNKNOWN:
            if intent != UNKNOWN:
                problems.append(f"{at}: out-of-scope turn with intent {intent!r}")
            continue
        scenario = _owner(scenarios, current)
        if scenario is None:
            problems.append(f"{at}: current_node {current} is in none of the scenarios")
            continue
        if previous is not None and last != previous:
            problems.append(f"{at}: last_node {last} but the previous turn ended at {previous}")
        if last != current and not (
            _edge_ok(scenario, last, intent, current) or _entry_ok(scenario, intent, current)
        ):
            problems.append(f"{at}: no edge {last} --{intent}--> {current} in {scenario.name!r}")
        previous = current
    return problems


def check_call(scenarios: list[Scenario], thought: GoldThought, where: str) -> list[str]:
    """A gold tool call: its tool is the one its current node calls, and its arguments
    validate against that tool's schema."""
    name = thought.action or ""
    scenario = _owner(scenarios, thought.current_node or "")
    if scenario is None:
        return [f"{where}: tool call {name} at unknown node {thought.current_node}"]
    calls = node_tools(scenario)
    chart = scenario.flowchart
    node_keys = [n.key for n in chart.nodes if n.id == thought.current_node]
    expected = [calls[k].name for k in node_keys if k in calls]
    problems = []
    if name not in expected:
        problems.append(f"{where}: node {thought.current_node} calls {expected}, not {name}")
    args = thought.arguments()
    if args is None:
        problems.append(f"{where}: Action Input is not a JSON object")
        return problems
    try:
        tool = scenario.tool(name)
    except KeyError:
        return [*problems, f"{where}: scenario {scenario.name!r} has no tool {name}"]
    problems += [f"{where}: {p}" for p in tool.validate_arguments(args)]
    return problems


def _tools(scenarios: list[Scenario]) -> dict[str, ToolDef]:
    out: dict[str, ToolDef] = {}
    for s in scenarios:
        for t in s.tools:
            out.setdefault(t.name, t)
    return out


def check_turn_samples(kb: KnowledgeBase, samples: Sequence[TurnSample]) -> list[str]:
    """Problems of turn-level samples: per session, the gold thoughts walk the flowchart and
    every gold call validates; every recorded output in the histories validates; replies have
    no unfilled placeholders."""
    problems: list[str] = []
    by_session: dict[str, list[TurnSample]] = defaultdict(list)
    for s in samples:
        by_session[s.session_id].append(s)
    for session_id, items in by_session.items():
        items.sort(key=lambda s: s.turn)
        first = items[0]
        scenarios = [kb.scenario(u) for u in first.scenarios]
        if [s.turn for s in items] != list(range(1, len(items) + 1)):
            problems.append(f"session {session_id}: turns are not 1..{len(items)}")
        problems += check_thoughts(
            scenarios, [s.gold.thought for s in items], f"session {session_id}"
        )
        for s in items:
            where = f"turn {s.id}"
            if s.gold.is_tool_turn:
                problems += check_call(scenarios, s.gold.thought, where)
            elif left := unfilled(s.gold.response):
                problems.append(f"{where}: unfilled placeholders {left} in the reply")
        last = items[-1]
        tools = _tools(scenarios)
        history = [*last.history]
        for i, message in enumerate(history):
            if message.role != "function":
                continue
            tool = tools.get(message.name or "")
            if tool is None:
                problems.append(f"session {session_id}: output of unknown tool {message.name}")
                continue
            try:
                value = json.loads(message.content)
            except json.JSONDecodeError:
                problems.append(f"session {session_id}: output of {tool.name} is not JSON")
                continue
            problems += [
                f"session {session_id}, message {i}: {p}" for p in tool.validate_output(value)
            ]
    return problems


def check_session_tasks(kb: KnowledgeBase, tasks: Sequence[SessionTask]) -> list[str]:
    """Problems of session-level tasks: a task-user summary, gold calls that validate (inputs
    and recorded outputs), a gold session within the setting's cap that alternates properly
    (user first; each call answered by its tool's output)."""
    problems: list[str] = []
    for task in tasks:
        where = f"task {task.id}"
        scenarios = [kb.scenario(u) for u in task.scenarios]
        if not task.user_summary.strip():
            problems.append(f"{where}: empty task-user summary")
        for call in task.gold_calls:
            # A name may be defined by several scenarios of a role with different schemas
            # (accountInquiry, …): the call must fit one of them.
            candidates = [t for s in scenarios for t in s.tools if t.name == call.name]
            if not candidates:
                problems.append(f"{where}: gold call of unknown tool {call.name}")
                continue
            found = []
            for tool in candidates:
                found = tool.validate_arguments(call.arguments)
                if call.output is not None:
                    found += tool.validate_output(json.loads(call.output))
                if not found:
                    break
            problems += [f"{where}: {p}" for p in found]
        messages = task.messages
        if messages and messages[0].role != "user":
            problems.append(f"{where}: the gold session does not open with the user")
        agent = [m for m in messages if m.role == "assistant"]
        if len(agent) > CAPS[task.setting]:
            problems.append(f"{where}: {len(agent)} agent turns exceed the {task.setting} cap")
        for i, m in enumerate(messages):
            if m.role == "assistant" and "\nAction:" in m.content:
                nxt = messages[i + 1] if i + 1 < len(messages) else None
                name = m.content.split("\nAction:", 1)[1].split("\n", 1)[0].strip()
                if nxt is None or nxt.role != "function" or nxt.name != name:
                    problems.append(f"{where}, message {i}: call {name} has no output after it")
        calls_in_dialogue = sum(1 for m in messages if m.role == "function")
        if messages and calls_in_dialogue != len(task.gold_calls):
            problems.append(
                f"{where}: {len(task.gold_calls)} gold calls but {calls_in_dialogue} in the dialogue"
            )
    return problems
