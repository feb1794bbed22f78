"""Browser tests: headless Chromium (Debian's ``chromium``, driven by Playwright through
``executable_path`` — never a downloaded browser) against ``lifebench view`` and the HTML report.

Every page must load with no failed request, no request off this machine and no console
error; filters must work; text that tries to be markup (``<script>``, ``<img onerror>``) must
show as text and run nothing. In CI (``CI=true``) a missing chromium or Playwright fails the
tests; elsewhere they are skipped with the reason.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reporting"))

from reporting_fakes import (
    HOSTILE_TASK,
    UNGRADED_TASK,
    XSS_IMG,
    XSS_SCRIPT,
    build_run,
    record_unit,
)

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MODEL_A = "model-a@http://127.0.0.1:9/v1"
MODEL_B = "model-b@http://127.0.0.1:9/v1"
TIMEOUT_MS = 15_000


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


def _chromium() -> str:
    path = os.environ.get("LIFEBENCH_CHROMIUM") or shutil.which("chromium")
    if not path:
        _unavailable("no chromium on PATH (install it: apt-get install -y chromium)")
    assert path is not None
    return path


@dataclass
class Watch:
    """What a page did wrong: console errors, failed requests, requests off this machine,
    dialogs (alert/confirm)."""

    console_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def clean(self) -> None:
        assert self.console_errors == [], self.console_errors
        assert self.failed == [], self.failed
        assert self.outside == [], self.outside
        assert self.dialogs == [], self.dialogs


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    chromium = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=chromium,
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1280, "height": 900},
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        yield ctx
        ctx.close()


def _page(context: Any) -> tuple[Any, Watch]:
    page = context.new_page()
    watch = Watch()

    def on_console(message: Any) -> None:
        if message.type == "error":
            watch.console_errors.append(message.text)

    def on_dialog(dialog: Any) -> None:
        watch.dialogs.append(dialog.message)
        dialog.dismiss()

    def on_route(route: Any) -> None:
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "data:", "file:")):
            route.continue_()
        else:
            watch.outside.append(url)
            route.abort()

    page.on("console", on_console)
    page.on("pageerror", lambda exc: watch.console_errors.append(str(exc)))

    def on_failed(request: Any) -> None:
        # A request still in flight when the page navigates away (a poll, the icon) is
        # cancelled by the browser: that is not a failed load.
        if request.failure != "net::ERR_ABORTED":
            watch.failed.append(f"{request.url}: {request.failure}")

    def on_response(response: Any) -> None:
        if response.status >= 400:
            watch.failed.append(f"{response.url}: HTTP {response.status}")

    page.on("requestfailed", on_failed)
    page.on("response", on_response)
    page.on("dialog", on_dialog)
    page.route("**/*", on_route)
    return page, watch


@dataclass
class Server:
    url: str
    runs: list[Path]
    process: subprocess.Popen[str]


def _first_line(stream: Any, timeout: float) -> str:
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        return ""


def _cli(*args: str) -> None:
    """Run the CLI in a process (Playwright's sync API keeps an event loop in this thread)."""
    command = [sys.executable, "-c", "from lifebench.cli import main; main()", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


@contextmanager
def serving(runs: Sequence[Path], *options: str) -> Iterator[tuple[str, Any]]:
    """``lifebench view RUNS`` in a process: (its URL, the process), stopped on exit."""
    command = [
        sys.executable,
        "-c",
        "from lifebench.cli import main; main()",
        "view",
        *map(str, runs),
        "--port",
        "0",
        *options,
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        line = _first_line(process.stdout, timeout=60)
        assert line.startswith("lifebench view: http://127.0.0.1:"), (line, process.poll())
        yield line.split()[2], process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("view-runs")
    _cli("run", "--num-tasks", "3", "--trials", "2", "--out", str(root / "offline"))
    runs = [
        build_run(root / "a", model=MODEL_A),
        build_run(root / "b", model=MODEL_B, domain="instore"),
        root / "offline",
    ]
    with serving(runs, "--poll", "0.5") as (url, process):
        yield Server(url, runs, process)


def test_the_index_loads_clean_and_lists_every_simulation(context: Any, server: Server) -> None:
    page, watch = _page(context)
    with page.expect_response(lambda r: "/api/status" in r.url and r.ok):
        page.goto(server.url)  # the live-update script polls once at once
    assert page.locator("#sims tbody tr").count() == 24 + 6
    assert page.locator("#runs tbody tr").count() == 3
    watch.clean()
    page.close()


def test_filters_narrow_the_list(context: Any, server: Server) -> None:
    page, watch = _page(context)
    page.goto(server.url)
    with page.expect_navigation():
        page.select_option('select[name="outcome"]', "fail")  # submits on change
    rows = page.locator("#sims tbody tr")
    assert rows.count() == 6
    assert set(page.locator("#sims tbody .badge").all_inner_texts()) == {"fail"}
    page.fill('input[name="task"]', "t-fail")
    with page.expect_navigation():
        page.click('button[type="submit"]')
    assert page.locator("#sims tbody tr").count() == 2  # t-fail#1 in both runs
    with page.expect_navigation():
        page.select_option('select[name="run"]', "1")
    assert page.locator("#sims tbody tr").count() == 1
    assert page.locator("#sims tbody td").first.inner_text() == "b"
    watch.clean()
    page.close()


def test_a_hostile_trajectory_shows_its_markup_as_text(context: Any, server: Server) -> None:
    page, watch = _page(context)
    page.goto(server.url + "?task=task-%3Cimg&run=0")
    links = page.locator("#sims tbody a")
    assert links.count() == 2
    with page.expect_navigation():
        links.first.click()
    page.wait_for_load_state("networkidle")
    text = page.locator("main").inner_text()
    assert XSS_SCRIPT in text and XSS_IMG in text and HOSTILE_TASK in text
    assert page.evaluate("window.__xss") is None
    assert page.locator("main img").count() == 0
    assert page.locator("main script").count() == 0
    assert page.locator(".tool-error").count() == 1
    watch.clean()
    page.close()


def test_the_csp_blocks_inline_code_even_if_markup_got_through(
    context: Any, server: Server
) -> None:
    page, watch = _page(context)
    page.goto(f"{server.url}sim?run=0&task=t-pass&trial=0")
    page.wait_for_load_state("networkidle")
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        page.evaluate(
            """() => {
                const s = document.createElement('script');
                s.textContent = 'window.__csp = "script"';
                document.body.appendChild(s);
            }"""
        )
    assert page.evaluate("window.__csp") is None
    assert any("Content Security Policy" in e for e in watch.console_errors)
    page.close()


def test_an_offline_trajectory_shows_its_evaluation_and_state(context: Any, server: Server) -> None:
    page, watch = _page(context)
    page.goto(f"{server.url}?run=2")
    links = page.locator("#sims tbody a")
    assert links.count() == 6
    with page.expect_navigation():
        links.first.click()
    assert page.locator("#outcome").inner_text() == "pass"
    assert page.locator(".call .tool-name").count() >= 1  # the oracle's tool calls
    assert page.locator("ul.criteria li.met").count() >= 1
    assert page.locator("table.changes tr.added").count() >= 1  # the orders it created
    watch.clean()
    page.close()


def test_compare_shows_two_runs_side_by_side(context: Any, server: Server) -> None:
    page, watch = _page(context)
    page.goto(f"{server.url}sim?run=0&task=t-fail&trial=1")
    with page.expect_navigation():
        page.click("a.compare-link")
    assert page.locator("section.column").count() == 2
    heads = page.locator(".unit-head h1").all_inner_texts()
    assert "trial 1 · a" in heads[0] and "trial 0 · b" in heads[1]
    watch.clean()
    page.close()


def test_new_units_appear_while_the_run_writes(context: Any, server: Server) -> None:
    page, watch = _page(context)
    page.goto(f"{server.url}?run=0&task={UNGRADED_TASK}")
    pending_cell = page.locator('#runs tr[data-run="0"] [data-field="pending"]')
    assert pending_cell.inner_text() == "1"
    assert page.locator("#sims tbody tr.o-pending").count() == 1
    record_unit(server.runs[0], UNGRADED_TASK, 1, model=MODEL_A, domain="delivery")
    page.wait_for_selector("#sims tbody tr.o-pass")
    page.wait_for_function(
        """() => document.querySelector('#runs tr[data-run="0"] [data-field="pending"]')
                 .textContent === '0'"""
    )
    assert page.locator("#sims tbody tr.o-pending").count() == 0
    assert page.locator("#live-note").is_visible()
    watch.clean()
    page.close()


def test_a_pending_trajectory_reloads_when_its_unit_lands(context: Any, server: Server) -> None:
    page, watch = _page(context)
    page.goto(f"{server.url}sim?run=1&task={UNGRADED_TASK}&trial=1")
    assert page.locator("#outcome").inner_text() == "pending"
    with page.expect_navigation():
        record_unit(server.runs[1], UNGRADED_TASK, 1, model=MODEL_B, domain="instore")
    assert page.locator("#outcome").inner_text() == "pass"
    assert page.locator(".msg-card").count() == 4
    watch.clean()
    page.close()


def test_the_report_page_of_the_viewer_loads_clean(context: Any, server: Server) -> None:
    page, watch = _page(context)
    page.goto(f"{server.url}report")
    page.wait_for_load_state("networkidle")
    assert page.locator("figure.chart svg").count() >= 6
    watch.clean()
    page.close()


def test_the_html_report_of_an_offline_run_opens_with_no_network(
    context: Any, tmp_path: Path
) -> None:
    offline = tmp_path / "offline"
    _cli("run", "--num-tasks", "3", "--trials", "2", "--out", str(offline))
    hostile = build_run(tmp_path / "hostile")
    out = tmp_path / "report.html"
    _cli("report", str(offline), str(hostile), "--html", str(out))
    page, watch = _page(context)
    page.goto(out.as_uri())
    page.wait_for_load_state("load")
    charts = page.locator("figure.chart")
    assert charts.count() == 8
    assert page.locator("figure.chart svg").count() == 8  # every chart has data to draw
    assert (
        page.locator("#chart-passk circle").count() == 2 + 2 + 1 + 1
    )  # k=1..2 offline, k=1 hostile
    board = page.locator("table.board tbody tr")
    assert board.count() == 2
    page.locator("#tasks details").nth(1).evaluate("d => d.open = true")
    assert XSS_SCRIPT in page.locator("#tasks").inner_text()
    assert page.evaluate("window.__xss") is None
    assert page.locator("main img").count() == 0
    watch.clean()
    page.close()
