"""Agreement between reward bases (Cohen's κ) and the judge usage of each basis."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from lifebench.evaluation._types import Evaluation
from lifebench.metrics._passk import is_success
from lifebench.metrics._types import BasisUsage


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's κ of two binary raters over the same items; None without items.

    κ = (p_o − p_e) / (1 − p_e): observed agreement p_o against the agreement p_e expected by
    chance from each rater's own rate of True (p_e = p_a·p_b + (1 − p_a)(1 − p_b)). p_e is 1
    only when both raters are constant and equal, which is perfect (if degenerate) agreement:
    κ = 1.
    """
    n = len(a)
    if n == 0 or n != len(b):
        return None
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    pa, pb = sum(a) / n, sum(b) / n
    expected = pa * pb + (1 - pa) * (1 - pb)
    if math.isclose(expected, 1.0):
        return 1.0
    return (observed - expected) / (1 - expected)


def basis_kappa(evaluations: Sequence[Evaluation], left: str, right: str) -> float | None:
    """κ between the success verdicts of two bases, over evaluations that computed both."""
    pairs = [
        (is_success(e.by_basis[left].reward), is_success(e.by_basis[right].reward))
        for e in evaluations
        if left in e.by_basis and right in e.by_basis
    ]
    return cohen_kappa([p[0] for p in pairs], [p[1] for p in pairs])


def usage_by_basis(evaluations: Sequence[Evaluation]) -> dict[str, BasisUsage]:
    """Per basis: evaluations, total and mean judge tokens and cost (e.g. sliding vs full)."""
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0, 0])
    for evaluation in evaluations:
        for name, result in evaluation.by_basis.items():
            t = totals[name]
            t[0] += 1
            t[1] += result.usage.prompt_tokens
            t[2] += result.usage.completion_tokens
            t[3] += result.usage.cost
            t[4] += result.usage.calls
            t[5] += result.usage.unpriced
    out: dict[str, BasisUsage] = {}
    for name in sorted(totals):
        n, prompt, completion, cost, calls, unpriced = totals[name]  # n >= 1: the basis was seen
        out[name] = BasisUsage(
            evaluations=int(n),
            calls=int(calls),
            prompt_tokens=int(prompt),
            completion_tokens=int(completion),
            cost=None if unpriced else cost,
            mean_tokens=(prompt + completion) / n,
            mean_cost=None if unpriced else cost / n,
            unpriced=int(unpriced),
        )
    return out
