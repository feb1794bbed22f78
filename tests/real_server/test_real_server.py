"""One unit of every suite with every role on a real OpenAI-compatible server (llama.cpp's
server, SmolLM2-135M-Instruct; see ``conftest.py``), through the CLI as a user runs it.

A 135M model does not do the tasks; what is checked is everything around it: the requests
lifebench sends are accepted by a server somebody else wrote (tool schemas included), its
answers — text and tool calls — are read, every role's usage is recorded, each unit finishes
and is graded, or carries the reason it could not be.

What the model is made to do, so that every role is exercised on every run:

* the agent is sent ``tool_choice`` naming one of the suite's tools (``extra_body`` of its
  entry in the models file). llama-cpp-python's ``chatml-function-calling`` handler shows the
  model the tools only when a request names a ``tool_choice``; naming one function makes it
  answer with a call of that function, arguments constrained by the tool's JSON schema. So
  each agent turn is a real tool call, which the suite executes (VitaBench's Python tools) or
  answers with the tool-simulator model (TravelBench, FlowBench);
* the user simulator speaks first in the three suites (VitaBench after the agent's fixed
  greeting), so it is asked at least once;
* the episode is cut by the suite's own limits. TravelBench and FlowBench grade every ending;
  VitaBench's rubric judge only grades episodes that ended normally (its note says why it did
  not), so a second VitaBench unit runs the solo agent without tools, whose first reply ends
  the episode, and the judge grades it.

``lifebench show`` then prints every model call's request exactly as the server got it, the
tool schemas (and the ``tool_choice``) included.

Slow (each call evaluates a prompt of thousands of tokens on the CPU): ``max_tokens`` is small,
timeouts are long, no timing is asserted. ``pytest -m real_server`` runs these tests alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.messages import AssistantMessage, ToolResultMessage
from lifebench.reporting._load import load_run
from lifebench.runner import UnitRecord, UnitStatus
from lifebench.simulation import TerminationReason
from lifebench.testing.llama_server import MODEL_ALIAS, LlamaServer

TIMEOUT_S = 3600.0
"""Seconds one request may take: prompt evaluation on a loaded 2-core machine is slow."""

WATCHDOG_S = 3 * TIMEOUT_S
"""Seconds one test may take before the watchdog (pytest-timeout) fails it: several slow
requests, and the server's start in the first test; far above the suite's default (600 s)."""

pytestmark = [pytest.mark.real_server, pytest.mark.timeout(WATCHDOG_S)]


def _entry(base_url: str, max_tokens: int, **extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "model": MODEL_ALIAS,
        "base_url": base_url,
        "api_key_env": None,
        "timeout_s": TIMEOUT_S,
        "max_tokens": max_tokens,
        "max_concurrency": 1,
        "retry": {"max_attempts": 2},
    }
    if extra:
        entry["extra_body"] = extra
    return entry


def _models(tmp_path: Path, server: LlamaServer, agent_tool: str | None) -> Path:
    """The models file: ``agent`` (made to call ``agent_tool``; None: no tool_choice, so the
    server shows it no tools), ``user``, ``judge`` and ``tool`` (the tool simulator)."""
    url = server.base_url
    agent = (
        _entry(url, 64, tool_choice={"type": "function", "function": {"name": agent_tool}})
        if agent_tool
        else _entry(url, 48)
    )
    models = {
        "agent": agent,
        "user": _entry(url, 32),
        "judge": _entry(url, 96),
        "tool": _entry(url, 96),
    }
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"models": models}))
    return path


def _run(tmp_path: Path, args: list[str]) -> tuple[int, UnitRecord, str]:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["run", *args, "--trials", "1", "--out", str(out), "--quiet"], catch_exceptions=False
    )
    records = load_run(out).records
    assert len(records) == 1, result.output
    return result.exit_code, records[0], result.output


def _assert_show_has_raw_requests(out: Path, record: UnitRecord, tool: str | None) -> None:
    """``show`` lists every model call with the request the server got, byte for byte
    (``--raw``), and the agent's requests carry the tool schemas (with ``tool``: naming it)."""
    unit = [str(out), record.task_id, "--trial", str(record.trial)]
    runner = CliRunner()
    view = json.loads(runner.invoke(app, ["show", *unit, "--json"]).output)
    text = runner.invoke(app, ["show", *unit, "--full", "--raw"]).output
    calls = view["transcript"]["calls"]
    assert calls, "no model call was recorded"
    for call in calls:
        assert call["raw_request"] in text  # shown exactly as sent
        assert json.loads(call["raw_request"])["model"] == MODEL_ALIAS
    agent = [json.loads(c["raw_request"]) for c in calls if c["role"] == "agent"]
    assert agent
    if tool is not None:
        for body in agent:
            names = [t["function"]["name"] for t in body["tools"]]
            assert tool in names and all(t["function"].get("parameters") for t in body["tools"])
            assert body["tool_choice"]["function"]["name"] == tool


def _assert_exit(code: int, record: UnitRecord, output: str) -> None:
    """0: graded; 1: some grading failed; 3: every grading failed — for one unit, the tiny
    model's judge answers could not be read, which the run must say (never a pass)."""
    assert code in (0, 1, 3), output
    if code == 3:
        assert record.evaluation is not None and record.evaluation.error, output
        assert "grading of every simulation failed" in output, output


def _assert_finished_and_graded(record: UnitRecord, output: str) -> None:
    """The unit ran to one of the suite's endings and was graded, or says why not."""
    assert record.status is UnitStatus.DONE, (record.error, output)
    simulation, evaluation = record.simulation, record.evaluation
    assert simulation is not None and evaluation is not None
    assert simulation.termination is not TerminationReason.INFRASTRUCTURE_ERROR
    if evaluation.error is not None:  # the judge's answers could not be read: said so
        assert evaluation.error.strip()
        return
    assert 0.0 <= evaluation.reward <= 1.0
    assert evaluation.by_basis
    for name, basis in evaluation.by_basis.items():
        if not basis.gradable:
            assert basis.note.strip(), f"basis {name} is ungradable without a reason"


def _assert_usage(usage: Any, role: str) -> None:
    assert usage.calls >= 1, f"no {role} call reached the server"
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0, f"{role}: usage not recorded"
    assert not usage.usage_missing, f"{role}: the server's usage was not read"


def _tool_calls(record: UnitRecord, name: str) -> int:
    """How many calls of tool ``name`` the agent made that got a result."""
    assert record.simulation is not None
    messages = record.simulation.messages
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolResultMessage)}
    return sum(
        1
        for m in messages
        if isinstance(m, AssistantMessage)
        for call in m.tool_calls
        if call.name == name and call.id in answered
    )


def test_vita_agent_and_user(tmp_path: Path, llama_server: LlamaServer) -> None:
    tool = "delivery_store_search_recommand"
    code, record, output = _run(
        tmp_path,
        [
            "--suite", "vita", "--task-set", "demo", "--num-tasks", "1",
            "--agent", "llm", "--user", "llm", "--evaluator", "both",
            "--models", str(_models(tmp_path, llama_server, tool)),
            "--agent-model", "agent", "--user-model", "user", "--judge-model", "judge",
            "--max-steps", "5",
        ],
    )  # fmt: skip
    _assert_exit(code, record, output)
    _assert_finished_and_graded(record, output)
    sim = record.simulation
    assert sim is not None and record.evaluation is not None
    _assert_usage(sim.agent_usage, "agent")
    _assert_usage(sim.user_usage, "user")
    assert _tool_calls(record, tool) >= 1  # the server's tool call, run by VitaBench's tools
    assert sim.termination is TerminationReason.MAX_STEPS
    state = record.evaluation.by_basis["state"]
    assert state.reward == 0.0  # no order was placed
    rubric = record.evaluation.by_basis["rubric"]
    assert "not judged" in rubric.note  # VitaBench judges normal endings only
    _assert_show_has_raw_requests(tmp_path / "run", record, tool)


def test_vita_judge(tmp_path: Path, llama_server: LlamaServer) -> None:
    code, record, output = _run(
        tmp_path,
        [
            "--suite", "vita", "--task-set", "demo", "--num-tasks", "1",
            "--agent", "solo", "--evaluator", "both",
            "--models", str(_models(tmp_path, llama_server, None)),
            "--agent-model", "agent", "--judge-model", "judge", "--max-steps", "4",
        ],
    )  # fmt: skip
    _assert_exit(code, record, output)
    _assert_finished_and_graded(record, output)
    sim, evaluation = record.simulation, record.evaluation
    assert sim is not None and evaluation is not None
    _assert_usage(sim.agent_usage, "agent")
    assert sim.termination is TerminationReason.AGENT_STOP  # its first reply ends a solo episode
    if evaluation.error is None:
        _assert_usage(evaluation.by_basis["rubric"].usage, "judge")
    _assert_show_has_raw_requests(tmp_path / "run", record, None)


def test_travel_every_role(tmp_path: Path, llama_server: LlamaServer) -> None:
    tool = "web_search"
    code, record, output = _run(
        tmp_path,
        [
            "--suite", "travel", "--task-ids", "multi-1",
            "--models", str(_models(tmp_path, llama_server, tool)),
            "--agent-model", "agent", "--user-model", "user", "--judge-model", "judge",
            "--tool-model", "tool", "--sandbox", "simulate",
            "--max-agent-calls", "2", "--max-turns", "1", "--no-meta-judge",
        ],
    )  # fmt: skip
    _assert_exit(code, record, output)
    _assert_finished_and_graded(record, output)
    sim, evaluation = record.simulation, record.evaluation
    assert sim is not None and evaluation is not None
    _assert_usage(sim.agent_usage, "agent")
    # the simulated user speaks after the agent's first answer to the user; a tiny model that
    # spends its calls on tools ends the episode (max_agent_calls) before that turn comes
    if sim.termination is not TerminationReason.MAX_AGENT_CALLS:
        _assert_usage(sim.user_usage, "user")
    _assert_usage(sim.tool_usage, "tool simulator")
    assert _tool_calls(record, tool) >= 1
    if evaluation.error is None:
        _assert_usage(evaluation.by_basis["travel"].usage, "judge")
    _assert_show_has_raw_requests(tmp_path / "run", record, tool)


def _first_flow_tool() -> str:
    """The first tool of the first bundled FlowBench session task."""
    from lifebench.suites import get_suite, make_run_options

    suite = get_suite("flow")
    options = make_run_options(
        {"suite": "flow", "suite_options": {"level": "session", "agent_mode": "function-calling"}}
    )
    task = suite.load_run_tasks(None, "all", options)[0]  # type: ignore[attr-defined]
    schemas = suite.toolset("all", "en", task).openai_schemas("en")
    return str(schemas[0]["function"]["name"])


def test_flow_every_role(tmp_path: Path, llama_server: LlamaServer) -> None:
    tool = _first_flow_tool()
    code, record, output = _run(
        tmp_path,
        [
            "--suite", "flow", "--level", "session", "--agent-mode", "function-calling",
            "--num-tasks", "1",
            "--models", str(_models(tmp_path, llama_server, tool)),
            "--agent-model", "agent", "--user-model", "user", "--judge-model", "judge",
            "--tool-model", "tool", "--max-turns", "2",
        ],
    )  # fmt: skip
    _assert_exit(code, record, output)
    _assert_finished_and_graded(record, output)
    sim, evaluation = record.simulation, record.evaluation
    assert sim is not None and evaluation is not None
    _assert_usage(sim.agent_usage, "agent")
    _assert_usage(sim.user_usage, "user")
    assert _tool_calls(record, tool) >= 1
    if evaluation.error is None:
        judged = [b for b in evaluation.by_basis.values() if b.usage.calls]
        assert judged, "the judge was not asked"
    _assert_show_has_raw_requests(tmp_path / "run", record, tool)
