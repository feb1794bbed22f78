"""FlowBench's report as compact tables (``ReportDesign``): turn level, tool and parameter
P/R/F1 and node accuracy by knowledge format, then the main numbers by domain; session level,
success rate, task progress and tool P/R/F1 the same way. Percentages, one decimal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lifebench.suites._tables import StatsTable

# (key, header) of the columns, by level and table
_TURN = (
    ("turns", "turns"),
    ("tool_precision", "tool P"),
    ("tool_recall", "tool R"),
    ("tool_f1", "tool F1"),
    ("param_precision", "par P"),
    ("param_recall", "par R"),
    ("param_f1", "par F1"),
    ("node_accuracy", "node"),
    ("response_score", "resp"),
)
_TURN_SHORT = (("turns", "turns"), ("tool_f1", "tool F1"), ("param_f1", "par F1"))
_SESSION = (
    ("sessions", "sessions"),
    ("success_rate", "SR"),
    ("task_progress", "TP"),
    ("tool_precision", "tool P"),
    ("tool_recall", "tool R"),
    ("tool_f1", "tool F1"),
    ("capped", "capped"),
)
_SESSION_SHORT = (
    ("sessions", "sessions"),
    ("success_rate", "SR"),
    ("task_progress", "TP"),
    ("tool_f1", "tool F1"),
)
_COUNTS = {"turns", "sessions", "capped"}


def _cell(key: str, value: Any) -> str:
    if value is None:
        return "-"
    if key in _COUNTS:
        return str(value)
    if key == "response_score":  # the judge's 1–10 score
        return f"{float(value):.2f}"
    return f"{100 * float(value):.1f}"


def _table(
    title: str,
    group: str,
    parts: Mapping[str, Mapping[str, Any]],
    columns: Sequence[tuple[str, str]],
    total: Mapping[str, Any] | None,
) -> StatsTable:
    shown = [(k, h) for k, h in columns if any(k in p for p in parts.values())]
    rows = [[name, *(_cell(k, part.get(k)) for k, _ in shown)] for name, part in parts.items()]
    if total is not None and len(parts) > 1:
        rows.append(["all", *(_cell(k, total.get(k)) for k, _ in shown)])
    return StatsTable(
        title=title,
        columns=[group, *(h for _, h in shown)],
        rows=rows,
        data=[{group: name, **dict(part)} for name, part in parts.items()],
    )


def _notes(metrics: Mapping[str, Any], turn: bool) -> list[str]:
    counts: Mapping[str, Any] = metrics.get("turn_counts" if turn else "session_counts") or {}
    notes = []
    left_out = {
        "ungradable": counts.get("ungradable", 0),
        "not evaluated": counts.get("not_evaluated", 0),
        **{
            f"{basis} grading failed": n
            for basis, n in (counts.get("grading_errors") or {}).items()
        },
    }
    if any(left_out.values()):
        notes.append("left out: " + ", ".join(f"{n} {w}" for w, n in left_out.items() if n))
    if metrics.get("format_errors"):
        what = f"{metrics['format_errors']} unusable replies"
        if turn:
            what += f" ({metrics.get('unusable_turns', 0)} turns with none usable)"
        notes.append(f"format errors: {what}")
    if turn and metrics.get("response_missing"):
        notes.append(f"response score: {metrics['response_missing']} replies not scored")
    reasons: Mapping[str, Any] = metrics.get("failure_reasons") or {}
    if reasons:
        notes.append(
            "failure reasons: "
            + ", ".join(f"{name} {_cell('', share)}%" for name, share in reasons.items())
        )
    return notes


def report_tables(metrics: Mapping[str, Any]) -> list[StatsTable]:
    """The tables of a FlowBench report (turn or session level, from ``metrics["level"]``)."""
    level = metrics.get("level")
    if level not in ("turn", "session"):
        return []
    turn = level == "turn"
    unit = "turns" if turn else "sessions"
    by_format = _table(
        f"FlowBench {unit} by knowledge format (%, micro over {unit})",
        "format",
        metrics.get("by_format") or {},
        _TURN if turn else _SESSION,
        metrics,
    )
    by_domain = _table(
        f"FlowBench {unit} by domain (%)",
        "domain",
        metrics.get("by_domain") or {},
        _TURN_SHORT if turn else _SESSION_SHORT,
        None,
    )
    by_domain = by_domain.model_copy(update={"notes": _notes(metrics, turn)})
    return [by_format, by_domain]
