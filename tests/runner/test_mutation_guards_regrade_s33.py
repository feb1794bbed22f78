"""``lifebench eval`` grades a failed evaluation again by fresh calls: the judge's unusable
answer, still in the run's cache, is not read back (each window is answered at the first
attempt), while a unit graded before is answered from the cache. Guards mutant
``regrade`` 69 (the failed ones graded on the run's ordinary cached models)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from test_mutation_guards_regrade import _mock_run, _MockJudge

from lifebench.runner import RunStore
from lifebench.runner._regrade import needs_grading, regrade
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread


def _attempts(out: Path) -> list[list[int]]:
    with RunStore.read(out) as store:
        records = store.results()
    out_attempts = []
    for record in records:
        assert record.evaluation is not None and record.evaluation.error is None
        windows = record.evaluation.by_basis["rubric"].info["windows"]
        out_attempts.append([w["attempts"] for w in windows])
    return out_attempts


@pytest.mark.parametrize("named", [True, False], ids=["models-file", "spec"])
def test_the_failed_answer_in_the_cache_is_not_read_back(tmp_path: Path, named: bool) -> None:
    judge = _MockJudge()  # broken: every window's answer is unusable, and cached
    with MockServerThread(MockOpenAIServer(responder=judge)) as server:
        out, models_file = _mock_run(tmp_path, server, named, "rubric")
        with RunStore.read(out) as store:
            assert all(needs_grading(r) for r in store.results())
        judge.broken = False
        summary = asyncio.run(regrade(out, {}, models_file=models_file, concurrency=1))
        assert (summary.graded, summary.errors) == (2, 0)
        first = _attempts(out)
        # every window answered at once: the cached unusable answer was never read (read,
        # it would have cost a re-ask: 2 attempts)
        assert first and all(a == [1] * len(a) and a for a in first)
        judge.broken = True  # now graded before: answered from the cache, no call
        before = server.count
        again = asyncio.run(regrade(out, {}, models_file=models_file, concurrency=1))
        assert (again.graded, again.errors) == (2, 0) and server.count == before
        assert _attempts(out) == first
