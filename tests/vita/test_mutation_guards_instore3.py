"""In-store state grading, part 3: which records a rubric constraint may be about.

* Only live appointments are candidates: a cancellation the task asks is never what "the
  reservation should be for 2 people" is about, wherever it stands among the requirements.
* An appointment is named by its shop's name and tags, so a rubric naming the shop (or one of
  its tags) reaches the right one of two appointments of the same kind.
* An appointment at a shop the task does not list is still graded (never a crash).
* Notes the rubrics ask are the in-store grader's only in a task without delivery orders: with
  a live product order of its own it takes them (nothing reported as unowned) and checks them
  (the order must make each request worded; one without the note fails, one with it passes;
  alone or under the cross grader), beside a delivery order it leaves them to the delivery
  grader.

Synthetic tasks, in English and Chinese; each pinned by the reward, the verdicts, the unchecked
list or the coverage counts."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from _vita_builders import simulation
from test_instore_grading import _order, _reservation, _shop, make_task
from test_mutation_guards_instore import UNTIMED, _grade, _task, _verdicts

from lifebench.evaluation import BasisResult
from lifebench.vita.grading.cross import cross_state_evaluator
from lifebench.vita.task import VitaTask

# ---- a cancellation is never a candidate -------------------------------------------------------

#: Rubrics about "the reservation" without a shop: one live appointment, so they are its.
PLAIN = {
    "en": (
        "The reservation time should be 2025-05-17 09:00:00",
        "The reservation should be for 2 people",
    ),
    "zh": ("预约时间应为2025-05-17 09:00:00", "预约人数应为2人"),
}
#: The pre-existing spa reservation (09:00, two people) is to be cancelled; listed first.
CANCEL = _reservation("R_OLD", "S_SPA", "2025-05-17 09:00:00", 2, "cancelled")


def _made(task: VitaTask, **change: Any) -> dict[str, Any]:
    """The final reservations: R_OLD cancelled and a new gym reservation RS-1."""
    reservations = copy.deepcopy(task.environment["reservations"])
    reservations["R_OLD"] = {**reservations["R_OLD"], "status": "cancelled"}
    made = {**_reservation("RS-1", "S_GYM", "2025-05-17 09:00:00", 2, "paid"), **change}
    reservations["RS-1"] = made
    return reservations


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_the_rubrics_state_is_about_the_live_appointment_not_the_cancelled_one(
    lang: str,
) -> None:
    task = _task([CANCEL, UNTIMED], PLAIN[lang])
    result = _grade(task, reservations=_made(task))
    assert (result.reward, result.unchecked) == (1.0, [])
    assert result.info["coverage"] == {
        "party_size": {"checked": 3},
        "status": {"checked": 2},
        "store": {"checked": 2},
        "time": {"checked": 3},
        "unrequested": {"checked": 4},
    }
    # the stated size decides the new reservation (its record states none)
    result = _grade(task, reservations=_made(task, customer_count=3))
    assert result.reward == 0.0
    assert _verdicts(result)["reservation[1]:G_NEW"] == (
        False,
        f"RS-1: customer_count 3 ≠ 2 ('{PLAIN[lang][1]}')",
    )
    # and the stated time
    result = _grade(task, reservations=_made(task, reservation_time="2025-05-17 11:00:00"))
    assert _verdicts(result)["reservation[1]:G_NEW"] == (
        False,
        "RS-1: time 2025-05-17 11:00:00 not in [2025-05-17 08:30:00, 2025-05-17 09:30:00] "
        f"('{PLAIN[lang][0]}')",
    )


# ---- an appointment is named by its shop's name and tags ---------------------------------------

#: Two reservation shops whose ids say nothing: one is named by its tag only.
SHOPS = {
    "en": (
        _shop("S_Y1", [], enable_reservation=True, shop_name="Lotus Hall", tags=["pilates"]),
        _shop("S_Y2", [], enable_reservation=True, shop_name="Iron Club", tags=["boxing"]),
    ),
    "zh": (
        _shop("S_Y1", [], enable_reservation=True, shop_name="莲花馆", tags=["普拉提"]),
        _shop("S_Y2", [], enable_reservation=True, shop_name="钢铁俱乐部", tags=["拳击"]),
    ),
}
SIZE = {
    "en": "The pilates reservation should be for 2 people",
    "zh": "普拉提的预约人数应为2人",
}


def _two_shops(lang: str, rubric: str) -> VitaTask:
    first, second = SHOPS[lang]
    shops = {**make_task().environment["shops"], "S_Y1": first, "S_Y2": second}
    required = [
        {**_reservation("G_Y1", "S_Y1", "2025-05-17 09:00:00", 2, "paid")},
        _reservation("G_Y2", "S_Y2", "2025-05-17 10:00:00", 3, "paid"),
    ]
    del required[0]["customer_count"]  # only the rubric states it
    return _task(required, (rubric,), shops=shops)


def _two_made(task: VitaTask, size: int) -> BasisResult:
    reservations = copy.deepcopy(task.environment["reservations"])
    reservations["RS-1"] = _reservation("RS-1", "S_Y1", "2025-05-17 09:00:00", size, "paid")
    reservations["RS-2"] = _reservation("RS-2", "S_Y2", "2025-05-17 10:00:00", 3, "paid")
    return _grade(task, reservations=reservations)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rubric_naming_a_shops_tag_is_about_that_shops_appointment(lang: str) -> None:
    task = _two_shops(lang, SIZE[lang])
    result = _two_made(task, 2)
    assert (result.reward, result.unchecked) == (1.0, [])
    assert result.info["coverage"]["party_size"] == {"checked": 3}
    result = _two_made(task, 4)
    assert _verdicts(result)["reservation[0]:G_Y1"] == (
        False,
        f"RS-1: customer_count 4 ≠ 2 ('{SIZE[lang]}'); RS-2: shop S_Y2 ≠ S_Y1",
    )
    assert _verdicts(result)["reservation[1]:G_Y2"] == (True, "matched reservation RS-2")


# ---- a shop the task does not list -------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_appointment_at_an_unlisted_shop_is_graded(lang: str) -> None:
    gone = {**UNTIMED, "shop_id": "S_GONE", "reservation_time": "2025-05-17 09:00:00"}
    gone["customer_count"] = 2
    task = _task([gone], (PLAIN[lang][1],))
    result = _grade(task)
    assert result.reward == 0.0 and result.unchecked == []
    assert _verdicts(result)["reservation[0]:G_NEW"] == (
        False,
        "no booking or reservation was made",
    )
    reservations = copy.deepcopy(task.environment["reservations"])
    reservations["RS-1"] = _reservation("RS-1", "S_GONE", "2025-05-17 09:00:00", 2, "paid")
    assert _grade(task, reservations=reservations).reward == 1.0


# ---- notes: the in-store grader's only without delivery orders ---------------------------------

NOTE = {"en": "Add a note to the order: no ice", "zh": "订单备注：不要冰"}
GYM = _order("G_NEW_O", "S_GYM", [("P_GYM", 60, 1)], "paid")
DELIVERY = {**_order("D_NEW", "ST_X", [("PX", 10, 1)], "paid"), "order_type": "delivery"}


def _bought(task: VitaTask, note: str = "") -> dict[str, Any]:
    orders = copy.deepcopy(task.environment["orders"])
    orders["IO-1"] = {
        **_order("IO-1", "S_GYM", [("P_GYM", 60, 1)], "paid"),
        "create_time": "2025-05-16 10:01:00",
        "note": note,
    }
    return orders


WORDING = {"en": "no ice", "zh": "不要冰"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_a_live_product_order_the_instore_grader_checks_the_note(lang: str) -> None:
    task = _task([GYM], (NOTE[lang],))
    # the order that carries the note asked is the one (a note is asked: it is no unasked note)
    result = _grade(task, orders=_bought(task, WORDING[lang]))
    assert (result.reward, result.unchecked) == (1.0, [])
    # not reported as a note no record takes: the order's own check and the stated note count
    assert result.info["coverage"]["note"] == {"checked": 2}
    # without the note, or with another, the order does not satisfy the requirement
    for note in ("", "extra napkins"):
        result = _grade(task, orders=_bought(task, note))
        assert result.reward == 0.0 and result.unchecked == []
        assert _verdicts(result)["order[0]:G_NEW_O"] == (
            False,
            f"IO-1: note '{note}' does not ask '{WORDING[lang]}' ('{NOTE[lang]}')",
        )
    # an order that breaks another rule says that first, whatever its note
    wrong = _bought(task, WORDING[lang])
    wrong["IO-1"]["status"] = "unpaid"
    assert _verdicts(_grade(task, orders=wrong))["order[0]:G_NEW_O"] == (
        False,
        "IO-1: status unpaid does not satisfy paid",
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_without_a_note_rubric_an_instore_order_takes_no_note(lang: str) -> None:
    task = _task([GYM], ("r",))
    assert _grade(task, orders=_bought(task)).reward == 1.0
    result = _grade(task, orders=_bought(task, WORDING[lang]))
    assert _verdicts(result)["order[0]:G_NEW_O"] == (
        False,
        f"IO-1: note '{WORDING[lang]}' asks what the task does not ask (no note expected)",
    )


ASK_ONLY = {"en": "Please add a note to the order", "zh": "请给订单添加备注"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_note_asked_without_its_wording_allows_a_note_and_is_reported(lang: str) -> None:
    task = _task([GYM], (ASK_ONLY[lang],))
    for note in ("", WORDING[lang]):
        result = _grade(task, orders=_bought(task, note))
        assert _verdicts(result)["order[0]:G_NEW_O"] == (True, "matched created order IO-1")
        assert [u.split(":", 1)[0] for u in result.unchecked] == ["note"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_beside_a_delivery_order_the_instore_grader_leaves_the_note_alone(lang: str) -> None:
    task = _task([GYM, DELIVERY], (NOTE[lang],))
    result = _grade(task, orders=_bought(task))
    assert (result.reward, result.unchecked) == (1.0, [])
    # only the new order's own note check: the stated note is the delivery grader's
    assert result.info["coverage"]["note"] == {"checked": 1}
    assert _verdicts(result)["order[0]:G_NEW_O"] == (True, "matched created order IO-1")


# ---- two live appointments: the id a rubric names, else the record that agrees -----------------


def _gym_and_spa(rubric: str, gym_size: int | None) -> VitaTask:
    gym = _reservation("G_GYM", "S_GYM", "2025-05-17 09:00:00", 0, "paid")
    spa = _reservation("G_SPA", "S_SPA", "2025-05-17 15:00:00", 3, "paid")
    del gym["customer_count"]
    if gym_size is not None:
        gym["customer_count"] = gym_size
    return _task([gym, spa], (rubric,))


def _gym_and_spa_made(task: VitaTask, gym_size: int) -> BasisResult:
    reservations = copy.deepcopy(task.environment["reservations"])
    reservations["RS-1"] = _reservation("RS-1", "S_GYM", "2025-05-17 09:00:00", gym_size, "paid")
    reservations["RS-2"] = _reservation("RS-2", "S_SPA", "2025-05-17 15:00:00", 3, "paid")
    return _grade(task, reservations=reservations)


BY_ID = {
    "en": "The reservation G_GYM should be for 2 people",
    "zh": "预约G_GYM的人数应为2人",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rubric_naming_an_appointments_id_is_about_that_appointment(lang: str) -> None:
    task = _gym_and_spa(BY_ID[lang], None)
    result = _gym_and_spa_made(task, 2)
    assert (result.reward, result.unchecked) == (1.0, [])
    result = _gym_and_spa_made(task, 4)
    assert _verdicts(result)["reservation[0]:G_GYM"] == (
        False,
        f"RS-1: customer_count 4 ≠ 2 ('{BY_ID[lang]}'); RS-2: shop S_SPA ≠ S_GYM",
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rubric_that_names_no_appointment_is_the_one_whose_record_agrees(lang: str) -> None:
    # "the reservation should be for 2 people": the gym's record says 2, the spa's 3
    task = _gym_and_spa(PLAIN[lang][1], 2)
    result = _gym_and_spa_made(task, 2)
    assert (result.reward, result.unchecked) == (1.0, [])
    assert result.info["coverage"]["party_size"] == {"checked": 3}
    # with neither record agreeing, nothing can tell which one it is about
    task = _gym_and_spa(PLAIN[lang][1], 4)
    result = _gym_and_spa_made(task, 4)
    assert result.unchecked == [
        f"party_size: '{PLAIN[lang][1]}' states party size 2, but no single required record "
        "could be found it is about"
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cross_grader_checks_an_instore_note_the_same_way(lang: str) -> None:
    task = _task([GYM], (NOTE[lang],))

    def cross(note: str) -> BasisResult:
        final = {
            "orders": _bought(task, note),
            "books": {},
            "reservations": copy.deepcopy(task.environment["reservations"]),
        }
        return cross_state_evaluator().grade(task, simulation(final))

    assert (cross(WORDING[lang]).reward, cross(WORDING[lang]).unchecked) == (1.0, [])
    assert cross("").reward == 0.0
