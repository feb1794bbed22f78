"""Mutation guards for the metrics that the report prints (issue 21): ``metrics/_bootstrap.py``,
``_agreement.py``, ``_coverage.py``, ``_usage.py``, ``_passk.py`` and ``_compute.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from metrics_fakes import Rec

from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import Usage
from lifebench.metrics import compute_metrics
from lifebench.metrics._bootstrap import stratified_bootstrap
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
