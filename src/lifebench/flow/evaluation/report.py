"""FlowBench's own report numbers from a run's unit records (``Suite.report_metrics``).

Turn level: tool P/R/F1, parameter P/R/F1, node accuracy (flowchart knowledge), the mean
response score (when judged), format errors — micro over turns, overall and per domain, role
and knowledge format. Session level: success rate, task progress and tool P/R/F1 — micro over
sessions, with the same breakdowns, plus the share of each failure reason when classified.

Units without a usable evaluation (infrastructure errors, grading errors) and ungradable ones
are left out and counted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lifebench.flow.evaluation.counts import PRF, ratio
from lifebench.flow.evaluation.prompts import FAILURE_CATEGORIES

_NODE_FORMATS = ("flowchart", "ensemble")


def _graded(records: Sequence[Any]) -> tuple[list[Mapping[str, Any]], int]:
    """(by_basis of every usable evaluation, number of unusable units)."""
    usable, skipped = [], 0
    for r in records:
        ev = getattr(r, "evaluation", None)
        if getattr(r, "status", "") != "done" or ev is None or ev.error is not None:
            skipped += 1
            continue
        usable.append(ev.by_basis)
    return usable, skipped


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass
class _TurnTally:
    tools: PRF = field(default_factory=PRF)
    params: PRF = field(default_factory=PRF)
    node_gold: int = 0
    node_correct: int = 0
    format_errors: int = 0
    unusable_turns: int = 0
    turns: int = 0
    scores: list[int] = field(default_factory=list)
    missing: int = 0

    def add(self, counts: Mapping[str, int], response: Mapping[str, Any] | None) -> None:
        self.turns += 1
        self.tools = self.tools + PRF(
            counts["correct_call"], counts["pred_call"], counts["gold_call"]
        )
        self.params = self.params + PRF(
            counts["correct_params"], counts["pred_params"], counts["gold_params"]
        )
        self.node_gold += counts["node_gold"]
        self.node_correct += counts["node_correct"]
        self.unusable_turns += counts["format_error"]
        self.format_errors += counts.get("unusable_replies", counts["format_error"])
        if response is not None and response.get("score") is not None:
            self.scores.append(int(response["score"]))
            self.missing += int(bool(response.get("missing")))

    def numbers(self, nodes: bool, judged: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "turns": self.turns,
            "tool_precision": self.tools.precision,
            "tool_recall": self.tools.recall,
            "tool_f1": self.tools.f1,
            "param_precision": self.params.precision,
            "param_recall": self.params.recall,
            "param_f1": self.params.f1,
            "format_errors": self.format_errors,
            "unusable_turns": self.unusable_turns,
        }
        if nodes:
            out["node_accuracy"] = ratio(self.node_correct, self.node_gold)
        if judged:
            out["response_score"] = _mean([float(s) for s in self.scores])
            out["response_scored"] = len(self.scores)
            out["response_missing"] = self.missing
        return out


@dataclass
class _SessionTally:
    sessions: int = 0
    successes: int = 0
    progress: list[float] = field(default_factory=list)
    tools: PRF = field(default_factory=PRF)
    official_right: int = 0
    capped: int = 0
    format_errors: int = 0
    failures: dict[str, int] = field(default_factory=dict)

    def add(self, completion: Mapping[str, Any], tools: Mapping[str, Any] | None) -> None:
        self.sessions += 1
        self.successes += int(bool(completion.get("success")))
        self.progress.append(float(completion.get("progress", 0.0)))
        self.capped += int(bool(completion.get("capped")))
        reason = completion.get("failure_reason")
        if reason:
            self.failures[str(reason)] = self.failures.get(str(reason), 0) + 1
        if tools is not None:
            calls = tools["calls"]
            self.tools = self.tools + PRF(calls["tp"], calls["n_pred"], calls["n_gold"])
            self.official_right += int(calls.get("official_right", 0))
            self.format_errors += int(tools.get("format_errors", 0))

    def numbers(self, reasons: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sessions": self.sessions,
            "success_rate": ratio(self.successes, self.sessions),
            "task_progress": _mean(self.progress),
            "tool_precision": self.tools.precision,
            "tool_recall": self.tools.recall,
            "tool_f1": self.tools.f1,
            "capped": self.capped,
            "format_errors": self.format_errors,
        }
        if reasons:
            classified = sum(self.failures.values())
            out["failure_reasons"] = {
                name: ratio(self.failures.get(name, 0), classified)
                for name in FAILURE_CATEGORIES.values()
            }
        return out


def _level(config: Mapping[str, Any], graded: list[Mapping[str, Any]]) -> str:
    options = config.get("suite_options") or {}
    level = options.get("level") if isinstance(options, Mapping) else None
    if level in ("turn", "session"):
        return str(level)
    return "session" if any("completion" in b for b in graded) else "turn"


def _fmt(config: Mapping[str, Any]) -> str:
    options = config.get("suite_options") or {}
    return str(options.get("knowledge_format", "")) if isinstance(options, Mapping) else ""


def _group(keyed: Mapping[str, Any]) -> dict[str, Any]:
    return {k: keyed[k] for k in sorted(keyed)}


def turn_report(graded: list[Mapping[str, Any]], fmt: str, skipped: int) -> dict[str, Any]:
    """Turn-level numbers of the usable evaluations."""
    total = _TurnTally()
    groups: dict[str, dict[str, _TurnTally]] = {
        "domain": defaultdict(_TurnTally),
        "role": defaultdict(_TurnTally),
        "format": defaultdict(_TurnTally),
    }
    ungradable = 0
    judged = any("response" in b for b in graded)
    for bases in graded:
        turn = bases.get("turn")
        if turn is None or turn.info.get("ungradable"):
            ungradable += 1
            continue
        info = turn.info
        response = bases["response"].info if "response" in bases else None
        fmt_of = str(info.get("format") or fmt or "(unknown)")
        for tally in (
            total,
            groups["domain"][str(info.get("domain", "(unknown)"))],
            groups["role"][str(info.get("role", "(unknown)"))],
            groups["format"][fmt_of],
        ):
            tally.add(info["counts"], response)
    nodes = fmt in _NODE_FORMATS
    out = {
        "level": "turn",
        **total.numbers(nodes, judged),
        "turn_counts": {
            "tools": total.tools.as_dict(),
            "params": total.params.as_dict(),
            "nodes": {"correct": total.node_correct, "gold": total.node_gold},
            "ungradable": ungradable,
            "not_evaluated": skipped,
        },
    }
    for name, keyed in groups.items():
        out[f"by_{name}"] = _group(
            {
                key: tally.numbers(nodes or (name == "format" and key in _NODE_FORMATS), judged)
                for key, tally in keyed.items()
            }
        )
    return out


def session_report(graded: list[Mapping[str, Any]], fmt: str, skipped: int) -> dict[str, Any]:
    """Session-level numbers of the usable evaluations."""
    total = _SessionTally()
    groups: dict[str, dict[str, _SessionTally]] = {
        "domain": defaultdict(_SessionTally),
        "role": defaultdict(_SessionTally),
        "format": defaultdict(_SessionTally),
    }
    ungradable = 0
    reasons = False
    for bases in graded:
        completion = bases.get("completion")
        if completion is None or completion.info.get("ungradable"):
            ungradable += 1
            continue
        info = completion.info
        reasons = reasons or "failure_reason" in info
        tools = bases["session_tools"].info if "session_tools" in bases else None
        for tally in (
            total,
            groups["domain"][str(info.get("domain", "(unknown)"))],
            groups["role"][str(info.get("role", "(unknown)"))],
            groups["format"][str(info.get("format") or fmt or "(unknown)")],
        ):
            tally.add(info, tools)
    out = {
        "level": "session",
        **total.numbers(reasons),
        "session_counts": {
            "tools": total.tools.as_dict(),
            "official_double_count_right": total.official_right,
            "ungradable": ungradable,
            "not_evaluated": skipped,
        },
    }
    for name, keyed in groups.items():
        out[f"by_{name}"] = _group({k: t.numbers(reasons) for k, t in keyed.items()})
    return out


def flow_report(records: Sequence[Any], config: Mapping[str, Any]) -> dict[str, Any]:
    """The suite's report numbers for ``records`` of a run configured by ``config``."""
    graded, skipped = _graded(records)
    if _level(config, graded) == "session":
        return session_report(graded, _fmt(config), skipped)
    return turn_report(graded, _fmt(config), skipped)
