"""FlowBench end to end through the CLI against the loopback mock server: every role (agent,
user, judge, tool simulator) is a real HTTP model, and every call and token is recorded."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.runner import RunStore
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "flow"))
from flow_synthetic import write_world

_TOKENS = {"agent-m": (100, 10), "user-m": (20, 2), "judge-m": (30, 3), "tool-m": (7, 1)}


def _agent(messages: list[dict[str, Any]]) -> str:
    observations = [
        m for m in messages if m["role"] == "user" and m["content"].startswith("Observation")
    ]
    last = messages[-1]["content"]
    if len(observations) == 0 and "B-77" in last:
        return 'Thought: look it up first\nAction: lookupBill\nAction Input: {"bill_id": "B-77"}'
    if len(observations) == 1 and last.startswith("Observation"):
        return (
            "Thought: last_node=PB001, intent=Details given, current_node=PB002.\n"
            'Action: payBill\nAction Input: {\n  "bill_id": "B-77",\n  "amount": 120\n}'
        )
    if len(observations) == 2 and last.startswith("Observation"):
        return "Thought: current_node=PB003.\nResponse: Bill B-77 is paid. Goodbye!"
    return "Thought: last_node=PB000, intent=Pay a bill, current_node=PB001.\nResponse: Which bill?"


def _user(messages: list[dict[str, Any]]) -> str:
    conversation = messages[-1]["content"]
    if "you speak first" in conversation:
        return "User: Hi, I'd like to pay a bill."  # the prefix is removed
    if "Goodbye" in conversation.splitlines()[-3]:
        return "###STOP###"
    return "It's B-77, 120 yuan."


def _judge(messages: list[dict[str, Any]]) -> str:
    system = messages[0]["content"]
    if "neutral grader" in system:
        return '{"score": 8, "reason": "fine"}'
    if "same thing" in system:
        return '{"same": true}'
    return '{"success": true, "total_goals": 1, "achieved_goals": 1, "reason": ""}'


def _respond(body: dict[str, Any]) -> dict[str, Any]:
    model = body["model"]
    messages = body["messages"]
    text = {
        "agent-m": _agent,
        "user-m": _user,
        "judge-m": _judge,
        "tool-m": lambda m: '{"amount": 120}',
    }[model](messages)
    prompt, completion = _TOKENS[model]
    return completion_response(text, prompt_tokens=prompt, completion_tokens=completion)


@pytest.fixture
def server() -> Iterator[MockOpenAIServer]:
    with MockServerThread(MockOpenAIServer(responder=_respond)) as running:
        yield running


def _models(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "models.json"
    path.write_text(
        json.dumps(
            {
                "models": {
                    role: {"model": f"{role}-m", "base_url": url, "api_key_env": None}
                    for role in ("agent", "user", "judge", "tool")
                }
            }
        )
    )
    return path


def _invoke(*args: str) -> None:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr + result.stdout


def _report(out: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["report", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _calls(server: MockOpenAIServer) -> Counter[str]:
    return Counter(str(r.body.get("model")) for r in server.requests)


def test_session_level_records_every_role(tmp_path: Path, server: MockOpenAIServer) -> None:
    world = write_world(tmp_path / "world")
    out = tmp_path / "session"
    _invoke(
        "run", "--suite", "flow", "--level", "session", "--setting", "cross",
        "--tasks", str(world["sessions"]), "--knowledge", str(world["kb"]),
        "--agent-model", "agent", "--user-model", "user", "--judge-model", "judge",
        "--tool-model", "tool", "--models", str(_models(tmp_path, server.base_url)),
        "--out", str(out), "--quiet",
    )  # fmt: skip
    calls = _calls(server)
    assert calls == {"agent-m": 4, "user-m": 3, "tool-m": 1, "judge-m": 1}
    rep = _report(out)
    assert (rep["success_rate"], rep["task_progress"], rep["tool_f1"]) == (1.0, 1.0, 2 / 3)
    assert rep["tokens"]["agent"] == {"prompt": 400.0, "completion": 40.0}
    assert rep["tokens"]["user"] == {"prompt": 60.0, "completion": 6.0}
    assert rep["tokens"]["tool"] == {"prompt": 7.0, "completion": 1.0}
    assert rep["tokens"]["judge"] == {"prompt": 30.0, "completion": 3.0}
    store = RunStore.read(out)
    try:
        (record,) = list(store.results())
    finally:
        store.close()
    sim = record.simulation
    assert sim is not None
    assert (sim.agent_usage.calls, sim.user_usage.calls, sim.tool_usage.calls) == (4, 3, 1)
    assert sim.final_state["answers"] == {
        "replayed": 1, "simulated": 1, "offline": 0, "fallbacks": 0, "errors": 0,
    }  # fmt: skip
    # the tool simulator and the user never see a Thought
    for request in server.requests:
        if request.body["model"] in ("user-m", "tool-m"):
            assert all("Thought" not in m["content"] for m in request.body["messages"][1:])
    first = sim.messages[0]
    assert first.role == "user" and first.content == "Hi, I'd like to pay a bill."
    last_user = [r for r in server.requests if r.body["model"] == "user-m"][-1]
    assert (
        "User: It's B-77, 120 yuan.\nAssistant: Bill B-77 is paid. Goodbye!"
        in (last_user.body["messages"][-1]["content"])
    )


def test_offline_turn_run_regraded_with_the_judge(tmp_path: Path, server: MockOpenAIServer) -> None:
    world = write_world(tmp_path / "world")
    out = tmp_path / "regrade"
    _invoke(
        "run", "--suite", "flow", "--tasks", str(world["turns"]), "--knowledge", str(world["kb"]),
        "--out", str(out), "--quiet",
    )  # fmt: skip
    assert "response_score" not in _report(out) and server.count == 0
    _invoke(
        "eval", str(out), "--judge-model", "judge",
        "--models", str(_models(tmp_path, server.base_url)), "--quiet",
    )  # fmt: skip
    rep = _report(out)
    assert rep["response_score"] == 8.0 and rep["response_scored"] == 3
    assert rep["tool_f1"] == 1.0 and _calls(server) == {"judge-m": 3}


def test_turn_level_records_agent_and_judge(tmp_path: Path, server: MockOpenAIServer) -> None:
    world = write_world(tmp_path / "world")
    out = tmp_path / "turn"
    _invoke(
        "run", "--suite", "flow", "--tasks", str(world["turns"]), "--knowledge", str(world["kb"]),
        "--agent-model", "agent", "--judge-model", "judge",
        "--models", str(_models(tmp_path, server.base_url)), "--out", str(out), "--quiet",
    )  # fmt: skip
    calls = _calls(server)
    # turn 3 (a reply turn) is answered with a call: scored 1 without asking the judge
    assert calls["agent-m"] == 4 and calls["judge-m"] == 2 and calls["user-m"] == 0
    rep = _report(out)
    assert rep["turns"] == 4 and rep["response_missing"] == 1
    assert rep["response_score"] == pytest.approx((8 + 1 + 8) / 3)
    assert rep["tokens"]["agent"] == {"prompt": 100.0, "completion": 10.0}
    assert rep["usage_by_basis"]["response"]["calls"] == 2
    assert rep["usage_by_basis"]["response"]["prompt_tokens"] == 60
    assert rep["turn_counts"]["tools"] == {
        "tp": 0, "n_pred": 2, "n_gold": 1, "precision": 0.0, "recall": 0.0, "f1": 0.0,
    }  # fmt: skip
    # re-running the report is pure; re-running the run reuses every stored unit
    before = server.count
    _invoke(
        "run", "--suite", "flow", "--tasks", str(world["turns"]), "--knowledge", str(world["kb"]),
        "--agent-model", "agent", "--judge-model", "judge",
        "--models", str(_models(tmp_path, server.base_url)), "--out", str(out), "--quiet",
    )  # fmt: skip
    assert server.count == before
