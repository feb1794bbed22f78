"""Pydantic models of computed metrics (JSON-ready: k keys are strings "1", "2", …)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

Interval = tuple[float, float]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class RoleTokens(_Frozen):
    """Mean tokens per simulation of one role."""

    prompt: float | None = Field(None, description="Mean prompt (input) tokens per simulation.")
    completion: float | None = Field(None, description="Mean completion tokens per simulation.")


class TokenStats(_Frozen):
    """Mean tokens per simulation, by role (judge = sum over evaluation bases; tool = the
    tool simulator)."""

    agent: RoleTokens = Field(default_factory=RoleTokens)
    user: RoleTokens = Field(default_factory=RoleTokens)
    judge: RoleTokens = Field(default_factory=RoleTokens)
    tool: RoleTokens = Field(default_factory=RoleTokens)


class CostStats(_Frozen):
    """Cost in US dollars: means per simulation by role, the run total, cost per success.

    A role with a call whose price is unknown has no cost (None, shown "unknown"), and neither
    have the totals: a partial sum is never shown as the cost."""

    agent: float | None = Field(None, description="Mean agent cost per simulation.")
    user: float | None = Field(None, description="Mean user-simulator cost per simulation.")
    judge: float | None = Field(None, description="Mean judge cost per simulation.")
    tool: float | None = Field(None, description="Mean tool-simulator cost per simulation.")
    total: float | None = Field(None, description="Mean total cost per simulation.")
    sum: float | None = Field(
        0.0, description="Total cost of the completed simulations (None: some price unknown)."
    )
    per_success: float | None = Field(
        None, description="Total cost divided by the number of successful simulations."
    )
    unpriced: dict[str, int] = Field(
        default_factory=dict,
        description="Per role: calls whose price is unknown (roles without any are left out).",
    )
    priced_by: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Per role: where the prices come from ('models file', 'genai-prices "
        "VERSION: PROVIDER MODEL').",
    )

    def unknown(self, role: str) -> bool:
        """True when ``role`` (or, for 'total' / 'sum' / 'per_success', any role) has calls
        whose price is unknown."""
        if role in ("total", "sum", "per_success"):
            return bool(self.unpriced)
        return bool(self.unpriced.get(role))


class RetryStats(_Frozen):
    """Retries behind the recorded results."""

    model: int = Field(0, description="Retried model calls (agent, user, judge, tool).")
    unit_reruns: int = Field(0, description="Units executed again after an infra error.")


class BasisUsage(_Frozen):
    """Judge usage of one evaluation basis over a run (compare sliding-window vs full)."""

    evaluations: int = Field(description="Evaluations that computed this basis.")
    calls: int = Field(0, description="Model calls made for it (re-asks included).")
    prompt_tokens: int = Field(0, description="Total prompt tokens.")
    completion_tokens: int = Field(0, description="Total completion tokens.")
    cost: float | None = Field(
        0.0, description="Total cost in US dollars (None: some call's price is unknown)."
    )
    mean_tokens: float = Field(0.0, description="Mean prompt + completion tokens per evaluation.")
    mean_cost: float | None = Field(0.0, description="Mean cost per evaluation.")
    unpriced: int = Field(0, description="Judge calls whose price is unknown.")


class BasisCoverage(_Frozen):
    """What one evaluation basis could check, over the tasks of a run."""

    tasks: int = Field(description="Tasks with at least one completed evaluation on this basis.")
    ungradable_tasks: int = Field(
        0, description="Tasks the basis could not grade (no criterion it can check)."
    )
    mean_criteria: float | None = Field(
        None, description="Mean number of criteria checked per gradable task."
    )
    tasks_with_unchecked: int = Field(
        0,
        description="Tasks (gradable, or undecided because of it) that ask something the "
        "basis cannot check.",
    )
    share_with_unchecked: float | None = Field(None, description="tasks_with_unchecked / tasks.")
    unchecked: dict[str, list[str]] = Field(
        default_factory=dict, description="Per task id: what the basis could not check."
    )
    undecided_tasks: int = Field(
        0, description="Tasks the basis could not decide (a stated ask it cannot check)."
    )
    by_field: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="Per field class (time, date, note, attribute, …): checks made "
        "(``checked``) and asks left unchecked (``unchecked``), summed over tasks.",
    )


class BootstrapInfo(_Frozen):
    """How the confidence intervals were computed."""

    samples: int = Field(description="Bootstrap replicates (tasks resampled with replacement).")
    seed: int = Field(description="Seed of random.Random used for resampling.")
    level: float = Field(description="Confidence level of the intervals.")


class TaskMetrics(_Frozen):
    """One row per task."""

    task_id: str
    n_trials: int = Field(description="Scored trials (done and graded).")
    n_successes: int = Field(description="Trials with reward within 1e-6 of 1.")
    n_errors: int = Field(0, description="Trials that ended in an infrastructure error.")
    n_pending: int = Field(0, description="Trials not yet run.")
    n_rejected: int = Field(
        0, description="Trials whose request the provider rejected for its content."
    )
    n_ungradable: int = Field(0, description="Trials the reward's bases could not grade.")
    mean_reward: float | None = Field(None, description="Mean reward of the scored trials.")
    rewards: list[float] = Field(default_factory=list, description="Rewards in trial order.")
    pass_hat_k: dict[str, float] = Field(
        default_factory=dict, description="pass^k of this task for k = 1 … n_trials."
    )


class Metrics(_Frozen):
    """Aggregate metrics of a set of unit records."""

    n_tasks: int = Field(description="Tasks with at least one scored trial.")
    n_simulations: int = Field(description="Completed simulations (status done).")
    n_scored: int = Field(description="Completed simulations with a usable evaluation.")
    n_errors: int = Field(description="Units that ended in an infrastructure error (excluded).")
    n_pending: int = Field(0, description="Units registered but not run yet.")
    n_rejected: int = Field(
        0,
        description="Units whose request the provider rejected for its content (excluded, "
        "not re-run on resume).",
    )
    n_ungraded: int = Field(0, description="Completed simulations without an evaluation.")
    n_grading_errors: int = Field(0, description="Evaluations whose grading failed (excluded).")
    n_ungradable: int = Field(
        0,
        description="Completed simulations of tasks the reward's bases cannot grade (no "
        "criterion to check): counted here, excluded from every score.",
    )
    max_k: int = Field(description="Largest k reported: the fewest scored trials of any task.")
    avg_reward: float | None = Field(None, description="Mean reward over scored simulations.")
    avg_at_k: dict[str, float] = Field(
        default_factory=dict,
        description="Macro mean over tasks of each task's mean reward over all its trials; as in "
        "the official harness it does not depend on k (k only requires >= k trials per task).",
    )
    pass_at_k: dict[str, float] = Field(default_factory=dict, description="Macro mean pass@k.")
    pass_hat_k: dict[str, float] = Field(default_factory=dict, description="Macro mean pass^k.")
    ci95: dict[str, dict[str, Interval]] = Field(
        default_factory=dict,
        description="Bootstrap intervals: {metric: {k: [low, high]}} for avg_at_k, pass_at_k, "
        "pass_hat_k.",
    )
    bootstrap: BootstrapInfo
    termination: dict[str, int] = Field(
        default_factory=dict, description="Termination reasons of completed simulations."
    )
    mean_turns: float | None = Field(None, description="Mean user + assistant messages.")
    mean_tool_calls: float | None = Field(None, description="Mean tool calls per simulation.")
    tool_error_rate: float | None = Field(
        None, description="Tool calls that returned an error / all tool calls."
    )
    tokens: TokenStats = Field(default_factory=TokenStats)
    cost: CostStats = Field(default_factory=CostStats)
    retries: RetryStats = Field(default_factory=RetryStats)
    usage_missing: int = Field(
        0,
        description="Model calls whose answer reported no token usage: their tokens and cost "
        "are unknown and counted as 0 (a warning says so).",
    )
    reward_by_basis: dict[str, float] = Field(
        default_factory=dict, description="Mean reward per evaluation basis (scored simulations)."
    )
    score_by_basis: dict[str, float] = Field(
        default_factory=dict, description="Mean fraction of criteria met per basis."
    )
    kappa_state_vs_rubric: float | None = Field(
        None,
        description="Cohen's κ between the state and rubric bases' success verdicts, over "
        "simulations graded on both (None when there are none).",
    )
    kappa_by_pair: dict[str, float | None] = Field(
        default_factory=dict, description="κ between every pair of bases, keyed 'a~b'."
    )
    usage_by_basis: dict[str, BasisUsage] = Field(
        default_factory=dict, description="Judge tokens and cost per basis."
    )
    coverage_by_basis: dict[str, BasisCoverage] = Field(
        default_factory=dict,
        description="Per basis: criteria checked per task and tasks with asks it cannot check.",
    )
    tasks: list[TaskMetrics] = Field(default_factory=list, description="Per-task rows.")
    warnings: list[str] = Field(default_factory=list, description="Caveats about the numbers.")
