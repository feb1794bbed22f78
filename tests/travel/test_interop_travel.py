"""Importing the official TravelBench inference and evaluation outputs (synthetic files of our
own in the official layout)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.errors import InputError
from lifebench.runner import RunStore
from lifebench.simulation import TerminationReason
from lifebench.travel.interop import import_official_travel

CONTEXT = "**用户当前位置坐标**\nlatitude: 30.57280\nlongitude: 104.06680"


def _msgs(
    final: str, *, error: bool = False, first_text: str | None = None
) -> list[dict[str, Any]]:
    call = {
        "id": "call_1",
        "name": "weather_current_conditions",
        "arguments": {"location": "成都市"},
    }
    return [
        {"role": "system", "content": "你是一个旅行助手", "timestamp": "t"},
        {"role": "user", "content": "成都天气", "timestamp": "t", "turn_idx": 1},
        {
            "role": "assistant",
            "content": first_text,
            "tool_calls": [call],
            "timestamp": "t",
            "turn_idx": 1,
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
            "cost": None,
        },
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "name": "weather_current_conditions",
            "content": '{"error": "bad"}' if error else "晴 22℃",
            "error": error,
            "timestamp": "t",
            "turn_idx": 1,
        },
        {
            "role": "assistant",
            "content": final,
            "tool_calls": None,
            "timestamp": "t",
            "turn_idx": 1,
            "usage": {"prompt_tokens": 150, "completion_tokens": 30, "total_tokens": 180},
            "cost": 0.01,
        },
    ]


def _result(trace: str, trial: int, conv: str, **kw: Any) -> dict[str, Any]:
    base = {
        "trace_id": trace,
        "mode": "single_turn",
        "trial_id": trial,
        "query": "成都天气",
        "context": CONTEXT,
        "success": True,
        "conversation_id": conv,
        "turns": 1,
        "duration": 2.5,
        "completion_reason": "completed",
        "tool_calls_count": 1,
        "total_steps": 2,
        "cache_hits": 1,
        "cache_misses": 0,
        "tool_errors": 0,
        "messages": _msgs("成都现在晴，22℃。"),
    }
    return {**base, **kw}


def _inference(tmp: Path, results: list[dict[str, Any]], mode: str = "single_turn") -> Path:
    path = tmp / "inference.json"
    summary = {
        "total_datas": 2,
        "mode": mode,
        "config": {
            "agent_llm": "agent-x",
            "user_llm": "user-y",
            "tool_llm": "tool-z",
            "num_trials": 2,
            "mode": mode,
        },
    }
    path.write_text(json.dumps({"summary": summary, "results": results}, ensure_ascii=False))
    return path


def _judge_entry(
    conv: str,
    trajectory: dict[str, Any],
    ratings: list[int],
    meta: int | None,
    calls: int = 1,
    errors: int = 0,
) -> dict[str, Any]:
    dims = ["reasoning_planning", "summarization_extraction", "presentation"]
    words = {1: "极差", 2: "较差", 3: "一般", 4: "较好", 5: "优秀"}
    return {
        "index": 0,
        "conversation_id": conv,
        "query": "成都天气",
        "mode": "single-turn",
        "original_trajectory": trajectory,
        "evaluation": {
            "parsed_result": {
                d: {"reasoning": f"r-{d}", "rating": words[r]}
                for d, r in zip(dims, ratings, strict=True)
            },
            "scores": {
                **{f"{d}_score": r for d, r in zip(dims, ratings, strict=True)},
                "average_score": sum(ratings) / 3,
            },
            "tool_calls_count": calls,
            "tool_errors": errors,
            "meta_judge_result": None
            if meta is None
            else {"meta_score": meta, "meta_rating": words[meta]},
            "final_scores": {"average_score": 0.0},
        },
    }


def _report(run: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["report", str(run), "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_inference_plus_judge_evaluation(tmp_path: Path) -> None:
    a = _result("1", 0, "c-a")
    b = _result("1", 1, "c-b", tool_calls_count=2, tool_errors=1, messages=_msgs("晴", error=True))
    failed = {
        "trace_id": "2",
        "mode": "single_turn",
        "trial_id": 0,
        "query": "q",
        "success": False,
        "error": "boom",
    }
    inference = _inference(tmp_path, [a, b, failed])
    evaluation = tmp_path / "single-turn_eval.json"
    evaluation.write_text(
        json.dumps(
            [_judge_entry("c-a", a, [5, 5, 5], 5), _judge_entry("c-b", b, [4, 4, 5], 4, 2, 1)]
        )
    )
    run = tmp_path / "run"
    assert import_official_travel(inference, run, evaluation=evaluation) == 3
    assert import_official_travel(inference, run, evaluation=evaluation) == 0  # no-op again

    store = RunStore.read(run)
    try:
        records = {(r.task_id, r.trial): r for r in store.results()}
        config = store.config()
    finally:
        store.close()
    assert config["suite"] == "travel" and config["suite_options"] == {"subset": "single"}
    assert config["agent_model"] == "agent-x" and config["tool_model"] == "tool-z"
    assert records[("2", 0)].status == "infra_error"
    sim = records[("1", 1)].simulation
    assert sim is not None
    assert (sim.tool_calls, sim.tool_errors) == (2, 1)
    assert sim.termination is TerminationReason.MAX_TURNS
    assert sim.agent_usage.prompt_tokens == 250 and sim.agent_usage.cost == pytest.approx(0.01)
    assert sim.final_state["sandbox"]["cache_hits"] == 1
    assert [m.role for m in sim.messages] == ["system", "user", "assistant", "tool", "assistant"]
    call = sim.messages[2].tool_calls[0]  # type: ignore[union-attr]
    assert json.loads(call.arguments) == {"location": "成都市"}
    assert sim.messages[3].error is True  # type: ignore[union-attr]
    verdict = records[("1", 1)].evaluation
    assert verdict is not None and set(verdict.by_basis) == {"official"}
    info = verdict.by_basis["official"].info
    assert info["ratings"]["presentation"] == 5 and info["meta_score"] == 4
    assert info["method"] == "judge" and info["judge_kind"] == "official"

    report = _report(run)
    # a: 100; b: ((13/3 − 1)/4 × 100) × (1 − 1/2) × 4/5 = 33.33 → mean 66.67 (official formula)
    assert report["score"] == pytest.approx((100 + 100 / 3) / 2)
    assert report["raw_score"] == pytest.approx((100 + 250 / 3) / 2)
    single = report["travel"]["subsets"]["single"]
    assert single["tool_error_rate"] == pytest.approx(0.25)
    assert single["sandbox"]["cache_hit_rate"] == 1.0
    assert report["n_errors"] == 1


def test_judge_evaluation_file_alone(tmp_path: Path) -> None:
    a = _result("7", 0, "c-7")
    evaluation = tmp_path / "multi-turn_eval.json"
    a_multi = {
        **a,
        "mode": "multi_turn",
        "completion_reason": "user_ended",
        "user_profile": "### 基本信息",
    }
    entry = _judge_entry("c-7", a_multi, [3, 3, 3], None)
    entry["mode"] = "multi-turn"
    entry["evaluation"]["scores"]["user_interaction_score"] = 3
    evaluation.write_text(json.dumps([entry], ensure_ascii=False))
    run = tmp_path / "run"
    assert import_official_travel(evaluation, run) == 1
    report = _report(run)
    multi = report["travel"]["subsets"]["multi"]
    assert multi["score"] == 50.0 and multi["meta_judge"]["enabled"] == 0
    store = RunStore.read(run)
    try:
        (record,) = store.results()
        task = json.loads(store.task_data()["7"])
    finally:
        store.close()
    assert record.simulation is not None
    assert record.simulation.termination is TerminationReason.USER_STOP
    assert task["user_profile"] == "### 基本信息" and task["subset"] == "multi"


def test_unsolved_inference_and_evaluation(tmp_path: Path) -> None:
    tagged = _result("1", 0, "u-1", messages=_msgs("[Unsolved]", first_text=""))
    direct = _result(
        "2",
        0,
        "u-2",
        tool_calls_count=0,
        messages=[
            {"role": "user", "content": "放首歌"},
            {"role": "assistant", "content": "[Unsolved]", "tool_calls": None},
        ],
    )
    inference = _inference(tmp_path, [tagged, direct], mode="unsolved")
    evaluation = tmp_path / "unsolved_eval.json"
    evaluation.write_text(
        json.dumps(
            [
                {
                    "conversation_id": "u-1",
                    "first_assistant_reply": "",
                    "has_unsolved": False,
                    "unsolved_score": 0,
                },
                {
                    "conversation_id": "u-2",
                    "first_assistant_reply": "[Unsolved]",
                    "has_unsolved": True,
                    "unsolved_score": 1,
                },
            ]
        )
    )
    run = tmp_path / "run"
    assert import_official_travel(inference, run, evaluation=evaluation) == 2
    report = _report(run)
    unsolvable = report["travel"]["subsets"]["unsolvable"]
    assert report["unsolved_accuracy"] == 0.5 and report["score"] == 50.0
    assert unsolvable["accuracy_by_rule"] == {"first": 0.5, "final": 1.0, "exact": 1.0}


def test_rows_restore_time_and_intent(tmp_path: Path) -> None:
    inference = _inference(tmp_path, [_result("1", 0, "c")])
    rows = tmp_path / "single_turn.jsonl"
    rows.write_text(
        json.dumps(
            {
                "trace_id": "1",
                "time": "2025-10-24 10:00",
                "query": "成都天气",
                "context": CONTEXT,
                "intent": "查询成都实时天气",
                "primary_intent": "dynamic_information.realtime_weather",
            },
            ensure_ascii=False,
        )
        + "\n"
    )
    run = tmp_path / "run"
    import_official_travel(inference, run, tasks=rows)
    store = RunStore.read(run)
    try:
        task = json.loads(store.task_data()["1"])
    finally:
        store.close()
    assert task["time"] == "2025-10-24 10:00" and task["intent"] == "查询成都实时天气"


def test_subset_from_the_file_name_or_the_option(tmp_path: Path) -> None:
    path = tmp_path / "multi_turn.json"
    path.write_text(json.dumps({"results": [_result("1", 0, "c")]}))
    import_official_travel(path, tmp_path / "a")
    store = RunStore.read(tmp_path / "a")
    try:
        assert store.config()["suite_options"] == {"subset": "multi"}
    finally:
        store.close()
    odd = tmp_path / "results.json"
    odd.write_text(json.dumps({"results": [_result("1", 0, "c")]}))
    with pytest.raises(InputError, match="--subset"):
        import_official_travel(odd, tmp_path / "b")
    assert import_official_travel(odd, tmp_path / "c", subset="single") == 1


def test_unreadable_inputs_are_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "single_turn.json"
    bad.write_text("{not json")
    with pytest.raises(InputError, match="invalid JSON at line 1"):
        import_official_travel(bad, tmp_path / "r")
    bad.write_text(json.dumps({"something": []}))
    with pytest.raises(InputError, match="not an official TravelBench"):
        import_official_travel(bad, tmp_path / "r")


def test_cli_dispatches_on_suite(tmp_path: Path) -> None:
    inference = _inference(tmp_path, [_result("1", 0, "c")])
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["import", str(inference), "--out", str(out), "--suite", "travel"]
    )
    assert result.exit_code == 0, result.stderr
    assert "imported 1 simulations" in result.stdout
    bad = CliRunner().invoke(app, ["import", str(inference), "--out", str(out), "--suite", "flow"])
    assert bad.exit_code == 2
    # without --suite the file is read as VitaBench's, as before
    vita = CliRunner().invoke(app, ["import", str(inference), "--out", str(tmp_path / "v")])
    assert vita.exit_code == 2 and "VitaBench" in vita.stderr
