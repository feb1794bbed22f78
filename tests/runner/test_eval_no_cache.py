"""``lifebench eval --no-cache``: every judge call is made again and nothing is recorded in
RUN_DIR/model_cache.sqlite; without the flag an identical second ``eval`` makes no call."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_mutation_guards_regrade import _mock_run, _MockJudge
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.runner._experiment import CACHE_FILENAME
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread


@pytest.mark.parametrize("cache", [True, False], ids=["cache", "no-cache"])
def test_eval_no_cache_asks_every_time_and_records_nothing(tmp_path: Path, cache: bool) -> None:
    judge = _MockJudge()
    judge.broken = False
    with MockServerThread(MockOpenAIServer(responder=judge)) as server:
        out, _ = _mock_run(tmp_path, server, False, "rubric")
        (out / CACHE_FILENAME).unlink()  # the run's own calls are not what is checked
        args = ["eval", str(out), "--quiet", *([] if cache else ["--no-cache"])]
        counts = []
        for _ in range(2):
            before = server.count
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 0, result.output
            assert "graded 2 simulations (0 grading errors" in result.output
            counts.append(server.count - before)
    assert counts[0] >= 2  # one call per window at least
    assert counts[1] == (0 if cache else counts[0])
    assert (out / CACHE_FILENAME).exists() is cache
