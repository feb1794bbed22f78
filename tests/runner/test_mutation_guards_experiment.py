"""Mutation guards for ``lifebench.runner._experiment``: what a run counts and stores (done,
resumed, graded again, grading errors), how the reward of a unit is combined from its bases,
the limits and names a run is given, and which backend and worker processes it uses.

Runs are the offline demo (six VitaBench delivery tasks, one trial, the oracle agent), so each
takes a fraction of a second; a flaky grader is put in the suite's place where a grading must
fail."""

from __future__ import annotations

import asyncio
import json
import pickle
import sqlite3
from pathlib import Path
from typing import Any, ClassVar

import pytest
from runner_fakes import simulation

import lifebench.runner._experiment as experiment
from lifebench.errors import FatalProviderError, InfrastructureError, InputError
from lifebench.evaluation import JudgeError
from lifebench.evaluation._types import BasisResult, Evaluation
from lifebench.messages import Usage
from lifebench.runner import Progress, RunStore, WorkUnit
from lifebench.runner._experiment import (
    ExecutionPlan,
    ExperimentExecutorFactory,
    build_experiment,
    default_run_dir,
    evaluate,
    grading_description,
    plan_units,
    run_experiment,
)
from lifebench.suites import make_run_options

DEMO_TASKS = [f"LBD00{i}_en" for i in range(1, 7)]


def _options(tmp_path: Path, **values: Any) -> Any:
    return make_run_options({"task_set": "demo", "out": str(tmp_path / "run"), **values})


def _run(options: Any, **kwargs: Any) -> tuple[Any, Any]:
    kwargs.setdefault("progress", Progress(quiet=True))
    return asyncio.run(run_experiment(options, **kwargs))


def _gradings(run_dir: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(run_dir / "run.sqlite") as conn:
        return conn.execute(
            "SELECT source, to_grade, graded, errors, finished_at IS NOT NULL FROM gradings "
            "ORDER BY id"
        ).fetchall()


# ------------------------------------------------------------------ a run and its resume


def test_a_run_counts_and_logs_its_grading_and_its_resume_runs_nothing_again(
    tmp_path: Path,
) -> None:
    options = _options(tmp_path, quiet=True)
    exp, summary = _run(options)
    assert (summary.total, summary.done, summary.skipped, summary.infra_errors) == (6, 6, 0, 0)
    assert (summary.regraded, summary.grading_errors) == (0, 0)
    assert exp.options.domain == "delivery"  # resolved from the tasks
    assert sorted(exp.tasks) == DEMO_TASKS and exp.run_dir == tmp_path / "run"
    assert _gradings(tmp_path / "run") == [("run", 6, 6, 0, 1)]
    with RunStore.read(tmp_path / "run") as store:
        records = store.results()
    assert sorted((r.task_id, r.trial, r.status.value) for r in records) == [
        (t, 0, "done") for t in DEMO_TASKS
    ]
    assert all(
        r.evaluation and r.evaluation.reward == 1.0 for r in records
    )  # the oracle solves every demo task
    # what the run stored about itself: its configuration (with the bases), the tasks, the
    # grading's description and provenance
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as conn:
        config_json, config_hash = conn.execute(
            "SELECT config_json, config_hash FROM run_meta"
        ).fetchone()
        stored = dict(conn.execute("SELECT task_id, content_hash FROM tasks").fetchall())
        task_json = dict(conn.execute("SELECT task_id, task_json FROM task_data").fetchall())
        grading_json, grading_provenance = conn.execute(
            "SELECT grading_json, provenance_json FROM gradings"
        ).fetchone()
        (session_provenance,) = conn.execute("SELECT provenance_json FROM sessions").fetchone()
    assert json.loads(config_json) == {**exp.options.semantic_dict(), "bases": ["state"]}
    assert config_hash == exp.options.config_hash()
    assert stored == {i: t.content_hash() for i, t in exp.tasks.items()}
    assert task_json == {i: t.model_dump_json() for i, t in exp.tasks.items()}
    assert json.loads(grading_json) == grading_description(exp.options, ["state"])
    assert grading_provenance is not None and session_provenance is not None
    assert json.loads(grading_provenance)["tasks"] == json.loads(session_provenance)["tasks"]

    _, again = _run(options)
    assert (again.total, again.done, again.skipped, again.regraded) == (6, 0, 6, 0)
    assert _gradings(tmp_path / "run")[1] == ("run", 6, 0, 0, 1)


def test_a_store_hashed_under_older_rules_resumes_when_its_config_rehashes_the_same(
    tmp_path: Path,
) -> None:
    options = _options(tmp_path, quiet=True, num_tasks=1)
    _run(options)
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as conn:
        conn.execute("UPDATE run_meta SET config_hash = 'hashed-by-an-older-recipe'")
    _, again = _run(options)
    assert (again.done, again.skipped) == (0, 1)


def test_what_resuming_noticed_is_kept_on_the_experiment(tmp_path: Path) -> None:
    first, _ = _run(_options(tmp_path, quiet=True, num_tasks=1))
    assert first.notes == []
    more, summary = _run(_options(tmp_path, quiet=True, num_tasks=1, trials=2))
    assert summary.done == 1 and any("trials" in note for note in more.notes), more.notes


def test_the_selected_tasks_and_trials_are_the_units_of_the_run(tmp_path: Path) -> None:
    options = _options(tmp_path, quiet=True, task_ids=("LBD003_en", "LBD001_en"), trials=2)
    exp, summary = _run(options)
    assert [(u.task_id, u.trial) for u in exp.units] == [
        ("LBD001_en", 0),
        ("LBD001_en", 1),
        ("LBD003_en", 0),
        ("LBD003_en", 1),
    ]
    assert summary.total == summary.done == 4
    assert _gradings(tmp_path / "run") == [("run", 4, 4, 0, 1)]


class FlakyGrader:
    """The suite's state grader, failing (a judge with no usable answer) for the tasks — or
    (task, trial) pairs — in ``failing`` while ``failing`` holds them."""

    def __init__(self, inner: Any, failing: set[Any], graded: list[str]) -> None:
        self.inner, self.failing, self.graded = inner, failing, graded

    async def evaluate(self, task: Any, sim: Any) -> BasisResult:
        self.graded.append(task.id)
        if task.id in self.failing or (task.id, sim.trial) in self.failing:
            raise JudgeError("the judge said nothing usable", Usage.zero())
        result: BasisResult = await self.inner.evaluate(task, sim)
        return result


class FlakySuite:
    """The VitaBench suite with its graders wrapped in :class:`FlakyGrader`."""

    def __init__(self, inner: Any, failing: set[Any], graded: list[str]) -> None:
        self._inner, self.failing, self.graded = inner, failing, graded

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def build_evaluators(self, options: Any, models: Any) -> dict[str, Any]:
        built = self._inner.build_evaluators(options, models)
        return {n: FlakyGrader(e, self.failing, self.graded) for n, e in built.items()}


def test_failed_gradings_are_counted_and_graded_again_on_resume_without_rerunning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.suites import get_suite

    failing = {"LBD002_en", "LBD005_en"}
    graded: list[str] = []
    suite = FlakySuite(get_suite("vita"), failing, graded)
    monkeypatch.setattr(experiment, "get_suite", lambda name: suite)
    options = _options(tmp_path, quiet=True)

    _, first = _run(options)
    assert (first.done, first.grading_errors, first.regraded) == (6, 2, 0)
    assert _gradings(tmp_path / "run") == [("run", 6, 6, 2, 1)]
    with RunStore.read(tmp_path / "run") as store:
        assert store.failed_gradings() == {("LBD002_en", 0), ("LBD005_en", 0)}

    graded.clear()
    _, still = _run(options)  # the judge still fails them: graded again, counted again
    assert sorted(graded) == sorted(failing)
    assert (still.done, still.skipped, still.regraded, still.grading_errors) == (0, 6, 2, 2)
    assert _gradings(tmp_path / "run")[1] == ("run", 6, 2, 2, 1)

    failing.clear()
    graded.clear()
    _, fixed = _run(options)
    assert sorted(graded) == ["LBD002_en", "LBD005_en"]  # only those; nothing re-simulated
    assert (fixed.done, fixed.skipped, fixed.regraded, fixed.grading_errors) == (0, 6, 2, 0)
    assert _gradings(tmp_path / "run")[2] == ("run", 6, 2, 0, 1)
    with RunStore.read(tmp_path / "run") as store:
        assert store.failed_gradings() == set()
        assert all(r.evaluation and r.evaluation.reward == 1.0 for r in store.results())

    graded.clear()
    _, done = _run(options)
    assert graded == [] and (done.regraded, done.grading_errors) == (0, 0)


def test_failed_gradings_of_units_outside_this_run_are_not_counted_or_graded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.suites import get_suite

    graded: list[str] = []
    suite = FlakySuite(get_suite("vita"), {("LBD002_en", 1)}, graded)
    monkeypatch.setattr(experiment, "get_suite", lambda name: suite)
    _, first = _run(_options(tmp_path, quiet=True, trials=2))
    assert (first.done, first.grading_errors) == (12, 1)
    graded.clear()
    # the same run with fewer trials (it keeps the stored ones): LBD002_en#1 is not its unit
    _, other = _run(_options(tmp_path, quiet=True, trials=1))
    assert graded == [] and (other.skipped, other.regraded, other.grading_errors) == (6, 0, 0)
    assert _gradings(tmp_path / "run")[1] == ("run", 6, 0, 0, 1)


def test_a_store_that_refuses_the_run_closes_the_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[bool] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise InputError("the run directory holds another run")

    original = experiment.Experiment.aclose

    async def aclose(self: Any) -> None:
        closed.append(True)
        await original(self)

    monkeypatch.setattr(experiment.RunStore, "open", refuse)
    monkeypatch.setattr(experiment.Experiment, "aclose", aclose)
    with pytest.raises(InputError, match="holds another run"):
        _run(_options(tmp_path, quiet=True))
    assert closed == [True]


def test_the_callers_progress_counts_the_run(tmp_path: Path) -> None:
    progress = Progress(quiet=True)
    _, summary = _run(_options(tmp_path, quiet=True, num_tasks=2), progress=progress)
    counts = progress.counts
    assert (counts.total, counts.finished, counts.skipped) == (2, 2, 0) and summary.done == 2


def test_a_quiet_run_without_a_progress_shows_none_and_a_loud_one_does(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    for quiet in (True, False):
        options = _options(tmp_path, quiet=quiet, num_tasks=1, out=str(tmp_path / f"q{quiet}"))
        asyncio.run(run_experiment(options))
        shown = capfd.readouterr()
        assert ("1/1 done" in shown.err + shown.out) is not quiet


def test_a_run_uses_the_callers_models_or_builds_them_with_a_sleep_its_progress_shows(
    tmp_path: Path,
) -> None:
    from lifebench.models import ModelFactory

    progress = Progress(quiet=True)
    exp, _ = _run(_options(tmp_path, quiet=True, num_tasks=1), progress=progress)
    asyncio.run(exp.models._sleep(0))  # the backoff sleep of every model call
    assert (progress.counts.retries_total, progress.counts.retrying) == (1, 0)
    mine = ModelFactory()
    other, _ = _run(
        _options(tmp_path, quiet=True, num_tasks=1, out=str(tmp_path / "b")), models=mine
    )
    assert other.models is mine


def test_the_provenance_of_a_session_names_each_roles_provider_model_and_endpoint(
    tmp_path: Path,
) -> None:
    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    options = _options(
        tmp_path, quiet=True, num_tasks=1, agent="llm", agent_model="gpt-x@http://127.0.0.1:9/v1"
    )
    with pytest.raises(Stop):  # stopped once the store is open, before any unit
        _run(options, on_ready=stop)
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as conn:
        (provenance,) = conn.execute("SELECT provenance_json FROM sessions").fetchone()
    agent = json.loads(provenance)["models"]["agent"]
    assert (agent["model"], agent["endpoint"]) == ("gpt-x", "http://127.0.0.1:9/v1")


def test_on_ready_runs_after_the_store_opened_and_the_run_is_closed_after(
    tmp_path: Path,
) -> None:
    seen: list[bool] = []
    options = _options(tmp_path, quiet=True, num_tasks=1)
    _run(options, on_ready=lambda: seen.append((tmp_path / "run" / "run.sqlite").exists()))
    assert seen == [True]


# ------------------------------------------------------------------ one unit's reward


class Grader:
    def __init__(self, basis: str, reward: float = 1.0, error: Exception | None = None) -> None:
        self.basis, self.reward, self.error = basis, reward, error

    async def evaluate(self, task: Any, sim: Any) -> BasisResult:
        if self.error is not None:
            raise self.error
        return BasisResult(basis=self.basis, reward=self.reward, score=self.reward)


def _evaluate(graders: dict[str, Grader], bases: list[str], **kwargs: Any) -> Evaluation:
    sim = simulation(WorkUnit("t", 0, 1))
    return asyncio.run(evaluate(object(), sim, graders, bases, **kwargs))


def test_the_reward_is_the_product_of_the_bases() -> None:
    got = _evaluate(
        {"a": Grader("a", 0.5), "b": Grader("b", 0.5), "c": Grader("c", 0.0)}, ["a", "b"]
    )
    assert got.reward == 0.25 and got.basis == "a+b" and got.error is None
    assert sorted(got.by_basis) == ["a", "b", "c"]  # the other bases are kept for display


@pytest.mark.parametrize(
    "error",
    [JudgeError("no verdict", Usage.zero()), InfrastructureError("judge endpoint down")],
    ids=["judge", "infrastructure"],
)
def test_a_grader_that_fails_makes_the_evaluation_an_error_naming_it(error: Exception) -> None:
    got = _evaluate({"a": Grader("a", 1.0), "b": Grader("b", error=error)}, ["a", "b"])
    assert got.reward == 0.0 and got.basis == "a+b"
    assert got.error == f"evaluation failed: b: {error}"
    assert got.by_basis["a"].reward == 1.0
    assert got.by_basis["b"].reward == 0.0 and got.by_basis["b"].note == f"failed: {error}"


def test_every_failing_grader_is_named() -> None:
    graders = {
        "a": Grader("a", error=JudgeError("first", Usage.zero())),
        "b": Grader("b", error=InfrastructureError("second")),
    }
    got = _evaluate(graders, ["a", "b"])
    assert got.error == "evaluation failed: a: first; b: second"


def test_a_basis_no_grader_computed_is_named() -> None:
    got = _evaluate({"a": Grader("a")}, ["a", "x", "y"])
    assert got.reward == 0.0 and got.basis == "a+x+y"
    assert got.error == "evaluation failed: bases not computed: x, y"


def test_a_fatal_provider_error_or_a_bug_of_a_grader_propagates() -> None:
    with pytest.raises(FatalProviderError, match="key revoked"):
        _evaluate({"a": Grader("a", error=FatalProviderError("key revoked", status=401))}, ["a"])
    with pytest.raises(ValueError, match="bug"):
        _evaluate({"a": Grader("a", error=ValueError("bug"))}, ["a"])


def test_regrading_keeps_the_bases_of_the_previous_evaluation_not_recomputed() -> None:
    previous = Evaluation(
        reward=0.5,
        basis="a+b",
        by_basis={
            "a": BasisResult(basis="a", reward=0.5, score=0.5),
            "b": BasisResult(basis="b", reward=0.0, score=0.0),
        },
    )
    got = _evaluate({"b": Grader("b", 1.0)}, ["a", "b"], previous=previous)
    assert got.reward == 0.5 and got.error is None
    assert got.by_basis["a"].reward == 0.5 and got.by_basis["b"].reward == 1.0
    assert previous.by_basis["b"].reward == 0.0  # the previous evaluation is left as it was


# ------------------------------------------------------------------ limits and names


def test_workers_must_be_one_to_the_most() -> None:
    assert ExecutionPlan(workers=1).workers == 1
    assert ExecutionPlan(workers=1024).workers == 1024
    for bad in (0, 1025):
        with pytest.raises(InputError) as caught:
            ExecutionPlan(workers=bad)
        assert caught.value.field == "--workers"
        assert f"must be 1 to 1024, got {bad}" in str(caught.value)


def test_a_run_of_more_units_than_the_most_is_refused_naming_the_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from lifebench.suites import RunOptions

    tasks = [SimpleNamespace(id=i) for i in ("a", "b")]
    monkeypatch.setattr(experiment, "MAX_UNITS", 4)
    assert len(plan_units(tasks, RunOptions(trials=2))) == 4  # the most is allowed
    with pytest.raises(InputError) as caught:
        plan_units(tasks, RunOptions(trials=3))
    assert caught.value.field == "--trials"
    assert "2 tasks × 3 trials = 6 units, more than the 4 one run takes; select fewer tasks" in str(
        caught.value
    )
    with pytest.raises(InputError, match="= 8 units"):  # user seeds multiply the units
        plan_units(tasks, RunOptions(trials=1, user_seeds=4))


def test_the_default_run_directory_names_the_run_and_its_config() -> None:
    options = make_run_options({"task_set": "demo", "domain": "delivery"})
    expected = f"vita-delivery-oracle-scripted-{options.config_hash()[:10]}"
    assert default_run_dir(options) == Path("runs") / expected


def test_a_run_without_out_goes_to_the_default_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    exp = build_experiment(make_run_options({"task_set": "demo", "num_tasks": 1}))
    assert exp.run_dir == default_run_dir(exp.options)
    assert exp.run_dir.name.startswith("vita-delivery-")  # the domain resolved first


def test_the_grading_description_names_evaluator_judge_bases_and_options() -> None:
    options = make_run_options({"task_set": "demo"})
    assert grading_description(options, ("state",)) == {
        "evaluator": "state",
        "judge_model": None,
        "bases": ["state"],
        "suite_options": {
            "judge_variant": "sliding",
            "window": 10,
            "overlap": 2,
            "rubric_dedup": "paraphrase",
        },
    }


def test_a_grading_description_without_suite_options_has_an_empty_mapping() -> None:
    class Options:
        evaluator = "rubric"

        def semantic_dict(self) -> dict[str, Any]:
            return {"judge_model": "j@http://x/v1", "suite_options": None}

    assert grading_description(Options(), ["rubric"]) == {  # type: ignore[arg-type]
        "evaluator": "rubric",
        "judge_model": "j@http://x/v1",
        "bases": ["rubric"],
        "suite_options": {},
    }


# ------------------------------------------------------------------ backends and processes


def test_the_backend_of_each_plan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lifebench.runner import _ray
    from lifebench.runner._workers import ProcessBackend

    exp = build_experiment(_options(tmp_path, concurrency=3, num_tasks=2))
    assert experiment._backend(exp, ExecutionPlan()) is None
    pool = object()
    backend = experiment._backend(exp, ExecutionPlan(workers=4), pool)
    assert isinstance(backend, ProcessBackend)
    assert (backend._workers, backend._concurrency) == (4, 3)
    assert backend._local is exp and backend._pool is pool
    assert backend._factory == ExperimentExecutorFactory.of(exp)

    made: list[tuple[Any, ...]] = []
    monkeypatch.setattr(_ray, "RayBackend", lambda *args: made.append(args) or "ray")
    plan = ExecutionPlan(backend="ray", workers=2, ray_address="ray://h:1", ray_init={"x": 1})
    assert experiment._backend(exp, plan) == "ray"
    assert made == [(ExperimentExecutorFactory.of(exp), 2, 3, "ray://h:1", {"x": 1})]


class FakePool:
    made: ClassVar[list[tuple[int, str]]] = []
    closed: ClassVar[list[int]] = []

    def __init__(self, count: int, suite: str = "") -> None:
        self.count = count
        FakePool.made.append((count, suite))

    def close(self) -> None:
        FakePool.closed.append(self.count)


@pytest.mark.parametrize(
    ("plan", "values", "spawned"),
    [
        (ExecutionPlan(workers=4), {"num_tasks": 2}, [(1, "vita")]),
        (ExecutionPlan(workers=4), {"num_tasks": 9}, [(3, "vita")]),
        (ExecutionPlan(workers=2), {}, [(1, "vita")]),
        (ExecutionPlan(workers=4), {"num_tasks": 1}, []),
        (ExecutionPlan(workers=1), {}, []),
        (ExecutionPlan(backend="ray", workers=4), {}, []),
    ],
    ids=["units-bound", "workers-bound", "two", "one-unit", "one-worker", "ray"],
)
def test_worker_processes_are_spawned_ahead_for_local_runs_and_always_stopped(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    plan: ExecutionPlan,
    values: dict[str, Any],
    spawned: list[tuple[int, str]],
) -> None:
    from lifebench.runner import _workers

    FakePool.made, FakePool.closed = [], []
    monkeypatch.setattr(_workers, "WorkerPool", FakePool)
    got: list[Any] = []

    async def fake_run(
        options: Any, models: Any, progress: Any, plan_: Any, on_ready: Any, pool: Any
    ) -> Any:
        got.append((plan_, pool))
        raise InputError("stopped early")

    monkeypatch.setattr(experiment, "_run_experiment", fake_run)
    with pytest.raises(InputError, match="stopped early"):
        asyncio.run(run_experiment(_options(tmp_path, **values), plan=plan))
    assert FakePool.made == spawned
    assert FakePool.closed == [count for count, _ in spawned]
    assert got[0][0] is plan and (got[0][1] is None) == (not spawned)


def test_a_run_without_a_plan_runs_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    got: list[Any] = []

    async def fake_run(
        options: Any, models: Any, progress: Any, plan: Any, on_ready: Any, pool: Any
    ) -> Any:
        got.append((plan, pool))
        return "exp", "summary"

    monkeypatch.setattr(experiment, "_run_experiment", fake_run)
    assert asyncio.run(run_experiment(_options(tmp_path))) == ("exp", "summary")
    assert got == [(ExecutionPlan(), None)]


def test_the_executor_factory_rebuilds_the_experiment_elsewhere(tmp_path: Path) -> None:
    exp = build_experiment(_options(tmp_path, num_tasks=2, trials=2))
    factory = pickle.loads(pickle.dumps(ExperimentExecutorFactory.of(exp)))
    assert factory.run_dir == str(tmp_path / "run")
    assert sorted(factory.task_data) == DEMO_TASKS[:2]
    rebuilt = factory()
    assert rebuilt.units == exp.units and rebuilt.run_dir == exp.run_dir
    assert rebuilt.options == exp.options and rebuilt.bases == exp.bases
    assert {i: t.model_dump() for i, t in rebuilt.tasks.items()} == {
        i: t.model_dump() for i, t in exp.tasks.items()
    }
    assert list(rebuilt.evaluators) == list(exp.evaluators)
    # the run directory does not exist here: a worker elsewhere runs without the call cache
    assert rebuilt.models.cache is None
    (tmp_path / "run").mkdir()
    assert factory().models.cache is not None
    asyncio.run(rebuilt.aclose())


def test_the_call_cache_lives_in_the_run_directory_unless_turned_off(tmp_path: Path) -> None:
    exp = build_experiment(_options(tmp_path, num_tasks=1))
    assert exp.models.cache is not None
    assert Path(exp.models.cache.path) == tmp_path / "run" / "model_cache.sqlite"
    assert build_experiment(_options(tmp_path, num_tasks=1, cache=False)).models.cache is None


def test_a_retrying_call_is_shown_while_it_waits() -> None:
    class Shown:
        def __init__(self) -> None:
            self.deltas: list[int] = []

        def retrying(self, delta: int) -> None:
            self.deltas.append(delta)

    shown = Shown()
    sleep = experiment._observed_sleep(shown)  # type: ignore[arg-type]
    asyncio.run(sleep(0))
    assert shown.deltas == [1, -1]

    async def cancelled() -> None:
        task = asyncio.ensure_future(sleep(3600))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancelled())
    assert shown.deltas == [1, -1, 1, -1]


def test_a_task_file_nested_too_deeply_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        build_experiment(make_run_options({"tasks_file": str(path), "domain": "delivery"}))
    assert "nested too deeply" in str(caught.value)
    assert caught.value.file == str(path)


def test_a_models_file_nested_too_deeply_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        build_experiment(_options(tmp_path, models_file=str(path)))
    assert "nested too deeply" in str(caught.value)
    assert caught.value.file == str(path)


def test_an_unknown_model_of_a_role_is_refused_naming_its_flag(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        build_experiment(_options(tmp_path, agent="llm", agent_model="no-such-model"))
    assert caught.value.field == "--agent-model"
