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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lifebench.evaluation import BasisResult
from lifebench.metrics import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    OfficialComparison,
    ResultRecord,
    ScorePair,
    official_round,
    stratified_bootstrap,
    tally_classes,
    unavailable,
)
from lifebench.metrics._types import Interval
from lifebench.travel.grading.official import (
    REFERENCE,
    drop_class,
    official_judgement,
    official_meta,
    rating_classes,
)
from lifebench.travel.grading.offline import JUDGE_KIND_OFFLINE, OFFLINE_NOTE
from lifebench.travel.grading.scoring import (
    BUCKETS,
    InstanceScore,
    aggregate,
    dimensions_of,
    overall_score,
    score_instance,
)
from lifebench.travel.grading.unsolved import UNSOLVED_RULES, UNSOLVED_TAG

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
    done = [r for r in records if r.status == "done" and r.simulation is not None]
    groups: dict[str, list[ResultRecord]] = {}
    for r in done:  # a failed grading has no subset in its evaluation: by id, run, file
        groups.setdefault(_unit_subset(r, config), []).append(r)
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


# ---------------------------------------------------------------------------------------------
# The official scoring of the same records, beside lifebench's


@dataclass
class _Unit:
    """One unit's contribution to a subset, both ways (None: not counted that way)."""

    task: str
    subset: str
    ours: InstanceScore | bool | None = None
    theirs: InstanceScore | bool | None = None
    classes: list[str] = field(default_factory=list)
    replayed: bool = True


_ID_SUBSET = re.compile(r"^(single|multi|unsolvable)-")


def _unit_subset(record: ResultRecord, config: Mapping[str, Any]) -> str:
    """The record's subset: its evaluation's, else its id's prefix (runs of several subsets),
    else the run's ``--subset``, else the one the task file's name declares. Records pooled
    from several runs (a sweep's ``combine``) are ``<cell>/<id>`` and read the configuration
    of their own run from ``config["pooled"]``."""
    result = _result(record)
    subset = result.info.get("subset") if result is not None else None
    if subset in SUBSETS:
        return str(subset)
    cell, _, task_id = record.task_id.rpartition("/")
    prefix = _ID_SUBSET.match(task_id)
    if prefix:
        return prefix.group(1)
    pooled = config.get("pooled")
    if cell and isinstance(pooled, Mapping) and isinstance(pooled.get(cell), Mapping):
        config = pooled[cell]
    fallback = _config_subset(config)
    if fallback:
        return fallback
    from lifebench.travel.loader import subset_of_file

    by_file = subset_of_file(config.get("tasks_file"))
    return by_file or "unknown"


def _zero(dimensions: Sequence[str]) -> InstanceScore:
    """A failed run as the official judge rates an empty conversation: the lowest level."""
    return score_instance(dict.fromkeys(dimensions, 1), 0, 0, None)


def _first_assistant_text(record: ResultRecord) -> str:
    sim = record.simulation
    for m in sim.messages if sim is not None else ():
        if m.role == "assistant":
            return m.content
    return ""


def _judged_unit(record: ResultRecord, subset: str) -> _Unit:
    dims = dimensions_of(subset)
    unit = _Unit(record.task_id, subset)
    if record.status in ("infra_error", "rejected"):
        unit.theirs = _zero(dims)
        unit.classes.append("failed_run_scored_zero")
        return unit
    evaluation, basis, sim = record.evaluation, _result(record), record.simulation
    if record.status != "done" or evaluation is None or basis is None or sim is None:
        return unit
    info = basis.info
    failed = evaluation.error is not None
    if not failed:
        unit.ours = _instance(info, dims)
    replies = info.get("judge_replies")
    if not isinstance(replies, list) or (not failed and info.get("judge_kind") != "llm"):
        # no stored answers (an offline stand-in, imported verdicts, an older store)
        unit.theirs = unit.ours
        unit.replayed = not (not failed and info.get("judge_kind") == "llm")
        return unit
    judged = official_judgement([str(r) for r in replies], dims)
    if judged is None:
        if not failed:
            unit.classes.append(drop_class([str(r) for r in replies], dims))
        return unit
    meta = None
    if info.get("meta_judge") and not failed:
        metas = info.get("meta_replies")
        meta = (
            official_meta([str(r) for r in metas])
            if isinstance(metas, list)
            else (info.get("meta_score") if isinstance(info.get("meta_score"), int) else None)
        )
    unit.theirs = score_instance(judged.reading.values(), sim.tool_calls, sim.tool_errors, meta)
    if failed:
        unit.classes.append("lifebench_grading_error_scored_officially")
        return unit
    ours = unit.ours if isinstance(unit.ours, InstanceScore) else None
    attempt = info.get("attempts")
    unit.classes.extend(
        rating_classes(
            judged,
            str(replies[0]),
            dict(ours.ratings) if ours else {},
            attempt if isinstance(attempt, int) else None,
        )
    )
    ours_meta = ours.meta if ours else None
    if meta != ours_meta:
        unit.classes.append("meta_unread_officially" if meta is None else "meta_read_differently")
    return unit


def _unsolved_unit(record: ResultRecord) -> _Unit:
    unit = _Unit(record.task_id, "unsolvable")
    if record.status in ("infra_error", "rejected"):
        unit.theirs = False
        unit.classes.append("failed_run_scored_zero")
        return unit
    evaluation, basis = record.evaluation, _result(record)
    if record.status != "done" or record.simulation is None:
        return unit
    unit.theirs = UNSOLVED_TAG in _first_assistant_text(record)
    if evaluation is None or basis is None:
        return unit
    if evaluation.error is not None or "by_rule" not in basis.info:
        unit.classes.append("lifebench_grading_error_scored_officially")
        return unit
    rule = str(basis.info.get("rule", "first"))
    unit.ours = bool(basis.info["by_rule"].get(rule))
    if unit.ours != unit.theirs:
        unit.classes.append("unsolved_rule_not_first")
    return unit


def _judged_vector(items: Sequence[InstanceScore], dims: Sequence[str]) -> list[float]:
    """Per dimension: the sum of final scores of the rated instances and their count."""
    out: list[float] = []
    for d in dims:
        finals = [f for i in items if (f := i.final_by_dim.get(d)) is not None]
        out.extend((sum(finals), float(len(finals))))
    return out


def _judged_statistic(totals: Sequence[float]) -> float:
    means = [totals[j] / totals[j + 1] if totals[j + 1] else 0.0 for j in range(0, len(totals), 2)]
    return sum(means) / len(means)


def _strata(units: Sequence[_Unit], theirs: bool) -> dict[str, list[list[float]]]:
    by_task: dict[str, dict[str, list[InstanceScore | bool]]] = {}
    for u in units:
        value = u.theirs if theirs else u.ours
        if value is not None:
            by_task.setdefault(u.subset, {}).setdefault(u.task, []).append(value)
    strata: dict[str, list[list[float]]] = {}
    for subset, tasks in by_task.items():
        if subset == "unsolvable":
            strata[subset] = [[float(sum(map(bool, v))), float(len(v))] for v in tasks.values()]
        elif subset in ("single", "multi"):
            dims = dimensions_of(subset)
            strata[subset] = [
                _judged_vector([i for i in v if isinstance(i, InstanceScore)], dims)
                for v in tasks.values()
            ]
    return strata


def _overall_statistic(totals: Mapping[str, Sequence[float]]) -> float | None:
    unsolved = totals["unsolvable"]
    if not unsolved[1]:
        return None
    return (
        _judged_statistic(totals["multi"])
        + _judged_statistic(totals["single"])
        + 100.0 * unsolved[0] / unsolved[1]
    ) / 3.0


def _subset_statistic(subset: str) -> Any:
    def statistic(totals: Mapping[str, Sequence[float]]) -> float | None:
        row = totals[subset]
        if subset == "unsolvable":
            return 100.0 * row[0] / row[1] if row[1] else None
        return _judged_statistic(row)

    return statistic


def _interval(units: Sequence[_Unit], theirs: bool, names: Sequence[str]) -> Interval | None:
    strata = {k: v for k, v in _strata(units, theirs).items() if k in names}
    if set(strata) != set(names):
        return None
    statistic = _overall_statistic if len(names) == 3 else _subset_statistic(names[0])
    return stratified_bootstrap(
        strata, statistic, samples=DEFAULT_BOOTSTRAP_SAMPLES, seed=DEFAULT_BOOTSTRAP_SEED
    )


def _subset_numbers(units: Sequence[_Unit], theirs: bool) -> dict[str, float | None]:
    numbers: dict[str, float | None] = {}
    for subset in SUBSETS:
        values = [
            v
            for u in units
            if u.subset == subset and (v := (u.theirs if theirs else u.ours)) is not None
        ]
        if not values:
            numbers[subset] = None
        elif subset == "unsolvable":
            numbers[subset] = 100.0 * sum(map(bool, values)) / len(values)
        else:
            items = [v for v in values if isinstance(v, InstanceScore)]
            numbers[subset] = aggregate(items, dimensions_of(subset)).score
    return numbers


def official_overall(
    multi: float | None, single: float | None, unsolved: float | None
) -> float | None:
    """The overall ``scripts/eval.sh`` prints: each subset number (unsolved already ×100) with
    two decimals, their mean with two decimals (None unless all three are known)."""
    if multi is None or single is None or unsolved is None:
        return None
    parts = [official_round(x) or 0.0 for x in (multi, single, unsolved)]
    return official_round(sum(parts) / len(parts))


def official_comparison(
    records: Sequence[ResultRecord], config: Mapping[str, Any]
) -> OfficialComparison:
    """TravelBench's official numbers beside lifebench's, from the same stored outputs."""
    units: list[_Unit] = []
    for record in records:
        if record.status == "pending":
            continue
        subset = _unit_subset(record, config)
        if subset == "unsolvable":
            units.append(_unsolved_unit(record))
        elif subset in ("single", "multi"):
            units.append(_judged_unit(record, subset))
    if not units:
        return unavailable(REFERENCE, "no unit of a known subset has run")
    ours, theirs = _subset_numbers(units, False), _subset_numbers(units, True)
    present = [s for s in SUBSETS if any(u.subset == s for u in units)]
    labels = {
        "single": "single-turn score (0–100)",
        "multi": "multi-turn score (0–100)",
        "unsolvable": "unsolvable: 100 × accuracy",
    }
    pairs = [
        ScorePair(metric=s, label=labels[s], lifebench=ours[s], official=theirs[s], scale="points")
        for s in present
    ]
    head = list(SUBSETS) if len(present) == 3 else present[:1]
    if len(present) == 3:
        pairs.insert(
            0,
            ScorePair(
                metric="overall",
                label="overall = (multi + single + 100 × unsolved acc.) / 3",
                lifebench=overall_score(
                    ours["multi"],
                    ours["single"],
                    None if ours["unsolvable"] is None else ours["unsolvable"] / 100.0,
                ),
                official=official_overall(theirs["multi"], theirs["single"], theirs["unsolvable"]),
                scale="points",
            ),
        )
    elif len(present) == 2:
        head = []
    if head:
        pairs[0] = pairs[0].model_copy(
            update={
                "lifebench_ci": _interval(units, False, head),
                "official_ci": _interval(units, True, head),
            }
        )
    n, differing, classes = tally_classes(u.classes for u in units)
    notes = [
        "failed runs count as the lowest rating officially (the official judge rates an empty "
        "conversation; lifebench makes no judge call for it)",
        "the official overall is eval.sh's: subset numbers rounded to two decimals, averaged",
    ]
    stale = sum(1 for u in units if not u.replayed)
    if stale:
        notes.append(
            f"{stale} trajectory(ies) were graded before lifebench stored the judge's answers: "
            "their official reading is taken to be lifebench's (re-grade with `lifebench eval`)"
        )
    if len(present) == 2:
        notes.append("two subsets only: no overall (it needs all three)")
    return OfficialComparison(
        reference=REFERENCE,
        pairs=pairs,
        units=n,
        differing_units=differing,
        classes=classes,
        notes=notes,
    )
