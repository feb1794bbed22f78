"""The official VitaBench judge's reading of an answer (vita/grading/official.py), pinned by
the rubric states it leaves and the crashes it would raise."""

from __future__ import annotations

from typing import Any

import pytest

from lifebench.vita.grading.official import OfficialCrash, apply_answer


def _states() -> dict[str, dict[str, Any]]:
    return {"0": {"met": False, "justification": ""}, "1": {"met": False, "justification": ""}}


def test_an_answer_sets_the_rubrics_it_names_and_a_non_list_crashes() -> None:
    states = _states()
    apply_answer(states, '[{"rubric_idx": "1", "meetExpectation": true}]')
    assert states["1"] == {"met": True, "justification": "No justification provided"}
    assert states["0"]["met"] is False
    with pytest.raises(OfficialCrash):
        apply_answer(_states(), '{"rubric_idx": "1", "meetExpectation": true}')
