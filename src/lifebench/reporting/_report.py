"""The report of a run: metrics plus the configuration, serialised deterministically."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field

from lifebench._util.hashing import canonical_json
from lifebench.metrics import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    Metrics,
    ResultRecord,
    compute_metrics,
)
from lifebench.reporting._outcomes import FailureGroup, failure_groups, unit_summaries


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
    failures: list[FailureGroup] = Field(
        default_factory=list,
        description="Infrastructure errors, grading errors and ungradable units grouped by "
        "message, with counts and an example unit.",
    )

    def suite_metrics(self) -> dict[str, Any]:
        """The suite's own metrics, by name."""
        extra = self.model_extra or {}
        return {name: extra[name] for name in self.suite_metric_names if name in extra}


def build_report(
    records: Iterable[ResultRecord],
    config: Mapping[str, Any],
    *,
    bootstrap_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Report:
    """Compute the metrics of ``records``, add the suite's own metrics (the suite named in
    ``config``) and attach ``config`` (normalised to plain JSON)."""
    from lifebench.suites import get_suite

    records = list(records)
    metrics = compute_metrics(records, bootstrap_samples=bootstrap_samples, seed=seed)
    plain_config = json.loads(canonical_json(config))
    suite_name = plain_config.get("suite")
    extra: dict[str, Any] = {}
    if suite_name:
        extra = json.loads(
            canonical_json(dict(get_suite(str(suite_name)).report_metrics(records, plain_config)))
        )
    clash = sorted(set(extra) & (set(Report.model_fields) | {"suite_metrics"}))
    if clash:
        raise ValueError(f"suite '{suite_name}' reports metrics named like core ones: {clash}")
    return Report(
        **dict(metrics),
        **extra,
        config=plain_config,
        suite_metric_names=sorted(extra),
        failures=failure_groups(unit_summaries(records)),
    )


def report_json(report: Report) -> str:
    """Report as JSON text: sorted keys, two-space indent, trailing newline; byte-stable."""
    data = report.model_dump(mode="json")
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_report(report: Report, path: str | Path) -> Path:
    """Write :func:`report_json` to ``path`` atomically (temporary file + rename)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(report_json(report))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
