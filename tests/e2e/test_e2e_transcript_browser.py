"""The trajectory page in headless Chromium: the briefing, every model call with its exact
bodies (fetched when opened), search within the transcript, links to the judge's calls, and
model text that tries to be markup shown as text. Same set-up as
``test_e2e_view_browser.py`` (Debian's chromium through Playwright, never a download)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_e2e_view_browser import _cli, _page, context, serving

from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response, tool_call

__all__ = ["context"]  # the browser fixture, shared with the viewer's browser tests

XSS = '<img src=x onerror="window.__xss=1">'
ORDERS = "Mushroom-Tofu-Rice-Bowl-8812"


def _responder(body: dict[str, Any]) -> dict[str, Any]:
    model, messages = body["model"], body["messages"]
    if model == "agent-m":
        if not any(m["role"] == "tool" for m in messages):
            return completion_response(None, tool_calls=[tool_call("get_user_all_orders", {})])
        return completion_response(f"Your last order was {ORDERS}. {XSS} ###STOP###")
    if model == "user-m":
        return completion_response("Hi, please show my orders.")
    prompt = messages[-1]["content"]
    block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", prompt, re.S)
    keys = list(json.loads(block.group(1))) if block else []
    return completion_response(
        json.dumps(
            [{"rubric_key": k, "meetExpectation": False, "justification": "no"} for k in keys]
        )
    )


@dataclass
class Viewed:
    url: str
    task: str
    requests: list[bytes]


@pytest.fixture(scope="module")
def viewed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Viewed]:
    root = tmp_path_factory.mktemp("transcript-view")
    with MockServerThread(MockOpenAIServer(responder=_responder)) as mock:
        models = root / "models.json"
        spec = {
            r: {"model": f"{r}-m", "base_url": mock.base_url, "api_key_env": None}
            for r in ("agent", "user", "judge")
        }
        models.write_text(json.dumps({"models": spec}))
        _cli(
            "run", "--task-set", "demo", "--num-tasks", "1", "--agent", "llm", "--user", "llm",
            "--evaluator", "both", "--agent-model", "agent", "--user-model", "user",
            "--judge-model", "judge", "--models", str(models), "--out", str(root / "run"),
            "--quiet",
        )  # fmt: skip
        requests = [r.raw for r in mock.requests]
    from lifebench.runner import RunStore

    with RunStore.read(root / "run") as store:
        (record,) = store.results()
    with serving([root / "run"]) as (url, _):
        yield Viewed(url, record.task_id, requests)


def _open(context: Any, viewed: Viewed) -> tuple[Any, Any]:
    page, watch = _page(context)
    page.goto(f"{viewed.url}sim?run=0&task={viewed.task}&trial=0")
    page.wait_for_load_state("networkidle")
    return page, watch


def test_the_briefing_and_every_call_are_on_the_page(context: Any, viewed: Viewed) -> None:
    page, watch = _open(context, viewed)
    first_agent = json.loads(next(r for r in viewed.requests if b'"agent-m"' in r))
    prompt = first_agent["messages"][0]["content"]
    assert page.locator("#agent-prompt pre").inner_text() == prompt
    assert page.locator("#user-prompt pre").is_visible()
    assert page.locator("#tools ul.tools > li").count() == len(first_agent["tools"])
    calls = page.locator("details.model-call")
    assert calls.count() == len(viewed.requests) == 4
    assert not calls.nth(1).evaluate("d => d.open")  # collapsed until asked for
    summaries = page.locator("details.model-call > summary").all_inner_texts()
    assert [s.split()[2] for s in summaries] == ["user", "agent", "agent", "judge"]
    watch.clean()
    page.close()


def test_opening_a_body_shows_exactly_what_the_server_received(
    context: Any, viewed: Viewed
) -> None:
    page, watch = _open(context, viewed)
    page.click("#call-2 > summary")
    raw = page.locator("#call-2 details.raw").first
    with page.expect_response(lambda r: "/api/raw" in r.url and r.ok):
        raw.locator("summary").click()
    body = raw.locator("pre.raw-body")
    page.wait_for_function("el => el.textContent.length > 0", arg=body.element_handle())
    assert body.text_content() == viewed.requests[1].decode()
    assert '"tools":[' in (body.text_content() or "")
    response = page.locator("#call-3 details.raw").nth(1)
    page.click("#call-3 > summary")
    with page.expect_response(lambda r: "/api/raw" in r.url and r.ok):
        response.locator("summary").click()
    text = response.locator("pre.raw-body")
    page.wait_for_function("el => el.textContent.length > 0", arg=text.element_handle())
    assert json.loads(text.text_content() or "")["choices"][0]["message"]["content"].startswith(
        "Your last order was"
    )
    watch.clean()
    page.close()


def test_search_finds_text_inside_closed_blocks_and_steps_through_it(
    context: Any, viewed: Viewed
) -> None:
    page, watch = _open(context, viewed)
    assert not page.locator("#call-3").evaluate("d => d.open")
    page.fill("#search", ORDERS)
    page.wait_for_function(
        "() => document.getElementById('search-count').textContent.includes(' of ')"
    )
    count = page.locator("#search-count").inner_text()
    total = int(count.split(" of ")[1])
    assert total >= 3  # the trajectory, the agent's reply in call 3, the judge's prompt
    assert page.locator("mark.hit").count() == total
    assert page.locator("mark.hit.current").count() == 1
    page.press("#search", "Enter")
    assert page.locator("#search-count").inner_text() == f"2 of {total}"
    page.press("#search", "Shift+Enter")
    assert page.locator("#search-count").inner_text() == f"1 of {total}"
    # stepping to the match inside call 3 opens that call
    for _ in range(total):
        if page.locator("#call-3 mark.hit.current").count():
            break
        page.press("#search", "Enter")
    assert page.locator("#call-3 mark.hit.current").count() == 1
    assert page.locator("#call-3").evaluate("d => d.open")
    page.fill("#search", "no such text anywhere 42")
    page.wait_for_function(
        "() => document.getElementById('search-count').textContent === 'no match'"
    )
    assert page.locator("mark.hit").count() == 0
    page.fill("#search", "")
    page.wait_for_function("() => document.getElementById('search-count').textContent === ''")
    assert page.locator("mark").count() == 0
    # nothing was lost or duplicated by marking and unmarking
    assert page.locator("#call-3 .reply").inner_text().count(ORDERS) == 1
    watch.clean()
    page.close()


def test_the_judge_link_opens_its_call_and_model_markup_stays_text(
    context: Any, viewed: Viewed
) -> None:
    page, watch = _open(context, viewed)
    page.click("a.call-link")
    page.wait_for_function("() => document.getElementById('call-4').open")
    assert "window 1/1" in page.locator("#call-4 > summary").inner_text()
    assert "<current_rubrics>" in page.locator("#call-4 .new-messages").inner_text()
    page.click("#expand-all")
    assert page.locator("details.model-call:not([open])").count() == 0
    assert XSS in page.locator("main").inner_text()
    assert page.evaluate("window.__xss") is None
    assert page.locator("main img").count() == 0
    page.click("#collapse-all")
    assert page.locator("details.model-call[open]").count() == 0
    watch.clean()
    page.close()


def test_runs_that_are_not_comparable_are_marked_with_why(
    context: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Two offline runs of the same suite and domain on different task sets: the run list
    marks the second as not comparable with the first and says why; so does the comparison
    page of a task they share. A third run that differs only in its seed is noted, not
    marked."""
    from lifebench.runner import RunStore

    root = tmp_path_factory.mktemp("comparability-view")
    runs = [root / "two", root / "three", root / "seeded"]
    options = (["--num-tasks", "2"], ["--num-tasks", "3"], ["--num-tasks", "2", "--seed", "7"])
    for run_dir, extra in zip(runs, options, strict=True):
        _cli("run", "--trials", "1", "--quiet", "--out", str(run_dir), *extra)
    with RunStore.read(runs[0]) as store:
        task = store.results()[0].task_id
    with serving(runs) as (url, _):
        page, watch = _page(context)
        page.goto(url)
        marks = page.locator("#runs span.incomparable")
        assert marks.count() == 1
        assert page.locator('#runs tr[data-run="1"] span.incomparable').inner_text() == (
            "⚠ not comparable with two"
        )
        assert "different task sets" in (marks.get_attribute("title") or "")
        warning = page.locator("p.warning.comparability").inner_text()
        assert "three is not comparable with two" in warning
        assert "1 only in the second" in warning
        note = page.locator("p.comparability-note").inner_text()
        assert "seeded vs two (comparable)" in note and "seed:" in note
        page.goto(f"{url}compare?task={task}&a=0&b=1")
        page.wait_for_load_state("networkidle")
        assert page.locator("section.column").count() == 2
        shown = page.locator("p.warning.comparability").inner_text()
        assert "these runs are not comparable" in shown and "different task sets" in shown
        page.goto(f"{url}compare?task={task}&a=0&b=2")
        page.wait_for_load_state("networkidle")
        assert page.locator("p.warning.comparability").count() == 0
        assert "seed:" in page.locator("p.comparability-note").inner_text()
        watch.clean()
        page.close()
