"""The mock OpenAI server itself: sync runner, validation, seeded faults."""

from __future__ import annotations

import json
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
