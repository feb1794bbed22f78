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


# ---- every word list of the rule, entry by entry --------------------------------------------

from lifebench.vita.grading import text as text_rule  # noqa: E402


@pytest.mark.parametrize("word", sorted(text_rule._EN_NEGATIONS))
def test_each_english_negation(word: str) -> None:
    assert text_key(f"{word} ice") == (("o", (NEGATION, "ice")),)


@pytest.mark.parametrize("char", sorted(text_rule._ZH_NEGATIONS))
def test_each_chinese_negation(char: str) -> None:
    assert text_key(f"{char}加冰")[0][1][0] == NEGATION


@pytest.mark.parametrize("word", sorted(text_rule._EN_FILLERS))
def test_each_english_filler(word: str) -> None:
    assert same_text(f"{word} ice {word}", "ice")


@pytest.mark.parametrize("filler", text_rule._ZH_FILLERS)
def test_each_chinese_filler(filler: str) -> None:
    assert same_text(f"{filler}加冰{filler}", "加冰")


@pytest.mark.parametrize(("variant", "canonical"), sorted(text_rule._SYNONYMS.items()))
def test_each_spelling_variant(variant: str, canonical: str) -> None:
    assert text_key(f"{variant} rice") == text_key(f"{canonical} rice")
    assert text_key(f"{variant} rice")[0][1] == tuple(sorted((canonical, "rice")))


@pytest.mark.parametrize("word", sorted(text_rule._DEGREE))
def test_each_degree_word_keeps_word_order(word: str) -> None:
    other = "extra" if word == "less" else "less"
    assert not same_text(f"{word} ice {other} sugar", f"{other} ice {word} sugar")
    assert same_text(f"{word} ice", f"ice {word}")  # one degree word alone: order is free


@pytest.mark.parametrize(
    ("word", "key"),
    [
        ("unseparated", (NEGATION, "separated")),
        ("unending", (NEGATION, "ending")),
        ("unbreakable", (NEGATION, "breakable")),
        ("unconvertible", (NEGATION, "convertible")),
        ("unbaked", (NEGATION, "baked")),  # 7 letters: the shortest negated participle
        ("unused", ("unused",)),  # 6 letters: too short to split
        ("unsalty", ("unsalty",)),  # no participle ending
        ("unadded", (NEGATION, "extra")),  # the participle takes its spelling variant
    ],
)
def test_un_prefix(word: str, key: tuple[str, ...]) -> None:
    assert text_key(word)[0][1] == key


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("onions", "onion"),
        ("dishes", "dish"),
        ("peaches", "peach"),
        ("boxes", "box"),
        ("berries", "berry"),
        ("ties", "tie"),
        ("glass", "glass"),
        ("asparagus", "asparagus"),
        ("tennis", "tennis"),
        ("gas", "gas"),
        ("chips", "chip"),
        ("fizzes", "fizz"),
        ("flies", "fly"),
        ("kisses", "kiss"),
    ],
)
def test_plural_folding(word: str, stem: str) -> None:
    assert text_key(word)[0][1] == (stem,)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no ice", "ice"),
        ("Not spicy", "spicy"),
        ("WITHOUT sugar", "sugar"),
        ("don't add ice", "add ice"),
        ("do not add ice", "add ice"),
        ("不要葱", "葱"),
        ("不辣", "辣"),
        ("无糖", "糖"),
        ("没有葱", "葱"),
        ("别放葱", "放葱"),
        ("加冰", "不加冰"),
        ("Ice", "No Ice"),
        ("  ice  ", "No ice"),
    ],
)
def test_negated_examples(text: str, expected: str) -> None:
    assert negated(text) == expected
    assert not same_text(text, negated(text))


def test_clause_separators() -> None:
    for sep in ",;.!?/|()[]{}<>:、，；。！？（）【】《》：":
        assert same_text(f"ice{sep}sugar", "sugar, ice"), repr(sep)
    assert text_key("ice-cold 50%") == text_key("ice cold 50")
    assert text_key("children's") == text_key("childrens")
    assert text_key("don’t") == text_key("do not")
    assert same_text("ice\nsugar", "ice sugar")  # line breaks are spaces, not separators


def test_tokens_after_a_negation_still_count() -> None:
    assert not same_text("no ice", "no sugar")
    assert not same_text("不加冰", "不加糖")
    assert not same_text("soup unseparated", "unseparated")
    assert not same_text("without ice please", "without sugar please")


def test_words_after_a_negated_participle_still_count() -> None:
    assert not same_text("unseparated soup", "unseparated")
    assert not same_text("unsalted butter", "unsalted")
