"""Closed-world, field-complete state grading, proved on synthetic tasks of our own (en and zh;
delivery, in-store, OTA, cross) for each class of issue 16:

1. a time / day stated only in the rubrics is checked on the record it is about;
2. an expected attribute no offered option means makes the state basis undecided (never 1);
3. any change to a record the task does not mention fails a named criterion;
4. an unasked note on a created order fails;
5. rubrics that name orders decide edit vs new vs replacement.

And an independent near-miss generator (``_independent``: every field of every record of the
oracle's final state, every pre-existing record removed) finds no state the grader accepts.
"""

from __future__ import annotations

import asyncio
import copy
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import pytest
from _independent import mutations
from _synthetic import (
    CLOCK,
    FAR,
    HOME,
    HOT,
    ICED,
    MILD,
    ROOMS,
    SEATS,
    Lang,
    booking,
    cross_env,
    delivery_env,
    delivery_order,
    grade_state,
    instore_env,
    oracle_state,
    ota_env,
    ota_order,
    reservation,
    task,
)

from lifebench.evaluation import BasisResult, combine
from lifebench.vita.certify import certify_task
from lifebench.vita.loader import load_bundled_tasks
from lifebench.vita.task import VitaTask

LANGS: tuple[Lang, ...] = ("en", "zh")

RUBRICS: dict[str, dict[Lang, list[str]]] = {
    "delivery": {
        "en": [
            "The noodle order should be delivered before 12:00 tomorrow",
            "The tea order should be delivered around 15:00 the day after tomorrow",
        ],
        "zh": ["牛肉面订单应在明天12点前送达", "柠檬茶订单应在后天下午3点左右送达"],
    },
    "instore": {
        "en": [
            "The spa reservation should be for 2 people",
            "The hotpot table should be booked for Friday at 7 PM",
        ],
        "zh": ["水疗预约人数应为2人", "火锅订座时间应为周五晚上7点"],
    },
    "ota": {
        "en": ["The hotel room must be for the night of the day after tomorrow"],
        "zh": ["酒店订单必须是后天当晚的大床房"],
    },
}


def delivery_scenario(lang: Lang) -> VitaTask:
    """Two new orders whose times only the rubrics state (tomorrow / the day after), O1
    cancelled; O2 and O3 are not mentioned."""
    env = delivery_env(lang)
    noodles = delivery_order("T1", "S1", [("P1", 1, MILD[lang])], status="paid")
    tea = delivery_order(
        "T2",
        "S1",
        [("P2", 2, ICED[lang])],
        status="unpaid",
        note="No straw" if lang == "en" else "不要吸管",
    )
    cancel = {**env["orders"]["O1"], "status": "cancelled"}
    return task(env, [noodles, tea, cancel], RUBRICS["delivery"][lang], task_id=f"SYN-D-{lang}")


def instore_scenario(lang: Lang) -> VitaTask:
    """A spa reservation whose party size only the rubrics state, a table booking whose time
    only the rubrics state (Friday 19:00), R_MOVE moved; IO1 and R_KEEP are not mentioned."""
    env = instore_env(lang)
    spa = {**reservation("N1", "SP", "2025-06-05 15:00:00", 2), "customer_count": None}
    table = booking("N2", "RS", "2025-6-6 19:00", 4)  # unpadded: read normally
    table["book_time"] = ""  # only the rubrics state it
    moved = reservation("R_MOVE", "GY", "2025-06-08 10:00:00", 2)
    return task(env, [spa, table, moved], RUBRICS["instore"][lang], task_id=f"SYN-I-{lang}")


def ota_scenario(lang: Lang) -> VitaTask:
    """A room whose night only the rubrics state (the day after tomorrow: 6 June), the train
    moved to the 7th and paid; OH is not mentioned."""
    env = ota_env(lang)
    room = ota_order("N1", "hotel", "H1", ROOMS[1], "paid")
    del room["products"][0]["date"]
    moved = ota_order("OT", "train", "T1", SEATS[2], "paid")
    return task(env, [room, moved], RUBRICS["ota"][lang], task_id=f"SYN-O-{lang}")


def cross_scenario(lang: Lang) -> VitaTask:
    """A delivery (time from the rubrics), a spa reservation, a train date change."""
    env = cross_env(lang)
    noodles = delivery_order("T1", "S1", [("P1", 1, MILD[lang])], status="paid")
    spa = reservation("N1", "SP", "2025-06-05 15:00:00", 2)
    moved = ota_order("OT", "train", "T1", SEATS[2], "paid")
    rubrics = [RUBRICS["delivery"][lang][0]]
    return task(env, [noodles, spa, moved], rubrics, task_id=f"SYN-X-{lang}")


SCENARIOS = {
    "delivery": delivery_scenario,
    "instore": instore_scenario,
    "ota": ota_scenario,
    "cross": cross_scenario,
}
CASES = [(d, lang) for d in SCENARIOS for lang in LANGS]


def _accepted(result: BasisResult) -> bool:
    return result.gradable and result.reward == 1.0


def _failed(result: BasisResult) -> dict[str, str]:
    return {
        c.id.split(":", 1)[-1]
        if c.id.startswith(("delivery:", "instore:", "ota:"))
        else c.id: c.evidence
        for c in result.criteria
        if not c.met
    }


@pytest.mark.parametrize(("domain", "lang"), CASES, ids=[f"{d}-{lang}" for d, lang in CASES])
def test_the_oracle_solves_every_scenario_and_nothing_stated_is_unchecked(
    domain: str, lang: Lang
) -> None:
    t = SCENARIOS[domain](lang)
    state = oracle_state(t, domain)
    result = grade_state(t, domain, state)
    assert _accepted(result), _failed(result)
    assert result.unchecked == [] and not result.undecided
    coverage = result.info["coverage"]
    assert coverage["unrequested"]["checked"] >= 1 and coverage["status"]["checked"] >= 2


@pytest.mark.parametrize(("domain", "lang"), CASES, ids=[f"{d}-{lang}" for d, lang in CASES])
def test_no_independent_near_miss_is_accepted(domain: str, lang: Lang) -> None:
    t = SCENARIOS[domain](lang)
    state = oracle_state(t, domain)
    seen: Counter[str] = Counter()
    for m in mutations(t.environment, state):
        result = grade_state(t, domain, m.state)
        assert not _accepted(result), (m.table, m.record, m.field)
        seen[m.field.split(".")[-1]] += 1
    # every kind of field was changed somewhere
    assert {"status", "user_id", "(removed)"} <= set(seen)
    if domain in ("delivery", "cross"):
        assert {"note", "location", "dispatch_time+delivery_time", "attributes", "quantity"} <= set(
            seen
        )
    if domain in ("instore", "cross"):
        assert {"customer_count", "reservation_time"} <= set(seen)
    if domain in ("ota", "cross"):
        assert {"date", "product_id"} <= set(seen)


# ---- class 1: times and days stated only in the rubrics --------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_delivery_day_stated_only_in_the_rubrics_is_checked(lang: Lang) -> None:
    t = delivery_scenario(lang)
    state = oracle_state(t, "delivery")
    created = [o for k, o in state["orders"].items() if k not in t.environment["orders"]]
    noodles = next(
        o for o in created if o["store_id"] == "S1" and o["products"][0]["product_id"] == "P1"
    )
    assert (
        noodles["delivery_time"].startswith("2025-06-05")
        and noodles["delivery_time"] <= "2025-06-05 12:00:00"
    )
    tea = next(o for o in created if o["products"][0]["product_id"] == "P2")
    assert "2025-06-06 14:30:00" <= tea["delivery_time"] <= "2025-06-06 15:30:00"
    for moved in ("2025-06-04 11:50:00", "2025-06-05 12:20:00", "2025-06-06 11:50:00"):
        wrong = copy.deepcopy(state)
        arrival = datetime.fromisoformat(moved)
        for o in wrong["orders"].values():
            if o.get("order_id") == noodles["order_id"]:
                o["delivery_time"] = moved
                shipping = timedelta(minutes=float(o["shipping_time"]))
                o["dispatch_time"] = (arrival - shipping).strftime("%Y-%m-%d %H:%M:%S")
        result = grade_state(t, "delivery", wrong)
        assert not _accepted(result), moved
        assert "not in" in " ".join(_failed(result).values()), moved


@pytest.mark.parametrize("lang", LANGS)
def test_untimed_and_unstated_means_as_soon_as_possible(lang: Lang) -> None:
    env = delivery_env(lang)
    t = task(env, [delivery_order("T1", "S2", [("P4", 1, "")], status="unpaid")])
    state = oracle_state(t, "delivery")
    assert _accepted(grade_state(t, "delivery", state))
    later = copy.deepcopy(state)
    for oid, o in later["orders"].items():
        if oid not in env["orders"]:
            o["dispatch_time"] = "2025-06-04 15:00:00"
            o["delivery_time"] = "2025-06-04 15:40:00"
    assert "not within 30 min" in " ".join(_failed(grade_state(t, "delivery", later)).values())


# ---- class 2: attributes the grader cannot map -----------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_an_unmapped_attribute_makes_the_state_undecided_and_the_judge_decides(lang: Lang) -> None:
    env = delivery_env(lang)
    odd = "Medium Spicy" if lang == "en" else "中辣"
    t = task(env, [delivery_order("T1", "S1", [("P1", 1, odd)], status="unpaid")])
    state = oracle_state(t, "delivery")
    result = grade_state(t, "delivery", state)
    assert result.undecided and not result.gradable and result.reward == 0.0
    assert result.unchecked[0].startswith(f"attribute: '{odd}'")
    # the opposite option is not a pass either
    for o in state["orders"].values():
        if o["order_id"] not in env["orders"]:
            o["products"][0]["attributes"] = HOT[lang]
    assert not _accepted(grade_state(t, "delivery", state))
    # under a reward of both bases, the judge decides; alone, the task is ungradable
    judge = BasisResult(basis="rubric", reward=1.0, score=1.0)
    assert combine({"state": result, "rubric": judge}, ["state", "rubric"]).reward == 1.0
    assert (
        combine(
            {"state": result, "rubric": judge.model_copy(update={"reward": 0.0})},
            ["state", "rubric"],
        ).reward
        == 0.0
    )
    alone = combine({"state": result}, ["state"])
    assert not alone.gradable and alone.reward == 0.0


# ---- class 3: changes to records the task does not mention ---------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("record", "change", "field"),
    [
        ("O3", {"note": "Leave at the door"}, "note"),
        ("O3", {"location": FAR}, "location"),
        ("O3", {"dispatch_time": "2025-06-04 18:00:00"}, "dispatch_time"),
        ("O2", {"status": "paid"}, "status"),
        ("O3", {"status": "cancelled"}, None),
    ],
)
def test_any_change_to_an_unmentioned_order_fails(
    lang: Lang, record: str, change: dict[str, Any], field: str | None
) -> None:
    t = delivery_scenario(lang)
    state = oracle_state(t, "delivery")
    state["orders"][record] = {**state["orders"][record], **change}
    failed = _failed(grade_state(t, "delivery", state))
    if field is None:
        assert failed == {"no_unrequested_cancellations": record}
    else:
        assert failed == {"no_unrequested_changes": f"{record}: {field}"}


@pytest.mark.parametrize("lang", LANGS)
def test_unmentioned_appointments_and_bookings_keep_every_field(lang: Lang) -> None:
    t = instore_scenario(lang)
    state = oracle_state(t, "instore")
    for change in (
        {"customer_count": 3},
        {"reservation_time": "2025-06-06 11:00:00"},
        {"status": "cancelled"},
    ):
        wrong = copy.deepcopy(state)
        wrong["reservations"]["R_KEEP"].update(change)
        failed = _failed(grade_state(t, "instore", wrong))
        assert list(failed) == ["no_unrequested_appointment_changes"], change
        assert failed["no_unrequested_appointment_changes"].startswith("R_KEEP: ")
    ota = ota_scenario(lang)
    moved = oracle_state(ota, "ota")
    moved["orders"]["OH"]["products"][0] = {**ROOMS[2], "quantity": 1}
    assert _failed(grade_state(ota, "ota", moved)) == {"no_unrequested_changes": "OH: products"}


# ---- class 4: an unasked note ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_an_unasked_note_on_a_created_order_fails(lang: Lang) -> None:
    t = delivery_scenario(lang)
    state = oracle_state(t, "delivery")
    noodles = next(
        o
        for k, o in state["orders"].items()
        if k not in t.environment["orders"] and o["products"][0]["product_id"] == "P1"
    )
    noodles["note"] = "Deliver after 22:00" if lang == "en" else "22点以后再送"
    assert "asks what the task does not ask" in " ".join(
        _failed(grade_state(t, "delivery", state)).values()
    )


# ---- class 5: rubrics that name orders -------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_cancellation_only_the_rubrics_ask_is_required(lang: Lang) -> None:
    env = delivery_env(lang)
    rubric = (
        "Need to cancel the order with order_id O3"
        if lang == "en"
        else "需要将order_id为O3的订单取消"
    )
    t = task(env, [delivery_order("T1", "S2", [("P4", 1, "")], status="unpaid")], [rubric])
    state = oracle_state(t, "delivery")
    assert state["orders"]["O3"]["status"] == "cancelled"
    assert _accepted(grade_state(t, "delivery", state))
    state["orders"]["O3"]["status"] = "paid"
    assert not _accepted(grade_state(t, "delivery", state))


@pytest.mark.parametrize("lang", LANGS)
def test_an_edit_filed_under_a_new_id_and_an_id_reused_for_a_new_order(lang: Lang) -> None:
    env = delivery_env(lang)
    note = "No disposable tableware" if lang == "en" else "不要一次性餐具"
    rubric = (
        f"Need to modify the note for order with order_id O1 to: {note}"
        if lang == "en"
        else f"需要将order_id为O1的订单备注修改为：{note}"
    )
    edited = {**delivery_order("T9", "S1", [("P1", 1, "")]), "note": note}  # O1's content, a new id
    reused = delivery_order("O1", "S2", [("P4", 1, "")], status="unpaid")  # O1's id, new content
    t = task(env, [edited, reused], [rubric])
    state = oracle_state(t, "delivery")
    assert state["orders"]["O1"]["note"] == note and state["orders"]["O1"]["status"] == "paid"
    result = grade_state(t, "delivery", state)
    assert _accepted(result), _failed(result)
    # an agent that cancels O1 and re-orders (the "replacement" reading) fails
    state["orders"]["O1"]["status"] = "cancelled"
    assert not _accepted(grade_state(t, "delivery", state))


@pytest.mark.parametrize("lang", LANGS)
def test_order_again_keeps_the_named_order(lang: Lang) -> None:
    env = delivery_env(lang)
    rubric = (
        "Order one more serving from the order with order_id O1"
        if lang == "en"
        else "order_id为O1的订单中的牛肉面再下单一份"
    )
    kept = delivery_order("O1", "S1", [("P1", 2, "")])  # lines differ: no tool edits them
    again = delivery_order("T1", "S1", [("P1", 1, "")], status="unpaid")
    t = task(env, [kept, again], [rubric])
    state = oracle_state(t, "delivery")
    assert state["orders"]["O1"]["status"] == "paid"
    assert _accepted(grade_state(t, "delivery", state))


# ---- certify on the synthetic scenarios -----------------------------------------------------------


@pytest.mark.parametrize(("domain", "lang"), CASES, ids=[f"{d}-{lang}" for d, lang in CASES])
def test_certify_generates_near_misses_per_field_and_variations_that_pass(
    domain: str, lang: Lang
) -> None:
    t = SCENARIOS[domain](lang)
    cert = asyncio.run(certify_task(t, domain, lang))
    assert cert.solvable and cert.discriminating, cert.oracle_evidence
    assert cert.false_accepts == [] and cert.false_rejects == []
    fields = {n.field for n in cert.near_misses}
    assert "unrequested" in fields
    if domain in ("delivery", "cross"):
        assert "status" in fields
        assert {"products", "attribute", "store", "address", "note", "time"} <= fields
        assert any(n.kind == "stated_window" for n in cert.near_misses)
    if domain == "instore":
        assert {"party_size", "time", "date"} <= fields
    if domain == "ota":
        assert {"date", "status"} <= fields
    kinds = {v.kind for v in cert.variations}
    assert {"extra_reads", "cancel_and_recreate"} <= kinds
    assert all(v.outcome == "accepted" for v in cert.variations if not v.tool_errors)


BUNDLED = [(d, lang) for d in ("delivery", "instore", "ota", "cross") for lang in LANGS]


@pytest.mark.parametrize(("domain", "lang"), BUNDLED, ids=[f"{d}-{lang}" for d, lang in BUNDLED])
def test_no_independent_near_miss_is_accepted_on_generated_tasks(domain: str, lang: Lang) -> None:
    accepted: list[tuple[str, str, str]] = []
    checked = 0
    for t in load_bundled_tasks(domain, lang, "generated")[:6]:
        state = oracle_state(t, domain)
        if not _accepted(grade_state(t, domain, state)):
            continue
        for m in mutations(t.environment, state):
            checked += 1
            if _accepted(grade_state(t, domain, m.state)):
                accepted.append((t.id, m.record, m.field))
    assert checked > 50 and accepted == []


def test_the_clock_is_the_scenarios() -> None:
    # the relative days above are read from this clock (a Wednesday)
    assert CLOCK == "2025-06-04 11:00:00" and HOME["address"] != FAR["address"]


def test_coverage_counts_checks_per_field_class_and_undecided_tasks() -> None:
    from lifebench.metrics._coverage import coverage_by_basis

    good = delivery_scenario("en")
    odd = task(
        delivery_env("en"),
        [delivery_order("T1", "S1", [("P1", 1, "Medium Spicy")], status="unpaid")],
    )
    graded = []
    for t in (good, odd):
        result = grade_state(t, "delivery", oracle_state(t, "delivery"))
        graded.append((t.id, combine({"state": result}, ["state"])))
    cov = coverage_by_basis(graded)["state"]
    assert (cov.tasks, cov.ungradable_tasks, cov.undecided_tasks, cov.tasks_with_unchecked) == (
        2,
        1,
        1,
        1,
    )
    assert cov.share_with_unchecked == 0.5
    assert cov.by_field["attribute"] == {"checked": 2, "unchecked": 1}
    assert cov.by_field["time"]["checked"] == 3  # two stated windows, one "as soon as possible"
    assert (
        cov.by_field["unrequested"]["checked"] == 6
        and cov.by_field["unrequested"]["unchecked"] == 0
    )
