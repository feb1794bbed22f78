"""`lifebench show` (one trajectory and its evaluation) and `lifebench export` (JSON Lines)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import TypeAdapter
from reporting_fakes import HOSTILE, HOSTILE_TASK, build_run
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.reporting._export import (
    AttemptLine,
    BriefingLine,
    CallLine,
    ExportLine,
    RunLine,
    TaskLine,
    UnitLine,
)
from lifebench.reporting._load import load_run
from lifebench.reporting._trajectory import (
    TrajectoryView,
    initial_state,
    state_changes,
    trajectory_view,
)
from lifebench.runner._schema import DDL

DOCS = Path(__file__).resolve().parents[2] / "docs" / "run-format.md"


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), terminal_width=200)
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return build_run(tmp_path / "run")


def test_show_renders_messages_tool_calls_results_and_the_evaluation(run_dir: Path) -> None:
    code, out, _ = _cli("show", str(run_dir), "t-fail", "--trial", "1")
    assert code == 0
    assert "outcome fail" in out and "ended by user_stop" in out
    assert "#0 user" in out and "I want lunch." in out
    assert "→ pay_order [c1]" in out
    assert '"order_id": "O1"' in out  # arguments pretty-printed
    assert "#2 tool pay_order [c1] ok" in out
    assert "basis state (part of the reward)" in out and "1/2 criteria met" in out
    assert "final status unpaid, expected paid" in out
    assert "basis rubric (shown, not in the reward)" in out
    assert "judge windows" in out and "0–2" in out and "1–3" in out
    assert "(the final state equals the initial state)" in out  # the order stayed unpaid
    assert "other trials of this task: 0" in out
    code, out, _ = _cli("show", str(run_dir), "t-fail", "--trial", "0")
    assert code == 0 and '~ orders.O1.status: "unpaid" → "paid"' in out


def test_show_flags_tool_errors_and_malformed_arguments_and_prints_text_literally(
    run_dir: Path,
) -> None:
    code, out, _ = _cli("show", str(run_dir), HOSTILE_TASK)
    assert code == 0
    assert "ERROR (bad_arguments)" in out
    assert "(arguments are not valid JSON)" in out
    assert "<script>window.__xss" in out and "[bold red]markup[/]" in out
    assert "\x1b" not in out and "\\x1b[2J" in out


def test_show_unknown_task_or_trial_is_one_clear_message(run_dir: Path) -> None:
    code, _, err = _cli("show", str(run_dir), "t-fial")
    assert code == 2 and "no task 't-fial'" in err and "did you mean" in err and "t-fail" in err
    assert "Traceback" not in err
    code, _, err = _cli("show", str(run_dir), "t-fail", "--trial", "7")
    assert code == 2 and "has no trial 7 (trials: 0, 1)" in err
    code, _, err = _cli("show", str(run_dir.parent / "nope"), "t-fail")
    assert code == 2 and "not a run directory" in err
    code, _, err = _cli("show", str(run_dir), "t-[/b]")  # brackets are text, not markup
    assert code == 2 and "no task 't-[/b]'" in err


def test_show_json_is_the_view(run_dir: Path) -> None:
    code, out, _ = _cli("show", str(run_dir), "t-infra", "--trial", "1", "--json")
    view = TrajectoryView.model_validate_json(out)
    assert code == 0 and view.outcome.outcome == "infra_error"
    assert view.error is not None and view.error.startswith("Error code: 401")


def test_messages_know_their_judge_windows(run_dir: Path) -> None:
    run = load_run(run_dir)
    view = trajectory_view(run.record("t-pass", 0), run.task_data["t-pass"])
    assert [m.windows for m in view.messages] == [[1], [1, 2], [1, 2], [2]]
    rubric = next(b for b in view.bases if b.name == "rubric")
    assert not rubric.counts and len(rubric.windows) == 2 and "windows" not in rubric.info
    assert next(b for b in view.bases if b.name == "state").counts


def test_state_changes_report_only_what_changed() -> None:
    initial = {"orders": {"A": {"status": "unpaid", "note": ""}}, "stores": {"S": {}}}
    final = {"orders": {"A": {"status": "paid", "note": ""}, "B": {"x": 1}}, "ids": ["B"]}
    changes, note = state_changes(initial, final)
    assert [(c.path, c.kind, c.before, c.after) for c in changes] == [
        ("ids", "added", None, '["B"]'),
        ("orders.A.status", "changed", '"unpaid"', '"paid"'),
        ("orders.B", "added", None, '{"x": 1}'),
    ]
    assert note == ""  # 'stores' is absent from the snapshot, not removed
    assert state_changes(initial, {"orders": initial["orders"]}) == ([], "")


def test_initial_state_is_the_task_member_holding_the_snapshot_keys() -> None:
    task = json.dumps({"id": "t", "environment": {"orders": {}, "time": "x"}, "meta": {"id": 1}})
    assert initial_state(task, {"orders": {}, "time": "y"}) == {"orders": {}, "time": "x"}
    assert initial_state(task, {"weather": 1}) is None
    assert initial_state("not json", {"orders": {}}) is None


def _export(*args: str) -> str:
    code, out, err = _cli("export", *args)
    assert code == 0, err
    return out


def test_export_writes_every_unit_in_the_documented_schema(run_dir: Path) -> None:
    out = _export(str(run_dir), "--format", "jsonl", "--tasks", "--attempts")
    adapter = TypeAdapter(ExportLine)
    lines = [adapter.validate_json(line) for line in out.splitlines()]
    kinds = [type(line).__name__ for line in lines]
    assert kinds == ["RunLine"] + ["TaskLine"] * 6 + ["UnitLine"] * 12 + ["AttemptLine"] * 11
    run_line = lines[0]
    assert isinstance(run_line, RunLine) and run_line.units == 12
    assert run_line.config["agent_model"] == "model-a@http://127.0.0.1:9/v1"
    units = [line for line in lines if isinstance(line, UnitLine)]
    stored = {(r.task_id, r.trial): r for r in load_run(run_dir).records}
    for unit in units:
        record = stored[(unit.task_id, unit.trial)]
        assert unit.simulation == record.simulation and unit.evaluation == record.evaluation
    by_key = {(u.task_id, u.trial): u for u in units}
    assert by_key[("t-fail", 1)].outcome == "fail" and by_key[("t-fail", 1)].reward == 0.0
    assert (
        by_key[("t-ungraded", 1)].outcome == "pending"
        and by_key[("t-ungraded", 1)].simulation is None
    )
    task = next(line for line in lines if isinstance(line, TaskLine))
    assert task.task["environment"]["orders"]["O1"]["status"] == "unpaid"
    assert all(isinstance(line, AttemptLine) for line in lines[19:])


def test_export_is_deterministic_and_writes_files(run_dir: Path, tmp_path: Path) -> None:
    first = _export(str(run_dir))
    assert _export(str(run_dir)) == first
    assert HOSTILE not in first  # JSON-escaped (\u001b), not raw
    _export(str(run_dir), "--out", str(tmp_path / "x.jsonl"))
    assert (tmp_path / "x.jsonl").read_text(encoding="utf-8") == first
    code, _, err = _cli("export", str(run_dir), "--out", str(run_dir / "run.sqlite" / "x"))
    assert code == 2 and "cannot write" in err


def test_export_schema_is_json_schema() -> None:
    schema = json.loads(_export("--schema"))
    assert {"RunLine", "UnitLine", "TaskLine", "AttemptLine"} <= set(schema["$defs"])
    assert schema["discriminator"]["propertyName"] == "record"


def test_run_format_doc_names_every_export_field_and_store_column() -> None:
    doc = DOCS.read_text(encoding="utf-8")
    for model in (RunLine, UnitLine, TaskLine, AttemptLine, BriefingLine, CallLine):
        for name in model.model_fields:
            assert f"`{name}`" in doc, f"{model.__name__}.{name} is not documented"
    columns = re.findall(r"^\s+(\w+)\s+(?:INTEGER|TEXT|REAL)", DDL, flags=re.MULTILINE)
    tables = re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", DDL)
    for name in columns + tables:
        assert f"`{name}`" in doc or f".{name}`" in doc, f"store column/table {name} undocumented"
