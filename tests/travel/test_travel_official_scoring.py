"""lifebench's official-mode TravelBench numbers against the official code's, on crafted inputs.

``tests/official/travelbench_scoring.json`` holds our inputs (judge and meta-judge answers,
trajectories, failed runs) and what the official scoring printed for them (see
``tests/official/README.md``). Here the same answers go through lifebench's judge (a scripted
model answers every call the way the official judge was answered), the stored results through
``official_comparison``, and every official number must come out exactly.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from travel_fakes import Rec, Task

from id_rules import readable_id
from lifebench.messages import AssistantMessage, Message, ToolCall, UserMessage
from lifebench.metrics import ScorePair
from lifebench.models import ScriptedModel
from lifebench.runner._experiment import evaluate
from lifebench.simulation import Simulation, TerminationReason
from lifebench.travel.grading.evaluator import TravelEvaluator
from lifebench.travel.grading.judge import TravelJudge
from lifebench.travel.grading.official import (
    official_judgement,
    read_judge_answer,
    read_meta_answer,
    repair_tags,
)
from lifebench.travel.grading.report import _judged_unit, _unsolved_unit, official_comparison
from lifebench.travel.grading.scoring import dimensions_of
from lifebench.travel.grading.unsolved import UnsolvedEvaluator

FIXTURE = Path(__file__).parents[1] / "official" / "travelbench_scoring.json"
DATA = json.loads(FIXTURE.read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = DATA["cases"]
OFFICIAL: dict[str, Any] = DATA["official"]


def _messages(case: dict[str, Any]) -> list[Message]:
    if "messages" not in case:
        return [UserMessage(content=case["query"]), AssistantMessage(content="回答")]
    out: list[Message] = []
    for m in case["messages"]:
        if m["role"] == "user":
            out.append(UserMessage(content=m["content"]))
        elif m["role"] == "assistant":
            calls = [
                ToolCall(id=f"c{i}", name=c["name"], arguments=json.dumps(c["arguments"]))
                for i, c in enumerate(m.get("tool_calls", []))
            ]
            out.append(AssistantMessage(content=m["content"], tool_calls=calls))
    return out


async def _record(case: dict[str, Any]) -> Rec:
    if case["failed"]:
        return Rec(case["id"], 0, "infra_error", 1, None, None)
    sim = Simulation(
        task_id=case["id"],
        trial=0,
        seed=1,
        messages=_messages(case),
        termination=TerminationReason.USER_STOP,
        tool_calls=case.get("tool_calls", 0),
        tool_errors=case.get("tool_errors", 0),
    )
    judge = TravelJudge(
        ScriptedModel(case.get("answers") or ["-"], repeat_last=True),
        meta_model=ScriptedModel(case.get("meta") or ["-"], repeat_last=True),
    )
    evaluator = TravelEvaluator(judge, UnsolvedEvaluator(), lambda t: t.subset)
    task = Task(id=case["id"], subset=case["subset"], query=case["query"])
    evaluation = await evaluate(task, sim, {"travel": evaluator}, ["travel"])
    return Rec(case["id"], 0, "done", 1, sim, evaluation)


@pytest.fixture(scope="module")
def records() -> list[Rec]:
    async def build() -> list[Rec]:
        return [await _record(c) for c in CASES]

    return asyncio.run(build())


def test_the_fixture_has_at_least_forty_inputs_per_subset() -> None:
    for subset in ("single", "multi", "unsolvable"):
        assert sum(1 for c in CASES if c["subset"] == subset) >= 40


def test_every_official_number_comes_out_exactly(records: list[Rec]) -> None:
    comparison = official_comparison(records, {"suite": "travel"})
    pairs: dict[str, ScorePair] = {p.metric: p for p in comparison.pairs}
    single = OFFICIAL["single"]["final_average_scores_100"]["overall_average"]
    multi = OFFICIAL["multi"]["final_average_scores_100"]["overall_average"]
    assert pairs["single"].official == single
    assert pairs["multi"].official == multi
    assert pairs["unsolvable"].official == OFFICIAL["unsolvable"]["unsolved_accuracy"] * 100
    assert pairs["overall"].official == float(OFFICIAL["eval_sh"]["overall"])
    assert comparison.pairs[0].metric == "overall"


@pytest.mark.parametrize("subset", ["single", "multi"])
def test_each_trajectory_is_kept_or_dropped_and_scored_as_officially(
    records: list[Rec], subset: str
) -> None:
    expected = OFFICIAL[subset]["final_average_by_case"]
    by_id = {r.task_id: r for r in records}
    for case_id, final in expected.items():
        unit = _judged_unit(by_id[case_id], subset)
        if final is None:
            assert unit.theirs is None, case_id
        else:
            assert unit.theirs is not None and not isinstance(unit.theirs, bool), case_id
            assert unit.theirs.final == final, case_id
    kept = sum(1 for v in expected.values() if v is not None)
    assert kept == OFFICIAL[subset]["total_trajectories"]


def test_each_unsolvable_verdict_as_officially(records: list[Rec]) -> None:
    by_id = {r.task_id: r for r in records}
    for case_id, verdict in OFFICIAL["unsolvable"]["has_unsolved_by_case"].items():
        assert _unsolved_unit(by_id[case_id]).theirs is verdict, case_id


def test_the_differences_are_explained_by_class(records: list[Rec]) -> None:
    comparison = official_comparison(records, {"suite": "travel"})
    failed = sum(1 for c in CASES if c["failed"])
    assert comparison.classes == {
        "duplicate_block_first_vs_last": 4,  # a template echo, two rated blocks (×2 subsets)
        "failed_run_scored_zero": failed,
        "meta_unread_officially": 10,  # decorated, English, unclosed, no XML, empty, "&"
        "official_drops_no_exact_rating": 14,
        "official_drops_unparsable_xml": 18,  # "<5km", "&", no XML, empty, tag repair fails
        "rating_not_an_exact_level_word": 4,  # a decorated rating beside exact ones
    }
    assert (comparison.units, comparison.differing_units) == (len(CASES), 58)
    # lifebench leaves failed runs and unreadable-only-officially answers out, or reads them
    pairs = {p.metric: p for p in comparison.pairs}
    assert pairs["unsolvable"].lifebench == 40.0  # 16 of the 40 that ran; officially 16 of 44
    head = comparison.pairs[0]
    assert head.lifebench_ci is not None and head.official_ci is not None
    assert head.official_ci[0] < head.official < head.official_ci[1]


@pytest.mark.parametrize(
    "fact", OFFICIAL["repair_and_read"], ids=lambda f: readable_id(f["text"][:30])
)
def test_the_tag_repair_and_the_reading_are_the_official_ones(fact: dict[str, Any]) -> None:
    assert repair_tags(fact["text"], fact["dimensions"]) == fact["repaired"]
    reading = read_judge_answer(fact["text"], fact["dimensions"])
    if fact["ratings"] is None:
        assert reading is None
    else:
        assert reading is not None
        assert {d: t or "" for d, t in reading.ratings.items()} == fact["ratings"]


@pytest.mark.parametrize("fact", OFFICIAL["meta_read"], ids=lambda f: readable_id(f["text"][:30]))
def test_the_meta_reading_is_the_official_one(fact: dict[str, Any]) -> None:
    assert read_meta_answer(fact["text"]) == fact["rating"]


def test_the_first_block_and_exact_words_only() -> None:
    dims = dimensions_of("single")
    two = (
        "<response><presentation><reasoning>a</reasoning><rating>优秀</rating></presentation>"
        "<presentation><reasoning>b</reasoning><rating>较差</rating></presentation></response>"
    )
    reading = read_judge_answer(two, dims)
    assert reading is not None and reading.values()["presentation"] == 5
    decorated = "<response><presentation><rating>**较好**</rating></presentation></response>"
    assert official_judgement([decorated], dims) is None  # nothing rated: dropped
    # only the first answer counts: the official judge asks the same prompt again
    assert official_judgement(["nonsense", two], dims) is None
