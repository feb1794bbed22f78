"""Micro-aggregated precision / recall / F1 counters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def ratio(numerator: int, denominator: int) -> float | None:
    """numerator / denominator, or None when the denominator is 0 (undefined, never -0.0)."""
    return numerator / denominator if denominator else None


@dataclass(frozen=True)
class PRF:
    """True positives, predicted and gold counts; P, R and F1 derive from them.

    Micro aggregation is ``sum`` over turns or sessions (``PRF.__add__``); a zero denominator
    makes a ratio undefined (None). F1 = 2PR/(P+R) = 2·tp/(n_pred + n_gold): 0 when nothing
    matched (also when nothing was predicted), undefined only when there is neither a gold nor
    a predicted item.
    """

    tp: int = 0
    n_pred: int = 0
    n_gold: int = 0

    def __post_init__(self) -> None:
        if self.tp < 0 or self.tp > min(self.n_pred, self.n_gold):
            raise ValueError(f"inconsistent counts: {self}")

    def __add__(self, other: PRF) -> PRF:
        return PRF(self.tp + other.tp, self.n_pred + other.n_pred, self.n_gold + other.n_gold)

    @property
    def precision(self) -> float | None:
        """tp / n_pred."""
        return ratio(self.tp, self.n_pred)

    @property
    def recall(self) -> float | None:
        """tp / n_gold."""
        return ratio(self.tp, self.n_gold)

    @property
    def f1(self) -> float | None:
        """2·tp / (n_pred + n_gold), the harmonic mean of P and R; None with no items."""
        return ratio(2 * self.tp, self.n_pred + self.n_gold)

    def as_dict(self) -> dict[str, Any]:
        """Counts and ratios, JSON-ready."""
        return {
            "tp": self.tp,
            "n_pred": self.n_pred,
            "n_gold": self.n_gold,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }
