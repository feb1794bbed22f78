"""Several runs side by side: each run's report plus the per-unit evidence the HTML and
Markdown reports draw on."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lifebench.metrics import Headline
from lifebench.metrics._noise import DEFAULT_TARGETS
from lifebench.reporting._load import RunData
from lifebench.reporting._outcomes import UnitSummary, tool_error_kinds, unit_summaries
from lifebench.reporting._report import Report, build_report
from lifebench.reporting._trajectory import StateChange, unit_state_changes
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
    data: RunData | None = None
    """The run itself (records, tasks, grading), for the comparison of runs."""
    facts: RunFacts | None = None
    """What :func:`lifebench.runner.comparability` compares (None: not read)."""
    state_changes: dict[tuple[str, int], list[StateChange]] = field(default_factory=dict)
    """(task id, trial) → state differences, for the graded units that failed."""

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

    @property
    def evaluator(self) -> str:
        """The evaluator that graded the numbers shown — the latest grading's (after ``eval
        --evaluator both`` that is ``both``, not the run's ``state``; ``mixed`` when the stored
        evaluations come from different gradings) —, with its judge model's name."""
        grading = self.report.grading
        source = grading if grading.get("parts") else self.config
        name = str(source.get("evaluator") or "?")
        judge = source.get("judge_model")
        return f"{name} · {str(judge).split('@')[0]}" if judge else name

    @property
    def bases(self) -> list[str]:
        """The bases whose product is the reward, as the latest grading defined it."""
        grading = self.report.grading
        source = grading if grading.get("parts") else self.config
        return [str(b) for b in source.get("bases") or []]


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


def build_run_report(
    run: RunData,
    label: str,
    headline: Headline = "lifebench",
    *,
    targets: Sequence[float] = DEFAULT_TARGETS,
) -> RunReport:
    """Report of ``run`` with its unit summaries, tool error kinds and complexity buckets
    (``headline``: which of lifebench's and the official number leads; ``targets``: the
    differences whose trials needed the noise floor lists)."""
    report = build_report(
        run.records,
        run.config,
        grading=run.grading,
        provenance=run.provenance,
        headline=headline,
        targets=targets,
    )
    summaries = unit_summaries(run.records)
    failed = {(u.task_id, u.trial) for u in summaries if u.outcome == "fail"}
    changes = {}
    for record in run.records:
        if (record.task_id, record.trial) in failed:
            found, _ = unit_state_changes(record, run.task_data.get(record.task_id))
            if found:
                changes[(record.task_id, record.trial)] = found
    return RunReport(
        label=label,
        run_dir=str(run.run_dir),
        report=report,
        summaries=summaries,
        tool_errors=tool_error_kinds(run.records),
        complexity=complexity_buckets(report, run.records),
        data=run,
        facts=run.facts,
        state_changes=changes,
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


def combined_run_report(
    runs: Sequence[RunData],
    labels: Sequence[str],
    headline: Headline = "lifebench",
    *,
    targets: Sequence[float] = DEFAULT_TARGETS,
) -> RunReport:
    """One report of several runs of one suite pooled (task ids prefixed by each run's label),
    with the suite's own aggregate over all of them — e.g. TravelBench's overall over three
    runs of one subset each."""
    from lifebench.errors import InputError
    from lifebench.reporting._report import pooled_comparison

    configs = {label: run.config for run, label in zip(runs, labels, strict=True)}
    suites = sorted({str(c.get("suite") or "vita") for c in configs.values()})
    if len(suites) != 1:
        raise InputError(f"--combine pools runs of one suite; these are of {', '.join(suites)}")
    records = [
        r.model_copy(update={"task_id": f"{label}/{r.task_id}"})
        for run, label in zip(runs, labels, strict=True)
        for r in run.records
    ]
    config = dict(next(iter(configs.values())))
    report = build_report(records, config, headline=headline, targets=targets)
    report = report.model_copy(update={"comparison": pooled_comparison(records, configs)})
    return RunReport(
        label=" + ".join(labels),
        run_dir=", ".join(str(run.run_dir) for run in runs),
        report=report,
        summaries=unit_summaries(records),
        tool_errors=tool_error_kinds(records),
        complexity=complexity_buckets(report, records),
    )
