"""More mutation guards for ``lifebench.runner._experiment`` (issue 21, session 32): what one
unit's outcome says when its episode failed (an infrastructure error, re-run on resume, or a
request the provider refused for its content, not re-run), and the selection messages.

The experiment is the offline demo (VitaBench delivery tasks, the oracle agent); where an
episode must fail, the episode loop is replaced by one that returns the failed simulation."""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest

import lifebench.runner._experiment as experiment
from lifebench.errors import InputError
from lifebench.evaluation import JudgeError
from lifebench.messages import Usage
from lifebench.runner import Progress, WorkUnit
from lifebench.runner._experiment import ExecutionPlan, build_experiment, run_experiment
from lifebench.simulation._types import Simulation, TerminationReason
from lifebench.suites import make_run_options

WAIT_S = 30.0  # a generous bound for what must happen (never reached when it works)


def _options(tmp_path: Path, **values: Any) -> Any:
    return make_run_options({"task_set": "demo", "out": str(tmp_path / "run"), **values})


def _failed(unit: WorkUnit, error: str, **info: Any) -> Simulation:
    return Simulation(
        task_id=unit.task_id,
        trial=unit.trial,
        seed=unit.seed,
        termination=TerminationReason.INFRASTRUCTURE_ERROR,
        error=error,
        info=info,
    )


def _execute(exp: Any, unit: WorkUnit) -> Any:
    async def run() -> Any:
        try:
            return await exp.execute(unit)
        finally:
            await exp.aclose()

    return asyncio.run(run())


@pytest.mark.parametrize(
    ("error", "info", "rejected"),
    [
        ("ProviderError: 503 upstream unavailable", {}, False),
        ("ProviderError: 503 上游服务不可用", {"content_rejected": False}, False),
        ("ContentRejectedError: request too large", {"content_rejected": True}, True),
        ("ContentRejectedError: 内容被拒绝", {"content_rejected": "yes"}, True),
    ],
    ids=["infra-en", "infra-zh-flag-false", "rejected-en", "rejected-zh-truthy"],
)
def test_a_failed_episode_is_an_ungraded_infra_error_or_a_rejection_keeping_its_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: str,
    info: dict[str, Any],
    rejected: bool,
) -> None:
    exp = build_experiment(_options(tmp_path, num_tasks=1))
    (unit,) = exp.units
    graded: list[Any] = []

    async def failed_episode(episode: Any) -> Simulation:
        return _failed(unit, error, **info)

    async def evaluate(*args: Any, **kwargs: Any) -> Any:
        graded.append(args)
        raise AssertionError("a failed episode is not graded")

    monkeypatch.setattr(experiment, "run_episode", failed_episode)
    monkeypatch.setattr(experiment, "evaluate", evaluate)
    got = _execute(exp, unit)
    assert graded == []
    assert got.evaluation is None and got.error == error
    assert (got.infra, got.rejected) == (not rejected, rejected)
    assert got.simulation.termination is TerminationReason.INFRASTRUCTURE_ERROR


# ------------------------------------------------------------------ processes spawned ahead


class CountingPool:
    """Stands in for the WorkerPool: records how many processes a run spawns ahead."""

    made: ClassVar[list[int]] = []

    def __init__(self, count: int, suite: str = "") -> None:
        self.count = count
        CountingPool.made.append(count)

    def close(self) -> None:
        return None


@pytest.mark.parametrize(
    ("values", "spawned"),
    [
        ({"num_tasks": 1, "trials": 3}, [2]),  # 3 units, 4 workers: the writer and two
        ({"num_tasks": 1, "trials": 2, "user_seeds": 3}, [3]),  # 6 units: every worker
        ({"num_tasks": 1, "user_seeds": 2}, [1]),
        ({"task_ids": ("LBD001_en", "LBD001_en"), "trials": 1}, []),  # one task, named twice
        ({"task_ids": ("LBD001_en", "LBD002_en", "LBD001_en")}, [1]),
        ({"num_tasks": 6, "task_ids": ("LBD001_en", "LBD002_en")}, [1]),  # the fewer counts
        ({"num_tasks": 2, "task_ids": ("LBD001_en", "LBD002_en", "LBD003_en")}, [1]),
    ],
    ids=[
        "trials",
        "trials-and-user-seeds",
        "user-seeds",
        "duplicate-id",
        "duplicate-among-two",
        "ids-fewer",
        "num-tasks-fewer",
    ],
)
def test_processes_spawned_ahead_are_as_many_as_the_units_the_options_allow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, values: dict[str, Any], spawned: list[int]
) -> None:
    from lifebench.runner import _workers

    CountingPool.made = []
    monkeypatch.setattr(_workers, "WorkerPool", CountingPool)

    async def stopped(*args: Any) -> Any:
        raise InputError("stopped before the run")

    monkeypatch.setattr(experiment, "_run_experiment", stopped)
    with pytest.raises(InputError, match="stopped before the run"):
        asyncio.run(run_experiment(_options(tmp_path, **values), plan=ExecutionPlan(workers=4)))
    assert CountingPool.made == spawned


# ------------------------------------------------------------------ the suite's warm-up


@pytest.fixture
def warm_ups(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The task ids each warm-up of the VitaBench suite was given."""
    from lifebench.vita.suite import VitaSuite

    calls: list[list[str]] = []
    monkeypatch.setattr(
        VitaSuite, "warm_up", lambda self, options, tasks: calls.append([t.id for t in tasks])
    )
    return calls


def _closing(exp: Any) -> list[str]:
    closed: list[str] = []
    inner = exp.models.aclose

    async def aclose() -> None:
        closed.append("models")
        await inner()

    exp.models.aclose = aclose
    return closed


def test_the_warm_up_runs_once_per_event_loop_and_is_awaited_before_the_models_close(
    tmp_path: Path, warm_ups: list[list[str]]
) -> None:
    exp = build_experiment(_options(tmp_path, num_tasks=2, trials=2))
    closed = _closing(exp)

    async def run(units: list[WorkUnit]) -> list[Any]:
        try:
            return [await exp.execute(u) for u in units]
        finally:
            await exp.aclose()

    first = asyncio.run(run(exp.units))
    assert [o.evaluation.reward for o in first] == [1.0] * 4
    assert warm_ups == [["LBD001_en", "LBD002_en"]]  # once for the four units
    assert closed == ["models"]
    asyncio.run(run(exp.units[:1]))  # another event loop (a worker's): warmed again, once
    assert warm_ups == [["LBD001_en", "LBD002_en"]] * 2
    assert closed == ["models", "models"]


def test_closing_an_experiment_that_ran_no_unit_closes_its_models_and_warms_nothing(
    tmp_path: Path, warm_ups: list[list[str]]
) -> None:
    exp = build_experiment(_options(tmp_path, num_tasks=1))
    closed = _closing(exp)
    asyncio.run(exp.aclose())
    assert closed == ["models"] and warm_ups == []


def test_closing_waits_for_the_warm_up_before_it_closes_the_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.vita.suite import VitaSuite

    started, release, finished = threading.Event(), threading.Event(), threading.Event()

    def warm_up(self: Any, options: Any, tasks: Any) -> None:
        started.set()
        assert release.wait(WAIT_S)
        finished.set()

    monkeypatch.setattr(VitaSuite, "warm_up", warm_up)
    exp = build_experiment(_options(tmp_path, num_tasks=1))
    seen: list[bool] = []
    inner = exp.models.aclose

    async def aclose() -> None:
        seen.append(finished.is_set())  # the warm-up is over when the models close
        await inner()

    exp.models.aclose = aclose

    async def run() -> None:
        await exp.execute(exp.units[0])
        assert await asyncio.to_thread(started.wait, WAIT_S)
        release.set()
        await exp.aclose()

    asyncio.run(run())
    assert seen == [True]


# ------------------------------------------------------------------ input problems


def test_bundled_tasks_nested_too_deeply_are_refused_naming_the_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def too_deep(*args: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(experiment, "load_run_tasks", too_deep)
    with pytest.raises(InputError) as caught:
        build_experiment(_options(tmp_path))
    assert caught.value.file == "(bundled tasks)"
    assert "the JSON is nested too deeply to read (hundreds of levels); is it a task file?" in str(
        caught.value
    )
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_an_unknown_model_of_a_role_is_refused_without_the_lookups_traceback(
    tmp_path: Path,
) -> None:
    with pytest.raises(InputError) as caught:
        build_experiment(_options(tmp_path, user="llm", user_model="没有这个模型"))
    assert caught.value.field == "--user-model" and "没有这个模型" in str(caught.value)
    # the flag's error replaces the lookup's: no "During handling of the above exception"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


# ------------------------------------------------------------------ replays only with user seeds


def test_a_unit_records_a_replay_position_only_in_a_run_with_user_seeds(tmp_path: Path) -> None:
    from lifebench.simulation._replay import REPLAY_KEY

    plain = build_experiment(_options(tmp_path / "plain", num_tasks=1, trials=2))
    outcomes = [_execute(plain, u) for u in plain.units]
    assert [o.simulation.seed for o in outcomes] == [u.seed for u in plain.units]
    assert all(REPLAY_KEY not in o.simulation.info for o in outcomes)

    replayed = build_experiment(_options(tmp_path / "replayed", num_tasks=1, user_seeds=2))
    first, second = (_execute(replayed, u) for u in replayed.units)
    assert first.simulation.info[REPLAY_KEY]["user_seed"] == 0
    assert second.simulation.info[REPLAY_KEY]["user_seed"] == 1
    assert second.simulation.info[REPLAY_KEY]["agent_trial"] == 0


# ------------------------------------------------------------------ failed gradings graded again


class SlowFailingSuite:
    """The VitaBench suite whose graders fail for ``failing`` tasks after a few turns of the
    event loop, recording how many such gradings were in progress at once."""

    def __init__(self, inner: Any, failing: set[str]) -> None:
        self._inner, self.failing = inner, failing
        self.in_flight = self.peak = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def build_evaluators(self, options: Any, models: Any) -> dict[str, Any]:
        suite = self

        class Grader:
            def __init__(self, inner: Any) -> None:
                self.inner = inner

            async def evaluate(self, task: Any, sim: Any) -> Any:
                if task.id not in suite.failing:
                    return await self.inner.evaluate(task, sim)
                suite.in_flight += 1
                suite.peak = max(suite.peak, suite.in_flight)
                for _ in range(5):
                    await asyncio.sleep(0)
                suite.in_flight -= 1
                raise JudgeError("评审没有给出可用的答案 (no usable answer)", Usage.zero())

        built = self._inner.build_evaluators(options, models)
        return {name: Grader(e) for name, e in built.items()}


def test_failed_gradings_are_graded_again_as_many_at_once_as_the_concurrency_allows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lifebench.suites import get_suite

    failing = {"LBD001_en", "LBD003_en", "LBD004_en", "LBD006_en"}
    suite = SlowFailingSuite(get_suite("vita"), failing)
    monkeypatch.setattr(experiment, "get_suite", lambda name: suite)
    options = _options(tmp_path, quiet=True, concurrency=3)
    asyncio.run(run_experiment(options, progress=Progress(quiet=True)))
    suite.peak = 0
    _, again = asyncio.run(run_experiment(options, progress=Progress(quiet=True)))
    assert (again.done, again.regraded, again.grading_errors) == (0, 4, 4)
    assert suite.peak == 3  # --concurrency 3: three of the four at once, never four


@pytest.mark.parametrize(
    "problem", ["holiday data unreadable", "节假日数据无法读取"], ids=["english", "chinese"]
)
def test_a_failing_warm_up_is_logged_naming_the_suite_and_the_problem(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    problem: str,
) -> None:
    from lifebench.vita.suite import VitaSuite

    def broken(self: Any, options: Any, tasks: Any) -> None:
        raise OSError(problem)

    monkeypatch.setattr(VitaSuite, "warm_up", broken)
    exp = build_experiment(_options(tmp_path, num_tasks=1))
    with caplog.at_level(logging.WARNING, logger="lifebench.runner._experiment"):
        got = _execute(exp, exp.units[0])
    assert got.evaluation.reward == 1.0  # the unit is unaffected
    warnings = [r for r in caplog.records if r.name == "lifebench.runner._experiment"]
    assert [(r.levelno, r.getMessage()) for r in warnings] == [
        (logging.WARNING, f"the vita suite's warm-up failed: {problem}")
    ]
