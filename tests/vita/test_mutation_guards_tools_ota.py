"""The OTA tools (vita/domains/ota.py) pinned by what the agent reads and what their calls do.

The texts of the hotel / attraction / flight / train order tools are built per kind by helper
functions (not written in the ``@tool`` decorator), so they are pinned here, in both languages,
against ``ota_tool_texts.json`` (the exact schemas the model is given, and the dependency edges).
After an intended change of a text, rewrite the file with
``python tests/vita/test_mutation_guards_tools_ota.py`` and review the diff."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from test_ota_tools import loc, make_environment_dict, seat

from lifebench._util.text import Text
from lifebench.vita.domains import ota
from lifebench.vita.domains._ota_tables import ATTRACTION, FLIGHT, HOTEL, TRAIN
from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.task import VitaTask

TEXTS = Path(__file__).with_name("ota_tool_texts.json")
KINDS = (HOTEL, ATTRACTION, FLIGHT, TRAIN)


def environment(data: dict[str, Any] | None = None) -> OTAEnvironment:
    return OTAEnvironment(VitaTask(id="T1", environment=data or make_environment_dict()))


async def answer(env: OTAEnvironment, name: str, **arguments: Any) -> Any:
    outcome = await env.tools.run(name, arguments)
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


def plain(value: Any) -> Any:
    """A helper's texts as JSON data (a Text as [en, zh])."""
    if isinstance(value, Text):
        return [value.en, value.zh]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def helper_texts() -> dict[str, Any]:
    """What each per-kind text helper gives the ``@tool`` decorator, called now (the tool
    classes call them once, at import)."""
    texts: dict[str, Any] = {}
    for kind in KINDS:
        t = kind.order_type
        texts[f"pay_{t}"] = plain(ota._pay_text(kind))
        texts[f"cancel_{t}"] = plain(ota._cancel_text(kind))
        texts[f"search_{t}"] = plain(ota._search_order_text(kind))
        texts[f"detail_{t}"] = plain(ota._detail_text(kind))
        texts[f"create_{t}"] = plain(ota._create_text(kind, "what", "什么", [f"get_{t}_x"]))
        texts[f"order_id_{t}"] = plain(ota._order_id_param(kind).description)
    for kind, search in ((FLIGHT, "flight_search_recommend"), (TRAIN, "train_ticket_search")):
        texts[f"modify_{kind.order_type}"] = plain(ota._modify_text(kind, search))
    return texts


def tool_texts() -> dict[str, Any]:
    env = environment()
    return {
        "en": env.tools.openai_schemas("en"),
        "zh": env.tools.openai_schemas("zh"),
        "edges": sorted([list(edge) for edge in env.tools.edges()]),
        "helpers": helper_texts(),
    }


def test_the_ota_tools_read_exactly_as_reviewed() -> None:
    expected = json.loads(TEXTS.read_text(encoding="utf-8"))
    actual = json.loads(json.dumps(tool_texts(), ensure_ascii=False))
    for language in ("en", "zh"):
        by_name = {s["function"]["name"]: s for s in expected[language]}
        assert [s["function"]["name"] for s in actual[language]] == list(by_name)
        for schema in actual[language]:
            assert schema == by_name[schema["function"]["name"]], schema["function"]["name"]
    assert actual["edges"] == expected["edges"]


def test_the_per_kind_text_helpers_give_exactly_the_reviewed_texts() -> None:
    expected = json.loads(TEXTS.read_text(encoding="utf-8"))["helpers"]
    actual = helper_texts()
    assert list(actual) == list(expected)
    for name, texts in actual.items():
        assert texts == expected[name], name


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("hotel_search_recommand", {"city_name": "  "}, "city_name must not be empty."),
        (
            "attractions_search_recommend",
            {"city_name": " ", "key_words": ["temple"]},
            "city_name must not be empty.",
        ),
        (
            "search_hotel_order",
            {"user_id": "U1", "date": "12/06/2025"},
            "date must be a date in YYYY-MM-DD format.",
        ),
        (
            "train_ticket_search",
            {"departure": "Shanghai", "destination": "Nanjing", "date": "2025/06/15"},
            "date must be a date in YYYY-MM-DD format.",
        ),
    ],
    ids=["hotel-city", "attraction-city", "order-date", "train-date"],
)
async def test_a_refused_search_says_exactly_why(
    name: str, arguments: dict[str, Any], message: str
) -> None:
    outcome = await environment().tools.run(name, arguments)
    assert (outcome.error, outcome.error_kind, outcome.content) == (True, "precondition", message)


def with_hangzhou_places(data: dict[str, Any]) -> dict[str, Any]:
    """A second Hangzhou attraction and a hotel whose tags hold a short word."""
    data["attractions"]["A2"] = {
        **data["attractions"]["A1"],
        "attraction_id": "A2",
        "attraction_name": "Zhejiang Provincial Museum",
        "description": "History museum with bronze ware",
        "location": loc(
            "25 Gushan Road, Xihu District, Hangzhou, Zhejiang Province", 120.14, 30.25
        ),
    }
    data["hotels"]["H2"]["tags"] = ["River view", "spa"]
    return data


async def test_search_ranks_by_the_keywords_and_each_tags_words() -> None:
    env = environment(with_hangzhou_places(make_environment_dict()))
    museum = await answer(
        env, "attractions_search_recommend", city_name="Hangzhou", key_words=["museum"]
    )
    assert [a["attraction_id"] for a in museum] == ["A2", "A1"]
    temple = await answer(
        env, "attractions_search_recommend", city_name="Hangzhou", key_words=["temple"]
    )
    assert [a["attraction_id"] for a in temple] == ["A1", "A2"]
    spa = await answer(env, "hotel_search_recommand", city_name="Hangzhou", key_words=["spa"])
    assert [h["hotel_id"] for h in spa] == ["H2", "H1"]


async def test_hotel_search_answers_at_most_twenty_ties_by_name() -> None:
    data = make_environment_dict()
    template = data["hotels"]["H1"]
    hotels = {
        f"H{i:02d}": {**template, "hotel_id": f"H{i:02d}", "hotel_name": f"Lakeview Inn {i:02d}"}
        for i in range(23)
    }
    data["hotels"] = hotels
    env = environment(data)
    found = await answer(env, "hotel_search_recommand", city_name="Hangzhou", key_words=["inn"])
    assert len(found) == OTAEnvironment.SEARCH_LIMIT == 20
    data["hotels"] = {
        "H_HOUSE": {
            **template,
            "hotel_id": "H_HOUSE",
            "hotel_name": "Best Lakeview House",
            "tags": ["Lakeview", "Quick"],
        },
        "H_PLAIN": {
            **template,
            "hotel_id": "H_PLAIN",
            "hotel_name": "Lakeview",
            "tags": ["Quick service", "rice", "broth", "soup", "chilli", "pickles", "sides"],
        },
    }
    env = environment(data)
    tied = await answer(env, "hotel_search_recommand", city_name="Hangzhou", key_words=["lakeview"])
    assert [h["hotel_id"] for h in tied] == ["H_PLAIN", "H_HOUSE"]


async def test_a_flight_is_found_by_its_airports_when_its_cities_are_blank() -> None:
    data = make_environment_dict()
    data["flights"]["F1"]["departure_city"] = ""
    data["flights"]["F1"]["arrival_city"] = ""
    env = environment(data)
    there = await answer(
        env, "flight_search_recommend", departure="Shanghai", destination="Xianyang"
    )
    assert [f["flight_id"] for f in there] == ["F1"]
    back = await answer(
        env, "flight_search_recommend", departure="Xianyang", destination="Shanghai"
    )
    assert back == []


async def test_nearby_names_which_end_of_a_flight_is_near() -> None:
    env = environment()
    ends = {}
    for lon, lat in ((121.805, 31.143), (108.752, 34.447)):
        near = await answer(env, "get_nearby", longitude=lon, latitude=lat, range=10)
        flights = [p for p in near if p["type"] == "flight"]
        assert [p["flight_id"] for p in flights] == ["F1"]
        ends[(lon, lat)] = flights[0]["endpoint"]
    assert ends == {(121.805, 31.143): "departure", (108.752, 34.447): "arrival"}


async def test_order_searches_filter_by_date_and_status() -> None:
    data = make_environment_dict()
    data["orders"]["O_FLIGHT"] = {
        **data["orders"]["O_OTHER_USER"],
        "order_id": "O_FLIGHT",
        "user_id": "U1",
        "status": "paid",
    }
    env = environment(data)
    used = {"user_id": "U1", "status": "consumed"}
    on_day = await answer(env, "search_attraction_order", **used, date="2025-06-01")
    assert [o["order_id"] for o in on_day] == ["O_USED"]
    assert await answer(env, "search_attraction_order", **used, date="2025-06-02") == []
    flights = await answer(
        env, "search_flight_order", user_id="U1", date="2025-06-20", status="paid"
    )
    assert [o["order_id"] for o in flights] == ["O_FLIGHT"]
    other_day = {"user_id": "U1", "date": "2025-06-21", "status": "paid"}
    assert await answer(env, "search_flight_order", **other_day) == []
    unpaid = {"user_id": "U1", "date": "2025-06-20", "status": "unpaid"}
    assert await answer(env, "search_flight_order", **unpaid) == []


async def test_nothing_paid_is_zero() -> None:
    env = environment()
    assert env.paid_amount("O_NOT_THERE") == 0.0
    assert env.paid_amount("O_TRAIN_UNPAID") == 0.0


if __name__ == "__main__":
    TEXTS.write_text(
        json.dumps(tool_texts(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


def modifiable_trains() -> OTAEnvironment:
    """Train orders to move: two lines, a line without its seat type, a seat type the train does
    not sell, more seats than any day has; a first 06-16 second-class product with one seat."""
    data = make_environment_dict()
    base = data["orders"]["O_TRAIN"]

    def variant(oid: str, **line: Any) -> dict[str, Any]:
        order = copy.deepcopy(base)
        order["order_id"] = oid
        order["products"][0].update(line)
        return order

    two = variant("O_TWO")
    two["products"] *= 2
    bare = variant("O_BARE")
    del bare["products"][0]["seat_type"]
    data["orders"].update(
        {
            "O_TWO": two,
            "O_BARE": bare,
            "O_BIZ": variant("O_BIZ", seat_type="Business", product_id="T1_B_X"),
            "O_BIG": variant("O_BIG", quantity=7),
        }
    )
    data["trains"]["T1"]["products"].insert(
        0, seat("T1_2C_0616A", "Second class", "2025-06-16", 150, 1)
    )
    return environment(data)


@pytest.mark.parametrize(
    ("order_id", "new_date", "message"),
    [
        (
            "O_TWO",
            "2025-06-16",
            "Order 'O_TWO' has 2 lines; only single-line orders can change date.",
        ),
        ("O_TRAIN", "16/06/2025", "new_date must be a date in YYYY-MM-DD format."),
        ("O_TRAIN", "2025-06-01", "new_date 2025-06-01 is in the past (today is 2025-06-10)."),
        (
            "O_BIZ",
            "2025-06-16",
            "Train 'T1' has no 'Business' seats on 2025-06-16 (dates with 'Business' seats: none).",
        ),
        (
            "O_BIG",
            "2025-06-17",
            "Insufficient inventory: 'Second class' has 5 left on 2025-06-17, 7 requested.",
        ),
    ],
    ids=["two-lines", "bad-date", "past-date", "no-such-seat", "too-few-seats"],
)
async def test_a_refused_date_change_says_exactly_why(
    order_id: str, new_date: str, message: str
) -> None:
    env = modifiable_trains()
    before = env.snapshot()
    outcome = await env.tools.run(
        "modify_train_order", {"order_id": order_id, "user_id": "U1", "new_date": new_date}
    )
    assert (outcome.error, outcome.error_kind, outcome.content) == (True, "precondition", message)
    assert env.snapshot() == before


async def test_a_line_without_its_seat_type_moves_to_the_first_product_with_enough_seats() -> None:
    env = modifiable_trains()
    moved = await answer(
        env, "modify_train_order", order_id="O_BARE", user_id="U1", new_date="2025-06-16"
    )
    line = moved["order"]["products"][0]
    assert (line["product_id"], line["seat_type"], line["price"]) == (
        "T1_2C_0616A",
        "Second class",
        150.0,
    )
    assert (moved["order"]["total_price"], moved["amount_due"]) == (150.0, 10.0)


def priced_trains() -> OTAEnvironment:
    data = make_environment_dict()
    for product in data["trains"]["T1"]["products"]:
        if product["product_id"] == "T1_2C_0617":
            product["price"] = 120.125
        if product["product_id"] == "T1_2C_0616":
            product["price"] = 140
    return environment(data)


async def test_a_cheaper_date_refunds_the_difference_to_the_fen() -> None:
    env = priced_trains()
    moved = await answer(
        env, "modify_train_order", order_id="O_TRAIN", user_id="U1", new_date="2025-06-17"
    )
    assert {k: v for k, v in moved.items() if k != "order"} == {
        "message": "Modification successful, price difference: -19.88, refunded 19.88.",
        "price_difference": -19.88,
        "amount_due": 0.0,
        "refund": 19.88,
    }
    assert (moved["order"]["total_price"], moved["order"]["status"]) == (120.12, "paid")
    assert env.paid_amount("O_TRAIN") == 120.12


async def test_a_date_at_the_same_price_says_so() -> None:
    env = priced_trains()
    moved = await answer(
        env, "modify_train_order", order_id="O_TRAIN", user_id="U1", new_date="2025-06-16"
    )
    assert {k: v for k, v in moved.items() if k != "order"} == {
        "message": "Modification successful, no price difference.",
        "price_difference": 0.0,
        "amount_due": 0.0,
        "refund": 0.0,
    }
    assert env.paid_amount("O_TRAIN") == 140.0
