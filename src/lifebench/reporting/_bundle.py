"""Several runs side by side: each run's report plus the per-unit evidence the HTML and
Markdown reports draw on."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lifebench.reporting._load import RunData
from lifebench.reporting._outcomes import UnitSummary, tool_error_kinds, unit_summaries
from lifebench.reporting._report import Report, build_report
from lifebench.runner._provenance import Difference, RunFacts, compare_facts


def model_label(spec: object, kind: object) -> str:
    """A model spec as shown: the name before ``@`` (never the endpoint URL), else
    ``<kind> (no model)``."""
    if isinstance(spec, str) and spec:
        return spec.split("@", 1)[0]
    return f"{kind or '?'} (no model)"


@dataclass(frozen=True)
class ComplexityBucket:
    """Tasks whose reward bases check the same number of criteria, and how they fared."""

    criteria: int
    tasks: int
    mean_reward: float


@dataclass(frozen=True)
class RunReport:
    """One run, ready to be compared with others."""

    label: str
    run_dir: str
    report: Report
    summaries: list[UnitSummary]
    tool_errors: dict[str, int]
    complexity: list[ComplexityBucket]
    facts: RunFacts | None = None
    """What :func:`lifebench.runner.comparability` compares (None: not read)."""

    @property
    def config(self) -> dict[str, Any]:
        """The run configuration."""
        return self.report.config

    @property
    def suite(self) -> str:
        """Suite name."""
        return str(self.config.get("suite") or "?")

    @property
    def domain(self) -> str:
        """Domain name (or '?')."""
        return str(self.config.get("domain") or "?")

    @property
    def group(self) -> str:
        """``suite/domain``: a column of the leaderboard."""
        return f"{self.suite}/{self.domain}"

    @property
    def model(self) -> str:
        """The agent model (name only), or the agent kind when no model was used."""
        return model_label(self.config.get("agent_model"), self.config.get("agent"))

    @property
    def k(self) -> int:
        """The largest k the run supports (fewest scored trials of any task)."""
        return self.report.max_k


def _criteria_counts(records: Sequence[Any]) -> dict[str, int]:
    """Per task: the most criteria its reward bases checked in any scored trial."""
    out: dict[str, int] = {}
    for r in records:
        ev = r.evaluation
        if r.status != "done" or ev is None or ev.error is not None:
            continue
        bases = ev.basis.split("+")
        n = sum(len(ev.by_basis[b].criteria) for b in bases if b in ev.by_basis)
        out[r.task_id] = max(n, out.get(r.task_id, 0))
    return out


def complexity_buckets(report: Report, records: Sequence[Any]) -> list[ComplexityBucket]:
    """Mean reward of the tasks grouped by how many criteria their reward bases check."""
    counts = _criteria_counts(records)
    rewards: dict[int, list[float]] = defaultdict(list)
    for row in report.tasks:
        if row.mean_reward is not None and row.task_id in counts:
            rewards[counts[row.task_id]].append(row.mean_reward)
    return [ComplexityBucket(n, len(v), math.fsum(v) / len(v)) for n, v in sorted(rewards.items())]


def build_run_report(run: RunData, label: str) -> RunReport:
    """Report of ``run`` with its unit summaries, tool error kinds and complexity buckets."""
    report = build_report(run.records, run.config, grading=run.grading, provenance=run.provenance)
    return RunReport(
        label=label,
        run_dir=str(run.run_dir),
        report=report,
        summaries=unit_summaries(run.records),
        tool_errors=tool_error_kinds(run.records),
        complexity=complexity_buckets(report, run.records),
        facts=run.facts,
    )


def run_labels(run_dirs: Sequence[str | Path]) -> list[str]:
    """Short unique labels: the directory name, with its parent when names repeat."""
    paths = [Path(p) for p in run_dirs]
    names = [p.resolve().name or str(p) for p in paths]
    labels = []
    for p, name in zip(paths, names, strict=True):
        if names.count(name) > 1:
            name = f"{p.resolve().parent.name}/{name}"
        labels.append(name)
    seen: dict[str, int] = defaultdict(int)
    out = []
    for label in labels:
        seen[label] += 1
        out.append(
            label if seen[label] == 1 and labels.count(label) == 1 else f"{label}#{seen[label]}"
        )
    return out


@dataclass(frozen=True)
class GroupComparability:
    """The runs of one leaderboard column compared with its first run (the reference)."""

    group: str
    reference: str
    differences: dict[str, list[Difference]]
    """Label → its differences from the reference (every run of the column but the first)."""

    @property
    def comparable(self) -> bool:
        """False when some run's numbers may not be put beside the reference's."""
        return not any(not d.comparable for diffs in self.differences.values() for d in diffs)

    def reasons(self) -> list[tuple[str, list[Difference]]]:
        """(label, the differences that break comparability) of each run that has some."""
        out = []
        for label, diffs in self.differences.items():
            bad = [d for d in diffs if not d.comparable]
            if bad:
                out.append((label, bad))
        return out

    def notes(self) -> list[tuple[str, list[Difference]]]:
        """(label, the differences that are only noted) of each run that has some."""
        out = []
        for label, diffs in self.differences.items():
            noted = [d for d in diffs if d.comparable]
            if noted:
                out.append((label, noted))
        return out


def comparability_by_group(runs: Sequence[RunReport]) -> dict[str, GroupComparability]:
    """For each leaderboard column (suite/domain) with several runs: every run compared with
    the column's first run (:func:`lifebench.runner.comparability`)."""
    groups: dict[str, list[RunReport]] = defaultdict(list)
    for r in runs:
        groups[r.group].append(r)
    out: dict[str, GroupComparability] = {}
    for group, members in sorted(groups.items()):
        reference = members[0]
        if len(members) < 2 or reference.facts is None:
            continue
        differences = {
            r.label: compare_facts(reference.facts, r.facts)
            for r in members[1:]
            if r.facts is not None
        }
        out[group] = GroupComparability(group, reference.label, differences)
    return out


def comparability_json(
    run: RunReport, groups: dict[str, GroupComparability]
) -> dict[str, Any] | None:
    """The ``comparability`` entry of a run in a several-run JSON report: the reference run of
    its column, whether it is comparable with it, and every difference (None: the run is
    alone in its column or is the reference)."""
    group = groups.get(run.group)
    if group is None or run.label not in group.differences:
        return None
    diffs = group.differences[run.label]
    return {
        "reference": group.reference,
        "comparable": all(d.comparable for d in diffs),
        "differences": [d.model_dump(mode="json") for d in diffs],
    }


def comparability_lines(groups: dict[str, GroupComparability]) -> list[str]:
    """One line per run that is not comparable with its column's reference (and one per run
    with noted differences), for the terminal."""
    out = []
    for g, group in groups.items():
        for label, diffs in group.reasons():
            details = "; ".join(d.detail for d in diffs)
            out.append(f"NOT COMPARABLE ({g}): {label} vs {group.reference}: {details}")
        for label, diffs in group.notes():
            details = "; ".join(d.detail for d in diffs)
            out.append(f"note ({g}): {label} vs {group.reference}: {details}")
    return out
