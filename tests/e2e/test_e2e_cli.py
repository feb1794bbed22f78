"""The CLI contract, end to end and offline: run, report, tasks validate, tools."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lifebench.cli import app

OFFICIAL_DELIVERY_TOOLS = {
    "longitude_latitude_to_distance",
    "weather",
    "address_to_longitude_latitude",
    "get_date_holiday_info",
    "get_holiday_date",
    "get_user_historical_behaviors",
    "get_user_all_orders",
    "get_nearby",
    "delivery_distance_to_time",
    "get_delivery_store_info",
    "get_delivery_product_info",
    "delivery_store_search_recommand",
    "delivery_product_search_recommand",
    "create_delivery_order",
    "pay_delivery_order",
    "get_delivery_order_status",
    "cancel_delivery_order",
    "modify_delivery_order",
    "search_delivery_orders",
    "get_delivery_order_detail",
}


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _report(run_dir: Path) -> dict:
    code, out, err = _invoke("report", str(run_dir), "--json")
    assert code == 0, err
    return json.loads(out)


def test_default_run_uses_the_generated_set(tmp_path: Path) -> None:
    code, out, err = _invoke("run", "--out", str(tmp_path / "gen"), "--quiet")
    assert code == 0, err + out
    rep = _report(tmp_path / "gen")
    assert rep["n_tasks"] == 100 and rep["n_errors"] == 0
    assert rep["pass_hat_k"]["1"] >= 0.95
    assert all(t["task_id"].startswith("GEN-delivery-0-") for t in rep["tasks"])


def test_demo_run_without_models(tmp_path: Path) -> None:
    code, out, err = _invoke(
        "run", "--task-set", "demo", "--out", str(tmp_path / "demo"), "--quiet"
    )
    assert code == 0, err + out
    rep = _report(tmp_path / "demo")
    assert rep["n_tasks"] == 6 and rep["n_simulations"] == 6 and rep["n_errors"] == 0
    assert rep["pass_hat_k"] == {"1": 1.0}
    assert set(rep["avg_at_k"]) == {"1"} and set(rep["pass_at_k"]) == {"1"}
    assert (tmp_path / "demo" / "report.json").is_file()


def test_same_run_twice_gives_identical_reports(tmp_path: Path) -> None:
    for name in ("a", "b"):
        code, _, err = _invoke(
            "run", "--task-set", "demo", "--trials", "2", "--out", str(tmp_path / name), "--quiet"
        )
        assert code == 0, err
    assert (tmp_path / "a" / "report.json").read_bytes() == (
        tmp_path / "b" / "report.json"
    ).read_bytes()
    code, out_a, _ = _invoke("report", str(tmp_path / "a"), "--json")
    code, out_b, _ = _invoke("report", str(tmp_path / "b"), "--json")
    assert out_a == out_b


def test_rerun_resumes_and_refuses_changed_config(tmp_path: Path) -> None:
    out = str(tmp_path / "r")
    assert _invoke("run", "--task-set", "demo", "--out", out, "--quiet")[0] == 0
    code, stdout, _ = _invoke("run", "--task-set", "demo", "--out", out, "--quiet")
    assert code == 0 and "0 units done" in stdout and "6 already done" in stdout
    code, _, err = _invoke(
        "run", "--task-set", "demo", "--out", out, "--quiet", "--max-steps", "50"
    )
    assert code == 2
    assert "max_steps" in err


def test_noop_agent_fails_demo_tasks(tmp_path: Path) -> None:
    code, _, err = _invoke(
        "run", "--task-set", "demo", "--agent", "noop", "--out", str(tmp_path / "n"), "--quiet"
    )
    assert code == 0, err
    assert _report(tmp_path / "n")["pass_hat_k"]["1"] == 0.0


def test_tools_json_lists_the_official_delivery_tools() -> None:
    code, out, err = _invoke("tools", "--suite", "vita", "--domain", "delivery", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert {r["name"] for r in rows} == OFFICIAL_DELIVERY_TOOLS and len(rows) == 20
    kinds = [r["kind"] for r in rows]
    assert (kinds.count("write"), kinds.count("read"), kinds.count("general")) == (4, 10, 6)
    create = next(r for r in rows if r["name"] == "create_delivery_order")
    assert set(create["parameters"]["required"]) == {
        "user_id",
        "store_id",
        "product_ids",
        "product_cnts",
        "address",
        "dispatch_time",
    }
    assert {"attributes", "note"} <= set(create["parameters"]["properties"])


def test_tools_call_runs_in_a_task_environment(delivery_tasks_en: Path) -> None:
    task = json.loads(delivery_tasks_en.read_text())[0]
    store_id = next(iter(task["environment"]["stores"]))
    code, out, err = _invoke(
        "tools",
        "call",
        "--tasks",
        str(delivery_tasks_en),
        "--task-id",
        task["id"],
        "get_delivery_store_info",
        json.dumps({"store_id": store_id}),
    )
    assert code == 0, err
    payload = json.loads(out)
    assert payload["error"] is None and store_id in json.dumps(payload["result"])
    code, out, _ = _invoke(
        "tools",
        "call",
        "--tasks",
        str(delivery_tasks_en),
        "--task-id",
        task["id"],
        "pay_delivery_order",
        '{"order_id": 12}',
    )
    payload = json.loads(out)
    assert code == 1 and payload["result"] is None and payload["error_kind"] == "bad_arguments"


def test_tasks_validate_good_and_bad(tmp_path: Path, delivery_tasks_en: Path) -> None:
    code, out, _ = _invoke("tasks", "validate", str(delivery_tasks_en))
    assert code == 0 and "60 tasks OK" in out
    tasks = json.loads(delivery_tasks_en.read_text())[:3]
    tasks[1]["environment"]["time"] = "tomorrow at noon"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tasks))
    code, _, err = _invoke("tasks", "validate", str(bad))
    assert code == 2
    assert "bad.json" in err and tasks[1]["id"] in err and "environment.time" in err


def test_bad_option_values_are_clear_errors(tmp_path: Path) -> None:
    code, _, err = _invoke("run", "--domain", "moon", "--out", str(tmp_path / "x"), "--quiet")
    assert code == 2 and "moon" in err
    code, _, err = _invoke("run", "--agent", "llm", "--out", str(tmp_path / "y"), "--quiet")
    assert code != 0
    code, _, err = _invoke(
        "run", "--agent-model", "nosuch", "--out", str(tmp_path / "z"), "--quiet"
    )
    assert code == 2 and "--agent-model" in err and "nosuch" in err
    assert not (tmp_path / "z").exists()  # refused before anything ran
