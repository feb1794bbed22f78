"""Walk a scenario's flowchart with a scripted user and write down the gold session.

The walk starts at the start node with the user stating an intent (a start-edge label). At a
tool node the agent asks for the parameters it still lacks (unless the user already gave them),
then calls the tool; the output is shaped so that the branch the walk chose holds. At a reply
node the agent says the node's reply and the user chooses the next edge. The walk ends at a
node without successors. Cross-scenario sessions chain walks over scenarios of one role.
Every agent turn carries the gold thought: previous node, intent (edge label), current node.
"""

from __future__ import annotations

import json
import random
from collections import Counter, deque
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lifebench._util.hashing import derive_seed
from lifebench._util.text import Language
from lifebench.flow.generate import phrases as P
from lifebench.flow.generate.play import EdgeKey, Play
from lifebench.flow.generate.values import (
    ValueHint,
    draw,
    draw_list,
    enumeration,
    fill,
    lookup,
)
from lifebench.flow.kb.models import ParamSpec, ToolDef
from lifebench.flow.tasks.models import (
    UNKNOWN,
    FlowMessage,
    GoldCall,
    GoldThought,
    GoldTurn,
    Setting,
)

CAPS: dict[Setting, int] = {"single": 15, "cross": 20}
"""Most agent turns of a gold session (the paper's session caps), so a replay fits."""

_WEEKDAYS = {
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "zh": ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"],
}
_NEGATIVE = (
    "not",
    "no",
    "none",
    "never",
    "cannot",
    "can't",
    "fail",
    "failed",
    "false",
    "unavailable",
    "unsuccessful",
    "unresolved",
    "incorrect",
    "wrong",
    "mistaken",
    "empty",
    "without",
    "refused",
    "否",
    "不",
    "未",
    "无",
    "失败",
)


class GenerationError(RuntimeError):
    """The generator could not produce a valid session (a bug or an unplayable scenario)."""


@dataclass
class GoldSession:
    """A generated gold session and what the session-level task needs."""

    id: str
    domain: str
    role: str
    scenarios: tuple[str, ...]
    setting: Setting
    language: Language
    datetime: str
    messages: list[FlowMessage]
    gold: dict[int, GoldTurn]
    calls: list[GoldCall]
    user_summary: str
    persona: str
    user_target: str

    @property
    def agent_turns(self) -> int:
        """Number of agent turns (replies and tool calls)."""
        return len(self.gold)


def negative(text: str) -> bool:
    """Whether a label or value reads as a negative outcome ("not found", "failed", "否")."""
    lowered = text.lower()
    words = set(lowered.replace("-", " ").replace("'", "'").split())
    if any(w in words for w in _NEGATIVE if w.isascii()):
        return True
    if any(w.startswith(("un", "in")) and len(w) > 5 and w[2:] in _POSITIVE_STEMS for w in words):
        return True
    return any(w in text for w in _NEGATIVE if not w.isascii())


_POSITIVE_STEMS = {"available", "successful", "resolved", "correct", "satisfied", "paid", "found"}


def _distances(play: Play, to: str | None = None) -> dict[str, int]:
    """Edges from each node to the nearest node without successors (or to node ``to``)."""
    ends = (
        [to]
        if to is not None
        else [n.key for n in play.chart.nodes if not play.chart.successors(n.key)]
    )
    back: dict[str, list[str]] = {}
    for edge in play.chart.expanded_edges:
        back.setdefault(edge.target, []).append(edge.sources[0])
    dist = dict.fromkeys(ends, 0)
    queue = deque(ends)
    while queue:
        key = queue.popleft()
        for src in back.get(key, []):
            if src not in dist:
                dist[src] = dist[key] + 1
                queue.append(src)
    return dist


@dataclass
class _State:
    messages: list[FlowMessage] = field(default_factory=list)
    gold: dict[int, GoldTurn] = field(default_factory=dict)
    calls: list[GoldCall] = field(default_factory=list)
    known: dict[str, Any] = field(default_factory=dict)
    planned: dict[str, Any] = field(default_factory=dict)
    wants: dict[tuple[str, str], bool] = field(default_factory=dict)
    outputs: dict[str, Any] = field(default_factory=dict)
    visits: Counter[tuple[str, str]] = field(default_factory=Counter)
    given: list[str] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)
    avoid: dict[str, Any] = field(default_factory=dict)
    detour_left: bool = False


class SessionWriter:
    """Writes one gold session over ``plays`` (one scenario, or several of one role)."""

    def __init__(
        self,
        plays: list[Play],
        language: Language,
        rng: random.Random,
        usage: Counter[EdgeKey],
        setting: Setting,
        goal: EdgeKey | None = None,
    ) -> None:
        self.plays = plays
        self.goal = goal
        self.to_goal = (
            _distances(plays[0], goal.source) if goal is not None and len(plays) == 1 else {}
        )
        self.language = language
        self.rng = rng
        self.usage = usage
        self.setting = setting
        self.state = _State()
        self.distances = {p.scenario.uuid: _distances(p) for p in plays}
        per_scenario = CAPS[setting] // max(1, len(plays))
        self.soft_limit = max(4, per_scenario - 4)
        self.scenario_turns = 0

    # -- messages -------------------------------------------------------------------------
    @property
    def context(self) -> dict[str, Any]:
        return {**self.state.known, **self.state.outputs}

    def user(self, text: str) -> None:
        self.state.messages.append(FlowMessage(role="user", content=text))

    def head(self, last: str, intent: str, current: str) -> str:
        return P.HEAD.get(self.language).format(last=last, intent=intent, current=current)

    def reply(self, thought: GoldThought, text: str, tail: str) -> None:
        body = f"Thought: {self.head_of(thought)}{tail}\nResponse: {text}"
        self.state.gold[len(self.state.messages)] = GoldTurn(
            thought=thought, response=text, content=body
        )
        self.state.messages.append(FlowMessage(role="assistant", content=body))
        self.scenario_turns += 1

    def head_of(self, thought: GoldThought) -> str:
        return self.head(thought.last_node or "", thought.intent or "", thought.current_node or "")

    def call(self, thought: GoldThought, tool: ToolDef, args: dict[str, Any], output: Any) -> None:
        args_text = json.dumps(args, ensure_ascii=False)
        full = thought.model_copy(update={"action": tool.name, "action_input": args_text})
        tail = P.CALL.get(self.language).format(tool=tool.name, known=P.known_text(args))
        action = f"Action: {tool.name}\nAction Input: {args_text}"
        body = f"Thought: {self.head_of(thought)}{tail}\n{action}"
        self.state.gold[len(self.state.messages)] = GoldTurn(
            thought=full, response=action, content=body
        )
        self.state.messages.append(FlowMessage(role="assistant", content=body))
        out_text = json.dumps(output, ensure_ascii=False)
        self.state.messages.append(FlowMessage(role="function", name=tool.name, content=out_text))
        self.state.calls.append(
            GoldCall(name=tool.name, arguments=args, arguments_text=args_text, output=out_text)
        )
        self.scenario_turns += 1

    # -- values ---------------------------------------------------------------------------
    def hint(self, play: Play, tool: ToolDef, name: str) -> ValueHint:
        return play.param_hint(tool.name, name) or ValueHint()

    def value(self, play: Play, tool: ToolDef, name: str) -> Any:
        """The value the user has given or will give for ``name`` (a value read off an
        earlier output is always the latest one)."""
        spec = tool.inputs[name]
        hint = self.hint(play, tool, name)
        if self.silent_param(play, tool, name):
            return lookup(self.state.outputs, hint.from_output or "")
        if name in self.state.known:
            return self.state.known[name]
        if name in self.state.planned:
            return self.state.planned[name]
        avoid = self.state.avoid.get(name)
        value = self.derived(hint, spec, avoid)
        if value is None:
            value = draw(name, spec, hint, self.rng, self.language, avoid=avoid)
        self.state.planned[name] = value
        return value

    def derived(self, hint: ValueHint, spec: ParamSpec, avoid: Any = None) -> Any:
        """A value read off earlier outputs (``from_output``), or None."""
        if hint.from_output is None:
            return None
        found = lookup(self.state.outputs, hint.from_output)
        if "[]" not in hint.from_output:
            return found
        if not isinstance(found, list) or not found:
            return None
        options = list(dict.fromkeys(json.dumps(v, ensure_ascii=False) for v in found))
        if spec.type in ("list", "array"):
            size = self.rng.randint(1, min(2, len(options)))
            picked = sorted(self.rng.sample(range(len(options)), size))
            value: Any = [json.loads(options[i]) for i in picked]
        else:
            value = json.loads(self.rng.choice(options))
        if value == avoid and len(options) > 1:
            return self.derived(hint, spec, avoid)
        return value

    def choice_param(self, play: Play, tool: ToolDef, name: str) -> bool:
        """A parameter the user picks from an earlier output (said when choosing)."""
        source = self.hint(play, tool, name).from_output
        return source is not None and "[]" in source

    def silent_param(self, play: Play, tool: ToolDef, name: str) -> bool:
        """A parameter the agent reads off an earlier output (never asked)."""
        hint = self.hint(play, tool, name)
        return (
            hint.from_output is not None
            and "[]" not in hint.from_output
            and lookup(self.state.outputs, hint.from_output) is not None
        )

    def needed(self, play: Play, tool: ToolDef) -> list[str]:
        """The parameters this call carries: the required ones and the optional ones the user
        wants (or whose condition holds)."""
        out = []
        for name, spec in tool.inputs.items():
            hint = self.hint(play, tool, name)
            if hint.when:
                if all(self.value(play, tool, k) == v for k, v in hint.when.items()):
                    out.append(name)
                continue
            if spec.required:
                out.append(name)
                continue
            key = (tool.name, name)
            if key not in self.state.wants:
                self.state.wants[key] = self.rng.random() < 0.5
            if self.state.wants[key] or name in self.state.known:
                out.append(name)
        return out

    def missing(self, play: Play, tool: ToolDef) -> list[str]:
        return [
            n
            for n in self.needed(play, tool)
            if n not in self.state.known and not self.silent_param(play, tool, n)
        ]

    def give(self, play: Play, tool: ToolDef, names: list[str]) -> list[str]:
        """The user gives ``names``: returns their phrases and records them as known."""
        out = []
        for name in names:
            value = self.value(play, tool, name)
            self.state.known[name] = value
            self.state.planned.pop(name, None)
            self.state.avoid.pop(name, None)
            hint = self.hint(play, tool, name)
            spec = tool.inputs[name]
            if hint.phrase is None and isinstance(value, dict) and spec.properties:
                parts = [
                    P.param_phrase(
                        k,
                        v,
                        hint.nested.get(k, ValueHint()).phrase,
                        spec.properties.get(k),
                        self.language,
                    )
                    for k, v in value.items()
                ]
                phrase = ("，" if self.language == "zh" else ", ").join(parts)
            else:
                phrase = P.param_phrase(name, value, hint.phrase, spec, self.language)
            out.append(phrase)
            self.state.given.append(phrase)
        return out

    def give_aux(self, play: Play, names: tuple[str, ...]) -> list[str]:
        out = []
        for name in names:
            aux = play.aux.get(name)
            if aux is None:
                continue
            spec = ParamSpec(type="string", description=aux.description)
            value = draw(name, spec, aux.hint, self.rng, self.language)
            self.state.known[name] = value
            phrase = P.param_phrase(name, value, aux.hint.phrase, spec, self.language)
            out.append(phrase)
            self.state.given.append(phrase)
        return out

    def change(self, play: Play, edge: EdgeKey) -> list[str]:
        """The parameters the user changes on a retry edge: said at once when a tool node is
        next, else forgotten (and picked anew, differently, when next needed)."""
        names = play.changes.get(edge, [])
        target_tool = self.next_tool(play, edge.target)
        phrases = []
        for name in names:
            old = self.state.known.pop(name, self.state.planned.pop(name, None))
            self.state.planned.pop(name, None)
            self.state.avoid[name] = old
            if target_tool is not None and name in target_tool.inputs:
                phrases += self.give(play, target_tool, [name])
        return phrases

    def tool_with(self, play: Play, name: str) -> ToolDef | None:
        return next((t for t in play.node_tool.values() if name in t.inputs), None)

    def next_tool(self, play: Play, key: str) -> ToolDef | None:
        """The tool called at ``key`` or, past a reply node, nothing."""
        return play.node_tool.get(key)

    # -- outputs --------------------------------------------------------------------------
    def output(self, play: Play, node: str, tool: ToolDef, edge: EdgeKey | None) -> Any:
        forced = dict(play.outputs.get(edge, {})) if edge is not None else {}
        if edge is not None and edge not in play.outputs and node not in play.user_choice:
            forced.update(self.polarity_output(play, node, tool, edge))
        out: dict[str, Any] = {}
        for name, spec in tool.outputs.items():
            if name in forced:
                out[name] = forced[name]
                continue
            hint = play.output_hints.get((tool.name, name))
            if spec.type in ("list", "array"):
                out[name] = draw_list(spec, hint, self.rng, self.language, self.rng.randint(2, 3))
            else:
                out[name] = draw(name, spec, hint, self.rng, self.language)
        return out

    def polarity_output(
        self, play: Play, node: str, tool: ToolDef, edge: EdgeKey
    ) -> dict[str, Any]:
        """For a branch decided by the output (no authored output): set each enumerated output
        the node's text names to the value whose polarity matches the edge label."""
        if edge.label is None:
            return {}
        text = play.chart.node(node).text
        want_negative = negative(edge.label)
        out: dict[str, Any] = {}
        for name, spec in tool.outputs.items():
            values = enumeration(spec.description)
            if len(values) < 2 or name not in text:
                continue
            matching = [v for v in values if negative(v) == want_negative]
            out[name] = matching[0] if matching else values[0 if not want_negative else -1]
        return out

    # -- walking --------------------------------------------------------------------------
    def choose(self, play: Play, edges: list[EdgeKey]) -> EdgeKey:
        if self.goal is not None and self.to_goal:
            if self.goal in edges:
                edge = self.goal
                self.goal = None
                self.usage[edge] += 1
                return edge
            best = min(self.to_goal.get(e.target, 99) for e in edges)
            if best < 99:
                edge = self.rng.choice([e for e in edges if self.to_goal.get(e.target, 99) == best])
                self.usage[edge] += 1
                return edge
        uuid = play.scenario.uuid
        eligible = [e for e in edges if self.state.visits[(uuid, e.target)] < 3] or list(edges)
        dist = self.distances[uuid]
        if self.scenario_turns >= self.soft_limit:
            best = min(dist.get(e.target, 99) for e in eligible)
            eligible = [e for e in eligible if dist.get(e.target, 99) == best]
        least = min(self.usage[e] for e in eligible)
        pool = [e for e in eligible if self.usage[e] == least]
        edge = self.rng.choice(pool)
        self.usage[edge] += 1
        return edge

    def user_line(self, play: Play, edge: EdgeKey, lead: str, collects: tuple[str, ...]) -> None:
        """The user's line taking ``edge``: ``lead``, values collected at the node, changed
        values, and the parameters of a tool node ahead (always its picks from earlier
        outputs; the rest with even odds)."""
        phrases = self.give_aux(play, collects)
        phrases += self.change(play, edge)
        tool = self.next_tool(play, edge.target)
        if tool is not None:
            picks = [n for n in self.needed(play, tool) if self.choice_param(play, tool, n)]
            for name in picks:
                old = self.state.known.pop(name, None)
                if old is not None:
                    self.state.avoid[name] = old
            missing = self.missing(play, tool)
            rest = [n for n in missing if n not in picks]
            volunteer = picks + (rest if rest and self.rng.random() < 0.5 else [])
            phrases += self.give(play, tool, volunteer)
        self.user(P.join_phrases(lead, phrases, self.language))

    def say(self, play: Play, edge: EdgeKey) -> str:
        if edge in play.says:
            return play.says[edge]
        return P.generic_say(edge.label, self.language)

    def reply_text(self, play: Play, key: str) -> str:
        template = play.replies.get(key)
        if template is None:
            return P.generic_reply(play.chart.node(key), self.context, self.language)
        return fill(template, self.context, self.language)

    def maybe_detour(self, current: str) -> None:
        """Once per session (when drawn), the user asks something off-topic first."""
        if not self.state.detour_left or self.rng.random() < 0.5:
            return
        self.state.detour_left = False
        self.user(self.rng.choice(P.OFF_TOPIC[self.language]))
        thought = GoldThought(last_node=current, intent=UNKNOWN, current_node=UNKNOWN)
        self.reply(thought, P.UNK_REPLY.get(self.language), P.UNK.get(self.language))

    def walk(self, play: Play, last_id: str, prefix: str) -> str:
        """Walk ``play`` from its start; returns the id of the node it ends on."""
        self.scenario_turns = 0
        uuid = play.scenario.uuid
        starts = play.start_edges()
        if not starts:
            raise GenerationError(f"scenario {play.scenario.name!r}: the start node has no edge")
        edge = self.choose(play, starts)
        intent = edge.label or play.scenario.name
        lead = play.says.get(edge) or P.OPEN.get(self.language).format(label=intent)
        if prefix:
            lead = prefix + P.drop_greeting(lead)
        self.user_line(play, edge, lead, ())
        prev = last_id
        key = edge.target
        for _ in range(60):
            self.state.visits[(uuid, key)] += 1
            node = play.chart.node(key)
            tool = play.node_tool.get(key)
            outs = play.out_edges(key)
            if tool is not None:
                edge_out = self.choose(play, outs) if outs else None
                missing = self.missing(play, tool)
                if missing:
                    thought = GoldThought(last_node=prev, intent=intent, current_node=node.id)
                    ask = play.asks.get(key)
                    text = (
                        fill(ask, self.context, self.language)
                        if ask is not None
                        else P.generic_ask([(n, tool.inputs[n]) for n in missing], self.language)
                    )
                    required = [n for n, s in tool.inputs.items() if s.required]
                    optional = [n for n, s in tool.inputs.items() if not s.required]
                    known = {n: self.state.known[n] for n in tool.inputs if n in self.state.known}
                    tail = P.ASK.get(self.language).format(
                        tool=tool.name,
                        required=P.listing(required, self.language),
                        optional=P.listing(optional, self.language),
                        known=P.known_text(known) or P.NONE.get(self.language),
                        missing=", ".join(missing),
                    )
                    self.reply(thought, text, tail)
                    self.user(P.join_phrases("", self.give(play, tool, missing), self.language))
                    prev = node.id
                args = {n: self.value(play, tool, n) for n in self.needed(play, tool)}
                for n, v in args.items():
                    if not self.silent_param(play, tool, n):
                        self.state.known.setdefault(n, v)
                output = self.output(play, key, tool, edge_out)
                thought = GoldThought(last_node=prev, intent=intent, current_node=node.id)
                self.call(thought, tool, args, output)
                self.state.outputs.update(output)
                prev = node.id
                if edge_out is None:
                    stay = GoldThought(last_node=node.id, intent=intent, current_node=node.id)
                    self.reply(stay, self.reply_text(play, key), P.PRESENT.get(self.language))
                    return node.id
                if key in play.user_choice:
                    stay = GoldThought(last_node=node.id, intent=intent, current_node=node.id)
                    self.reply(stay, self.reply_text(play, key), P.PRESENT.get(self.language))
                    self.note_choice(play, key, edge_out)
                    self.maybe_detour(node.id)
                    self.user_line(play, edge_out, self.say(play, edge_out), ())
                intent = edge_out.label or intent
                key = edge_out.target
                continue
            thought = GoldThought(last_node=prev, intent=intent, current_node=node.id)
            self.reply(
                thought,
                self.reply_text(play, key),
                P.NEXT.get(self.language).format(step=P.node_step(node)),
            )
            if not outs:
                return node.id
            edge_out = self.choose(play, outs)
            self.note_choice(play, key, edge_out)
            self.maybe_detour(node.id)
            self.user_line(play, edge_out, self.say(play, edge_out), node.collected_params)
            intent = edge_out.label or intent
            prev = node.id
            key = edge_out.target
        raise GenerationError(f"scenario {play.scenario.name!r}: the walk does not end")

    def note_choice(self, play: Play, key: str, edge: EdgeKey) -> None:
        if edge.label is None:
            return
        if play.says:
            self.state.choices.append(edge.label)
        else:
            step = P.node_step(play.chart.node(key)).split(".")[0]
            self.state.choices.append(f"{step}: {edge.label}")

    def run(self) -> None:
        self.state.detour_left = self.rng.random() < 0.4
        start = self.plays[0].chart.start
        last = start.id if start is not None else ""
        for i, play in enumerate(self.plays):
            prefix = P.THEN_ALSO.get(self.language) if i else ""
            own_start = play.chart.start
            last = self.walk(play, last if i else (own_start.id if own_start else ""), prefix)


def session_datetime(rng: random.Random, language: Language) -> tuple[str, str]:
    """A fictional conversation time in the 2030s: (display string, id stamp)."""
    day = date(rng.randint(2030, 2039), rng.randint(1, 12), rng.randint(1, 28))
    hour, minute = rng.randint(8, 20), rng.choice([0, 5, 15, 20, 30, 40, 45, 50])
    weekday = _WEEKDAYS[language][day.weekday()]
    shown = f"{day.isoformat()} {hour:02d}:{minute:02d}:00 {weekday}"
    stamp = f"{day:%Y%m%d}{hour:02d}{minute:02d}00"
    return shown, stamp


def write_session(
    plays: list[Play],
    language: Language,
    seed: int,
    usage: Counter[EdgeKey],
    setting: Setting,
    attempts: int = 30,
    goal: EdgeKey | None = None,
) -> GoldSession:
    """One gold session over ``plays``, within the setting's agent-turn cap.

    Raises:
        GenerationError: no attempt fits the cap.
    """
    cap = CAPS[setting]
    for attempt in range(attempts):
        rng = random.Random(derive_seed("flow-session", seed, attempt))
        trial_usage = Counter(usage)
        writer = SessionWriter(plays, language, rng, trial_usage, setting, goal)
        writer.run()
        if len(writer.state.gold) > cap:
            continue
        usage.clear()
        usage.update(trial_usage)
        return _finish(writer, plays, language, rng, setting)
    names = ", ".join(p.scenario.name for p in plays)
    raise GenerationError(f"no session of {names} fits in {cap} agent turns")


def _finish(
    writer: SessionWriter,
    plays: list[Play],
    language: Language,
    rng: random.Random,
    setting: Setting,
) -> GoldSession:
    state = writer.state
    shown, stamp = session_datetime(rng, language)
    session_id = stamp + "".join(str(rng.randint(0, 9)) for _ in range(9))
    persona = rng.choice(P.PERSONAS[language])
    goals = []
    for play in plays:
        start = play.start_edges()
        goals.append(play.scenario.name if not start else (start[0].label or play.scenario.name))
    summary = P.summary_text(goals, list(dict.fromkeys(state.given)), state.choices, language)
    target = P.target_text(persona, goals, [c.action_text() for c in state.calls], language)
    first = plays[0].scenario
    return GoldSession(
        id=session_id,
        domain=first.domain,
        role=first.role,
        scenarios=tuple(p.scenario.uuid for p in plays),
        setting=setting,
        language=language,
        datetime=shown,
        messages=state.messages,
        gold=state.gold,
        calls=state.calls,
        user_summary=summary,
        persona=persona,
        user_target=target,
    )
