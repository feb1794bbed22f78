"""The text rule of the state grader (docs/evaluation.md, "Comparing text"): every example."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifebench.vita.grading.text import (
    NEGATION,
    is_blank,
    negated,
    normalise,
    same_text,
    text_key,
)

# (a, b): must never be equated — a phrase and its negation, or a qualifier added / dropped.
DIFFERENT = [
    ("汤粉分离", "汤粉不分离"),
    ("需要加热", "不需要加热"),
    ("No green onions", "green onions"),
    ("Cumin Flavor", "Cumin and Chili Flavor"),
    ("Unseparated soup and noodles", "Soup and Noodles Separated"),
    ("Extra Spicy", "Mild Spicy"),
    ("Less ice", "Ice"),
    ("No ice", "Less ice"),
    ("No onions, extra cheese", "Extra onions, no cheese"),
    ("No onions and extra cheese", "Extra onions and no cheese"),
    ("more ice less sugar", "less ice more sugar"),
    ("辣多葱少", "葱多辣少"),
    ("微辣", "中辣"),
    ("Unsalted butter", "Salted butter"),
    ("Don't add ice", "Add ice"),
    ("Hot", "Iced"),
    ("Coconut Shreds", "Coconut"),
    ("White Oreo Flavor", "White Skin Oreo Flavor"),
]

# (a, b): the same request in other words — case, width, punctuation, order of clauses or of
# the words of a clause without negation, plurals, filler words, listed spelling variants.
SAME = [
    ("No ice", "no ICE"),
    ("Ｎｏ ｉｃｅ", "no ice"),
    ("Separated soup and noodles", "Soup and Noodles Separated"),
    ("Only with cilantro", "Cilantro only"),
    ("Regular Spicy", "Normal Spicy"),
    ("50% Sugar Level", "50% Sugar"),
    ("No Extra Sugar (Recommended)", "No Additional Sugar (Recommended)"),
    ("No additional sugar (not recommended)", "No Added Sugar (Not Recommended)"),
    ("More ginger", "Extra Ginger"),
    ("Less ice, No extra sugar", "No Added Sugar, Less Ice"),
    ("No green onions and cilantro.", "No green onions or cilantro"),
    ("No disposable cutlery", "No disposable tableware"),
    ("Don't add ice", "do not add ice"),
    ("不要香菜", "请不要香菜"),
    ("No onions", "no onion, please"),
    (["Less ice", "No added sugar"], "Less ice, No added sugar"),
]


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_never_equates_a_negation_or_a_qualifier_change(a: str, b: str) -> None:
    assert not same_text(a, b)
    assert not same_text(b, a)


@pytest.mark.parametrize(("a", "b"), SAME)
def test_equates_the_same_request_in_other_words(a: str | list[str], b: str) -> None:
    assert same_text(a, b)
    assert same_text(b, a)


def test_normalise_folds_width_case_and_spaces() -> None:
    assert normalise("  Ｍｉｌｄ\u00a0 SPICY ") == "mild spicy"


def test_every_negation_becomes_one_token() -> None:
    for text in ("no", "not", "non", "without", "never", "不", "无", "没", "别"):
        assert NEGATION in text_key(f"{text} ice")[0][1], text
    assert text_key("unseparated")[0][1] == (NEGATION, "separated")
    assert text_key("under")[0][1] == ("under",)  # not a negated participle


def test_blank_text() -> None:
    assert is_blank(None) and is_blank("") and is_blank(" ,. ") and is_blank([])
    assert not is_blank("ice") and not is_blank(["ice"])
    assert same_text("", "  ")
    assert not same_text("", "ice")


def test_negated_reverses_the_meaning() -> None:
    assert negated("No green onions") == "green onions"
    assert negated("Less seasoning") == "No Less seasoning"
    assert negated("不要葱") == "葱"
    assert negated("加热") == "不加热"
    assert negated("extra chili", "zh") == "不extra chili"


_WORDS = st.sampled_from(
    [
        "ice",
        "sugar",
        "cilantro",
        "onion",
        "cheese",
        "spicy",
        "sauce",
        "rice",
        "noodle",
        "soup",
        "tea",
        "milk",
        "egg",
        "chili",
    ]
)
_PHRASE = st.lists(_WORDS, min_size=1, max_size=4).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(_PHRASE)
def test_a_phrase_never_equals_its_negation(phrase: str) -> None:
    assert not same_text(phrase, negated(phrase))
    assert not same_text(phrase, f"no {phrase}")
    assert not same_text(phrase, f"不{phrase}")


@settings(max_examples=200, deadline=None)
@given(_PHRASE, _WORDS)
def test_a_phrase_never_equals_itself_with_a_word_more(phrase: str, word: str) -> None:
    assert not same_text(phrase, f"{phrase} {word}")
    assert not same_text(phrase, f"{word} {phrase}")


@settings(max_examples=200, deadline=None)
@given(st.lists(_PHRASE, min_size=1, max_size=3), st.randoms())
def test_clause_order_never_matters(clauses: list[str], rnd: object) -> None:
    shuffled = list(clauses)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert same_text(", ".join(clauses), "; ".join(shuffled))
