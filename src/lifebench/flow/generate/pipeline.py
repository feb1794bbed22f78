"""Gold sessions for a knowledge base, turned into turn-level samples and session-level tasks,
and the bundled data set (our scenarios in English and Chinese)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lifebench._util.hashing import derive_seed
from lifebench._util.text import LANGUAGES, Language
from lifebench.errors import InputError
from lifebench.flow.generate.build import knowledge_of, write_knowledge
from lifebench.flow.generate.play import EdgeKey, Play, play_from_kb, play_from_spec
from lifebench.flow.generate.session import GoldSession, write_session
from lifebench.flow.generate.spec import Catalogue, load_catalogue
from lifebench.flow.kb.models import KnowledgeBase, Scenario, ToolDef
from lifebench.flow.kb.render import knowledge_text
from lifebench.flow.tasks.models import SessionTask, Setting, TurnSample
from lifebench.flow.tasks.sessions import session_line
from lifebench.flow.tasks.turns import turn_line

SETTINGS: tuple[Setting, ...] = ("single", "cross")


@dataclass(frozen=True)
class GenerateConfig:
    """How many sessions: per scenario (single setting) and per role (cross setting)."""

    sessions_per_scenario: int = 5
    cross_sessions_per_role: int = 4
    seed: int = 0
    candidates: int = 6

    def check(self) -> None:
        """Raise InputError for a count out of range."""
        if not 0 <= self.sessions_per_scenario <= 100:
            raise InputError("must be between 0 and 100", field="--sessions")
        if not 0 <= self.cross_sessions_per_role <= 100:
            raise InputError("must be between 0 and 100", field="--cross")
        if not 1 <= self.candidates <= 50:
            raise InputError("must be between 1 and 50", field="--candidates")


def plays_of(
    kb: KnowledgeBase, language: Language, catalogue: Catalogue | None = None
) -> dict[str, Play]:
    """The play of every scenario: authored where the catalogue has the scenario, inferred
    from the knowledge base otherwise."""
    specs = {s.uuid: s for s in catalogue.scenarios} if catalogue is not None else {}
    out = {}
    for scenario in kb.scenarios:
        spec = specs.get(scenario.uuid)
        out[scenario.uuid] = (
            play_from_spec(spec, scenario, language)
            if spec is not None
            else play_from_kb(scenario, language)
        )
    return out


def generate_sessions(
    kb: KnowledgeBase,
    plays: dict[str, Play],
    language: Language,
    config: GenerateConfig,
) -> dict[Setting, list[GoldSession]]:
    """Single-scenario sessions (per scenario) and cross-scenario ones (per role with two or
    more scenarios, walking two of its scenarios in a row)."""
    out: dict[Setting, list[GoldSession]] = {"single": [], "cross": []}
    for scenario in kb.scenarios:
        if not plays[scenario.uuid].start_edges():
            continue
        usage: Counter[EdgeKey] = Counter()
        for i in range(config.sessions_per_scenario):
            seeds = [
                derive_seed("flow-single", config.seed, scenario.uuid, i, j)
                for j in range(config.candidates)
            ]
            out["single"].append(_best_of([plays[scenario.uuid]], language, seeds, usage, "single"))
        if config.sessions_per_scenario:
            out["single"] += _cover(plays[scenario.uuid], language, config, usage)
    for role in kb.roles():
        members = [s for s in kb.role_scenarios(role) if plays[s.uuid].start_edges()]
        if len(members) < 2:
            continue
        usage = Counter()
        for i in range(config.cross_sessions_per_role):
            first = members[i % len(members)]
            second = members[(i + 1 + i // len(members)) % len(members)]
            if second.uuid == first.uuid:
                second = members[(i + 1) % len(members)]
            seeds = [
                derive_seed("flow-cross", config.seed, role, i, j) for j in range(config.candidates)
            ]
            pair = [plays[first.uuid], plays[second.uuid]]
            out["cross"].append(_best_of(pair, language, seeds, usage, "cross"))
    return out


def _cover(
    play: Play, language: Language, config: GenerateConfig, usage: Counter[EdgeKey]
) -> list[GoldSession]:
    """Extra sessions, one per edge no session has walked yet, each steered to that edge."""
    extra = []
    for edge in [EdgeKey(e.sources[0], e.target, e.label) for e in play.chart.expanded_edges]:
        if usage[edge]:
            continue
        seeds = [
            derive_seed("flow-cover", config.seed, play.scenario.uuid, edge.source, edge.target, j)
            for j in range(config.candidates)
        ]
        for seed in seeds:
            trial: Counter[EdgeKey] = Counter(usage)
            session = write_session([play], language, seed, trial, "single", goal=edge)
            if trial[edge]:
                usage.clear()
                usage.update(trial)
                extra.append(session)
                break
    return extra


def _best_of(
    plays: list[Play],
    language: Language,
    seeds: list[int],
    usage: Counter[EdgeKey],
    setting: Setting,
) -> GoldSession:
    """Of the sessions the seeds give, the one walking the most edges not walked before
    (the first on a tie); ``usage`` is updated with its edges."""
    best: tuple[int, GoldSession, Counter[EdgeKey]] | None = None
    for seed in seeds:
        trial: Counter[EdgeKey] = Counter(usage)
        session = write_session(plays, language, seed, trial, setting)
        new = sum(1 for e, n in trial.items() if n and not usage[e])
        if best is None or new > best[0]:
            best = (new, session, trial)
    assert best is not None
    usage.clear()
    usage.update(best[2])
    return best[1]


def setting_tools(kb: KnowledgeBase, session: GoldSession) -> tuple[ToolDef, ...]:
    """The tools an agent is shown: the session's scenarios' (single) or the role's (cross),
    first definition of each name."""
    scenarios: list[Scenario] = kb.setting_scenarios(
        list(session.scenarios), session.role, session.setting
    )
    tools: dict[str, ToolDef] = {}
    for s in scenarios:
        for t in s.tools:
            tools.setdefault(t.name, t)
    return tuple(tools.values())


def turn_samples(kb: KnowledgeBase, session: GoldSession) -> list[TurnSample]:
    """One turn-level sample per agent turn of ``session``."""
    tools = setting_tools(kb, session)
    samples = []
    for k, index in enumerate(sorted(session.gold), start=1):
        samples.append(
            TurnSample(
                id=f"{session.id}_agent_turn-{k}",
                session_id=session.id,
                turn=k,
                domain=session.domain,
                role=session.role,
                scenarios=session.scenarios,
                setting=session.setting,
                language=session.language,
                datetime=session.datetime,
                history=tuple(session.messages[:index]),
                tools=tools,
                gold=session.gold[index],
                source="generated",
            )
        )
    return samples


def judge_knowledge(kb: KnowledgeBase, session: GoldSession) -> str:
    """The text-format knowledge the completion judge reads (spec §5.5: one canonical format)."""
    scenarios = kb.setting_scenarios(list(session.scenarios), session.role, session.setting)
    return knowledge_text(kb, scenarios, "text", session.language).strip()


def session_task(kb: KnowledgeBase, session: GoldSession) -> SessionTask:
    """The session-level task of ``session``."""
    return SessionTask(
        id=session.id,
        domain=session.domain,
        role=session.role,
        scenarios=session.scenarios,
        setting=session.setting,
        language=session.language,
        datetime=session.datetime,
        user_summary=session.user_summary,
        persona=session.persona,
        user_target=session.user_target,
        gold_calls=tuple(session.calls),
        tools=setting_tools(kb, session),
        system_prompt=None,
        knowledge=judge_knowledge(kb, session),
        messages=tuple(session.messages),
        source="generated",
    )


def _jsonl(lines: list[dict[str, object]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def write_tasks(
    kb: KnowledgeBase, sessions: dict[Setting, list[GoldSession]], out: Path, language: Language
) -> list[Path]:
    """Write ``turn/<language>/<setting>.jsonl`` and ``session/<language>/<setting>.jsonl``."""
    written = []
    for setting in SETTINGS:
        turns = [turn_line(t) for s in sessions[setting] for t in turn_samples(kb, s)]
        tasks = [
            session_line(session_task(kb, s), judge_knowledge(kb, s)) for s in sessions[setting]
        ]
        for level, lines in (("turn", turns), ("session", tasks)):
            path = out / level / language / f"{setting}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_jsonl(lines), encoding="utf-8")
            written.append(path)
    return written


def bundled_data_dir() -> Path:
    """Where the bundled data lives in a source checkout (``src/lifebench/flow/data``)."""
    return Path(__file__).resolve().parents[1] / "data"


def build_bundle(out: Path, config: GenerateConfig | None = None) -> list[Path]:
    """Write the bundled data set: our knowledge base and its generated turn-level samples and
    session-level tasks, in English and Chinese. The same config gives byte-identical files."""
    config = config or GenerateConfig()
    config.check()
    catalogue = load_catalogue()
    written: list[Path] = []
    for language in LANGUAGES:
        kb = knowledge_of(catalogue, language)
        written += write_knowledge(kb, out / "knowledge" / language)
        plays = plays_of(kb, language, catalogue)
        sessions = generate_sessions(kb, plays, language, config)
        written += write_tasks(kb, sessions, out, language)
    return written


def build_for_knowledge(
    kb: KnowledgeBase, out: Path, language: Language, config: GenerateConfig | None = None
) -> list[Path]:
    """Gold sessions for any knowledge base (e.g. the public FlowBench workflows), played with
    inferred plays (generic replies and user lines)."""
    config = config or GenerateConfig()
    config.check()
    plays = plays_of(kb, language)
    sessions = generate_sessions(kb, plays, language, config)
    return write_tasks(kb, sessions, out, language)
