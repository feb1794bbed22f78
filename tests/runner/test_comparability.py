"""Whether two runs may be compared: every difference named, each classified.

Each case changes one thing of a run (a near miss of the reference) and expects exactly one
difference, with its aspect and whether it breaks comparability."""

from __future__ import annotations

import asyncio
import hashlib
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from lifebench.runner import RunStore, comparability
from lifebench.runner._provenance import (
    ModelInfo,
    Provenance,
    RunFacts,
    collect,
    compare_facts,
    facts_from,
    file_info,
    grader_version,
    incomparable,
    tasks_hash,
)

CONFIG: dict[str, Any] = {
    "suite": "vita",
    "domain": "delivery",
    "agent": "llm",
    "agent_model": "agent-a",
    "user": "llm",
    "user_model": "user-m",
    "judge_model": "judge-m",
    "tool_model": None,
    "evaluator": "both",
    "bases": ["state", "rubric"],
    "language": "en",
    "max_steps": 300,
    "max_errors": 10,
    "temperature": 0.0,
    "seed": 300,
    "trials": 4,
    "task_set": "auto",
    "task_ids": [],
    "num_tasks": None,
    "tasks_file": "/data/tasks_en.json",
    "suite_options": {"judge_variant": "sliding", "window": 10, "overlap": 2},
}
TASKS = {"t1": "h1", "t2": "h2", "t3": "h3"}
GRADERS = {"state": "vita.grading.state:1", "rubric": "vita.grading.rubric:1"}


def _provenance(**changes: Any) -> Provenance:
    base: dict[str, Any] = {
        "lifebench_version": "0.2.0",
        "git_commit": "a" * 40,
        "git_dirty": False,
        "packages": {"python": "3.11.7", "pydantic": "2.14.4", "holidays": "0.109"},
        "tasks": 3,
        "tasks_hash": tasks_hash(TASKS),
        "graders": dict(GRADERS),
        "models": {
            "agent": ModelInfo(spec="agent-a", model="gpt-a"),
            "user": ModelInfo(spec="user-m", model="gpt-u"),
            "judge": ModelInfo(spec="judge-m", model="gpt-j"),
        },
        "kinds": {"agent": "llm", "user": "llm", "evaluator": "both"},
    }
    base.update(changes)
    return Provenance(**base)


def _facts(
    config: dict[str, Any] | None = None,
    tasks: dict[str, str] | None = None,
    session: Provenance | None = None,
    gradings: list[tuple[dict[str, Any], Provenance | None]] | None = None,
    mixed: bool = False,
    sessions: list[Provenance | None] | None = None,
) -> RunFacts:
    cfg = {**CONFIG, **(config or {})}
    prov = session or _provenance()
    parts = gradings if gradings is not None else [({"bases": cfg["bases"]}, prov)]
    return facts_from(cfg, tasks or dict(TASKS), sessions or [prov], parts, mixed)


REFERENCE = _facts()


def _only(difference_of: RunFacts) -> tuple[str, bool]:
    diffs = compare_facts(REFERENCE, difference_of)
    assert len(diffs) == 1, [d.detail for d in diffs]
    return diffs[0].aspect, diffs[0].comparable


def test_the_same_run_and_another_agent_are_comparable() -> None:
    assert compare_facts(REFERENCE, REFERENCE) == []
    other_agent = _facts(
        {"agent_model": "agent-b", "agent": "llm"},
        session=_provenance(models={**_provenance().models, "agent": ModelInfo(spec="b")}),
    )
    assert compare_facts(REFERENCE, other_agent) == []  # the agent is what is compared
    moved = _facts({"tasks_file": "/elsewhere/tasks.json"})
    assert compare_facts(REFERENCE, moved) == []  # tasks are compared by content


@pytest.mark.parametrize(
    ("facts", "aspect", "comparable"),
    [
        (_facts({"suite": "travel"}), "suite", False),
        (_facts({"domain": "instore"}), "domain", False),
        (_facts(tasks={**TASKS, "t2": "h2-edited"}), "tasks", False),
        (_facts(tasks={"t1": "h1", "t2": "h2"}), "tasks", False),
        (_facts(tasks={**TASKS, "t4": "h4"}), "tasks", False),
        (_facts({"evaluator": "state", "bases": ["state", "rubric"]}), "evaluator", False),
        (_facts({"user": "dummy"}), "user simulator", False),
        (
            _facts(
                session=_provenance(
                    models={**_provenance().models, "user": ModelInfo(spec="user-m", model="x")}
                )
            ),
            "user simulator",
            False,
        ),
        (
            _facts(
                {"tool_model": "sim"},
                session=_provenance(models={**_provenance().models, "tool": ModelInfo(spec="sim")}),
            ),
            "tool simulator",
            False,
        ),
        (
            _facts(
                session=_provenance(
                    models={**_provenance().models, "judge": ModelInfo(spec="judge-m", model="j2")}
                )
            ),
            "judge",
            False,
        ),
        (_facts({"suite_options": {**CONFIG["suite_options"], "window": 8}}), "option", False),
        (_facts({"temperature": 0.7}), "option", False),
        (_facts({"language": "zh"}), "option", False),
        (_facts({"max_steps": 30}), "option", False),
        (_facts(mixed=True), "grading", False),
        (_facts({"seed": 1}), "seed", True),
        (_facts({"trials": 1}), "trials", True),
        (_facts(session=_provenance(lifebench_version="0.3.0")), "lifebench", True),
        (_facts(session=_provenance(git_commit="b" * 40)), "lifebench", True),
        (
            _facts(session=_provenance(packages={**_provenance().packages, "holidays": "0.2"})),
            "packages",
            True,
        ),
    ],
)
def test_each_difference_is_named_once_and_classified(
    facts: RunFacts, aspect: str, comparable: bool
) -> None:
    assert _only(facts) == (aspect, comparable)
    # and symmetrically
    back = compare_facts(facts, REFERENCE)
    assert [(d.aspect, d.comparable) for d in back] == [(aspect, comparable)]


def test_grader_versions_differing_unknown_or_mixed() -> None:
    newer = _provenance(graders={**GRADERS, "state": "vita.grading.state:3"})
    diffs = compare_facts(REFERENCE, _facts(gradings=[({"bases": CONFIG["bases"]}, newer)]))
    assert [(d.aspect, d.comparable, d.a, d.b) for d in diffs] == [
        ("grader", False, "vita.grading.state:1", "vita.grading.state:3")
    ]
    assert "state" in diffs[0].detail
    unknown = _facts(gradings=[({"bases": CONFIG["bases"]}, None)])
    diffs = compare_facts(REFERENCE, unknown)
    assert {(d.aspect, d.comparable) for d in diffs} == {("grader", True)}
    assert len(diffs) == 2 and all("not recorded for the second" in d.detail for d in diffs)
    mixed = _facts(
        gradings=[({"bases": CONFIG["bases"]}, _provenance()), ({"bases": ["state"]}, newer)],
        mixed=True,
    )
    aspects = [(d.aspect, d.comparable) for d in compare_facts(REFERENCE, mixed)]
    assert ("grader", False) in aspects and ("grading", False) in aspects
    assert incomparable(compare_facts(REFERENCE, mixed))


def test_a_run_resumed_by_another_version_is_noted() -> None:
    old, new = _provenance(lifebench_version="0.1.0"), _provenance()
    resumed = _facts(session=new, sessions=[old, new])
    diffs = compare_facts(REFERENCE, resumed)
    assert [(d.aspect, d.comparable) for d in diffs] == [("lifebench", True)]
    assert "resumed with other lifebench versions (0.1.0, 0.2.0)" in diffs[0].detail


def test_runs_without_provenance_compare_by_configuration() -> None:
    bare = facts_from(CONFIG, TASKS, [None], [({"bases": CONFIG["bases"]}, None)], False)
    assert bare.session is None
    other_judge = facts_from(
        {**CONFIG, "judge_model": "other@http://h/v1"},
        TASKS,
        [],
        [({"judge_model": "other@http://h/v1", "bases": CONFIG["bases"]}, None)],
        False,
    )
    aspects = {(d.aspect, d.comparable) for d in compare_facts(bare, other_judge)}
    assert ("judge", False) in aspects


def test_grader_version_reads_the_modules_behind_an_evaluator() -> None:
    base_mod = types.ModuleType("lbtest_base")
    base_mod.GRADER_VERSION = 3  # type: ignore[attr-defined]
    sub_mod = types.ModuleType("lbtest_sub")
    sub_mod.GRADER_VERSION = 1  # type: ignore[attr-defined]
    helper_mod = types.ModuleType("lbtest_helper")
    helper_mod.GRADER_VERSION = 7  # type: ignore[attr-defined]
    plain_mod = types.ModuleType("lbtest_plain")
    sys.modules.update(
        lbtest_base=base_mod, lbtest_sub=sub_mod, lbtest_helper=helper_mod, lbtest_plain=plain_mod
    )
    try:
        Base = type("Base", (), {"__module__": "lbtest_base"})
        Sub = type("Sub", (Base,), {"__module__": "lbtest_sub"})
        Helper = type("Helper", (), {"__module__": "lbtest_helper"})
        Plain = type("Plain", (), {"__module__": "lbtest_plain"})
        evaluator = Sub()
        assert grader_version(evaluator) == "lbtest_base:3+lbtest_sub:1"
        evaluator.judge = Helper()  # type: ignore[attr-defined]
        evaluator.other = Plain()  # type: ignore[attr-defined]
        assert grader_version(evaluator) == "lbtest_base:3+lbtest_helper:7+lbtest_sub:1"
        assert grader_version(Plain()) == "unversioned"
        stated = Plain()
        stated.grader_version = "custom-2"  # type: ignore[attr-defined]
        assert grader_version(stated) == "custom-2"
    finally:
        for name in ("lbtest_base", "lbtest_sub", "lbtest_helper", "lbtest_plain"):
            del sys.modules[name]


def test_every_builtin_evaluator_has_a_grader_version() -> None:
    from lifebench.suites import get_suite, make_run_options

    cases = [
        {"suite": "vita", "domain": d, "evaluator": "both", "judge_model": "j"}
        for d in ("delivery", "instore", "ota", "cross")
    ]
    cases += [
        {"suite": "travel", "evaluator": "judge", "judge_model": "j"},
        {
            "suite": "flow",
            "evaluator": "judge",
            "judge_model": "j",
            "suite_options": {"level": "session"},
        },
        {
            "suite": "flow",
            "evaluator": "judge",
            "judge_model": "j",
            "suite_options": {"level": "turn"},
        },
    ]

    class Models:
        def resolve(self, spec: str) -> Any:
            from lifebench.models import ScriptedModel

            return ScriptedModel(["x"], name=spec)

    for values in cases:
        options = make_run_options(values)
        evaluators = get_suite(options.suite).build_evaluators(options, Models())
        for basis, evaluator in evaluators.items():
            version = grader_version(evaluator)
            assert version != "unversioned", (values, basis)
            assert all(part.rsplit(":", 1)[1].isdigit() for part in version.split("+"))


def test_file_info_and_tasks_hash(tmp_path: Path) -> None:
    path = tmp_path / "tasks.json"
    path.write_bytes(b"[1, 2, 3]\n")
    info = file_info(str(path))
    assert info is not None
    assert (info.name, info.size) == ("tasks.json", 10)
    assert info.sha256 == hashlib.sha256(b"[1, 2, 3]\n").hexdigest()
    assert file_info(str(tmp_path)) is None and file_info(None) is None
    assert tasks_hash({"b": "2", "a": "1"}) == tasks_hash({"a": "1", "b": "2"})
    assert tasks_hash({"a": "1"}) != tasks_hash({"a": "2"})
    assert tasks_hash({"a": "1"}) != tasks_hash({"b": "1"})


def test_collect_reads_each_roles_model_through_its_wrapper() -> None:
    from lifebench.models import for_role
    from lifebench.suites import make_run_options

    class Model:
        name = "shown"
        model = "provider-id"
        base_url = "http://user:pw@host:1/v1?key=secret"

        async def generate(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError

    options = make_run_options({"agent_model": "a", "user_model": "u", "judge_model": "j"})
    p = collect(options, TASKS, {}, lambda spec: for_role(Model(), "agent"))  # type: ignore[arg-type]
    assert set(p.models) == {"agent", "user", "judge"}
    info = p.models["agent"]
    assert (info.spec, info.model, info.endpoint) == ("a", "provider-id", "http://***@host:1/v1")
    assert p.tasks_hash == tasks_hash(TASKS) and p.graders == {}

    def broken(spec: str) -> Any:
        raise RuntimeError("unknown")

    assert collect(options, TASKS, {}, broken).models["judge"].model is None


def test_comparability_of_two_stored_runs(tmp_path: Path) -> None:
    """Two real runs of the same tasks with different judges: not comparable, and why."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_run_transcript import _factory, _options

    from lifebench.runner import Progress
    from lifebench.runner._experiment import run_experiment

    a, b = tmp_path / "a", tmp_path / "b"
    asyncio.run(run_experiment(_options(a), models=_factory(), progress=Progress(quiet=True)))
    factory = _factory("judge-2")
    asyncio.run(
        run_experiment(
            _options(b, judge_model="judge-2", seed=5),
            models=factory,
            progress=Progress(quiet=True),
        )
    )
    with RunStore.read(a) as sa, RunStore.read(b) as sb:
        assert comparability(sa, sa) == []
        diffs = comparability(sa, sb)
    assert [(d.aspect, d.comparable) for d in diffs] == [("judge", False), ("seed", True)]
    assert diffs[0].detail == "judge: judge vs judge-2"
