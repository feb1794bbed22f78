"""Importing a results file of the official harness, then reporting and re-grading it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.simulation import Episode, ScriptedUser, Simulation, run_episode
from lifebench.vita.agents.oracle import OracleAgent
from lifebench.vita.domains.delivery import DeliveryEnvironment
from lifebench.vita.loader import load_tasks

SECRET = "sk-official-HEADER-SECRET-123"


def _official_message(m: Any, i: int) -> dict[str, Any]:
    base = {"role": m.role, "content": m.content, "turn_idx": i, "timestamp": "2025-01-01T00:00:00"}
    if m.role == "assistant":
        base["tool_calls"] = [
            {
                "id": c.id,
                "name": c.name,
                "arguments": json.loads(c.arguments),
                "requestor": "assistant",
            }
            for c in m.tool_calls
        ] or None
        base["cost"] = 0.001
        base["usage"] = {"prompt_tokens": 100, "completion_tokens": 10}
    if m.role == "tool":
        base.update({"id": m.tool_call_id, "requestor": "assistant", "error": m.error})
    return base


def _official_results(tasks_file: Path, tmp_path: Path) -> Path:
    raw_tasks = json.loads(tasks_file.read_text())[:2]
    tasks = load_tasks(tasks_file)[:2]
    sims = []
    for raw, task in zip(raw_tasks, tasks, strict=True):
        env = DeliveryEnvironment(task)
        sim: Simulation = asyncio.run(
            run_episode(
                Episode(
                    task_id=task.id,
                    trial=0,
                    seed=7,
                    environment=env,
                    agent=OracleAgent(task),
                    user=ScriptedUser([task.instructions]),
                )
            )
        )
        orders = list(sim.final_state["orders"].values())
        sims.append(
            {
                "id": f"uuid-{task.id}",
                "task_id": task.id,
                "trial": 0,
                "seed": 7,
                "termination_reason": "user_stop",
                "agent_cost": 0.01,
                "user_cost": 0.0,
                "duration": 3.5,
                "reward_info": {
                    "reward": 1.0,
                    "nl_rubrics": [
                        {"nl_rubric": r, "met": True, "justification": "ok"}
                        for r in raw["evaluation_criteria"]["overall_rubrics"]
                    ],
                },
                "messages": [_official_message(m, i) for i, m in enumerate(sim.messages)],
                "states": {"old_states": [], "new_states": orders},
            }
        )
    results = {
        "timestamp": "20250101_000000",
        "info": {
            "git_commit": "96f3b85",
            "num_trials": 1,
            "max_steps": 300,
            "max_errors": 10,
            "seed": 300,
            "agent_info": {
                "implementation": "llm_agent",
                "llm": "gpt-4.1",
                "llm_args": {"headers": {"Authorization": f"Bearer {SECRET}"}},
            },
            "user_info": {"implementation": "user_simulator", "llm": "gpt-4.1", "llm_args": {}},
            "environment_info": {"domain_name": "delivery", "tool_defs": None},
        },
        "tasks": raw_tasks,
        "simulations": sims,
    }
    path = tmp_path / "official_results.json"
    path.write_text(json.dumps(results, ensure_ascii=False))
    return path


def test_import_report_and_state_regrade(tmp_path: Path, delivery_tasks_en: Path) -> None:
    results = _official_results(delivery_tasks_en, tmp_path)
    out = tmp_path / "imported"
    result = CliRunner().invoke(app, ["import", str(results), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "imported 2 simulations" in result.stdout
    assert SECRET.encode() not in (out / "run.sqlite").read_bytes()

    rep = json.loads(CliRunner().invoke(app, ["report", str(out), "--json"]).stdout)
    assert rep["n_simulations"] == 2 and rep["reward_by_basis"] == {"official": 1.0}
    assert rep["tokens"]["agent"]["prompt"] > 0

    result = CliRunner().invoke(app, ["eval", str(out), "--evaluator", "state", "--quiet"])
    assert result.exit_code == 0, result.stderr
    rep = json.loads(CliRunner().invoke(app, ["report", str(out), "--json"]).stdout)
    assert rep["reward_by_basis"] == {"official": 1.0, "state": 1.0}
    assert rep["avg_reward"] == 1.0

    again = CliRunner().invoke(app, ["import", str(results), "--out", str(out)])
    assert again.exit_code == 0 and "imported 0 simulations" in again.stdout


def test_import_rejects_non_results(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("[]")
    result = CliRunner().invoke(app, ["import", str(bad), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "x.json" in result.stderr
