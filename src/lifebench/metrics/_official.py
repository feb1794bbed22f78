"""The official number beside lifebench's: what a suite's official code would print for the same
stored outputs, and why the two differ.

Every suite that implements :class:`lifebench.suites.OfficialScoring` returns one
:class:`OfficialComparison` for a set of unit records: a list of :class:`ScorePair` (the first is
the suite's headline aggregate, e.g. TravelBench's overall), and, per unit, the *classes* of
difference that made the two numbers part (a unit can have several). Both numbers come from the
same stored trajectories and judge answers: computing the official one makes no model call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lifebench.metrics._headline import HEADLINES as HEADLINES
from lifebench.metrics._headline import Headline as Headline
from lifebench.metrics._types import Interval


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ScorePair(_Frozen):
    """One number computed both ways."""

    metric: str = Field(description="Stable name, e.g. 'overall', 'single', 'tool_f1'.")
    label: str = Field(description="What the number is, for people.")
    lifebench: float | None = Field(None, description="lifebench's (corrected) number.")
    official: float | None = Field(None, description="The official code's number.")
    lifebench_ci: Interval | None = Field(None, description="Bootstrap interval of lifebench's.")
    official_ci: Interval | None = Field(None, description="Bootstrap interval of the official.")
    scale: Literal["points", "fraction"] = Field(
        "fraction", description="points: a 0–100 score; fraction: a 0–1 ratio (shown as %)."
    )

    def value(self, headline: Headline) -> float | None:
        """The number of ``headline``."""
        return self.official if headline == "official" else self.lifebench

    def interval(self, headline: Headline) -> Interval | None:
        """The interval of ``headline``'s number."""
        return self.official_ci if headline == "official" else self.lifebench_ci


class OfficialComparison(_Frozen):
    """The official numbers beside lifebench's, and where they differ unit by unit."""

    reference: str = Field(description="The official code whose semantics the numbers follow.")
    available: bool = Field(True, description="False when no official number can be computed.")
    reason: str = Field("", description="Why not, when unavailable.")
    pairs: list[ScorePair] = Field(
        default_factory=list, description="The numbers, the suite's headline aggregate first."
    )
    units: int = Field(0, description="Units compared (every unit of the records).")
    differing_units: int = Field(
        0, description="Units whose contribution differs between the two (one class or more)."
    )
    classes: dict[str, int] = Field(
        default_factory=dict,
        description="Class of difference → units of that class (docs/compat.md explains each).",
    )
    notes: list[str] = Field(default_factory=list, description="Caveats about the official side.")

    def headline_pair(self) -> ScorePair | None:
        """The suite's headline aggregate (the first pair)."""
        return self.pairs[0] if self.pairs else None


def tally_classes(per_unit: Iterable[Sequence[str]]) -> tuple[int, int, dict[str, int]]:
    """(units, units with at least one class, class → units) of per-unit class lists."""
    counts: Counter[str] = Counter()
    units = differing = 0
    for classes in per_unit:
        units += 1
        distinct = set(classes)
        differing += int(bool(distinct))
        counts.update(distinct)
    return units, differing, dict(sorted(counts.items()))


def unavailable(reference: str, reason: str) -> OfficialComparison:
    """A comparison that cannot be made (the reason says why)."""
    return OfficialComparison(reference=reference, available=False, reason=reason)


def official_round(value: float | None, digits: int = 2) -> float | None:
    """``value`` as an official script prints it with ``f"{value:.{digits}f}"`` and reads it
    back (Python's round-half-even of the binary value)."""
    return None if value is None else float(f"{value:.{digits}f}")


def pair_map(comparison: OfficialComparison) -> Mapping[str, ScorePair]:
    """The pairs by metric name."""
    return {p.metric: p for p in comparison.pairs}
