"""The mock OpenAI server itself: sync runner, validation, seeded faults."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

import pytest

from lifebench.testing import MockOpenAIServer, MockServerThread


def _post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_thread_runner_serves_sync_clients() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "ping"}]}
    with MockServerThread(MockOpenAIServer(faults=["503"])) as server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
        status, error = _post(server.base_url, body)
        status2, reply = _post(server.base_url, body)
        url = server.base_url
    assert (status, error["error"]["message"]) == (503, "injected HTTP 503")
    assert status2 == 200 and reply["choices"][0]["message"]["content"] == "echo: ping"
    assert server.count == 2 and server.faults_injected == ["503"]
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.base_url
    with pytest.raises(urllib.error.URLError):
        _post(url, body)


def test_invalid_request_rejected() -> None:
    with MockServerThread(MockOpenAIServer()) as server:
        status, error = _post(server.base_url, {"model": "m"})
    assert status == 400 and "required" in error["error"]["message"]


def test_random_faults_are_seeded() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "x"}]}

    def statuses(seed: int) -> tuple[list[int], list[str]]:
        server = MockOpenAIServer(failure_rate=0.5, seed=seed, fault_kinds=("500", "429", "418"))
        with MockServerThread(server):
            codes = [_post(server.base_url, body)[0] for _ in range(30)]
        return codes, server.faults_injected

    (codes, faults), (codes_again, _), (codes_other, _) = statuses(7), statuses(7), statuses(8)
    assert codes == codes_again and codes != codes_other
    assert 5 <= len(faults) <= 25 and set(faults) <= {"500", "429", "418"}
    assert [c for c in codes if c != 200] == [int(f) for f in faults]


def test_bad_failure_rate() -> None:
    with pytest.raises(ValueError, match="failure_rate"):
        MockOpenAIServer(failure_rate=1.5)


def test_provider_behaviours() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "ping"}]}
    server = MockOpenAIServer(
        api_key="sk-right-0000000000", models=["m"], max_body_bytes=400, blocked_words=["bomb"]
    )
    with MockServerThread(server) as running:
        url = running.base_url

        def post(payload: dict[str, Any], key: str = "sk-right-0000000000") -> tuple[int, Any]:
            request = urllib.request.Request(
                url + "/chat/completions",
                data=json.dumps(payload).encode(),
                headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
            )
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as exc:
                return exc.code, exc.read().decode()

        assert post(body)[0] == 200
        status, text = post(body, key="sk-wrong-1111111111")
        assert status == 401 and "Incorrect API key provided: sk-...1111" in text
        status, text = post({**body, "model": "x"})
        assert status == 404 and "The model `x` does not exist" in text
        status, text = post({**body, "messages": [{"role": "user", "content": "y" * 500}]})
        assert status == 413 and "<title>413 Request Entity Too Large</title>" in text
        status, text = post({**body, "messages": [{"role": "user", "content": "a bomb"}]})
        assert status == 400 and '"code": "content_filter"' in text
        running.usage = False
        status, reply = post(body)
        assert status == 200 and "usage" not in reply
    assert server.count == 6 and server.faults_injected == ["401", "404", "413", "content_filter"]


def test_refusing_server_reserves_a_port_where_nothing_listens() -> None:
    with MockServerThread(MockOpenAIServer(refuse=True)) as server:
        with pytest.raises(urllib.error.URLError):
            _post(server.base_url, {"model": "m", "messages": []})
        assert server.count == 0


def test_runs_as_a_process_of_its_own() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "lifebench.testing", "--latency", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        port = int(proc.stdout.readline())
        url = f"http://127.0.0.1:{port}/v1"
        status, reply = _post(url, {"model": "m", "messages": [{"role": "user", "content": "p"}]})
        with urllib.request.urlopen(url + "/_stats", timeout=5) as response:
            live = json.loads(response.read())
    finally:
        proc.stdin.close()
    final = json.loads(proc.stdout.readline())
    assert proc.wait(timeout=30) == 0
    assert status == 200 and reply["choices"][0]["message"]["content"] == "echo: p"
    assert live["count"] == final["count"] == 1 and final["cpu_s"] > 0
