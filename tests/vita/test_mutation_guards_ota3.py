"""OTA state grading pinned by its effect, part 3: a day the rubrics state about a booking (an
existing order off that day fails its criterion, a cancelled one is not held to it), the user a
booking must belong to, the closed world of a new booking's unrequested fields, what is
reported unchecked, and which pre-existing orders a rubric's cancellation may be about."""

from __future__ import annotations

import copy
from dataclasses import replace

from test_ota_grading import BOOK_ROOM, PAY_LAST, ROOM, Replay, expected, grade, task_with
from test_ota_tools import make_environment_dict

from lifebench.simulation import NoopAgent
from lifebench.vita.grading.constraints import Stated, Window
from lifebench.vita.grading.ota import (
    Line,
    OTARequiredOrder,
    OTAStateEvaluator,
    ota_required_orders,
)
from lifebench.vita.task import VitaTask
from lifebench.vita.timefmt import parse_time

JUNE_16 = Window(parse_time("2025-06-16 00:00:00"), parse_time("2025-06-16 23:59:59"))
ON_16 = Stated("date", "booking", "The train is on June 16", "", relation="on", window=JUNE_16)
ON_16_ZH = Stated("date", "booking", "火车票是6月16日的", "", relation="on", window=JUNE_16)
#: A departure time: a window of hours, not of the day (a line's date is midnight).
AT_2PM = Stated(
    "time",
    "booking",
    "The train leaves at 14:00",
    "",
    relation="around",
    window=Window(parse_time("2025-06-16 13:30:00"), parse_time("2025-06-16 14:30:00")),
)


def _kept_train(status: str = "paid", *stated: Stated) -> tuple[OTARequiredOrder, dict]:  # type: ignore[type-arg]
    env = make_environment_dict()
    record = {**env["orders"]["O_TRAIN"], "status": status}
    task = task_with([record], env)
    (req,) = ota_required_orders(task)
    assert req.change == "unchanged"
    return replace(req, stated=stated), env["orders"]


def _existing(req: OTARequiredOrder, orders: dict, final_status: str = "paid"):  # type: ignore[no-untyped-def, type-arg]
    final = copy.deepcopy(orders)
    final["O_TRAIN"]["status"] = final_status
    return OTAStateEvaluator().existing(req, final, orders)


# ---- the stated day of an existing booking ------------------------------------------------------


def test_an_existing_booking_off_the_stated_day_fails_with_the_rubric_as_evidence() -> None:
    for stated in (ON_16, ON_16_ZH):
        req, orders = _kept_train("paid", stated)
        verdict = _existing(req, orders)
        assert verdict.met is False
        assert verdict.evidence == (
            "line T1_2C_0615@2025-06-15×1 not on the stated day "
            f"[2025-06-16 00:00:00, 2025-06-16 23:59:59] ('{stated.rubric}')"
        )


def test_a_stated_time_of_day_is_not_read_as_the_day_of_a_dated_line() -> None:
    # the line is on the stated day; the stated hour says nothing about a line's date
    env = make_environment_dict()
    moved = copy.deepcopy(env["orders"]["O_TRAIN"])
    moved["products"][0].update(product_id="T1_2C_0616", date="2025-06-16", price=160)
    req = replace(ota_required_orders(task_with([moved], env))[0], stated=(AT_2PM,))
    order = {**moved, "order_id": "O_NEW"}
    assert OTAStateEvaluator.mismatch(req, order, "U1") is None
    # a time before the day: the date stated after it is still checked
    off = copy.deepcopy(order)
    off["products"][0].update(product_id="T1_2C_0616", date="2025-06-17")
    req_day = replace(req, lines=(Line("T1_2C_0616", "", 1),), stated=(AT_2PM, ON_16))
    assert OTAStateEvaluator.mismatch(req_day, off, "U1") == (
        "line T1_2C_0616@2025-06-17×1 not on the stated day "
        "[2025-06-16 00:00:00, 2025-06-16 23:59:59] ('The train is on June 16')"
    )


def test_a_cancelled_booking_is_not_held_to_the_stated_day() -> None:
    req, orders = _kept_train("cancelled", ON_16)
    verdict = _existing(req, orders, "cancelled")
    assert (verdict.met, verdict.evidence) == (
        True,
        "status cancelled; lines T1_2C_0615@2025-06-15×1",
    )


def test_a_booking_on_the_stated_day_is_met() -> None:
    req, orders = _kept_train("paid", AT_2PM)
    verdict = _existing(req, orders)
    assert (verdict.met, verdict.evidence) == (True, "status paid; lines T1_2C_0615@2025-06-15×1")


# ---- the user of a booking ----------------------------------------------------------------------


def _new_room() -> tuple[VitaTask, OTARequiredOrder, dict]:  # type: ignore[type-arg]
    record = expected("hotel", "T01", "H1", ROOM, "paid")
    task = task_with([record])
    (req,) = ota_required_orders(task)
    return task, req, {**record, "order_id": "O_NEW"}


def test_a_booking_of_another_user_does_not_match() -> None:
    task, req, order = _new_room()
    matcher = OTAStateEvaluator().matcher(task)
    assert matcher.mismatch(req, order) is None
    assert matcher.mismatch(req, {**order, "user_id": "U2"}) == "user U2 ≠ U1"
    # a booking that names no user is not another user's
    assert matcher.mismatch(req, {**order, "user_id": ""}) is None
    assert matcher.mismatch(req, {k: v for k, v in order.items() if k != "user_id"}) is None


def test_without_a_user_in_the_task_no_user_is_checked() -> None:
    task, req, order = _new_room()
    anonymous = task.model_copy(
        update={"environment": {k: v for k, v in task.environment.items() if k != "user_id"}}
    )
    assert OTAStateEvaluator().matcher(anonymous).mismatch(req, order) is None
    assert OTAStateEvaluator.mismatch(req, order) is None
    assert OTAStateEvaluator.mismatch(req, {**order, "user_id": "U2"}) is None


def test_a_new_booking_with_an_unrequested_note_does_not_match() -> None:
    task, req, order = _new_room()
    got = OTAStateEvaluator().matcher(task).mismatch(req, {**order, "note": "quiet room"})
    assert got == "note 'quiet room' asks what the task does not ask (no note expected)"


# ---- what is reported unchecked -------------------------------------------------------------------


def _undated(req: OTARequiredOrder, status: str, change: str) -> OTARequiredOrder:
    return replace(
        req,
        record={**req.record, "status": status},
        change=change,  # type: ignore[arg-type]
        lines=(Line("H1_K_0612", "", 1),),
    )


def test_only_live_new_or_moved_bookings_with_undated_lines_are_unchecked() -> None:
    task, req, _ = _new_room()
    ev = OTAStateEvaluator()
    assert ev.unchecked(task, [_undated(req, "paid", "new")]) == [
        "date: order T01: 1 expected line(s) without a date (H1_K_0612@?×1)"
    ]
    assert ev.unchecked(task, [_undated(req, "paid", "unchanged")]) == []
    assert ev.unchecked(task, [_undated(req, "cancelled", "new")]) == []


# ---- which pre-existing orders a rubric's cancellation is about -----------------------------------


def test_a_rubric_cancelling_a_delivery_order_is_not_an_ota_requirement() -> None:
    env = make_environment_dict()
    for rubric in ("Cancel order O_DELIVERY.", "取消订单O_DELIVERY。"):
        task = VitaTask(
            id="G3",
            environment=env,
            instructions="Do it.",
            evaluation_criteria={
                "expected_states": [
                    {
                        "required_orders": [env["orders"]["O_HOTEL"]],
                        "state_rubrics": [rubric],
                    }
                ],
            },
        )
        assert [(r.target, r.status) for r in ota_required_orders(task)] == [("O_HOTEL", "paid")]


# ---- notes a rubric asks are not a booking's ------------------------------------------------------


def _note_task(rubric: str, orders: list[dict] | None = None) -> VitaTask:  # type: ignore[type-arg]
    return VitaTask(
        id="G4",
        environment=make_environment_dict(),
        instructions="Do it.",
        evaluation_criteria={
            "expected_states": [
                {
                    "required_orders": orders or [expected("hotel", "T01", "H1", ROOM, "paid")],
                    "state_rubrics": [rubric],
                }
            ],
        },
    )


NOTE_RUBRICS = ("Add a note to the hotel booking: quiet room", "酒店订单备注：安静的房间")


def test_a_note_a_rubric_asks_on_a_booking_is_unchecked_and_the_state_basis_cannot_decide() -> None:
    # bookings carry no notes and no OTA tool sets one: with no delivery or in-store record to
    # take it, the note is neither checkable nor passed -- it is reported unchecked
    for rubric in NOTE_RUBRICS:
        result = grade(_note_task(rubric), Replay([BOOK_ROOM, PAY_LAST]))
        assert result.undecided and not result.gradable and result.reward != 1.0
        assert len(result.unchecked) == 1 and result.unchecked[0].startswith("note: '")
        assert result.unchecked[0] == (
            f"note: '{rubric}' asks a note, but no record of the task takes one: the state "
            "basis cannot check it"
        )
        # the booking's own closed-world note check is still the one note checked
        assert result.info["coverage"]["note"] == {"checked": 1, "unchecked": 1}


def test_a_rubric_without_a_note_adds_nothing_unchecked() -> None:
    for rubric in ("Book the hotel room", "预订酒店房间"):
        result = grade(_note_task(rubric), Replay([BOOK_ROOM, PAY_LAST]))
        assert result.reward == 1.0 and result.unchecked == []


def test_no_note_is_reported_where_a_delivery_grader_takes_notes() -> None:
    from lifebench.vita.grading.state import unowned_notes

    delivery = {
        "order_id": "D_NEW",
        "order_type": "delivery",
        "store_id": "S1",
        "status": "paid",
        "products": [],
    }
    for rubric in NOTE_RUBRICS:
        assert unowned_notes(_note_task(rubric)) != []
        assert unowned_notes(_note_task(rubric, [delivery])) == []
        cancelled = {**delivery, "status": "cancelled"}
        # a cancelled delivery requirement takes no note: still unowned
        assert unowned_notes(_note_task(rubric, [cancelled])) != []


def test_only_dated_lines_count_as_dates_checked() -> None:
    undated = {k: v for k, v in ROOM.items() if k != "date"}
    task = task_with(
        [
            expected("hotel", "T01", "H1", undated, "paid"),
            expected("hotel", "T02", "H1", ROOM, "paid"),
        ]
    )
    result = grade(task, NoopAgent())
    assert result.info["coverage"]["date"] == {"checked": 1, "unchecked": 1}
    assert result.unchecked == [
        "date: order T01: 1 expected line(s) without a date (H1_K_0612@?×1)"
    ]
