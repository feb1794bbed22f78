"""Judge failures are never silent, end to end against loopback mock servers (an agent server and
a judge server, so every call is counted where it arrives):

* a judge that fails every call: ``run`` and ``eval`` exit 3 with the provider's message (an
  HTTP refusal) or the judge's own unusable answer, even with ``--quiet``;
* a judge that fails half the units: exit 1; re-running the same command grades only those
  units again, from their stored trajectories — no agent call.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response

QUERIES = [f"明天成都到重庆的高铁 {i}" for i in range(4)]
BAD = set(QUERIES[:2])  # the judge cannot rate these (until it is fixed)
DIMS = ("reasoning_planning", "summarization_extraction", "presentation")


def _rows(tmp_path: Path) -> Path:
    path = tmp_path / "single_turn.jsonl"
    rows = [
        {"trace_id": str(i), "time": "2025-10-24 10:00", "query": q, "context": ""}
        for i, q in enumerate(QUERIES)
    ]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return path


def _agent(body: dict[str, Any]) -> dict[str, Any]:
    return completion_response("G8601 08:05 发车，二等座 96 元。")


class Judge:
    """The judge's behaviour, switchable while its server runs."""

    def __init__(self) -> None:
        self.mode = "half"

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = body["messages"]
        text = "\n".join(str(m.get("content") or "") for m in messages)
        if "meta_evaluation" in str(messages[0].get("content")) or "<meta_evaluation>" in text:
            return completion_response(
                "<meta_evaluation><reasoning>ok</reasoning><rating>优秀</rating></meta_evaluation>"
            )
        if self.mode == "all" or (self.mode == "half" and any(q in text for q in BAD)):
            return completion_response("I cannot rate this conversation.")
        blocks = "".join(f"<{d}><reasoning>ok</reasoning><rating>较好</rating></{d}>" for d in DIMS)
        return completion_response(f"<response>{blocks}</response>")


@pytest.fixture
def servers() -> Iterator[tuple[MockOpenAIServer, MockOpenAIServer, Judge]]:
    judge = Judge()
    with (
        MockServerThread(MockOpenAIServer(responder=_agent)) as agent_server,
        MockServerThread(MockOpenAIServer(responder=judge)) as judge_server,
    ):
        yield agent_server, judge_server, judge


def _models(
    tmp_path: Path, agent: MockOpenAIServer, judge: MockOpenAIServer, name: str = "models.json"
) -> Path:
    path = tmp_path / name
    entry = {"api_key_env": None, "retry": {"max_attempts": 1}}
    path.write_text(
        json.dumps(
            {
                "models": {
                    "agent": {"model": "a", "base_url": agent.base_url, **entry},
                    "judge": {"model": "j", "base_url": judge.base_url, **entry},
                }
            }
        )
    )
    return path


def _run(tmp_path: Path, models: Path, out: Path) -> Any:
    args = ["run", "--suite", "travel", "--tasks", str(_rows(tmp_path)), "--out", str(out)]
    args += ["--agent-model", "agent", "--judge-model", "judge", "--models", str(models)]
    return CliRunner().invoke(app, [*args, "--quiet"])


def _eval(models: Path, out: Path) -> Any:
    args = ["eval", str(out), "--judge-model", "judge", "--models", str(models), "--quiet"]
    return CliRunner().invoke(app, args)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_judge_failing_every_call_with_an_http_error_stops_run_and_eval(
    tmp_path: Path, servers: tuple[MockOpenAIServer, MockOpenAIServer, Judge]
) -> None:
    agent, judge_server, judge = servers
    judge_server.add_faults(["bad_param"] * 50)
    models = _models(tmp_path, agent, judge_server)
    result = _run(tmp_path, models, tmp_path / "run")
    assert result.exit_code == 3
    assert "Unrecognized request argument supplied" in _flat(result.stderr)  # the provider's
    # a run graded by a working judge, then re-graded by one that refuses every call
    judge.mode = "fixed"
    with MockServerThread(MockOpenAIServer(responder=judge)) as working:
        out = tmp_path / "graded"
        models_ok = _models(tmp_path, agent, working, "working.json")
        assert _run(tmp_path, models_ok, out).exit_code == 0
    # (--judge-context changes the prompts: the run's cached judge answers do not apply)
    result = CliRunner().invoke(
        app,
        ["eval", str(out), "--judge-model", "judge", "--models", str(models), "--quiet",
         "--judge-context"],
    )  # fmt: skip
    assert result.exit_code == 3
    assert "Unrecognized request argument supplied" in _flat(result.stderr)


def test_a_judge_failing_every_unit_exits_three_with_its_answer(
    tmp_path: Path, servers: tuple[MockOpenAIServer, MockOpenAIServer, Judge]
) -> None:
    agent, judge_server, judge = servers
    judge.mode = "all"
    models = _models(tmp_path, agent, judge_server)
    out = tmp_path / "run"
    result = _run(tmp_path, models, out)
    assert result.exit_code == 3
    stderr = _flat(result.stderr)
    assert "the grading of every simulation failed (4)" in stderr
    assert "I cannot rate this conversation." in stderr
    result = _eval(models, out)
    assert result.exit_code == 3 and "I cannot rate this conversation." in _flat(result.stderr)


def test_half_failing_exits_one_and_the_rerun_grades_only_those(
    tmp_path: Path, servers: tuple[MockOpenAIServer, MockOpenAIServer, Judge]
) -> None:
    agent, judge_server, judge = servers
    models = _models(tmp_path, agent, judge_server)
    out = tmp_path / "run"
    result = _run(tmp_path, models, out)
    assert result.exit_code == 1
    assert "2 of 4 simulation(s) could not be graded" in _flat(result.stderr)
    agent_calls, judge_calls = agent.count, judge_server.count
    assert agent_calls == 4
    # re-run the same command with the judge working: only the two failed units are graded
    # again (judge + meta-judge each), nothing is simulated
    judge.mode = "fixed"
    result = _run(tmp_path, models, out)
    assert result.exit_code == 0, result.stderr
    assert "0 units done" in result.stdout and "2 graded again" in result.stdout
    assert agent.count == agent_calls
    assert judge_server.count - judge_calls == 2 * 2
    rep = json.loads((out / "report.json").read_text())
    assert (rep["n_grading_errors"], rep["n_scored"]) == (0, 4)
    # an eval with half failing exits 1 too (the cache answers the units that were graded)
    judge.mode = "half"
    result = _eval(models, out.parent / "run")
    assert result.exit_code == 0  # every judge call is answered from the cache


def test_eval_grades_the_failed_evaluations_with_fresh_calls(
    tmp_path: Path, servers: tuple[MockOpenAIServer, MockOpenAIServer, Judge]
) -> None:
    agent, judge_server, judge = servers
    models = _models(tmp_path, agent, judge_server)
    out = tmp_path / "run"
    assert _run(tmp_path, models, out).exit_code == 1
    result = _eval(models, out)  # the same failing judge: the same two units fail again
    assert result.exit_code == 1
    assert "2 of 4 simulation(s) could not be graded" in _flat(result.stderr)
    judge.mode = "fixed"
    before = judge_server.count
    result = _eval(models, out)
    assert result.exit_code == 0, result.stderr
    # the two graded units come from the cache; the two that failed are asked again
    assert judge_server.count - before == 2 * 2
    assert agent.count == 4
