"""Provenance rules the other tests leave unpinned (scripts/mutation.sh on
runner/_provenance.py): what ``collect`` records of the tasks, the run's kinds and its graders,
and how a differing option's values are written."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from test_comparability import TASKS, _facts

from lifebench.runner._provenance import collect, compare_facts, grader_version


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
