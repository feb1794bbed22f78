"""`lifebench report --html / --markdown`: one self-contained file, charts, escaping."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Mapping, Sequence
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from reporting_fakes import HOSTILE_TASK, XSS_IMG, XSS_SCRIPT, build_run
from typer.testing import CliRunner

import lifebench.suites as suites
from lifebench.cli import app
from lifebench.reporting._bundle import RunReport, build_run_report, run_labels
from lifebench.reporting._charts import Bar, LineSeries, bar_chart, line_chart, nice_ticks
from lifebench.reporting._format import pct
from lifebench.reporting._html import leaderboard, render_html, render_markdown
from lifebench.reporting._load import load_run


def _bundles(*dirs: Path) -> list[RunReport]:
    labels = run_labels(dirs)
    return [build_run_report(load_run(d), label) for d, label in zip(dirs, labels, strict=True)]


@pytest.fixture
def two_runs(tmp_path: Path) -> list[RunReport]:
    a = build_run(tmp_path / "a", model="model-a@http://127.0.0.1:9/v1")
    b = build_run(tmp_path / "b", model="model-b@http://127.0.0.1:9/v1", domain="instore")
    return _bundles(a, b)


def test_the_report_is_one_file_that_loads_and_runs_nothing(two_runs: list[RunReport]) -> None:
    html = render_html(two_runs)
    assert "<script" not in html.lower()
    assert not re.search(r"\bon[a-z]+\s*=\s*\"", html)  # no event-handler attribute
    # nothing is fetched: every src/href is a fragment or a data: URL
    for url in re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', html):
        assert url.startswith(("#", "data:")), url
    assert "http://127.0.0.1:9" not in html  # model endpoints are not shown


def test_the_csp_allows_exactly_the_inline_stylesheet(two_runs: list[RunReport]) -> None:
    html = render_html(two_runs)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert csp is not None
    policy = unescape(csp.group(1))
    assert "default-src 'none'" in policy and "script-src" not in policy
    styles = re.findall(r"<style>(.*?)</style>", html, flags=re.DOTALL)
    assert len(styles) == 1 and "style=" not in html
    digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy


def test_stored_text_is_escaped(two_runs: list[RunReport]) -> None:
    html = render_html(two_runs)
    for raw in (XSS_SCRIPT, XSS_IMG, HOSTILE_TASK):
        assert raw not in html
    assert "&lt;script&gt;window.__xss = &#34;script&#34;&lt;/script&gt;" in html
    assert "task-&lt;img src=x onerror=&#34;window.__xss=1&#34;&gt;" in html


def test_charts_are_inline_svg_with_the_data(two_runs: list[RunReport]) -> None:
    html = render_html(two_runs)
    for chart in (
        "passk",
        "domains",
        "turns",
        "cost",
        "tokens",
        "termination",
        "tool-errors",
        "complexity",
    ):
        section = html.split(f'id="chart-{chart}"', 1)[1].split("</figure>", 1)[0]
        assert "<svg" in section, chart
    # the domain bars carry each run's Avg@k in their tooltip
    avg = two_runs[0].report.avg_at_k[str(two_runs[0].k)]
    assert f"model-a · vita/delivery: {100 * avg:.0f}%" in html


def test_leaderboard_has_one_row_per_model_and_one_column_group_per_domain(
    two_runs: list[RunReport],
) -> None:
    groups, rows = leaderboard(two_runs)
    assert groups == ["vita/delivery", "vita/instore"]
    assert [name for name, _ in rows] == ["model-a", "model-b"]
    cell = rows[0][1]["vita/delivery"]
    rep = two_runs[0].report
    assert cell.k == rep.max_k and cell.avg == rep.avg_at_k[str(rep.max_k)]
    assert cell.hat_ci == rep.ci95["pass_hat_k"][str(rep.max_k)]
    assert "vita/instore" not in rows[0][1]


def test_two_runs_of_one_model_on_one_domain_are_told_apart(tmp_path: Path) -> None:
    runs = _bundles(build_run(tmp_path / "x" / "run"), build_run(tmp_path / "y" / "run"))
    assert [r.label for r in runs] == ["x/run", "y/run"]
    _, rows = leaderboard(runs)
    assert [name for name, _ in rows] == ["model-a (x/run)", "model-a (y/run)"]


def test_the_same_runs_give_the_same_bytes(two_runs: list[RunReport]) -> None:
    assert render_html(two_runs) == render_html(two_runs)
    assert render_markdown(two_runs) == render_markdown(two_runs)


class _SubsetSuite:
    name = "travel"

    def report_metrics(
        self, records: Sequence[Any], config: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        return {
            "subset_scores": {"single_turn": 0.5, "multi_turn": 0.25},
            "levels": {"turn": {"f1": 0.75}},
            "judged": len(records),
            "<b>odd</b>": 1.0,
        }


def test_every_suite_metric_is_rendered_generically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(suites, "get_suite", lambda name: _SubsetSuite())
    runs = _bundles(build_run(tmp_path / "t"))
    html = render_html(runs)
    section = html.split('id="suite-metrics"', 1)[1].split("</section>", 1)[0]
    for name, value in (
        ("subset_scores.single_turn", "0.5"),
        ("subset_scores.multi_turn", "0.25"),
        ("levels.turn.f1", "0.75"),
        ("judged", "12"),
    ):
        assert re.search(rf"<td>{re.escape(name)}</td><td class=\"num\">{value}</td>", section)
    assert "&lt;b&gt;odd&lt;/b&gt;" in section and "<b>odd" not in section
    # a metric mapping names to numbers gets a bar chart (one bar per key)
    chart = section.split("vita: subset_scores", 1)[1].split("</figure>", 1)[0]
    assert chart.count('<rect class="bar') == 2
    md = render_markdown(runs)
    assert "| subset\\_scores.single\\_turn | 0.5 |" in md


def test_markdown_escapes_stored_text(two_runs: list[RunReport]) -> None:
    md = render_markdown(two_runs)
    assert "<script" not in md and "<img" not in md
    assert "&lt;script&gt;" in md
    rep = two_runs[0].report
    assert f"| model-a | {pct(rep.avg_at_k[str(rep.max_k)])} \\[" in md
    assert "\x1b" not in md and "\\x1b" in md
    for line in md.splitlines():
        if line.startswith("| t-fail "):
            assert line.count(" | ") == 5  # six cells: no stray pipe from the data


def test_chart_geometry_follows_the_numbers() -> None:
    assert nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert nice_ticks(0, 37) == [0.0, 10.0, 20.0, 30.0, 40.0]
    bars = bar_chart("t", "d", [Bar("a", "s", 0, 1.0), Bar("b", "s", 0, 0.5)], y_title="y").marks
    full, half = [m for m in bars if m.kind == "rect"]
    assert half.h == pytest.approx(full.h / 2, abs=0.1)
    chart = line_chart(
        "t", "d", [LineSeries("s", 0, [(1, 0.0), (2, 1.0)])], x_title="k", y_title="y"
    )
    low, high = [m for m in chart.marks if m.kind == "circle"]
    assert high.y < low.y and high.x > low.x  # up is more, right is larger k


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


def test_report_writes_html_and_markdown_files(tmp_path: Path) -> None:
    a = build_run(tmp_path / "a")
    code, _, err = _cli(
        "report", str(a), "--html", str(tmp_path / "r.html"), "--markdown", str(tmp_path / "r.md")
    )
    assert code == 0, err
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert (tmp_path / "r.md").read_text(encoding="utf-8").startswith("# lifebench report")
    code, _, err = _cli("report", str(a), "--html", str(a / "run.sqlite" / "r.html"))
    assert code == 2 and "cannot write" in err and "Traceback" not in err


def test_the_tasks_of_the_report_show_the_state_differences_of_failed_trials(
    tmp_path: Path,
) -> None:
    from reporting_fakes import _task_json, config, evaluation, simulation

    from lifebench.runner import RunStore, WorkUnit

    store = RunStore.open(tmp_path / "run", config("m@http://127.0.0.1:9/v1"), "h", {"t": "h"}, {
        "t": _task_json("t")
    })  # fmt: skip
    try:
        for trial, paid in ((0, True), (1, False)):
            sim = simulation("t", trial, trial, paid=paid)
            # the failed trial wrote a note and dumped the order with a null field
            order = {**sim.final_state["orders"]["O1"], "name": None}
            if not paid:
                order["note"] = "call me"
            sim = sim.model_copy(update={"final_state": {"orders": {"O1": order}}})
            store.record(WorkUnit("t", trial, trial), sim, evaluation("t", trial, sim))
    finally:
        store.close()
    (run,) = _bundles(tmp_path / "run")
    assert list(run.state_changes) == [("t", 1)]  # the passing trial is not listed
    html = render_html([run])
    tasks = html.split('id="tasks"', 1)[1]
    assert "<summary>#1: 1 state difference</summary>" in tasks
    assert (
        '~ orders.O1.<span class="leaf">note</span></code>: &#34;&#34; → &#34;call me&#34;' in tasks
    )
    assert "name" not in tasks.split("<summary>#1", 1)[1].split("</details>", 1)[0]
