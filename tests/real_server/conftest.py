"""The real OpenAI-compatible server of the ``real_server`` tests: llama.cpp's Python server
with SmolLM2-135M-Instruct on loopback (:mod:`lifebench.testing.llama_server`), one per test
session, killed at the end.

Not installed: the tests are skipped with the reason (``pip install`` line included), except
with ``CI=true``, where they fail (``.ci/run`` installs the server and the model).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lifebench.testing.llama_server import LlamaServer, ServerError, find_model, unavailable_reason
from shared_data import in_ci


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """The running server (its log: ``server.log`` in the fixture's temporary directory)."""
    reason = unavailable_reason()
    if reason is not None:
        if in_ci():
            pytest.fail(f"{reason}; CI=true requires the real server", pytrace=False)
        pytest.skip(reason)
    model = find_model()
    assert model is not None
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    server = LlamaServer(model, log=log)
    try:
        server.start()
    except ServerError as exc:
        if in_ci():
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server_log(llama_server: LlamaServer) -> Path:
    assert llama_server.log is not None
    return llama_server.log


@pytest.fixture(autouse=True)
def _server_alive(llama_server: LlamaServer) -> Iterator[None]:
    """A test during which the server died says how it ended, with the end of its log (a
    failure of lifebench's own then reads 'connection refused' only)."""
    yield
    how = llama_server.crashed()
    if how is not None:
        pytest.fail(f"the llama.cpp server died during the test: {how}", pytrace=False)
