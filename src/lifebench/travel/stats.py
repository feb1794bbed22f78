"""``tasks stats`` for travel rows: per file, the subset mix, intents, context blocks and sizes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from statistics import mean

from lifebench.suites._tables import StatsTable
from lifebench.travel.task import SUBSETS, TravelTask

_FIGURES: tuple[tuple[str, str], ...] = (
    ("rows", "rows"),
    ("single", "single"),
    ("multi", "multi"),
    ("unsolvable", "unsolvable"),
    ("with_coordinates", "with coordinates"),
    ("with_destination", "with nav destination"),
    ("with_navigation", "with nav info"),
    ("query_length", "query length"),
    ("context_length", "context length"),
    ("profile_length", "profile length"),
    ("avg_tool_calls", "avg tool calls"),
    ("time_from", "first day"),
    ("time_to", "last day"),
)
"""(key, label) of the figures of one set, in the table's order (one row each)."""


def task_stats(tasks: Sequence[TravelTask], source: str) -> dict[str, object]:
    """The statistics of one set of rows."""
    subsets = Counter(t.subset for t in tasks)
    blocks = [t.blocks for t in tasks]
    profiles = [len(t.user_profile) for t in tasks if t.user_profile]
    tool_calls = [t.avg_tool_calls for t in tasks if t.avg_tool_calls is not None]
    times = sorted(t.time for t in tasks)
    intents = Counter(t.primary_intent.split(".")[0] for t in tasks if t.primary_intent)
    return {
        "source": source,
        "rows": len(tasks),
        **{s: subsets.get(s, 0) for s in SUBSETS},
        "with_coordinates": sum(t.coordinates is not None for t in tasks),
        "with_destination": sum("destination" in b for b in blocks),
        "with_navigation": sum("navigation" in b for b in blocks),
        "query_length": round(mean(len(t.query) for t in tasks), 1) if tasks else 0.0,
        "context_length": round(mean(len(t.context) for t in tasks), 1) if tasks else 0.0,
        "profile_length": round(mean(profiles), 1) if profiles else None,
        "avg_tool_calls": round(mean(tool_calls), 3) if tool_calls else None,
        "time_from": times[0] if times else None,
        "time_to": times[-1] if times else None,
        "intents": dict(intents.most_common()),
        "reasons": dict(Counter(t.unsolvable_reason for t in tasks if t.unsolvable_reason)),
    }


def _names(sources: Sequence[str]) -> list[str]:
    """Short column names: each source's file name without its extension, or the whole source
    when two share one."""
    short = [source.replace("\\", "/").rsplit("/", 1)[-1].split(".", 1)[0] for source in sources]
    return [s if short.count(s) == 1 else full for s, full in zip(short, sources, strict=True)]


def _cell(key: str, value: object) -> str:
    if value is None:
        return "-"
    return str(value)[:10] if key.startswith("time_") else str(value)  # the day (in data: time)


def stats_table(rows: Sequence[dict[str, object]]) -> StatsTable:
    """The table of several sets: one column per set (named by its file), one row per figure
    — subset mix, context blocks, sizes, the time span, then the intents and the unsolvable
    reasons — so that the three official files fit 80 columns."""
    figures = [[label, *(_cell(key, r[key]) for r in rows)] for key, label in _FIGURES]
    for group, what in (("intents", "intents"), ("reasons", "unsolvable reasons")):
        kinds: list[str] = []
        for r in rows:
            kinds += [n for n in dict(r[group]) if n not in kinds]  # type: ignore[call-overload]
        if kinds:
            figures.append([what, *("" for _ in rows)])
        figures += [
            [f"  {kind}", *(str(dict(r[group]).get(kind, 0)) for r in rows)]  # type: ignore[call-overload]
            for kind in kinds
        ]
    sources = [str(r["source"]) for r in rows]
    names = _names(sources)
    return StatsTable(
        title="TravelBench task sets",
        columns=["", *names],
        left_columns=[0],
        rows=figures,
        data=list(rows),
        notes=[f"{n}: {s}" for n, s in zip(names, sources, strict=True) if n != s],
    )
