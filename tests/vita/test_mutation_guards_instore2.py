"""In-store state grading, part 2: the coverage a graded task reports for its appointments,
pinned whole (every check counted under its own field: time, party size, status, store,
unrequested), for a readable appointment, an unreadable one, and one whose time and party size
only the rubrics state (in English and Chinese)."""

from __future__ import annotations

import copy

import pytest
from test_instore_grading import _reservation, make_task
from test_mutation_guards_instore import STATED, UNTIMED, _grade, _task, _verdicts

TIMED = {**UNTIMED, "reservation_time": "2025-05-17 09:00:00", "customer_count": 2}


def test_a_readable_appointment_counts_one_check_per_field() -> None:
    result = _grade(_task([TIMED]))
    assert result.unchecked == []
    assert result.info["coverage"] == {
        "party_size": {"checked": 1},
        "status": {"checked": 1},
        "store": {"checked": 1},
        "time": {"checked": 1},
        "unrequested": {"checked": 4},
    }


def test_an_unreadable_appointment_counts_only_its_status_and_store() -> None:
    result = _grade(_task([UNTIMED]))
    assert result.info["coverage"] == {
        "status": {"checked": 1},
        "store": {"checked": 1},
        "unrequested": {"checked": 4},
    }
    assert result.unchecked == [
        "time: time of G_NEW: 'soon' cannot be read or lies before the task clock",
        "party_size: G_NEW states no number of people",
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_the_rubrics_state_is_counted_with_the_appointments_own_checks(lang: str) -> None:
    result = _grade(_task([UNTIMED], STATED[lang]))
    assert result.unchecked == []
    assert result.info["coverage"] == {
        "party_size": {"checked": 2},
        "status": {"checked": 1},
        "store": {"checked": 1},
        "time": {"checked": 2},
        "unrequested": {"checked": 4},
    }


def test_a_new_appointment_with_another_party_size_or_unpaid_says_which() -> None:
    want = _reservation("G_NEW", "S_GYM", "2025-05-17 09:00:00", 2, "paid")
    for change, evidence in (
        ({"customer_count": 3}, "RS-1: customer_count 3 ≠ 2"),
        ({"status": "unpaid"}, "RS-1: status unpaid does not satisfy paid"),
    ):
        made = {**want, "reservation_id": "RS-1", **change}
        reservations = {**make_task().environment["reservations"], "RS-1": made}
        result = _grade(_task([want]), reservations=copy.deepcopy(reservations))
        assert _verdicts(result)["reservation[0]:G_NEW"] == (False, evidence)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_time_and_size_the_rubrics_state_decide_an_unreadable_appointment(lang: str) -> None:
    for when, count, evidence in (
        ("2025-05-17 09:00:00", 2, None),
        (
            "2025-05-17 11:00:00",
            2,
            "RS-1: time 2025-05-17 11:00:00 not in [2025-05-17 08:30:00, 2025-05-17 09:30:00] "
            f"('{STATED[lang][0]}')",
        ),
        ("2025-05-17 09:00:00", 3, f"RS-1: customer_count 3 ≠ 2 ('{STATED[lang][1]}')"),
    ):
        made = {
            **_reservation("RS-1", "S_GYM", when, count, "paid"),
            "customer_id": UNTIMED["customer_id"],
        }
        reservations = {**make_task().environment["reservations"], "RS-1": made}
        result = _grade(_task([UNTIMED], STATED[lang]), reservations=copy.deepcopy(reservations))
        met, got = _verdicts(result)["reservation[0]:G_NEW"]
        assert (met, got if not met else None) == (evidence is None, evidence)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_task_without_appointments_is_ungradable_and_says_what_it_leaves_unchecked(
    lang: str,
) -> None:
    result = _grade(_task([], STATED[lang]))
    assert result.gradable is False
    assert result.info["coverage"] == {
        "party_size": {"unchecked": 1},
        "time": {"unchecked": 1},
        "unrequested": {"checked": 4},
    }
    time, size = STATED[lang]
    assert result.unchecked == [
        f"time: '{time}' states appointment time around [2025-05-17 08:30:00, "
        "2025-05-17 09:30:00], but no single required record could be found it is about",
        f"party_size: '{size}' states party size 2, but no single required record could be "
        "found it is about",
    ]
