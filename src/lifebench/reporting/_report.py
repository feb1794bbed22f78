"""The report of a run: metrics plus the configuration, serialised deterministically."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import Field

from lifebench._util.hashing import canonical_json
from lifebench.metrics import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    Metrics,
    ResultRecord,
    compute_metrics,
)


class Report(Metrics):
    """Every metric of :class:`~lifebench.metrics.Metrics` plus the run configuration.

    Contains no timestamps, so the same records and configuration always give the same JSON.
    """

    config: dict[str, Any] = Field(default_factory=dict, description="The run configuration.")


def build_report(
    records: Iterable[ResultRecord],
    config: Mapping[str, Any],
    *,
    bootstrap_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Report:
    """Compute the metrics of ``records`` and attach ``config`` (normalised to plain JSON)."""
    metrics = compute_metrics(records, bootstrap_samples=bootstrap_samples, seed=seed)
    return Report(**dict(metrics), config=json.loads(canonical_json(config)))


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
