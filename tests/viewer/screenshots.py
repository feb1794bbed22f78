"""Regenerate the screenshots in docs/ (not a test): ``python tests/viewer/screenshots.py``.

Builds offline runs (the vita demo with the oracle and the no-op agent, and one synthetic run
with every kind of failure) and one run of an LLM agent, user simulator and rubric judge
against the loopback mock server (so that its trajectory page has a briefing and recorded
model calls), writes their HTML report, serves the viewer, and photographs the report, the
trajectory page (its top, and its model calls with one request body open and a search) and
the simulation list and the comparison page of two runs that are not comparable with the
system's chromium (Playwright, ``executable_path``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reporting"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))

from reporting_fakes import build_mixed_run, build_run

DOCS = Path(__file__).resolve().parents[2] / "docs"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _cli(*args: str) -> None:
    command = [sys.executable, "-c", "from lifebench.cli import main; main()", *args]
    subprocess.run(command, check=True, capture_output=True, text=True)


def _responder(body: dict[str, Any]) -> dict[str, Any]:
    from lifebench.testing.mock_openai import completion_response, tool_call

    model, messages = body["model"], body["messages"]
    if model == "agent":
        tools = sum(1 for m in messages if m["role"] == "tool")
        plan = [("get_user_historical_behaviors", {}), ("get_user_all_orders", {})]
        if tools < len(plan):
            name, args = plan[tools]
            return completion_response(None, tool_calls=[tool_call(name, args, f"call_{tools}")])
        return completion_response(
            "I found your usual vegetarian place. Shall I order the mushroom rice bowl?"
        )
    if model == "user":
        said = sum(1 for m in messages if m["role"] == "assistant")
        text = "Hi! I'd like my usual lunch delivered home." if said < 2 else "###STOP###"
        return completion_response(text)
    prompt = messages[-1]["content"]
    block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", prompt, re.S)
    keys = list(json.loads(block.group(1))) if block else []
    verdicts = [
        {"rubric_key": k, "meetExpectation": i % 2 == 0, "justification": "[4] no order yet"}
        for i, k in enumerate(keys)
    ]
    return completion_response(json.dumps(verdicts))


def _llm_run(out: Path) -> None:
    """A vita demo unit with an LLM agent, user and judge answered by the mock server."""
    from lifebench.testing import MockOpenAIServer
    from lifebench.testing.mock_openai import MockServerThread

    with MockServerThread(MockOpenAIServer(responder=_responder)) as mock:
        models = out.parent / "models.json"
        spec = {r: {"model": r, "base_url": mock.base_url, "api_key_env": None} for r in ROLES}
        models.write_text(json.dumps({"models": spec}))
        _cli(
            "run", "--task-set", "demo", "--num-tasks", "1", "--agent", "llm", "--user", "llm",
            "--evaluator", "both", "--agent-model", "agent", "--user-model", "user",
            "--judge-model", "judge", "--models", str(models), "--out", str(out),
        )  # fmt: skip


ROLES = ("agent", "user", "judge")


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, extra in (
            ("oracle-delivery", ["--agent", "oracle"]),
            ("noop-delivery", ["--agent", "noop"]),
            ("oracle-instore", ["--agent", "oracle", "--domain", "instore"]),
        ):
            _cli("run", "--num-tasks", "4", "--trials", "3", "--out", str(root / name), *extra)
        build_mixed_run(root / "x-delivery", model="model-x@http://127.0.0.1:9/v1", skill=4)
        build_mixed_run(root / "y-delivery", model="model-y@http://127.0.0.1:9/v1", skill=2)
        build_mixed_run(
            root / "x-instore", model="model-x@http://127.0.0.1:9/v1", domain="instore", skill=5
        )
        build_run(root / "synthetic", model="model-z@http://127.0.0.1:9/v1")
        _llm_run(root / "llm-delivery")
        names = ["x-delivery", "y-delivery", "x-instore", "oracle-delivery", "noop-delivery"]
        runs = [str(root / n) for n in [*names, "oracle-instore", "synthetic", "llm-delivery"]]
        _cli("report", *runs, "--html", str(root / "report.html"))
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        oracle_demo = root / "oracle-demo"  # the LLM run's task, played offline (run 8)
        _cli(
            "run",
            "--task-set",
            "demo",
            "--num-tasks",
            "1",
            "--agent",
            "oracle",
            "--out",
            str(oracle_demo),
        )
        runs.append(str(oracle_demo))
        command = [sys.executable, "-c", "from lifebench.cli import main; main()", "view", *runs]
        server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[2]
            with sync_playwright() as p:
                ctx = p.chromium.launch_persistent_context(
                    str(root / "profile"),
                    executable_path=os.environ.get("LIFEBENCH_CHROMIUM", "/usr/bin/chromium"),
                    args=FLAGS,
                    headless=True,
                    viewport={"width": 1200, "height": 820},
                )
                page = ctx.new_page()
                page.goto((root / "report.html").as_uri() + "#leaderboard")
                page.screenshot(path=str(DOCS / "report.png"))
                page.goto(f"{url}sim?run=7&task=LBD001_en&trial=0")
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(DOCS / "trajectory.png"))
                page.click("#call-3 > summary")
                raw = page.locator("#call-3 details.raw").first
                raw.evaluate("d => { d.open = true; }")  # (toggle loads the body)
                page.wait_for_function(
                    "el => el.textContent.length > 0",
                    arg=raw.locator("pre.raw-body").element_handle(),
                )
                page.fill("#search", "vegetarian")
                page.wait_for_timeout(400)
                page.locator("#call-2").evaluate("e => e.scrollIntoView()")
                page.screenshot(path=str(DOCS / "trajectory-calls.png"))
                page.goto(f"{url}?run=6")
                page.wait_for_load_state("load")
                page.screenshot(path=str(DOCS / "viewer.png"))
                # the LLM run beside the oracle on the same task: not comparable, and why
                page.goto(f"{url}compare?task=LBD001_en&a=7&b=8")
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(DOCS / "compare.png"))
                ctx.close()
        finally:
            server.terminate()
            server.wait(timeout=15)
    for name in (
        "report.png",
        "trajectory.png",
        "trajectory-calls.png",
        "viewer.png",
        "compare.png",
    ):
        print(DOCS / name, (DOCS / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
