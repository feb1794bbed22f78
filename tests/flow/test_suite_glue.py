"""Suite glue: domains, task loading per level, stored-task parsing, lint, tools, prompts and
the judges' workflow text."""

from __future__ import annotations

from pathlib import Path

import pytest
from flow_synthetic import LOOK_UUID, PAY_UUID, session_task, turn_samples

from lifebench.errors import InputError
from lifebench.flow.episodes import gold_text, judge_workflow, prompt_scenarios, system_prompt
from lifebench.flow.kb import load_knowledge
from lifebench.flow.lint import lint_units
from lifebench.flow.options import FlowOptions
from lifebench.flow.suite import ALL, FlowSuite, slug
from lifebench.flow.tasks import GoldCall, GoldThought, GoldTurn
from lifebench.suites import RunOptions


def test_slugs_and_domains() -> None:
    assert slug("Travel&Transportation") == "travel-transportation"
    assert slug(" E-tailing Recommandation ") == "e-tailing-recommandation"
    suite = FlowSuite()
    assert suite.domains()[0] == ALL and "public-services" in suite.domains()
    assert suite.resolve_domain(None, None) == ALL
    assert suite.resolve_domain(None, "Customer Service") == "customer-service"
    assert suite.resolve_domain(None, "ALL") == ALL


def test_demo_set_and_wrong_level(world: dict[str, Path]) -> None:
    suite = FlowSuite()
    demo = RunOptions(suite="flow", task_set="demo")
    with pytest.raises(InputError, match="no demo set"):
        suite.load_run_tasks(None, ALL, demo)
    session = RunOptions(
        suite="flow", suite_options={"level": "session", "knowledge": str(world["kb"])}
    )
    with pytest.raises(InputError, match="--level turn"):
        suite.load_run_tasks(world["turns"], ALL, session)


def test_bundled_sets_per_level_and_setting() -> None:
    suite = FlowSuite()
    turn = suite.load_run_tasks(None, ALL, RunOptions(suite="flow"))
    cross = suite.load_run_tasks(
        None, ALL, RunOptions(suite="flow", suite_options={"setting": "cross"})
    )
    sessions = suite.load_run_tasks(
        None, ALL, RunOptions(suite="flow", suite_options={"level": "session"})
    )
    assert {t.setting for t in turn} == {"single"} and {t.setting for t in cross} == {"cross"}
    assert all(hasattr(t, "user_summary") for t in sessions)
    health = suite.load_run_tasks(None, "healthcare", RunOptions(suite="flow"))
    assert 0 < len(health) < len(turn) and {t.domain for t in health} == {"Healthcare"}
    assert len(suite.load_tasks(None, ALL, "en")) == len(turn)


def test_load_tasks_reads_either_level(world: dict[str, Path]) -> None:
    suite = FlowSuite()
    assert len(suite.load_tasks(world["turns"], ALL, "en")) == 4
    (task,) = suite.load_tasks(world["sessions"], ALL, "en")
    assert task.user_summary


def test_parse_task_round_trip() -> None:
    suite = FlowSuite()
    sample, task = turn_samples()[1], session_task()
    assert suite.parse_task(sample.model_dump_json()) == sample
    assert suite.parse_task(task.model_dump_json()) == task


def test_lint_findings() -> None:
    good = turn_samples()[1]
    bad_args = good.model_copy(
        update={"gold": GoldTurn(thought=GoldThought(action="payBill", action_input="{bill"))}
    )
    foreign = good.model_copy(
        update={"gold": GoldTurn(thought=GoldThought(action="nope", action_input="{}"))}
    )
    empty = good.model_copy(update={"gold": GoldTurn(response="  "), "history": ()})
    unknown = good.model_copy(update={"scenarios": ()})
    session = session_task()
    odd = session.model_copy(
        update={
            "user_summary": " ",
            "gold_calls": (GoldCall(name="ghost", arguments={}),),
        }
    )
    none = session.model_copy(update={"gold_calls": ()})
    found = [
        (f.task_id[-1:], f.field, f.severity)
        for f in lint_units([good, bad_args, foreign, empty, unknown, odd, none, "x"])
    ]
    assert found == [
        ("2", "gold.thought.action_input", "error"),
        ("2", "gold.thought.action", "warning"),
        ("2", "gold.response", "error"),
        ("2", "history", "warning"),
        ("2", "scenarios", "warning"),
        ("9", "user_summary", "error"),
        ("9", "gold_calls[0].name", "warning"),
        ("9", "gold_calls[0].output", "warning"),
        ("9", "gold_calls", "warning"),
    ]
    assert FlowSuite().lint([good, session]) == []


def test_toolsets(world: dict[str, Path]) -> None:
    suite = FlowSuite()
    assert suite.toolset(ALL, "en", session_task()).names == ["payBill"]
    every = suite.toolset(ALL, "en")
    some = suite.toolset("healthcare", "en")
    assert 0 < len(some) < len(every)


def test_prompt_and_judge_knowledge(world: dict[str, Path]) -> None:
    kb = load_knowledge(world["kb"])
    sample = turn_samples()[0]
    single = FlowOptions(knowledge_format="code")
    assert [s.uuid for s in prompt_scenarios(kb, sample, "single")] == [PAY_UUID]
    assert [s.uuid for s in prompt_scenarios(kb, sample, "cross")] == [PAY_UUID, LOOK_UUID]
    prompt = system_prompt(kb, sample, single, "en")
    assert "# code of Pay a bill" in prompt and "ROLE DESCRIPTION." in prompt
    assert "DOMAIN DESCRIPTION." in prompt and "Action Input:" in prompt
    native = system_prompt(kb, sample, FlowOptions(agent_mode="function-calling"), "en")
    assert "Action Input:" not in native
    official = sample.model_copy(
        update={"scenarios": (), "role": "", "system_prompt": "OFFICIAL PROMPT"}
    )
    assert system_prompt(kb, official, single, "en") == "OFFICIAL PROMPT"
    bare = official.model_copy(update={"system_prompt": None})
    assert "API: payBill" in system_prompt(kb, bare, single, "en")
    assert "TEXT WORKFLOW OF Pay a bill." in judge_workflow(kb, sample)
    assert judge_workflow(kb, bare).startswith("API: payBill")
    with_knowledge = session_task().model_copy(
        update={"scenarios": (), "knowledge": "OFFICIAL KNOWLEDGE"}
    )
    assert judge_workflow(kb, with_knowledge) == "OFFICIAL KNOWLEDGE"
    marked = official.model_copy(
        update={
            "system_prompt": "Rules.\nYour capabilities are based on the following workflows and API "
            "information:\nTHE WORKFLOW\nPlease note that the current time is:2035-01-01"
        }
    )
    assert judge_workflow(kb, marked) == "THE WORKFLOW"


def test_gold_text() -> None:
    sample = turn_samples()[1]
    assert gold_text(sample.gold) == sample.gold.content
    bare = GoldTurn(
        thought=GoldThought(
            last_node="A1", intent="x", current_node="A2", action="pay", action_input='{"a": 1}'
        )
    )
    assert gold_text(bare) == (
        "Thought: Previous node last_node=A1, Current intention intent=x, Current node current_node=A2.\n"
        'Action: pay\nAction Input: {"a": 1}'
    )
    reply = GoldTurn(response=" Hello ")
    assert gold_text(reply).endswith("current_node=UNK.\nResponse: Hello")
    mismatched = GoldTurn(
        thought=GoldThought(action="pay", action_input="{}"), content="Response: hi"
    )
    assert "Action: pay" in gold_text(mismatched)
