"""The travel report: subset scores, raw vs penalised, tool error rates, failures, sandbox."""

from __future__ import annotations

import json
from typing import Any

import pytest
from travel_fakes import Rec, Task, judge_xml, meta_xml, record, simulation, trajectory

from lifebench import suites
from lifebench.evaluation import BasisResult
from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.models import ScriptedModel
from lifebench.reporting import build_report, report_json
from lifebench.travel.grading import report_metrics
from lifebench.travel.grading.evaluator import TravelEvaluator
from lifebench.travel.grading.judge import TravelJudge
from lifebench.travel.grading.offline import OfflineJudge
from lifebench.travel.grading.unsolved import UnsolvedEvaluator


async def _graded(subset: str, script: list[str], sim: Any = None, **kwargs: Any) -> BasisResult:
    judge = TravelJudge(ScriptedModel(script), **kwargs)
    evaluator = TravelEvaluator(judge, UnsolvedEvaluator(), lambda t: t.subset)
    return await evaluator.evaluate(Task(subset=subset), sim or simulation())


async def test_single_subset_run() -> None:
    # a: 5,5,5 no errors, meta 5 → F 100;  b: 3,3,3 with 1 of 2 calls failing, meta 4 → 50×0.5×0.8
    a = await _graded("single", [judge_xml("优秀", "优秀", "优秀"), meta_xml("优秀")])
    sim_b = simulation(trajectory(errors=1), trial=1)
    b = await _graded("single", [judge_xml("一般", "一般", "一般"), meta_xml("较好")], sim_b)
    out = report_metrics([record(a), record(b, sim_b, trial=1)], {"suite": "travel"})
    single = out["travel"]["subsets"]["single"]
    assert out["score"] == pytest.approx((100 + 20) / 2)
    assert out["raw_score"] == pytest.approx((100 + 50) / 2)
    assert single["penalized_score"] == pytest.approx((100 + 25) / 2)
    assert single["tool_error_rate"] == pytest.approx((0 + 0.5) / 2)
    assert single["pooled_tool_error_rate"] == pytest.approx(1 / 3)
    assert single["samples_with_tool_errors"] == 1
    assert single["meta_judge"]["rated"] == 2 and single["meta_judge"]["calibrated"] == 1
    assert single["meta_judge"]["mean"] == 4.5
    assert single["judge_failures"] == 0 and single["n"] == 2
    assert single["dimensions"]["presentation"]["distribution"] == [0, 0, 1, 0, 1]
    assert single["tool_error_rate_buckets"] == [1, 0, 1, 0, 0]
    assert single["meta_judge"]["distribution"] == [0, 0, 0, 1, 1]
    assert "unsolved_accuracy" not in out
    assert out["travel"]["overall"] is None


async def test_judge_failures_are_counted_not_dropped_silently() -> None:
    ok = await _graded("single", [judge_xml("优秀", "优秀", "优秀")], meta_judge=False)
    failed = record(None, error="evaluation failed: travel: judge gave no usable answer", trial=1)
    ungraded = Rec("1", 2, "done", 1, simulation(trial=2), None)
    config = {"suite": "travel", "suite_options": {"subset": "single"}}
    out = report_metrics([record(ok), failed, ungraded], config)
    single = out["travel"]["subsets"]["single"]
    assert single["judge_failures"] == 1 and out["travel"]["judge_failures"] == 1
    assert single["ungraded"] == 1
    assert single["n"] == 1 and single["score"] == 100.0
    # the alternative that counts a failed judge as 0 is reported beside the official number
    assert single["score_failures_as_zero"] == pytest.approx(50.0)


async def test_failed_meta_judges_are_counted() -> None:
    bad = "no idea"
    result = await _graded("single", [judge_xml("优秀", "优秀", "优秀"), bad, bad, bad])
    single = report_metrics([record(result)], {"suite": "travel"})["travel"]["subsets"]["single"]
    assert single["meta_judge"]["failures"] == 1 and single["meta_judge"]["rated"] == 0
    assert single["score"] == 100.0


async def test_missing_dimension_is_counted_and_scored_officially() -> None:
    result = await _graded("single", [judge_xml("优秀", "优秀")], meta_judge=False)
    single = report_metrics([record(result)], {"suite": "travel"})["travel"]["subsets"]["single"]
    assert single["dimensions"]["presentation"]["missing"] == 1
    assert single["mean_instance_score"] == 100.0
    assert single["score"] == pytest.approx(200 / 3)  # the unrated dimension counts 0


async def test_unsolvable_subset_and_rules() -> None:
    tool_first: list[Message] = [
        UserMessage(content="q"),
        AssistantMessage(content="[Unsolved]"),
    ]
    late: list[Message] = [
        UserMessage(content="q"),
        AssistantMessage(content="嗯"),
        AssistantMessage(content="[Unsolved]"),
    ]
    ev = TravelEvaluator(OfflineJudge(), UnsolvedEvaluator("first"), lambda t: t.subset)
    r1 = await ev.evaluate(Task(subset="unsolvable"), simulation(tool_first))
    r2 = await ev.evaluate(Task(subset="unsolvable"), simulation(late, trial=1))
    out = report_metrics(
        [record(r1), record(r2, simulation(late, trial=1), trial=1)], {"suite": "travel"}
    )
    unsolvable = out["travel"]["subsets"]["unsolvable"]
    assert out["unsolved_accuracy"] == 0.5 and out["score"] == 50.0 and out["raw_score"] == 50.0
    assert unsolvable["accuracy_by_rule"] == {"first": 0.5, "final": 1.0, "exact": 1.0}
    assert unsolvable["rule"] == "first" and unsolvable["n"] == 2


def _tagged() -> list[Message]:
    return [UserMessage(content="q"), AssistantMessage(content="[Unsolved]")]


async def test_overall_over_three_subsets() -> None:
    single = await _graded("single", [judge_xml("较好", "较好", "较好")], meta_judge=False)
    multi = await _graded("multi", [judge_xml("一般", "一般", "一般", "一般")], meta_judge=False)
    ev = TravelEvaluator(OfflineJudge(), UnsolvedEvaluator(), lambda t: t.subset)
    unsolved = await ev.evaluate(
        Task(subset="unsolvable"),
        simulation(_tagged()),
    )
    records = [
        record(single, task_id="s"),
        record(multi, task_id="m"),
        record(unsolved, task_id="u"),
    ]
    out = report_metrics(records, {"suite": "travel"})
    assert out["travel"]["overall"] == pytest.approx((50 + 75 + 100) / 3)
    assert out["score"] == out["travel"]["overall"]
    assert out["raw_score"] == pytest.approx((50 + 75 + 100) / 3)
    assert set(out["travel"]["subsets"]) == {"single", "multi", "unsolvable"}


async def test_two_subsets_give_no_single_score() -> None:
    single = await _graded("single", [judge_xml("较好", "较好", "较好")], meta_judge=False)
    multi = await _graded("multi", [judge_xml("一般", "一般", "一般", "一般")], meta_judge=False)
    out = report_metrics(
        [record(single, task_id="s"), record(multi, task_id="m")], {"suite": "travel"}
    )
    assert out["score"] is None and out["travel"]["overall"] is None
    assert out["travel"]["subsets"]["multi"]["score"] == 50.0


async def test_sandbox_counters_and_offline_note() -> None:
    ev = TravelEvaluator(OfflineJudge(), UnsolvedEvaluator(), lambda t: t.subset)
    box1 = {"calls": 3, "cache_hits": 2, "cache_misses": 1, "simulated_calls": 1, "memo_hits": 0}
    box2 = {"calls": 1, "cache_hits": 0, "cache_misses": 1, "simulated_calls": 0, "memo_hits": 1}
    s1, s2 = simulation(sandbox=box1), simulation(sandbox=box2, trial=1)
    r1 = await ev.evaluate(Task(), s1)
    r2 = await ev.evaluate(Task(), s2)
    out = report_metrics([record(r1, s1), record(r2, s2, trial=1)], {"suite": "travel"})
    box = out["travel"]["subsets"]["single"]["sandbox"]
    assert box["cache_hit_rate"] == 0.5 and box["simulated_calls"] == 1 and box["memo_hits"] == 1
    assert box["calls"] == 4
    assert out["travel"]["judge_kind"] == ["offline"]
    assert "not a real judgement" in out["travel"]["note"]
    no_box = report_metrics([record(r1)], {"suite": "travel"})["travel"]["subsets"]["single"]
    assert no_box["sandbox"] == {"reported": False}


async def test_report_json_carries_the_travel_numbers_beside_the_core_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class _Suite:
        def report_metrics(self, records: Any, config: Any) -> Any:
            return report_metrics(records, config)

    monkeypatch.setattr(suites, "get_suite", lambda name: _Suite())
    a = await _graded("single", [judge_xml("优秀", "优秀", "优秀")], meta_judge=False)
    sim_b = simulation(trajectory(errors=1), trial=1)
    b = await _graded("single", [judge_xml("优秀", "优秀", "优秀")], sim_b, meta_judge=False)
    report = build_report([record(a), record(b, sim_b, trial=1)], {"suite": "travel"})
    data = json.loads(report_json(report))
    assert data["score"] == pytest.approx(75.0) and data["raw_score"] == 100.0
    # core: pooled errors / calls over all simulations; travel: mean of per-trajectory rates
    assert data["tool_error_rate"] == pytest.approx(1 / 3)
    assert data["travel"]["subsets"]["single"]["tool_error_rate"] == pytest.approx(0.25)
    assert set(data["suite_metric_names"]) == {"raw_score", "score", "travel"}
    assert data["reward_by_basis"]["travel"] == pytest.approx(0.75)
