"""Fast start: ``lifebench --help`` and the offline demo never load an HTTP client, YAML or the
holiday package; a run against an endpoint loads aiohttp only (the OpenAI SDK is not a
dependency any more)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HTTP_CLIENTS = ("aiohttp", "openai", "httpx", "httpx2", "requests", "urllib3")
ON_DEMAND = ("yaml", "holidays")
"""Loaded only when needed: a YAML models file; a holiday lookup (or a model-driven run's
warm-up)."""

PROBE = """
import sys
from lifebench.cli import main
sys.argv = ["lifebench", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
loaded = sorted(m for m in {clients!r} if m in sys.modules)
print("LOADED", ",".join(loaded), file=sys.stderr)
"""


def _loaded(*args: str, cwd: Path, modules: tuple[str, ...] = HTTP_CLIENTS) -> list[str]:
    code = PROBE.format(clients=modules)
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    line = next(ln for ln in proc.stderr.splitlines() if ln.startswith("LOADED"))
    return [m for m in line.removeprefix("LOADED").strip().split(",") if m]


def test_help_loads_no_http_client(tmp_path: Path) -> None:
    assert _loaded("--help", cwd=tmp_path) == []
    assert _loaded("run", "--help", cwd=tmp_path) == []


def test_offline_demo_loads_no_http_client(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert _loaded("run", "--num-tasks", "1", "--out", str(out), "--quiet", cwd=tmp_path) == []
    assert (out / "report.json").is_file()


def test_a_run_against_an_endpoint_loads_aiohttp_only(tmp_path: Path) -> None:
    # nothing listens on port 9: the run stops (unreachable) after its first attempts
    args = ("run", "--task-set", "demo", "--num-tasks", "1", "--out", str(tmp_path / "r"),
            "--agent-model", "m@http://127.0.0.1:9/v1", "--quiet")  # fmt: skip
    assert _loaded(*args, cwd=tmp_path) == ["aiohttp"]


def test_help_and_the_offline_demo_load_no_yaml_or_holidays(tmp_path: Path) -> None:
    assert _loaded("--help", cwd=tmp_path, modules=ON_DEMAND) == []
    out = tmp_path / "run"
    args = ("run", "--num-tasks", "1", "--out", str(out), "--quiet")
    assert _loaded(*args, cwd=tmp_path, modules=ON_DEMAND) == []


HEAVY = (
    "scipy",
    "numpy",
    "jinja2",
    "ray",
    "mcp",
    "openenv",
    "matplotlib",
    "playwright",
    "jsonschema",
    "genai_prices",
    "starlette",
    "uvicorn",
)
"""Libraries of other faces (statistics of comparisons, HTML views, Ray, the MCP and OpenEnv
servers, the browser, prices from genai-prices): a model-driven run never needs them before its
first request (issue 19: start-up CPU)."""


def test_a_run_against_an_endpoint_loads_none_of_the_other_faces_libraries(
    tmp_path: Path,
) -> None:
    args = ("run", "--task-set", "generated", "--num-tasks", "1", "--out", str(tmp_path / "r"),
            "--agent", "llm", "--user", "llm", "--evaluator", "rubric",
            "--agent-model", "m@http://127.0.0.1:9/v1", "--user-model", "m@http://127.0.0.1:9/v1",
            "--judge-model", "m@http://127.0.0.1:9/v1", "--quiet")  # fmt: skip
    assert _loaded(*args, cwd=tmp_path, modules=HEAVY) == []
    assert _loaded("--help", cwd=tmp_path, modules=HEAVY) == []
