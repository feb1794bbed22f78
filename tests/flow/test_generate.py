"""The gold-session generator: the bundled data regenerates byte-identically and is valid
(schema-valid calls and outputs, every session a path of its flowchart); the checks catch each
kind of defect; the generator also plays the public workflows."""

from __future__ import annotations

import filecmp
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from lifebench.flow.generate.build import knowledge_of
from lifebench.flow.generate.check import (
    check_session_tasks,
    check_thoughts,
    check_turn_samples,
)
from lifebench.flow.generate.pipeline import (
    GenerateConfig,
    build_bundle,
    bundled_data_dir,
    generate_sessions,
    plays_of,
    session_task,
    turn_samples,
)
from lifebench.flow.generate.play import EdgeKey
from lifebench.flow.generate.session import CAPS, negative, write_session
from lifebench.flow.generate.spec import load_catalogue
from lifebench.flow.kb import load_knowledge
from lifebench.flow.tasks import (
    GoldThought,
    TurnSample,
    bundled_session_tasks,
    bundled_turn_samples,
)

SETTINGS = ("single", "cross")


def test_bundled_data_regenerates_byte_identically(tmp_path: Path) -> None:
    build_bundle(tmp_path)
    shipped = bundled_data_dir()
    files = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file())
    match, mismatch, errors = filecmp.cmpfiles(
        tmp_path, shipped, [str(f) for f in files], shallow=False
    )
    assert mismatch == [] and errors == [] and len(match) == len(files) == 14


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("setting", SETTINGS)
def test_bundled_sets_are_valid(language: str, setting: str) -> None:
    kb = load_knowledge(None, language)  # type: ignore[arg-type]
    samples = bundled_turn_samples(language, setting)  # type: ignore[arg-type]
    tasks = bundled_session_tasks(language, setting)  # type: ignore[arg-type]
    assert check_turn_samples(kb, samples) == []
    assert check_session_tasks(kb, tasks) == []
    assert {s.session_id for s in samples} == {t.id for t in tasks}
    assert sum(s.gold.is_tool_turn for s in samples) == sum(len(t.gold_calls) for t in tasks)
    assert all(len(t.scenarios) == (2 if setting == "cross" else 1) for t in tasks)
    assert all(s.datetime and s.language == language for s in samples)
    assert all(t.user_summary and t.user_target and t.knowledge for t in tasks)


def test_bundled_sizes_and_coverage() -> None:
    kb = load_knowledge(None, "en")
    single = bundled_session_tasks("en", "single")
    cross = bundled_session_tasks("en", "cross")
    assert len(single) == 37 and len(cross) == 12
    assert len(bundled_turn_samples("en", "single")) == 248
    # every edge of every scenario is walked by some single-scenario session
    walked: set[tuple[str, str, str | None]] = set()
    for sample in bundled_turn_samples("en", "single"):
        t = sample.gold.thought
        if t.current_node != "UNK" and t.last_node != t.current_node:
            walked.add((t.last_node or "", t.current_node or "", t.intent))
    for scenario in kb.scenarios:
        chart = scenario.flowchart
        for edge in chart.expanded_edges:
            src, dst = chart.node(edge.sources[0]).id, chart.node(edge.target).id
            assert any(w[0] == src and w[1] == dst for w in walked), (scenario.name, src, dst)
    assert any(s.gold.thought.current_node == "UNK" for s in bundled_turn_samples("en", "single"))


def test_thoughts_keep_the_official_key_value_shape_in_chinese() -> None:
    for sample in bundled_turn_samples("zh", "single")[:40]:
        content = sample.gold.content or ""
        intent = re.search(r"intent=([^,]+),", content)
        node = re.search(r"current_node=([^.]+)\.", content)
        assert intent and intent.group(1) == sample.gold.thought.intent
        assert node and node.group(1) == sample.gold.thought.current_node


def test_same_seed_same_sessions_other_seed_other_sessions() -> None:
    catalogue = load_catalogue()
    kb = knowledge_of(catalogue, "en")
    plays = plays_of(kb, "en", catalogue)
    play = plays[kb.scenarios[2].uuid]
    a = write_session([play], "en", 7, Counter(), "single")
    b = write_session([play], "en", 7, Counter(), "single")
    c = write_session([play], "en", 8, Counter(), "single")
    assert a == b and a.messages != c.messages


def test_sessions_fit_the_caps() -> None:
    for setting in SETTINGS:
        for task in bundled_session_tasks("en", setting):  # type: ignore[arg-type]
            agent_turns = sum(1 for m in task.messages if m.role == "assistant")
            assert agent_turns <= CAPS[setting]  # type: ignore[index]


def test_generator_plays_the_public_workflows(flowbench_dir: Path) -> None:
    kb = load_knowledge(flowbench_dir)
    plays = plays_of(kb, "en")
    sessions = generate_sessions(
        kb, plays, "en", GenerateConfig(sessions_per_scenario=2, cross_sessions_per_role=1)
    )
    # two sessions per scenario, then one steered session per edge not walked yet
    assert len(sessions["single"]) > 102 and len(sessions["cross"]) == 22
    walked = {
        (s.scenarios[0], t.gold.thought.last_node, t.gold.thought.current_node)
        for s in sessions["single"]
        for t in turn_samples(kb, s)
    }
    for scenario in kb.scenarios:
        chart = scenario.flowchart
        for edge in chart.expanded_edges:
            src, dst = chart.node(edge.sources[0]).id, chart.node(edge.target).id
            assert (scenario.uuid, src, dst) in walked, (scenario.name, src, dst)
    for setting in SETTINGS:
        samples = [t for s in sessions[setting] for t in turn_samples(kb, s)]  # type: ignore[index]
        tasks = [session_task(kb, s) for s in sessions[setting]]  # type: ignore[index]
        assert check_turn_samples(kb, samples) == []
        assert check_session_tasks(kb, tasks) == []
        assert sum(s.gold.is_tool_turn for s in samples) > 0


def test_polarity_of_outcomes() -> None:
    assert negative("Apartment is not available") and negative("Reservation failed")
    assert negative("Unsuccessful") and negative("未查到") and negative("NO")
    assert not negative("Apartment is available") and not negative("Successful")
    assert not negative("Yes") and not negative("查到预约")


# --- the checks catch each defect (near misses of valid data) -------------------------------


def _session(setting: str = "single") -> list[TurnSample]:
    samples = bundled_turn_samples("en", setting)  # type: ignore[arg-type]
    first = samples[0].session_id
    return [s for s in samples if s.session_id == first]


def _replace_gold(sample: TurnSample, **thought: str) -> TurnSample:
    gold = sample.gold.model_copy(
        update={"thought": sample.gold.thought.model_copy(update=thought)}
    )
    return sample.model_copy(update={"gold": gold})


def test_check_catches_a_wrong_intent() -> None:
    kb = load_knowledge(None, "en")
    items = _session()
    i = next(
        i for i, s in enumerate(items) if s.gold.thought.last_node != s.gold.thought.current_node
    )
    items[i] = _replace_gold(items[i], intent="Something else")
    problems = check_turn_samples(kb, items)
    assert len(problems) == 1 and "no edge" in problems[0]


def test_check_catches_a_broken_chain_and_a_foreign_node() -> None:
    kb = load_knowledge(None, "en")
    scenario = kb.scenarios[0]
    start = scenario.flowchart.start
    assert start is not None
    label, target = scenario.flowchart.successors(start.key)[0]
    first = GoldThought(
        last_node=start.id, intent=label, current_node=scenario.flowchart.node(target).id
    )
    assert check_thoughts([scenario], [first], "s") == []
    jump = GoldThought(last_node="XX001", intent=label, current_node=first.current_node)
    assert "previous turn ended" in check_thoughts([scenario], [first, jump], "s")[0]
    away = GoldThought(last_node=first.current_node, intent="x", current_node="ZZ999")
    assert "in none of the scenarios" in check_thoughts([scenario], [first, away], "s")[0]
    unk = GoldThought(last_node=first.current_node, intent="Go", current_node="UNK")
    assert "out-of-scope turn with intent" in check_thoughts([scenario], [unk], "s")[0]


def test_check_catches_bad_arguments_and_the_wrong_tool() -> None:
    kb = load_knowledge(None, "en")
    items = _session()
    i = next(i for i, s in enumerate(items) if s.gold.is_tool_turn)
    args = items[i].gold.thought.arguments() or {}
    required = [
        k
        for k, v in kb.scenario(items[i].scenarios[0])
        .tool(items[i].gold.thought.action or "")
        .inputs.items()
        if v.required
    ]
    broken = {k: v for k, v in args.items() if k != required[0]}
    bad_args = list(items)
    bad_args[i] = _replace_gold(items[i], action_input=json.dumps(broken))
    assert any(
        f"'{required[0]}' is a required property" in p for p in check_turn_samples(kb, bad_args)
    )
    other_tool = next(
        t.name
        for t in kb.scenario(items[i].scenarios[0]).tools
        if t.name != items[i].gold.thought.action
    )
    wrong = list(items)
    wrong[i] = _replace_gold(items[i], action=other_tool)
    assert any("calls" in p and f"not {other_tool}" in p for p in check_turn_samples(kb, wrong))


def test_check_catches_invalid_outputs_and_unfilled_replies() -> None:
    kb = load_knowledge(None, "en")
    items = _session()
    last = items[-1]
    j = next(j for j, m in enumerate(last.history) if m.role == "function")
    history = list(last.history)
    output = json.loads(history[j].content)
    key = next(k for k, v in output.items() if isinstance(v, str))
    history[j] = history[j].model_copy(update={"content": json.dumps({**output, key: 5})})
    broken = [*items[:-1], last.model_copy(update={"history": tuple(history)})]
    assert any(
        f"output.{key}: 5 is not of type 'string'" in p for p in check_turn_samples(kb, broken)
    )
    k = next(k for k, s in enumerate(items) if not s.gold.is_tool_turn)
    gold = items[k].gold.model_copy(update={"response": "Your code is {pickup_code}."})
    unfilled = [*items[:k], items[k].model_copy(update={"gold": gold}), *items[k + 1 :]]
    assert any(
        "unfilled placeholders ['pickup_code']" in p for p in check_turn_samples(kb, unfilled)
    )


def test_check_catches_bad_session_tasks() -> None:
    kb = load_knowledge(None, "en")
    task = bundled_session_tasks("en", "single")[0]
    call = task.gold_calls[0]
    bad_call = call.model_copy(update={"arguments": {"nonsense": 1}})
    broken = task.model_copy(update={"gold_calls": (bad_call, *task.gold_calls[1:])})
    assert any("nonsense" in p for p in check_session_tasks(kb, [broken]))
    fewer = task.model_copy(update={"gold_calls": task.gold_calls[1:]})
    assert any("gold calls but" in p for p in check_session_tasks(kb, [fewer]))
    long = task.model_copy(update={"messages": task.messages * 4})
    assert any("exceed the single cap" in p for p in check_session_tasks(kb, [long]))
    empty = task.model_copy(update={"user_summary": " "})
    assert any("empty task-user summary" in p for p in check_session_tasks(kb, [empty]))


def test_edge_usage_spreads_sessions_over_branches() -> None:
    catalogue = load_catalogue()
    kb = knowledge_of(catalogue, "en")
    play = plays_of(kb, "en", catalogue)[kb.scenarios[0].uuid]
    usage: Counter[EdgeKey] = Counter()
    first = write_session([play], "en", 1, usage, "single")
    assert sum(usage.values()) > 0
    second = write_session([play], "en", 1, usage, "single")
    # the same seed with the usage of the first session takes other branches
    assert first.messages != second.messages
