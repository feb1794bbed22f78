"""A unit's grading names every basis it could not compute; a run's summary counts every unit
it executed; an unnamed sweep value is labelled by its options in name order."""

from __future__ import annotations

import asyncio
from typing import Any

from runner_fakes import simulation

from lifebench.evaluation._types import BasisResult
from lifebench.runner import RunSummary, WorkUnit
from lifebench.runner._experiment import evaluate
from lifebench.runner._sweep import SweepSpec, expand


class State:
    basis = "state"

    async def evaluate(self, task: Any, sim: Any) -> BasisResult:
        return BasisResult(basis="state", reward=1.0, score=1.0)


def test_a_basis_no_evaluator_computed_makes_the_evaluation_an_error() -> None:
    sim = simulation(WorkUnit("t", 0, 1))
    ev = asyncio.run(evaluate(None, sim, {"state": State()}, ["state", "judge"]))
    assert ev.error == "evaluation failed: bases not computed: judge"
    assert ev.reward == 0.0 and ev.basis == "state+judge"
    ok = asyncio.run(evaluate(None, sim, {"state": State()}, ["state"]))
    assert ok.error is None and ok.reward == 1.0


def test_executed_counts_done_failed_and_rejected_units() -> None:
    summary = RunSummary(total=9, done=1, infra_errors=2, skipped=2, duration_s=0.0, rejected=4)
    assert summary.executed == 7


def test_an_unnamed_mapping_is_labelled_in_option_name_order() -> None:
    spec = SweepSpec(grid={"m": [{"temperature": 0.5, "agent_model": "gpt-x@http://h/v1"}]})
    (cell,) = expand(spec)
    assert cell.labels == {"m": "gpt-x+0.5"}
