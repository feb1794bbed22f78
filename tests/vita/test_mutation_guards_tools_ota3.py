"""The OTA environment (vita/domains/ota.py), third part: a new order's total is rounded to the
fen, and the environment answers in the task's language (English unless told otherwise).

Each test checks the tool's answer and the order stored after the call, on the English and the
Chinese world of test_mutation_guards_tools_ota2."""

from __future__ import annotations

import pytest
from test_mutation_guards_tools_ota2 import LANGUAGES, NAMES, answer, environment, world
from test_ota_tools import make_task, seat

from lifebench.vita.domains.ota import OTAEnvironment


@LANGUAGES
@pytest.mark.parametrize(
    ("price", "quantity", "total"),
    [(33.333, 3, 100.0), (12.25, 2, 24.5), (19.9, 3, 59.7)],
    ids=["third-decimal", "half-a-yuan", "float-noise"],
)
async def test_a_new_order_costs_price_times_quantity_rounded_to_the_fen(
    language: str, price: float, quantity: int, total: float
) -> None:
    data = world(language)
    data["trains"]["T1"]["products"].append(
        seat("T1_ODD", NAMES[language]["Second class"], "2025-06-18", price, 5)
    )
    env = environment(data, language)
    order = await answer(
        env,
        "create_train_order",
        train_id="T1",
        seat_id="T1_ODD",
        user_id="U1",
        date="2025-06-18",
        quantity=quantity,
    )
    assert order["total_price"] == total
    assert env.db.orders[order["order_id"]].total_price == total
    paid = await answer(env, "pay_train_order", order_id=order["order_id"])
    assert (paid["amount_paid"], env.paid_amount(order["order_id"])) == (total, total)


# 2025-10-01: National Day, a Wednesday
HOLIDAY = {
    "en": {
        "date": "2025-10-01",
        "weekday": "Wednesday",
        "is_holiday": True,
        "holidays": ["National Day"],
    },
    "zh": {"date": "2025-10-01", "weekday": "星期三", "is_holiday": True, "holidays": ["国庆节"]},
}


async def test_without_a_language_the_environment_answers_in_english() -> None:
    env = OTAEnvironment(make_task())
    assert env.language == "en"
    assert await answer(env, "get_date_holiday_info", date="2025-10-01") == HOLIDAY["en"]


@LANGUAGES
async def test_the_environment_answers_in_the_language_it_is_given(language: str) -> None:
    env = environment(world(language), language)
    assert env.language == language
    assert await answer(env, "get_date_holiday_info", date="2025-10-01") == HOLIDAY[language]
