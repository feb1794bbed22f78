"""The rubric judge end to end through the CLI, against the loopback mock server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.runner import RunStore
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response


def _judge(body: dict[str, Any]) -> dict[str, Any]:
    """All rubrics met, except in tasks whose instruction mentions 'breakfast'."""
    prompt = body["messages"][-1]["content"]
    system = body["messages"][0]["content"]
    block = re.search(r"<(?:current_)?rubrics>\n(.*)\n</(?:current_)?rubrics>", prompt, re.S)
    keys = list(json.loads(block.group(1))) if block else []
    met = "breakfast" not in system.lower()
    return completion_response(
        json.dumps(
            [{"rubric_key": k, "meetExpectation": met, "justification": "[1]"} for k in keys]
        )
    )


@pytest.fixture
def judge_server() -> Iterator[MockOpenAIServer]:
    with MockServerThread(MockOpenAIServer(responder=_judge)) as server:
        yield server


def _models(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "models.json"
    path.write_text(
        json.dumps({"models": {"judge": {"model": "j", "base_url": url, "api_key_env": None}}})
    )
    return path


def _report(run_dir: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["report", str(run_dir), "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_run_both_then_regrade_without_new_calls(
    tmp_path: Path, judge_server: MockOpenAIServer
) -> None:
    models = _models(tmp_path, judge_server.base_url)
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--task-set",
            "demo",
            "--evaluator",
            "both",
            "--judge-model",
            "judge",
            "--models",
            str(models),
            "--trials",
            "2",
            "--out",
            str(out),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.stderr + result.stdout
    rep = _report(out)
    assert set(rep["reward_by_basis"]) == {"state", "rubric"}
    assert rep["reward_by_basis"]["state"] == 1.0
    assert 0.0 < rep["reward_by_basis"]["rubric"] < 1.0
    # the oracle passes every state check and the judge fails some tasks: a constant rater
    # against a varying one agrees only at chance level, so κ is exactly 0 (raw agreement would
    # say the rubric pass rate); κ of varying raters is pinned in tests/metrics
    assert rep["kappa_state_vs_rubric"] == 0.0
    assert rep["kappa_by_pair"] == {"rubric~state": 0.0}
    assert rep["usage_by_basis"]["rubric"]["calls"] > 0
    assert rep["usage_by_basis"]["state"]["calls"] == 0
    # reward = state AND rubric
    assert rep["avg_reward"] == rep["reward_by_basis"]["rubric"]
    calls_after_run = judge_server.count

    # Re-grade with the full-trajectory variant: a new basis is added, the others are kept.
    args = ["eval", str(out), "--judge-model", "judge", "--models", str(models), "--quiet"]
    result = CliRunner().invoke(app, [*args, "--judge-variant", "full"])
    assert result.exit_code == 0, result.stderr + result.stdout
    rep = _report(out)
    assert set(rep["reward_by_basis"]) == {"state", "rubric", "rubric_full"}
    assert set(rep["usage_by_basis"]) >= {"rubric", "rubric_full"}
    after_full = judge_server.count
    assert after_full > calls_after_run

    # The same re-grade again: every judge call is answered from the cache.
    result = CliRunner().invoke(app, [*args, "--judge-variant", "full"])
    assert result.exit_code == 0, result.stderr
    assert judge_server.count == after_full


def test_eval_of_an_oracle_run_with_the_sliding_judge(
    tmp_path: Path, judge_server: MockOpenAIServer
) -> None:
    out = tmp_path / "plain"
    assert (
        CliRunner()
        .invoke(app, ["run", "--task-set", "demo", "--out", str(out), "--quiet"])
        .exit_code
        == 0
    )
    models = _models(tmp_path, judge_server.base_url)
    result = CliRunner().invoke(
        app,
        [
            "eval",
            str(out),
            "--evaluator",
            "both",
            "--judge-model",
            "judge",
            "--models",
            str(models),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.stderr
    rep = _report(out)
    assert set(rep["reward_by_basis"]) == {"state", "rubric"}
    assert 0.0 < rep["reward_by_basis"]["rubric"] < 1.0 == rep["reward_by_basis"]["state"]
    assert rep["kappa_state_vs_rubric"] == 0.0  # constant state verdicts: chance level
    # the reports name the evaluator that graded the numbers (both), not the run's (state)
    html, md = tmp_path / "report.html", tmp_path / "report.md"
    args = ["report", str(out), "--html", str(html), "--markdown", str(md)]
    assert CliRunner().invoke(app, args).exit_code == 0
    page = html.read_text()
    assert "<td>both · judge</td>" in page and "<td>state</td>" not in page
    # and the bases that make the reward since that grading: state and rubric
    for basis in ("state", "rubric"):
        assert f'<td>{basis} <span class="tag">reward</span></td>' in page
    row = next(line for line in md.read_text().splitlines() if line.startswith("| plain |"))
    assert "| both · judge |" in row and "| state |" not in row
    n = judge_server.count
    assert (
        CliRunner()
        .invoke(
            app,
            [
                "eval",
                str(out),
                "--evaluator",
                "both",
                "--judge-model",
                "judge",
                "--models",
                str(models),
                "--quiet",
            ],
        )
        .exit_code
        == 0
    )
    assert judge_server.count == n


def test_judge_failure_is_a_grading_error_not_a_rerun(tmp_path: Path) -> None:
    with MockServerThread(
        MockOpenAIServer(responder=lambda body: completion_response("I refuse."))
    ) as server:
        models = _models(tmp_path, server.base_url)
        out = tmp_path / "bad"
        result = CliRunner().invoke(
            app,
            [
                "run",
                "--task-set",
                "demo",
                "--evaluator",
                "rubric",
                "--judge-model",
                "judge",
                "--models",
                str(models),
                "--out",
                str(out),
                "--quiet",
                "--num-tasks",
                "2",
            ],
        )
        # every grading failed: exit 3, with what the judge said, whatever --quiet says
        assert result.exit_code == 3, result.stderr
        assert "the grading of every simulation failed (2)" in result.stderr
        assert "its last reply: 'I refuse.'" in " ".join(result.stderr.split())
    rep = _report(out)
    assert rep["n_simulations"] == 2 and rep["n_errors"] == 0
    assert rep["n_grading_errors"] == 2 and rep["n_scored"] == 0
    store = RunStore.read(out)
    try:
        for record in store.results():
            assert record.evaluation is not None and record.evaluation.error
            failed = record.evaluation.by_basis["rubric"]
            assert failed.usage.calls == 3 and "failed" in failed.note  # tokens of the re-asks kept
            assert record.evaluation.by_basis["state"].reward in (0.0, 1.0)
    finally:
        store.close()


def _nothing_met(body: dict[str, Any]) -> dict[str, Any]:
    """Every rubric the judge is shown is not met."""
    prompt = body["messages"][-1]["content"]
    block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", prompt, re.S)
    keys = list(json.loads(block.group(1))) if block else []
    return completion_response(
        json.dumps([{"rubric_key": k, "meetExpectation": False} for k in keys])
    )


def test_a_task_without_rubrics_is_ungradable_in_the_report(tmp_path: Path) -> None:
    # Two tasks, the first stripped of every rubric; the judge fails every rubric it sees. The
    # official rule (no rubric = reward 1) would report 2 scored, avg 0.5; lifebench reports the
    # stripped task as ungradable and scores the other one alone.
    bundled = Path(__file__).resolve().parents[2] / "src/lifebench/vita/data/delivery_en.json"
    tasks = json.loads(bundled.read_text(encoding="utf-8"))[:2]
    criteria = tasks[0]["evaluation_criteria"]
    criteria["overall_rubrics"] = []
    for state in criteria["expected_states"]:
        state["state_rubrics"] = []
    task_file = tmp_path / "tasks.json"
    task_file.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")

    lint = CliRunner().invoke(app, ["tasks", "validate", str(task_file), "--json", "--strict"])
    assert lint.exit_code == 1  # the linter keeps flagging it as a data error
    errors = [f for f in json.loads(lint.stdout) if f["severity"] == "error"]
    assert [(f["task_id"], "no rubrics at all" in f["message"]) for f in errors] == [
        (tasks[0]["id"], True)
    ]

    with MockServerThread(MockOpenAIServer(responder=_nothing_met)) as server:
        models = _models(tmp_path, server.base_url)
        out = tmp_path / "run"
        result = CliRunner().invoke(
            app,
            [
                "run",
                "--tasks",
                str(task_file),
                "--evaluator",
                "rubric",
                "--judge-model",
                "judge",
                "--models",
                str(models),
                "--out",
                str(out),
                "--quiet",
            ],
        )
        assert result.exit_code == 0, result.stderr + result.stdout
    rep = _report(out)
    assert (rep["n_simulations"], rep["n_scored"], rep["n_ungradable"]) == (2, 1, 1)
    assert rep["avg_reward"] == 0.0
    assert rep["reward_by_basis"]["rubric"] == 0.0
    store = RunStore.read(out)
    try:
        by_task = {r.task_id: r.evaluation for r in store.results()}
    finally:
        store.close()
    stripped = by_task[tasks[0]["id"]]
    assert stripped is not None and not stripped.gradable
    assert not stripped.by_basis["rubric"].gradable
    assert stripped.by_basis["rubric"].usage.calls == 0
