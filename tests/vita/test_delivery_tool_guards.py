"""The delivery write tools answer exactly: the message and the order the agent reads after
paying, cancelling or changing a note, and the delivery time tool's fields and its refusal of a
negative distance (its text and kind), pinned by their effect on what the agent sees."""

from __future__ import annotations

import json

import pytest
from test_delivery_tools import call, create, make_task

from lifebench.vita.domains.delivery import DeliveryEnvironment


@pytest.fixture
def env() -> DeliveryEnvironment:
    return DeliveryEnvironment(make_task())


async def test_pay_cancel_and_modify_answer_exactly(env: DeliveryEnvironment) -> None:
    created = await create(env)
    assert not created.error, created.content
    order_id = json.loads(created.content)["order_id"]

    paid = await call(env, "pay_delivery_order", order_id=order_id)
    assert not paid.error, paid.content
    answer = json.loads(paid.content)
    assert answer == {"message": "Payment successful.", "order": answer["order"]}
    assert answer["order"] == env.db.orders[order_id].model_dump(mode="json")
    assert answer["order"]["status"] == "paid"

    noted = await call(env, "modify_delivery_order", order_id=order_id, note="no chilli")
    answer = json.loads(noted.content)
    assert answer == {
        "message": f"Order {order_id} has been modified.",
        "order": env.db.orders[order_id].model_dump(mode="json"),
    }
    assert answer["order"]["note"] == "no chilli"

    cancelled = await call(env, "cancel_delivery_order", order_id=order_id)
    answer = json.loads(cancelled.content)
    assert answer == {
        "message": f"Order {order_id} has been cancelled.",
        "order": env.db.orders[order_id].model_dump(mode="json"),
    }
    assert answer["order"]["status"] == "cancelled"


@pytest.mark.parametrize(("metres", "minutes"), [(0.0, 25), (1000.0, 32), (2500.0, 41)])
async def test_delivery_time_answers_its_fields(
    env: DeliveryEnvironment, metres: float, minutes: int
) -> None:
    outcome = await call(env, "delivery_distance_to_time", distance=metres)
    assert json.loads(outcome.content) == {"distance_m": metres, "minutes": minutes}


async def test_a_negative_distance_is_refused_with_its_reason(env: DeliveryEnvironment) -> None:
    outcome = await call(env, "delivery_distance_to_time", distance=-0.5)
    assert (outcome.error, outcome.error_kind) == (True, "precondition")
    assert outcome.content == "distance must be a non-negative number of metres."


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"product_cnts": [2, 1, 1]},
            "product_cnts has 3 items but product_ids has 2; they must be aligned.",
        ),
        (
            {"attributes": ["Mild Spicy", "", ""]},
            'attributes has 3 items but product_ids has 2; give one attribute per product ("" '
            "for none).",
        ),
    ],
    ids=["more-counts", "more-attributes"],
)
async def test_lists_longer_than_the_products_are_refused(
    env: DeliveryEnvironment, overrides: dict[str, object], message: str
) -> None:
    outcome = await create(env, **overrides)
    assert (outcome.error, outcome.error_kind, outcome.content) == (True, "precondition", message)
    assert env.created_order_ids == ()


@pytest.mark.parametrize("radius", [-0.5, -1.0, -1000.0])
async def test_a_negative_search_radius_is_refused(env: DeliveryEnvironment, radius: float) -> None:
    outcome = await call(env, "get_nearby", longitude=102.7, latitude=25.06, range=radius)
    assert (outcome.error, outcome.error_kind) == (True, "precondition")
    assert outcome.content == "range must be a non-negative number of metres."


async def test_a_zero_search_radius_is_allowed(env: DeliveryEnvironment) -> None:
    outcome = await call(env, "get_nearby", longitude=102.7, latitude=25.06, range=0.0)
    assert not outcome.error, outcome.content
