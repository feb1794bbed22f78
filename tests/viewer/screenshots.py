"""Regenerate the screenshots in docs/ (not a test): ``python tests/viewer/screenshots.py``.

Builds offline runs (the vita demo with the oracle and the no-op agent, and one synthetic run
with every kind of failure), writes their HTML report, serves the viewer, and photographs the
report and a trajectory page with the system's chromium (Playwright, ``executable_path``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

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
        names = ["x-delivery", "y-delivery", "x-instore", "oracle-delivery", "noop-delivery"]
        runs = [str(root / n) for n in [*names, "oracle-instore", "synthetic"]]
        _cli("report", *runs, "--html", str(root / "report.html"))
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
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
                page.goto(f"{url}sim?run=3&task=GEN-delivery-0-1&trial=0")
                page.wait_for_load_state("load")
                page.screenshot(path=str(DOCS / "trajectory.png"))
                page.goto(f"{url}?run=6")
                page.wait_for_load_state("load")
                page.screenshot(path=str(DOCS / "viewer.png"))
                ctx.close()
        finally:
            server.terminate()
            server.wait(timeout=15)
    for name in ("report.png", "trajectory.png", "viewer.png"):
        print(DOCS / name, (DOCS / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
