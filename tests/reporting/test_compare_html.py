"""The paired comparison and the noise floor in the HTML report and in the viewer."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from reporting_fakes import build_run
from starlette.testclient import TestClient
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.reporting._bundle import RunReport, build_run_report, run_labels
from lifebench.reporting._compare_html import comparison_sections, difference_chart
from lifebench.reporting._html import render_html, render_markdown
from lifebench.reporting._load import load_run
from lifebench.viewer import create_app


def _offline(out: Path, *extra: str) -> Path:
    args = ["run", "--num-tasks", "12", "--trials", "2", "--out", str(out), "--quiet", *extra]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    root = tmp_path_factory.mktemp("html-compare")
    yield {
        "oracle": _offline(root / "oracle"),
        "noop": _offline(root / "noop", "--agent", "noop"),
        "short": _offline(root / "short", "--max-steps", "40"),
        "instore": build_run(root / "instore", domain="instore"),
    }


def _bundles(*dirs: Path) -> list[RunReport]:
    labels = run_labels(dirs)
    return [build_run_report(load_run(d), label) for d, label in zip(dirs, labels, strict=True)]


def test_two_comparable_runs_get_a_comparison_section(runs: dict[str, Path]) -> None:
    bundles = _bundles(runs["oracle"], runs["noop"])
    sections = comparison_sections(bundles)
    assert len(sections) == 1
    sec = sections[0]
    assert sec.group == "vita/delivery" and sec.labels == ["oracle", "noop"]
    assert sec.refusal is None and sec.comparison is not None
    pair = sec.pairs[0]
    assert pair.pair.discordant_total == 12 and len(pair.side_by_side) == 12
    first = pair.side_by_side[0]
    assert first.a is not None and first.a.outcome == "pass"
    assert first.b is not None and first.b.outcome == "fail"
    html = render_html(bundles)
    section = html[html.index('<section id="comparison">') : html.index('<section id="noise">')]
    assert "vita/delivery: oracle · noop" in section
    assert "Compared on <strong>12</strong> shared tasks" in section
    assert "+100.0" in section and "*" in section and "mcnemar_exact" in section
    assert section.count("<circle") == 3  # avg@k, pass^1, pass^2
    assert first.task.task_id in section and "#0 pass" in section and "#0 fail" in section
    assert "style=" not in html  # the CSP allows no inline style


def test_runs_that_cannot_be_compared_say_why(runs: dict[str, Path]) -> None:
    html = render_html(_bundles(runs["oracle"], runs["short"]))
    assert "Not compared: the runs are not comparable:" in html
    assert "  - oracle vs short: --max-steps: 300 vs 40\n" in html


def test_runs_of_different_groups_are_not_compared(runs: dict[str, Path]) -> None:
    sections = comparison_sections(_bundles(runs["oracle"], runs["instore"]))
    assert sections == []
    html = render_html(_bundles(runs["oracle"]))
    assert "Give two or more runs of the same suite and domain" in html


def test_the_noise_floor_of_every_run_is_in_the_report(runs: dict[str, Path]) -> None:
    html = render_html(_bundles(runs["oracle"], runs["instore"]))
    noise = html[html.index('<section id="noise">') :]
    noise = noise[: noise.index("</section>")]
    assert noise.count("<tr><td>oracle</td>") == 1 and "<tr><td>instore</td>" in noise
    assert "0.0 pts" in noise  # the oracle never flips: no trial noise
    assert "not varied" in noise
    # no grader of these runs asks a judge: the split says so instead of offering --rejudge
    assert "judge variance is 0 by construction" in noise and "--rejudge" not in noise
    assert render_markdown(_bundles(runs["oracle"]))  # the Markdown report still renders


def test_the_difference_chart_draws_only_fractions() -> None:
    from lifebench.compare._compare import MetricComparison, PairComparison

    def metric(name: str, scale: str, d: float, significant: bool) -> MetricComparison:
        return MetricComparison(
            metric=name, kind="score", scale=scale, tasks=10, a=0.5 + d, b=0.5, difference=d,
            ci=(d - 0.1, d + 0.1), test="permutation", exact=True, p_value=0.01, p_holm=0.01,
            significant=significant, a_better=1, b_better=0, ties=9,
        )  # fmt: skip

    pair = PairComparison(
        a=0, b=1, metrics=[metric("avg@k", "fraction", 0.2, True), metric("score", "raw", 9, False)]
    )
    chart = difference_chart(pair, "A", "B")
    circles = [m for m in chart.marks if m.kind == "circle"]
    assert len(circles) == 1 and "s0" in circles[0].css  # significant: the first colour
    assert circles[0].title.startswith("avg@k: +20.0 [+10.0, +30.0]")
    labels = [m.text for m in chart.marks if m.kind == "text"]
    assert "avg@k" in labels and "score" not in labels
    assert any("better in A" in t for t in labels)
    empty = difference_chart(PairComparison(a=0, b=1), "A", "B")
    assert empty.marks == []


def test_the_viewer_comparison_page_links_each_pair_of_trajectories(
    runs: dict[str, Path],
) -> None:
    # the instore run sits between the two compared ones: links use the viewer's run numbers
    dirs = [runs["oracle"], runs["instore"], runs["noop"]]
    client = TestClient(create_app(dirs, min_interval=0.0), base_url="http://127.0.0.1")
    response = client.get("/comparison")
    assert response.status_code == 200
    assert "default-src 'none'" in response.headers["content-security-policy"]
    html = response.text
    assert "<script>" not in html and "style=" not in html
    assert "vita/delivery: oracle · noop" in html
    links = re.findall(r'href="(/compare\?[^"]+)"', html)
    assert len(links) == 12
    assert all("a=0&amp;b=2" in link for link in links)
    page = client.get(links[0].replace("&amp;", "&"))
    assert page.status_code == 200 and page.text.count('<section class="column">') == 2
    assert 'href="/comparison"' in client.get("/").text


def test_the_viewer_comparison_page_without_pairs(runs: dict[str, Path]) -> None:
    client = TestClient(create_app([runs["oracle"]], min_interval=0.0), base_url="http://127.0.0.1")
    assert (
        "Start <code>lifebench view</code> with two or more runs" in client.get("/comparison").text
    )
    client = TestClient(
        create_app([runs["oracle"], runs["short"]], min_interval=0.0), base_url="http://127.0.0.1"
    )
    assert "Not compared: the runs are not comparable" in client.get("/comparison").text


def test_the_viewer_recomputes_the_comparison_only_when_a_run_changed(tmp_path: Path) -> None:
    a = _offline(tmp_path / "a")
    b = _offline(tmp_path / "b", "--agent", "noop")
    viewer = create_app([a, b], min_interval=0.0).state.viewer
    first = viewer._comparisons()
    assert viewer._comparisons() is first
    _offline(b, "--agent", "noop", "--trials", "3")  # one more trial per task
    again = viewer._comparisons()
    assert again is not first
    assert again[0].comparison.runs[1].noise.trials_per_task == 3.0


def test_without_scipy_the_report_names_the_extra(
    runs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)  # import scipy fails, as without the extra
    html = render_html(_bundles(runs["oracle"], runs["noop"]))
    assert (
        "Not compared: lifebench compare needs the stats extra (scipy): "
        "pip install &#39;lifebench[stats]&#39;" in html
    )
    assert "are left out: they need the stats extra" in html  # the noise floor's note
