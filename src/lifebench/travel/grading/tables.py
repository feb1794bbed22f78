"""TravelBench's report as compact tables (``ReportDesign``): the subset scores with the
overall, raw and penalised scores, tool-error rates and grading failures; the judge's
dimensions per subset; then one-line notes (unsolved accuracy by rule, meta-judge, sandbox)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lifebench.suites._tables import StatsTable
from lifebench.travel.task import SUBSETS


def _points(value: Any) -> str:
    return "-" if value is None else f"{float(value):.2f}"


def _share(value: Any) -> str:
    return "-" if value is None else f"{100 * float(value):.1f}%"


def _score_row(name: str, part: Mapping[str, Any]) -> list[str]:
    unsolvable = name == "unsolvable"
    failures = int(part.get("evaluation_failures" if unsolvable else "judge_failures", 0))
    return [
        name,
        str(part.get("n", 0)),
        _points(part.get("score")),
        "-" if unsolvable else _points(part.get("raw_score")),
        "-" if unsolvable else _points(part.get("penalized_score")),
        _share(part.get("tool_error_rate")),
        str(failures + int(part.get("ungraded", 0))),
    ]


def scores_table(metrics: Mapping[str, Any]) -> StatsTable | None:
    """Subsets, then the overall when all three ran (None without travel metrics)."""
    travel = metrics.get("travel")
    if not isinstance(travel, Mapping):
        return None
    subsets: Mapping[str, Any] = travel.get("subsets") or {}
    names = [s for s in SUBSETS if s in subsets]
    rows = [_score_row(s, subsets[s]) for s in names]
    data: list[dict[str, Any]] = [{"subset": s, **dict(subsets[s])} for s in names]
    if travel.get("overall") is not None:
        total = sum(int(subsets[s].get("n", 0)) for s in names)
        rows.append(["overall", str(total), _points(travel["overall"]), "", "", "", ""])
        data.append({"subset": "overall", "n": total, "score": travel["overall"]})
    notes = []
    if travel.get("overall") is None and names:
        notes.append("overall: needs all three subsets (--subset all, or report --combine)")
    return StatsTable(
        title="TravelBench scores (0–100; unsolvable: 100 × accuracy)",
        columns=["subset", "units", "score", "raw", "penalised", "tool err", "not graded"],
        rows=rows,
        data=data,
        notes=notes,
    )


def dimensions_table(metrics: Mapping[str, Any]) -> StatsTable | None:
    """Each judged dimension's score (mean rating 1–5) per subset (None when none judged)."""
    subsets: Mapping[str, Any] = (metrics.get("travel") or {}).get("subsets") or {}
    judged = [s for s in SUBSETS if s in subsets and subsets[s].get("dimensions")]
    if not judged:
        return None
    names: list[str] = []
    for s in judged:
        names += [d for d in subsets[s]["dimensions"] if d not in names]
    rows = []
    missing = []
    for name in names:
        row = [name]
        for s in judged:
            dim = subsets[s]["dimensions"].get(name)
            if dim is None:
                row.append("")
                continue
            rating = dim.get("mean_rating")
            row.append(_points(dim.get("score")) + ("" if rating is None else f" ({rating:.2f})"))
            if dim.get("missing"):
                missing.append(f"{name} ({s}) unrated in {dim['missing']}")
        rows.append(row)
    return StatsTable(
        title="Judge dimensions: score 0–100 (mean rating 1–5)",
        columns=["dimension", *judged],
        rows=rows,
        data=[{"subset": s, **subsets[s]["dimensions"]} for s in judged],
        notes=[f"missing ratings (count 0): {'; '.join(missing)}"] if missing else [],
    )


def _notes(metrics: Mapping[str, Any]) -> list[str]:
    travel: Mapping[str, Any] = metrics.get("travel") or {}
    subsets: Mapping[str, Any] = travel.get("subsets") or {}
    notes = []
    if travel.get("note"):
        notes.append(f"judge: {travel['note']}")
    unsolvable = subsets.get("unsolvable")
    if unsolvable and unsolvable.get("accuracy_by_rule"):
        rules = ", ".join(
            f"{rule} {_share(value)}" for rule, value in unsolvable["accuracy_by_rule"].items()
        )
        notes.append(f"unsolved accuracy ({unsolvable.get('rule', '?')} rule counts): {rules}")
    metas = [(s, (subsets.get(s) or {}).get("meta_judge") or {}) for s in SUBSETS]
    metas = [(s, m) for s, m in metas if m.get("enabled") or m.get("rated") or m.get("failures")]
    if metas:
        means = ", ".join(
            f"{s} {'-' if m.get('mean') is None else format(m['mean'], '.2f')} "
            f"of {m.get('rated', 0)}"
            for s, m in metas
        )
        failed = sum(int(m.get("failures", 0)) for _, m in metas)
        notes.append(f"meta-judge mean rating: {means}; {failed} failed")
    calls = hits = 0
    for part in subsets.values():
        sandbox = part.get("sandbox") or {}
        calls += int(sandbox.get("calls", 0))
        hits += int(sandbox.get("cache_hits", 0)) + int(sandbox.get("memo_hits", 0))
    if calls:
        notes.append(f"sandbox: {calls} tool calls, {_share(hits / calls)} answered from cache")
    return notes


def report_tables(metrics: Mapping[str, Any]) -> list[StatsTable]:
    """The tables of a TravelBench report; the notes go under the last one."""
    tables = [t for t in (scores_table(metrics), dimensions_table(metrics)) if t is not None]
    if tables:
        last = tables[-1]
        tables[-1] = last.model_copy(update={"notes": [*last.notes, *_notes(metrics)]})
    return tables
