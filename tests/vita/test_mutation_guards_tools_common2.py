"""The shared VitaBench tools (vita/domains/common.py), second part: what
``address_to_longitude_latitude`` says when an address fits several places or none, what it says
about the user's historical addresses, and how bad tables are reported.

Each test checks the tool's exact answer (error flag, kind and text) on a world of its own, once
with English addresses and once with Chinese ones; the tools answer in English whatever the
language, the addresses are carried as written."""

from __future__ import annotations

from typing import Any

import pytest
from test_delivery_tools import make_environment_dict, make_task

from lifebench.errors import InputError
from lifebench.vita.domains.delivery import DeliveryEnvironment

NOT_FOUND = (
    "Address not found: '{}'. Only places the service knows resolve: an address as the user "
    "gives it, or that of a store, shop, hotel or earlier order."
)

# three branches of one shop, kilometres apart, in the order the data lists them
BRANCHES = {
    "en": [
        "Wenling Rice Cake, No. 5 Qingnian Road, Wuhua District, Kunming",
        "Wenling Rice Cake, No. 9 Beijing Road, Panlong District, Kunming",
        "Wenling Rice Cake, No. 2 Dianchi Road, Xishan District, Kunming",
    ],
    "zh": [
        "昆明市五华区青年路5号温岭糕点",
        "昆明市盘龙区北京路9号温岭糕点",
        "昆明市西山区滇池路2号温岭糕点",
    ],
}
COORDINATES = [(102.70, 25.04), (102.72, 25.06), (102.68, 25.00)]

# the user's home as the history writes it (short), the place the service knows (long), a query
# that extends the short form with another city (it names the history's home, not the place)
HOME = {
    "en": (
        "home address",
        "Jade Garden, 368 Zhangyang Road",
        "Room 801, Building 12, Jade Garden, 368 Zhangyang Road, Pudong New Area, Shanghai",
        "Jade Garden 368 Zhangyang Road Suzhou",
    ),
    "zh": (
        "家庭住址",
        "上海市浦东新区张杨路368号翡翠花园",
        "上海市浦东新区张杨路368号翡翠花园12号楼801室",
        "苏州市张杨路368号翡翠花园",
    ),
}
ELSEWHERE = {
    "en": "No. 88 Jianguo Road, Chaoyang District, Beijing",
    "zh": "北京市朝阳区建国路88号",
}
NOWHERE = {"en": "Tianfu Square, Chengdu", "zh": "成都市天府广场"}
LANGUAGES = pytest.mark.parametrize("language", ["en", "zh"])


def world(places: list[tuple[str, float, float]], history: dict[str, str]) -> DeliveryEnvironment:
    """The delivery world with only ``places`` as user places, no orders, ``history`` as the
    user's address entries (the stores stay)."""
    data = make_environment_dict()
    data["location"] = [{"address": a, "longitude": x, "latitude": y} for a, x, y in places]
    data["orders"] = {}
    data["user_historical_behaviors"] = {"user id": "U1", **history}
    return DeliveryEnvironment(make_task(environment=data))


async def refusal(env: DeliveryEnvironment, address: str) -> tuple[Any, ...]:
    outcome = await env.tools.run("address_to_longitude_latitude", {"address": address})
    return outcome.error, outcome.error_kind, outcome.content


def branches(language: str) -> DeliveryEnvironment:
    return world([(a, *c) for a, c in zip(BRANCHES[language], COORDINATES, strict=True)], {})


@LANGUAGES
async def test_a_shop_name_of_three_branches_is_ambiguous_and_lists_them_best_first(
    language: str,
) -> None:
    first, second, third = BRANCHES[language]
    # the English branches tie (data order); the Chinese ones are ranked by plain similarity
    listed = (first, third, second) if language == "en" else (first, second, third)
    query = {"en": "Wenling Rice Cake", "zh": "温岭糕点"}[language]
    assert await refusal(branches(language), query) == (
        True,
        "not_found",
        f"Address '{query}' is ambiguous: it fits several known places equally well "
        f"('{listed[0]}'; '{listed[1]}'; '{listed[2]}'). Give the full address of the one you "
        "mean.",
    )


@LANGUAGES
async def test_an_unknown_address_names_the_closest_known_ones(language: str) -> None:
    first, second, third = BRANCHES[language]
    query = {"en": "Rice Cake Road", "zh": "昆明市温岭"}[language]
    assert await refusal(branches(language), query) == (
        True,
        "not_found",
        NOT_FOUND.format(query) + f" Closest known addresses: '{first}'; '{second}'; '{third}'.",
    )


@LANGUAGES
async def test_an_extended_history_address_the_service_cannot_place_says_the_home_resolves(
    language: str,
) -> None:
    """The query designates the history's home address (it extends it) but no known place;
    the home address itself resolves (to the long form), so the advice is that it resolves —
    not that the query is a history address without a location."""
    label, short, long, query = HOME[language]
    env = world([(long, 121.5, 31.2)], {label: short})
    assert await refusal(env, query) == (
        True,
        "not_found",
        NOT_FOUND.format(query)
        + f" Closest known addresses: '{long}'."
        + f" Of the user's historical behaviours, the {label} resolves.",
    )
    assert (await env.tools.run("address_to_longitude_latitude", {"address": short})).content == (
        f'{{"matched_address": "{long}", "longitude": 121.5, "latitude": 31.2}}'
    )


@LANGUAGES
async def test_when_no_history_address_resolves_the_advice_says_so(language: str) -> None:
    label, _, long, _ = HOME[language]
    env = world([(long, 121.5, 31.2)], {label: ELSEWHERE[language]})
    query = NOWHERE[language]
    assert await refusal(env, query) == (
        True,
        "not_found",
        NOT_FOUND.format(query)
        + " None of the addresses in the user's historical behaviours resolves.",
    )


@LANGUAGES
def test_bad_tables_are_an_input_error_naming_the_task_and_the_environment(language: str) -> None:
    data = make_environment_dict()
    data["stores"]["S_NOODLE"]["score"] = "excellent"
    with pytest.raises(InputError) as caught:
        DeliveryEnvironment(make_task("T7", data), language)  # type: ignore[arg-type]
    assert (caught.value.task_id, caught.value.field) == ("T7", "environment")
    assert str(caught.value).startswith("task T7, field environment: invalid delivery data: ")
    assert "score" in str(caught.value)
