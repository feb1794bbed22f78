"""TravelBench's numbers: per-instance score, subset aggregation and the overall score.

Per instance i with parsed ratings r_{i,d} ∈ 1…5 over the rated dimensions D_i, n_i tool calls
of which e_i failed, and a meta-judge rating m_i:

* N_{i,d} = (r_{i,d} − 1) / 4 × 100, and N_i = (mean_{d∈D_i} r_{i,d} − 1) / 4 × 100;
* w_tool = 1 − e_i / n_i (1 when n_i = 0; never below 0);
* w_meta = m_i / 5 (1 when the meta-judge is off or failed: the official behaviour);
* P = N × w_tool (tool penalty only) and F = P × w_meta, per dimension and for the mean.

A subset's ``score`` is the official one: for each dimension the mean of F_{i,d} over the
instances rated on it (0 when none is), then the mean over the subset's dimensions.
``raw_score`` is the mean of N_i (no penalty, no calibration) and ``penalized_score`` the mean
of P_i. Overall = (multi + single + 100 × unsolvable accuracy) / 3, only with all three.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

SINGLE_DIMENSIONS: tuple[str, ...] = (
    "reasoning_planning",
    "summarization_extraction",
    "presentation",
)
MULTI_DIMENSIONS: tuple[str, ...] = (*SINGLE_DIMENSIONS, "user_interaction")


def dimensions_of(subset: str) -> tuple[str, ...]:
    """The judge dimensions of a subset: 4 for multi-turn, else 3."""
    return MULTI_DIMENSIONS if subset == "multi" else SINGLE_DIMENSIONS


def to_100(rating: float) -> float:
    """A 1–5 rating on the 0–100 scale: 1 → 0, 3 → 50, 5 → 100."""
    return (rating - 1.0) / 4.0 * 100.0


def tool_error_rate(calls: int, errors: int) -> float:
    """e / n, 0 when there were no calls (a trajectory without tools is not penalised)."""
    return errors / calls if calls > 0 else 0.0


def tool_weight(calls: int, errors: int) -> float:
    """w_tool = 1 − e/n, clamped to [0, 1]."""
    return min(1.0, max(0.0, 1.0 - tool_error_rate(calls, errors)))


def meta_weight(meta: int | None) -> float:
    """w_meta = m / 5; 1 when there is no meta rating."""
    return 1.0 if meta is None else meta / 5.0


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _mean_or_zero(values: Sequence[float]) -> float:
    """The official per-dimension mean: 0 for a dimension no instance was rated on."""
    return sum(values) / len(values) if values else 0.0


@dataclass(frozen=True)
class InstanceScore:
    """Every number of one judged trajectory (0–100 scale unless said otherwise)."""

    ratings: dict[str, int | None]
    mean_rating: float
    raw: float
    penalized: float
    final: float
    raw_by_dim: dict[str, float | None]
    penalized_by_dim: dict[str, float | None]
    final_by_dim: dict[str, float | None]
    tool_calls: int
    tool_errors: int
    tool_error_rate: float
    w_tool: float
    meta: int | None
    w_meta: float


def score_instance(
    ratings: Mapping[str, int | None],
    tool_calls: int,
    tool_errors: int,
    meta: int | None = None,
) -> InstanceScore:
    """Score one trajectory from its ratings, tool counts and meta rating.

    Raises ValueError when no dimension is rated (such a judge answer is not usable).
    """
    rated = [float(v) for v in ratings.values() if v is not None]
    if not rated:
        raise ValueError("no dimension is rated")
    w_tool = tool_weight(tool_calls, tool_errors)
    w_meta = meta_weight(meta)
    mean_rating = sum(rated) / len(rated)
    raw_by_dim = {d: None if v is None else to_100(v) for d, v in ratings.items()}
    pen_by_dim = {d: None if v is None else v * w_tool for d, v in raw_by_dim.items()}
    fin_by_dim = {d: None if v is None else v * w_meta for d, v in pen_by_dim.items()}
    raw = to_100(mean_rating)
    return InstanceScore(
        ratings=dict(ratings),
        mean_rating=mean_rating,
        raw=raw,
        penalized=raw * w_tool,
        final=raw * w_tool * w_meta,
        raw_by_dim=raw_by_dim,
        penalized_by_dim=pen_by_dim,
        final_by_dim=fin_by_dim,
        tool_calls=tool_calls,
        tool_errors=tool_errors,
        tool_error_rate=tool_error_rate(tool_calls, tool_errors),
        w_tool=w_tool,
        meta=meta,
        w_meta=w_meta,
    )


@dataclass(frozen=True)
class DimensionSummary:
    """One dimension over a subset."""

    rated: int
    mean_rating: float | None
    raw: float
    score: float
    distribution: dict[str, int]


@dataclass(frozen=True)
class SubsetScore:
    """A judged subset (single- or multi-turn) over all its instances and trials."""

    n: int
    score: float | None
    raw_score: float | None
    penalized_score: float | None
    mean_instance_score: float | None
    dimensions: dict[str, DimensionSummary] = field(default_factory=dict)
    tool_error_rate: float | None = None
    samples_with_errors: int = 0
    error_rate_buckets: dict[str, int] = field(default_factory=dict)


def _bucket(rate: float) -> str:
    if rate == 0:
        return "0%"
    if rate <= 0.25:
        return "0-25%"
    if rate <= 0.5:
        return "25-50%"
    if rate <= 0.75:
        return "50-75%"
    return "75-100%"


BUCKETS: tuple[str, ...] = ("0%", "0-25%", "25-50%", "50-75%", "75-100%")


def aggregate(instances: Sequence[InstanceScore], dimensions: Sequence[str]) -> SubsetScore:
    """The subset's numbers (see the module docstring); None scores when nothing was judged."""
    if not instances:
        return SubsetScore(
            n=0,
            score=None,
            raw_score=None,
            penalized_score=None,
            mean_instance_score=None,
            error_rate_buckets=dict.fromkeys(BUCKETS, 0),
        )
    dims: dict[str, DimensionSummary] = {}
    for d in dimensions:
        values = [i.ratings.get(d) for i in instances]
        rated = [v for v in values if v is not None]
        finals = [f for i in instances if (f := i.final_by_dim.get(d)) is not None]
        raws = [r for i in instances if (r := i.raw_by_dim.get(d)) is not None]
        dims[d] = DimensionSummary(
            rated=len(rated),
            mean_rating=_mean([float(v) for v in rated]),
            raw=_mean_or_zero(raws),
            score=_mean_or_zero(finals),
            distribution={str(k): rated.count(k) for k in range(1, 6)},
        )
    rates = [i.tool_error_rate for i in instances]
    buckets = dict.fromkeys(BUCKETS, 0)
    for rate in rates:
        buckets[_bucket(rate)] += 1
    return SubsetScore(
        n=len(instances),
        score=sum(s.score for s in dims.values()) / len(dims) if dims else None,
        raw_score=_mean([i.raw for i in instances]),
        penalized_score=_mean([i.penalized for i in instances]),
        mean_instance_score=_mean([i.final for i in instances]),
        dimensions=dims,
        tool_error_rate=_mean(rates),
        samples_with_errors=sum(1 for r in rates if r > 0),
        error_rate_buckets=buckets,
    )


def overall_score(
    multi: float | None, single: float | None, unsolved_accuracy: float | None
) -> float | None:
    """(multi + single + 100 × unsolvable accuracy) / 3; None unless all three are known."""
    if multi is None or single is None or unsolved_accuracy is None:
        return None
    return (multi + single + 100.0 * unsolved_accuracy) / 3.0
