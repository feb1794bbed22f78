"""Acceptance on the 60 official English in-store tasks (skipped when the sample is absent, failed in CI).

For every task: the environment builds, the oracle passes, the noop agent fails, and the
distractor oracle (another product or shop) fails; the same through ``lifebench run``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.simulation import Episode, NoopAgent, ScriptedUser, run_episode
from lifebench.tools import ToolOutcome
from lifebench.vita.agents.oracle import OracleAgent, oracle_plan
from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.grading.instore import instore_state_evaluator
from lifebench.vita.loader import load_tasks
from lifebench.vita.task import VitaTask
from shared_data import shared_file

HIDDEN_KEYS = (
    "shop_type",
    "product_type",
    "target_reason",
    "category",
    "business_hours",
    "products_preview",
    "special_note",
)


@pytest.fixture(scope="module")
def path() -> Path:
    return shared_file("vitabench", "instore_tasks_en.json")


@pytest.fixture(scope="module")
def tasks(path: Path) -> list[VitaTask]:
    return load_tasks(path)


def ok(outcome: ToolOutcome) -> Any:
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


async def _reward(task: VitaTask, agent: Any) -> float:
    env = InStoreEnvironment(task)
    sim = await run_episode(
        Episode(
            task_id=task.id,
            trial=0,
            seed=0,
            environment=env,
            agent=agent,
            user=ScriptedUser([task.instructions]),
        )
    )
    return instore_state_evaluator().grade(task, sim).reward


def test_every_task_builds_without_annotations(tasks: list[VitaTask]) -> None:
    assert len(tasks) == 60
    for task in tasks:
        env = InStoreEnvironment(task)
        assert len(env.tools) == 24
        assert env.now.strftime("%Y-%m-%d %H:%M:%S") == task.environment["time"]
        assert set(env.db.shops) == set(task.environment["shops"])
        assert set(env.db.orders) == set(task.environment["orders"])
        assert all(o.create_time for o in env.db.orders.values())
        dumped = json.dumps(env.snapshot()) + json.dumps(
            [s.model_dump() for s in env.db.shops.values()]
        )
        assert not any(f'"{key}"' in dumped for key in HIDDEN_KEYS), task.id
    assert sum(len(InStoreEnvironment(t).db.orders) for t in tasks) == 21


async def test_shops_and_products_are_findable(tasks: list[VitaTask]) -> None:
    for n, task in enumerate(tasks):
        env = InStoreEnvironment(task)
        for shop in env.db.shops.values():
            found = ok(
                await env.tools.run("instore_shop_search_recommend", {"keywords": [shop.shop_name]})
            )
            assert shop.shop_id in [s["shop_id"] for s in found], (task.id, shop.shop_name)
            for product in shop.products if n % 6 == 0 else shop.products[:1]:
                hits = ok(
                    await env.tools.run(
                        "instore_product_search_recommend",
                        {"keywords": [shop.shop_name, product.name]},
                    )
                )
                assert product.product_id in [h["product_id"] for h in hits], (
                    task.id,
                    product.name,
                )


def test_oracle_passes_noop_and_distractor_fail(tasks: list[VitaTask]) -> None:
    oracle = [asyncio.run(_reward(t, OracleAgent(t, domain="instore"))) for t in tasks]
    assert sum(oracle) / len(tasks) >= 0.95
    noop = [asyncio.run(_reward(t, NoopAgent())) for t in tasks]
    assert sum(noop) / len(tasks) <= 0.05
    checked = passed = 0
    for task in tasks:
        honest = [(c.name, dict(c.args)) for c in oracle_plan(task, domain="instore")]
        swapped = [
            (c.name, dict(c.args)) for c in oracle_plan(task, domain="instore", distractor=True)
        ]
        if honest == swapped:
            continue
        checked += 1
        passed += asyncio.run(_reward(task, OracleAgent(task, domain="instore", distractor=True)))
    assert checked >= 50
    assert passed == 0


def _report(tmp_path: Path, tasks: Path, agent: str) -> dict[str, Any]:
    out = tmp_path / agent
    args = [
        "run",
        "--domain",
        "instore",
        "--tasks",
        str(tasks),
        "--trials",
        "2",
        "--agent",
        agent,
        "--out",
        str(out),
        "--quiet",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = CliRunner().invoke(app, ["report", str(out), "--json"])
    data: dict[str, Any] = json.loads(report.stdout)
    return data


def test_cli_run_and_report(tmp_path: Path, path: Path) -> None:
    oracle = _report(tmp_path, path, "oracle")
    assert (oracle["n_tasks"], oracle["n_simulations"], oracle["n_errors"]) == (60, 120, 0)
    assert oracle["pass_hat_k"]["1"] >= 0.95
    noop = _report(tmp_path, path, "noop")
    assert noop["n_simulations"] == 120 and noop["pass_hat_k"]["1"] <= 0.05
