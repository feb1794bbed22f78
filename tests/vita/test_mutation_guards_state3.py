"""More of the state grader's rules (vita/grading/state.py) pinned by their effect on the reward:
the closed-world guard reads a pre-existing order through the orders' data model, as the tools
dump it, in English and Chinese."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from _synthetic import (
    Lang,
    cross_env,
    delivery_env,
    grade_state,
    instore_env,
    oracle_state,
    task,
)
from _vita_builders import delivery_task, final_state, grade, right_order

LANGS: tuple[Lang, ...] = ("en", "zh")


def _cancel_o1(env: dict[str, Any]) -> Any:
    return task(env, [{**copy.deepcopy(env["orders"]["O1"]), "status": "cancelled"}])


@pytest.mark.parametrize("lang", LANGS)
def test_an_untouched_order_with_keys_the_data_model_drops_is_unchanged(lang: Lang) -> None:
    # The task file gives the unmentioned orders a key the order model does not have (dropped
    # when the tools load and dump the order) and a null where the model has a default: the
    # episode does not touch them, so nothing changed.
    env = delivery_env(lang)
    env["orders"]["O3"]["courier"] = "Wang Wei" if lang == "en" else "王伟"
    env["orders"]["O2"]["user_id"] = None
    t = _cancel_o1(env)
    state = oracle_state(t, "delivery")
    assert "courier" not in state["orders"]["O3"]
    result = grade_state(t, "delivery", state)
    verdicts = {c.id: c for c in result.criteria}
    assert verdicts["no_unrequested_changes"].met, verdicts["no_unrequested_changes"].evidence
    assert verdicts["no_unrequested_changes"].evidence == "none changed"
    assert result.reward == 1.0
    # a real change to that order still fails the guard, naming the field
    state["orders"]["O3"]["note"] = "Leave at the door" if lang == "en" else "放门口"
    failed = grade_state(t, "delivery", state)
    assert failed.reward == 0.0
    assert {c.id: c.evidence for c in failed.criteria if not c.met} == {
        "no_unrequested_changes": "O3: note"
    }


@pytest.mark.parametrize("lang", LANGS)
def test_a_pre_existing_order_that_is_no_record_in_the_final_state_was_removed(
    lang: Lang,
) -> None:
    # A final state read from a run file may hold anything in place of an order: a value that
    # is no record counts as the order removed (every field changed), never a crash.
    t = _cancel_o1(delivery_env(lang))
    state = oracle_state(t, "delivery")
    for junk in ("deleted", ["O3"], 0):
        wrong = copy.deepcopy(state)
        wrong["orders"]["O3"] = junk
        result = grade_state(t, "delivery", wrong)
        assert result.reward == 0.0, junk
        assert {c.id: c.evidence for c in result.criteria if not c.met} == {
            "no_unrequested_changes": "O3: (removed)"
        }, junk


@pytest.mark.parametrize("lang", LANGS)
def test_a_cross_task_without_delivery_requirements_still_guards_the_delivery_orders(
    lang: Lang,
) -> None:
    # The task only asks to cancel the spa voucher (in-store): the delivery orders are guarded
    # all the same, read from the final state's orders.
    env = cross_env(lang)
    t = task(env, [{**copy.deepcopy(env["orders"]["IO1"]), "status": "cancelled"}])
    state = oracle_state(t, "cross")
    assert state["orders"]["IO1"]["status"] == "cancelled"
    result = grade_state(t, "cross", state)
    verdicts = {c.id: c for c in result.criteria}
    assert result.reward == 1.0
    for guard in ("no_unrequested_cancellations", "no_unrequested_changes", "no_extra_orders"):
        assert verdicts[f"delivery:{guard}"].met, guard
    assert verdicts["delivery:no_unrequested_changes"].evidence == "none changed"
    wrong = copy.deepcopy(state)
    wrong["orders"]["O1"]["status"] = "cancelled"
    failed = grade_state(t, "cross", wrong)
    assert failed.reward == 0.0
    assert {c.id: c.evidence for c in failed.criteria if not c.met} == {
        "delivery:no_unrequested_cancellations": "O1"
    }


@pytest.mark.parametrize("lang", LANGS)
def test_a_new_in_store_order_carries_nothing_its_record_does_not_ask(lang: Lang) -> None:
    # A new voucher order (in-store): its expected record has no note, times or address, so
    # the order the episode creates may carry none either.
    env = instore_env(lang)
    want = {**copy.deepcopy(env["orders"]["IO1"]), "order_id": "NEW"}
    t = task(env, [want])
    state = oracle_state(t, "instore")
    made = [oid for oid in state["orders"] if oid not in env["orders"]]
    assert len(made) == 1
    assert grade_state(t, "instore", state).reward == 1.0
    for change, why in (
        ({"note": "Window seat" if lang == "en" else "靠窗"}, "asks what the task does not ask"),
        ({"dispatch_time": "2025-06-05 10:00:00"}, "where the task expects none"),
        ({"delivery_time": "2025-06-05 10:00:00"}, "where the task expects none"),
    ):
        wrong = copy.deepcopy(state)
        wrong["orders"][made[0]].update(change)
        result = grade_state(t, "instore", wrong)
        assert result.reward == 0.0, change
        failed = [c for c in result.criteria if not c.met]
        # (the order no requirement matches is an extra order as well)
        assert [c.id for c in failed] == ["order[0]:NEW", "no_extra_orders"], change
        assert why in failed[0].evidence, (change, failed[0].evidence)


def test_a_requirement_no_created_order_meets_gives_every_orders_reason() -> None:
    # Two orders were created at the wrong store: the unmet requirement names each with why.
    t = delivery_task()
    made = [{**right_order(f"OTSYN1-00{n}"), "store_id": "S2"} for n in (1, 2)]
    result = grade(t, final_state(t, *made))
    want = next(c for c in result.criteria if c.id.startswith("order[0]"))
    assert not want.met
    assert want.evidence == "OTSYN1-001: store S2 ≠ S1; OTSYN1-002: store S2 ≠ S1"


@pytest.mark.parametrize("lang", LANGS)
def test_every_changed_field_of_an_unmentioned_order_is_named(lang: Lang) -> None:
    t = _cancel_o1(delivery_env(lang))
    state = oracle_state(t, "delivery")
    state["orders"]["O3"]["note"] = "Leave at the door" if lang == "en" else "放门口"
    state["orders"]["O3"]["dispatch_time"] = "2025-06-04 18:00:00"
    state["orders"]["O2"]["dispatch_time"] = "2025-06-04 19:00:00"
    failed = grade_state(t, "delivery", state)
    assert {c.id: c.evidence for c in failed.criteria if not c.met} == {
        "no_unrequested_changes": "O2: dispatch_time; O3: dispatch_time, note"
    }
