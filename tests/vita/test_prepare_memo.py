"""The state grader's task reading remembered per task (lifebench.vita._prepared): the same
results as computing it every time, never one task's reading for another, one memo per run."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from lifebench.simulation import Simulation, TerminationReason
from lifebench.suites import get_suite
from lifebench.suites._registry import ModelResolver
from lifebench.vita._prepared import PrepareMemo, copy_prepared, memoise_prepare
from lifebench.vita.domains.registry import domain_spec, resolve
from lifebench.vita.grading.state import OrderStateEvaluator
from lifebench.vita.loader import available_bundled_tasks, load_bundled_tasks
from lifebench.vita.task import VitaTask

PAIRS = [pair for pair in available_bundled_tasks("generated")]


def _tasks(domain: str, language: str, n: int = 6) -> list[VitaTask]:
    return load_bundled_tasks(domain, language, "generated")[:n]


def _finals(task: VitaTask) -> list[dict[str, Any]]:
    """Final worlds: nothing done; every pre-existing order cancelled; every expected record
    created as a new order (the matcher compares them with the requirements)."""
    untouched = copy.deepcopy(dict(task.environment))
    cancelled = copy.deepcopy(untouched)
    for record in (cancelled.get("orders") or {}).values():
        record["status"] = "cancelled"
    created = copy.deepcopy(untouched)
    criteria = task.evaluation_criteria
    for state in criteria.expected_states if criteria is not None else []:
        for i, record in enumerate(copy.deepcopy(state.required_orders)):
            if isinstance(record, dict):
                created.setdefault("orders", {})[f"NEW{i}"] = {**record, "order_id": f"NEW{i}"}
    return [untouched, cancelled, created]


def _simulation(task: VitaTask, final: dict[str, Any]) -> Simulation:
    return Simulation(
        task_id=task.id,
        trial=0,
        seed=0,
        termination=TerminationReason.AGENT_STOP,
        final_state=final,
    )


def test_bundled_tasks_cover_both_languages() -> None:
    assert {lang for _, lang in PAIRS} >= {"en", "zh"}


@pytest.mark.parametrize(("domain", "language"), PAIRS)
def test_memoised_grading_equals_grading_afresh(domain: str, language: str) -> None:
    tasks = _tasks(domain, language)
    factory = resolve(domain_spec(domain).evaluator)
    memoised = memoise_prepare(factory())
    # every task twice, interleaved (hits come after other tasks' readings)
    for task in [*tasks, *reversed(tasks), *tasks]:
        for final in _finals(task):
            want = factory().grade(task, _simulation(task, final))
            got = memoised.grade(task, _simulation(task, final))
            assert got.model_dump() == want.model_dump(), task.id


def _counting(calls: list[str]) -> Any:
    """A plain evaluator's prepare that notes the id of each task it reads."""
    evaluator = OrderStateEvaluator()

    def prepare(task: Any) -> Any:
        calls.append(task.id)
        return evaluator.prepare(task)

    return prepare


def test_the_reading_is_computed_once_per_task_object() -> None:
    tasks = _tasks("delivery", "en", 3)
    calls: list[str] = []
    prepare = _counting(calls)
    memo = PrepareMemo(prepare)
    for task in [*tasks, *tasks, *tasks]:
        assert memo(task) == OrderStateEvaluator().prepare(task)
    assert calls == [t.id for t in tasks]
    # another object with the same content is another task for the memo (never assumed equal)
    twin = VitaTask.model_validate(tasks[0].model_dump())
    memo(twin)
    assert calls[-1] == twin.id and len(calls) == len(tasks) + 1


def test_no_task_gets_another_tasks_reading() -> None:
    en = _tasks("delivery", "en", 4)
    zh = _tasks("delivery", "zh", 4)
    evaluator = memoise_prepare(OrderStateEvaluator())
    for task in [*en, *zh, *en, *zh]:
        assert evaluator.prepare(task) == OrderStateEvaluator().prepare(task)


def test_a_caller_that_edits_its_copy_changes_nothing_for_the_next() -> None:
    task = _tasks("delivery", "en", 1)[0]
    evaluator = memoise_prepare(OrderStateEvaluator())
    first = evaluator.prepare(task)
    want = copy.deepcopy(first)
    reqs, unchecked, coverage, attribution = first
    reqs.clear()
    unchecked.append("attribute: made up")
    coverage.setdefault("note", Counter())["checked"] += 7
    for stated in attribution.by_key.values():
        stated.clear()
    attribution.unattributed.append(attribution.unattributed[0] if attribution.unattributed else 1)
    assert evaluator.prepare(task) == want


def test_copy_prepared_copies_every_container() -> None:
    task = _tasks("delivery", "zh", 1)[0]
    prepared = OrderStateEvaluator().prepare(task)
    copied = copy_prepared(prepared)
    assert copied == prepared
    for a, b in zip(copied[:3], prepared[:3], strict=True):
        assert a is not b
    assert copied[3] is not prepared[3]
    assert copied[3].unattributed is not prepared[3].unattributed
    for key, stated in copied[3].by_key.items():
        assert stated is not prepared[3].by_key[key]
    for field, counts in copied[2].items():
        assert counts is not prepared[2][field]


def test_the_memo_is_bounded_and_drops_the_oldest() -> None:
    tasks = _tasks("delivery", "en", 3)
    calls: list[str] = []
    prepare = _counting(calls)
    memo = PrepareMemo(prepare, size=2)
    memo(tasks[0])
    memo(tasks[1])
    memo(tasks[0])  # most recent now: tasks[1] is the oldest
    memo(tasks[2])
    assert len(memo) == 2
    memo(tasks[0])
    memo(tasks[1])
    assert calls == [tasks[0].id, tasks[1].id, tasks[2].id, tasks[1].id]


def test_each_run_has_its_own_memo() -> None:
    import lifebench.runner._experiment  # noqa: F401  (binds get_suite by name)
    from lifebench.suites import RunOptions

    suite = get_suite("vita")
    options = RunOptions(suite="vita", domain="delivery", agent="oracle", user="scripted")
    models: ModelResolver = lambda spec: None  # noqa: E731  (no model is resolved)
    one = suite.build_evaluators(options, models)["state"]
    two = suite.build_evaluators(options, models)["state"]
    assert isinstance(one.__dict__["prepare"], PrepareMemo)
    assert one.__dict__["prepare"] is not two.__dict__["prepare"]
    task = _tasks("delivery", "en", 1)[0]
    one.prepare(task)
    assert len(one.__dict__["prepare"]) == 1 and len(two.__dict__["prepare"]) == 0


def test_one_matcher_per_task() -> None:
    en, zh = _tasks("delivery", "en", 2), _tasks("delivery", "zh", 1)
    evaluator = memoise_prepare(OrderStateEvaluator())
    matchers = [evaluator.matcher(t) for t in [*en, *zh]]
    assert [m.task for m in matchers] == [*en, *zh]
    assert evaluator.matcher(en[0]) is matchers[0]
    assert len({id(m) for m in matchers}) == 3


def test_memoising_twice_keeps_one_memo_and_reaches_cross_parts() -> None:
    evaluator = memoise_prepare(OrderStateEvaluator())
    memo = evaluator.__dict__["prepare"]
    assert memoise_prepare(evaluator).__dict__["prepare"] is memo
    cross = memoise_prepare(resolve(domain_spec("cross").evaluator)())
    for part in cross._parts.values():
        assert isinstance(part.__dict__["prepare"], PrepareMemo)
    plain = object()
    assert memoise_prepare(plain) is plain
