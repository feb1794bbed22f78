"""A full run through the real HTTP client against the loopback mock server, faults included."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response, tool_call
from timeout_injection import GENEROUS_TIMEOUT_S, TimeoutPlan, inject_timeouts


def _responder(body: dict[str, Any]) -> dict[str, Any]:
    """A tiny agent and user: the agent looks up the orders once, the user then stops."""
    messages = body["messages"]
    if body.get("tools"):
        if messages[-1]["role"] == "tool":
            return completion_response("You have these orders. Anything else?")
        return completion_response(None, tool_calls=[tool_call("get_user_all_orders", {})])
    said = sum(1 for m in messages if m["role"] == "assistant")
    return completion_response("###STOP###" if said else "Can you check my orders?")


@pytest.fixture
def flaky_server() -> Iterator[MockOpenAIServer]:
    server = MockOpenAIServer(
        responder=_responder,
        failure_rate=0.3,
        fault_kinds=("429", "500", "garbage"),
        seed=7,
        retry_after_s=0.01,
    )
    with MockServerThread(server) as running:
        yield running


def _models_file(tmp_path: Path, base_url: str) -> Path:
    retry = {"max_attempts": 12, "base_delay_s": 0.001, "max_delay_s": 0.02}
    entry = {
        "model": "mock",
        "base_url": base_url,
        "api_key_env": None,
        "timeout_s": GENEROUS_TIMEOUT_S,
        "retry": retry,
        "max_concurrency": 8,
    }
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"models": {"mock": entry}}))
    return path


def test_thirty_percent_faults_still_complete(
    tmp_path: Path, flaky_server: MockOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # server faults (~30%) plus client timeouts (~10%), all injected and seeded: no real
    # deadline races the CPU, so every retry is one of the injected faults
    timeouts = inject_timeouts(monkeypatch, TimeoutPlan(rate=0.1, seed=3))
    out = tmp_path / "run"
    args = [
        "run",
        "--task-set",
        "demo",
        "--agent-model",
        "mock",
        "--user-model",
        "mock",
        "--trials",
        "3",
        "--models",
        str(_models_file(tmp_path, flaky_server.base_url)),
        "--concurrency",
        "6",
        "--out",
        str(out),
        "--quiet",
        "--no-cache",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr + result.stdout
    rep = json.loads(CliRunner().invoke(app, ["report", str(out), "--json"]).stdout)
    assert rep["n_simulations"] == 18 and rep["n_errors"] == 0
    assert len(flaky_server.faults_injected) > 5 and timeouts.injected > 2
    faults = len(flaky_server.faults_injected) + timeouts.injected
    assert rep["retries"]["model"] == faults
    # Every fault became a retry; the run's answers all arrived.
    assert rep["termination"] == {"user_stop": 18}


def test_identical_rerun_hits_the_cache(tmp_path: Path) -> None:
    server = MockOpenAIServer(responder=_responder)
    with MockServerThread(server) as srv:
        models = _models_file(tmp_path, srv.base_url)
        base = [
            "run",
            "--task-set",
            "demo",
            "--agent-model",
            "mock",
            "--user-model",
            "mock",
            "--models",
            str(models),
            "--quiet",
        ]
        assert CliRunner().invoke(app, [*base, "--out", str(tmp_path / "a")]).exit_code == 0
        first = srv.count
        assert first > 0
        # Same run, new directory but the same cache file → no API call at all.
        cache = tmp_path / "a" / "model_cache.sqlite"
        (tmp_path / "b").mkdir()
        (tmp_path / "b" / "model_cache.sqlite").write_bytes(cache.read_bytes())
        assert CliRunner().invoke(app, [*base, "--out", str(tmp_path / "b")]).exit_code == 0
        assert srv.count == first
    a = json.loads(CliRunner().invoke(app, ["report", str(tmp_path / "a"), "--json"]).stdout)
    b = json.loads(CliRunner().invoke(app, ["report", str(tmp_path / "b"), "--json"]).stdout)
    assert a["avg_at_k"] == b["avg_at_k"] and a["n_simulations"] == b["n_simulations"] == 6


def _demo_run(tmp_path: Path, models: Path, *extra: str) -> dict[str, Any]:
    out = tmp_path / "run"
    args = [
        "run", "--task-set", "demo", "--agent-model", "mock", "--user-model", "mock",
        "--models", str(models), "--concurrency", "1", "--out", str(out), "--quiet", "--no-cache",
        *extra,
    ]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code in (0, 1), result.stderr + result.stdout
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    return report


def test_retries_of_a_call_that_finally_failed_reach_the_report(tmp_path: Path) -> None:
    # the first call fails twice and gives up (2 attempts): its unit is an infrastructure
    # error, and its one retry is counted like the retries of calls that succeeded
    server = MockOpenAIServer(responder=_responder, faults=["500", "500", None, "429"])
    with MockServerThread(server) as running:
        models = _models_file(tmp_path, running.base_url)
        data = json.loads(models.read_text())
        data["models"]["mock"]["retry"]["max_attempts"] = 2
        models.write_text(json.dumps(data))
        report = _demo_run(tmp_path, models)
    assert (report["n_errors"], report["n_simulations"]) == (1, 5)
    assert report["retries"]["model"] == 1 + 1  # the failed call's retry + the 429's


def test_answers_without_usage_are_flagged_in_the_report(tmp_path: Path) -> None:
    with MockServerThread(MockOpenAIServer(responder=_responder, usage=False)) as running:
        report = _demo_run(tmp_path, _models_file(tmp_path, running.base_url))
        calls = running.count
    assert report["usage_missing"] == calls > 0
    assert any("reported no token usage" in w for w in report["warnings"])
