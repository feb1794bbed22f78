"""TravelBench's own report numbers, recomputed from the stored results.

Top level of ``report.json`` (beside the core metrics):

* ``score``: the run's TravelBench score — the subset score for a run of one subset, the
  overall (multi + single + 100 × unsolvable accuracy) / 3 when the records span all three,
  else None;
* ``raw_score``: the same without the tool penalty and the meta-judge factor;
* ``unsolved_accuracy``: only when unsolvable results are present (the chosen rule);
* ``travel``: the details — per subset (``subsets.single`` / ``multi`` / ``unsolvable``):
  ``score``, ``raw_score``, ``penalized_score``, ``score_failures_as_zero``, per-dimension
  means and rating distributions, ``tool_error_rate`` (the official one: mean of each
  trajectory's errors / calls, 0 for a trajectory without calls), ``pooled_tool_error_rate``
  (all errors / all calls, the core's definition), meta-judge statistics, judge failures,
  sandbox counters (cache hit rate, simulated calls); plus the judge kind and its caveat.
  Distributions are lists of counts for ratings 1…5; ``tool_error_rate_buckets`` counts the
  trajectories whose error rate is 0, in (0, 25%], (25%, 50%], (50%, 75%] and above 75%.

The core's top-level ``tool_error_rate`` is the pooled rate over every completed simulation;
the per-subset ``tool_error_rate`` here is the official per-trajectory mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lifebench.evaluation import BasisResult
from lifebench.metrics import ResultRecord
from lifebench.travel.grading.offline import JUDGE_KIND_OFFLINE, OFFLINE_NOTE
from lifebench.travel.grading.scoring import (
    BUCKETS,
    InstanceScore,
    aggregate,
    dimensions_of,
    overall_score,
    score_instance,
)
from lifebench.travel.grading.unsolved import UNSOLVED_RULES

RESULT_BASES: tuple[str, ...] = ("travel", "official")
"""Where a record's travel result sits: graded here (``travel``) or imported (``official``)."""
SANDBOX_KEYS: tuple[str, ...] = (
    "calls",
    "cache_hits",
    "cache_misses",
    "simulated_calls",
    "memo_hits",
)
SUBSETS: tuple[str, ...] = ("single", "multi", "unsolvable")


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 10)


def _config_subset(config: Mapping[str, Any]) -> str | None:
    options = config.get("suite_options")
    subset = options.get("subset") if isinstance(options, Mapping) else None
    return str(subset) if subset in SUBSETS else None


def _result(record: ResultRecord) -> BasisResult | None:
    evaluation = record.evaluation
    if evaluation is None:
        return None
    for name in RESULT_BASES:
        if name in evaluation.by_basis:
            return evaluation.by_basis[name]
    return None


def _subset_of(record: ResultRecord, fallback: str | None) -> str:
    result = _result(record)
    subset = result.info.get("subset") if result is not None else None
    return str(subset) if subset in SUBSETS else fallback or "unknown"


def _sandbox(records: Sequence[ResultRecord]) -> dict[str, Any]:
    totals = dict.fromkeys(SANDBOX_KEYS, 0)
    seen = False
    for r in records:
        if r.simulation is None:
            continue
        box = r.simulation.final_state.get("sandbox")
        if not isinstance(box, Mapping):
            continue
        seen = True
        for key in SANDBOX_KEYS:
            value = box.get(key, 0)
            totals[key] += int(value) if isinstance(value, int | float) else 0
    if not seen:
        return {"reported": False}
    looked_up = totals["cache_hits"] + totals["cache_misses"]
    return {
        "reported": True,
        **totals,
        "cache_hit_rate": _round(totals["cache_hits"] / looked_up) if looked_up else None,
    }


def _pooled_rate(records: Sequence[ResultRecord]) -> float | None:
    sims = [r.simulation for r in records if r.simulation is not None]
    calls = sum(s.tool_calls for s in sims)
    return _round(sum(s.tool_errors for s in sims) / calls) if calls else None


def _instance(info: Mapping[str, Any], dimensions: Sequence[str]) -> InstanceScore | None:
    ratings = info.get("ratings")
    if not isinstance(ratings, Mapping):
        return None
    clean = {d: ratings.get(d) if isinstance(ratings.get(d), int) else None for d in dimensions}
    meta = info.get("meta_score")
    try:
        return score_instance(
            clean,
            int(info.get("tool_calls") or 0),
            int(info.get("tool_errors") or 0),
            meta if isinstance(meta, int) else None,
        )
    except ValueError:
        return None


def _judged_subset(subset: str, records: Sequence[ResultRecord]) -> dict[str, Any]:
    dims = dimensions_of(subset)
    instances: list[InstanceScore] = []
    kinds: set[str] = set()
    failures = 0
    ungraded = 0
    meta_failed = 0
    meta_on = 0
    missing: dict[str, int] = dict.fromkeys(dims, 0)
    for r in records:
        evaluation = r.evaluation
        if evaluation is None:
            ungraded += 1
            continue
        basis = _result(r)
        if evaluation.error is not None or basis is None or not basis.info.get("ratings"):
            failures += 1
            continue
        inst = _instance(basis.info, dims)
        if inst is None:
            failures += 1
            continue
        instances.append(inst)
        kinds.add(str(basis.info.get("judge_kind", "unlabelled")))
        meta_on += int(bool(basis.info.get("meta_judge")))
        meta_failed += int(bool(basis.info.get("meta_failed")))
        for d in dims:
            missing[d] += int(inst.ratings.get(d) is None)
    agg = aggregate(instances, dims)
    metas = [i.meta for i in instances if i.meta is not None]
    expected = len(instances) + failures
    zero_filled = (
        None if agg.score is None or expected == 0 else agg.score * len(instances) / expected
    )
    return {
        "n": agg.n,
        "judge_failures": failures,
        "ungraded": ungraded,
        "judge_kind": sorted(kinds),
        "score": _round(agg.score),
        "raw_score": _round(agg.raw_score),
        "penalized_score": _round(agg.penalized_score),
        "mean_instance_score": _round(agg.mean_instance_score),
        "score_failures_as_zero": _round(zero_filled),
        "dimensions": {
            d: {
                "rated": s.rated,
                "mean_rating": _round(s.mean_rating),
                "raw": _round(s.raw),
                "score": _round(s.score),
                "distribution": [s.distribution[str(k)] for k in range(1, 6)],
                "missing": missing[d],
            }
            for d, s in agg.dimensions.items()
        },
        "tool_error_rate": _round(agg.tool_error_rate),
        "pooled_tool_error_rate": _pooled_rate(records),
        "samples_with_tool_errors": agg.samples_with_errors,
        "tool_error_rate_buckets": [agg.error_rate_buckets[b] for b in BUCKETS],
        "meta_judge": {
            "enabled": meta_on,
            "rated": len(metas),
            "failures": meta_failed,
            "mean": _round(sum(metas) / len(metas)) if metas else None,
            "distribution": [metas.count(k) for k in range(1, 6)],
            "calibrated": sum(1 for m in metas if m < 5),
        },
        "sandbox": _sandbox(records),
    }


def _unsolved_subset(records: Sequence[ResultRecord]) -> dict[str, Any]:
    verdicts: list[Mapping[str, Any]] = []
    rule = "first"
    failures = 0
    ungraded = 0
    for r in records:
        evaluation = r.evaluation
        result = _result(r)
        if evaluation is None:
            ungraded += 1
            continue
        if evaluation.error is not None or result is None or "by_rule" not in result.info:
            failures += 1
            continue
        verdicts.append(result.info["by_rule"])
        rule = str(result.info.get("rule", rule))
    n = len(verdicts)
    by_rule: dict[str, float | None] = {
        name: _round(sum(bool(v.get(name)) for v in verdicts) / n) if n else None
        for name in UNSOLVED_RULES
    }
    accuracy = by_rule.get(rule)
    sims = [r.simulation for r in records if r.simulation is not None]
    rates = [s.tool_errors / s.tool_calls if s.tool_calls else 0.0 for s in sims]
    return {
        "n": n,
        "evaluation_failures": failures,
        "ungraded": ungraded,
        "rule": rule,
        "unsolved_accuracy": accuracy,
        "accuracy_by_rule": by_rule,
        "score": None if accuracy is None else _round(100.0 * accuracy),
        "raw_score": None if accuracy is None else _round(100.0 * accuracy),
        "tool_error_rate": _round(sum(rates) / len(rates)) if rates else None,
        "pooled_tool_error_rate": _pooled_rate(records),
        "sandbox": _sandbox(records),
    }


def report_metrics(records: Sequence[ResultRecord], config: Mapping[str, Any]) -> dict[str, Any]:
    """The travel numbers of ``records`` (see the module docstring)."""
    fallback = _config_subset(config)
    done = [r for r in records if r.status == "done" and r.simulation is not None]
    groups: dict[str, list[ResultRecord]] = {}
    for r in done:
        groups.setdefault(_subset_of(r, fallback), []).append(r)
    subsets: dict[str, Any] = {}
    for name, group in sorted(groups.items()):
        if name == "unsolvable":
            subsets[name] = _unsolved_subset(group)
        elif name in ("single", "multi"):
            subsets[name] = _judged_subset(name, group)
        else:
            subsets[name] = {"n": len(group), "note": "subset unknown: not scored"}
    present = [s for s in SUBSETS if s in subsets]
    unsolved = subsets.get("unsolvable", {}).get("unsolved_accuracy")

    def pick(key: str) -> float | None:
        if len(present) == 1:
            value = subsets[present[0]].get(key)
            return value if isinstance(value, float | int) else None
        if len(present) == 3:
            multi = subsets["multi"].get(key)
            single = subsets["single"].get(key)
            return _round(overall_score(multi, single, unsolved))
        return None

    kinds = sorted({k for s in subsets.values() for k in s.get("judge_kind", [])})
    travel: dict[str, Any] = {
        "subsets": subsets,
        "overall": pick("score") if len(present) == 3 else None,
        "judge_kind": kinds,
        "judge_failures": sum(int(s.get("judge_failures", 0)) for s in subsets.values()),
    }
    if JUDGE_KIND_OFFLINE in kinds:
        travel["note"] = OFFLINE_NOTE
    out: dict[str, Any] = {"score": pick("score"), "raw_score": pick("raw_score"), "travel": travel}
    if unsolved is not None:
        out["unsolved_accuracy"] = unsolved
    return out
