"""``tasks stats`` for travel rows: per file, the subset mix, intents, context blocks and sizes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from statistics import mean

from lifebench.suites._tables import StatsTable
from lifebench.travel.task import SUBSETS, TravelTask

COLUMNS = [
    "source",
    "rows",
    "single",
    "multi",
    "unsolvable",
    "with coords",
    "with nav dest",
    "with nav info",
    "query len",
    "context len",
    "profile len",
    "avg tool calls",
    "time range",
]


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


def stats_table(rows: Sequence[dict[str, object]]) -> StatsTable:
    """The table of several sets."""
    cells = [
        [
            str(r["source"]),
            str(r["rows"]),
            str(r["single"]),
            str(r["multi"]),
            str(r["unsolvable"]),
            str(r["with_coordinates"]),
            str(r["with_destination"]),
            str(r["with_navigation"]),
            str(r["query_length"]),
            str(r["context_length"]),
            "-" if r["profile_length"] is None else str(r["profile_length"]),
            "-" if r["avg_tool_calls"] is None else str(r["avg_tool_calls"]),
            f"{r['time_from']} … {r['time_to']}",
        ]
        for r in rows
    ]
    notes = [
        f"{r['source']}: intents "
        + ", ".join(f"{k} {v}" for k, v in dict(r["intents"]).items())  # type: ignore[call-overload]
        + (
            ("; unsolvable reasons " + ", ".join(f"{k} {v}" for k, v in dict(r["reasons"]).items()))  # type: ignore[call-overload]
            if r["reasons"]
            else ""
        )
        for r in rows
    ]
    return StatsTable(
        title="TravelBench task sets",
        columns=COLUMNS,
        left_columns=[0, 12],
        rows=cells,
        data=list(rows),
        notes=notes,
    )
