"""Mutation guards for the metrics that the report prints (issue 21): ``metrics/_bootstrap.py``,
``_agreement.py``, ``_coverage.py``, ``_usage.py``, ``_passk.py`` and ``_compute.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from metrics_fakes import Rec

from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import Usage
from lifebench.metrics import compute_metrics
from lifebench.metrics._agreement import usage_by_basis
from lifebench.metrics._bootstrap import quantile, stratified_bootstrap
from lifebench.metrics._coverage import coverage_by_basis
from lifebench.simulation._types import Simulation, TerminationReason


def _mean(totals: Mapping[str, Sequence[float]]) -> float | None:
    row = totals["a"]
    return row[0] / row[1] if row[1] else None


def test_stratified_bootstrap_defaults_are_1000_replicates_seed_0_and_95_percent() -> None:
    rows = {"a": [[float(i), 1.0] for i in range(10)]}
    calls: list[int] = []

    def counted(totals: Mapping[str, Sequence[float]]) -> float | None:
        calls.append(1)
        return _mean(totals)

    default = stratified_bootstrap(rows, counted)
    assert len(calls) == 1000
    assert default == stratified_bootstrap(rows, _mean, samples=1000, seed=0, level=0.95)
    assert default != stratified_bootstrap(rows, _mean, samples=1000, seed=1, level=0.95)


def _priced_run() -> list[Rec]:
    def one(trial: int, reward: float, judge: Usage) -> Rec:
        simulation = Simulation(
            task_id="t",
            trial=trial,
            seed=trial,
            messages=[],
            termination=TerminationReason.AGENT_STOP,
            agent_usage=Usage(cost=0.25, priced_by=("models file",)),
            user_usage=Usage(cost=0.5, priced_by=("genai-prices 0.2.3: openai gpt-4.1",)),
            tool_usage=Usage.zero(),
        )
        evaluation = Evaluation(
            reward=reward,
            basis="rubric",
            by_basis={
                "rubric": BasisResult(basis="rubric", reward=reward, score=reward, usage=judge)
            },
        )
        return Rec("t", trial, "done", 1, simulation, evaluation)

    return [
        one(0, 1.0, Usage(cost=0.125, priced_by=("models file",))),
        one(1, 0.0, Usage(cost=0.0, unpriced=2)),
    ]


def test_cost_names_where_prices_come_from_and_which_roles_have_unpriced_calls() -> None:
    m = compute_metrics(_priced_run())
    assert m.cost.unpriced == {"judge": 2}  # roles without an unpriced call are left out
    assert m.cost.priced_by == {
        "agent": ["models file"],
        "user": ["genai-prices 0.2.3: openai gpt-4.1"],
        "judge": ["models file"],
    }  # the tool role has no price source and is left out
    assert (m.cost.agent, m.cost.user, m.cost.tool) == (0.25, 0.5, 0.0)
    assert (m.cost.judge, m.cost.total, m.cost.sum, m.cost.per_success) == (None,) * 4
    assert [w for w in m.warnings if w.startswith("cost unknown")] == [
        "cost unknown for judge (2 call(s)): no price for their model (not in the models file, "
        "not in genai-prices, or a self-hosted endpoint); give it `price:` in a models file "
        "(0 for a free self-hosted model)"
    ]


def test_every_price_known_gives_means_totals_and_no_warning() -> None:
    records = _priced_run()[:1]
    m = compute_metrics(records)
    assert m.cost.unpriced == {} and not [w for w in m.warnings if "cost unknown" in w]
    assert (m.cost.agent, m.cost.user, m.cost.judge, m.cost.tool) == (0.25, 0.5, 0.125, 0.0)
    assert (m.cost.total, m.cost.sum, m.cost.per_success) == (0.875, 0.875, 0.875)


def test_the_unpriced_cost_warning_lists_every_role_in_role_order() -> None:
    records = _priced_run()
    first = records[0]
    assert first.simulation is not None
    unpriced_user = first.simulation.model_copy(update={"user_usage": Usage(unpriced=1)})
    records[0] = Rec("t", 0, "done", 1, unpriced_user, first.evaluation)
    m = compute_metrics(records)
    assert m.cost.unpriced == {"user": 1, "judge": 2}
    assert [w for w in m.warnings if w.startswith("cost unknown")] == [
        "cost unknown for user (1 call(s)), judge (2 call(s)): no price for their model (not in "
        "the models file, not in genai-prices, or a self-hosted endpoint); give it `price:` in "
        "a models file (0 for a free self-hosted model)"
    ]


def _basis(reward: float, **extra: object) -> Evaluation:
    result = BasisResult(basis="rubric", reward=reward, score=reward, **extra)  # type: ignore[arg-type]
    return Evaluation(reward=reward, basis="rubric", by_basis={"rubric": result})


def test_coverage_sums_checks_per_field_class_and_counts_undecided_tasks() -> None:
    graded = [
        ("t1", _basis(1.0, info={"coverage": {"time": {"checked": 2, "unchecked": 1}}})),
        ("t2", _basis(0.0, info={"coverage": {"time": {"checked": 1}, "note": {"unchecked": 2}}})),
        ("t3", _basis(0.0, gradable=False, undecided=True, unchecked=["the note"])),
        ("t4", _basis(1.0)),
    ]
    (name, coverage), *rest = coverage_by_basis(graded).items()
    assert name == "rubric" and rest == []
    assert coverage.by_field == {
        "note": {"checked": 0, "unchecked": 2},
        "time": {"checked": 3, "unchecked": 1},
    }
    assert list(coverage.by_field) == ["note", "time"]
    assert (coverage.tasks, coverage.ungradable_tasks, coverage.undecided_tasks) == (4, 1, 1)
    assert coverage.unchecked == {"t3": ["the note"]}


def test_judge_usage_per_basis_sums_unpriced_calls_and_then_has_no_cost() -> None:
    unpriced = [
        _basis(1.0, usage=Usage(prompt_tokens=10, cost=0.0, unpriced=1)),
        _basis(0.0, usage=Usage(prompt_tokens=20, cost=0.5, unpriced=2)),
    ]
    usage = usage_by_basis(unpriced)["rubric"]
    assert (usage.evaluations, usage.unpriced, usage.cost, usage.mean_cost) == (2, 3, None, None)
    assert (usage.prompt_tokens, usage.mean_tokens) == (30, 15.0)
    priced = usage_by_basis([_basis(1.0, usage=Usage(cost=0.5)), _basis(1.0, usage=Usage())])
    assert (priced["rubric"].unpriced, priced["rubric"].cost) == (0, 0.5)
    assert priced["rubric"].mean_cost == 0.25


def test_stratified_bootstrap_takes_a_single_replicate() -> None:
    rows = {"a": [[2.0, 1.0], [4.0, 1.0]]}
    low, high = stratified_bootstrap(rows, _mean, samples=1) or (None, None)
    assert low is not None and low == high and low in (2.0, 3.0, 4.0)


def test_stratified_bootstrap_refuses_vectors_of_unequal_length() -> None:
    with pytest.raises(ValueError, match="zip"):
        stratified_bootstrap({"a": [[1.0, 1.0], [1.0]]}, lambda totals: 0.0, samples=50)


def test_stratified_bootstrap_interval_cuts_half_the_missing_level_from_each_end() -> None:
    rows = {"a": [[float(i * i), 1.0] for i in range(12)]}
    values: list[float] = []

    def recorded(totals: Mapping[str, Sequence[float]]) -> float | None:
        value = _mean(totals)
        assert value is not None
        values.append(value)
        return value

    interval = stratified_bootstrap(rows, recorded, samples=200, seed=5, level=0.5)
    ordered = sorted(values)
    assert interval == (quantile(ordered, 0.25), quantile(ordered, 0.75))
