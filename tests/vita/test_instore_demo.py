"""The bundled in-store demo tasks: lint-clean, same scenarios in both languages, solvable.

Each scenario has exactly one answer under its stated constraints and at least one near miss
(a shop too far away or rated too low, a sold-out product, a shop that does not take the
needed kind of appointment).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.simulation import Episode, NoopAgent, ScriptedUser, run_episode
from lifebench.vita.agents.oracle import OracleAgent, oracle_plan
from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.grading.instore import instore_state_evaluator
from lifebench.vita.lint import lint_tasks
from lifebench.vita.loader import load_bundled_tasks
from lifebench.vita.task import VitaTask

LANGUAGES = ("en", "zh")
CJK = re.compile(r"[\u4e00-\u9fff]")

# Per scenario: (the place the distance is measured from, max metres, minimum rating).
CONSTRAINTS: dict[str, tuple[int, float | None, float | None]] = {
    "LBI001": (0, 3000, 4.6),  # from home
    "LBI002": (1, 2000, 4.6),  # from work
    "LBI003": (0, 1500, 4.5),
    "LBI004": (0, None, None),
    "LBI005": (0, 2000, 4.5),
    "LBI006": (0, None, None),
}


def haversine(a: dict[str, Any], b: dict[str, Any]) -> float:
    p1, p2 = math.radians(a["latitude"]), math.radians(b["latitude"])
    dp, dl = p2 - p1, math.radians(b["longitude"] - a["longitude"])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6_371_000 * math.asin(math.sqrt(h))


def base_id(task: VitaTask) -> str:
    return task.id.rsplit("_", 1)[0]


def records(task: VitaTask) -> list[dict[str, Any]]:
    assert task.evaluation_criteria is not None
    return [r for s in task.evaluation_criteria.expected_states for r in s.required_orders]


@pytest.fixture(scope="module", params=LANGUAGES)
def tasks(request: pytest.FixtureRequest) -> list[VitaTask]:
    return load_bundled_tasks("instore", request.param)


def test_six_tasks_per_language_and_lint_clean(tasks: list[VitaTask]) -> None:
    assert [base_id(t) for t in tasks] == list(CONSTRAINTS)
    language = tasks[0].id.rsplit("_", 1)[1]
    assert all(t.id.endswith(f"_{language}") and t.domain == "instore" for t in tasks)
    assert lint_tasks(tasks) == []  # not even warnings
    for task in tasks:
        assert set(task.environment) == {
            "time",
            "user_id",
            "orders",
            "weather",
            "location",
            "shops",
            "books",
            "reservations",
            "user_historical_behaviors",
        }
        assert task.message_history == [] and len(task.user_scenario.user_profile) == 10
        for sid, shop in task.environment["shops"].items():
            assert shop["shop_id"] == sid and all(p["shop_id"] == sid for p in shop["products"])


def test_languages_describe_the_same_scenarios() -> None:
    en, zh = (load_bundled_tasks("instore", lang) for lang in LANGUAGES)
    for a, b in zip(en, zh, strict=True):
        assert base_id(a) == base_id(b)
        ea, eb = a.environment, b.environment
        assert (ea["time"], ea["user_id"]) == (eb["time"], eb["user_id"])
        assert ea["orders"].keys() == eb["orders"].keys()
        assert ea["reservations"] == eb["reservations"] and ea["books"] == eb["books"]
        for sid, shop in ea["shops"].items():
            other = eb["shops"][sid]
            keep = ("score", "enable_book", "book_price", "enable_reservation")
            assert [shop[k] for k in keep] == [other[k] for k in keep]
            assert shop["location"]["longitude"] == other["location"]["longitude"]
            assert [(p["product_id"], p["price"], p["quantity"]) for p in shop["products"]] == [
                (p["product_id"], p["price"], p["quantity"]) for p in other["products"]
            ]
        strip = ("name", "products")
        assert [{k: v for k, v in r.items() if k not in strip} for r in records(a)] == [
            {k: v for k, v in r.items() if k not in strip} for r in records(b)
        ]
        assert not CJK.search(a.instructions + json.dumps(ea))
        assert CJK.search(b.instructions) and CJK.search(json.dumps(eb, ensure_ascii=False))


def test_targets_meet_the_constraints_and_near_misses_exist(tasks: list[VitaTask]) -> None:
    for task in tasks:
        where, max_m, min_score = CONSTRAINTS[base_id(task)]
        origin = task.environment["location"][where]
        shops = task.environment["shops"]
        targets = {r.get("store_id") or r["shop_id"] for r in records(task)}
        for sid in targets:
            if max_m is not None:
                assert haversine(origin, shops[sid]["location"]) <= max_m, (task.id, sid)
            if min_score is not None:
                assert shops[sid]["score"] >= min_score, (task.id, sid)
        if max_m is not None and min_score is not None:
            # a near miss: some shop is too far away or rated too low
            assert any(
                haversine(origin, s["location"]) > max_m or s["score"] < min_score
                for s in shops.values()
            )


def test_scenarios_cover_the_required_situations() -> None:
    by_id = {base_id(t): t for t in load_bundled_tasks("instore", "en")}

    def kinds(task_id: str) -> list[tuple[str, str]]:
        out = []
        for r in records(by_id[task_id]):
            kind = "order" if "order_id" in r else "book" if "book_id" in r else "reservation"
            out.append((kind, r["status"]))
        return out

    # product order + pay, with the best shop's voucher sold out
    assert kinds("LBI001") == [("order", "paid")]
    spa = by_id["LBI001"].environment["shops"]["LBI001_I1"]
    assert spa["score"] > by_id["LBI001"].environment["shops"]["LBI001_I2"]["score"]
    assert spa["products"][0]["quantity"] == 0
    # table booking with a fee that must be paid
    assert kinds("LBI002") == [("book", "paid")]
    assert by_id["LBI002"].environment["shops"]["LBI002_I1"]["book_price"] > 0
    # service reservation after buying the voucher; a closer shop takes no appointments
    assert kinds("LBI003") == [("order", "paid"), ("reservation", "unconsumed")]
    assert not by_id["LBI003"].environment["shops"]["LBI003_I4"]["enable_reservation"]
    # modify an existing reservation (time and people); another one stays as it is
    before = by_id["LBI004"].environment["reservations"]
    after = {r["reservation_id"]: r for r in records(by_id["LBI004"]) if "reservation_id" in r}
    assert after["LBI004R01"]["customer_count"] == before["LBI004R01"]["customer_count"] + 1
    assert after["LBI004R01"]["reservation_time"] != before["LBI004R01"]["reservation_time"]
    assert after["LBI004R02"] == before["LBI004R02"]
    # cancel a pre-existing order, leave the other one, buy a replacement
    assert kinds("LBI005") == [("order", "cancelled"), ("order", "paid")]
    assert set(by_id["LBI005"].environment["orders"]) == {"LBI005O01", "LBI005O02"}
    # sold-out set replaced by two single sets, then a free booking (paid at once)
    assert kinds("LBI006") == [("order", "paid"), ("book", "paid")]
    (order, _book) = records(by_id["LBI006"])
    assert order["products"][0]["quantity"] == 2


def test_oracle_passes_noop_and_distractor_fail(tasks: list[VitaTask]) -> None:
    evaluator = instore_state_evaluator()

    async def reward(task: VitaTask, agent: Any) -> float:
        env = InStoreEnvironment(task, language="zh" if task.id.endswith("_zh") else "en")
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
        assert sim.tool_errors == 0 or not isinstance(agent, OracleAgent)
        return evaluator.grade(task, sim).reward

    for task in tasks:
        assert asyncio.run(reward(task, OracleAgent(task, domain="instore"))) == 1.0, task.id
        assert asyncio.run(reward(task, NoopAgent())) == 0.0, task.id
        plan = oracle_plan(task, domain="instore", distractor=True)
        if plan != oracle_plan(task, domain="instore"):
            distractor = OracleAgent(task, domain="instore", distractor=True)
            assert asyncio.run(reward(task, distractor)) == 0.0, task.id


@pytest.mark.parametrize("language", LANGUAGES)
def test_cli_runs_the_bundled_tasks(tmp_path: Path, language: str) -> None:
    out = tmp_path / language
    args = [
        "run",
        "--task-set",
        "demo",
        "--domain",
        "instore",
        "--language",
        language,
        "--out",
        str(out),
        "--quiet",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(CliRunner().invoke(app, ["report", str(out), "--json"]).stdout)
    assert (report["n_tasks"], report["n_errors"], report["pass_hat_k"]["1"]) == (6, 0, 1.0)
