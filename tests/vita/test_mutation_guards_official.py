"""The official VitaBench judge's reading of an answer (vita/grading/official.py), pinned by
the rubric states it leaves and the crashes it would raise."""

from __future__ import annotations

from typing import Any

import pytest

from lifebench.vita.grading.official import (
    OfficialCrash,
    OfficialRubrics,
    apply_answer,
    official_rubrics,
    rubric_reading,
)


def _states() -> dict[str, dict[str, Any]]:
    return {"0": {"met": False, "justification": ""}, "1": {"met": False, "justification": ""}}


def test_an_answer_sets_the_rubrics_it_names_and_a_non_list_crashes() -> None:
    states = _states()
    apply_answer(states, '[{"rubric_idx": "1", "meetExpectation": true}]')
    assert states["1"] == {"met": True, "justification": "No justification provided"}
    assert states["0"]["met"] is False
    with pytest.raises(OfficialCrash):
        apply_answer(_states(), '{"rubric_idx": "1", "meetExpectation": true}')


def test_why_the_official_judge_would_crash_is_named() -> None:
    with pytest.raises(OfficialCrash, match=r"^the answer is a dict, not a list of objects$"):
        apply_answer(_states(), '{"rubric_idx": "1", "meetExpectation": true}')
    with pytest.raises(OfficialCrash, match=r"^the answer is a int, not a list of objects$"):
        apply_answer(_states(), "5")
    with pytest.raises(OfficialCrash, match=r"^an element is a str, not an object$"):
        apply_answer(_states(), '["1"]')
    with pytest.raises(OfficialCrash, match=r"^a rubric id of type list$"):
        apply_answer(_states(), '[{"rubric_idx": ["1"], "meetExpectation": true}]')
    with pytest.raises(OfficialCrash, match=r"^no rubric: the rubric score divides by zero$"):
        official_rubrics([], [])
    with pytest.raises(OfficialCrash, match=r"^a status or justification the results model"):
        official_rubrics(["0"], ['[{"rubric_idx": "0", "meetExpectation": "perhaps"}]'])


def test_an_unreadable_answer_is_a_crash_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    import lifebench.vita.grading.official as official

    def broken(text: str) -> str:
        raise ValueError("cannot repair")

    monkeypatch.setattr(official.json_repair, "repair_json", broken)
    with pytest.raises(OfficialCrash, match=r"^unreadable answer: cannot repair$"):
        official.read_answer("[")


def test_an_unknown_rubric_id_is_skipped_and_the_next_one_still_read() -> None:
    states = _states()
    apply_answer(
        states,
        '[{"rubric_idx": "9", "meetExpectation": true}, {"rubric_idx": "0", "meetExpectation": true}]',
    )
    assert states["0"]["met"] is True and states["1"]["met"] is False
    assert official_rubrics(["0"], ['[{"rubric_idx": "0", "meetExpectation": true}]']) == (
        OfficialRubrics(reward=1.0, met=1, total=1)
    )


def _info(**kw: Any) -> dict[str, Any]:
    info: dict[str, Any] = {
        "rubric_keys": ["0", "1"],
        "windows": [
            {"replies": ['[{"rubric_key": "0", "meetExpectation": true}]'], "attempts": 1},
            {"replies": ['[{"rubric_key": "1", "meetExpectation": true}]']},
        ],
        "total_windows": 2,
    }
    info.update(kw)
    return info


def _reading(info: dict[str, Any], failed: bool = False) -> tuple[Any, list[str], bool]:
    unit = rubric_reading(info, failed)
    return unit.theirs, unit.classes, unit.replayed


def test_a_stored_rubric_result_is_replayed_with_its_reasons() -> None:
    assert _reading(_info()) == (1.0, [], True)
    # a window answered only on a retry: the official judge takes its first answer
    first = {"replies": ['[{"rubric_key": "0", "meetExpectation": false}]', "[]"], "attempts": 2}
    windows = [first, _info()["windows"][1]]
    assert _reading(_info(windows=windows)) == (0.0, ["official_takes_first_answer"], True)
    # the official rubric set is smaller (duplicates merged), or the same size
    assert _reading(_info(official_rubrics=1)) == (1.0, ["rubric_set_deduplicated"], True)
    assert _reading(_info(official_rubrics=2)) == (1.0, [], True)
    # a grading error after every window was answered: scored officially
    assert _reading(_info(), failed=True) == (
        1.0,
        ["lifebench_grading_error_scored_officially"],
        True,
    )
    assert _reading(_info(total_windows=3), failed=True) == (
        None,
        ["official_replay_incomplete"],
        True,
    )


@pytest.mark.parametrize(
    "change",
    [
        {"windows": None},
        {"windows": {"0": {"replies": ["[]"]}}},
        {"windows": [{"replies": []}]},
        {"windows": [{"replies": "[]"}]},
        {"rubric_keys": None},
    ],
    ids=["no-windows", "windows-not-a-list", "no-reply", "replies-not-a-list", "no-keys"],
)
def test_a_result_stored_without_the_judges_answers_is_not_replayed(change: dict[str, Any]) -> None:
    assert _reading(_info(**change)) == (None, [], False)


def test_a_mean_of_nothing_is_none() -> None:
    from lifebench.vita.grading.official import _mean

    assert _mean([]) is None
    assert _mean([1.0, 0.0]) == 0.5
