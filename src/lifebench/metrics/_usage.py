"""Per-simulation activity and spend: turns, tool calls, tokens, cost, retries."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from lifebench.evaluation._types import Evaluation
from lifebench.messages import Usage
from lifebench.metrics._types import CostStats, RoleTokens, TokenStats
from lifebench.simulation._types import Simulation

Graded = tuple[Simulation, Evaluation | None]


def mean(values: Sequence[float]) -> float | None:
    """Exact-sum mean; ``None`` for no values."""
    return math.fsum(values) / len(values) if values else None


def judge_usage(evaluation: Evaluation | None) -> Usage:
    """Usage of every basis of ``evaluation`` summed (zero when not graded)."""
    total = Usage.zero()
    if evaluation is not None:
        for result in evaluation.by_basis.values():
            total = total + result.usage
    return total


def termination_counts(simulations: Sequence[Simulation]) -> dict[str, int]:
    """How many simulations ended for each reason, keyed by reason value (sorted)."""
    counts = Counter(s.termination.value for s in simulations)
    return dict(sorted(counts.items()))


def tool_error_rate(simulations: Sequence[Simulation]) -> float | None:
    """Pooled rate: all tool errors / all tool calls; ``None`` without tool calls."""
    calls = sum(s.tool_calls for s in simulations)
    return sum(s.tool_errors for s in simulations) / calls if calls else None


def _role_tokens(usages: Sequence[Usage]) -> RoleTokens:
    return RoleTokens(
        prompt=mean([u.prompt_tokens for u in usages]),
        completion=mean([u.completion_tokens for u in usages]),
    )


def token_stats(graded: Sequence[Graded]) -> TokenStats:
    """Mean prompt and completion tokens per simulation for agent, user, judge and tool."""
    return TokenStats(
        agent=_role_tokens([s.agent_usage for s, _ in graded]),
        user=_role_tokens([s.user_usage for s, _ in graded]),
        judge=_role_tokens([judge_usage(e) for _, e in graded]),
        tool=_role_tokens([s.tool_usage for s, _ in graded]),
    )


def role_usages(graded: Sequence[Graded]) -> dict[str, list[Usage]]:
    """Each role's usage per simulation: agent, user, judge (every basis), tool."""
    return {
        "agent": [s.agent_usage for s, _ in graded],
        "user": [s.user_usage for s, _ in graded],
        "judge": [judge_usage(e) for _, e in graded],
        "tool": [s.tool_usage for s, _ in graded],
    }


def cost_stats(graded: Sequence[Graded], n_successes: int) -> CostStats:
    """Mean cost per simulation by role, the total, and the total per successful simulation.

    A role with a call of unknown price has no mean (None), and then neither have the total,
    the sum and the cost per success: they would be too low. Which calls are unpriced and
    where the prices come from are listed per role."""
    usages = role_usages(graded)
    unpriced = {role: sum(u.unpriced for u in us) for role, us in usages.items()}
    unpriced = {role: n for role, n in unpriced.items() if n}
    sources = {
        role: sorted({source for u in us for source in u.priced_by}) for role, us in usages.items()
    }
    means = {
        role: None if role in unpriced else mean([u.cost for u in us])
        for role, us in usages.items()
    }
    # a + u + j + t, in that order (the same float as before unknown prices were counted)
    totals = [sum(u.cost for u in row) for row in zip(*usages.values(), strict=True)]
    total = None if unpriced else math.fsum(totals)
    return CostStats(
        agent=means["agent"],
        user=means["user"],
        judge=means["judge"],
        tool=means["tool"],
        total=None if unpriced else mean(totals),
        sum=total,
        per_success=total / n_successes if total is not None and n_successes else None,
        unpriced=unpriced,
        priced_by={role: found for role, found in sources.items() if found},
    )


def model_retries(graded: Sequence[Graded]) -> int:
    """Retried model calls behind the given simulations and their evaluations."""
    return sum(
        s.agent_usage.retries + s.user_usage.retries + s.tool_usage.retries + judge_usage(e).retries
        for s, e in graded
    )


def usage_missing(graded: Sequence[Graded]) -> int:
    """Model calls behind the given simulations and their evaluations whose answer reported no
    token usage (their tokens and cost are unknown, counted as 0)."""
    return sum(
        s.agent_usage.usage_missing
        + s.user_usage.usage_missing
        + s.tool_usage.usage_missing
        + judge_usage(e).usage_missing
        for s, e in graded
    )
