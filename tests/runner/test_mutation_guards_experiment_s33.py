"""Mutation guards for ``lifebench.runner._experiment`` (issue 21, session 33): the messages and
fields of the input problems a run refuses, and what the executor factory carries elsewhere.

The experiment is the offline demo (VitaBench delivery tasks, the oracle agent); where a
loader must fail in a way the real files cannot provoke, the loader is replaced by one that
raises."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest
from runner_fakes import orders_agent, rubric_judge

from lifebench.errors import InputError
from lifebench.models import ModelFactory, ScriptedModel
from lifebench.runner import Progress, RunStore
from lifebench.runner._experiment import (
    ExecutionPlan,
    ExperimentExecutorFactory,
    build_experiment,
    run_experiment,
)
from lifebench.suites import make_run_options

WAIT_S = 30.0  # a generous bound for what must happen (never reached when it works)


def _options(tmp_path: Path, **values: Any) -> Any:
    return make_run_options({"task_set": "demo", "out": str(tmp_path / "run"), **values})


# ------------------------------------------------------------------ input problems


@pytest.mark.parametrize("name", ["models.yaml", "模型配置.yaml"], ids=["english", "chinese"])
def test_a_models_file_the_loader_recurses_on_is_refused_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    path = tmp_path / name
    path.write_text("models: {}\n", encoding="utf-8")

    def too_deep(cls: Any, *args: Any, **kwargs: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(ModelFactory, "from_file", classmethod(too_deep))
    with pytest.raises(InputError) as caught:
        build_experiment(_options(tmp_path, models_file=str(path)))
    assert caught.value.file == str(path)
    assert str(caught.value) == (f"file {path}: nested too deeply to read (hundreds of levels)")
    # the file's error replaces the recursion's: no "During handling of the above exception"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


# ------------------------------------------------------------------ failed gradings graded again


def _judged_factory(judge: Any) -> ModelFactory:
    factory = ModelFactory()
    factory.register("agent", ScriptedModel([orders_agent], repeat_last=True, name="agent"))
    factory.register("user", ScriptedModel(["Show my orders."], repeat_last=True, name="user"))
    factory.register("judge", ScriptedModel([judge], repeat_last=True, name="judge"))
    return factory


def _judged_options(tmp_path: Path, record_requests: bool) -> Any:
    return _options(
        tmp_path,
        num_tasks=2,
        agent_model="agent",
        user_model="user",
        judge_model="judge",
        evaluator="rubric",
        quiet=True,
        record_requests=record_requests,
    )


@pytest.mark.parametrize("record_requests", [True, False], ids=["recorded", "not-recorded"])
def test_a_runs_failed_gradings_are_graded_again_by_fresh_judge_calls_recorded_as_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record_requests: bool
) -> None:
    from lifebench.runner import _regrade

    options = _judged_options(tmp_path, record_requests)
    broken = "我无法评估这段对话。 I cannot rate this."
    _, first = asyncio.run(
        run_experiment(options, models=_judged_factory(broken), progress=Progress(quiet=True))
    )
    assert (first.done, first.grading_errors) == (2, 2)

    # the judge answers now: the run's fresh judge models (not the cached failed answers)
    fresh = _judged_factory(rubric_judge)
    closed: list[bool] = []
    inner = fresh.aclose

    async def aclose() -> None:
        closed.append(True)
        await inner()

    fresh.aclose = aclose  # type: ignore[method-assign]
    asked: list[tuple[Path, Any]] = []

    def refreshing(run_dir: Path, run_options: Any, models_file: str | None = None) -> Any:
        asked.append((run_dir, run_options))
        return fresh

    monkeypatch.setattr(_regrade, "refreshing_models", refreshing)
    _, again = asyncio.run(
        run_experiment(options, models=_judged_factory(broken), progress=Progress(quiet=True))
    )
    assert (again.done, again.skipped, again.regraded, again.grading_errors) == (0, 2, 2, 0)
    assert [(d, o.record_requests) for d, o in asked] == [(tmp_path / "run", record_requests)]
    assert closed == [True]
    with RunStore.read(tmp_path / "run") as store:
        records = store.results()
        assert all(r.evaluation and r.evaluation.error is None for r in records)
        assert all(r.evaluation and r.evaluation.reward == 1.0 for r in records)
        judged = [
            [c.source for c in store.transcript(r.task_id, r.trial).calls if c.call.role == "judge"]
            for r in records
        ]
    # recorded: the judge calls stored are the re-grading's; not recorded: none at all
    assert judged == ([["regrade"]] * 2 if record_requests else [[], []])


# ------------------------------------------------------------------ models and backends


@pytest.mark.parametrize("name", ["models.json", "模型.json"], ids=["english", "chinese"])
def test_a_runs_models_from_a_file_keep_the_call_cache_and_show_their_retries(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    path.write_text(
        json.dumps({"models": {"judge-x": {"model": "m", "base_url": "http://127.0.0.1:9/v1"}}}),
        encoding="utf-8",
    )
    progress = Progress(quiet=True)
    exp, summary = asyncio.run(
        run_experiment(
            _options(tmp_path, quiet=True, num_tasks=1, models_file=str(path)), progress=progress
        )
    )
    assert summary.done == 1 and "judge-x" in exp.models.config.models
    assert exp.models.cache is not None
    assert Path(exp.models.cache.path) == tmp_path / "run" / "model_cache.sqlite"
    asyncio.run(exp.models._sleep(0))  # the backoff sleep of every model call
    assert (progress.counts.retries_total, progress.counts.retrying) == (1, 0)


def test_two_local_workers_run_in_two_processes(tmp_path: Path) -> None:
    from lifebench.runner import _experiment
    from lifebench.runner._workers import ProcessBackend

    exp = build_experiment(_options(tmp_path, concurrency=2, num_tasks=2))
    backend = _experiment._backend(exp, ExecutionPlan(workers=2))
    assert isinstance(backend, ProcessBackend)
    assert (backend._workers, backend._concurrency, backend._local) == (2, 2, exp)
    asyncio.run(exp.aclose())


class RecordingBackend:
    """Stands in for the ProcessBackend: records how it was built and runs the units in this
    event loop on the experiment it was given."""

    made: ClassVar[list[tuple[Any, ...]]] = []

    def __init__(
        self, factory: Any, workers: int, concurrency: int, *, local: Any = None, pool: Any = None
    ) -> None:
        RecordingBackend.made.append((factory, workers, concurrency, local, pool))
        self._local, self._concurrency = local, concurrency

    async def run(self, units: Any, sink: Any) -> None:
        from lifebench.runner._scheduler import LocalBackend

        await LocalBackend(self._local.execute_unit, self._concurrency).run(units, sink)


class IdlePool:
    """Stands in for the WorkerPool: spawns nothing."""

    made: ClassVar[list[IdlePool]] = []

    def __init__(self, count: int, suite: str = "") -> None:
        self.count, self.closed = count, False
        IdlePool.made.append(self)

    def close(self) -> None:
        self.closed = True


def test_a_run_on_local_workers_hands_its_units_and_the_spawned_processes_to_their_backend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.runner import _workers

    RecordingBackend.made, IdlePool.made = [], []
    monkeypatch.setattr(_workers, "ProcessBackend", RecordingBackend)
    monkeypatch.setattr(_workers, "WorkerPool", IdlePool)
    options = _options(tmp_path, quiet=True, num_tasks=3, concurrency=2)
    exp, summary = asyncio.run(
        run_experiment(options, progress=Progress(quiet=True), plan=ExecutionPlan(workers=3))
    )
    assert (summary.total, summary.done) == (3, 3)
    (pool,) = IdlePool.made
    assert pool.count == 2 and pool.closed
    assert RecordingBackend.made == [(ExperimentExecutorFactory.of(exp), 3, 2, exp, pool)]


# ------------------------------------------------------------------ replays and domains


def test_the_replays_of_a_run_with_user_seeds_call_the_runs_models(tmp_path: Path) -> None:
    models = _judged_factory(rubric_judge)
    options = _options(
        tmp_path, num_tasks=1, user_seeds=2, agent_model="agent", user_model="user", quiet=True
    )
    exp = build_experiment(options, models=models)

    async def run() -> list[Any]:
        try:
            return [await exp.execute(u) for u in exp.units]
        finally:
            await exp.aclose()

    outcomes = asyncio.run(run())
    assert [o.error for o in outcomes] == [None, None]
    for outcome in outcomes:
        said = [m.content for m in outcome.simulation.messages if m.role == "assistant"]
        assert said[-1] == "Here are your orders. ###STOP###"
        assert outcome.evaluation is not None


def _task_file(tmp_path: Path, domain: str, name: str) -> Path:
    bundled = build_experiment(
        make_run_options(
            {"task_set": "generated", "domain": domain, "num_tasks": 2, "out": str(tmp_path / "b")}
        )
    )
    path = tmp_path / name
    path.write_text(
        json.dumps([t.model_dump(mode="json") for t in bundled.tasks.values()], ensure_ascii=False),
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("name", ["instore.json", "到店任务.json"], ids=["english", "chinese"])
def test_the_domain_is_the_task_files_unless_one_is_asked_for(tmp_path: Path, name: str) -> None:
    path = _task_file(tmp_path, "instore", name)
    own = build_experiment(make_run_options({"tasks_file": str(path), "out": str(tmp_path / "a")}))
    assert own.options.domain == "instore" and len(own.tasks) == 2
    asked = build_experiment(
        make_run_options({"tasks_file": str(path), "domain": "cross", "out": str(tmp_path / "c")})
    )
    assert asked.options.domain == "cross" and len(asked.tasks) == 2


@pytest.mark.parametrize("name", ["tasks.json", "任务.json"], ids=["english", "chinese"])
def test_a_task_file_the_loader_recurses_on_is_refused_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    from lifebench.runner import _experiment

    path = _task_file(tmp_path, "delivery", name)

    def too_deep(*args: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(_experiment, "load_run_tasks", too_deep)
    with pytest.raises(InputError) as caught:
        build_experiment(make_run_options({"tasks_file": str(path), "domain": "delivery"}))
    assert caught.value.file == str(path)
    assert str(caught.value) == (
        f"file {path}: the JSON is nested too deeply to read (hundreds of levels); "
        "is it a task file?"
    )
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


@pytest.mark.parametrize("name", ["empty.json", "空任务.json"], ids=["english", "chinese"])
def test_a_task_file_without_tasks_is_refused_naming_the_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        build_experiment(make_run_options({"tasks_file": str(path), "domain": "delivery"}))
    assert caught.value.file == str(path)
    assert str(caught.value) == f"file {path}: no tasks selected"


# ------------------------------------------------------------------ closing


def test_closing_while_the_warm_up_runs_still_closes_the_models_when_cancelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.vita.suite import VitaSuite

    started, release = threading.Event(), threading.Event()

    def warm_up(self: Any, options: Any, tasks: Any) -> None:
        started.set()
        release.wait(WAIT_S)

    monkeypatch.setattr(VitaSuite, "warm_up", warm_up)
    exp = build_experiment(_options(tmp_path, num_tasks=1))
    closed: list[str] = []
    inner = exp.models.aclose

    async def aclose() -> None:
        closed.append("models")
        await inner()

    exp.models.aclose = aclose  # type: ignore[method-assign]

    async def run() -> tuple[bool, list[Any]]:
        try:
            await exp.execute(exp.units[0])
            assert await asyncio.to_thread(started.wait, WAIT_S)
            closing = asyncio.create_task(exp.aclose())
            await asyncio.sleep(0)  # closing now waits for the warm-up
            assert closed == []
            closing.cancel()  # Ctrl-C while it waits
            got = await asyncio.gather(closing, return_exceptions=True)
            return closing.cancelled(), got
        finally:
            release.set()

    cancelled, got = asyncio.run(run())
    assert (cancelled, got) == (False, [None])  # the wait is given up, the close is not
    assert closed == ["models"]
