"""Fail fast against a loopback endpoint that fails the usual ways (issue 11's acceptance).

Wrong key, unknown model and a dead endpoint each stop the run within seconds with the
provider's own message and exit code 3, having sent at most a handful of requests (counted at
the mock server, or, for a port where nothing listens, under the model's HTTP transport). A
request rejected for its content ends its unit as ``rejected`` (exit 1), and an endpoint that
fails every request is declared down after one shared budget of probes, not after 6 requests
per unit.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.models import _http
from lifebench.testing import MockOpenAIServer, MockServerThread, completion_response

WRONG_KEY = "sk-wrong-0123456789abcdefWRONG"
UNITS = 12  # 6 demo tasks × 2 trials


def _run(out: Path, agent: str, *extra: str, task_set: str = "demo") -> tuple[int, str, str]:
    args = [
        "run", "--task-set", task_set, "--num-tasks", "6", "--trials", "2", "--concurrency", "6",
        "--agent-model", agent, "--out", str(out), "--quiet", "--no-cache", *extra,
    ]  # fmt: skip
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.stdout, result.stderr


def _statuses(out: Path) -> dict[str, int]:
    with sqlite3.connect(out / "run.sqlite") as conn:
        rows = conn.execute("SELECT status, count(*) FROM units GROUP BY status").fetchall()
    return {str(status): int(n) for status, n in rows}


@pytest.fixture
def attempts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every request the models try to send, counted under their HTTP transport."""
    seen: list[str] = []

    async def count(
        request: aiohttp.ClientRequest,
        handler: Callable[[aiohttp.ClientRequest], Awaitable[aiohttp.ClientResponse]],
    ) -> aiohttp.ClientResponse:
        seen.append(str(request.url))
        return await handler(request)

    real = _http.open_transport

    def transport(
        base_url: str, api_key: str, timeout_s: float, *, middlewares: Sequence[Any] = ()
    ) -> _http.Transport:
        return real(base_url, api_key, timeout_s, middlewares=(*middlewares, count))

    monkeypatch.setattr(_http, "open_transport", transport)
    return seen


@pytest.fixture
def wrong_key_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockOpenAIServer]:
    monkeypatch.setenv("OPENAI_API_KEY", WRONG_KEY)
    with MockServerThread(MockOpenAIServer(api_key="sk-the-right-one-0000000000")) as server:
        yield server


def test_wrong_key_stops_the_run_with_the_providers_message(
    tmp_path: Path, wrong_key_server: MockOpenAIServer
) -> None:
    code, out, err = _run(tmp_path / "run", f"gpt-x@{wrong_key_server.base_url}")
    assert code == 3, out + err
    assert "HTTP 401: Incorrect API key provided: sk-...RONG" in err
    assert "stopped" in err and WRONG_KEY not in out + err
    assert wrong_key_server.count == 1  # first contact goes alone; the others never send
    assert _statuses(tmp_path / "run") == {"pending": UNITS}


def test_unknown_model_stops_the_run(tmp_path: Path) -> None:
    with MockServerThread(MockOpenAIServer(models=["real-model"])) as server:
        code, out, err = _run(tmp_path / "run", f"no-such-model@{server.base_url}")
        count = server.count
    assert code == 3, out + err
    assert "HTTP 404: The model `no-such-model` does not exist" in err
    assert count == 1
    assert _statuses(tmp_path / "run") == {"pending": UNITS}


def _short_conversation(body: dict[str, Any]) -> dict[str, Any]:
    """The user asks once; the agent answers and ends the conversation."""
    if body.get("tools"):
        return completion_response("Done. ###STOP###")
    return completion_response("Please order me a coffee.")


def test_unknown_judge_model_stops_the_run(tmp_path: Path) -> None:
    server = MockOpenAIServer(models=["mock"], responder=_short_conversation)
    with MockServerThread(server) as running:
        good, bad = f"mock@{running.base_url}", f"no-judge@{running.base_url}"
        args = ("--user-model", good, "--judge-model", bad, "--evaluator", "rubric")
        code, out, err = _run(tmp_path / "run", good, *args, task_set="generated")
        judged = [f for f in running.faults_injected if f == "404"]
    assert code == 3, out + err
    assert "The model `no-judge` does not exist" in err
    assert judged == ["404"]  # one judge request, however many rollouts finished meanwhile


def test_dead_endpoint_is_unreachable_within_a_few_attempts(
    tmp_path: Path, attempts: list[str]
) -> None:
    with MockServerThread(MockOpenAIServer(refuse=True)) as server:
        code, out, err = _run(tmp_path / "run", f"gpt-x@{server.base_url}")
        count = server.count
    assert code == 3, out + err
    assert "cannot reach http://127.0.0.1:" in err and "connection refused" in err
    assert len(attempts) == 3 and count == 0  # one unit's 3 attempts, not 12 units × 6
    assert _statuses(tmp_path / "run") == {"pending": UNITS}


def _models_file(tmp_path: Path, base_url: str) -> Path:
    entry = {
        "model": "mock",
        "base_url": base_url,
        "api_key_env": None,
        "retry": {"max_attempts": 6, "base_delay_s": 0.001, "max_delay_s": 0.002},
    }
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"models": {"mock": entry}}))
    return path


def test_an_endpoint_failing_every_request_shares_one_retry_budget(tmp_path: Path) -> None:
    # it answered once (first contact), then fails every request: the breaker opens after 5
    # failures in a row, 6 failed probes declare it down
    server = MockOpenAIServer(faults=[None], failure_rate=1.0, fault_kinds=("503",))
    with MockServerThread(server) as running:
        models = _models_file(tmp_path, running.base_url)
        code, out, err = _run(tmp_path / "run", "mock", "--models", str(models))
        count = running.count
    assert code == 3, out + err
    assert "is down" in err and "HTTP 503: injected HTTP 503" in err
    # 1 answer, at most 4 failures and their retries before the breaker opens, the 6 calls in
    # flight when it opens, 6 probes: far fewer than 12 units × 6 attempts
    assert count <= 1 + 4 + 6 + 6, count


def test_content_rejected_request_is_recorded_as_rejected(tmp_path: Path) -> None:
    with MockServerThread(MockOpenAIServer(max_body_bytes=2_000)) as server:
        code, out, err = _run(tmp_path / "run", f"gpt-x@{server.base_url}")
        faults = server.faults_injected
    assert code == 1, out + err
    assert _statuses(tmp_path / "run") == {"rejected": UNITS}
    assert faults == ["413"] * UNITS  # one request per unit, none retried
    rep = json.loads((tmp_path / "run" / "report.json").read_text())
    assert rep["n_rejected"] == UNITS
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as conn:
        (error,) = conn.execute("SELECT error FROM units LIMIT 1").fetchone()
    assert "HTTP 413: 413 Request Entity Too Large" in error
