"""Building FlowBench episodes: the agent's knowledge and prompt, its tools, the agent, the
user, and the environment, for a turn sample (static episode) or a session task."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lifebench.flow.agents.convert import to_messages
from lifebench.flow.agents.gold import GoldAgent
from lifebench.flow.agents.native import NativeAgent
from lifebench.flow.agents.prompts import agent_prompt
from lifebench.flow.agents.react import ReActAgent
from lifebench.flow.kb import KnowledgeBase, Scenario, ToolDef, background, knowledge_text
from lifebench.flow.options import FlowOptions
from lifebench.flow.simulators.environment import FlowEnvironment, SessionTools, ToolSimulator
from lifebench.flow.simulators.prompts import user_prompt
from lifebench.flow.simulators.user import FlowUser
from lifebench.flow.tasks.models import GoldTurn, SessionTask, TurnSample, split_official_prompt
from lifebench.models import ChatModel, GenerateConfig
from lifebench.simulation import (
    Agent,
    Episode,
    Limits,
    NoopAgent,
    ScriptedUser,
    UserSimulator,
)
from lifebench.suites import RunOptions

Unit = TurnSample | SessionTask


def prompt_scenarios(kb: KnowledgeBase, unit: Unit, setting: str) -> list[Scenario]:
    """The scenarios whose knowledge the agent gets: the unit's own (single) or every scenario
    of its role (cross); empty when the knowledge base knows neither."""
    if setting == "cross" and unit.role and kb.role_scenarios(unit.role):
        return kb.role_scenarios(unit.role)
    return [kb.scenario(s) for s in unit.scenarios if kb.has(s)]


def agent_tools(kb: KnowledgeBase, unit: Unit, setting: str) -> list[ToolDef]:
    """The tools the agent may call: the prompt scenarios' tools and the unit's own, each name
    once (the first definition wins; the environment accepts any same-named definition)."""
    seen: dict[str, ToolDef] = {}
    for s in prompt_scenarios(kb, unit, setting):
        for t in s.tools:
            seen.setdefault(t.name, t)
    for t in unit.tools:
        seen.setdefault(t.name, t)
    return list(seen.values())


def environment_tools(kb: KnowledgeBase, unit: Unit, setting: str) -> list[ToolDef]:
    """Every definition the environment accepts (same-named tools of several scenarios kept)."""
    defs: list[ToolDef] = list(unit.tools)
    for s in prompt_scenarios(kb, unit, setting):
        defs.extend(t for t in s.tools if t not in defs)
    return defs


def system_prompt(kb: KnowledgeBase, unit: Unit, fo: FlowOptions, language: Any) -> str:
    """The agent's prompt: our rules + the knowledge of ``fo.knowledge_format`` from the KB.

    A unit whose scenarios the KB does not know runs with the official prompt it carries
    (verbatim; the format option then does not apply), else with its tools only.
    """
    mode = "react" if fo.agent_mode == "react" else "function-calling"
    scenarios = prompt_scenarios(kb, unit, fo.setting)
    if scenarios:
        knowledge = knowledge_text(kb, scenarios, fo.knowledge_format, language)
        bg = background(kb, unit.role)
    elif unit.system_prompt:
        return unit.system_prompt
    else:
        knowledge = "\n\n".join(t.api_block() for t in unit.tools)
        bg = ""
    return agent_prompt(
        background=bg,
        knowledge=knowledge,
        now=unit.datetime,
        knowledge_format=fo.knowledge_format,
        mode=mode,
        language=language,
    )


def judge_workflow(kb: KnowledgeBase, unit: Unit) -> str:
    """What the judges read as the workflow: the text format of the unit's own scenarios with
    their API blocks (the paper's canonical format, whatever the agent was given); else the
    knowledge an official file carries; else the tools."""
    scenarios = [kb.scenario(s) for s in unit.scenarios if kb.has(s)]
    if scenarios:
        return knowledge_text(kb, scenarios, "text")
    if isinstance(unit, SessionTask) and unit.knowledge:
        return unit.knowledge
    if unit.system_prompt:
        knowledge = split_official_prompt(unit.system_prompt)[1]
        if knowledge:
            return knowledge
    return "\n\n".join(t.api_block() for t in unit.tools)


def gold_text(gold: GoldTurn) -> str:
    """The gold turn as ReAct text (the data's full text when it agrees with the thought)."""
    from lifebench.flow.agents.parse import parse_react

    thought = gold.thought
    if gold.content and parse_react(gold.content).action == (thought.action or None):
        return gold.content
    head = (
        f"Thought: Previous node last_node={thought.last_node or 'UNK'}, Current intention "
        f"intent={thought.intent or 'UNK'}, Current node current_node="
        f"{thought.current_node or 'UNK'}."
    )
    if thought.action:
        return f"{head}\nAction: {thought.action}\nAction Input: {thought.action_input or '{}'}"
    return f"{head}\nResponse: {gold.response.strip()}"


def build_agent(
    kind: str,
    unit: Unit,
    kb: KnowledgeBase,
    fo: FlowOptions,
    options: RunOptions,
    model: ChatModel | None,
    config: GenerateConfig,
) -> Agent:
    """The agent of ``kind`` (llm, gold, noop) for ``unit``."""
    tools = agent_tools(kb, unit, fo.setting)
    names = [t.name for t in tools]
    if kind == "noop":
        return NoopAgent()
    if kind == "gold":
        if isinstance(unit, TurnSample):
            said = [m.content for m in unit.history if m.role == "assistant"]
            return GoldAgent([*said, gold_text(unit.gold)], names)
        return GoldAgent([m.content for m in unit.messages if m.role == "assistant"], names)
    if model is None:
        raise ValueError("the llm agent needs a model")
    prompt = system_prompt(kb, unit, fo, options.language)
    if fo.agent_mode == "function-calling":
        return NativeAgent(model, prompt, [t.openai_schema() for t in tools], config)
    return ReActAgent(
        model,
        prompt,
        tool_names=names,
        config=config,
        format_retries=fo.format_retries,
        language=options.language,
    )


def turn_episode(
    sample: TurnSample, trial: int, seed: int, agent: Agent, tools: Sequence[ToolDef]
) -> Episode:
    """A static episode: the agent predicts the turn after the sample's gold history."""
    history = tuple(to_messages(sample.history))
    return Episode(
        task_id=sample.id,
        trial=trial,
        seed=seed,
        environment=FlowEnvironment(SessionTools(tools, [], sample.datetime)),
        agent=agent,
        user=ScriptedUser([]),
        greeting=None,
        history=history,
        predict_at=(len(history),),
    )


def session_user(
    kind: str, task: SessionTask, model: ChatModel | None, config: GenerateConfig, language: Any
) -> UserSimulator:
    """The user of a session: the gold user lines (scripted) or the LLM simulator."""
    if kind == "scripted":
        return ScriptedUser(task.user_lines or [task.user_summary])
    if model is None:
        raise ValueError("the llm user needs a model")
    prompt = user_prompt(task.user_summary, task.persona, task.datetime, language)
    return FlowUser(model, prompt, config, language)


def session_episode(
    task: SessionTask,
    trial: int,
    seed: int,
    agent: Agent,
    user: UserSimulator,
    tools: Sequence[ToolDef],
    simulator: ToolSimulator | None,
    options: RunOptions,
    turn_cap: int,
) -> Episode:
    """A simulated session: the user speaks first; the agent has ``turn_cap`` actions."""
    env = FlowEnvironment(SessionTools(tools, task.gold_calls, task.datetime, simulator))
    return Episode(
        task_id=task.id,
        trial=trial,
        seed=seed,
        environment=env,
        agent=agent,
        user=user,
        greeting=None,
        limits=Limits(
            max_steps=options.max_steps,
            max_errors=options.max_errors,
            max_agent_messages=turn_cap,
        ),
    )
