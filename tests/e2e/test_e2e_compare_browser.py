"""Browser tests of the comparison pages: the viewer's /comparison (and the side-by-side pair
it links to) and the comparison section of the self-contained HTML report, in headless
Chromium (Debian's, driven by Playwright; see test_e2e_view_browser). No failed request, no
request off this machine, no console error."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_e2e_view_browser import _cli, _page, serving
from test_e2e_view_browser import context as _chromium  # noqa: F401  (the fixture)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Any:
    """The headless Chromium context of test_e2e_view_browser (skips when it is missing)."""
    return request.getfixturevalue("_chromium")


@pytest.fixture(scope="module")
def viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[Path]]]:
    root = tmp_path_factory.mktemp("compare-view")
    runs = [root / "oracle", root / "noop"]
    _cli("run", "--num-tasks", "12", "--trials", "2", "--out", str(runs[0]))
    _cli("run", "--num-tasks", "12", "--trials", "2", "--agent", "noop", "--out", str(runs[1]))
    with serving(runs) as (url, _):
        yield url, runs


def test_the_comparison_page_opens_each_discordant_pair(
    browser: Any, viewer: tuple[str, list[Path]]
) -> None:
    url, _ = viewer
    page, watch = _page(browser)
    page.goto(url)
    with page.expect_navigation():
        page.click('header.top a[href="/comparison"]')
    rows = page.locator("table.compare tbody tr")
    assert rows.count() == 3  # avg@k, pass^1, pass^2
    assert "+100.0" in rows.first.inner_text()
    assert page.locator("table.noise tbody tr").count() == 2
    links = page.locator("table.discordant a")
    assert links.count() == 12
    with page.expect_navigation():
        links.first.click()
    assert page.locator("section.column").count() == 2
    heads = page.locator(".unit-head h1").all_inner_texts()
    assert "oracle" in heads[0] and "noop" in heads[1]
    watch.clean()
    page.close()


def test_the_report_comparison_opens_with_no_network(
    browser: Any, viewer: tuple[str, list[Path]], tmp_path: Path
) -> None:
    _, runs = viewer
    out = tmp_path / "report.html"
    _cli("report", *map(str, runs), "--html", str(out))
    page, watch = _page(browser)
    page.goto(out.as_uri())
    page.wait_for_load_state("load")
    section = page.locator("#comparison")
    assert section.locator("figure.chart svg circle").count() == 3
    assert section.locator("table.compare tbody tr").count() == 3
    section.locator("details").first.evaluate("d => d.open = true")
    assert section.locator("table.side-by-side tbody tr").count() == 12
    assert page.locator("#noise table.noise tbody tr").count() >= 2
    watch.clean()
    page.close()
