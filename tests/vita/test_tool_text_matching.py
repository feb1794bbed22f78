"""How the tools read text: NFKC folding in every match (addresses, cities, searches, ids), the
attribute a wording names (one resolver with the grader), ``attributes: []``, and the address
not-found advice about the user's historical addresses.

Synthetic worlds in English and Chinese for delivery, in-store, OTA and cross; each rule has a
near miss (full-width digits of *another* number, the opposite option, an ambiguous wording).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from lifebench.tools import ToolOutcome
from lifebench.vita.domains.common import SharedTools, ident
from lifebench.vita.domains.cross import CrossEnvironment
from lifebench.vita.domains.delivery import DeliveryEnvironment, StoreProduct
from lifebench.vita.domains.instore import InStoreEnvironment
from lifebench.vita.domains.ota import OTAEnvironment
from lifebench.vita.grading.options import attribute_rule
from lifebench.vita.task import VitaTask

FW = str.maketrans("0123456789", "０１２３４５６７８９")
NOW = "2025-06-21 11:20:00"

WORLDS: dict[str, dict[str, str]] = {
    "en": {
        "home": "North Area of Fengning Community, No. 10 Fengning Road, Wuhua District, Kunming",
        "other": "Room 3, No. 12 Fengning Road, Wuhua District, Kunming",
        "work": "Yunnan University Hospital, 160 Xinmin Lane, Wuhua District, Kunming",
        "store": "No. 46 Yuanxi Road, Wuhua District, Kunming (Rice Noodle House)",
        "shop": "3rd Floor, No. 158 Qinxian Street, Wuhua District, Kunming (Lotus Spa)",
        "hotel": "No. 88 Dianchi Road, Xishan District, Kunming (Lakeview Hotel)",
        "city": "Kunming",
        "store_name": "Rice Noodle House",
        "shop_name": "Lotus Spa",
        "hotel_name": "Lakeview Hotel",
        "home_key": "home address",
        "work_key": "work address",
    },
    "zh": {
        "home": "云南省昆明市五华区丰宁路10号丰宁小区北区",
        "other": "云南省昆明市五华区丰宁路12号3室",
        "work": "云南省昆明市五华区新民巷160号云南大学附属医院",
        "store": "云南省昆明市五华区园西路46号米线馆",
        "shop": "云南省昆明市五华区勤贤街158号3楼莲花水疗",
        "hotel": "云南省昆明市西山区滇池路88号湖景酒店",
        "city": "昆明",
        "store_name": "米线馆",
        "shop_name": "莲花水疗",
        "hotel_name": "湖景酒店",
        "home_key": "家庭住址",
        "work_key": "工作地址",
    },
}

ATTRS = {
    "en": ["Normal Spicy", "Mild", "No Ice", "Hot", "White Skin Oreo Flavor", "Mala Spicy"],
    "zh": ["正常辣", "微辣", "去冰", "热", "辣椒醋包都要", "无需辣椒醋包", "3分糖"],
}


def world(language: str, *, home_known: bool = True) -> VitaTask:
    """One task whose environment serves every domain: a delivery store, a shop, a hotel, the
    user's home (known unless ``home_known`` is false) and work address (never known)."""
    w = WORLDS[language]
    locations = [{"address": w["other"], "longitude": 102.71, "latitude": 25.04}]
    if home_known:
        locations.insert(0, {"address": w["home"], "longitude": 102.70, "latitude": 25.05})
    return VitaTask.model_validate(
        {
            "id": f"TXT-{language}",
            "environment": {
                "time": NOW,
                "user_id": "U1",
                "location": locations,
                "weather": [
                    {
                        "city": f"{w['city']} City" if language == "en" else f"{w['city']}市",
                        "category": "sunny",
                        "datetime": "2025-06-21",
                        "temperature": [18, 27],
                    }
                ],
                "user_historical_behaviors": {
                    "user id": "U1",
                    w["home_key"]: w["home"],
                    w["work_key"]: w["work"],
                    "breakfast": {"recent orders": []},
                },
                "orders": {},
                "stores": {
                    "S10": {
                        "store_id": "S10",
                        "name": w["store_name"],
                        "score": 4.6,
                        "location": {
                            "address": w["store"],
                            "longitude": 102.706,
                            "latitude": 25.05,
                        },
                        "tags": [],
                        "products": [
                            {
                                "product_id": "P10",
                                "name": "noodles",
                                "price": 20,
                                "attributes": ATTRS[language],
                            },
                            {"product_id": "P11", "name": "egg", "price": 3, "attributes": []},
                        ],
                    }
                },
                "shops": {
                    "H20": {
                        "shop_id": "H20",
                        "shop_name": w["shop_name"],
                        "score": 4.7,
                        "location": {"address": w["shop"], "longitude": 102.72, "latitude": 25.06},
                        "tags": [],
                        "products": [
                            {"product_id": "Q20", "name": "massage", "price": 50, "quantity": 5}
                        ],
                    }
                },
                "hotels": {
                    "HT30": {
                        "hotel_id": "HT30",
                        "hotel_name": w["hotel_name"],
                        "location": {"address": w["hotel"], "longitude": 102.65, "latitude": 24.95},
                        "products": [],
                    }
                },
            },
        }
    )


DOMAINS: dict[str, type[SharedTools]] = {
    "delivery": DeliveryEnvironment,
    "instore": InStoreEnvironment,
    "ota": OTAEnvironment,
    "cross": CrossEnvironment,
}


def env_of(domain: str, language: str, **kw: Any) -> Any:
    return DOMAINS[domain](world(language, **kw), language=language)  # type: ignore[call-arg]


async def call(env: Any, name: str, **args: Any) -> ToolOutcome:
    outcome: ToolOutcome = await env.tools.run(name, args)
    return outcome


def ok(outcome: ToolOutcome) -> Any:
    assert not outcome.error, outcome.content
    return json.loads(outcome.content)


def refused(outcome: ToolOutcome, kind: str, *fragments: str) -> str:
    assert outcome.error and outcome.error_kind == kind, (outcome.error_kind, outcome.content)
    for fragment in fragments:
        assert fragment in outcome.content, outcome.content
    return outcome.content


# ---- NFKC folding: addresses -------------------------------------------------------------


@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("place", ["home", "store", "shop", "hotel"])
async def test_full_width_digits_resolve_to_the_same_place(
    domain: str, language: str, place: str
) -> None:
    env = env_of(domain, language)
    address = WORLDS[language][place]
    plain = await call(env, "address_to_longitude_latitude", address=address)
    wide = await call(env, "address_to_longitude_latitude", address=address.translate(FW))
    if plain.error:  # a place this domain does not know (a shop in delivery …)
        assert wide.error and wide.error_kind == plain.error_kind == "not_found"
        return
    assert ok(wide) == ok(plain)


@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_full_width_digits_of_another_number_are_not_that_place(
    domain: str, language: str
) -> None:
    env = env_of(domain, language)
    home = WORLDS[language]["home"]
    near_miss = home.replace("10", "１1").replace("１1", "１１")  # No. 11: no such house
    assert near_miss != home
    refused(await call(env, "address_to_longitude_latitude", address=near_miss), "not_found")


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_full_width_letters_punctuation_and_spaces_are_folded(language: str) -> None:
    env = env_of("delivery", language)
    home = WORLDS[language]["home"]
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in home)
    wide = wide.replace(" ", "\u3000")
    assert ok(await call(env, "address_to_longitude_latitude", address=wide))["longitude"] == 102.70


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_created_order_with_a_full_width_address_is_delivered_there(language: str) -> None:
    env = env_of("delivery", language)
    home = WORLDS[language]["home"]
    order = ok(
        await call(
            env,
            "create_delivery_order",
            user_id="Ｕ１",
            store_id="Ｓ１０",
            product_ids=["Ｐ１１"],
            product_cnts=[1],
            address=home.translate(FW),
            dispatch_time="2025-06-21 11:30:00",
        )
    )
    assert (order["location"]["longitude"], order["location"]["latitude"]) == (102.70, 25.05)
    assert order["store_id"] == "S10" and order["products"][0]["product_id"] == "P11"


# ---- NFKC folding: cities, searches, ids ---------------------------------------------------


@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_full_width_city_has_its_weather(domain: str, language: str) -> None:
    env = env_of(domain, language)
    city = WORLDS[language]["city"]
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in city)
    got = ok(
        await call(env, "weather", address=wide, date_start="２０２５-06-21", date_end="2025-06-21")
    )
    assert got["days"][0]["category"] == "sunny"
    refused(
        await call(
            env, "weather", address="Ｄａｌｉ", date_start="2025-06-21", date_end="2025-06-21"
        ),
        "not_found",
    )


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_full_width_search_keywords_find_the_same_things(language: str) -> None:
    w = WORLDS[language]
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in w["store_name"])
    delivery = env_of("delivery", language)
    plain = ok(await call(delivery, "delivery_store_search_recommand", keywords=[w["store_name"]]))
    assert ok(await call(delivery, "delivery_store_search_recommand", keywords=[wide])) == plain
    assert plain[0]["store_id"] == "S10"
    instore = env_of("instore", language)
    wide_shop = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in w["shop_name"])
    shops = ok(await call(instore, "instore_shop_search_recommend", keywords=[wide_shop]))
    assert shops[0]["shop_id"] == "H20"
    ota = env_of("ota", language)
    wide_city = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in w["city"])
    hotels = ok(await call(ota, "hotel_search_recommand", city_name=wide_city))
    assert [h["hotel_id"] for h in hotels] == ["HT30"]


@pytest.mark.parametrize("domain", ["delivery", "cross"])
async def test_full_width_ids_are_the_ids(domain: str) -> None:
    env = env_of(domain, "en")
    assert ok(await call(env, "get_delivery_store_info", store_id=" Ｓ１０ "))["store_id"] == "S10"
    assert ok(await call(env, "get_delivery_product_info", product_id="Ｐ１０"))["price"] == 20
    refused(await call(env, "get_delivery_store_info", store_id="Ｓ１１"), "not_found")


async def test_full_width_ids_in_store_and_ota() -> None:
    order = ok(
        await call(
            env_of("instore", "zh"),
            "create_instore_product_order",
            user_id="Ｕ１",
            shop_id="Ｈ２０",
            product_id="Ｑ２０ ",
        )
    )
    assert (order["store_id"], order["products"][0]["product_id"]) == ("H20", "Q20")
    assert ok(await call(env_of("ota", "zh"), "get_ota_hotel_info", hotel_id="ＨＴ３０"))
    refused(await call(env_of("ota", "en"), "get_ota_hotel_info", hotel_id="ＨＴ３１"), "not_found")


def test_ident_folds_and_trims_only() -> None:
    assert ident("\u3000Ｓ１０ ") == "S10"
    assert ident("s10") == "s10"  # case is an id's own
    assert ident("S 10") == "S 10"


# ---- attributes --------------------------------------------------------------------------


async def _line(env: Any, attributes: Any, products: tuple[str, ...] = ("P10",)) -> ToolOutcome:
    args: dict[str, Any] = {
        "user_id": "U1",
        "store_id": "S10",
        "product_ids": list(products),
        "product_cnts": [1] * len(products),
        "address": WORLDS[env.language]["home"],
        "dispatch_time": "2025-06-21 11:30:00",
    }
    if attributes is not None:
        args["attributes"] = attributes
    tool = "create_delivery_order"
    return await call(env, tool, **args)


@pytest.mark.parametrize("domain", ["delivery", "cross"])
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_an_empty_attribute_list_means_none(domain: str, language: str) -> None:
    env = env_of(domain, language)
    order = ok(await _line(env, [], ("P10", "P11")))
    assert [p["attributes"] for p in order["products"]] == ["", ""]
    # near misses: a list of the wrong length still says which is which — refused
    refused(await _line(env, [""], ("P10", "P11")), "precondition", "attributes has 1 items")
    refused(await _line(env, ["", "", ""], ("P10", "P11")), "precondition", "has 3 items")


EN_NAMES = [
    ("regular spicy", "Normal Spicy"),  # translation variant
    ("ＭＩＬＤ", "Mild"),  # width and case
    ("Mild Spicy", "Mild"),  # extended by a word that only names the dimension
    ("no ice please", "No Ice"),  # filler
    ("oreo flavor white skin", "White Skin Oreo Flavor"),  # word order
    ("White Oreo Flavor", "White Skin Oreo Flavor"),  # shortened
    ("Hot, Mild", "Hot, Mild"),  # a combination, kept in the order given
    ("None", ""),  # a lone negation is no option
    ("", ""),
]
ZH_NAMES = [
    ("正常辣", "正常辣"),
    ("请要微辣", "微辣"),  # fillers
    ("辣椒醋包", "辣椒醋包都要"),  # shortened (都 is no modifier)
    ("三分糖", "3分糖"),  # tenths written in words
    ("热，微辣", "热, 微辣"),
    ("无", ""),
]


@pytest.mark.parametrize(
    ("language", "wording", "stored"),
    [("en", *p) for p in EN_NAMES] + [("zh", *p) for p in ZH_NAMES],
)
async def test_a_wording_that_names_an_option_stores_that_option(
    language: str, wording: str, stored: str
) -> None:
    env = env_of("delivery", language)
    order = ok(await _line(env, [wording]))
    assert order["products"][0]["attributes"] == stored
    # the grader reads the same wording as the same option
    rule = attribute_rule(wording, ATTRS[language])
    assert rule.option == stored


EN_REFUSED = [
    ("Ice", "not offered"),  # "No Ice" is the opposite, not a longer form
    ("Extra Spicy", "not offered"),  # a degree no option has
    ("Spicy", "ambiguous"),  # "Mala Spicy", or "Normal Spicy" with its degree left out
    ("Mild, Mild", "not offered"),
    ("Hot, Warm", "not offered"),  # a clause no option has
    ("Warm", "not offered"),
    ("Oreo Flavor, Ice", "not offered"),
]
ZH_REFUSED = [
    ("冰", "not offered"),  # 去冰 is the opposite
    ("辣", "ambiguous"),  # 正常辣 or 微辣; 辣 is no word of 辣椒醋包都要
    ("5分糖", "not offered"),  # another level
    ("加冰", "not offered"),
]


@pytest.mark.parametrize(
    ("language", "wording", "why"),
    [("en", *p) for p in EN_REFUSED] + [("zh", *p) for p in ZH_REFUSED],
)
async def test_a_wording_that_names_no_option_or_several_is_refused_with_the_options(
    language: str, wording: str, why: str
) -> None:
    env = env_of("delivery", language)
    product = StoreProduct(product_id="P10", attributes=ATTRS[language])
    choice_rule = attribute_rule(wording, ATTRS[language])
    expected_why = "ambiguous" if choice_rule.candidates else "not offered"
    assert expected_why == why, (wording, choice_rule)
    message = refused(await _line(env, [wording]), "precondition", f"Attribute '{wording}'", why)
    for option in ATTRS[language]:
        assert f"'{option}'" in message
    assert not choice_rule.checked and choice_rule.how == "unmatched"
    assert env.created_order_ids == ()
    assert product.attributes == ATTRS[language]


async def test_an_ambiguous_wording_names_its_candidates() -> None:
    env = env_of("delivery", "zh")
    message = refused(await _line(env, ["辣"]), "precondition", "ambiguous")
    assert "it could be '正常辣'; '微辣'." in message
    message = refused(await _line(env_of("delivery", "en"), ["spicy"]), "precondition")
    assert "it could be 'Normal Spicy'; 'Mala Spicy'." in message


async def test_free_text_is_kept_for_a_product_without_options() -> None:
    env = env_of("delivery", "en")
    order = ok(await _line(env, ["  extra   crunchy "], ("P11",)))
    assert order["products"][0]["attributes"] == "extra crunchy"


# ---- the address advice about historical addresses ---------------------------------------


@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_the_advice_names_only_historical_addresses_that_resolve(
    domain: str, language: str
) -> None:
    w = WORLDS[language]
    env = env_of(domain, language)
    assert ok(await call(env, "address_to_longitude_latitude", address=w["home"]))
    message = refused(
        await call(env, "address_to_longitude_latitude", address="Atlantis Road 99"),
        "not_found",
        f"Of the user's historical behaviours, the {w['home_key']} resolves.",
    )
    assert w["work_key"] not in message
    # the work address has no place: asking for it says so, and what to do
    refused(
        await call(env, "address_to_longitude_latitude", address=w["work"]),
        "not_found",
        f"is the user's {w['work_key']} in their historical behaviours; the service has no "
        "location for it: ask the user which address to use.",
    )


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_no_historical_address_is_recommended_when_none_resolves(language: str) -> None:
    env = env_of("delivery", language, home_known=False)
    message = refused(
        await call(env, "address_to_longitude_latitude", address="Atlantis Road 99"),
        "not_found",
        "None of the addresses in the user's historical behaviours resolves.",
    )
    assert "resolves." in message and "the home address resolves" not in message
    refused(
        await call(env, "address_to_longitude_latitude", address=WORLDS[language]["home"]),
        "not_found",
        f"is the user's {WORLDS[language]['home_key']} in their historical behaviours",
    )


async def test_both_historical_addresses_resolve() -> None:
    task = world("en")
    task.environment["location"].append(
        {"address": WORLDS["en"]["work"], "longitude": 102.71, "latitude": 25.048}
    )
    env = DeliveryEnvironment(task)
    refused(
        await call(env, "address_to_longitude_latitude", address="Atlantis Road 99"),
        "not_found",
        "the home address and the work address resolve.",
    )


async def test_no_advice_without_historical_addresses() -> None:
    task = world("en")
    task.environment["user_historical_behaviors"] = {"user id": "U1", "address book": 3}
    env = DeliveryEnvironment(task)
    message = refused(
        await call(env, "address_to_longitude_latitude", address="Atlantis Road 99"), "not_found"
    )
    assert message.endswith("earlier order.") or "Closest known addresses" in message
    assert "historical" not in message
    assert env.historical_addresses() == []


def test_historical_addresses_are_the_address_fields() -> None:
    env = env_of("delivery", "zh")
    assert env.historical_addresses() == [
        ("家庭住址", WORLDS["zh"]["home"]),
        ("工作地址", WORLDS["zh"]["work"]),
    ]
    task = world("en")
    task.environment["user_historical_behaviors"] = {
        "Home Address": "  Somewhere 1 ",
        "residence": "Kunming",
        "work address": "   ",
        "住址": "丰宁路10号",
    }
    assert DeliveryEnvironment(task).historical_addresses() == [
        ("Home Address", "Somewhere 1"),
        ("住址", "丰宁路10号"),
    ]
