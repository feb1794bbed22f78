"""The report of a run: metrics plus the configuration, serialised deterministically."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lifebench._util.files import write_atomic
from lifebench._util.hashing import canonical_json
from lifebench.metrics import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    Headline,
    Metrics,
    OfficialComparison,
    ResultRecord,
    compute_metrics,
)
from lifebench.metrics._noise import DEFAULT_TARGETS, NoiseFloor, noise_floor
from lifebench.metrics._trials import scored_trials
from lifebench.reporting._outcomes import FailureGroup, failure_groups, unit_summaries
from lifebench.suites._tables import StatsTable


class Report(Metrics):
    """Every metric of :class:`~lifebench.metrics.Metrics`, the suite's own metrics and the run
    configuration.

    The suite's metrics (``Suite.report_metrics``: TravelBench's subset scores, FlowBench's
    P/R/F1, ...) sit at the top level beside the core ones and are also listed by name in
    ``suite_metric_names``. Contains no timestamps, so the same records and configuration
    always give the same JSON.
    """

    model_config = ConfigDict(frozen=True, extra="allow")

    config: dict[str, Any] = Field(default_factory=dict, description="The run configuration.")
    suite_metric_names: list[str] = Field(
        default_factory=list, description="Top-level keys contributed by the suite."
    )
    grading: dict[str, Any] = Field(
        default_factory=dict,
        description="The grading that produced the evaluations behind the numbers: evaluator, "
        "judge_model, bases, suite_options and source (run or eval) of the latest grading, "
        "'mixed' when the stored evaluations come from gradings that define the reward "
        "differently or from a re-grade that was interrupted, and 'parts': each grading with "
        "the number of simulations it graded (newest first).",
    )

    def grading_summary(self) -> str:
        """One line: which grading produced the numbers (and a caveat when mixed)."""
        return grading_line(self.grading)

    noise: NoiseFloor | None = Field(
        None,
        description="The run's noise floor: verdict flip rate across trials, intraclass "
        "correlation, minimum detectable difference, trials needed for given differences, and "
        "the variance split into task, agent, user simulator and judge (docs/compare.md).",
    )

    provenance: dict[str, Any] = Field(
        default_factory=dict,
        description="Where the numbers come from (the latest session): lifebench version and "
        "git commit, key package versions, task file and task hashes, grader version of "
        "every basis, the model of every role (empty: not recorded by the run).",
    )
    headline: Headline = Field(
        "lifebench",
        description="Which number leads where both are shown: lifebench's or the official "
        "code's (`--headline`).",
    )
    comparison: OfficialComparison | None = Field(
        None,
        description="The suite's official numbers beside lifebench's, from the same stored "
        "outputs, with the units where they differ counted by class (None: the suite has no "
        "official scoring).",
    )

    def headline_number(self) -> tuple[str, float | None, Any] | None:
        """(label, value, interval) of the suite's headline aggregate as ``headline`` picks it
        (None without a comparison)."""
        if self.comparison is None or not self.comparison.pairs:
            return None
        pair = self.comparison.pairs[0]
        return pair.label, pair.value(self.headline), pair.interval(self.headline)

    suite_tables: list[StatsTable] = Field(
        default_factory=list,
        description="The suite's metrics as the compact tables it designs (ReportDesign; "
        "empty: the metrics are shown by name).",
    )
    defines_success: bool = Field(
        True,
        description="Whether the suite's units succeed or fail (Pass@k / Pass^k apply); false "
        "for a score suite (TravelBench, FlowBench turns), whose reports show scores.",
    )

    failures: list[FailureGroup] = Field(
        default_factory=list,
        description="Infrastructure errors, grading errors and ungradable units grouped by "
        "message, with counts and an example unit.",
    )

    def suite_metrics(self) -> dict[str, Any]:
        """The suite's own metrics, by name."""
        extra = self.model_extra or {}
        return {name: extra[name] for name in self.suite_metric_names if name in extra}


def _describe_part(part: Mapping[str, Any]) -> str:
    text = f"evaluator {part.get('evaluator', '?')}"
    if part.get("judge_model"):
        text += f", judge {part['judge_model']}"
    text += f" ({part.get('source', '?')}) on {part.get('simulations', 0)} simulation(s)"
    if part.get("interrupted"):
        text += f" — a re-grade of {part.get('to_grade', '?')} interrupted part-way"
    return text


def grading_line(grading: Mapping[str, Any]) -> str:
    """A one-line description of a report's ``grading``."""
    parts = list(grading.get("parts") or [])
    if not parts:
        return "—"
    if not grading.get("mixed"):
        return _describe_part(parts[0]).split(" on ", 1)[0]
    return "MIXED: " + "; ".join(_describe_part(p) for p in parts)


def describe_grading(
    config: Mapping[str, Any], stored: Mapping[str, Any] | None, n_simulations: int
) -> dict[str, Any]:
    """The report's ``grading`` from the store's grading log (``stored``, see
    ``RunStore.grading``) or, for a store without one, from the run configuration."""
    if stored and stored.get("parts"):
        parts = [dict(p) for p in stored["parts"]]
        mixed = bool(stored.get("mixed"))
    else:
        parts = [
            {
                "evaluator": config.get("evaluator"),
                "judge_model": config.get("judge_model"),
                "bases": list(config.get("bases") or []),
                "suite_options": dict(config.get("suite_options") or {}),
                "source": "run",
                "simulations": n_simulations,
                "interrupted": False,
            }
        ]
        mixed = False
    head = {k: v for k, v in parts[0].items() if k not in ("simulations", "to_grade")}
    if mixed:
        head["evaluator"] = "mixed"
    return {**head, "mixed": mixed, "parts": parts}


def asks_judge(config: Mapping[str, Any], grading: Mapping[str, Any]) -> bool:
    """Whether a grading behind the numbers (``grading``: :func:`describe_grading`) may ask a
    judge: its options need the ``judge`` model role
    (:attr:`~lifebench.suites.RunOptions.roles_needed`). True when that cannot be told (a
    configuration these options no longer accept)."""
    from lifebench.runner._regrade import regrade_options

    for part in grading.get("parts") or [grading]:
        overrides = {
            "evaluator": part.get("evaluator"),
            "judge_model": part.get("judge_model"),
            "suite_options": part.get("suite_options") or {},
        }
        try:
            options = regrade_options(dict(config), overrides, Path("."))
        except Exception:
            return True
        if "judge" in options.roles_needed:
            return True
    return False


def build_report(
    records: Iterable[ResultRecord],
    config: Mapping[str, Any],
    *,
    grading: Mapping[str, Any] | None = None,
    provenance: BaseModel | None = None,
    bootstrap_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
    headline: Headline = "lifebench",
    targets: Sequence[float] = DEFAULT_TARGETS,
) -> Report:
    """Compute the metrics of ``records``, add the suite's own metrics (the suite named in
    ``config``), attach ``config`` (normalised to plain JSON) and describe the grading behind
    the numbers (``grading``: the store's grading log, see ``RunStore.grading``; without it,
    the configuration's evaluator) and where they come from (``provenance``, see
    ``RunStore.provenance``). A mixed grading adds a warning."""
    from lifebench.suites import OfficialScoring, ReportDesign, get_suite

    records = list(records)
    metrics = compute_metrics(records, bootstrap_samples=bootstrap_samples, seed=seed)
    plain_config = json.loads(canonical_json(config))
    suite_name = plain_config.get("suite")
    extra: dict[str, Any] = {}
    comparison: OfficialComparison | None = None
    tables: list[StatsTable] = []
    success = True
    if suite_name:
        suite = get_suite(str(suite_name))
        extra = json.loads(canonical_json(dict(suite.report_metrics(records, plain_config))))
        if isinstance(suite, OfficialScoring):
            comparison = suite.official_comparison(records, plain_config)
        if isinstance(suite, ReportDesign):
            tables = suite.report_tables(extra, plain_config)
            success = suite.defines_success(plain_config)
    clash = sorted(
        set(extra)
        & (set(Report.model_fields) | {"suite_metrics", "grading_summary", "headline_number"})
    )
    if clash:
        raise ValueError(f"suite '{suite_name}' reports metrics named like core ones: {clash}")
    described = json.loads(
        canonical_json(describe_grading(plain_config, grading, metrics.n_simulations))
    )
    warnings = list(metrics.warnings)
    if described["mixed"]:
        warnings.append(
            "the evaluations come from different gradings, so the numbers mix reward "
            f"definitions ({grading_line(described).removeprefix('MIXED: ')}); run "
            "`lifebench eval` again to grade every simulation alike"
        )
    fields = {**dict(metrics), "warnings": warnings}
    return Report(
        **fields,
        **extra,
        config=plain_config,
        suite_metric_names=sorted(extra),
        grading=described,
        noise=noise_floor(
            scored_trials(records), targets=targets, judged=asks_judge(plain_config, described)
        ),
        provenance={} if provenance is None else provenance.model_dump(mode="json"),
        headline=headline,
        comparison=comparison,
        suite_tables=tables,
        defines_success=success,
        failures=failure_groups(unit_summaries(records)),
    )


def report_json(report: Report) -> str:
    """Report as JSON text: sorted keys, two-space indent, trailing newline; byte-stable."""
    data = report.model_dump(mode="json")
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_report(report: Report, path: str | Path) -> Path:
    """Write :func:`report_json` to ``path`` atomically (temporary file + rename)."""
    target = Path(path)
    write_atomic(target, [report_json(report)])
    return target


def pooled_comparison(
    records: Sequence[Any], configs: Mapping[str, Mapping[str, Any]]
) -> OfficialComparison | None:
    """The suite's own aggregate of records pooled from the runs ``configs`` (cell name →
    run configuration; record ids are ``<cell>/<task id>``), or None when the runs belong to
    different suites or the suite defines none (then the plain metrics stand alone). Each
    record's own run configuration is in ``config["pooled"]`` of the one passed on."""
    from lifebench.suites import OfficialScoring, get_suite

    suites = {str(c.get("suite") or "vita") for c in configs.values()}
    if len(suites) != 1:
        return None
    suite = get_suite(suites.pop())
    if not isinstance(suite, OfficialScoring):
        return None
    first = next(iter(configs.values()))
    merged = {**first, "pooled": {name: dict(c) for name, c in configs.items()}}
    return suite.official_comparison(records, merged)
