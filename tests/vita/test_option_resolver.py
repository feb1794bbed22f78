"""The one rule from a wording to an offered option (grading/options.py), shared by the delivery
tool and the state grader, and the parts of the meaning key it reads (grading/text.py).

Every tier of :func:`resolve_option` is pinned by its effect, with near misses: the opposite
option, an option a degree or a number away, a clause no option has.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.vita.domains.delivery import StoreProduct
from lifebench.vita.grading.options import (
    AttributeRule,
    OptionChoice,
    _extra,
    _near,
    attribute_rule,
    chosen_key,
    names,
    resolve_option,
)
from lifebench.vita.grading.text import (
    NEGATION,
    clause_texts,
    is_cjk,
    is_modifier,
    negated,
    same_text,
    text_key,
    text_tokens,
)

SPICE = ("Normal Spicy", "Mild", "Mala Spicy", "No Ice", "Hot")


# ---- the tiers ---------------------------------------------------------------------------


@pytest.mark.parametrize("blank", ["", "   ", ", .", "please", "None", "no", "无", "不要"])
def test_blank_or_a_lone_negation_is_none(blank: str) -> None:
    assert resolve_option(blank, SPICE) == OptionChoice(blank, "none")
    assert resolve_option(blank, ()) == OptionChoice(blank, "none")


def test_a_lone_negation_that_is_an_option_is_that_option() -> None:
    assert resolve_option("NO", ("Yes", "No")) == OptionChoice("NO", "option", "No")
    assert resolve_option("None", ("Yes", "No")) == OptionChoice("None", "option", "No")


def test_a_product_without_options_takes_free_text() -> None:
    assert resolve_option("  extra   crunchy ", ()) == OptionChoice(
        "  extra   crunchy ", "free", "extra crunchy"
    )
    # blank options are no options
    assert resolve_option("crunchy", ("", " ")).how == "free"


@pytest.mark.parametrize(
    ("wording", "option"),
    [
        ("regular spicy", "Normal Spicy"),
        ("ＭＩＬＤ", "Mild"),
        ("ice no", "No Ice"),  # a negated clause keeps its order: not this one …
        ("no ice please", "No Ice"),
    ],
)
def test_the_same_meaning_key_is_that_option(wording: str, option: str) -> None:
    if wording == "ice no":
        assert resolve_option(wording, SPICE).how == "unmatched"
        return
    assert resolve_option(wording, SPICE) == OptionChoice(wording, "option", option)


def test_equal_keys_are_one_option_the_first_spelling() -> None:
    assert resolve_option("hot", ("HOT", "Hot")).option == "HOT"


def test_a_combination_is_kept_in_the_order_given() -> None:
    got = resolve_option("Hot; mild", SPICE)
    assert got == OptionChoice("Hot; mild", "combination", "Hot, Mild")
    # a clause may name its option by a shortened form too
    got = resolve_option("Mala, no ice", SPICE)
    assert got == OptionChoice("Mala, no ice", "combination", "Mala Spicy, No Ice")
    # empty clauses are no clauses
    assert resolve_option("Hot, , please", SPICE) == OptionChoice("Hot, , please", "option", "Hot")


@pytest.mark.parametrize(
    "wording",
    [
        "Hot, Hot",  # the same option twice
        "Hot, Warm",  # a clause no option names
        "Hot, spicy",  # a clause that is ambiguous
    ],
)
def test_a_combination_needs_every_clause_to_name_a_different_option(wording: str) -> None:
    got = resolve_option(wording, SPICE)
    assert got.how in ("unmatched", "ambiguous") and not got.resolved and got.option == ""


def test_a_shortened_or_extended_form_names_its_one_option() -> None:
    offered = ("White Skin Oreo Flavor", "Black Mochi", "Original", "Mild")
    for wording, option in [
        ("White Oreo Flavor", "White Skin Oreo Flavor"),  # shortened
        ("oreo white", "White Skin Oreo Flavor"),  # shortened, any order (no modifier)
        ("Original flavor", "Original"),  # extended by a word
        ("Mild Spicy", "Mild"),
    ]:
        assert resolve_option(wording, offered) == OptionChoice(wording, "option", option)


@pytest.mark.parametrize(
    ("wording", "offered"),
    [
        ("Ice", ("No Ice", "Hot")),  # the opposite
        ("No Ice", ("Ice", "Hot")),
        ("Spicy", ("Extra Spicy", "Hot")),  # a degree away
        ("Sugar", ("50% Sugar", "Hot")),  # a number away
        ("50% Sugar", ("Sugar", "Hot")),
        ("Extra Spicy", ("Spicy", "Hot")),
        ("Hot, Warm", ("Hot", "Iced")),  # a clause of its own
        ("Mild (recommended)", ("Mild", "Hot")),
        ("冰", ("去冰", "热")),
        ("去冰", ("冰", "热")),
        ("辣", ("辣椒醋包都要", "热")),  # one character is no word
        ("5分糖", ("3分糖", "热")),
        ("Spicy Pepper Dry Mix", ("Sichuan Pepper Dry Mix", "Red Oil Dry Mix")),  # another word
    ],
)
def test_near_misses_name_nothing(wording: str, offered: tuple[str, ...]) -> None:
    got = resolve_option(wording, offered)
    assert got == OptionChoice(wording, "unmatched"), got
    rule = attribute_rule(wording, offered)
    assert rule == AttributeRule(wording, "unmatched", None, "", offered) and not rule.checked


def test_an_option_may_add_its_own_remark() -> None:
    offered = ("70% Sweet (Recommended)", "30% Sweet")
    assert resolve_option("70% sweet", offered).option == "70% Sweet (Recommended)"


@pytest.mark.parametrize(
    ("wording", "offered", "candidates"),
    [
        ("Spicy", ("Normal Spicy", "Mild", "Mala Spicy"), ("Normal Spicy", "Mala Spicy")),
        ("Oreo", ("White Oreo", "Black Oreo", "Hot"), ("White Oreo", "Black Oreo")),
        ("Spicy", ("Less Spicy", "Extra Spicy", "Hot"), ("Less Spicy", "Extra Spicy")),
        ("辣", ("正常辣", "微辣", "热"), ("正常辣", "微辣")),
        (
            "Vinegar packet",
            ("Only Vinegar Packet", "Both Chili and Vinegar Packets"),
            ("Only Vinegar Packet", "Both Chili and Vinegar Packets"),
        ),
    ],
)
def test_several_readings_are_ambiguous_and_listed_in_offered_order(
    wording: str, offered: tuple[str, ...], candidates: tuple[str, ...]
) -> None:
    got = resolve_option(wording, offered)
    assert got == OptionChoice(wording, "ambiguous", "", candidates)
    assert not got.resolved
    rule = attribute_rule(wording, offered)
    assert (rule.how, rule.key, rule.candidates) == ("unmatched", None, candidates)


def test_one_reading_with_a_degree_is_no_ambiguity_but_no_option_either() -> None:
    # "Spicy" could be "Less Spicy" only: not offered as asked
    assert resolve_option("Spicy", ("Less Spicy", "Hot")) == OptionChoice("Spicy", "unmatched")


def test_a_negation_added_is_no_reading() -> None:
    offered = ("No Chili or Vinegar Packets", "Both Chili and Vinegar Packets", "Only Chili Packet")
    got = resolve_option("Chili and vinegar packets", offered)
    assert got.option == "Both Chili and Vinegar Packets"
    zh = ("只要辣椒包", "只要醋包", "无需辣椒醋包", "辣椒醋包都要")
    assert resolve_option("辣椒醋包", zh).option == "辣椒醋包都要"
    assert resolve_option("醋包", zh).how == "ambiguous"


# ---- the parts -------------------------------------------------------------------------------


def test_extra_tokens() -> None:
    assert _extra(("a", "c"), ("a", "b", "c"), ordered=True) == ["b"]
    assert _extra(("c", "a"), ("a", "b", "c"), ordered=True) is None
    assert _extra(("c", "a"), ("a", "b", "c"), ordered=False) == ["b"]
    assert _extra(("a", "a"), ("a", "b"), ordered=False) is None
    assert _extra(("a", "a"), ("a", "b"), ordered=True) is None
    assert _extra(("b",), ("a", "b", "b"), ordered=True) == ["a", "b"]
    assert _extra((), ("a",), ordered=True) == ["a"]


def test_names_in_full() -> None:
    assert names("white oreo", "White Skin Oreo")
    assert names("White Skin Oreo", "white oreo")  # extended wording, every clause shared
    assert not names("white oreo", "white oreo")  # same length: rule 3's business
    assert not names("white oreo", "black oreo")
    assert not names("", "Hot") and not names("Hot", "")
    assert not names("no ice", "ice")
    assert not names("Hot, Warm", "Hot")
    assert names("Mild, Spicy sauce", "Mild Spicy")  # every clause of the wording shares a word
    assert names("Hot", "Hot, Warm")
    assert names("Hot (warm)", "Hot warm pot")  # both clauses share a word
    assert not names("辣", "辣椒") and not names("辣椒", "辣")
    assert names("辣椒醋包", "辣椒醋包都")
    assert names("ice tea", "tea ice lemon")  # no modifier: any order
    assert not names("less ice", "ice less lemon")  # a modifier: in order


def test_near_in_full() -> None:
    assert _near("Spicy", "Less Spicy")
    assert _near("Sugar", "50% Sugar")
    assert _near("Sugar", "No 50% Sugar")  # a degree added, a negation too
    assert not _near("Ice", "No Ice")  # only a negation
    assert not _near("Spicy", "Mala Spicy")  # a word, not a degree
    assert not _near("Less Spicy", "Spicy")  # the wording is the longer one
    assert not _near("Spicy", "Spicy")
    assert not _near("Spicy", "Hot")
    assert _near("辣", "微辣")


def test_option_choice_resolved() -> None:
    for how in ("none", "free", "option", "combination"):
        assert OptionChoice("x", how).resolved  # type: ignore[arg-type]
    for how in ("ambiguous", "unmatched"):
        assert not OptionChoice("x", how).resolved  # type: ignore[arg-type]


def test_attribute_rules_of_every_kind() -> None:
    offered = SPICE
    assert attribute_rule(" ", offered) == AttributeRule(" ", "none", None, "", offered)
    assert attribute_rule(" Warm ", ()) == AttributeRule(
        " Warm ", "free", text_key("warm"), "Warm", ()
    )
    assert attribute_rule("regular spicy", offered) == AttributeRule(
        "regular spicy", "option", text_key("Normal Spicy"), "Normal Spicy", offered
    )
    assert attribute_rule("Mild Spicy", offered) == AttributeRule(
        "Mild Spicy", "option", text_key("Mild"), "Mild", offered
    )
    assert attribute_rule("hot, no ice", offered) == AttributeRule(
        "hot, no ice", "combination", text_key("Hot, No Ice"), "Hot, No Ice", offered
    )
    assert attribute_rule("Warm", list(offered)).offered == offered
    blank = ("", " ")  # blank options are no options: free text, the offered list kept
    assert attribute_rule("crunchy", blank) == AttributeRule(
        "crunchy", "free", text_key("crunchy"), "crunchy", blank
    )


def test_the_tool_stores_what_the_grader_expects() -> None:
    product = StoreProduct(product_id="P", attributes=list(SPICE))
    for wording in ("regular spicy", "Mild Spicy", "hot, no ice", "", "None", "Mala"):
        stored = product.choose_attribute(wording)
        rule = attribute_rule(wording, SPICE)
        assert stored == rule.option
        assert chosen_key(stored) == (rule.key or ())


def test_chosen_key_with_the_offered_options() -> None:
    assert chosen_key("Mild Spicy", SPICE) == text_key("Mild")
    assert chosen_key(["hot", "no ice"], SPICE) == text_key("Hot, No Ice")
    assert chosen_key("Mild Spicy") == text_key("Mild Spicy")
    assert chosen_key("Warm", SPICE) == text_key("Warm")  # names nothing: its own key
    assert chosen_key("spicy", ("Normal Spicy", "Mala Spicy")) == text_key("spicy")
    assert chosen_key(None, SPICE) == () == chosen_key("", SPICE)
    # a combination whose clause names its option by a shortened form has the options' key
    assert (
        chosen_key(["hot", "mala"], SPICE) == text_key("Hot, Mala Spicy") != text_key("hot, mala")
    )
    # a list is its comma-joined parts, not its printed form
    assert chosen_key(["no\nice"]) == text_key("no ice") != text_key(str(["no\nice"]))
    assert chosen_key(["Less Ice", "No Added Sugar"]) == chosen_key("No added sugar, less ice")


# ---- a property: never the opposite, never another degree -----------------------------------

_WORDS = st.sampled_from(["ice", "sugar", "cilantro", "onion", "cheese", "sauce", "tea", "egg"])
_PHRASE = st.lists(_WORDS, min_size=1, max_size=3, unique=True).map(" ".join)
_DEGREES = st.sampled_from(["less", "extra", "half", "50%", "only", "double"])


@settings(max_examples=150, deadline=None)
@given(_PHRASE, _DEGREES)
def test_a_wording_never_names_its_opposite_or_another_degree(phrase: str, degree: str) -> None:
    opposite, graded = negated(phrase), f"{degree} {phrase}"
    offered = (opposite, graded, "Hot")
    assert resolve_option(phrase, offered).option not in (opposite, graded)
    assert resolve_option(phrase.upper(), (phrase, opposite, graded)).option == phrase
    assert resolve_option(opposite, (phrase, graded)).option not in (phrase, graded)
    assert resolve_option(graded, (phrase, opposite)).option not in (phrase, opposite)


# ---- the meaning key's new parts (grading/text.py) ---------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Three Parts Sweet", "30% Sweet"),
        ("3 parts sugar", "30% sugar"),
        ("one part ice", "10% ice"),
        ("ten parts sweetness", "100% sweetness"),
        ("10 parts sugar", "100% sugar"),
        ("三分糖", "3分糖"),
        ("三分糖", "30%糖"),
        ("十分甜", "100%甜"),
        ("七分冰", "70%冰"),
        ("Single portion", "Single serving"),
        ("Medium size approx. 300g", "Medium size about 300g"),
        ("ca. 300g", "about 300g"),
        ("abt. 300g", "approximately 300g"),
        ("around 300g", "roughly 300g"),
        ("Tomato Sauce", "Ketchup"),
        ("No. 5 combo", "number 5 combo"),
        ("No.5 combo", "number 5 combo"),
    ],
)
def test_new_equivalences(a: str, b: str) -> None:
    assert same_text(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("three parts sauce", "30% sauce"),  # only before sugar, sweetness or ice
        ("3 parts", "30%"),
        ("Three Parts Sweet", "Two Parts Sweet"),
        ("11 parts sugar", "110% sugar"),
        ("三十分钟", "三100%钟"),
        ("三分钟", "30%钟"),
        ("五分糖", "3分糖"),
        ("No ice", "number ice"),  # "No" without a number is a negation
        ("tomato", "ketchup"),
        ("sweet tomato sauces", "sweet ketchup"),  # a plural is another phrase
        ("approx", "about"),
    ],
)
def test_near_misses_of_the_new_equivalences(a: str, b: str) -> None:
    if (a, b) == ("approx", "about"):
        assert same_text(a, b)  # the word itself is a spelling variant
        return
    assert not same_text(a, b)


def test_tokens_in_text_order_and_clauses_as_written() -> None:
    assert text_tokens("No ice, extra sugar") == (NEGATION, "ice", "extra", "sugar")
    assert text_tokens(["Hot", "mild onions"]) == ("hot", "mild", "onion")
    assert text_tokens("请不要香菜") == (NEGATION, "香", "菜")
    assert text_tokens("") == ()
    assert clause_texts(" Hot ;  mild（少冰）, ") == ["Hot", "mild", "少冰"]
    assert clause_texts("Ａ／Ｂ") == ["A", "B"]  # full-width separators fold first
    assert clause_texts(" , ") == []


def test_clause_keys_are_tagged_ordered_or_unordered() -> None:
    assert text_key("tea ice") == (("u", ("ice", "tea")),)
    assert text_key("no ice") == (("o", (NEGATION, "ice")),)


def test_what_a_modifier_is() -> None:
    for token in (NEGATION, "less", "extra", "normal", "50", "300g", "少", "去", "只", "正"):
        assert is_modifier(token), token
    for token in ("ice", "both", "flavor", "都", "冰", "辣", ""):
        assert not is_modifier(token), token
    assert is_cjk("辣") and not is_cjk("a") and not is_cjk("5")
