"""Per-unit outcomes, failure groups and `report --tasks`: which units failed, and why."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from reporting_fakes import (
    GRADING_ERROR,
    HOSTILE_TASK,
    INFRA_ERROR,
    UNGRADED_TASK,
    build_run,
    evaluation,
    simulation,
)
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.evaluation._types import Evaluation
from lifebench.metrics import Metrics
from lifebench.reporting import build_report, failure_groups, unit_summaries
from lifebench.reporting._load import load_run
from lifebench.reporting._outcomes import failure_key, first_line
from lifebench.simulation._types import Simulation, TerminationReason


@dataclass(frozen=True)
class _Rec:
    task_id: str
    trial: int
    status: str
    attempts: int = 1
    simulation: Simulation | None = None
    evaluation: Evaluation | None = None
    error: str | None = None


def _infra(task_id: str, trial: int, message: str) -> _Rec:
    sim = simulation(task_id, trial, 1).model_copy(
        update={"termination": TerminationReason.INFRASTRUCTURE_ERROR, "error": message}
    )
    return _Rec(task_id, trial, "infra_error", simulation=sim, error=message)


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return build_run(tmp_path / "run")


def test_every_unit_gets_its_outcome_and_evidence(run_dir: Path) -> None:
    summaries = {(s.task_id, s.trial): s for s in unit_summaries(load_run(run_dir).records)}
    outcomes = {key: s.outcome for key, s in summaries.items()}
    assert outcomes == {
        ("t-fail", 0): "pass",
        ("t-fail", 1): "fail",
        ("t-grade", 0): "grading_error",
        ("t-grade", 1): "pass",
        ("t-infra", 0): "pass",
        ("t-infra", 1): "infra_error",
        ("t-pass", 0): "pass",
        ("t-pass", 1): "pass",
        (UNGRADED_TASK, 0): "ungradable",
        (UNGRADED_TASK, 1): "pending",
        (HOSTILE_TASK, 0): "fail",
        (HOSTILE_TASK, 1): "fail",
    }
    failed = summaries[("t-fail", 1)]
    assert failed.reward == 0.0 and failed.error is None
    lines = [f.line() for f in failed.failed]
    assert "state/order[0]:O1: final status unpaid, expected paid" in lines
    # the criterion that held is not listed; the judge basis shown beside the reward is
    assert not any("no_extra_orders" in line for line in lines)
    assert any(line.startswith("rubric/rubric_0") for line in lines)
    assert summaries[("t-infra", 1)].error == INFRA_ERROR
    assert summaries[("t-grade", 0)].error == GRADING_ERROR
    assert summaries[("t-grade", 0)].reward is None  # a failed grading has no reward
    assert summaries[(HOSTILE_TASK, 0)].termination == "max_steps"
    assert summaries[(HOSTILE_TASK, 0)].tool_errors == 1
    # agent 0.01 + user 0.002 + judge 0.003
    assert summaries[("t-pass", 0)].cost == pytest.approx(0.015)


def test_failures_are_grouped_by_message_with_counts_and_an_example() -> None:
    records = [
        _infra("a", 0, "Error code: 401 - bad key (request 0123456789abcdef0123)"),
        _infra("b", 1, "Error code: 401 - bad key (request fedcba9876543210fedc)\nTraceback…"),
        _infra("a", 1, "Error code: 404 - no such model"),
    ]
    groups = failure_groups(unit_summaries(records))
    assert [(g.kind, g.message, g.count, g.tasks, g.example) for g in groups] == [
        ("infrastructure", "Error code: 401 - bad key (request …)", 2, 2, "a#0"),
        ("infrastructure", "Error code: 404 - no such model", 1, 1, "a#1"),
    ]


def test_a_status_code_is_not_masked_like_a_request_id() -> None:
    assert failure_key("HTTP 401 for deadbeefdeadbeef1") == "HTTP 401 for …"
    assert failure_key("HTTP 401") != failure_key("HTTP 404")
    assert first_line("\n\n  first   line \nsecond") == "first line"


def test_report_groups_each_kind_of_failure(run_dir: Path) -> None:
    run = load_run(run_dir)
    report = build_report(run.records, run.config)
    assert [(g.kind, g.message, g.count, g.example) for g in report.failures] == [
        ("infrastructure", "Error code: 401 - invalid api key (request …)", 1, "t-infra#1"),
        ("grading", GRADING_ERROR, 1, "t-grade#0"),
        ("ungradable", "no evaluation stored for a completed simulation", 1, f"{UNGRADED_TASK}#0"),
    ]
    data = json.loads(_cli("report", str(run_dir), "--json")[1])
    assert set(Metrics.model_fields) <= set(data)  # every existing key is kept
    assert data["failures"][0]["count"] == 1


def test_a_clean_run_reports_no_failure() -> None:
    sim = simulation("t-pass", 0, 1)
    records = [_Rec("t-pass", 0, "done", simulation=sim, evaluation=evaluation("t-pass", 0, sim))]
    assert build_report(records, {}).failures == []


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), terminal_width=200)
    return result.exit_code, result.stdout, result.stderr


def test_report_tasks_shows_outcomes_terminations_failed_criteria_and_errors(run_dir: Path) -> None:
    code, out, _ = _cli("report", str(run_dir), "--tasks")
    assert code == 0
    assert "t-fail  ✓✗  mean 50.0%  user_stop×2" in out
    assert "✗ state/order[0]:O1: final status unpaid, expected paid" in out
    assert "E #1 Error code: 401 - invalid api key" in out
    assert "G #0 evaluation failed: rubric" in out
    assert "t-ungraded  U·" in out
    assert "Failures (grouped by message)" in out


def test_report_prints_stored_text_literally(run_dir: Path) -> None:
    code, out, _ = _cli("report", str(run_dir), "--tasks")
    assert code == 0
    assert "[bold red]markup[/]" in out  # rich markup shown, not applied
    assert "\x1b" not in out and "\\x1b[2J" in out  # the escape sequence is made visible
    assert HOSTILE_TASK in out


def test_report_json_tasks_adds_units_and_several_runs_give_a_list(tmp_path: Path) -> None:
    a = build_run(tmp_path / "a")
    b = build_run(tmp_path / "b", model="model-b")
    code, out, _ = _cli("report", str(a), "--json", "--tasks")
    assert code == 0
    units = json.loads(out)["units"]
    assert len(units) == 12 and {u["outcome"] for u in units} >= {"pass", "fail", "pending"}
    code, out, _ = _cli("report", str(a), str(b), "--json")
    docs = json.loads(out)
    assert code == 0 and isinstance(docs, list) and len(docs) == 2
    assert docs[1]["config"]["agent_model"] == "model-b"


def _graded(task_id: str, criteria: int, reward: float, shown: int = 0) -> _Rec:
    from lifebench.evaluation._types import BasisResult, CriterionVerdict

    def basis(name: str, n: int) -> BasisResult:
        verdicts = [CriterionVerdict(id=f"c{i}", description="d", met=True) for i in range(n)]
        return BasisResult(basis=name, reward=reward, score=reward, criteria=verdicts)

    by_basis = {"state": basis("state", criteria)}
    if shown:
        by_basis["rubric"] = basis("rubric", shown)
    ev = Evaluation(reward=reward, basis="state", by_basis=by_basis)
    return _Rec(task_id, 0, "done", simulation=simulation(task_id, 0, 1), evaluation=ev)


def test_complexity_counts_the_criteria_of_the_reward_bases_only() -> None:
    from lifebench.reporting._bundle import complexity_buckets

    records = [_graded("a", 3, 1.0), _graded("b", 1, 0.0, shown=5), _graded("c", 1, 1.0)]
    buckets = complexity_buckets(build_report(records, {}), records)
    assert [(b.criteria, b.tasks, b.mean_reward) for b in buckets] == [(1, 2, 0.5), (3, 1, 1.0)]


def test_tool_errors_are_counted_by_kind_over_completed_simulations(run_dir: Path) -> None:
    from lifebench.reporting._outcomes import tool_error_kinds

    records = load_run(run_dir).records
    assert tool_error_kinds(records) == {"bad_arguments": 2}  # the hostile task's two trials
    infra = _infra(HOSTILE_TASK, 5, "down")
    assert infra.simulation is not None and infra.simulation.tool_errors == 1
    assert tool_error_kinds([*records, infra]) == {"bad_arguments": 2}  # not a completed one
