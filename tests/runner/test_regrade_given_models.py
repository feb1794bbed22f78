"""``regrade(models=...)``: a factory given by the caller grades every simulation — the ones
graded before and the ones whose evaluation had failed (those used to be graded by models
built from the run's models file instead, which knows none of the caller's models)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from test_mutation_guards_regrade import _Factory, _Judge, _run

from lifebench.runner import RunStore
from lifebench.runner._regrade import RegradeSummary, regrade


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_given_factory_grades_the_failed_evaluations_too(tmp_path: Path, language: str) -> None:
    out = tmp_path / "run"
    _run(out, language=language, tasks=2)
    broken = _Factory(_Judge(broken=True))
    summary = asyncio.run(regrade(out, {"evaluator": "rubric"}, models=broken, concurrency=1))
    assert summary == RegradeSummary(graded=2, errors=2, skipped=0, no_judge=False)
    judge = _Judge()
    good = _Factory(judge)
    summary = asyncio.run(regrade(out, {"evaluator": "rubric"}, models=good, concurrency=1))
    assert summary == RegradeSummary(graded=2, errors=0, skipped=0, no_judge=False)
    assert judge.calls == 2  # one window per failed simulation, asked of the given judge
    assert good.closed == 1  # closed once, although it graded both groups
    with RunStore.read(out) as store:
        evaluations = [r.evaluation for r in store.results()]
    assert all(e is not None and e.error is None and e.reward == 1.0 for e in evaluations)
