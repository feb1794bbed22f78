"""FlowBench's own report numbers from a run's unit records (``Suite.report_metrics``).

Turn level: tool P/R/F1, parameter P/R/F1, node accuracy (flowchart knowledge), the mean
response score (when judged), format errors — micro over turns, overall and per domain, role
and knowledge format. Session level: success rate, task progress and tool P/R/F1 — micro over
sessions, with the same breakdowns, plus the share of each failure reason when classified.

Units without a usable evaluation (infrastructure errors, grading errors) and ungradable ones
are left out and counted. The per-unit facts come from the ``info`` the flow evaluators write.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from lifebench.evaluation import GRADING_ERROR
from lifebench.flow.evaluation.counts import PRF, ratio
from lifebench.flow.evaluation.official import REFERENCE as OFFICIAL_REFERENCE
from lifebench.flow.evaluation.official import official_f1, official_ratio
from lifebench.flow.evaluation.prompts import FAILURE_CATEGORIES
from lifebench.metrics import OfficialComparison, ScorePair, tally_classes

NODE_FORMATS = ("flowchart", "ensemble")
GROUPS = ("domain", "role", "format")


class _Tally(Protocol):
    def add(self, info: Mapping[str, Any] | None, extra: Mapping[str, Any] | None) -> None: ...


T = TypeVar("T", bound=_Tally)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass
class TurnTally:
    """Sums of the turn counters of some turns."""

    tools: PRF = field(default_factory=PRF)
    params: PRF = field(default_factory=PRF)
    node_gold: int = 0
    node_correct: int = 0
    format_errors: int = 0
    unusable_turns: int = 0
    turns: int = 0
    scores: list[int] = field(default_factory=list)
    missing: int = 0

    def add(self, info: Mapping[str, Any] | None, response: Mapping[str, Any] | None) -> None:
        """Add one turn (``info`` of its ``turn`` basis, ``response`` basis info if judged;
        either is None when that part of the grading failed)."""
        if response is not None and response["score"] is not None:
            self.scores.append(response["score"])
            self.missing += int(response["missing"])
        if info is None:
            return
        c = info["counts"]
        self.turns += 1
        self.tools += PRF(c["correct_call"], c["pred_call"], c["gold_call"])
        self.params += PRF(c["correct_params"], c["pred_params"], c["gold_params"])
        self.node_gold += c["node_gold"]
        self.node_correct += c["node_correct"]
        self.unusable_turns += c["format_error"]
        self.format_errors += c["unusable_replies"]

    def numbers(self, nodes: bool, judged: bool) -> dict[str, Any]:
        """The report numbers of these turns."""
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
            out["response_score"] = _mean(self.scores)
            out["response_scored"] = len(self.scores)
            out["response_missing"] = self.missing
        return out


@dataclass
class SessionTally:
    """Sums of the session outcomes of some sessions."""

    sessions: int = 0
    successes: int = 0
    progress: list[float] = field(default_factory=list)
    tools: PRF = field(default_factory=PRF)
    official_right: int = 0
    capped: int = 0
    format_errors: int = 0
    failures: dict[str, int] = field(default_factory=dict)

    def add(self, info: Mapping[str, Any] | None, tools: Mapping[str, Any] | None) -> None:
        """Add one session (``info`` of its ``completion`` basis, ``session_tools`` info;
        either is None when that part of the grading failed)."""
        if info is not None:
            self.sessions += 1
            self.successes += int(info["success"])
            self.progress.append(info["progress"])
            self.capped += int(info["capped"])
            if "failure_reason" in info:
                name = info["failure_reason"]
                self.failures[name] = self.failures.get(name, 0) + 1
        if tools is not None:
            calls = tools["calls"]
            self.tools += PRF(calls["tp"], calls["n_pred"], calls["n_gold"])
            self.official_right += calls["official_right"]
            self.format_errors += tools["format_errors"]

    def numbers(self, reasons: bool) -> dict[str, Any]:
        """The report numbers of these sessions."""
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


def usable(evaluation: Any, basis: str) -> Mapping[str, Any] | None:
    """The ``info`` of ``basis`` when it was graded (None when absent or its grading failed):
    each judged part of a unit stands or fails alone."""
    if evaluation is None or basis not in evaluation.by_basis:
        return None
    info = evaluation.by_basis[basis].info
    return None if GRADING_ERROR in info else info


def _tally(
    records: Sequence[Any], main: str, extra: str, make: Callable[[], T]
) -> tuple[T, dict[str, dict[str, T]], int, int, dict[str, int]]:
    """Add every done unit's usable parts to the total and to its groups. Returns the total,
    the groups, the units whose ``main`` basis is ungradable, the units with no usable
    ``main`` basis (not evaluated: infrastructure errors, failed gradings) and, per basis,
    the gradings that failed."""
    total = make()
    groups: dict[str, dict[str, T]] = {g: {} for g in GROUPS}
    ungradable = skipped = 0
    failed: dict[str, int] = {}
    for record in records:
        evaluation = record.evaluation if record.status == "done" else None
        if evaluation is not None:
            for name, result in evaluation.by_basis.items():
                if GRADING_ERROR in result.info:
                    failed[name] = failed.get(name, 0) + 1
        info, more = usable(evaluation, main), usable(evaluation, extra)
        if info is not None and info.get("ungradable"):
            ungradable += 1
            continue
        skipped += int(info is None)
        if info is None and more is None:
            continue
        total.add(info, more)
        keyed: Mapping[str, Any] = info if info is not None else (more or {})
        for g in GROUPS:
            groups[g].setdefault(str(keyed.get(g, "(unknown)")), make()).add(info, more)
    return total, groups, ungradable, skipped, dict(sorted(failed.items()))


def turn_report(records: Sequence[Any], fmt: str) -> dict[str, Any]:
    """Turn-level numbers of the usable evaluations (``fmt``: the run's knowledge format)."""
    total, groups, ungradable, skipped, failed = _tally(records, "turn", "response", TurnTally)
    judged = any(r.evaluation is not None and "response" in r.evaluation.by_basis for r in records)
    nodes = fmt in NODE_FORMATS
    out: dict[str, Any] = {
        "level": "turn",
        **total.numbers(nodes, judged),
        "turn_counts": {
            "tools": total.tools.as_dict(),
            "params": total.params.as_dict(),
            "nodes": {"correct": total.node_correct, "gold": total.node_gold},
            "ungradable": ungradable,
            "not_evaluated": skipped,
            "grading_errors": failed,
        },
    }
    for g, keyed in groups.items():
        out[f"by_{g}"] = {k: keyed[k].numbers(nodes, judged) for k in sorted(keyed)}
    return out


def session_report(records: Sequence[Any], fmt: str) -> dict[str, Any]:
    """Session-level numbers of the usable evaluations."""
    total, groups, ungradable, skipped, failed = _tally(
        records, "completion", "session_tools", SessionTally
    )
    reasons = bool(total.failures)
    out: dict[str, Any] = {
        "level": "session",
        **total.numbers(reasons),
        "session_counts": {
            "tools": total.tools.as_dict(),
            "official_double_count_right": total.official_right,
            "ungradable": ungradable,
            "not_evaluated": skipped,
            "grading_errors": failed,
        },
    }
    for g, keyed in groups.items():
        out[f"by_{g}"] = {k: keyed[k].numbers(reasons) for k in sorted(keyed)}
    return out


def flow_report(records: Sequence[Any], config: Mapping[str, Any]) -> dict[str, Any]:
    """The suite's report numbers for ``records`` of a run configured by ``config`` (its
    ``suite_options`` name the level and the knowledge format). Each judged part of a unit
    stands alone: a failed completion judge leaves the session's tool counts in, a failed
    response judge the turn's counters."""
    options = config["suite_options"]
    if options["level"] == "session":
        return session_report(records, options["knowledge_format"])
    return turn_report(records, options["knowledge_format"])


# ---------------------------------------------------------------------------------------------
# The official scoring of the same records, beside lifebench's

_TURN_CLASSES = (
    ("gold_call", "gold_call_without_arguments_not_counted"),
    ("pred_call", "predicted_call_parsed_differently"),
    ("correct_call", "call_judged_differently"),
    ("gold_params", "empty_gold_values_counted"),
    ("pred_params", "predicted_arguments_counted_differently"),
    ("correct_params", "argument_values_compared_differently"),
)


def _turn_classes(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[str]:
    if theirs["skipped"]:
        return ["skipped_api_call_error"]
    return [name for key, name in _TURN_CLASSES if ours[key] != theirs[key]]


def _turn_official(records: Sequence[Any]) -> OfficialComparison:
    ours, _, _, _, _ = _tally(records, "turn", "response", TurnTally)
    tp = n_pred = n_gold = ptp = p_pred = p_gold = 0
    per_unit: list[list[str]] = []
    stale = 0
    for record in records:
        evaluation = record.evaluation if record.status == "done" else None
        if evaluation is None or "turn" not in evaluation.by_basis:
            continue
        info = evaluation.by_basis["turn"].info
        if info.get("ungradable"):
            continue
        theirs = info.get("official")
        if GRADING_ERROR in info:  # the official matcher would have been asked what ours failed
            per_unit.append(["lifebench_grading_error_not_replayed"])
            continue
        if not isinstance(theirs, Mapping):
            stale += 1
            per_unit.append([])
            continue
        per_unit.append(_turn_classes(info["counts"], theirs))
        if theirs["skipped"]:
            continue
        tp += theirs["correct_call"]
        n_pred += theirs["pred_call"]
        n_gold += theirs["gold_call"]
        ptp += theirs["correct_params"]
        p_pred += theirs["pred_params"]
        p_gold += theirs["gold_params"]
    tool_p, tool_r = official_ratio(tp, n_pred), official_ratio(tp, n_gold)
    param_p, param_r = official_ratio(ptp, p_pred), official_ratio(ptp, p_gold)
    rows = (
        ("tool_f1", "tool F1 (official: 2PR/(P+R) of its P and R)", ours.tools.f1,
         official_f1(tool_p, tool_r)),
        ("tool_precision", "tool precision", ours.tools.precision, tool_p),
        ("tool_recall", "tool recall", ours.tools.recall, tool_r),
        ("param_f1", "parameter F1", ours.params.f1, official_f1(param_p, param_r)),
        ("param_precision", "parameter precision", ours.params.precision, param_p),
        ("param_recall", "parameter recall", ours.params.recall, param_r),
    )  # fmt: skip
    return _comparison(rows, per_unit, stale, "turn prediction(s)")


def _session_official(records: Sequence[Any]) -> OfficialComparison:
    ours, _, _, _, _ = _tally(records, "completion", "session_tools", SessionTally)
    successes: list[int] = []
    progress: list[float] = []
    right = n_gold = n_pred = 0
    per_unit: list[list[str]] = []
    stale = 0
    for record in records:
        evaluation = record.evaluation if record.status == "done" else None
        if evaluation is None:
            continue
        classes: list[str] = []
        completion = evaluation.by_basis.get("completion")
        tools = evaluation.by_basis.get("session_tools")
        if completion is not None and not completion.info.get("ungradable"):
            info = completion.info
            if GRADING_ERROR in info:
                successes.append(0)
                progress.append(0.0)
                classes.append("completion_judge_failed_counted_zero")
            else:
                judged = bool(info.get("judge_success", info["success"]))
                successes.append(int(judged))
                progress.append(float(info["progress"]))
                if judged != bool(info["success"]):
                    classes.append("abnormal_ending_succeeds_officially")
        theirs = tools.info.get("official") if tools is not None else None
        if isinstance(theirs, Mapping):
            right += theirs["right"]
            n_gold += theirs["n_gold"]
            n_pred += theirs["n_pred"]
            calls = tools.info.get("calls") if tools is not None else None
            if GRADING_ERROR in tools.info:
                classes.append("lifebench_grading_error_counted")
            elif isinstance(calls, Mapping):
                if (calls["n_gold"], calls["n_pred"]) != (theirs["n_gold"], theirs["n_pred"]):
                    classes.append("session_calls_counted_differently")
                if calls["tp"] != theirs["right"]:
                    classes.append("session_calls_matched_differently")
        elif tools is not None:
            stale += 1
        per_unit.append(classes)
    n = len(successes)
    rows = (
        ("success_rate", "success rate", ratio(ours.successes, ours.sessions),
         sum(successes) / n if n else 0.0),
        ("task_progress", "task progress", _mean(ours.progress),
         sum(progress) / len(progress) if progress else 0.0),
        ("tool_precision", "tool precision", ours.tools.precision,
         right / n_pred if n_pred > 0 else 0.0),
        ("tool_recall", "tool recall", ours.tools.recall, right / n_gold if n_gold > 0 else 0.0),
    )  # fmt: skip
    return _comparison(rows, per_unit, stale, "session(s)")


def _comparison(
    rows: Sequence[tuple[str, str, float | None, float]],
    per_unit: Sequence[Sequence[str]],
    stale: int,
    what: str,
) -> OfficialComparison:
    n, differing, classes = tally_classes(per_unit)
    notes = [
        "the official fuzzy matcher's questions are answered with lifebench's verdicts on the "
        "same values (official mode makes no model call)"
    ]
    if stale:
        notes.append(
            f"{stale} {what} were graded before lifebench stored the official counters: they "
            "are left out of the official numbers (re-grade with `lifebench eval`)"
        )
    return OfficialComparison(
        reference=OFFICIAL_REFERENCE,
        pairs=[
            ScorePair(metric=m, label=label, lifebench=ours, official=theirs)
            for m, label, ours, theirs in rows
        ],
        units=n,
        differing_units=differing,
        classes=classes,
        notes=notes,
    )


def official_comparison(records: Sequence[Any], config: Mapping[str, Any]) -> OfficialComparison:
    """FlowBench's official numbers (turn: tool and parameter P/R/F1; session: success rate,
    task progress, tool P/R) beside lifebench's, from the same stored outputs."""
    options = config.get("suite_options") or {}
    if options.get("level") == "session":
        return _session_official(records)
    return _turn_official(records)
