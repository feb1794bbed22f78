"""create_delivery_order's preconditions pinned by their effect: the exact error the agent reads
(text and kind) and an unchanged database for every refused call, and the exact order a valid
call stores (what the state grader then compares), including the near misses of each rule."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_delivery_tools import HOME, HOSPITAL, ORDER_ARGS, TIME, create, make_task

from lifebench.errors import InputError
from lifebench.vita.domains.delivery import DeliveryEnvironment

REFUSED: list[tuple[dict[str, Any], str, str]] = [
    ({"user_id": "U2"}, "precondition", "User ID 'U2' does not match the current user."),
    ({"store_id": "S_NOPE"}, "not_found", "Store 'S_NOPE' not found."),
    (
        {"product_ids": [], "product_cnts": [], "attributes": []},
        "precondition",
        "product_ids must list at least one product.",
    ),
    (
        {"product_cnts": [1]},
        "precondition",
        "product_cnts has 1 items but product_ids has 2; they must be aligned.",
    ),
    (
        {"product_cnts": [1, 1, 1]},
        "precondition",
        "product_cnts has 3 items but product_ids has 2; they must be aligned.",
    ),
    (
        {"attributes": ["Mild Spicy"]},
        "precondition",
        'attributes has 1 items but product_ids has 2; give one attribute per product ("" for '
        "none).",
    ),
    (
        {"product_cnts": [0, 1]},
        "precondition",
        "Every product count must be a positive integer.",
    ),
    (
        {"product_cnts": [1, -3]},
        "precondition",
        "Every product count must be a positive integer.",
    ),
    (
        {"dispatch_time": "2025-06-21 11:30"},
        "precondition",
        "dispatch_time must be in 'YYYY-MM-DD HH:MM:SS' format.",
    ),
    (
        {"dispatch_time": "2025-06-21 11:19:59"},
        "precondition",
        "dispatch_time 2025-06-21 11:19:59 is earlier than the current time 2025-06-21 11:20:00.",
    ),
    (
        {"product_ids": ["P_NOODLE", "P_TEA"]},
        "precondition",
        "Product 'P_TEA' belongs to store 'S_TEA', not to store 'S_NOODLE'. One order holds "
        "products of one store only.",
    ),
    (
        {"product_ids": ["P_NOODLE", "P_NONE"]},
        "not_found",
        "Product 'P_NONE' not found in store 'S_NOODLE'.",
    ),
    (
        {"attributes": ["Extra Spicy", ""]},
        "precondition",
        "Attribute 'Extra Spicy' is not offered for product P_NOODLE (Chicken crossing bridge "
        "rice noodles). Offered attributes: 'Normal Spicy'; 'Mild Spicy'; use \"\" for none.",
    ),
    (
        {"attributes": ["Spicy", ""]},
        "precondition",
        "Attribute 'Spicy' is ambiguous for product P_NOODLE (Chicken crossing bridge rice "
        "noodles): it could be 'Normal Spicy'; 'Mild Spicy'. Offered attributes: 'Normal "
        "Spicy'; 'Mild Spicy'; use \"\" for none.",
    ),
]


@pytest.mark.parametrize(
    ("overrides", "kind", "message"),
    REFUSED,
    ids=[f"refused-{i}" for i in range(len(REFUSED))],
)
async def test_a_refused_order_says_exactly_why_and_stores_nothing(
    overrides: dict[str, Any], kind: str, message: str
) -> None:
    env = DeliveryEnvironment(make_task())
    before = json.dumps(env.snapshot(), sort_keys=True)
    outcome = await create(env, **overrides)
    assert (outcome.error, outcome.error_kind, outcome.content) == (True, kind, message)
    assert json.dumps(env.snapshot(), sort_keys=True) == before
    # the refused call used no order id: the next valid order is still the first one
    created = await create(env)
    assert json.loads(created.content)["order_id"] == "OTT1-001"


def expected_order(**changes: Any) -> dict[str, Any]:
    order: dict[str, Any] = {
        "order_id": "OTT1-001",
        "order_type": "delivery",
        "user_id": "U1",
        "store_id": "S_NOODLE",
        "note": "No cilantro",
        "location": {"address": HOSPITAL, "longitude": 102.713518, "latitude": 25.048244},
        "dispatch_time": "2025-06-21 11:30:00",
        "shipping_time": 32.0,
        "delivery_time": "2025-06-21 12:02:00",
        "total_price": 53.3,
        "create_time": TIME,
        "update_time": TIME,
        "status": "unpaid",
        "products": [
            {
                "product_id": "P_NOODLE",
                "name": "Chicken crossing bridge rice noodles",
                "price": 25.0,
                "quantity": 2,
                "attributes": "Mild Spicy",
            },
            {
                "product_id": "P_PICKLE",
                "name": "Pickled vegetables",
                "price": 3.3,
                "quantity": 1,
                "attributes": "",
            },
        ],
    }
    order.update(changes)
    return order


async def test_a_valid_order_is_stored_exactly_as_answered() -> None:
    env = DeliveryEnvironment(make_task())
    outcome = await create(env)
    assert not outcome.error, outcome.content
    answer = json.loads(outcome.content)
    assert answer == expected_order()
    assert env.db.orders["OTT1-001"].model_dump(mode="json") == answer
    assert env.created_order_ids == ("OTT1-001",)
    assert env.snapshot()["created_order_ids"] == ["OTT1-001"]


async def test_an_empty_attribute_list_means_no_option_for_any_line() -> None:
    env = DeliveryEnvironment(make_task())
    outcome = await create(env, product_ids=["P_PICKLE"], product_cnts=[3], attributes=[])
    assert not outcome.error, outcome.content
    answer = json.loads(outcome.content)
    line = {
        "product_id": "P_PICKLE",
        "name": "Pickled vegetables",
        "price": 3.3,
        "quantity": 3,
        "attributes": "",
    }
    assert answer == expected_order(products=[line], total_price=9.9)


async def test_one_line_orders_and_the_address_is_stored_trimmed() -> None:
    env = DeliveryEnvironment(make_task())
    outcome = await create(
        env,
        product_ids=["P_NOODLE"],
        product_cnts=[1],
        attributes=["Normal Spicy"],
        address=f"  {HOME} ",
        note="",
        dispatch_time=TIME,
    )
    answer = json.loads(outcome.content)
    line = {
        "product_id": "P_NOODLE",
        "name": "Chicken crossing bridge rice noodles",
        "price": 25.0,
        "quantity": 1,
        "attributes": "Normal Spicy",
    }
    assert answer == expected_order(
        products=[line],
        total_price=25.0,
        note="",
        location={"address": HOME, "longitude": 102.7, "latitude": 25.06},
        dispatch_time=TIME,
        shipping_time=30.0,
        delivery_time="2025-06-21 11:50:00",
    )


async def test_the_total_is_rounded_to_the_fen() -> None:
    environment = make_task().environment
    noodle = environment["stores"]["S_NOODLE"]["products"][1]
    noodle["price"] = 1.234
    env = DeliveryEnvironment(make_task(environment=environment))
    outcome = await create(env, product_ids=["P_PICKLE"], product_cnts=[1], attributes=None)
    assert json.loads(outcome.content)["total_price"] == 1.23
    assert env.db.orders["OTT1-001"].total_price == 1.23


async def test_an_order_without_a_note_has_an_empty_note() -> None:
    env = DeliveryEnvironment(make_task())
    arguments = {k: v for k, v in ORDER_ARGS.items() if k != "note"}
    outcome = await env.tools.run("create_delivery_order", arguments)
    assert json.loads(outcome.content) == expected_order(note="")


async def test_order_search_lists_unpaid_orders_by_default() -> None:
    env = DeliveryEnvironment(make_task())
    created = json.loads((await create(env)).content)["order_id"]
    listed = json.loads((await env.tools.run("search_delivery_orders", {"user_id": "U1"})).content)
    assert [o["order_id"] for o in listed] == ["T1O02", created]
    assert all(o["status"] == "unpaid" and "products" not in o for o in listed)


def test_invalid_data_is_named_as_delivery_data() -> None:
    environment = {"time": TIME, "user_id": "U1", "stores": {"S": {"name": "No location"}}}
    with pytest.raises(InputError) as raised:
        DeliveryEnvironment(make_task("T9", environment))
    assert "invalid delivery data" in str(raised.value)
    assert raised.value.task_id == "T9"


@pytest.mark.parametrize(
    "name", ["delivery_store_search_recommand", "delivery_product_search_recommand"]
)
async def test_a_search_without_a_keyword_says_so_exactly(name: str) -> None:
    env = DeliveryEnvironment(make_task())
    outcome = await env.tools.run(name, {"keywords": [" ", ""]})
    assert (outcome.error, outcome.error_kind, outcome.content) == (
        True,
        "precondition",
        "keywords must contain at least one non-empty keyword.",
    )


def many_stores(count: int) -> dict[str, Any]:
    """A world of ``count`` noodle shops, each with one noodle product."""
    environment = make_task().environment
    template = environment["stores"]["S_NOODLE"]
    environment["stores"] = {
        f"S{i:02d}": {
            **template,
            "name": f"Noodle Bar {i:02d}",
            "products": [{**template["products"][0], "product_id": f"P{i:02d}"}],
        }
        for i in range(count)
    }
    return environment


async def test_both_searches_answer_at_most_twenty() -> None:
    env = DeliveryEnvironment(make_task(environment=many_stores(23)))
    stores = await env.tools.run("delivery_store_search_recommand", {"keywords": ["noodle"]})
    assert len(json.loads(stores.content)) == DeliveryEnvironment.SEARCH_LIMIT == 20
    products = await env.tools.run("delivery_product_search_recommand", {"keywords": ["noodles"]})
    assert len(json.loads(products.content)) == 20


async def test_search_reads_each_tag_as_its_own_words() -> None:
    environment = make_task().environment
    stores = environment["stores"]
    environment["stores"] = {"S_TEA": stores["S_TEA"], "S_NOODLE": stores["S_NOODLE"]}
    stores["S_NOODLE"]["tags"] = ["hot", "rice"]
    stores["S_NOODLE"]["products"][0]["tags"] = ["Mild", "dry"]
    env = DeliveryEnvironment(make_task(environment=environment))
    found = await env.tools.run("delivery_store_search_recommand", {"keywords": ["hot"]})
    assert [s["store_id"] for s in json.loads(found.content)] == ["S_NOODLE", "S_TEA"]
    products = await env.tools.run("delivery_product_search_recommand", {"keywords": ["dry"]})
    assert json.loads(products.content)[0]["product_id"] == "P_NOODLE"


async def test_equally_matching_stores_are_ranked_by_their_name() -> None:
    environment = make_task().environment
    template = environment["stores"]["S_NOODLE"]
    environment["stores"] = {
        "S_HOUSE": {**template, "name": "Best Noodle House", "tags": ["Noodles", "Quick"]},
        "S_PLAIN": {
            **template,
            "name": "Noodles",
            "tags": ["Quick service", "rice", "broth", "soup", "chilli", "pickles", "sides"],
        },
    }
    env = DeliveryEnvironment(make_task(environment=environment))
    found = await env.tools.run("delivery_store_search_recommand", {"keywords": ["noodles"]})
    assert [s["store_id"] for s in json.loads(found.content)] == ["S_PLAIN", "S_HOUSE"]
