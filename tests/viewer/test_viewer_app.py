"""The web viewer's pages and API, through Starlette's test client (no browser, no socket)."""

from __future__ import annotations

import re
import socket
import sys
from pathlib import Path

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
from starlette.testclient import TestClient
from typer.testing import CliRunner

from lifebench.cli import app as cli_app
from lifebench.errors import LifebenchError
from lifebench.viewer import create_app
from lifebench.viewer._serve import bind

MODEL_A = "model-a@http://127.0.0.1:9/v1"
MODEL_B = "model-b@http://127.0.0.1:9/v1"


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    return [
        build_run(tmp_path / "a", model=MODEL_A),
        build_run(tmp_path / "b", model=MODEL_B, domain="instore"),
    ]


@pytest.fixture
def client(runs: list[Path]) -> TestClient:
    return TestClient(create_app(runs, min_interval=0.0), base_url="http://127.0.0.1")


def _rows(client: TestClient, **filters: str) -> list[dict[str, object]]:
    response = client.get("/api/status", params=filters)
    assert response.status_code == 200
    rows: list[dict[str, object]] = response.json()["rows"]
    return rows


def test_every_response_carries_a_strict_csp(client: TestClient) -> None:
    for path in ("/", "/sim?run=0&task=t-pass&trial=0", "/api/status", "/static/viewer.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        csp = response.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"


def test_pages_have_no_inline_script(client: TestClient) -> None:
    for path in ("/", f"/sim?run=0&task={HOSTILE_TASK}&trial=0", "/compare?task=t-fail&a=0&b=1"):
        html = client.get(path).text
        for tag in re.findall(r"<script[^>]*>", html):
            assert 'src="/static/' in tag, tag
        assert not re.search(r"<script[^>]*>[^<]+</script>", html)


def test_only_loopback_host_names_are_served(client: TestClient) -> None:
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_filters_select_simulations(client: TestClient) -> None:
    assert len(_rows(client)) == 24
    failing = _rows(client, outcome="fail")
    assert {(r["run"], r["task_id"], r["trial"]) for r in failing} == {
        (run, task, trial)
        for run in (0, 1)
        for task, trial in (("t-fail", 1), (HOSTILE_TASK, 0), (HOSTILE_TASK, 1))
    }
    assert {r["run"] for r in _rows(client, run="1")} == {1}
    assert {r["domain"] for r in _rows(client, domain="instore")} == {"instore"}
    assert {r["task_id"] for r in _rows(client, task="UNGRAD")} == {UNGRADED_TASK}
    assert {r["termination"] for r in _rows(client, termination="max_steps")} == {"max_steps"}
    errors = _rows(client, error="401", run="0")
    assert [(r["task_id"], r["trial"], r["outcome"]) for r in errors] == [
        ("t-infra", 1, "infra_error")
    ]
    # error text also searches failed criteria
    assert {r["task_id"] for r in _rows(client, error="expected paid")} == {"t-fail", HOSTILE_TASK}
    assert _rows(client, outcome="fail", run="0", task="t-fail") == [
        r for r in _rows(client, run="0") if r["outcome"] == "fail" and r["task_id"] == "t-fail"
    ]


def test_the_index_renders_the_filtered_list(client: TestClient) -> None:
    html = client.get("/", params={"outcome": "grading_error"}).text
    assert html.count('<tr class="o-grading_error">') == 2
    assert 'class="o-pass"' not in html
    assert '<option value="grading_error" selected>' in html


def test_the_trajectory_page_escapes_everything(client: TestClient) -> None:
    response = client.get("/sim", params={"run": "0", "task": HOSTILE_TASK, "trial": "1"})
    html = response.text
    assert response.status_code == 200
    for raw in (XSS_SCRIPT, XSS_IMG, HOSTILE_TASK):
        assert raw not in html
    assert 'onerror="' not in html
    assert "&lt;script&gt;window.__xss = &#34;script&#34;&lt;/script&gt;" in html
    assert "error: bad_arguments" in html and "arguments are not valid JSON" in html


def test_the_trajectory_page_shows_evaluation_windows_and_state(client: TestClient) -> None:
    html = client.get("/sim", params={"run": "0", "task": "t-fail", "trial": "0"}).text
    assert "order[0]:O1" in html and "status paid" in html
    assert html.count('<span class="badge win">window 2</span>') == 3  # messages 1, 2 and 3
    assert '<a href="#m0">#0</a>–<a href="#m2">#2</a>' in html
    assert '<span class="where">orders.O1.</span><span class="leaf">status</span>' in html
    assert 'class="compare-link" href="/compare?task=t-fail&amp;a=0&amp;b=1&amp;ta=0"' in html


def test_a_missing_unit_is_a_404_with_the_reason(client: TestClient) -> None:
    response = client.get("/sim", params={"run": "0", "task": "t-nope"})
    assert response.status_code == 404 and "no task &#39;t-nope&#39;" in response.text
    assert client.get("/sim", params={"run": "9", "task": "t-pass"}).status_code == 404
    assert (
        client.get("/sim", params={"run": "0", "task": "t-pass", "trial": "x"}).status_code == 404
    )


def test_compare_puts_two_runs_side_by_side(client: TestClient) -> None:
    html = client.get("/compare", params={"task": "t-fail", "a": "0", "b": "1", "ta": "1"}).text
    assert html.count('<section class="column">') == 2
    assert ">trial 1 · a<" in html and ">trial 0 · b<" in html
    assert "/compare?task=t-fail&amp;a=0&amp;b=1&amp;ta=0&amp;tb=0" in html


def test_the_report_page_is_the_html_report(client: TestClient) -> None:
    response = client.get("/report")
    assert response.status_code == 200 and "Leaderboard" in response.text
    assert "style-src 'sha256-" in response.headers["content-security-policy"]


def test_new_units_appear_while_a_run_writes(runs: list[Path], client: TestClient) -> None:
    before = client.get("/api/status").json()
    assert before["runs"][0]["progress"]["pending"] == 1
    record_unit(runs[0], UNGRADED_TASK, 1, model=MODEL_A, domain="delivery")
    after = client.get("/api/status").json()
    assert after["runs"][0]["progress"]["pending"] == 0
    assert after["runs"][0]["version"] == before["runs"][0]["version"] + 1
    row = next(
        r
        for r in after["rows"]
        if r["run"] == 0 and (r["task_id"], r["trial"]) == (UNGRADED_TASK, 1)
    )
    assert row["outcome"] == "pass"
    # nothing changed: the snapshot is kept
    assert client.get("/api/status").json()["runs"][0]["version"] == after["runs"][0]["version"]


def test_view_refuses_a_directory_that_is_not_a_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["view", str(tmp_path)])
    assert result.exit_code == 2 and "not a run directory" in " ".join(result.stderr.split())


def test_a_busy_port_is_one_clear_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        with pytest.raises(LifebenchError, match=r"cannot listen on 127\.0\.0\.1"):
            bind(busy.getsockname()[1])
