"""``lifebench tasks certify``: near misses are real, the grader rejects them, bugs show up."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import pytest
from _vita_builders import delivery_task
from test_instore_grading import make_task as instore_task
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.vita.agents.oracle import oracle_plan
from lifebench.vita.agents.replay import replay
from lifebench.vita.certify import PlanContext, certify_task, certify_tasks, perturb
from lifebench.vita.grading import state as state_module
from lifebench.vita.loader import load_bundled_tasks
from lifebench.vita.task import VitaTask

DELIVERY_KINDS = {
    "quantity",
    "attribute",
    "product",
    "store",
    "address",
    "note_omitted",
    "note_negated",
    "extra_order",
}


def _certify(task: VitaTask, domain: str = "delivery"):  # type: ignore[no-untyped-def]
    return asyncio.run(certify_task(task, domain, "en"))


DELIVERY_FIELDS = {
    "products",
    "attribute",
    "store",
    "status",
    "time",
    "address",
    "note",
    "unrequested",
}


def test_every_delivery_near_miss_applies_and_is_rejected() -> None:
    cert = _certify(delivery_task())
    assert cert.solvable and cert.discriminating and cert.noop == "rejected"
    assert {t.field for t in cert.near_misses} == DELIVERY_FIELDS
    assert all(t.outcome == "rejected" for t in cert.near_misses)
    assert all(t.tool_errors == 0 for t in cert.near_misses) and cert.data_errors == []
    kinds = Counter(t.kind for t in cert.near_misses)
    # one near miss per created line and per field, not one per kind: T1 has three lines
    assert kinds["quantity"] == 1 and kinds["unasked_note"] == 0 and kinds["cancelled"] == 1
    assert kinds["note_changed"] == 1  # O2, the order nobody mentions
    assert all(t.outcome == "accepted" for t in cert.variations)
    assert {t.kind for t in cert.variations} >= {
        "extra_reads",
        "cancel_and_recreate",
        "edited_after_creation",
        "same_meaning_upper_case",
        "same_meaning_full_width",
        "same_meaning_polite",
    }


@pytest.mark.parametrize("kind", sorted(DELIVERY_KINDS))
def test_each_near_miss_is_a_valid_plan_that_changes_one_call(kind: str) -> None:
    task = delivery_task()
    plan = oracle_plan(task)
    changed = getattr(perturb, kind)(PlanContext(task, plan))
    assert changed is not None and changed != plan
    # the tools accept every call of the near miss: the grader, not a tool, must reject it
    done = replay(task, "delivery", changed)
    assert done.failures == ()
    assert done.result.gradable and done.result.reward == 0.0
    before, after = Counter(map(repr, plan)), Counter(map(repr, changed))
    diff = sum(((before - after) + (after - before)).values())
    assert 1 <= diff <= 2  # exactly one call changed (one out, one in), added or removed


def test_appointment_near_misses_apply_and_are_rejected() -> None:
    cert = _certify(instore_task(), "instore")
    assert cert.solvable and cert.discriminating
    fields = Counter(t.field for t in cert.near_misses if t.outcome == "rejected")
    for field in ("party_size", "date", "time", "products", "store", "status", "unrequested"):
        assert fields[field] >= 1, field
    assert {t.kind for t in cert.near_misses} >= {"moved", "resized", "cancelled", "extra_record"}
    assert not cert.false_accepts and not cert.false_rejects


def test_ota_near_misses_apply_and_are_rejected() -> None:
    report = asyncio.run(certify_tasks(load_bundled_tasks("ota", "en", "demo"), "ota", "en"))
    s = report.summary
    assert s.solvable == s.tasks and not any(s.false_accepts.values()) and not s.noop_accepted
    for field in ("store", "date", "status", "products", "unrequested"):
        assert s.by_field[field].rejected >= 1, field
    assert not any(s.false_rejects.values())


def test_a_grader_that_ignores_notes_shows_false_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_module, "same_text", lambda a, b: True)
    cert = _certify(delivery_task())
    assert cert.solvable and not cert.discriminating
    accepted = {t.kind for t in cert.false_accepts}
    assert {"note_negated", "note_omitted"} <= accepted and "quantity" not in accepted


def test_a_task_noop_passes_is_reported() -> None:
    # The only requirement is an existing order that stays as it is.
    task = delivery_task()
    keep = dict(task.environment["orders"]["O1"])
    task = delivery_task(expected=[keep])
    cert = _certify(task)
    assert cert.solvable and cert.noop == "accepted" and not cert.discriminating


def test_unsolvable_tasks_carry_their_data_errors() -> None:
    task = delivery_task()
    raw = task.model_dump()
    raw["evaluation_criteria"]["expected_states"][0]["required_orders"][0]["products"][0][
        "product_id"
    ] = "GHOST"
    cert = _certify(VitaTask.model_validate(raw))
    assert not cert.solvable
    assert any("no store of the task sells it" in e for e in cert.data_errors)
    assert cert.oracle_evidence  # why the oracle's final state fails


def _write(tmp_path: Path, tasks: list[VitaTask]) -> Path:
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps([t.model_dump(mode="json") for t in tasks]), encoding="utf-8")
    return path


def test_cli_json_shape_and_exit_code(tmp_path: Path) -> None:
    path = _write(tmp_path, [delivery_task()])
    result = CliRunner().invoke(app, ["tasks", "certify", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    (task,) = data["tasks"]
    assert {"id", "solvable", "discriminating", "data_errors", "near_misses", "variations"} <= set(
        task
    )
    assert {t["outcome"] for t in task["near_misses"]} == {"rejected"}
    assert {"field", "kind", "target", "outcome", "tool_errors"} == set(task["near_misses"][0])
    summary = data["summary"]
    assert summary["tasks"] == 1 and summary["solvable"] == 1
    assert set(summary["false_accepts"].values()) == {0}
    assert summary["by_field"]["time"]["generated"] >= 1
    assert summary["by_field"]["time"]["rejected"] == summary["by_field"]["time"]["generated"]
    assert summary["variations"]["extra_reads"] == {
        "generated": 1,
        "accepted": 1,
        "false_rejects": 0,
        "tool_stopped": 0,
    }


def test_cli_table_and_exit_1_on_a_false_accept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, [delivery_task()])
    ok = CliRunner().invoke(app, ["tasks", "certify", str(path)])
    assert ok.exit_code == 0 and "Near misses by field class" in ok.stdout
    assert "Correct-but-unusual variations" in ok.stdout and "false accepts 0" in ok.stdout
    monkeypatch.setattr(state_module, "same_text", lambda a, b: True)
    bad = CliRunner().invoke(app, ["tasks", "certify", str(path)])
    assert bad.exit_code == 1 and "false accept SYN1: note/note_omitted" in bad.stdout


def test_cli_bundled_set_and_bad_input(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["tasks", "certify", "--domain", "ota", "--task-set", "demo"])
    assert result.exit_code == 0 and "8 tasks (ota, en)" in result.stdout
    missing = CliRunner().invoke(app, ["tasks", "certify"])
    assert missing.exit_code == 2 and "--domain" in missing.stderr
    bad = CliRunner().invoke(app, ["tasks", "certify", str(tmp_path / "none.json")])
    assert bad.exit_code == 2 and "no such task file" in " ".join(bad.stderr.split())
