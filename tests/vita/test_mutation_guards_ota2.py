"""OTA state grading pinned by its exact effect: the coverage a graded task reports (one dated
line checked per dated line of each required order) and the evidence of an existing order's
criterion (moved to another date, changed, vanished, wrong final status)."""

from __future__ import annotations

import copy

from test_ota_grading import (
    BOOK_ROOM,
    PAY_LAST,
    ROOM,
    SEAT_16,
    UID,
    Replay,
    expected,
    failed,
    grade,
    make_environment_dict,
    task_with,
)

from lifebench.simulation import NoopAgent


def _moved_train() -> tuple[dict, dict]:  # type: ignore[type-arg]
    env = make_environment_dict()
    moved = copy.deepcopy(env["orders"]["O_TRAIN"])
    moved["products"] = [{**SEAT_16, "quantity": 1}]
    moved["total_price"] = 160
    return env, moved


def test_coverage_counts_every_dated_line_checked() -> None:
    env, moved = _moved_train()
    task = task_with([moved, expected("hotel", "T01", "H1", ROOM, "paid")], env)
    result = grade(task, Replay([BOOK_ROOM, PAY_LAST]))
    assert result.info["coverage"] == {
        "date": {"checked": 2},
        "note": {"checked": 1},
        "products": {"checked": 1},
        "status": {"checked": 2},
        "store": {"checked": 1},
        "unrequested": {"checked": 5},
    }


def test_an_existing_order_not_moved_names_both_line_lists() -> None:
    env, moved = _moved_train()
    task = task_with([moved], env)
    assert failed(grade(task, NoopAgent())) == {
        "order[0]:O_TRAIN": "lines not moved to the expected date: T1_2C_0615@2025-06-15×1, "
        "expected T1_2C_0616@2025-06-16×1"
    }


def test_an_existing_order_kept_but_changed_or_left_unpaid_says_which() -> None:
    env = make_environment_dict()
    kept = env["orders"]["O_TRAIN"]
    task = task_with([kept], env)
    move = ("modify_train_order", {"order_id": "O_TRAIN", "user_id": UID, "new_date": "2025-06-17"})
    evidence = failed(grade(task, Replay([move])))["order[0]:O_TRAIN"]
    assert evidence.startswith("lines changed: T1_2C_0617@2025-06-17×1, expected ")
    cancelled = {**env["orders"]["O_HOTEL"], "status": "cancelled"}
    hotel = task_with([cancelled], env)
    assert failed(grade(hotel, NoopAgent()))["order[0]:O_HOTEL"].startswith(
        "final status paid, expected cancelled"
    )


def test_a_kept_order_is_met_with_its_status_and_lines_as_evidence() -> None:
    env = make_environment_dict()
    task = task_with([env["orders"]["O_TRAIN"]], env)
    result = grade(task, NoopAgent())
    assert result.reward == 1.0
    first = result.criteria[0]
    assert (first.id, first.met, first.evidence) == (
        "order[0]:O_TRAIN",
        True,
        "status paid; lines T1_2C_0615@2025-06-15×1",
    )
