"""Mutation guards for ``runner/_regrade.py`` (s32): what ``lifebench eval`` grades again, what
it counts, and what it says when it cannot.

A re-grade grades the done units only (a unit left by an infrastructure error is counted as
skipped), counts the new evaluations that failed, shows one progress tick per graded unit, and
refuses, with the unit, the option or the missing task named: a trajectory too deep to grade,
``--rejudge 0``, a store without the task data of a done unit.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from runner_fakes import orders_agent, rubric_judge

from lifebench.errors import InputError, LifebenchError
from lifebench.messages import AssistantMessage
from lifebench.models import ModelCache, ModelFactory, ScriptedModel
from lifebench.runner import Progress, RunStore
from lifebench.runner._experiment import run_experiment
from lifebench.runner._regrade import regrade
from lifebench.runner._units import WorkUnit
from lifebench.suites import make_run_options

RUBRIC = {"evaluator": "rubric", "judge_model": "judge"}


def _factory(judge: Any = rubric_judge) -> ModelFactory:
    factory = ModelFactory()
    factory.register("agent", ScriptedModel([orders_agent], repeat_last=True, name="agent"))
    factory.register("user", ScriptedModel(["Show my orders."], repeat_last=True, name="user"))
    factory.register("judge", ScriptedModel([judge], repeat_last=True, name="judge"))
    return factory


def _run(out: Path, num_tasks: int = 2) -> None:
    options = make_run_options(
        {
            "task_set": "demo",
            "num_tasks": num_tasks,
            "agent_model": "agent",
            "user_model": "user",
            "judge_model": "judge",
            "evaluator": "both",
            "out": str(out),
            "concurrency": 2,
            "quiet": True,
        }
    )
    asyncio.run(run_experiment(options, models=_factory(), progress=Progress(quiet=True)))


def _eval(out: Path, judge: Any = rubric_judge, **kwargs: Any) -> Any:
    return asyncio.run(regrade(out, dict(RUBRIC), models=_factory(judge), **kwargs))


def test_only_done_units_are_graded_and_the_rest_counted_as_skipped(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, num_tasks=3)
    with RunStore.read(out, write=True) as store:
        first, *_ = sorted(store.results(), key=lambda r: r.task_id)
        unit = WorkUnit(first.task_id, first.trial, first.seed)
        store.record(unit, first.simulation, None, "provider down (503)", infra=True)
    progress = Progress(quiet=True)
    summary = _eval(out, progress=progress)
    assert (summary.graded, summary.errors, summary.skipped) == (2, 0, 1)
    assert summary.no_judge is False
    counts = progress.counts
    assert (counts.total, counts.finished, counts.failed) == (2, 2, 0)
    with RunStore.read(out) as store:
        by_task = {r.task_id: r for r in store.results()}
    assert by_task[first.task_id].status == "infra_error"  # not graded, not turned into done
    assert by_task[first.task_id].evaluation is None


def test_a_judge_that_cannot_be_read_is_counted_once_per_unit(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out)
    progress = Progress(quiet=True)
    summary = _eval(out, judge="我无法评估这段对话。 I cannot rate this.", progress=progress)
    assert (summary.graded, summary.errors, summary.skipped) == (2, 2, 0)
    counts = progress.counts
    assert (counts.total, counts.finished, counts.failed) == (2, 2, 2)
    with RunStore.read(out) as store:
        assert all(r.evaluation.error for r in store.results())


def test_a_trajectory_too_deep_to_grade_names_its_unit_and_the_remedy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.runner import _regrade

    out = tmp_path / "run"
    _run(out, num_tasks=1)
    with RunStore.read(out) as store:
        (record,) = store.results()

    async def too_deep(*args: object, **kwargs: object) -> object:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(_regrade, "evaluate", too_deep)
    with pytest.raises(LifebenchError) as caught:
        _eval(out)
    assert str(caught.value) == (
        f"unit {record.task_id}#{record.trial}: its trajectory is nested too deeply to grade "
        "(hundreds of levels of JSON, e.g. in a tool call's arguments); re-run that unit "
        "(lifebench run) before grading"
    )


@pytest.mark.parametrize("gradings", [0, -2])
def test_rejudge_below_one_is_refused_naming_the_option(tmp_path: Path, gradings: int) -> None:
    out = tmp_path / "run"
    _run(out, num_tasks=1)
    with pytest.raises(InputError) as caught:
        _eval(out, rejudge=gradings)
    assert caught.value.field == "--rejudge"
    assert f"--rejudge must be at least 1, got {gradings}" in str(caught.value)
    db = sqlite3.connect(out / "run.sqlite")  # refused before a grading was logged
    try:
        assert db.execute("SELECT source FROM gradings").fetchall() == [("run",)]
    finally:
        db.close()


def test_a_store_without_a_done_units_task_data_is_refused_naming_the_tasks(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    _run(out, num_tasks=6)
    with RunStore.read(out) as store:
        ids = sorted({r.task_id for r in store.results()})
    assert len(ids) == 6  # one more than the message names
    db = sqlite3.connect(out / "run.sqlite")
    try:
        with db:
            db.execute("DELETE FROM task_data")
    finally:
        db.close()
    with pytest.raises(InputError) as caught:
        _eval(out)
    assert str(caught.value) == (
        f"file {out}: the run store holds no task data for {', '.join(ids[:5])}; it was created "
        "by an older lifebench — re-run it to re-grade"
    )


def test_by_default_a_regrade_records_its_judge_calls_and_grades_once(tmp_path: Path) -> None:
    from lifebench.evaluation._rejudge import replicate_count

    out = tmp_path / "run"
    _run(out, num_tasks=1)
    summary = _eval(out)
    assert summary.no_judge is False
    with RunStore.read(out) as store:
        (record,) = store.results()
        transcript = store.transcript(record.task_id, record.trial)
    assert replicate_count(record.evaluation) == 0  # --rejudge 1: no extra grading
    judged = [c.source for c in transcript.calls if c.call.basis == "rubric"]
    assert judged == ["regrade"]  # the new judge call is stored with the evaluation


def test_by_default_eight_units_are_graded_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.runner import _regrade

    out = tmp_path / "run"
    options = make_run_options(
        {
            "task_set": "demo",
            "num_tasks": 5,
            "trials": 2,
            "agent_model": "agent",
            "user_model": "user",
            "judge_model": "judge",
            "evaluator": "both",
            "out": str(out),
            "concurrency": 2,
            "quiet": True,
        }
    )
    asyncio.run(run_experiment(options, models=_factory(), progress=Progress(quiet=True)))
    real = _regrade.evaluate
    inflight: list[int] = [0]
    most: list[int] = [0]

    async def counting(*args: Any, **kwargs: Any) -> Any:
        inflight[0] += 1
        most[0] = max(most[0], inflight[0])
        for _ in range(20):  # yield: every unit the semaphore admits gets to start
            await asyncio.sleep(0)
        try:
            return await real(*args, **kwargs)
        finally:
            inflight[0] -= 1

    monkeypatch.setattr(_regrade, "evaluate", counting)
    summary = _eval(out)
    assert (summary.graded, summary.errors) == (10, 0)
    assert most[0] == 8


def _models_file(path: Path, name: str) -> Path:
    path.write_text(
        json.dumps({"models": {name: {"model": "m", "base_url": "http://127.0.0.1:9/v1"}}}),
        encoding="utf-8",
    )
    return path


def _regrade_options(run_dir: Path, **extra: Any) -> Any:
    return make_run_options({"out": str(run_dir), **extra})


@pytest.mark.parametrize("with_file", [False, True], ids=["no models file", "models file"])
def test_failed_gradings_use_the_runs_cache_asking_again_and_keeping_the_new_answer(
    tmp_path: Path, with_file: bool
) -> None:
    from lifebench.runner._experiment import CACHE_FILENAME
    from lifebench.runner._regrade import refreshing_models

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    failed = AssistantMessage(content="无法评分 / cannot rate")
    fixed = AssistantMessage(content='[{"rubric_key": "r1", "meetExpectation": true}]')

    async def scenario() -> tuple[Any, Any]:
        with ModelCache(run_dir / CACHE_FILENAME) as cache:  # the run's failed judge answer
            await cache.put("k1", "judge", failed)
            await cache.flush()
        if with_file:
            models = _models_file(tmp_path / "models.json", "judge")
            fresh = refreshing_models(run_dir, _regrade_options(run_dir), str(models))
            assert set(fresh.config.models) == {"judge"}
        else:
            fresh = refreshing_models(run_dir, _regrade_options(run_dir))
            assert fresh.config.models == {}
        assert fresh.cache is not None
        asked = await fresh.cache.get("k1")  # the failed answer is never served again
        await fresh.cache.put("k1", "judge", fixed)  # the fresh answer replaces it
        await fresh.aclose()
        with ModelCache(run_dir / CACHE_FILENAME) as cache:
            return asked, await cache.get("k1")

    asked, stored = asyncio.run(scenario())
    assert asked is None
    assert stored is not None and stored.content == fixed.content


def test_without_the_cache_failed_gradings_write_no_cache_file(tmp_path: Path) -> None:
    from lifebench.runner._experiment import CACHE_FILENAME
    from lifebench.runner._regrade import refreshing_models

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    fresh = refreshing_models(run_dir, _regrade_options(run_dir, cache=False))
    assert fresh.cache is None
    asyncio.run(fresh.aclose())
    assert not (run_dir / CACHE_FILENAME).exists()


def test_failed_gradings_use_the_given_models_file_else_the_runs(tmp_path: Path) -> None:
    from lifebench.runner._regrade import refreshing_models

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    runs = _models_file(tmp_path / "run-models.json", "run-judge")
    given = _models_file(tmp_path / "given-models.json", "given-judge")
    options = _regrade_options(run_dir, models_file=str(runs), cache=False)
    assert set(refreshing_models(run_dir, options).config.models) == {"run-judge"}
    assert set(refreshing_models(run_dir, options, str(given)).config.models) == {"given-judge"}
    plain = _regrade_options(run_dir, cache=False)
    assert set(refreshing_models(run_dir, plain, str(given)).config.models) == {"given-judge"}


def test_rejudge_three_stores_two_extra_gradings_on_the_given_models(tmp_path: Path) -> None:
    from lifebench.evaluation._rejudge import replicate_count, replicate_rewards

    out = tmp_path / "run"
    _run(out)
    summary = _eval(out, rejudge=3)
    assert (summary.graded, summary.errors, summary.no_judge) == (2, 0, False)
    with RunStore.read(out) as store:
        records = store.results()
    assert [replicate_count(r.evaluation) for r in records] == [2, 2]
    assert [replicate_rewards(r.evaluation) for r in records] == [[1.0, 1.0], [1.0, 1.0]]
    # twice: the extra gradings of the first grading are kept, not made again
    assert (_eval(out, rejudge=2).graded, _eval(out, rejudge=2).no_judge) == (2, False)


TRAVEL_DIMS = ("reasoning_planning", "summarization_extraction", "presentation")


def _travel_judge(body: dict[str, Any]) -> dict[str, Any]:
    from lifebench.testing.mock_openai import completion_response

    text = "\n".join(str(m.get("content") or "") for m in body["messages"])
    if "meta_evaluation" in text:
        return completion_response(
            "<meta_evaluation><reasoning>好</reasoning><rating>优秀</rating></meta_evaluation>"
        )
    if "rating" not in text and "评" not in text:  # the agent's turn
        return completion_response("G8601 08:05 发车，二等座 96 元。")
    blocks = "".join(
        f"<{d}><reasoning>ok</reasoning><rating>较好</rating></{d}>" for d in TRAVEL_DIMS
    )
    return completion_response(f"<response>{blocks}</response>")


@pytest.mark.parametrize("cache", [True, False], ids=["cache", "no cache"])
def test_an_eval_without_a_models_file_keeps_the_cache_rule(tmp_path: Path, cache: bool) -> None:
    from typer.testing import CliRunner

    from lifebench.cli import app
    from lifebench.runner._experiment import CACHE_FILENAME
    from lifebench.testing import MockOpenAIServer
    from lifebench.testing.mock_openai import MockServerThread

    rows = tmp_path / "single_turn.jsonl"
    rows.write_text(
        "\n".join(
            json.dumps(
                {"trace_id": str(i), "time": "2025-10-24 10:00", "query": q, "context": ""},
                ensure_ascii=False,
            )
            for i, q in enumerate(["明天成都到重庆的高铁", "后天北京到上海的航班"])
        ),
        encoding="utf-8",
    )
    out = tmp_path / "run"
    flag = "--cache" if cache else "--no-cache"
    with MockServerThread(MockOpenAIServer(responder=_travel_judge)) as server:
        judge = f"j@{server.base_url}"  # a MODEL@BASE_URL judge: no models file
        args = ["run", "--suite", "travel", "--tasks", str(rows), "--out", str(out), flag]
        args += ["--agent-model", f"a@{server.base_url}", "--judge-model", judge, "--quiet"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.stderr
        assert (out / CACHE_FILENAME).exists() is cache
        counts = []
        for _ in range(2):
            before = server.count
            overrides = {"judge_model": judge, "cache": cache}
            summary = asyncio.run(regrade(out, overrides, progress=Progress(quiet=True)))
            assert (summary.graded, summary.errors) == (2, 0)
            counts.append(server.count - before)
    # with the cache every judge call is answered from the run's cache; without it each
    # re-grade asks the judge again (judge + meta-judge per unit) and writes no cache file
    assert counts == ([0, 0] if cache else [4, 4])
    assert (out / CACHE_FILENAME).exists() is cache


def test_rejudge_two_on_a_run_without_a_judge_makes_no_extra_grading(tmp_path: Path) -> None:
    from lifebench.evaluation._rejudge import replicate_count

    out = tmp_path / "run"
    _run(out)
    state = {"evaluator": "state"}  # deterministic grading: no grader asks a judge
    summary = asyncio.run(regrade(out, state, models=_factory(), rejudge=2))
    assert (summary.graded, summary.no_judge) == (2, True)
    with RunStore.read(out) as store:
        assert [replicate_count(r.evaluation) for r in store.results()] == [0, 0]
    once = asyncio.run(regrade(out, state, models=_factory(), rejudge=1))
    assert once.no_judge is False  # one grading asked for: nothing to report


@pytest.mark.parametrize(
    ("how", "cache"),
    [("models file", True), ("models file", False), ("MODEL@BASE_URL", True)],
    ids=["models file", "models file, no cache", "url, no models file"],
)
def test_rejudge_records_the_extra_gradings_in_the_runs_cache(
    tmp_path: Path, how: str, cache: bool
) -> None:
    from lifebench.evaluation._rejudge import replicate_count
    from lifebench.runner._experiment import CACHE_FILENAME
    from lifebench.testing import MockOpenAIServer
    from lifebench.testing.mock_openai import MockServerThread

    rows = tmp_path / "single_turn.jsonl"
    row = {"trace_id": "1", "time": "2025-10-24 10:00", "query": "明天成都到重庆的高铁"}
    rows.write_text(json.dumps({**row, "context": ""}, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "run"
    with MockServerThread(MockOpenAIServer(responder=_travel_judge)) as server:
        models: str | None = None
        names = {"agent_model": f"a@{server.base_url}", "judge_model": f"j@{server.base_url}"}
        if how == "models file":
            path = tmp_path / "models.json"
            entry = {"api_key_env": None, "retry": {"max_attempts": 1}}
            path.write_text(
                json.dumps(
                    {
                        "models": {
                            "agent": {"model": "a", "base_url": server.base_url, **entry},
                            "judge": {"model": "j", "base_url": server.base_url, **entry},
                        }
                    }
                ),
                encoding="utf-8",
            )
            models = str(path)
            names = {"agent_model": "agent", "judge_model": "judge", "models_file": models}
        options = make_run_options(
            {
                "suite": "travel",
                "tasks_file": str(rows),
                **names,
                "out": str(out),
                "quiet": True,
                "cache": cache,
            }
        )
        asyncio.run(run_experiment(options, progress=Progress(quiet=True)))
        cached = _cached_answers(out / CACHE_FILENAME)
        before = server.count
        summary = asyncio.run(regrade(out, {"cache": cache}, models_file=models, rejudge=2))
        extra = server.count - before
        url = server.base_url
        before = server.count
        again = asyncio.run(regrade(out, {"cache": cache}, models_file=models, rejudge=2))
        second = server.count - before
    assert (summary.graded, summary.errors, summary.no_judge) == (1, 0, False)
    # the primary grading is answered from the cache (when there is one); the extra grading
    # (judge + meta-judge) is asked afresh and recorded in the cache, never answered from it
    assert extra == (2 if cache else 4)
    assert _cached_answers(out / CACHE_FILENAME) == (cached + 2 if cache else 0)
    # a second --rejudge 2 keeps the stored extra grading: only the primary may be asked
    assert (again.graded, again.errors, second) == (1, 0, 0 if cache else 2)
    assert (out / CACHE_FILENAME).exists() is cache
    with RunStore.read(out) as store:
        (record,) = store.results()
    assert replicate_count(record.evaluation) == 1
    # the re-grade is logged as an "eval" grading, with the judge's provider model and endpoint
    db = sqlite3.connect(out / "run.sqlite")
    try:
        source, provenance = db.execute(
            "SELECT source, provenance_json FROM gradings ORDER BY id DESC LIMIT 1"
        ).fetchone()
    finally:
        db.close()
    assert source == "eval"
    judge = json.loads(provenance)["models"]["judge"]
    assert (judge["model"], judge["endpoint"]) == ("j", url)


def _cached_answers(path: Path) -> int:
    if not path.exists():
        return 0
    with ModelCache(path) as cache:
        return len(cache)


QUERIES = ["明天成都到重庆的高铁", "后天北京到上海的航班", "下周一杭州的酒店"]


class SwitchableJudge:
    """The travel agent and judge of the mock server; the judge cannot rate the queries in
    ``bad`` (switchable while the server runs)."""

    def __init__(self) -> None:
        self.bad: set[str] = set()

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        from lifebench.testing.mock_openai import completion_response

        text = "\n".join(str(m.get("content") or "") for m in body["messages"])
        judging = "meta_evaluation" in text or "rating" in text or "评" in text
        if judging and any(q in text for q in self.bad):
            return completion_response("I cannot rate this conversation. 无法评分。")
        return _travel_judge(body)


@pytest.mark.parametrize(
    ("record", "gradings"),
    [(True, 2), (False, 2), (True, 1)],
    ids=["recorded, rejudge 2", "not recorded, rejudge 2", "recorded, rejudge 1"],
)
def test_failed_and_new_grading_errors_add_up_and_the_failed_batch_is_graded_alike(
    tmp_path: Path, record: bool, gradings: int
) -> None:
    from lifebench.evaluation._rejudge import replicate_count
    from lifebench.testing import MockOpenAIServer
    from lifebench.testing.mock_openai import MockServerThread

    rows = tmp_path / "single_turn.jsonl"
    rows.write_text(
        "\n".join(
            json.dumps(
                {"trace_id": str(i), "time": "2025-10-24 10:00", "query": q, "context": ""},
                ensure_ascii=False,
            )
            for i, q in enumerate(QUERIES)
        ),
        encoding="utf-8",
    )
    out = tmp_path / "run"
    responder = SwitchableJudge()
    responder.bad = {QUERIES[0]}  # the run's grading of the first query fails
    progress = Progress(quiet=True)
    with MockServerThread(MockOpenAIServer(responder=responder)) as server:
        judge = f"j@{server.base_url}"
        options = make_run_options(
            {
                "suite": "travel",
                "tasks_file": str(rows),
                "agent_model": f"a@{server.base_url}",
                "judge_model": judge,
                "out": str(out),
                "quiet": True,
            }
        )
        asyncio.run(run_experiment(options, progress=Progress(quiet=True)))
        with RunStore.read(out) as store:
            failed_before = sorted(r.task_id for r in store.results() if r.evaluation.error)
        assert len(failed_before) == 1
        # a new judge context (the cached answers do not apply) that cannot rate the first two
        responder.bad = {QUERIES[0], QUERIES[1]}
        overrides = {"judge_model": judge, "suite_options": {"judge_context": True}}
        summary = asyncio.run(
            regrade(out, overrides, progress=progress, rejudge=gradings, record_requests=record)
        )
    # one new failure among the graded evaluations + the failed one failing again
    assert (summary.graded, summary.errors, summary.skipped) == (3, 2, 0)
    db = sqlite3.connect(out / "run.sqlite")  # and so the grading log says, when finished
    try:
        logged = db.execute(
            "SELECT source, to_grade, graded, errors FROM gradings ORDER BY id DESC LIMIT 1"
        ).fetchone()
    finally:
        db.close()
    assert logged == ("eval", 3, 3, 2)
    counts = progress.counts  # one display for both batches: 3 units, 2 of them failed
    assert (counts.total, counts.finished, counts.failed) == (3, 3, 2)
    with RunStore.read(out) as store:
        records = {r.task_id: r for r in store.results()}
        (failed_id,) = failed_before
        failed = records[failed_id]
        transcript = store.transcript(failed.task_id, failed.trial)
    assert failed.evaluation.error
    assert sum(1 for r in records.values() if r.evaluation.error) == 2
    # the failed batch gets the same extra grading and call recording as the others
    assert replicate_count(failed.evaluation) == gradings - 1
    regraded = [c for c in transcript.calls if c.source == "regrade"]
    assert bool(regraded) is record


def test_regrade_options_of_a_legacy_store_without_a_suite(tmp_path: Path) -> None:
    from lifebench.runner._regrade import regrade_options
    from lifebench.vita.options import VitaOptions

    stored = {"evaluator": "state", "window": 6, "suite_options": None, "trials": 3}
    keep = {"evaluator": None, "judge_model": None}  # None: keep the stored value
    options = regrade_options(stored, keep, tmp_path / "运行")
    assert (options.suite, options.evaluator, options.judge_model) == ("vita", "state", None)
    assert options.trials == 3
    assert options.out == str(tmp_path / "运行")  # the run directory, not the stored out
    assert options.options_for(VitaOptions).window == 6  # moved from the top level


def test_regrade_options_merge_suite_flags_and_a_new_judge_takes_the_default_evaluator(
    tmp_path: Path,
) -> None:
    from lifebench.runner._regrade import regrade_options
    from lifebench.travel.options import TravelOptions

    stored = {"suite": "travel", "subset": "single", "suite_options": {"judge_reasks": 4}}
    changes = {"judge_model": "j@http://127.0.0.1:9/v1", "suite_options": {"meta_judge": False}}
    options = regrade_options(stored, changes, tmp_path)
    travel = options.options_for(TravelOptions)
    assert (travel.subset, travel.judge_reasks, travel.meta_judge) == ("single", 4, False)
    assert (options.evaluator, options.judge_model) == ("judge", "j@http://127.0.0.1:9/v1")
    rubric = {"suite": "vita", "evaluator": "rubric", "judge_model": "old"}
    assert regrade_options(rubric, {"judge_model": "new"}, tmp_path).evaluator == "both"
    assert regrade_options(rubric, {}, tmp_path).evaluator == "rubric"  # nothing new: kept
    named = {"judge_model": "new", "evaluator": "rubric"}
    assert regrade_options(rubric, named, tmp_path).evaluator == "rubric"
