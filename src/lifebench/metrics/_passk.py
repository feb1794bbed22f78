"""Unbiased per-task estimators of pass^k and pass@k (τ-bench / Codex conventions)."""

from __future__ import annotations

from math import comb

SUCCESS_TOLERANCE = 1e-6


def is_success(reward: float) -> bool:
    """A trial succeeds when its reward is within 1e-6 of 1 (partial credit is a failure)."""
    return abs(reward - 1.0) < SUCCESS_TOLERANCE


def _check(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got n={n}, k={k}")


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Probability that ``k`` trials drawn without replacement from ``n`` all succeed.

    ``C(c, k) / C(n, k)`` for a task with ``n`` trials of which ``c`` succeeded.
    """
    _check(n, c, k)
    return comb(c, k) / comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` trials drawn from ``n`` succeeds.

    ``1 - C(n - c, k) / C(n, k)`` (1.0 when fewer than ``k`` trials failed).
    """
    _check(n, c, k)
    return 1.0 - comb(n - c, k) / comb(n, k)
