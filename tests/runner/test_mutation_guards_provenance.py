"""Every difference between two runs in full — aspect, detail, both values, whether it breaks
comparability — for one near miss of each rule of :mod:`lifebench.runner._provenance` (the
printed refusal and notes are what a user reads; scripts/mutation.sh)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_comparability import CONFIG, GRADERS, REFERENCE, TASKS, _facts, _provenance

from lifebench.runner._provenance import (
    ModelInfo,
    RunFacts,
    comparability,
    compare_facts,
    compared_config,
    facts_from,
    incomparable,
)

MODELS = dict(_provenance().models)
NO_JUDGE = {k: v for k, v in MODELS.items() if k != "judge"}
AGENT_ONLY = {"agent": MODELS["agent"]}
NEWER = _provenance(graders={**GRADERS, "state": "vita.grading.state:3"})
MANY_A = {f"a{i}": "h" for i in range(7)} | {"s": "h"}
MANY_B = {f"b{i}": "h" for i in range(6)} | {"s": "h"}
EDITED = {k: "other" for k in MANY_A}
STATE = {"evaluator": "state", "bases": ["state"]}


CASES: dict[str, tuple[Callable[[], RunFacts], Callable[[], RunFacts], bool]] = {
    "suite": (lambda: REFERENCE, lambda: _facts({"suite": "travel"}), False),
    "domain": (lambda: REFERENCE, lambda: _facts({"domain": "instore"}), False),
    "contents": (lambda: REFERENCE, lambda: _facts(tasks={**TASKS, "t2": "h2-edited"}), False),
    "fewer-tasks": (lambda: REFERENCE, lambda: _facts(tasks={"t1": "h1", "t2": "h2"}), False),
    "more-tasks-shared": (lambda: REFERENCE, lambda: _facts(tasks={**TASKS, "t4": "h4"}), True),
    "both-sides-many": (lambda: _facts(tasks=MANY_A), lambda: _facts(tasks=MANY_B), True),
    "many-changed": (lambda: _facts(tasks=MANY_A), lambda: _facts(tasks=EDITED), False),
    "evaluator": (
        lambda: REFERENCE,
        lambda: _facts({"evaluator": "state", "bases": ["state"]}),
        False,
    ),
    "user-kind": (lambda: REFERENCE, lambda: _facts({"user": "dummy"}), False),
    "user-model": (
        lambda: REFERENCE,
        lambda: _facts(
            session=_provenance(models={**MODELS, "user": ModelInfo(spec="u", model="x")})
        ),
        False,
    ),
    "tool-model": (
        lambda: REFERENCE,
        lambda: _facts(
            {"tool_model": "sim"},
            session=_provenance(models={**MODELS, "tool": ModelInfo(spec="sim")}),
        ),
        False,
    ),
    "judge-model": (
        lambda: REFERENCE,
        lambda: _facts(
            session=_provenance(models={**MODELS, "judge": ModelInfo(spec="j", model="j2")})
        ),
        False,
    ),
    "no-judge": (
        lambda: _facts(session=_provenance(models=NO_JUDGE), config={"judge_model": None}),
        lambda: REFERENCE,
        False,
    ),
    "suite-option": (
        lambda: REFERENCE,
        lambda: _facts({"suite_options": {**CONFIG["suite_options"], "window": 8}}),
        False,
    ),
    "new-suite-option": (
        lambda: REFERENCE,
        lambda: _facts({"suite_options": {**CONFIG["suite_options"], "dedup": "on"}}),
        False,
    ),
    "temperature-judged": (lambda: REFERENCE, lambda: _facts({"temperature": 0.7}), False),
    "temperature-agent-only": (
        lambda: _facts(
            {"user": "dummy", "user_model": None, "judge_model": None, **STATE},
            session=_provenance(models=AGENT_ONLY),
            gradings=[({"bases": ["state"]}, _provenance(models=AGENT_ONLY))],
        ),
        lambda: _facts(
            {"user": "dummy", "user_model": None, "judge_model": None, "temperature": 0.5, **STATE},
            session=_provenance(models=AGENT_ONLY),
            gradings=[({"bases": ["state"]}, _provenance(models=AGENT_ONLY))],
        ),
        False,
    ),
    "language": (lambda: REFERENCE, lambda: _facts({"language": "zh"}), False),
    "mixed-second": (lambda: REFERENCE, lambda: _facts(mixed=True), False),
    "mixed-first": (lambda: _facts(mixed=True), lambda: REFERENCE, False),
    "seed-trials-user-seeds": (
        lambda: REFERENCE,
        lambda: _facts({"seed": 1, "trials": 2, "user_seeds": 3}),
        False,
    ),
    "lifebench": (
        lambda: REFERENCE,
        lambda: _facts(session=_provenance(lifebench_version="0.3.0")),
        False,
    ),
    "commit": (lambda: REFERENCE, lambda: _facts(session=_provenance(git_commit="b" * 40)), False),
    "commit-unknown": (
        lambda: _facts(session=_provenance(git_commit=None)),
        lambda: REFERENCE,
        False,
    ),
    "packages": (
        lambda: REFERENCE,
        lambda: _facts(
            session=_provenance(packages={"python": "3.11.7", "pydantic": "2.15", "numpy": "2"})
        ),
        False,
    ),
    "resumed-first": (
        lambda: _facts(sessions=[_provenance(lifebench_version="0.1.0"), _provenance()]),
        lambda: REFERENCE,
        False,
    ),
    "resumed-second": (
        lambda: REFERENCE,
        lambda: _facts(
            sessions=[
                _provenance(lifebench_version="0.1.0"),
                _provenance(lifebench_version="0.1.0"),
                _provenance(),
            ]
        ),
        False,
    ),
    "grader-version": (
        lambda: REFERENCE,
        lambda: _facts(gradings=[({"bases": CONFIG["bases"]}, NEWER)]),
        False,
    ),
    "grader-unknown-first": (
        lambda: _facts(gradings=[({"bases": CONFIG["bases"]}, None)]),
        lambda: REFERENCE,
        False,
    ),
    "grader-unknown-both": (
        lambda: _facts(gradings=[({"bases": ["state"]}, None)]),
        lambda: _facts(gradings=[({"bases": ["state"]}, None)]),
        False,
    ),
    "grader-several-first": (
        lambda: _facts(
            gradings=[({"bases": ["state"]}, _provenance()), ({"bases": ["state"]}, NEWER)],
            mixed=True,
        ),
        lambda: REFERENCE,
        False,
    ),
    "grader-several-second": (
        lambda: REFERENCE,
        lambda: _facts(
            gradings=[({"bases": ["state"]}, NEWER), ({"bases": ["state"]}, _provenance())],
            mixed=True,
        ),
        False,
    ),
    "graded-again": (
        lambda: REFERENCE,
        lambda: _facts(
            gradings=[
                (
                    {
                        "evaluator": "state",
                        "judge_model": None,
                        "bases": ["state"],
                        "suite_options": {"window": 8},
                    },
                    _provenance(models=NO_JUDGE),
                )
            ]
        ),
        False,
    ),
    "no-provenance": (
        lambda: facts_from(CONFIG, TASKS, [None], [({"bases": CONFIG["bases"]}, None)], False),
        lambda: facts_from(
            {**CONFIG, "judge_model": "other@http://h/v1", "user_model": "u2@http://h/v1"},
            TASKS,
            [],
            [({"judge_model": "other@http://h/v1", "bases": CONFIG["bases"]}, None)],
            False,
        ),
        False,
    ),
}


EXPECTED: dict[str, list[tuple[str, str, Any, Any, bool]]] = {
    "suite": [("suite", "suite: vita vs travel", "vita", "travel", False)],
    "domain": [("domain", "domain: delivery vs instore", "delivery", "instore", False)],
    "contents": [
        ("tasks", "different task contents: 1 task(s) with the same id differ (t2)", 1, 1, False)
    ],
    "fewer-tasks": [("tasks", "different task sets: 1 only in the first (t3)", 3, 2, False)],
    "more-tasks-shared": [
        (
            "tasks",
            "different task sets: 1 only in the second (t4) (compared on the 3 shared task(s))",
            3,
            4,
            True,
        )
    ],
    "both-sides-many": [
        (
            "tasks",
            "different task sets: 7 only in the first (a0, a1, a2, a3, a4 … and 2 "
            "more); 6 only in the second (b0, b1, b2, b3, b4 … and 1 more) (compared "
            "on the 1 shared task(s))",
            8,
            7,
            True,
        )
    ],
    "many-changed": [
        (
            "tasks",
            "different task contents: 8 task(s) with the same id differ (a0, a1, a2, "
            "a3, a4 … and 3 more)",
            8,
            8,
            False,
        )
    ],
    "evaluator": [
        ("evaluator", "evaluator both (state+rubric) vs state (state)", "both", "state", False)
    ],
    "user-kind": [("user simulator", "user simulator: llm vs dummy", "llm", "dummy", False)],
    "user-model": [("user simulator", "user simulator model: gpt-u vs x", "gpt-u", "x", False)],
    "tool-model": [("tool simulator", "tool simulator model: none vs sim", None, "sim", False)],
    "judge-model": [("judge", "judge: gpt-j vs j2", ["gpt-j"], ["j2"], False)],
    "no-judge": [("judge", "judge: none vs gpt-j", [], ["gpt-j"], False)],
    "suite-option": [("option", "--window: 10 vs 8", 10, 8, False)],
    "new-suite-option": [("option", '--dedup: null vs "on"', None, "on", False)],
    "temperature-judged": [
        ("option", "--temperature: 0.0 vs 0.7 (also the judge, user model's)", 0.0, 0.7, False)
    ],
    "temperature-agent-only": [
        (
            "option",
            "--temperature: 0.0 vs 0.5 (only the agent's: no other role is a model)",
            0.0,
            0.5,
            True,
        )
    ],
    "language": [("option", '--language: "en" vs "zh"', "en", "zh", False)],
    "mixed-second": [
        (
            "grading",
            "the second run's evaluations come from different gradings (run `lifebench "
            "eval` to grade every simulation alike)",
            False,
            True,
            False,
        )
    ],
    "mixed-first": [
        (
            "grading",
            "the first run's evaluations come from different gradings (run `lifebench "
            "eval` to grade every simulation alike)",
            True,
            False,
            False,
        )
    ],
    "seed-trials-user-seeds": [
        ("seed", "seed: 300 vs 1", 300, 1, True),
        ("trials", "trials: 4 vs 2", 4, 2, True),
        ("user_seeds", "user_seeds: 1 vs 3", 1, 3, True),
    ],
    "lifebench": [("lifebench", "lifebench 0.2.0 vs 0.3.0", "0.2.0", "0.3.0", True)],
    "commit": [
        (
            "lifebench",
            "lifebench 0.2.0 vs 0.2.0 (commit aaaaaaaaaaaa vs bbbbbbbbbbbb)",
            "0.2.0",
            "0.2.0",
            True,
        )
    ],
    "commit-unknown": [
        (
            "lifebench",
            "lifebench 0.2.0 vs 0.2.0 (commit unknown vs aaaaaaaaaaaa)",
            "0.2.0",
            "0.2.0",
            True,
        )
    ],
    "packages": [
        (
            "packages",
            "package versions: holidays 0.109 vs none, numpy none vs 2, pydantic 2.14.4 vs 2.15",
            {"holidays": "0.109", "numpy": None, "pydantic": "2.14.4"},
            {"holidays": None, "numpy": "2", "pydantic": "2.15"},
            True,
        )
    ],
    "resumed-first": [
        (
            "lifebench",
            "the first run was resumed with other lifebench versions (0.1.0, 0.2.0)",
            ["0.1.0", "0.2.0"],
            ["0.2.0"],
            True,
        )
    ],
    "resumed-second": [
        (
            "lifebench",
            "the second run was resumed with other lifebench versions (0.1.0, 0.2.0)",
            ["0.2.0"],
            ["0.1.0", "0.1.0", "0.2.0"],
            True,
        )
    ],
    "grader-version": [
        (
            "grader",
            "grader version of 'state': vita.grading.state:1 vs vita.grading.state:3",
            "vita.grading.state:1",
            "vita.grading.state:3",
            False,
        )
    ],
    "grader-unknown-first": [
        (
            "grader",
            "the grader version of 'rubric' is not recorded for the first run "
            "(made by a lifebench that did not record it)",
            None,
            ["vita.grading.rubric:1"],
            True,
        ),
        (
            "grader",
            "the grader version of 'state' is not recorded for the first run "
            "(made by a lifebench that did not record it)",
            None,
            ["vita.grading.state:1"],
            True,
        ),
    ],
    "grader-unknown-both": [
        (
            "grader",
            "the grader version of 'rubric' is not recorded for the first and "
            "second run (made by a lifebench that did not record it)",
            None,
            None,
            True,
        ),
        (
            "grader",
            "the grader version of 'state' is not recorded for the first and "
            "second run (made by a lifebench that did not record it)",
            None,
            None,
            True,
        ),
    ],
    "grader-several-first": [
        (
            "grader",
            "the grader version of 'rubric' is not recorded for the first run "
            "(made by a lifebench that did not record it)",
            None,
            ["vita.grading.rubric:1"],
            True,
        ),
        (
            "grader",
            "the first run's 'state' evaluations come from several grader "
            "versions (vita.grading.state:1, vita.grading.state:3)",
            ["vita.grading.state:1", "vita.grading.state:3"],
            ["vita.grading.state:1"],
            False,
        ),
        (
            "grading",
            "the first run's evaluations come from different gradings (run "
            "`lifebench eval` to grade every simulation alike)",
            True,
            False,
            False,
        ),
    ],
    "grader-several-second": [
        (
            "grader",
            "the grader version of 'rubric' is not recorded for the second run "
            "(made by a lifebench that did not record it)",
            ["vita.grading.rubric:1"],
            None,
            True,
        ),
        (
            "grader",
            "the second run's 'state' evaluations come from several grader "
            "versions (vita.grading.state:1, vita.grading.state:3)",
            ["vita.grading.state:1"],
            ["vita.grading.state:1", "vita.grading.state:3"],
            False,
        ),
        (
            "grading",
            "the second run's evaluations come from different gradings (run "
            "`lifebench eval` to grade every simulation alike)",
            False,
            True,
            False,
        ),
    ],
    "graded-again": [
        ("evaluator", "evaluator both (state+rubric) vs state (state)", "both", "state", False),
        ("option", "--window: 10 vs 8", 10, 8, False),
    ],
    "no-provenance": [
        ("user simulator", "user simulator model: user-m vs u2", "user-m", "u2", False),
        ("judge", "judge: judge-m vs other", ["judge-m"], ["other"], False),
        (
            "grader",
            "the grader version of 'rubric' is not recorded for the first and second "
            "run (made by a lifebench that did not record it)",
            None,
            None,
            True,
        ),
        (
            "grader",
            "the grader version of 'state' is not recorded for the first and second "
            "run (made by a lifebench that did not record it)",
            None,
            None,
            True,
        ),
    ],
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_difference_in_full(name: str) -> None:
    first, second, shared = CASES[name]
    found = compare_facts(first(), second(), shared_tasks=shared)
    assert [(d.aspect, d.detail, d.a, d.b, d.comparable) for d in found] == EXPECTED[name]
    # the public entry point and the filter agree
    assert comparability(first(), second(), shared_tasks=shared) == found
    assert incomparable(found) == [d for d in found if not d.comparable]


def test_the_grading_behind_the_evaluations_overrides_the_configuration() -> None:
    regraded = _facts(
        gradings=[
            (
                {
                    "evaluator": "state",
                    "judge_model": None,
                    "bases": ["state"],
                    "suite_options": {"window": 8},
                    "source": "eval",
                },
                None,
            )
        ]
    )
    assert regraded.grading == {
        "evaluator": "state",
        "judge_model": None,
        "bases": ["state"],
        "suite_options": {"window": 8},
    }
    config = compared_config(regraded)
    assert (config["evaluator"], config["judge_model"], config["bases"]) == (
        "state",
        None,
        ["state"],
    )
    # the grading's suite options extend the run's
    assert config["suite_options"] == {**CONFIG["suite_options"], "window": 8}
    assert config["user_seeds"] == 1  # a left-out default is filled in
    assert compared_config(_facts({"user_seeds": 4}))["user_seeds"] == 4
    # without a described grading (no evaluator named) the configuration stands
    plain = compared_config(REFERENCE)
    assert (plain["evaluator"], plain["bases"]) == ("both", ["state", "rubric"])
    # the first grading that names an evaluator is the one described
    two = _facts(
        gradings=[
            ({"bases": ["state"]}, None),
            ({"evaluator": "rubric", "bases": ["rubric"]}, None),
            ({"evaluator": "state", "bases": ["state"]}, None),
        ]
    )
    assert two.grading == {"evaluator": "rubric", "bases": ["rubric"]}


def test_the_facts_of_a_store_part_by_part() -> None:
    older = _provenance(lifebench_version="0.1.0")
    facts = facts_from(
        {**CONFIG, "bases": ["state"]},
        TASKS,
        [None, older, _provenance()],
        [
            ({"bases": ["state", "rubric"], "judge_model": "ignored@http://h/v1"}, NEWER),
            ({}, _provenance()),  # no bases: the configuration's
            ({"judge_model": "spec-judge@http://h/v1"}, None),  # no provenance: the spec's
            ({"judge_model": " "}, None),
        ],
        True,
    )
    assert facts.versions == ["0.1.0", "0.2.0"]  # sessions without provenance left out
    assert facts.session == _provenance()
    assert facts.graders == {
        "rubric": ["vita.grading.rubric:1"],
        "state": ["vita.grading.state:1", "vita.grading.state:3"],
    }
    assert facts.judges == ["gpt-j", "spec-judge"]
    assert facts.mixed is True and facts.tasks == TASKS
    empty = facts_from(CONFIG, {}, [], [], False)
    assert (empty.session, empty.versions, empty.graders, empty.judges, empty.grading) == (
        None,
        [],
        {},
        [],
        {},
    )


def test_exactly_five_ids_are_listed_without_a_remainder() -> None:
    five = {f"t{i}": "h" for i in range(5)}
    found = compare_facts(_facts(tasks=five), _facts(tasks={k: "x" for k in five}))
    assert [d.detail for d in found] == [
        "different task contents: 5 task(s) with the same id differ (t0, t1, t2, t3, t4)"
    ]


def test_comparability_compares_whole_runs_unless_told_otherwise() -> None:
    fewer = _facts(tasks={"t1": "h1", "t2": "h2"})
    assert [d.comparable for d in comparability(REFERENCE, fewer)] == [False]
    assert [d.comparable for d in comparability(REFERENCE, fewer, shared_tasks=True)] == [True]


def test_each_roles_model_as_recorded() -> None:
    from lifebench.models import for_role
    from lifebench.runner._provenance import collect
    from lifebench.suites import make_run_options

    class Named:
        name = "shown-name"  # no provider model id, no endpoint

        async def generate(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError

    class Identified(Named):
        model = 7  # not a model id

    spec = "m@http://user:pw@host:1/v1?key=secret"
    options = make_run_options({"agent_model": spec, "judge_model": "j"})
    models = collect(options, TASKS, {}, lambda s: for_role(Named(), "agent")).models
    assert models["agent"] == ModelInfo(spec="m@http://***@host:1/v1", model="shown-name")
    assert models["judge"] == ModelInfo(spec="j", model="shown-name", endpoint=None)
    other = collect(options, TASKS, {}, lambda s: Identified()).models["judge"]
    assert (other.model, other.endpoint) == ("shown-name", None)
    assert collect(options, TASKS, {}).models["agent"] == ModelInfo(spec="m@http://***@host:1/v1")


def test_collect_records_the_software_the_task_file_and_each_roles_own_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lifebench._about as about
    from lifebench.runner._provenance import collect, file_info
    from lifebench.suites import make_run_options

    monkeypatch.setattr(about, "revision", lambda: about.Revision("c" * 40, dirty=True))
    monkeypatch.setattr(about, "package_versions", lambda: {"pydantic": "9.9"})
    tasks = tmp_path / "tasks.json"
    tasks.write_text("[]\n")

    class Model:
        def __init__(self, spec: str) -> None:
            self.name = f"name-of-{spec}"

    options = make_run_options({"agent_model": "a", "judge_model": "j", "tasks_file": str(tasks)})
    p = collect(options, TASKS, {}, Model)
    assert (p.git_commit, p.git_dirty, p.packages) == ("c" * 40, True, {"pydantic": "9.9"})
    assert p.task_file == file_info(str(tasks)) and p.task_file is not None
    assert {role: m.model for role, m in p.models.items()} == {
        "agent": "name-of-a",
        "judge": "name-of-j",
    }


def test_the_tasks_hash_and_file_digest_are_fixed_formats(tmp_path: Path) -> None:
    import hashlib

    from lifebench.runner._provenance import file_info, tasks_hash

    # sorted (id NUL content-hash LF) lines: another harness can recompute it
    assert tasks_hash({"b": "2", "a": "1"}) == hashlib.sha256(b"a\x001\nb\x002\n").hexdigest()
    assert tasks_hash({}) == hashlib.sha256(b"").hexdigest()
    big = tmp_path / "big.json"
    data = bytes(range(256)) * 8193  # over 2 MiB: read in several blocks
    big.write_bytes(data)
    info = file_info(str(big))
    assert info is not None
    assert (info.name, info.size, info.sha256) == (
        "big.json",
        len(data),
        hashlib.sha256(data).hexdigest(),
    )
    assert file_info("") is None and file_info(str(tmp_path / "missing.json")) is None


def test_an_evaluators_stated_grader_version() -> None:
    from lifebench.runner._provenance import grader_version

    class Stated:
        def __init__(self, version: object) -> None:
            self.grader_version = version

    assert grader_version(Stated(3)) == "3"
    assert grader_version(Stated("v2")) == "v2"
    assert grader_version(Stated(True)) == "unversioned"  # a flag is not a version
    assert grader_version(Stated(None)) == "unversioned"
    assert grader_version(Stated(1.5)) == "unversioned"
