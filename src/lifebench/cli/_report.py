"""``lifebench report``: metrics of one or more run directories, in the terminal, as JSON, or
as a self-contained HTML / Markdown report."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from lifebench.cli._common import user_errors, write_json, write_output

if TYPE_CHECKING:
    from lifebench.reporting._outcomes import UnitSummary

NOT_FAILED = frozenset({"pass", "pending"})
"""Outcomes that do not put a task in the ``--failed`` listing."""


def listed_units(units: Sequence[UnitSummary], *, failed_only: bool) -> list[UnitSummary]:
    """The units of the task listing, tasks in natural id order (``T2`` before ``T10``), trials
    in order; with ``failed_only`` only the tasks with a trial that did not pass."""
    from lifebench._util.text import natural_key

    failing = {u.task_id for u in units if u.outcome not in NOT_FAILED}
    return sorted(
        (u for u in units if not failed_only or u.task_id in failing),
        key=lambda u: (natural_key(u.task_id), u.trial),
    )


def report(
    run_dirs: Annotated[
        list[Path], typer.Argument(help="One or more run directories (each holds run.sqlite).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    tasks: Annotated[
        bool,
        typer.Option(
            "--tasks",
            help="Also list every task: each trial's outcome, how it ended, the criteria that "
            "failed (first lines) and errors. With --json: adds a 'units' list.",
        ),
    ] = False,
    failed: Annotated[
        bool,
        typer.Option(
            "--failed",
            help="With --tasks: only the tasks with a trial that did not pass (failed, "
            "infrastructure or grading error, ungradable).",
        ),
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help="Write a self-contained HTML report of all RUN_DIRs (leaderboard, charts, "
            "failures, tasks; opens with no network) to this file.",
        ),
    ] = None,
    markdown: Annotated[
        Path | None, typer.Option("--markdown", help="Write the report as Markdown to this file.")
    ] = None,
) -> None:
    """Show Avg@k, Pass@k, Pass^k (with 95% bootstrap CIs), failures grouped by message,
    terminations, turns, tokens and cost of each run.

    The JSON is deterministic: the same stored results always print the same bytes (a JSON
    list when several RUN_DIRs are given). --html / --markdown compare all RUN_DIRs in one
    document instead of printing. Runs of the same suite and domain are checked for
    comparability against the first of them (tasks, grader versions, judge, user and tool
    simulators, options): what makes them incomparable is printed and marked in every format.
    """
    from lifebench.errors import InputError
    from lifebench.reporting import render_report, report_json
    from lifebench.reporting._bundle import (
        build_run_report,
        comparability_by_group,
        comparability_json,
        comparability_lines,
        run_labels,
    )
    from lifebench.reporting._load import load_run

    with user_errors():
        if failed and not tasks:
            raise InputError("--failed selects tasks of the listing: add --tasks", field="--failed")
        runs = [load_run(d) for d in run_dirs]
        labels = run_labels(run_dirs)
        bundles = [build_run_report(run, label) for run, label in zip(runs, labels, strict=True)]
        if html is not None or markdown is not None:
            from lifebench.reporting._html import render_html, render_markdown

            if html is not None:
                write_output(html, [render_html(bundles)])
                typer.echo(f"wrote {html}", err=True)
            if markdown is not None:
                write_output(markdown, [render_markdown(bundles)])
                typer.echo(f"wrote {markdown}", err=True)
            return
    if as_json and len(bundles) == 1 and not tasks:
        write_json(report_json(bundles[0].report).rstrip("\n"))
        return
    groups = comparability_by_group(bundles)
    if as_json:
        docs = []
        for bundle in bundles:
            data = json.loads(report_json(bundle.report))
            if tasks:
                units = listed_units(bundle.summaries, failed_only=failed)
                data["units"] = [s.model_dump(mode="json") for s in units]
            if len(bundles) > 1:
                data["comparability"] = comparability_json(bundle, groups)
            docs.append(data)
        out = docs[0] if len(docs) == 1 else docs
        write_json(json.dumps(out, sort_keys=True, indent=2, ensure_ascii=False))
        return
    for bundle in bundles:
        if len(bundles) > 1:
            typer.echo(f"== {bundle.label} ({bundle.run_dir})")
        render_report(
            bundle.report,
            show_tasks=tasks,
            outcomes=listed_units(bundle.summaries, failed_only=failed) if tasks else None,
        )
    for line in comparability_lines(groups):
        typer.echo(line)
