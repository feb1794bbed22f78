"""Provenance rules the other tests leave unpinned (scripts/mutation.sh on
runner/_provenance.py): what ``collect`` records of the tasks, the run's kinds and its graders,
and how a differing option's values are written."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from test_comparability import TASKS, _facts

from lifebench.runner._provenance import collect, compare_facts, grader_version
from lifebench.vita.grading.state import GRADER_VERSION as STATE_VERSION


class _Versioned:
    grader_version = "own-grader:7"


def test_collect_records_the_task_count_the_kinds_and_each_bases_grader() -> None:
    from lifebench.suites import make_run_options

    options = make_run_options({"agent": "oracle", "user": "scripted", "evaluator": "state"})
    p = collect(options, TASKS, {"state": _Versioned(), "rubric": object()})
    assert p.tasks == len(TASKS) == 3
    assert p.kinds == {"agent": "oracle", "user": "scripted", "evaluator": "state"}
    assert p.graders == {"rubric": grader_version(object()), "state": "own-grader:7"}
    assert grader_version(None) != "own-grader:7"


def test_a_differing_options_values_are_written_as_sorted_json_with_their_own_letters() -> None:
    a = _facts({"suite_options": {"window": 10, "stops": {"z": "结束", "a": "停"}}})
    b = _facts({"suite_options": {"window": 10, "stops": {"a": "停"}}})
    details = [d.detail for d in compare_facts(a, b) if d.aspect == "option"]
    assert details == ['--stops: {"a": "停", "z": "结束"} vs {"a": "停"}']


def test_the_details_of_an_evaluator_a_tool_model_and_several_judges_in_words() -> None:
    def details(a: object, b: object) -> list[str]:
        return [d.detail for d in compare_facts(a, b)]  # type: ignore[arg-type]

    assert (
        details(
            _facts({"evaluator": "state", "bases": ["state"]}),
            _facts({"evaluator": "both", "bases": ["state", "rubric"]}),
        )[0]
        == "evaluator state (state) vs both (state+rubric)"
    )
    assert details(_facts({"tool_model": "tool-t"}), _facts({"tool_model": None})) == [
        "tool simulator model: tool-t vs none"
    ]
    bases = {"bases": ["state", "rubric"]}

    def judged(*judges: str) -> object:
        parts = [({**bases, "judge_model": j}, None) for j in judges]
        return _facts(bases, gradings=parts)

    assert details(judged("j1@http://127.0.0.1:9/v1", "j2"), judged("j3", "j4"))[0] == (
        "judge: j1, j2 vs j3, j4"
    )


def test_a_model_is_named_by_what_comes_before_the_first_at_sign() -> None:
    from test_comparability import CONFIG

    from lifebench.runner._provenance import facts_from

    def unrecorded(**config: object) -> object:
        cfg = {**CONFIG, **config}
        parts = [({"bases": cfg["bases"], "judge_model": cfg["judge_model"]}, None)]
        return facts_from(cfg, dict(TASKS), [None], parts, False)

    # the same models behind endpoints with credentials (a second '@'): nothing differs
    a = unrecorded(tool_model="t@http://u:p@host-a/v1", judge_model="j@http://u:p@host-a/v1")
    b = unrecorded(tool_model="t@http://host-b/v1", judge_model="j@http://host-b/v1")
    assert [d for d in compare_facts(a, b) if not d.comparable] == []  # type: ignore[arg-type]
    c = unrecorded(tool_model="t2@http://host-b/v1", judge_model="j2@http://host-b/v1")
    assert [d.detail for d in compare_facts(a, c) if not d.comparable] == [  # type: ignore[arg-type]
        "tool simulator model: t vs t2",
        "judge: j vs j2",
    ]


def test_a_grader_version_names_its_module_without_the_package_and_none_is_unversioned() -> None:
    from lifebench.vita.grading.state import delivery_state_evaluator

    assert grader_version(delivery_state_evaluator()) == f"vita.grading.state:{STATE_VERSION}"
    assert grader_version(None) == "unversioned"


def test_a_run_recorded_before_provenance_against_one_with_it() -> None:
    from test_comparability import CONFIG

    from lifebench.runner._provenance import facts_from

    bases = {"bases": ["state", "rubric"]}
    old = facts_from({**CONFIG, **bases}, dict(TASKS), [None], [(bases, None)], False)
    found = compare_facts(old, _facts(bases))
    assert not [d for d in found if d.aspect == "lifebench"]
    judged = [({**bases, "judge_model": j}, None) for j in ("j1", "j2")]
    unjudged = {**bases, "judge_model": None}
    details = [
        d.detail
        for d in compare_facts(
            _facts(bases, gradings=judged),
            facts_from({**CONFIG, **unjudged}, dict(TASKS), [None], [(unjudged, None)], False),
        )
        if d.aspect == "judge"
    ]
    assert details == ["judge: j1, j2 vs none"]
