"""Turn level through the runner: gold and noop bounds on the shared samples and on a synthetic
world, the agent's prompt per knowledge format and setting, the judge evaluators."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from lifebench.errors import InputError
from lifebench.messages import AssistantMessage, Usage
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.reporting import build_report
from lifebench.runner import Progress, RunStore
from lifebench.runner._experiment import run_experiment
from lifebench.suites import RunOptions


def _run(
    out: Path,
    tasks: Path,
    knowledge: Path,
    factory: ModelFactory | None = None,
    **kw: Any,
) -> dict[str, Any]:
    suite_options = {"knowledge": str(knowledge), **kw.pop("suite_options", {})}
    options = RunOptions(
        suite="flow",
        tasks_file=str(tasks),
        out=str(out),
        quiet=True,
        concurrency=1,
        suite_options=suite_options,
        **kw,
    )
    asyncio.run(run_experiment(options, models=factory, progress=Progress(quiet=True)))
    store = RunStore.read(out)
    try:
        report = build_report(store.results(), store.config())
    finally:
        store.close()
    return json.loads(report.model_dump_json())


def test_shared_samples_gold_is_perfect_and_noop_recalls_nothing(
    tmp_path: Path, sample_turns: Path, flowbench_dir: Path
) -> None:
    gold = _run(tmp_path / "gold", sample_turns, flowbench_dir, agent="gold")
    assert gold["turns"] == 5
    assert gold["tool_f1"] == 1.0 and gold["param_f1"] == 1.0
    assert gold["tool_precision"] == 1.0 and gold["tool_recall"] == 1.0
    assert gold["node_accuracy"] == 1.0 and gold["avg_reward"] == 1.0
    assert set(gold["by_domain"]) == {
        "Customer Service",
        "Logistics Solutions",
        "Travel&Transportation",
    }
    noop = _run(tmp_path / "noop", sample_turns, flowbench_dir, agent="noop")
    assert noop["tool_recall"] == 0.0 and noop["param_recall"] == 0.0
    assert noop["tool_f1"] == 0.0


def test_synthetic_world_bounds(tmp_path: Path, world: dict[str, Path]) -> None:
    gold = _run(tmp_path / "gold", world["turns"], world["kb"], agent="gold")
    assert (gold["turns"], gold["tool_f1"], gold["param_f1"], gold["node_accuracy"]) == (
        4,
        1.0,
        1.0,
        1.0,
    )
    assert gold["turn_counts"]["params"]["n_gold"] == 2  # the empty "method" is not counted
    noop = _run(tmp_path / "noop", world["turns"], world["kb"], agent="noop")
    assert noop["tool_recall"] == 0.0 and noop["node_accuracy"] == 0.0
    assert noop["avg_reward"] == 0.75  # the three reply turns: a reply and no call


def _react(*texts: str) -> ScriptedModel:
    return ScriptedModel(
        [
            AssistantMessage(content=t, usage=Usage(prompt_tokens=50, completion_tokens=5))
            for t in texts
        ]
    )


def test_llm_agent_prompt_follows_format_and_setting(
    tmp_path: Path, world: dict[str, Path]
) -> None:
    seen: dict[str, str] = {}
    for fmt, setting in (("flowchart", "single"), ("text", "single"), ("none", "cross")):
        model = _react("Thought: t\nResponse: ok")
        factory = ModelFactory()
        factory.register("a", model)
        _run(
            tmp_path / f"{fmt}-{setting}",
            world["turns"],
            world["kb"],
            factory,
            agent="llm",
            agent_model="a",
            task_ids=("20350305100000123456789_agent_turn-1",),
            suite_options={"knowledge_format": fmt, "setting": setting},
        )
        seen[f"{fmt}-{setting}"] = model.calls[0].messages[0].content
    chart, text, none = seen["flowchart-single"], seen["text-single"], seen["none-cross"]
    assert "PB001[Ask for the bill id" in chart and "TEXT WORKFLOW" not in chart
    assert "Look up a bill" not in chart  # single: only the session's scenario
    assert "TEXT WORKFLOW OF Pay a bill." in text and "PB001" not in text
    assert "Look up a bill" in none and "lookupBill" in none and "TEXT WORKFLOW" not in none
    for prompt in seen.values():
        assert "ROLE DESCRIPTION." in prompt and "2035-03-05 10:00:00 Monday" in prompt


def test_llm_agent_scores(tmp_path: Path, world: dict[str, Path]) -> None:
    # turn 2 is the payBill call: right name, wrong amount; the others reply
    script = [
        "Thought: last_node=PB000, intent=Pay a bill, current_node=PB001.\nResponse: Bill id?",
        'Thought: current_node=PB002.\nAction: payBill\nAction Input: {"bill_id": "b-77", "amount": 100}',
        "Thought: current_node=PB003.\nResponse: Paid.",
        "Thought: current_node=PB003.\nAction: payBill\nAction Input: {}",
    ]
    factory = ModelFactory()
    factory.register("a", _react(*script))
    rep = _run(tmp_path / "llm", world["turns"], world["kb"], factory, agent="llm", agent_model="a")
    tools = rep["turn_counts"]["tools"]
    assert (tools["tp"], tools["n_pred"], tools["n_gold"]) == (0, 2, 1)
    params = rep["turn_counts"]["params"]
    assert (params["tp"], params["n_pred"], params["n_gold"]) == (1, 2, 2)
    assert rep["node_accuracy"] == 0.75  # PB001, PB002, PB003 right; PB004 expected last
    assert rep["tokens"]["agent"]["prompt"] == 50.0


def test_judge_evaluator_scores_replies_and_matches_fuzzily(
    tmp_path: Path, world: dict[str, Path]
) -> None:
    script = [
        "Thought: current_node=PB001.\nResponse: What's the bill?",
        'Thought: current_node=PB002.\nAction: payBill\nAction Input: {"bill_id": "bill seventy-seven", "amount": 120}',
        "Thought: current_node=PB003.\nResponse: Paid.",
        "Thought: current_node=PB004.\nResponse: Bye.",
    ]

    def judge(messages: Any, tools: Any) -> str:
        system = messages[0].content
        if "same thing" in system:
            return '{"same": true}'
        return '{"score": 7, "reason": "close"}'

    factory = ModelFactory()
    factory.register("a", _react(*script))
    judge_model = ScriptedModel([judge], repeat_last=True)
    factory.register("j", judge_model)
    rep = _run(
        tmp_path / "judged",
        world["turns"],
        world["kb"],
        factory,
        agent="llm",
        agent_model="a",
        judge_model="j",
    )
    assert rep["tool_f1"] == 1.0  # "bill seventy-seven" accepted by the judge
    assert rep["response_score"] == 7.0 and rep["response_scored"] == 3
    responses = [c for c in judge_model.calls if "neutral grader" in c.messages[0].content]
    assert len(responses) == 3
    assert "TEXT WORKFLOW OF Pay a bill." in responses[0].messages[-1].content
    assert rep["usage_by_basis"]["response"]["calls"] == 3


def test_wrong_level_and_unknown_domain_are_clear_errors(
    tmp_path: Path, world: dict[str, Path]
) -> None:
    with pytest.raises(InputError, match="--level turn"):
        _run(tmp_path / "a", world["turns"], world["kb"], suite_options={"level": "session"})
    with pytest.raises(InputError, match="customer-service"):
        _run(tmp_path / "b", world["turns"], world["kb"], domain="travel")
    ok = _run(tmp_path / "c", world["turns"], world["kb"], domain="Customer Service")
    assert ok["turns"] == 4


def test_function_calling_agent(tmp_path: Path, world: dict[str, Path]) -> None:
    from lifebench.messages import ToolCall

    script = [
        AssistantMessage(content="Which bill and amount?"),
        AssistantMessage(
            tool_calls=[
                ToolCall(id="x", name="payBill", arguments='{"bill_id": "B-77", "amount": 120}')
            ]
        ),
        AssistantMessage(content="Paid."),
        AssistantMessage(content="Bye."),
    ]
    model = ScriptedModel(script)
    factory = ModelFactory()
    factory.register("a", model)
    rep = _run(
        tmp_path / "fc",
        world["turns"],
        world["kb"],
        factory,
        agent="llm",
        agent_model="a",
        suite_options={"agent_mode": "function-calling", "knowledge_format": "text"},
    )
    assert (rep["tool_f1"], rep["param_f1"], rep["avg_reward"]) == (1.0, 1.0, 1.0)
    first = model.calls[0]
    assert first.tools is not None and [t["function"]["name"] for t in first.tools] == ["payBill"]
    third = model.calls[2].messages  # history: user, reply, user, call, tool result
    assert [m.role for m in third] == ["system", "user", "assistant", "user", "assistant", "tool"]
    assert all(getattr(m, "reasoning", None) is None for m in third)
