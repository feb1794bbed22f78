"""A key planted in every form appears in no output of lifebench.

The key is given as HTTP basic auth (user info of the model URL), as a bearer token from the
environment and in the URL's query; the provider echoes every request header and the request
body in its errors, and the model's answers repeat the key (raw, percent-encoded, base64,
``Bearer …``, ``Basic …``, a URL with user info). Then every output is searched for the key in
every encoding: the store's bytes, ``report`` (text, JSON, HTML, Markdown), ``export``,
``show`` (text and JSON), every viewer page and the stderr of each command (its logs).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from starlette.testclient import TestClient

from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response, tool_call

KEY = "sk-Pl4nted/Key+Zz=9Qx"
USER = "svc.user"


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _forbidden() -> set[str]:
    """The key in every form a reader could decode it from."""
    forms = {KEY, quote(KEY, safe=""), quote_plus(KEY)}
    for text in (KEY, f"{USER}:{KEY}", f":{KEY}"):
        encoded = _b64(text.encode())
        forms |= {encoded, encoded.rstrip("="), base64.urlsafe_b64encode(text.encode()).decode()}
    for shift in range(3):  # the key inside any base64 text, whatever its alignment
        encoded = _b64(b"\0" * shift + KEY.encode())
        forms.add(encoded[4 if shift else 0 : 4 * ((shift + len(KEY)) // 3)])
    return forms


def _planted() -> str:
    return (
        f"my key {KEY} / {quote(KEY, safe='')} / {_b64(KEY.encode())} / Bearer {KEY} / "
        f"Authorization: Basic {_b64(f'{USER}:{KEY}'.encode())} / "
        f"http://{USER}:{quote(KEY, safe='')}@example.com/v1 / x-api-key: {KEY}"
    )


def _responder(body: dict[str, Any]) -> dict[str, Any]:
    messages = body["messages"]
    if body.get("tools"):
        if messages[-1]["role"] == "tool":
            return completion_response(f"Done. {_planted()}")
        return completion_response(None, tool_calls=[tool_call("get_user_all_orders", {})])
    said = sum(1 for m in messages if m["role"] == "assistant")
    return completion_response("###STOP###" if said else f"Check my orders. {_planted()}")


@pytest.fixture
def server() -> Iterator[MockOpenAIServer]:
    mock = MockOpenAIServer(responder=_responder, faults=["echo"] * 6, keep_requests=True)
    with MockServerThread(mock) as running:
        yield running


def _lifebench(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from lifebench.cli import main; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def _models_file(tmp_path: Path, port: int) -> Path:
    retry = {"max_attempts": 2, "base_delay_s": 0.001, "max_delay_s": 0.01}
    entries = {
        "basic": {
            "model": "mock",
            "base_url": f"http://{USER}:{quote(KEY, safe='')}@127.0.0.1:{port}/v1",
            "api_key_env": None,
            "retry": retry,
        },
        "bearer": {
            "model": "mock",
            "base_url": f"http://127.0.0.1:{port}/v1?api-key={quote(KEY, safe='')}",
            "api_key_env": "PLANTED_API_KEY",
            "retry": retry,
        },
    }
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"models": entries}))
    return path


def test_a_planted_key_appears_in_no_output(tmp_path: Path, server: MockOpenAIServer) -> None:
    env = {**os.environ, "PLANTED_API_KEY": KEY, "COLUMNS": "200"}
    env.pop("LIFEBENCH_DEBUG", None)
    models = _models_file(tmp_path, server.port)
    out = tmp_path / "run"
    run = _lifebench(
        "run", "--task-set", "demo", "--agent-model", "basic", "--user-model", "bearer",
        "--models", str(models), "--trials", "2", "--no-cache", "--out", str(out), env=env,
    )  # fmt: skip
    assert run.returncode in (0, 1), run.stderr
    sent = [r.headers.get("Authorization", "") for r in server.requests]
    assert any(h.startswith("Basic ") for h in sent) and any(h == f"Bearer {KEY}" for h in sent)
    assert "echo" in server.faults_injected

    outputs: dict[str, str] = {"run stderr": run.stderr + run.stdout}
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    commands = {
        "report": ["report", str(out), "--tasks"],
        "report --json": ["report", str(out), "--json", "--tasks"],
        "report --html/--markdown": ["report", str(out), "--html", str(html),
                                     "--markdown", str(markdown)],
        "export": ["export", str(out), "--tasks", "--attempts"],
        "export --calls": ["export", str(out), "--calls"],
    }  # fmt: skip
    for name, args in commands.items():
        done = _lifebench(*args, env=env)
        assert done.returncode == 0, done.stderr
        outputs[name] = done.stdout + done.stderr
    outputs["html"], outputs["markdown"] = html.read_text(), markdown.read_text()
    units = [json.loads(line) for line in outputs["export"].splitlines() if '"unit"' in line]
    task_ids = sorted({line.get("task_id", "") for line in units} - {""})
    assert task_ids, "the export lists the units"
    for task_id in task_ids:
        for flag in ([], ["--json"], ["--full"], ["--raw"]):
            done = _lifebench("show", str(out), task_id, *flag, env=env)
            outputs[f"show {task_id} {flag}"] = done.stdout + done.stderr
    for path in out.iterdir():
        if path.is_file():
            outputs[f"file {path.name}"] = path.read_bytes().decode("latin-1")

    from lifebench.viewer import create_app

    client = TestClient(create_app([out], min_interval=0.0), base_url="http://127.0.0.1")
    pages = ["/", "/report", "/api/status"] + [f"/sim?run=0&task={t}" for t in task_ids]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        outputs[f"viewer {page}"] = response.text
    raw_pages = 0
    for task_id in task_ids:
        for trial in (0, 1):
            for call in range(1, 6):
                for part in ("request", "response"):
                    page = f"/api/raw?run=0&task={task_id}&trial={trial}&call={call}&part={part}"
                    response = client.get(page)
                    if response.status_code == 200:
                        raw_pages += 1
                        outputs[f"viewer {page}"] = response.text
    assert raw_pages, "the recorded requests and responses are served (and searched)"

    import sqlite3

    from lifebench.models._record import decode_blob

    conn = sqlite3.connect(out / "run.sqlite")
    blobs = conn.execute("SELECT codec, data FROM blobs").fetchall()
    calls = conn.execute("SELECT call_json FROM calls").fetchall()
    conn.close()
    assert blobs and calls, "the store recorded the model calls"
    outputs["store blobs"] = "\n".join(
        decode_blob(codec, data).decode("utf-8", "replace") for codec, data in blobs
    )
    outputs["store calls"] = "\n".join(text for (text,) in calls)

    stored = outputs["file run.sqlite"]
    assert "upstream failed" in stored or "upstream failed" in outputs["export"], (
        "the provider's echo reached the store (the test plants what it checks)"
    )
    assert "***" in outputs["export"]
    leaks = {
        (where, form) for where, text in outputs.items() for form in _forbidden() if form in text
    }
    assert not leaks, sorted(leaks)[:10]
