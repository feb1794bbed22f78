"""Rules of ``compare_runs`` that the other tests leave unpinned: each test fails when one rule
is deleted (scripts/mutation.sh)."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from compare_fakes import config, records, run_data

import lifebench.runner._experiment
import lifebench.runner._regrade
import lifebench.suites
from lifebench.compare import compare_runs

# compare_runs imports these modules lazily and they bind ``get_suite`` by name: imported first
# while the test below patches it, they would keep the fake for every later test of the process.
assert lifebench.runner._experiment.get_suite is lifebench.runner._regrade.get_suite

TASKS = [f"t{i:02d}" for i in range(10)]


class _RecordingSuite:
    """A suite whose number is the mean reward of a task's records, scaled by the run's own
    configuration; it records the name it was asked for."""

    def __init__(self, asked: list[str]) -> None:
        self.asked = asked

    def compared_metrics(self, cfg: Mapping[str, Any]) -> Mapping[str, str]:
        return {"scaled": "score"}

    def report_metrics(self, recs: Sequence[Any], cfg: Mapping[str, Any]) -> Mapping[str, Any]:
        rewards = [r.evaluation.reward for r in recs]
        return {"scaled": cfg["scale"] * sum(rewards) / len(rewards)}


def test_the_suite_numbers_come_from_the_runs_suite_with_its_configuration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []

    def get_suite(name: Any) -> _RecordingSuite:
        asked.append(name)
        if name != "vita":
            raise AssertionError(f"asked for suite {name!r}")
        return _RecordingSuite(asked)

    monkeypatch.setattr(lifebench.suites, "get_suite", get_suite)
    cfg = {**config(), "scale": 10.0}
    a = run_data(records({t: [1.0, 0.0] for t in TASKS}), name="a", cfg=cfg)
    b = run_data(records({t: [0.0, 0.0] for t in TASKS}), name="b", cfg=cfg)
    result = compare_runs([a, b], ["a", "b"], bootstrap_samples=50)
    scaled = next(m for m in result.pairs[0].metrics if m.metric == "scaled")
    assert (scaled.a, scaled.b, scaled.difference) == (5.0, 0.0, 5.0)
    assert set(asked) == {"vita"}
