"""Sweeps: a grid of runs (models × suites × domains × trials …) as one resumable job.

A sweep file (YAML or JSON) names ``base`` options shared by every cell and a ``grid`` of axes;
the cells are the cross product of the axes in file order. Each cell is an ordinary run in
``OUT/<cell name>`` (its own ``run.sqlite``), so re-running the sweep resumes every cell, a
killed sweep loses at most the units in flight, and any cell can be looked at with
``lifebench report``. ``combine`` names axes to pool: the combined report adds, for every group
of cells that differ only in those axes, metrics over the union of their units (e.g. the
"400-task" global average of VitaBench over its four splits).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from lifebench._util.inputs import load_config
from lifebench._util.keys import fields_at, key_lines, unknown_key
from lifebench.errors import InputError
from lifebench.metrics import Headline, OfficialComparison
from lifebench.suites import RunOptions
from lifebench.suites._options import MAX_CONCURRENCY, MAX_WORKERS, make_run_options

SWEEP_REPORT = "sweep.json"
MAX_CELLS = 10_000
"""The most cells (runs) of one sweep."""
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
_RESERVED = frozenset({"out", "concurrency", "quiet"})


class SweepSpec(BaseModel):
    """The contents of a sweep file."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    name: str = Field("sweep", description="Name of the sweep (the default output directory).")
    out: str | None = Field(None, description="Directory of the sweep (default: runs/<name>).")
    backend: Literal["local", "ray"] = Field("local", description="local or ray.")
    workers: int = Field(1, ge=1, le=MAX_WORKERS, description="Processes / Ray actors per cell.")
    ray_address: str | None = Field(None, description="Ray cluster address (backend ray).")
    concurrency: int = Field(8, ge=1, le=MAX_CONCURRENCY, description="Units in flight per cell.")
    models: str | None = Field(None, description="Models config file for every cell.")
    base: dict[str, Any] = Field(
        default_factory=dict, description="Options of every cell (names as in `run`)."
    )
    grid: dict[str, list[Any]] = Field(
        default_factory=dict,
        description="Axes: name → values. A value that is a mapping sets several options (its "
        "optional 'name' labels the cell); a plain value sets the option named like the axis.",
    )
    combine: list[str] = Field(
        default_factory=list, description="Axes pooled in the combined report."
    )

    @field_validator("grid")
    @classmethod
    def _non_empty(cls, grid: dict[str, list[Any]]) -> dict[str, list[Any]]:
        for axis, values in grid.items():
            if not values:
                raise ValueError(f"axis {axis!r} has no values")
        return grid


@dataclass(frozen=True)
class Cell:
    """One run of a sweep."""

    name: str
    labels: dict[str, str]
    """Axis → the label of this cell's value."""
    values: dict[str, Any]
    """The cell's run options (base merged with its grid values)."""


def _label(value: Any) -> str:
    if isinstance(value, Mapping):
        if "name" in value:
            return str(value["name"])
        return "+".join(_label(v) for _, v in sorted(value.items()))
    text = str(value)
    from lifebench.suites._options import model_identity

    return model_identity(text) or text if "@" in text else text


def _slug(text: str) -> str:
    return _SAFE.sub("-", text).strip("-") or "x"


def load_sweep(path: str | Path) -> SweepSpec:
    """Read and validate a sweep file (YAML or JSON); errors name the file and field."""
    source = Path(path)
    data, text = load_config(source, what="sweep file")
    if not isinstance(data, Mapping):
        raise InputError("a sweep file holds a mapping (name, base, grid, …)", file=str(source))
    lines = key_lines(text)
    try:
        spec = SweepSpec.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        extra = next((e for e in errors if e.get("type") == "extra_forbidden"), None)
        if extra is not None:
            loc = tuple(extra["loc"])
            raise unknown_key(str(source), loc, fields_at(SweepSpec, loc), lines) from None
        first = errors[0]
        field = ".".join(str(p) for p in first.get("loc") or ()) or None
        message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
        raise InputError(message, file=str(source), field=field) from None
    check_option_keys(spec, str(source), lines)
    return spec


OPTION_ALIASES: Mapping[str, str] = {
    "tasks": "tasks_file",
    "models": "models_file",
    "judge": "judge_model",
    "agent_llm": "agent_model",
    "user_llm": "user_model",
    "num_trials": "trials",
}
"""Names people write for a run option (CLI flags, the official harnesses' names)."""


def _suites(spec: SweepSpec) -> set[str]:
    found = {str(spec.base.get("suite") or "vita")}
    for axis, values in spec.grid.items():
        for value in values:
            if axis == "suite" and not isinstance(value, Mapping):
                found.add(str(value))
            elif isinstance(value, Mapping) and "suite" in value:
                found.add(str(value["suite"]))
    return found


def option_names(suites: set[str]) -> set[str]:
    """Every name a cell's options may use: the common run options and the suites' own."""
    from lifebench.suites import options_model

    names = set(RunOptions.model_fields)
    for suite in suites:
        names |= set(options_model(suite).model_fields)
    return names


def check_option_keys(spec: SweepSpec, source: str, lines: Mapping[Any, int]) -> None:
    """Refuse an option name no run knows (``base`` keys, axis names and the keys of mapping
    values), with its file, line and a "did you mean"."""
    known = option_names(_suites(spec))
    for key in spec.base:
        if key not in known:
            raise unknown_key(source, ("base", key), known, lines, aliases=OPTION_ALIASES,
                              what="option")  # fmt: skip
    for axis, values in spec.grid.items():
        mappings = [v for v in values if isinstance(v, Mapping)]
        if not mappings and axis not in known:
            raise unknown_key(source, ("grid", axis), known, lines, aliases=OPTION_ALIASES,
                              what="option (an axis of plain values names the option it sets)")  # fmt: skip
        for i, value in enumerate(values):
            if not isinstance(value, Mapping):
                continue
            for key in value:
                if key != "name" and key not in known:
                    raise unknown_key(
                        source, ("grid", axis, i, key), known | {"name"}, lines,
                        aliases=OPTION_ALIASES, what="option",
                    )  # fmt: skip


def expand(spec: SweepSpec, source: str = "sweep file") -> list[Cell]:
    """The cells of ``spec``: the cross product of its axes, in file order."""
    unknown = sorted(set(spec.combine) - set(spec.grid))
    if unknown:
        raise InputError(f"combine names axes not in the grid: {unknown}", file=source)
    axes = list(spec.grid.items())
    count = math.prod(len(values) for _, values in axes)
    if count > MAX_CELLS:
        sizes = " × ".join(f"{len(values)} {axis}" for axis, values in axes)
        raise InputError(
            f"the grid has {sizes} = {count:,} cells, more than the {MAX_CELLS:,} one sweep "
            "runs; split it into several sweeps",
            file=source,
            field="grid",
        )
    cells: list[Cell] = []
    seen: set[str] = set()
    for combo in itertools.product(*(values for _, values in axes)):
        values = dict(spec.base)
        labels: dict[str, str] = {}
        for (axis, _), value in zip(axes, combo, strict=True):
            labels[axis] = _label(value)
            if isinstance(value, Mapping):
                values.update({k: v for k, v in value.items() if k != "name"})
            else:
                values[axis] = value
        bad = sorted(set(values) & _RESERVED)
        if bad:
            raise InputError(
                f"{bad} are set by the sweep itself (out, concurrency, quiet)", file=source
            )
        name = "__".join(_slug(f"{axis}={label}") for axis, label in labels.items()) or "all"
        if name in seen:
            raise InputError(f"two cells are both named {name!r}; label them", file=source)
        seen.add(name)
        cells.append(Cell(name=name, labels=labels, values=values))
    return cells


def cell_options(
    spec: SweepSpec, cell: Cell, out: Path, *, quiet: bool, source: str = "sweep file"
) -> RunOptions:
    """The run options of one cell (its run directory is ``out/<cell name>``)."""
    values = {
        **cell.values,
        "out": str(out / cell.name),
        "concurrency": spec.concurrency,
        "quiet": quiet,
    }
    common = set(RunOptions.model_fields)
    flat = {k: v for k, v in values.items() if k not in common}
    if flat:  # a suite's own options may be written beside the common ones, as on the CLI
        values = {k: v for k, v in values.items() if k in common}
        values["suite_options"] = {**flat, **dict(values.get("suite_options") or {})}
    if spec.models and "models_file" not in values:
        values["models_file"] = spec.models
    try:
        return make_run_options(values)
    except InputError as exc:
        raise InputError(f"cell {cell.name}: {exc}", file=source) from None


def check_inputs(
    cells: Sequence[Cell], options: Sequence[RunOptions], source: str = "sweep file"
) -> dict[str, int]:
    """Load every cell's tasks (and models file) as its run would, before anything runs; each
    distinct input is loaded once. Returns the number of tasks per cell.

    Raises:
        InputError: One line per cell whose input is missing or does not load, naming the
            cell, the file and the reason.
    """
    from lifebench.models import load_models_config
    from lifebench.runner._experiment import _load_tasks
    from lifebench.suites import get_suite

    counts: dict[str, int] = {}
    problems: list[str] = []
    task_problems: list[str] = []  # a missing task input may be official data not fetched yet
    loaded: dict[tuple[Any, ...], int | str] = {}
    for cell, opts in zip(cells, options, strict=True):
        if opts.models_file:
            key: tuple[Any, ...] = ("models", opts.models_file)
            if key not in loaded:
                try:
                    load_models_config(opts.models_file)
                    loaded[key] = 0
                except InputError as exc:
                    loaded[key] = str(exc)
            if isinstance(loaded[key], str):
                problems.append(f"cell {cell.name}: {loaded[key]}")
                continue
        key = ("tasks", opts.model_dump_json(include=_TASK_INPUTS))
        if key not in loaded:
            try:
                _, tasks = _load_tasks(get_suite(opts.suite), opts)
                loaded[key] = len(tasks)
            except InputError as exc:
                loaded[key] = str(exc)
        found = loaded[key]
        if isinstance(found, str):
            problems.append(f"cell {cell.name}: {found}")
            task_problems.append(found)
        else:
            counts[cell.name] = found
    if problems:
        hint = (
            " (the official data: `lifebench data get vitabench|travelbench|flowbench`)"
            if any("no such" in p.lower() for p in task_problems)
            else ""
        )
        raise InputError(
            f"{len(problems)} of {len(cells)} cell(s) cannot load their inputs{hint}:\n  "
            + "\n  ".join(problems),
            file=source,
        )
    return counts


_TASK_INPUTS = {
    "suite",
    "domain",
    "tasks_file",
    "task_set",
    "task_ids",
    "num_tasks",
    "language",
    "suite_options",
}
"""The options a cell's tasks depend on (cells equal on them load the same tasks)."""


def combined_report(
    spec: SweepSpec, cells: Sequence[Cell], out: Path, *, headline: Headline = "lifebench"
) -> dict[str, Any]:
    """One report of the sweep: every cell's headline numbers, and the pooled groups of
    ``combine`` (metrics over the union of their units, task ids prefixed by cell).

    A pooled group's ``score`` is the suite's own aggregate of the pooled units (the first
    number of its official comparison, e.g. TravelBench's overall over the subset cells), never
    a plain mean of rewards where the suite defines another; its ``comparison`` gives the
    official number beside lifebench's. Groups mixing suites have no ``score``."""
    from lifebench.metrics import compute_metrics
    from lifebench.reporting import build_report
    from lifebench.reporting._report import pooled_comparison
    from lifebench.runner._store import RunStore

    rows: list[dict[str, Any]] = []
    pooled: dict[str, list[Any]] = {}
    configs: dict[str, dict[str, dict[str, Any]]] = {}
    pooled_labels: dict[str, dict[str, str]] = {}
    for cell in cells:
        store = RunStore.read(out / cell.name)
        try:
            records = store.results()
            config = store.config()
            rep = build_report(records, config, grading=store.grading(), headline=headline)
        finally:
            store.close()
        rows.append(
            {
                "cell": cell.name,
                "labels": cell.labels,
                **_headline(rep.model_dump()),
                **_score(rep.comparison, headline),
            }
        )
        kept = {a: v for a, v in cell.labels.items() if a not in spec.combine}
        key = "__".join(f"{a}={v}" for a, v in kept.items()) or "all"
        pooled_labels[key] = kept
        configs.setdefault(key, {})[cell.name] = config
        pooled.setdefault(key, []).extend(
            r.model_copy(update={"task_id": f"{cell.name}/{r.task_id}"}) for r in records
        )
    groups = []
    if spec.combine:
        for key, records in pooled.items():
            metrics = compute_metrics(records)
            comparison = pooled_comparison(records, configs[key])
            groups.append(
                {
                    "group": key,
                    "labels": pooled_labels[key],
                    "pooled": list(spec.combine),
                    **_headline(metrics.model_dump()),
                    **_score(comparison, headline),
                }
            )
    return {"name": spec.name, "headline": headline, "cells": rows, "combined": groups}


def _score(comparison: OfficialComparison | None, headline: Headline) -> dict[str, Any]:
    """``score`` (the suite's headline aggregate: label, both values, intervals and the one
    ``headline`` picks) and the whole ``comparison``; empty without one."""
    if comparison is None:
        return {}
    pair = comparison.headline_pair()
    score = None
    if pair is not None:
        score = {
            **pair.model_dump(mode="json"),
            "headline": headline,
            "value": pair.value(headline),
            "interval": pair.interval(headline),
        }
    return {"score": score, "comparison": comparison.model_dump(mode="json")}


def _headline(data: Mapping[str, Any]) -> dict[str, Any]:
    keys = (
        "n_tasks",
        "n_simulations",
        "n_scored",
        "n_errors",
        "n_rejected",
        "n_pending",
        "max_k",
        "avg_reward",
        "avg_at_k",
        "pass_at_k",
        "pass_hat_k",
        "ci95",
        "warnings",
    )
    out = {k: data.get(k) for k in keys}
    if "grading" in data:
        out["grading"] = data["grading"]
    return out


def sweep_json(report: Mapping[str, Any]) -> str:
    """The combined report as deterministic JSON."""
    return json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
