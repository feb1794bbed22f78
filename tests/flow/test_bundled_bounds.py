"""Acceptance on the bundled generated data, every level, setting and language: the gold agent
scores 1.0 everywhere, the noop agent recalls no tool and completes no session."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from lifebench.evaluation import Evaluation
from lifebench.flow.evaluation.report import flow_report
from lifebench.flow.suite import FlowSuite
from lifebench.runner._experiment import evaluate
from lifebench.simulation import Simulation, run_episode
from lifebench.suites import RunOptions


@dataclass(frozen=True)
class _Rec:
    simulation: Simulation
    evaluation: Evaluation
    status: str = "done"


def _report(level: str, setting: str, language: str, agent: str) -> dict[str, Any]:
    suite = FlowSuite()
    options = RunOptions(
        suite="flow",
        agent=agent,
        language=language,
        domain="all",
        suite_options={"level": level, "setting": setting},
    )
    units = suite.load_run_tasks(None, "all", options)
    evaluators = suite.build_evaluators(options, models=None)  # type: ignore[arg-type]
    bases = suite.reward_bases(options)

    async def run_all() -> list[_Rec]:
        out = []
        for i, unit in enumerate(units):
            sim = await run_episode(suite.build_episode(unit, 0, i, options, models=None))  # type: ignore[arg-type]
            out.append(_Rec(sim, await evaluate(unit, sim, evaluators, bases)))
        return out

    records = asyncio.run(run_all())
    return flow_report(records, {"suite_options": options.suite_options.model_dump()})


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("setting", ["single", "cross"])
def test_turn_level_gold_is_perfect(setting: str, language: str) -> None:
    rep = _report("turn", setting, language, "gold")
    assert rep["turns"] > 100 and rep["turn_counts"]["tools"]["n_gold"] > 30
    assert (rep["tool_f1"], rep["param_f1"], rep["node_accuracy"]) == (1.0, 1.0, 1.0)
    assert rep["format_errors"] == 0


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("setting", ["single", "cross"])
def test_session_level_gold_replay_is_perfect(setting: str, language: str) -> None:
    rep = _report("session", setting, language, "gold")
    assert rep["sessions"] >= 10 and rep["session_counts"]["ungradable"] == 0
    assert (rep["success_rate"], rep["task_progress"], rep["tool_f1"]) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("level", ["turn", "session"])
def test_noop_recalls_nothing(level: str) -> None:
    rep = _report(level, "single", "en", "noop")
    assert rep["tool_recall"] == 0.0
    if level == "session":
        assert rep["success_rate"] == 0.0 and rep["task_progress"] == 0.0
