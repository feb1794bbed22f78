"""TravelBench end to end through the CLI against the loopback mock server: an LLM agent, user
simulator, tool simulator and judge (+ meta-judge), every role's calls, tokens and cost recorded;
then ``lifebench eval`` re-grades through the model cache."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response, tool_call
from lifebench.travel import data

DIMS = ("reasoning_planning", "summarization_extraction", "presentation", "user_interaction")


def _content(message: dict[str, Any]) -> str:
    return str(message.get("content") or "")


def _agent(messages: list[dict[str, Any]]) -> dict[str, Any]:
    system = _content(messages[0])
    if "[Unsolved]" in system:
        return completion_response("[Unsolved]", prompt_tokens=300, completion_tokens=3)
    last = messages[-1]
    if last.get("role") == "tool":
        return completion_response("成都市当前晴，22℃。", prompt_tokens=400, completion_tokens=20)
    users = [m for m in messages if m.get("role") == "user"]
    if "多轮" in system and len(users) == 1:
        return completion_response(
            "你想查哪个城市的天气？", prompt_tokens=350, completion_tokens=10
        )
    call = tool_call("weather_current_conditions", {"location": "成都市"}, f"call_{len(messages)}")
    return completion_response(None, tool_calls=[call], prompt_tokens=380, completion_tokens=15)


def _user(messages: list[dict[str, Any]]) -> dict[str, Any]:
    last = _content(messages[-1])
    reply = "成都的。" if last.endswith("？") else "[Finish Conversation]"
    return completion_response(reply, prompt_tokens=200, completion_tokens=4)


def _judge(messages: list[dict[str, Any]]) -> dict[str, Any]:
    if "审核" in _content(messages[0]):
        text = "<meta_evaluation><reasoning>评测可靠</reasoning><rating>较好</rating></meta_evaluation>"
    else:
        blocks = "".join(
            f"<{d}><reasoning>有工具依据</reasoning><rating>较好</rating></{d}>" for d in DIMS
        )
        text = f"```xml\n<response>{blocks}</response>\n```"
    return completion_response(text, prompt_tokens=1000, completion_tokens=50)


def _responder(body: dict[str, Any]) -> dict[str, Any]:
    messages = body["messages"]
    role = str(body["model"]).split("-")[0]
    if role == "agent":
        return _agent(messages)
    if role == "user":
        return _user(messages)
    if role == "judge":
        return _judge(messages)
    return completion_response(
        "晴，22℃，东南风2级，空气质量良", prompt_tokens=120, completion_tokens=12
    )


@pytest.fixture
def server() -> Iterator[MockOpenAIServer]:
    with MockServerThread(MockOpenAIServer(responder=_responder)) as srv:
        yield srv


def _models(tmp_path: Path, url: str) -> Path:
    price = {"input_per_mtok": 1.0, "output_per_mtok": 2.0}
    spec = {
        role: {"model": f"{role}-m", "base_url": url, "api_key_env": None, "price": price}
        for role in ("agent", "user", "judge", "tool")
    }
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"models": spec}))
    return path


def _rows(tmp_path: Path, name: str, subset: str, n: int) -> Path:
    path = tmp_path / name
    rows = data.load_bundled_rows(subset, "zh")[:n]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _report(run_dir: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["report", str(run_dir), "--json"])
    assert result.exit_code == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def _roles(server: MockOpenAIServer) -> Counter[str]:
    return Counter(str(r.body.get("model")).split("-")[0] for r in server.requests)


ROLES = ["--agent-model", "agent", "--user-model", "user", "--judge-model", "judge"]


def test_multi_turn_run_with_every_role_then_regrade_from_the_cache(
    tmp_path: Path, server: MockOpenAIServer
) -> None:
    models = _models(tmp_path, server.base_url)
    tasks = _rows(tmp_path, "multi_turn.jsonl", "multi", 2)
    out = tmp_path / "run"
    args = ["run", "--suite", "travel", "--tasks", str(tasks), *ROLES, "--tool-model", "tool"]
    result = CliRunner().invoke(app, [*args, "--models", str(models), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr + result.stdout
    calls = _roles(server)
    assert set(calls) == {"agent", "user", "judge", "tool"}
    assert calls["judge"] == 4  # judge + meta-judge per trajectory

    rep = _report(out)
    assert rep["n_scored"] == 2 and rep["n_grading_errors"] == 0
    for role in ("agent", "user", "judge", "tool"):
        assert rep["tokens"][role]["prompt"] > 0, role
        assert rep["cost"][role] > 0, role
    assert rep["usage_by_basis"]["travel"]["calls"] == 4
    multi = rep["travel"]["subsets"]["multi"]
    # four dimensions rated 较好 (75), no tool errors, meta 较好 (× 0.8) → 60
    assert rep["score"] == pytest.approx(60.0) and multi["score"] == pytest.approx(60.0)
    assert rep["raw_score"] == pytest.approx(75.0)
    assert multi["tool_error_rate"] == 0.0 and rep["tool_error_rate"] == 0.0
    assert multi["meta_judge"]["rated"] == 2
    assert multi["sandbox"]["simulated_calls"] == calls["tool"] > 0
    assert rep["termination"] == {"user_stop": 2}
    assert rep["travel"]["judge_kind"] == ["llm"]

    # re-grading with the same judge: everything from the run's model cache
    before = server.count
    regrade = ["eval", str(out), "--judge-model", "judge", "--models", str(models), "--quiet"]
    result = CliRunner().invoke(app, regrade)
    assert result.exit_code == 0, result.stderr + result.stdout
    assert server.count == before
    assert _report(out)["score"] == pytest.approx(60.0)

    # without the meta-judge: the cached judge answers, no meta call, the factor is gone
    result = CliRunner().invoke(app, [*regrade, "--no-meta-judge"])
    assert result.exit_code == 0, result.stderr + result.stdout
    assert server.count == before
    rep = _report(out)
    assert rep["score"] == pytest.approx(75.0)
    assert rep["travel"]["subsets"]["multi"]["meta_judge"]["enabled"] == 0


def test_unsolvable_run_with_an_llm_agent(tmp_path: Path, server: MockOpenAIServer) -> None:
    models = _models(tmp_path, server.base_url)
    tasks = _rows(tmp_path, "unsolve.jsonl", "unsolvable", 3)
    out = tmp_path / "run"
    args = ["run", "--suite", "travel", "--tasks", str(tasks), *ROLES, "--models", str(models)]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr + result.stdout
    assert set(_roles(server)) == {"agent"}  # the rule needs no judge, the user is scripted
    rep = _report(out)
    assert rep["unsolved_accuracy"] == 1.0 and rep["score"] == 100.0
    assert rep["travel"]["subsets"]["unsolvable"]["accuracy_by_rule"]["exact"] == 1.0
    assert rep["tokens"]["agent"]["prompt"] > 0 and rep["cost"]["agent"] > 0


def test_imported_official_run_is_regraded_with_our_judge(
    tmp_path: Path, server: MockOpenAIServer
) -> None:
    messages = [
        {"role": "system", "content": "旅行助手"},
        {"role": "user", "content": "成都天气"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "name": "weather_current_conditions",
                    "arguments": {"location": "成都市"},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "c1",
            "name": "weather_current_conditions",
            "content": "晴",
            "error": False,
        },
        {"role": "assistant", "content": "成都市现在晴。", "tool_calls": None},
    ]
    result = {
        "trace_id": "1",
        "mode": "single_turn",
        "trial_id": 0,
        "query": "成都天气",
        "context": "**用户当前位置坐标**\nlatitude: 30.57\nlongitude: 104.07",
        "success": True,
        "conversation_id": "c",
        "completion_reason": "completed",
        "tool_calls_count": 1,
        "tool_errors": 0,
        "cache_hits": 1,
        "cache_misses": 0,
        "messages": messages,
    }
    inference = tmp_path / "single_turn.json"
    inference.write_text(json.dumps({"summary": {}, "results": [result]}, ensure_ascii=False))
    out = tmp_path / "run"
    imported = CliRunner().invoke(
        app, ["import", str(inference), "--suite", "travel", "--out", str(out)]
    )
    assert imported.exit_code == 0, imported.stderr
    assert _report(out)["travel"]["subsets"]["single"]["n"] == 0  # no official verdict yet
    models = _models(tmp_path, server.base_url)
    args = ["eval", str(out), "--judge-model", "judge", "--models", str(models), "--quiet"]
    result_eval = CliRunner().invoke(app, args)
    assert result_eval.exit_code == 0, result_eval.stderr + result_eval.stdout
    rep = _report(out)
    assert rep["score"] == pytest.approx(60.0)  # 较好 × 3 → 75, meta 较好 → × 0.8
    assert rep["reward_by_basis"] == {"travel": pytest.approx(0.6)}
    assert _roles(server) == Counter({"judge": 2})
