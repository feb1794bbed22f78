"""De-duplication of state and overall rubrics: each mode's rule, with near misses."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from lifebench.vita.grading.rubrics import DEDUP_MODES, PARAPHRASE_THRESHOLD, task_rubrics
from lifebench.vita.task import VitaTask


def _task(states: Sequence[Sequence[str]], overall: Sequence[str]) -> VitaTask:
    return VitaTask.model_validate(
        {
            "id": "T1",
            "environment": {"time": "2025-06-21 11:20:00"},
            "instructions": "x",
            "evaluation_criteria": {
                "expected_states": [
                    {"required_orders": [], "state_rubrics": list(s)} for s in states
                ],
                "overall_rubrics": list(overall),
            },
        }
    )


def test_modes_and_threshold() -> None:
    assert DEDUP_MODES == ("exact", "paraphrase", "overall")
    assert PARAPHRASE_THRESHOLD == 80.0


def test_task_without_criteria_has_no_rubrics() -> None:
    task = VitaTask.model_validate({"id": "T", "environment": {}, "instructions": "x"})
    for mode in DEDUP_MODES:
        assert task_rubrics(task, mode) == []


def test_exact_is_the_ordered_union_without_exact_duplicates_or_blanks() -> None:
    task = _task([["S1", "O1", "S1"], ["S2", "  "]], ["O1", "O2", "O2", ""])
    assert task_rubrics(task, "exact") == ["S1", "O1", "S2", "O2"]


def test_overall_keeps_overall_rubrics_only_once_each() -> None:
    task = _task([["S1"]], ["O1", "O2", "O1", " "])
    assert task_rubrics(task, "overall") == ["O1", "O2"]


def test_paraphrase_drops_state_rubrics_that_restate_an_overall_one() -> None:
    task = _task(
        [["the NOODLES must be mild!", "Pay with the saved card"], ["Pay with the saved card"]],
        ["The noodles must be mild.", "Deliver to the hospital"],
    )
    # case and punctuation do not matter; the new state rubric is kept once, after the overall
    assert task_rubrics(task, "paraphrase") == [
        "The noodles must be mild.",
        "Deliver to the hospital",
        "Pay with the saved card",
    ]
    assert task_rubrics(task) == task_rubrics(task, "paraphrase")  # the default mode


def test_paraphrase_keeps_state_rubrics_below_the_threshold() -> None:
    # token-set similarity of these two is well below 80: both are kept
    task = _task([["Order two cups of green tea"]], ["Deliver before 12:30"])
    assert task_rubrics(task, "paraphrase") == [
        "Deliver before 12:30",
        "Order two cups of green tea",
    ]


@pytest.mark.parametrize(
    ("state", "kept"),
    [
        ("deliver to the hospital gate", False),  # a superset of the overall tokens: 100
        ("deliver to the hospital", False),  # equal after normalisation
        ("deliver to the clinic", False),  # exactly at the threshold (80.0): a paraphrase
        ("send it to the hospital", True),  # just below (78.9): kept
        # normalisation: case and punctuation are ignored before comparing
        ("DELIVER TO THE HOSPITAL", False),  # 12.8 raw, 100 normalised
        ("deliver-to-the-hospital", False),  # 63.8 raw, 100 normalised
    ],
)
def test_paraphrase_near_misses(state: str, kept: bool) -> None:
    task = _task([[state]], ["Deliver to the hospital."])
    assert (state in task_rubrics(task, "paraphrase")) is kept


def test_paraphrase_keeps_exact_duplicates_of_kept_rubrics_out() -> None:
    # a state rubric identical to an overall one is not added again
    task = _task([["Deliver to the hospital."]], ["Deliver to the hospital."])
    assert task_rubrics(task, "paraphrase") == ["Deliver to the hospital."]


def test_punctuation_is_only_a_separator() -> None:
    # a short rubric differing only by punctuation is the same rubric
    task = _task([["Pay!", "(Pay)"]], ["Pay"])
    assert task_rubrics(task, "paraphrase") == ["Pay"]


def test_an_unknown_mode_is_refused() -> None:
    task = _task([["S1"]], ["O1"])
    with pytest.raises(ValueError) as info:
        task_rubrics(task, "fuzzy")  # type: ignore[arg-type]
    assert str(info.value) == (
        "unknown rubric de-duplication mode 'fuzzy' (known: exact, paraphrase, overall)"
    )
