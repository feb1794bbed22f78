"""Task-set complexity statistics (the analogue of VitaBench Tables 2 and 5)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.vita.loader import load_tasks
from lifebench.vita.stats import infer_domain, task_stats
from lifebench.vita.suite import VitaSuite


def test_official_delivery_stats(delivery_tasks_en: Path) -> None:
    tasks = load_tasks(delivery_tasks_en)
    assert infer_domain(tasks) == "delivery"
    s = task_stats(tasks, "delivery", VitaSuite().toolset("delivery", "en"), "official")
    raw = json.loads(delivery_tasks_en.read_text())
    providers = sum(len(t["environment"]["stores"]) for t in raw)
    products = sum(len(st["products"]) for t in raw for st in t["environment"]["stores"].values())
    orders = sum(len(t["environment"].get("orders") or {}) for t in raw)
    assert (s.providers, s.products, s.transactions) == (providers, products, orders)
    assert s.search_space == providers + products + orders
    assert (
        s.reasoning_points
        == sum(len(t["evaluation_criteria"]["overall_rubrics"]) for t in raw) / 60
    )
    assert s.distinct_rubrics >= s.reasoning_points
    assert (s.tools, s.tools_by_kind) == (20, {"read": 10, "write": 4, "general": 6})
    assert s.density == s.edges / (20 * 19)


def test_stats_cli_bundled_and_json(delivery_tasks_en: Path) -> None:
    result = CliRunner().invoke(app, ["tasks", "stats"])
    assert result.exit_code == 0 and "delivery" in result.stdout and "edges" in result.stdout
    result = CliRunner().invoke(app, ["tasks", "stats", str(delivery_tasks_en), "--json"])
    rows = json.loads(result.stdout)
    assert rows[0]["n_tasks"] == 60 and rows[0]["domain"] == "delivery"
