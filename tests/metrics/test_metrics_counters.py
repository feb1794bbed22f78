"""Every counter of compute_metrics with several instances of each, all counts distinct.

A counter set to 1 instead of incremented, two counters swapped, or an excluded unit that
leaks into the rates changes one of the numbers below.
"""

from __future__ import annotations

import pytest
from metrics_fakes import Rec, ev

from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import AssistantMessage, Usage, UserMessage
from lifebench.metrics import compute_metrics
from lifebench.simulation._types import Simulation, TerminationReason


def _sim(
    task_id: str,
    trial: int,
    *,
    turns: int = 2,
    tool_calls: int = 0,
    tool_errors: int = 0,
    agent: Usage | None = None,
    user: Usage | None = None,
    termination: TerminationReason = TerminationReason.AGENT_STOP,
) -> Simulation:
    messages = [
        UserMessage(content="u") if i % 2 == 0 else AssistantMessage(content="a")
        for i in range(turns)
    ]
    return Simulation(
        task_id=task_id,
        trial=trial,
        seed=100 + trial,
        messages=messages,
        termination=termination,
        tool_calls=tool_calls,
        tool_errors=tool_errors,
        agent_usage=agent or Usage(prompt_tokens=10, completion_tokens=1, cost=0.1),
        user_usage=user or Usage(prompt_tokens=5, completion_tokens=2, cost=0.01),
    )


def _scored(task_id: str, trial: int, reward: float, **sim: object) -> Rec:
    return Rec(task_id, trial, "done", 1, _sim(task_id, trial, **sim), ev(reward))  # type: ignore[arg-type]


def _records() -> list[Rec]:
    infra = TerminationReason.INFRASTRUCTURE_ERROR
    return [
        # 5 scored simulations over tasks A (3) and B (2)
        _scored("A", 0, 1.0, tool_calls=4, tool_errors=1),
        _scored("A", 1, 0.0, tool_calls=1, tool_errors=1),
        _scored("A", 2, 1.0),
        _scored("B", 0, 1.0),
        _scored("B", 1, 0.0),
        # 3 infrastructure errors (2 on A, 1 on B) with 2, 3 and 1 attempts
        Rec("A", 3, "infra_error", 2, _sim("A", 3, termination=infra), None),
        Rec("A", 4, "infra_error", 3, None, None),
        Rec("B", 2, "infra_error", 1, _sim("B", 2, termination=infra), None),
        # 2 pending units (task C never ran; a done unit without simulation is not complete)
        Rec("C", 0, "pending", 0, None, None),
        Rec("C", 1, "done", 4, None, ev(1.0)),
        # 4 ungraded simulations (task D has no scored trial)
        *(Rec("D", t, "done", 1, _sim("D", t, turns=6), None) for t in range(4)),
        # 2 failed gradings, on B and D
        Rec("B", 3, "done", 2, _sim("B", 3), ev(1.0, error="judge gave garbage")),
        Rec("D", 4, "done", 1, _sim("D", 4), ev(0.0, error="judge timed out")),
    ]


def test_unit_counters() -> None:
    m = compute_metrics(_records(), bootstrap_samples=20)
    assert m.n_scored == 5
    assert m.n_errors == 3
    assert m.n_pending == 2
    assert m.n_ungraded == 4
    assert m.n_grading_errors == 2
    assert m.n_simulations == 5 + 4 + 2  # every completed simulation, graded or not
    assert m.n_tasks == 2  # C and D have no scored trial
    # attempts - 1 per unit: A#3 1, A#4 2, C#1 3, B#3 1
    assert m.retries.unit_reruns == 7


def test_task_counters() -> None:
    rows = {t.task_id: t for t in compute_metrics(_records(), bootstrap_samples=20).tasks}
    assert list(rows) == ["A", "B", "C", "D"]
    assert (rows["A"].n_trials, rows["A"].n_successes, rows["A"].n_errors) == (3, 2, 2)
    assert (rows["B"].n_trials, rows["B"].n_successes, rows["B"].n_errors) == (2, 1, 1)
    assert (rows["C"].n_trials, rows["C"].n_pending, rows["C"].n_errors) == (0, 2, 0)
    assert (rows["D"].n_trials, rows["D"].n_pending, rows["D"].mean_reward) == (0, 0, None)
    assert rows["A"].n_pending == rows["B"].n_pending == 0
    assert rows["A"].rewards == [1.0, 0.0, 1.0]
    assert rows["A"].mean_reward == pytest.approx(2 / 3)
    assert rows["A"].pass_hat_k == pytest.approx({"1": 2 / 3, "2": 1 / 3, "3": 0.0})
    assert rows["B"].pass_hat_k == pytest.approx({"1": 0.5, "2": 0.0})


def test_warnings_name_each_count() -> None:
    warnings = compute_metrics(_records(), bootstrap_samples=20).warnings
    assert warnings == [
        "uneven trials: k is limited to 2 by 1 task(s) (B); others have up to 3",
        "2 task(s) have no scored trial and are not in the metrics",
        "3 unit(s) ended in an infrastructure error; re-run to include them",
        "2 unit(s) have not run yet; the run is incomplete",
        "2 evaluation(s) failed and are excluded; re-grade them",
    ]


def test_no_warnings_for_a_clean_even_run() -> None:
    records = [_scored(t, i, 1.0) for t in "AB" for i in range(2)]
    assert compute_metrics(records, bootstrap_samples=20).warnings == []


def test_uneven_trials_warning_lists_at_most_five_tasks() -> None:
    records = [_scored(f"t{i}", 0, 1.0) for i in range(7)] + [_scored("z", j, 1.0) for j in (0, 1)]
    (warning,) = compute_metrics(records, bootstrap_samples=20).warnings
    assert warning == (
        "uneven trials: k is limited to 1 by 7 task(s) (t0, t1, t2, t3, t4 …); others have up to 2"
    )
    six = [_scored(f"t{i}", 0, 1.0) for i in range(6)] + [_scored("z", j, 1.0) for j in (0, 1)]
    (warning,) = compute_metrics(six, bootstrap_samples=20).warnings
    assert "(t0, t1, t2, t3, t4 …); others have up to 2" in warning
    exactly_five = [_scored(f"t{i}", 0, 1.0) for i in range(5)] + [
        _scored("z", j, 1.0) for j in (0, 1)
    ]
    (warning,) = compute_metrics(exactly_five, bootstrap_samples=20).warnings
    assert warning.endswith("(t0, t1, t2, t3, t4); others have up to 2")


def test_metrics_over_scored_and_completed_simulations() -> None:
    m = compute_metrics(_records(), bootstrap_samples=20)
    assert m.max_k == 2
    # macro over tasks A (2/3) and B (1/2)
    assert m.avg_at_k == {"1": pytest.approx(7 / 12), "2": pytest.approx(7 / 12)}
    assert m.pass_hat_k == {"1": pytest.approx(7 / 12), "2": pytest.approx((1 / 3 + 0) / 2)}
    assert m.pass_at_k["2"] == pytest.approx((1.0 + 1.0) / 2)
    assert m.avg_reward == pytest.approx(3 / 5)  # micro over the 5 scored simulations
    # activity: the 11 completed simulations (9 of 2 turns, 4 of 6 turns... D#4 has 2)
    assert m.mean_turns == pytest.approx((7 * 2 + 4 * 6) / 11)
    assert m.mean_tool_calls == pytest.approx(5 / 11)
    assert m.tool_error_rate == pytest.approx(2 / 5)  # pooled, not the mean of 1/4 and 1/1
    assert m.termination == {"agent_stop": 11}


def test_retries_count_every_role_of_recorded_simulations() -> None:
    def usage(retries: int, cost: float = 0.0) -> Usage:
        return Usage(prompt_tokens=1, completion_tokens=1, cost=cost, retries=retries)

    judged = Evaluation(
        reward=1.0,
        basis="state",
        by_basis={
            "state": BasisResult(basis="state", reward=1.0, score=1.0),
            "rubric": BasisResult(basis="rubric", reward=1.0, score=1.0, usage=usage(7)),
            "rubric_full": BasisResult(basis="rubric_full", reward=0.0, score=0.0, usage=usage(11)),
        },
    )
    records = [
        Rec("A", 0, "done", 1, _sim("A", 0, agent=usage(1), user=usage(2)), judged),
        Rec("A", 1, "done", 1, _sim("A", 1, agent=usage(20), user=usage(40)), None),
        # an infra error's retries happened and are counted; a pending unit has none
        Rec("A", 2, "infra_error", 1, _sim("A", 2, agent=usage(100), user=usage(200)), None),
        Rec("A", 3, "pending", 0, None, None),
    ]
    assert compute_metrics(records, bootstrap_samples=20).retries.model == 1 + 2 + 7 + 11 + 60 + 300


def test_tokens_and_cost_by_role() -> None:
    def usage(prompt: int, completion: int, cost: float) -> Usage:
        return Usage(prompt_tokens=prompt, completion_tokens=completion, cost=cost)

    judged = Evaluation(
        reward=1.0,
        basis="state",
        by_basis={
            "state": BasisResult(basis="state", reward=1.0, score=1.0),
            "rubric": BasisResult(basis="rubric", reward=1.0, score=1.0, usage=usage(50, 5, 0.5)),
            "other": BasisResult(basis="other", reward=1.0, score=1.0, usage=usage(30, 3, 0.25)),
        },
    )
    records = [
        Rec(
            "A",
            0,
            "done",
            1,
            _sim("A", 0, agent=usage(100, 10, 1.0), user=usage(20, 2, 0.1)),
            judged,
        ),
        Rec(
            "A",
            1,
            "done",
            1,
            _sim("A", 1, agent=usage(300, 30, 3.0), user=usage(40, 4, 0.3)),
            ev(0.0),
        ),
        # not completed: no tokens, no cost
        Rec("A", 2, "infra_error", 1, _sim("A", 2, agent=usage(9999, 9999, 99.0)), None),
    ]
    m = compute_metrics(records, bootstrap_samples=20)
    assert (m.tokens.agent.prompt, m.tokens.agent.completion) == (200, 20)
    assert (m.tokens.user.prompt, m.tokens.user.completion) == (30, 3)
    assert (m.tokens.judge.prompt, m.tokens.judge.completion) == (40, 4)  # (80 + 0) / 2
    assert m.cost.agent == pytest.approx(2.0)
    assert m.cost.user == pytest.approx(0.2)
    assert m.cost.judge == pytest.approx(0.375)
    assert m.cost.total == pytest.approx(2.575)
    assert m.cost.sum == pytest.approx(5.15)
    assert m.cost.per_success == pytest.approx(5.15)  # one success


def test_score_and_reward_by_basis_are_means_over_scored_evaluations() -> None:
    def evaluation(state: float, rubric: float, score: float) -> Evaluation:
        return Evaluation(
            reward=state,
            basis="state",
            by_basis={
                "state": BasisResult(basis="state", reward=state, score=state),
                "rubric": BasisResult(basis="rubric", reward=rubric, score=score),
            },
        )

    records = [
        Rec("A", 0, "done", 1, _sim("A", 0), evaluation(1.0, 0.0, 0.5)),
        Rec("A", 1, "done", 1, _sim("A", 1), evaluation(0.0, 0.0, 0.25)),
        Rec("B", 0, "done", 1, _sim("B", 0), evaluation(1.0, 1.0, 1.0)),
        Rec(
            "B",
            1,
            "done",
            1,
            _sim("B", 1),
            evaluation(1.0, 1.0, 1.0).model_copy(update={"error": "x"}),
        ),
    ]
    m = compute_metrics(records, bootstrap_samples=20)
    assert m.reward_by_basis == {"rubric": pytest.approx(1 / 3), "state": pytest.approx(2 / 3)}
    assert m.score_by_basis == {"rubric": pytest.approx(1.75 / 3), "state": pytest.approx(2 / 3)}
    assert list(m.reward_by_basis) == ["rubric", "state"]


def test_a_run_without_scored_trials_warns_only_about_what_happened() -> None:
    records = [
        Rec("A", 0, "pending", 0, None, None),
        Rec("B", 0, "infra_error", 2, _sim("B", 0), None),
    ]
    m = compute_metrics(records, bootstrap_samples=20)
    assert (m.n_tasks, m.max_k, m.pass_hat_k, m.ci95["pass_hat_k"]) == (0, 0, {}, {})
    assert m.warnings == [
        "2 task(s) have no scored trial and are not in the metrics",
        "1 unit(s) ended in an infrastructure error; re-run to include them",
        "1 unit(s) have not run yet; the run is incomplete",
    ]
