"""``lifebench eval`` (runner/_regrade.py) pinned by its effects: what a re-grade counts and
logs, which stored simulations it grades and with which calls, how many gradings run at once,
what it reports to the progress display, the options it grades with, and its input errors.
In process, with scripted models on the bundled demo tasks (English and Chinese)."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from runner_fakes import orders_agent, rubric_judge

from lifebench.errors import InputError
from lifebench.evaluation._rejudge import replicate_count
from lifebench.messages import Message
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.runner import Progress, RunStore
from lifebench.runner import _regrade as regrade_module
from lifebench.runner._experiment import CACHE_FILENAME, run_experiment
from lifebench.runner._regrade import (
    RegradeSummary,
    needs_grading,
    regrade,
    regrade_options,
)
from lifebench.suites import make_run_options
from lifebench.testing import MockOpenAIServer
from lifebench.testing.mock_openai import MockServerThread, completion_response
from lifebench.travel.options import TravelOptions
from lifebench.vita.options import VitaOptions


class _Judge:
    """A judge that answers, or (``broken``) answers nothing a grader can use; counts calls."""

    def __init__(self, broken: bool = False) -> None:
        self.broken = broken
        self.calls = 0

    def __call__(self, messages: Sequence[Message], tools: Any) -> str:
        self.calls += 1
        return "I cannot rate this." if self.broken else rubric_judge(messages, tools)


class _Factory(ModelFactory):
    """A factory that counts its closings."""

    def __init__(self, judge: _Judge) -> None:
        super().__init__()
        self.closed = 0
        self.register("agent", ScriptedModel([orders_agent], repeat_last=True, name="agent"))
        self.register("user", ScriptedModel(["Show my orders."], repeat_last=True, name="user"))
        self.register("judge", ScriptedModel([judge], repeat_last=True, name="judge"))

    async def aclose(self) -> None:
        self.closed += 1
        await super().aclose()


def _run(out: Path, *, language: str = "en", tasks: int = 3, **extra: Any) -> None:
    options = make_run_options(
        {
            "task_set": "demo",
            "language": language,
            "num_tasks": tasks,
            "agent_model": "agent",
            "user_model": "user",
            "judge_model": "judge",
            "evaluator": "both",
            "out": str(out),
            "concurrency": 2,
            "quiet": True,
            "cache": False,
            **extra,
        }
    )
    asyncio.run(run_experiment(options, models=_Factory(_Judge()), progress=Progress(quiet=True)))


def _gradings(out: Path) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(out / "run.sqlite")
    try:
        return db.execute(
            "SELECT source, to_grade, graded, errors, finished_at IS NOT NULL FROM gradings "
            "ORDER BY id"
        ).fetchall()
    finally:
        db.close()


def _set_status(out: Path, task_id: str, status: str) -> None:
    db = sqlite3.connect(out / "run.sqlite")
    try:
        with db:
            db.execute("UPDATE units SET status = ? WHERE task_id = ?", (status, task_id))
    finally:
        db.close()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_summary_counts_graded_failed_and_skipped_and_the_log_agrees(
    tmp_path: Path, language: str
) -> None:
    out = tmp_path / "run"
    _run(out, language=language)
    with RunStore.read(out) as store:
        ids = sorted({r.task_id for r in store.results()})
    assert len(ids) == 3
    _set_status(out, ids[1], "infra_error")  # not a completed simulation: skipped
    good = _Factory(_Judge())
    summary = asyncio.run(regrade(out, {"evaluator": "rubric"}, models=good, concurrency=1))
    assert summary == RegradeSummary(graded=2, errors=0, skipped=1, no_judge=False)
    assert good.closed == 1
    broken_judge = _Judge(broken=True)
    bad = _Factory(broken_judge)
    summary = asyncio.run(regrade(out, {"evaluator": "rubric"}, models=bad, concurrency=2))
    assert summary == RegradeSummary(graded=2, errors=2, skipped=1, no_judge=False)
    assert broken_judge.calls >= 2 and bad.closed == 1
    with RunStore.read(out) as store:
        records = {r.task_id: r for r in store.results()}
    # the skipped unit kept its evaluation of the run; the two graded ones failed now
    assert records[ids[1]].evaluation is not None and records[ids[1]].evaluation.error is None
    assert all(records[t].evaluation.error for t in (ids[0], ids[2]))  # type: ignore[union-attr]
    log = _gradings(out)
    assert log[-2:] == [("eval", 2, 2, 0, 1), ("eval", 2, 2, 2, 1)]


def test_only_done_units_with_a_simulation_are_graded(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, tasks=2)
    with RunStore.read(out) as store:
        ids = sorted({r.task_id for r in store.results()})
    _set_status(out, ids[0], "pending")
    judge = _Judge()
    summary = asyncio.run(regrade(out, {"evaluator": "rubric"}, models=_Factory(judge)))
    assert (summary.graded, summary.skipped) == (1, 1)
    assert judge.calls == 1  # one window for the one graded unit


def test_gradings_run_at_most_concurrency_at_once_and_progress_counts_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    _run(out, tasks=4)
    original = regrade_module.evaluate
    state = {"now": 0, "most": 0}

    async def evaluate(*args: Any, **kwargs: Any) -> Any:
        state["now"] += 1
        state["most"] = max(state["most"], state["now"])
        await asyncio.sleep(0)  # let every other grading start if it may
        await asyncio.sleep(0)
        try:
            return await original(*args, **kwargs)
        finally:
            state["now"] -= 1

    monkeypatch.setattr(regrade_module, "evaluate", evaluate)
    for limit in (1, 2, 3):
        state["most"] = 0
        progress = Progress(quiet=True)
        summary = asyncio.run(
            regrade(
                out,
                {"evaluator": "rubric"},
                models=_Factory(_Judge(broken=limit == 3)),
                concurrency=limit,
                progress=progress,
            )
        )
        assert state["most"] == limit
        counts = progress.counts
        assert (counts.total, counts.finished, counts.running) == (4, 4, 0)
        assert counts.failed == summary.errors == (4 if limit == 3 else 0)


class _MockJudge:
    """The judge behind a loopback server: answers the rubric windows, or (``broken``) not."""

    def __init__(self) -> None:
        self.broken = True

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        if self.broken:
            return completion_response("I cannot rate this.")
        text = str(body["messages"][-1]["content"])
        block = re.search(r"<current_rubrics>\n(.*)\n</current_rubrics>", text, re.S)
        keys = list(json.loads(block.group(1))) if block else []
        verdicts = [
            {"rubric_key": k, "meetExpectation": True, "justification": "[2]"} for k in keys
        ]
        return completion_response(json.dumps(verdicts))


@pytest.mark.parametrize(
    ("language", "named", "cache"),
    [("en", True, True), ("zh", False, True), ("en", False, False)],
    ids=["en-models-file-cache", "zh-spec-cache", "en-spec-no-cache"],
)
def test_a_failed_grading_is_graded_again_by_fresh_calls_not_its_cached_answer(
    tmp_path: Path, language: str, named: bool, cache: bool
) -> None:
    """The run's cache holds the judge's unusable answers; ``eval`` grades those units with
    new calls (the cache answers nothing for them) and stores the new answers in place of the
    failed ones, so the next identical ``eval`` makes no call. The judge is a models-file
    entry or a ``MODEL@URL`` spec; without a cache every ``eval`` asks again and no cache file
    is made."""
    judge = _MockJudge()
    with MockServerThread(MockOpenAIServer(responder=judge)) as server:
        models = tmp_path / "models.json"
        entry = {"model": "j", "base_url": server.base_url, "api_key_env": None}
        models.write_text(
            json.dumps({"models": {"judge": {**entry, "retry": {"max_attempts": 1}}}})
        )
        models_file = str(models) if named else None
        out = tmp_path / "run"
        options = make_run_options(
            {
                "task_set": "demo",
                "language": language,
                "num_tasks": 2,
                "agent": "oracle",
                "evaluator": "rubric",
                "judge_model": "judge" if named else f"j@{server.base_url}",
                "models_file": models_file,
                "out": str(out),
                "quiet": True,
                "cache": False,  # the run's own calls are not what is checked
            }
        )
        asyncio.run(run_experiment(options, progress=Progress(quiet=True)))
        with RunStore.read(out) as store:
            assert all(needs_grading(r) for r in store.results())
        first = server.count
        assert first >= 2
        judge.broken = False
        overrides: dict[str, Any] = {} if cache else {"cache": False}  # eval's own choice
        summary = asyncio.run(regrade(out, overrides, models_file=models_file))
        assert (summary.graded, summary.errors) == (2, 0)
        asked = server.count - first
        assert asked >= 2  # every window asked again, none answered from the cache
        with RunStore.read(out) as store:
            assert not any(needs_grading(r) for r in store.results())
        if cache:
            judge.broken = True  # an identical eval is answered from the cache: no call
        again = asyncio.run(regrade(out, overrides, models_file=models_file))
        assert (again.graded, again.errors) == (2, 0)
        assert server.count - first == (asked if cache else 2 * asked)
        assert (out / CACHE_FILENAME).exists() is cache


def test_needs_grading_is_a_missing_or_failed_evaluation(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, tasks=1)
    with RunStore.read(out) as store:
        (record,) = store.results()
    assert record.evaluation is not None and not needs_grading(record)
    assert needs_grading(record.model_copy(update={"evaluation": None}))
    failed = record.evaluation.model_copy(update={"error": ""})
    assert needs_grading(record.model_copy(update={"evaluation": failed}))


def test_a_store_without_task_data_names_five_missing_tasks_and_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, tasks=6)
    with RunStore.read(out) as store:
        ids = sorted({r.task_id for r in store.results()})
    assert len(ids) == 6
    db = sqlite3.connect(out / "run.sqlite")
    try:
        with db:
            db.execute("DELETE FROM task_data")
    finally:
        db.close()
    with pytest.raises(InputError) as info:
        asyncio.run(regrade(out, {"evaluator": "rubric"}, models=_Factory(_Judge())))
    text = str(info.value)
    assert ", ".join(ids[:5]) in text and ids[5] not in text
    assert (
        f"the run store holds no task data for {', '.join(ids[:5])}; it was created by an "
        "older lifebench — re-run it to re-grade"
    ) in text
    assert str(out) in text and "XX" not in text
    # the store was closed: it opens again for writing
    with RunStore.read(out, write=True) as store:
        assert len(store.results()) == 6


def test_rejudge_makes_extra_gradings_only_where_a_judge_grades(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, tasks=2)
    judge = _Judge()
    summary = asyncio.run(
        regrade(out, {"evaluator": "rubric"}, models=_Factory(judge), rejudge=3, concurrency=1)
    )
    assert summary.no_judge is False and summary.graded == 2
    assert judge.calls == 2 * 3  # one window per unit, three gradings each
    # the same grading again: the stored extra gradings are kept, only the ordinary one is made
    again = _Judge()
    asyncio.run(
        regrade(out, {"evaluator": "rubric"}, models=_Factory(again), rejudge=3, concurrency=1)
    )
    assert again.calls == 2
    two = _Judge()
    asyncio.run(regrade(out, {"evaluator": "rubric"}, models=_Factory(two), rejudge=2))
    assert two.calls == 2  # the first of the stored extra gradings is kept
    with RunStore.read(out) as store:
        assert {replicate_count(r.evaluation) for r in store.results() if r.evaluation} == {1}
    state_only = asyncio.run(
        regrade(out, {"evaluator": "state"}, models=_Factory(_Judge()), rejudge=3)
    )
    assert state_only.no_judge is True
    with RunStore.read(out) as store:  # no extra grading of a deterministic grader is stored
        assert {replicate_count(r.evaluation) for r in store.results() if r.evaluation} == {0}
    assert asyncio.run(
        regrade(out, {"evaluator": "state"}, models=_Factory(_Judge()), rejudge=2)
    ).no_judge
    # the models given are the extra gradings' models too: closed once
    given = _Factory(_Judge())
    asyncio.run(regrade(out, {"evaluator": "rubric"}, models=given, rejudge=3))
    assert given.closed == 1
    one = asyncio.run(regrade(out, {"evaluator": "state"}, models=_Factory(_Judge()), rejudge=1))
    assert one.no_judge is False


# ---------------------------------------------------------------- regrade_options


def test_options_of_a_store_without_a_suite_are_vitabench(tmp_path: Path) -> None:
    options = regrade_options({"agent": "oracle"}, {}, tmp_path)
    assert options.suite == "vita" and options.out == str(tmp_path)
    for suite in ("travel", "flow"):
        assert regrade_options({"suite": suite}, {}, tmp_path).suite == suite
    # an older TravelBench store kept its suite options at the top level: read as the suite's
    travel = regrade_options(
        {"suite": "travel", "simulator_examples": 7, "normalize_keys": True}, {}, tmp_path
    )
    assert travel.options_for(TravelOptions).simulator_examples == 7
    assert travel.options_for(TravelOptions).normalize_keys is True


def test_stored_suite_options_are_kept_and_old_top_level_ones_join_them(tmp_path: Path) -> None:
    stored = {
        "suite": "vita",
        "evaluator": "state",
        "suite_options": {"window": 6},
        "overlap": 2,  # an older store kept a suite option at the top level
        "concurrency": 5,  # a core option stays a core option
    }
    options = regrade_options(stored, {"concurrency": None, "agent_model": None}, tmp_path)
    vita = options.options_for(VitaOptions)
    assert (vita.window, vita.overlap) == (6, 2)
    assert options.concurrency == 5 and options.evaluator == "state"
    assert "concurrency" not in vita.model_dump()
    changed = regrade_options(stored, {"concurrency": 7, "suite_options": {"window": 9}}, tmp_path)
    assert changed.concurrency == 7
    assert (changed.options_for(VitaOptions).window, changed.options_for(VitaOptions).overlap) == (
        9,
        2,
    )


def test_a_new_judge_keeps_a_named_evaluator(tmp_path: Path) -> None:
    stored = {"suite": "vita", "evaluator": "state"}
    named = regrade_options(stored, {"judge_model": "j", "evaluator": "rubric"}, tmp_path)
    assert named.evaluator == "rubric" and named.judge_model == "j"
    unnamed = regrade_options(stored, {"judge_model": "j", "evaluator": None}, tmp_path)
    assert unnamed.evaluator == "both"
    without = regrade_options(stored, {"judge_model": None}, tmp_path)
    assert without.evaluator == "state"


def _cache_rows(out: Path) -> int:
    db = sqlite3.connect(out / CACHE_FILENAME)
    try:
        return int(db.execute("SELECT count(*) FROM model_calls").fetchone()[0])
    finally:
        db.close()


def _mock_run(
    tmp_path: Path, server: MockOpenAIServer, named: bool, evaluator: str
) -> tuple[Path, str | None]:
    models = tmp_path / "models.json"
    entry = {"model": "j", "base_url": server.base_url, "api_key_env": None}
    models.write_text(json.dumps({"models": {"judge": {**entry, "retry": {"max_attempts": 1}}}}))
    models_file = str(models) if named else None
    out = tmp_path / "run"
    options = make_run_options(
        {
            "task_set": "demo",
            "num_tasks": 2,
            "agent": "oracle",
            "evaluator": evaluator,
            "judge_model": "judge" if named else f"j@{server.base_url}",
            "models_file": models_file,
            "out": str(out),
            "quiet": True,
            "concurrency": 1,
        }
    )
    asyncio.run(run_experiment(options, progress=Progress(quiet=True)))
    return out, models_file


@pytest.mark.parametrize("named", [True, False], ids=["models-file", "spec"])
def test_extra_gradings_are_asked_and_recorded_in_the_cache_never_answered(
    tmp_path: Path, named: bool
) -> None:
    judge = _MockJudge()
    judge.broken = False
    with MockServerThread(MockOpenAIServer(responder=judge)) as server:
        out, models_file = _mock_run(tmp_path, server, named, "rubric")
        windows = server.count  # the ordinary grading's judge calls (one per window)
        assert windows >= 2 and _cache_rows(out) == windows
        summary = asyncio.run(regrade(out, {}, models_file=models_file, rejudge=3))
        assert (summary.graded, summary.errors) == (2, 0)
        # the ordinary grading from the cache, the 2 extra gradings of each unit asked
        assert server.count - windows == 2 * windows
        assert _cache_rows(out) == windows + 2 * windows
        with RunStore.read(out) as store:
            assert [replicate_count(r.evaluation) for r in store.results() if r.evaluation] == [
                2,
                2,
            ]
        # again: the extra gradings are kept, nothing is asked
        asyncio.run(regrade(out, {}, models_file=models_file, rejudge=3))
        assert server.count - windows == 2 * windows
        # without a cache nothing is recorded and no cache file is written
        (out / CACHE_FILENAME).unlink()
        asyncio.run(regrade(out, {"cache": False}, models_file=models_file, rejudge=4))
        assert not (out / CACHE_FILENAME).exists()


class _SeedJudge(_MockJudge):
    """Fails the requests of the units whose seeds are in ``bad``."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = False
        self.bad: set[int] = set()

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        if body.get("seed") in self.bad:
            return completion_response("I cannot rate this.")
        return super().__call__(body)


def test_errors_of_both_groups_add_up_and_every_unit_is_shown_and_recorded(
    tmp_path: Path,
) -> None:
    """A re-grade grades the units graded before and, with fresh calls, those whose grading
    failed: its error count is the sum of both; the progress display and the recorded calls
    cover both groups (and nothing is recorded when recording is off)."""
    judge = _SeedJudge()
    with MockServerThread(MockOpenAIServer(responder=judge)) as server:
        out, models_file = _mock_run(tmp_path, server, False, "rubric")
        with RunStore.read(out) as store:
            first, second = store.results()
        judge.bad = {first.seed}
        one = asyncio.run(regrade(out, {"cache": False}, models_file=models_file))
        assert (one.graded, one.errors) == (2, 1)
        with RunStore.read(out) as store:
            assert [needs_grading(r) for r in store.results()] == [True, False]
            recorded = _judge_calls(store)
        # both units' judge calls of this re-grade were recorded
        assert all(sources and set(sources) == {"regrade"} for sources, _ in recorded.values())
        judge.bad = {first.seed, second.seed}
        progress = Progress(quiet=True)
        both = asyncio.run(
            regrade(
                out,
                {"cache": False},
                models_file=models_file,
                progress=progress,
                record_requests=False,
            )
        )
        assert (both.graded, both.errors) == (2, 2)
        counts = progress.counts  # one display for both groups
        assert (counts.total, counts.finished, counts.failed) == (2, 2, 2)
        with RunStore.read(out) as store:
            assert _judge_calls(store) == recorded  # recording off: nothing replaced
        # both failed: graded again by fresh calls, recorded, with their extra gradings
        judge.bad = set()
        fixed = asyncio.run(regrade(out, {"cache": False}, models_file=models_file, rejudge=2))
        assert (fixed.graded, fixed.errors) == (2, 0)
        with RunStore.read(out) as store:
            assert [replicate_count(r.evaluation) for r in store.results() if r.evaluation] == [
                1,
                1,
            ]
            now = _judge_calls(store)
        for task_id, (sources, ids) in now.items():
            assert sources and set(sources) == {"regrade"}
            assert not set(ids) & set(recorded[task_id][1])


def _judge_calls(store: RunStore) -> dict[str, tuple[list[str], list[int]]]:
    calls = {}
    for r in store.results():
        judged = [c for c in store.transcript(r.task_id, r.trial).calls if c.call.role == "judge"]
        calls[r.task_id] = ([c.source for c in judged], [c.log_id for c in judged])
    return calls


def test_bases_not_graded_again_are_kept(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, tasks=2)
    asyncio.run(regrade(out, {"evaluator": "state"}, models=_Factory(_Judge())))
    with RunStore.read(out) as store:
        for record in store.results():
            assert record.evaluation is not None
            assert set(record.evaluation.by_basis) == {"state", "rubric"}


def test_the_grading_log_names_the_judge_model_it_resolved(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, tasks=1)
    asyncio.run(regrade(out, {"evaluator": "rubric"}, models=_Factory(_Judge())))
    db = sqlite3.connect(out / "run.sqlite")
    try:
        (raw,) = db.execute("SELECT provenance_json FROM gradings ORDER BY id DESC").fetchone()
    finally:
        db.close()
    judge = json.loads(raw)["models"]["judge"]
    assert (judge["spec"], judge["model"]) == ("judge", "judge")
